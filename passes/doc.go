// Package passes lists every pass rlx has. Each pass lives in its own
// package, with its logic as plain functions over *ir.Operation (usable
// without a pass manager) and a pipeline.PassInfo that wraps them:
//
//	canonicalize      folders and canonicalization patterns to a fixed point
//	cse               common sub-expression elimination
//	hybrid-inline     put mps.subgraph and thunk.call regions back in line
//	hybrid-split      partition a function into mps.subgraph and thunk.call regions
//	lower-to-mps      graph ops in mps.subgraph regions to MPSGraph primitives
//	print-op-stats    the "Operations encountered:" table (or JSON)
//	strip-debuginfo   every location becomes loc(unknown)
//	symbol-dce        erase unreferenced invisible symbols
//	topological-sort  order graph regions by their def-use edges
//	view-op-graph     Graphviz DOT of an op
//
// Tools register them with pipeline.NewRegistry(passes.All()...). The
// options, defaults and output formats of the passes MLIR also has are
// MLIR's; docs/passes/ and docs/hybrid-split.md describe each pass.
package passes
