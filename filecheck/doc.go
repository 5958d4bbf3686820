// Package filecheck is a work-alike of LLVM's FileCheck 19: it verifies
// that a text (usually a tool's output) matches the directives in a check
// file.
//
// All of FileCheck's directives are supported (CHECK, -NEXT, -SAME, -NOT,
// -DAG, -LABEL, -EMPTY, -COUNT-n, {LITERAL}, COM: and RUN: comments), with
// {{regex}} blocks in LLVM's POSIX-ERE dialect, string variables [[X:re]] /
// [[X]], numeric variables and expressions [[#%x,N:]] / [[#N+1]], @LINE,
// -D and -D# definitions, and the options of the LLVM tool. Matching
// follows LLVM's algorithm step by step, CHECK-DAG, CHECK-NOT and
// CHECK-LABEL included, and diagnostics, -v traces and the annotated
// -dump-input are written byte for byte in LLVM's format, so LLVM's own
// FileCheck test suite can check this implementation.
//
// Two extensions are on by default: a lint that rejects near-miss
// directives LLVM silently ignores ("CHECK-NXET:", "CHECK-NEXT foo",
// "CHEKC:"), and a warning for a CHECK-NOT whose search range is empty.
// Options.NoLint and Options.NoEmptyNotWarning turn them off.
//
// Check runs one check in-process; Main is the command-line tool
// (tools/filecheck). A run keeps all state in values it creates, so runs
// may proceed concurrently. Regular expressions are handled by the
// internal posixre package.
package filecheck
