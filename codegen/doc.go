// Package codegen lists the translations rlx-translate offers (All), in
// the explicit way passes.All lists the passes. Each code generator lives
// in a package of its own under codegen/ and exports its translation
// (package translation defines what one is):
//
//   - codegen/dot: mlir-to-dot, a function as a Graphviz drawing;
//   - codegen/llvmir: mlir-to-llvmir, the LLVM IR host module that runs a
//     split function's plan through rlx_runtime.h, and its C header;
//   - codegen/metal: mlir-to-msl, the MSL kernels of the Metal thunk
//     regions and their manifest;
//   - codegen/mps: mlir-to-mpsgraph, Objective-C MPSGraph builders for the
//     mps.subgraph regions after lower-to-mps, and their header.
package codegen
