// Package mlirdiff holds the differential tests of rlx's passes against
// mlir-opt 19: each `// -----` chunk of an input file is run through an
// rlx pass pipeline and compared with what mlir-opt-19 prints for the same
// pipeline, in the generic and in the custom form (or, for print-op-stats
// and view-op-graph, on stderr).
//
// The inputs live in ../../testdata/mlir. Those under rlx/ are written for
// rlx, cover cse, canonicalize, symbol-dce, strip-debuginfo,
// topological-sort, print-op-stats and view-op-graph, and use only ops
// both tools give the same semantics (builtin, func and unregistered
// ops); they always run. MLIR's own test files (upstream/) and the
// translations derived from them (derived/) are not committed: their
// cases run when the files are present and are skipped otherwise.
//
// mlir-opt's outputs are recorded under ../../testdata/mlir/oracle, so the
// test runs without LLVM. `go test -oracle` re-runs mlir-opt-19 and
// compares against it instead (skipped when it is not installed), and
// `go test -oracle -update` rewrites the recordings. Chunks known to
// differ are listed, each with its reason, in
// ../../testdata/mlir/known-differences.txt; the test fails on any other
// difference in the generic form or on stderr, and on a listed chunk that
// now matches, and it logs the pass rate of every case.
package mlirdiff
