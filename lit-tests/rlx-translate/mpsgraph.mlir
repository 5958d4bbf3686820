// RUN: rlx-opt %s --hybrid-split --lower-to-mps -o %t.mlir
// RUN: rlx-translate --mlir-to-mpsgraph %t.mlir -o %t.m
// RUN: FileCheck %s < %t.m
// RUN: FileCheck %s --check-prefix=HDR < %t.h
// RUN: rlx-translate --mlir-to-mpsgraph --macos-version=12.0 %t.mlir | FileCheck %s --check-prefix=V12
// RUN: rlx-translate --mlir-to-mpsgraph --macos-version=15.0 %t.mlir | FileCheck %s --check-prefix=V15
// RUN: rlx-translate --mlir-to-mpsgraph --max-inline-bytes=0 %t.mlir | FileCheck %s --check-prefix=PASSED
// RUN: not rlx-translate --mlir-to-mpsgraph --macos-version=11.0 %t.mlir 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: not rlx-translate --mlir-to-mpsgraph %s 2>&1 | FileCheck %s --check-prefix=UNSPLIT
// RUN: rlx-opt %s --hybrid-split -o %t.split.mlir
// RUN: not rlx-translate --mlir-to-mpsgraph %t.split.mlir 2>&1 | FileCheck %s --check-prefix=UNLOWERED

// One builder per mps.subgraph, after lower-to-mps: a decomposition (the
// norm), data movement (rope's strided slices and interleave), attention
// (permutations, the causal mask as an inline bool constant, select,
// softmax) and one-to-one ops (a weight, a cast, gather, a reduction, a
// broadcast). The header beside -o declares each builder and lists its
// inputs, results, weights and passed-in constants. rsqrt is macOS 15's:
// for macOS 14 it goes through rlx_rsqrt, which falls back to macOS 11's
// reverseSquareRoot; for macOS 12 the permutation falls back too; for
// macOS 15 both are called directly.

// CHECK:      #import <Foundation/Foundation.h>
// CHECK-NEXT: #import <MetalPerformanceShadersGraph/MetalPerformanceShadersGraph.h>
// CHECK:      static MPSGraphTensor *rlx_weight(
// CHECK:      static MPSGraphTensor *rlx_rsqrt(MPSGraph *graph, MPSGraphTensor *x) {
// CHECK-NEXT:   if (@available(macOS 15.0, *)) {
// CHECK-NEXT:     return [graph reciprocalSquareRootWithTensor:x name:nil];
// CHECK-NEXT:   }
// CHECK-NEXT:   return rlx_rsqrt_before_macos15(graph, x);

// CHECK-LABEL: NSArray<MPSGraphTensor *> *_Nullable rlx_build_norm_mps0(MPSGraph *graph, NSArray<MPSGraphTensor *> *inputs, NSMutableDictionary<NSString *, MPSGraphTensor *> *weights, NSDictionary<NSString *, NSData *> *constants) {
// CHECK-NEXT:    if ([inputs count] != 2) {
// CHECK-NEXT:      return nil;
// CHECK-NEXT:    }
// CHECK-NEXT:    MPSGraphTensor *in0 = [inputs objectAtIndex:0];
// CHECK-NEXT:    MPSGraphTensor *in1 = [inputs objectAtIndex:1];
// CHECK-NEXT:    MPSGraphTensor *t0 = [graph squareWithTensor:in0 name:nil];
// CHECK-NEXT:    MPSGraphTensor *t1 = [graph reductionSumWithTensor:t0 axes:@[@1] name:nil];
// CHECK-NEXT:    MPSGraphTensor *t2 = [graph constantWithScalar:8.0 shape:@[] dataType:MPSDataTypeFloat32];
// CHECK-NEXT:    MPSGraphTensor *t3 = [graph divisionWithPrimaryTensor:t1 secondaryTensor:t2 name:nil];
// CHECK-NEXT:    MPSGraphTensor *t4 = [graph constantWithScalar:9.999999974752427e-07 shape:@[] dataType:MPSDataTypeFloat32];
// CHECK-NEXT:    MPSGraphTensor *t5 = [graph additionWithPrimaryTensor:t3 secondaryTensor:t4 name:nil];
// CHECK-NEXT:    MPSGraphTensor *t6 = rlx_rsqrt(graph, t5);
// CHECK-NEXT:    MPSGraphTensor *t7 = [graph multiplicationWithPrimaryTensor:in0 secondaryTensor:t6 name:nil];
// CHECK-NEXT:    MPSGraphTensor *t8 = [graph multiplicationWithPrimaryTensor:t7 secondaryTensor:in1 name:nil];
// CHECK-NEXT:    return @[t8];
// CHECK-NEXT:  }
func.func @norm(%x: tensor<2x8xf32>, %g: tensor<8xf32>) -> tensor<2x8xf32> {
  %0 = graph.rms_norm %x, %g {epsilon = 1.0e-06 : f32} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// CHECK-LABEL: rlx_build_rope_mps0(
// CHECK:         MPSGraphTensor *t0 = [graph reshapeTensor:in0 withShape:@[@1, @3, @2, @16] name:nil];
// CHECK-NEXT:    MPSGraphTensor *t1 = [graph reshapeTensor:in1 withShape:@[@3, @1, @8] name:nil];
// CHECK-NEXT:    MPSGraphTensor *t2 = [graph reshapeTensor:in2 withShape:@[@3, @1, @8] name:nil];
// CHECK-NEXT:    MPSGraphTensor *t3 = [graph sliceTensor:t0 starts:@[@0, @0, @0, @0] ends:@[@1, @3, @2, @16] strides:@[@1, @1, @1, @2] name:nil];
// CHECK-NEXT:    MPSGraphTensor *t4 = [graph sliceTensor:t0 starts:@[@0, @0, @0, @1] ends:@[@1, @3, @2, @16] strides:@[@1, @1, @1, @2] name:nil];
// CHECK-NEXT:    MPSGraphTensor *t5 = [graph multiplicationWithPrimaryTensor:t3 secondaryTensor:t1 name:nil];
// CHECK-NEXT:    MPSGraphTensor *t6 = [graph multiplicationWithPrimaryTensor:t4 secondaryTensor:t2 name:nil];
// CHECK-NEXT:    MPSGraphTensor *t7 = [graph subtractionWithPrimaryTensor:t5 secondaryTensor:t6 name:nil];
// CHECK-NEXT:    MPSGraphTensor *t8 = [graph multiplicationWithPrimaryTensor:t4 secondaryTensor:t1 name:nil];
// CHECK-NEXT:    MPSGraphTensor *t9 = [graph multiplicationWithPrimaryTensor:t3 secondaryTensor:t2 name:nil];
// CHECK-NEXT:    MPSGraphTensor *t10 = [graph additionWithPrimaryTensor:t8 secondaryTensor:t9 name:nil];
// CHECK-NEXT:    MPSGraphTensor *t11 = [graph reshapeTensor:t7 withShape:@[@1, @3, @2, @8, @1] name:nil];
// CHECK-NEXT:    MPSGraphTensor *t12 = [graph reshapeTensor:t10 withShape:@[@1, @3, @2, @8, @1] name:nil];
// CHECK-NEXT:    MPSGraphTensor *t13 = [graph concatTensors:@[t11, t12] dimension:4 name:nil];
// CHECK-NEXT:    MPSGraphTensor *t14 = [graph reshapeTensor:t13 withShape:@[@1, @3, @32] name:nil];
// CHECK-NEXT:    return @[t14];
func.func @rope(%x: tensor<1x3x32xf32>, %c: tensor<3x8xf32>, %s: tensor<3x8xf32>) -> tensor<1x3x32xf32> {
  %0 = graph.rope %x, %c, %s {head_dim = 16, rotary_dim = 16, style = "gptj"} : (tensor<1x3x32xf32>, tensor<3x8xf32>, tensor<3x8xf32>) -> tensor<1x3x32xf32>
  return %0 : tensor<1x3x32xf32>
}

// CHECK-LABEL: rlx_build_attention_mps0(
// CHECK:         MPSGraphTensor *t0 = [graph transposeTensor:in0 permutation:@[@0, @2, @1, @3] name:nil];
// CHECK-NEXT:    MPSGraphTensor *t1 = [graph transposeTensor:in2 permutation:@[@0, @2, @1, @3] name:nil];
// CHECK-NEXT:    MPSGraphTensor *t2 = [graph constantWithData:[NSData dataWithBytes:rlx_build_attention_mps0_cst2 length:9] shape:@[@3, @3] dataType:MPSDataTypeBool];
// CHECK-NEXT:    MPSGraphTensor *t3 = [graph transposeTensor:in1 permutation:@[@0, @2, @3, @1] name:nil];
// CHECK-NEXT:    MPSGraphTensor *t4 = [graph matrixMultiplicationWithPrimaryTensor:t0 secondaryTensor:t3 name:nil];
// CHECK-NEXT:    MPSGraphTensor *t5 = [graph constantWithScalar:0.3535533845424652 shape:@[] dataType:MPSDataTypeFloat32];
// CHECK-NEXT:    MPSGraphTensor *t6 = [graph multiplicationWithPrimaryTensor:t4 secondaryTensor:t5 name:nil];
// CHECK-NEXT:    MPSGraphTensor *t7 = [graph constantWithScalar:-__builtin_inf() shape:@[] dataType:MPSDataTypeFloat32];
// CHECK-NEXT:    MPSGraphTensor *t8 = [graph selectWithPredicateTensor:t2 truePredicateTensor:t6 falsePredicateTensor:t7 name:nil];
// CHECK-NEXT:    MPSGraphTensor *t9 = [graph softMaxWithTensor:t8 axis:3 name:nil];
// CHECK-NEXT:    MPSGraphTensor *t10 = [graph matrixMultiplicationWithPrimaryTensor:t9 secondaryTensor:t1 name:nil];
// CHECK-NEXT:    MPSGraphTensor *t11 = [graph transposeTensor:t10 permutation:@[@0, @2, @1, @3] name:nil];
// CHECK-NEXT:    return @[t11];
func.func @attention(%q: tensor<1x3x2x8xf32>, %k: tensor<1x3x2x8xf32>, %v: tensor<1x3x2x8xf32>) -> tensor<1x3x2x8xf32> {
  %0 = graph.attention %q, %k, %v {mask = "causal"} : (tensor<1x3x2x8xf32>, tensor<1x3x2x8xf32>, tensor<1x3x2x8xf32>) -> tensor<1x3x2x8xf32>
  return %0 : tensor<1x3x2x8xf32>
}

// CHECK-LABEL: rlx_build_ops_mps0(
// CHECK:         MPSGraphTensor *t0 = rlx_weight(graph, weights, @"w", @[@8, @4], MPSDataTypeFloat32);
// CHECK-NEXT:    MPSGraphTensor *t1 = [graph castTensor:in0 toType:MPSDataTypeFloat32 name:nil];
// CHECK-NEXT:    MPSGraphTensor *t2 = [graph matrixMultiplicationWithPrimaryTensor:t1 secondaryTensor:t0 name:nil];
// CHECK-NEXT:    MPSGraphTensor *t3 = [graph gatherWithUpdatesTensor:t2 indicesTensor:in1 axis:1 batchDimensions:0 name:nil];
// CHECK-NEXT:    MPSGraphTensor *t4 = [graph reductionMaximumPropagateNaNWithTensor:t3 axes:@[@1] name:nil];
// CHECK-NEXT:    MPSGraphTensor *t5 = [graph reshapeTensor:t4 withShape:@[@2] name:nil];
// CHECK-NEXT:    MPSGraphTensor *t6 = [graph broadcastTensor:t5 toShape:@[@3, @2] name:nil];
// CHECK-NEXT:    MPSGraphTensor *t7 = [graph transposeTensor:t6 permutation:@[@1, @0] name:nil];
// CHECK-NEXT:    MPSGraphTensor *t8 = [graph sliceTensor:t7 dimension:1 start:0 length:3 name:nil];
// CHECK-NEXT:    return @[t8];
// CHECK:       NS_ASSUME_NONNULL_END
func.func @ops(%x: tensor<2x8xf16>, %i: tensor<3xi32>) -> tensor<2x3xf32> {
  %w = graph.param "w" : tensor<8x4xf32>
  %0 = graph.matmul %x, %w : (tensor<2x8xf16>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %1 = graph.gather %0, %i {axis = 1} : (tensor<2x4xf32>, tensor<3xi32>) -> tensor<2x3xf32>
  %2 = graph.reduce %1 {axes = array<i64: 1>, keep_dims = false, kind = "max"} : (tensor<2x3xf32>) -> tensor<2xf32>
  %3 = graph.broadcast %2 : (tensor<2xf32>) -> tensor<3x2xf32>
  %4 = graph.transpose %3 {permutation = array<i64: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %5 = graph.slice %4 {axis = 1, start = 0, length = 3} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %5 : tensor<2x3xf32>
}

// HDR:      NS_ASSUME_NONNULL_BEGIN
// HDR:      // @norm_mps0
// HDR-NEXT: //   input 0: tensor<2x8xf32>
// HDR-NEXT: //   input 1: tensor<8xf32>
// HDR-NEXT: //   result 0: tensor<2x8xf32>
// HDR-NEXT: NSArray<MPSGraphTensor *> *_Nullable rlx_build_norm_mps0(MPSGraph *graph, NSArray<MPSGraphTensor *> *inputs, NSMutableDictionary<NSString *, MPSGraphTensor *> *weights, NSDictionary<NSString *, NSData *> *constants);
// HDR:      // @ops_mps0
// HDR:      //   weight "w": tensor<8x4xf32>
// HDR-NEXT: NSArray<MPSGraphTensor *> *_Nullable rlx_build_ops_mps0(
// HDR:      NS_ASSUME_NONNULL_END

// V12: static MPSGraphTensor *rlx_permute_before_macos13(
// V12: x = [graph transposeTensor:x dimension:i withDimension:j name:nil];
// V12: MPSGraphTensor *t0 = rlx_permute(graph, in0, @[@0, @2, @1, @3]);

// V15-NOT: rlx_rsqrt
// V15-NOT: @available
// V15:     MPSGraphTensor *t6 = [graph reciprocalSquareRootWithTensor:t5 name:nil];

// PASSED:      NSData *_Nullable c0 = [constants objectForKey:@"attention_mps0.c0"];
// PASSED-NEXT: if (c0 == nil || [c0 length] != 9) {
// PASSED:      MPSGraphTensor *t2 = [graph constantWithData:c0 shape:@[@3, @3] dataType:MPSDataTypeBool];

// OLD: rlx-translate: for the --macos-version option: macOS 11.0 is older than 12.0, the oldest the MPSGraph builders support
// UNSPLIT: error: 'builtin.module' op holds no mps.subgraph to build: run --hybrid-split, then --lower-to-mps
// UNLOWERED: error: 'graph.rms_norm' op is not an MPSGraph primitive: run --lower-to-mps before --mlir-to-mpsgraph
// UNLOWERED: note: in the mps.subgraph @norm_mps0
