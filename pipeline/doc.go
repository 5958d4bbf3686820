// Package pipeline is rlx's pass manager: the Pass interface and its
// registration types, pass managers nested by op name, textual pipelines,
// cached analyses, instrumentation (timing, IR dumps, statistics), crash
// reproducers and parallel execution over isolated-from-above ops.
//
// A PassManager is the top-level OpPassManager, anchored on an op name
// (usually "builtin.module"). OpPassManager.Nest adds a nested manager
// that runs on the ops directly inside the regions of the current op,
// never on ops nested deeper: `builtin.module(func.func(cse))` does not
// reach functions inside a nested module. This is MLIR's semantics, and
// the textual form is MLIR's too; String prints a manager so that
// ParsePipeline reads it back into an equal pipeline.
//
// Invariants:
//
//   - Passes are created from PassInfo values listed explicitly in a
//     Registry; nothing registers itself from init().
//   - A pass may run concurrently on sibling ops; it may only change the
//     op it runs on. Parallel runs report diagnostics and instrumentation
//     output in exactly the order of a sequential run, so output does not
//     depend on --mlir-disable-threading.
//   - After each pass the analyses it did not preserve are dropped and,
//     with VerifyEach, the op is verified. A verifier failure fails the
//     pipeline like a pass failure.
//   - A panic inside a pass is recovered and reported as a located error
//     (and a crash reproducer when enabled), never as a Go stack dump.
//
// The pipeline package knows no concrete pass; rlx's passes live in
// package passes, and pipeline/testpass holds the test passes rlx-opt
// registers for its own tests (like mlir-opt's test passes).
package pipeline
