// Package opstats is the print-op-stats pass: it counts the ops of each
// name in the op it runs on and prints the table (or JSON) in exactly the
// format of MLIR's PrintOpStats, to stderr by default.
package opstats
