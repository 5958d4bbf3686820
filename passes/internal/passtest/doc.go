// Package passtest runs the golden tests of rlx's passes: each
// testdata/*.mlir file starts with a line `// PIPELINE: <pipeline>`
// (optionally followed by `// PRINT: debuginfo` to print locations), is
// split at `// -----` lines, and each chunk is parsed, run through the
// pipeline and printed; the outputs (with any diagnostics and anything the
// passes wrote to stderr) are compared with <file>.golden, which -update
// rewrites.
package passtest
