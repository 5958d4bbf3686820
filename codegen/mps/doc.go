// Package mps writes the MPSGraph builders of a module after lower-to-mps:
// for every mps.subgraph, an Objective-C function that adds the region's
// primitives to an MPSGraph, one call per primitive with the selector the
// mps dialect's table gives it (dialect/mps, prims.go), and a header
// declaring them. rlx-translate --mlir-to-mpsgraph runs it
// (docs/codegen-mps.md).
//
// A builder is
//
//	NSArray<MPSGraphTensor *> *_Nullable rlx_build_<symbol>(MPSGraph *graph,
//	    NSArray<MPSGraphTensor *> *inputs,
//	    NSMutableDictionary<NSString *, MPSGraphTensor *> *weights,
//	    NSDictionary<NSString *, NSData *> *constants);
//
// inputs are the region's arguments; weights (mps.placeholder, named as
// the graph.param) are placeholders made once per graph and fed by name
// by the runtime; constants larger than Options.MaxInlineBytes are passed
// in as NSData under a key the header lists, and smaller ones are written
// into the source. Methods newer than the deployment target
// (Options.MacOS: reciprocalSquareRootWithTensor:name: and
// scaledDotProductAttention… of macOS 15, transposeTensor:permutation:name:
// of macOS 13) are called under `@available` through helpers whose
// fallback (…_before_macosN) builds the same values with older methods.
// The output depends only on the module and the options.
//
// The generated code is checked on Linux in two ways, by the tests here
// when clang-19 (and GNUstep, for the second) are installed: it compiles
// with clang -fsyntax-only -fobjc-arc for arm64-apple-macosx against the
// stub SDK in sdk/ (our own declarations of the Foundation, Metal and
// MetalPerformanceShadersGraph subset the builders use, with Apple's
// signatures, nullability and availability, written from the
// documentation) under -Werror=unguarded-availability-new -Werror; and it
// runs, built with GNUstep's Foundation against a recording
// implementation of the stub's MPSGraph (testdata/recorder.m), which
// writes back the graph each builder built as mps primitives, so the
// tests compare it with the lowered region op for op.
package mps
