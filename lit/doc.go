// Package lit is a Go work-alike of LLVM's lit test runner, so that rlx's
// lit tests run with "go test" and no Python or LLVM install, and give the
// same verdicts as LLVM 19's lit on the same files.
//
// A suite is a directory with a lit.cfg.py. LLVM's lit runs that file as
// Python; this package reads only a declarative subset of it (see
// ParseConfig) up to the line LLVMOnlyMarker, and does natively what the
// Python after that line does for LLVM's lit: put the tools directory on
// PATH and replace tool names (config.rlx_tools) in RUN lines by their
// absolute paths.
//
// A test is a file whose extension is in config.suffixes. ParseScript reads
// its directives (RUN with '\' continuation, DEFINE/REDEFINE, XFAIL,
// REQUIRES, UNSUPPORTED, ALLOW_RETRIES, END.) exactly as lit does, quirks
// included: a keyword is found anywhere on a line. Substitutions (%s, %S,
// %p, %t, %T, %%, %/s, %{pathsep}, %(line), %if, DEFINEd names, tool names)
// are applied in lit's order.
//
// Each RUN line is parsed by ParseShell, a port of lit's ShLexer and
// ShParser (no operator precedence: "a || b && c" is "(a || b) && c"), and
// run by lit's internal shell semantics: pipes with pipefail, &&, || and ;,
// redirections, env and export, not and "!", and the builtins cd, pushd,
// popd, echo, mkdir, rm and ':'. cat and diff behave as lit's Python
// builtins; count, split-file and not --crash as LLVM's tools, all in Go
// inside the process. Everything else runs as a process. The log of a
// failing test has lit's format, so its output reads the same.
//
// Verdicts are lit's: PASS, FLAKYPASS (passed after ALLOW_RETRIES), XFAIL,
// UNSUPPORTED, FAIL, XPASS, UNRESOLVED (the test or its script is
// malformed) and TIMEOUT. Where LLVM 19's lit crashes on a script (a
// redirection from a missing file, '&', an unexpanded glob handed to a
// builtin), this package reports UNRESOLVED too. The edge cases are pinned
// by testdata/parity, which a test runs under both runners.
//
// Main is the lit command (tools/lit); Suite, Discover and Run are the API
// that lit-tests/lit_test.go uses to run each lit test as a Go subtest.
package lit
