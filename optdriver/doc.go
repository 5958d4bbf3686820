// Package optdriver is rlx-opt: it parses MLIR text, verifies it, runs a
// pass pipeline and prints the result, with mlir-opt's flags, messages and
// exit codes. The rlx-opt command is a thin wrapper around Main; MainWith
// builds the same driver for another set of passes and dialects (Config).
//
// Each input buffer — the whole file, or each chunk with
// --split-input-file — is handled on its own: a fresh ir.Context, its own
// pass manager, its own diagnostics (checked against the chunk's
// expected-* directives with --verify-diagnostics). Chunk buffers are
// named and numbered as in mlir-opt 19 ("within split at FILE:LINE offset
// "), and chunk outputs are joined with the output split marker, so output
// and diagnostics match mlir-opt's byte for byte where the IR does
// (TestAgainstMLIROpt checks this against mlir-opt-19 when it is
// installed).
//
// The pipeline comes from --pass-pipeline or from pass flags (implicit
// nesting); it is validated before any input is read. Reports
// (--mlir-timing, --mlir-pass-statistics, IR dumps, pipeline dumps) go to
// stderr. The output file is written only when everything succeeded.
package optdriver
