// Package run is rlx-run, the command-line front end of the reference
// interpreter (package ref): it parses and verifies an MLIR file, binds
// inputs and weights from files or from a seed, runs one function, and
// prints, saves or compares its results. tools/rlx-run is a thin main
// around Main; docs/rlx-run.md is the user documentation.
package run
