// Package testpass holds the test passes rlx-opt registers for testing the
// pass manager itself, like mlir-opt's test passes: passes that fail,
// panic, break the IR, emit diagnostics, declare every kind of option, or
// do a fixed amount of per-function work (for the parallelism benchmark).
// They are listed explicitly by All.
package testpass
