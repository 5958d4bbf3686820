// Package toposort is the topological-sort pass: in every region without
// SSA dominance (graph regions, such as a module body) it reorders the ops
// of each block so that definitions come before uses where possible, as
// MLIR's TopologicalSort does. Cycles are broken at the first unscheduled
// op; a block terminator stays last.
package toposort
