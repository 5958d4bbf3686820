// Package optdriver is rlx-opt: it parses MLIR text, verifies it, runs a
// pass pipeline and prints the result, with mlir-opt's flags and exit
// codes. The rlx-opt command is a thin wrapper around Main.
package optdriver
