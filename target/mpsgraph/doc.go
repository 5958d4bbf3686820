// Package mpsgraph describes what Apple's MPSGraph can run, as a
// capability table: which graph ops hybrid-split may place in an
// mps.subgraph, under which conditions, and why the others stay native.
//
// A Table is data plus small predicates: one Row per group of ops, with a
// Kind (Yes, No, Conditional, Leaf), the condition or reason the docs
// show, and for a Conditional row a Check that decides it. One rule holds
// for every op besides its row (TypeOK): an operand or result with a
// dynamic dim, or with an element type MPSGraph lacks, keeps the op
// native. The element types depend on the MPSGraph version (Config), so
// each target (package target) makes its own table with New.
//
// Capability is a property of an op in the function before partitioning.
// For graph.attention it depends on where q, k and v come from
// (LeafMaterialised): MPSGraph computes attention over slices of computed
// tensors wrongly, so they must be read from a function argument, a
// param or a constant through view ops only. Once a function is split,
// the same question is answered by following values back across region
// boundaries (regionop.Source), so the mps.subgraph verifier and
// hybrid-split agree op for op.
//
// Asking costs nothing for the ops that are capable, and formats no reason
// unless one is asked for (Capable against IsCapable): hybrid-split asks
// about every op of million-op functions.
package mpsgraph
