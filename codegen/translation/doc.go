// Package translation defines what a translation is, in MLIR's sense
// (mlir-translate): a named conversion of a module into text or files
// that are not IR, such as MSL kernels, Objective-C MPSGraph builders, an
// LLVM IR host module or a DOT drawing. A Translation is a plain value: a
// name (its flag, --mlir-to-msl), a summary for --help, the options it
// reads, and a Run function. The code generators each export one; the
// explicit list rlx-translate offers is codegen.All.
//
// Run gets a Request: the parsed and verified module, the values of its
// options, the main output (-o), and Aux, which opens a second file
// beside the main one (out.manifest.json beside out.metal). A user's
// mistake (an input the translation cannot handle) is returned as a
// located *ir.Diagnostic, which the driver renders as mlir-opt does.
package translation
