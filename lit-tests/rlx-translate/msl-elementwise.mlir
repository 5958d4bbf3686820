// RUN: rlx-translate --mlir-to-msl %s | FileCheck %s

// A run of element-wise ops of one shape is one kernel: operands read once
// (four at a time when every operand is full-size, a scalar or a repeated
// row), intermediates in registers, only values used after the run
// written. A splat constant is a literal.

// CHECK:       #include <metal_stdlib>
// CHECK-NEXT:  using namespace metal;
// CHECK:       static inline float rlx_silu(float x)

// CHECK-LABEL: // fused element-wise add, silu, cmp, select over [4 64]
// CHECK-NEXT:  kernel void ew_0(
// CHECK-NEXT:      device const float *in0 {{\[\[}}buffer(0){{\]\]}},
// CHECK-NEXT:      device const float *in1 {{\[\[}}buffer(1){{\]\]}},
// CHECK-NEXT:      device float *out1 {{\[\[}}buffer(2){{\]\]}},
// CHECK-NEXT:      device float *out3 {{\[\[}}buffer(3){{\]\]}},
// CHECK-NEXT:      uint3 tgpos {{\[\[}}threadgroup_position_in_grid{{\]\]}},
// CHECK-NEXT:      uint3 tpos {{\[\[}}thread_position_in_threadgroup{{\]\]}},
// CHECK-NEXT:      uint lane {{\[\[}}thread_index_in_simdgroup{{\]\]}},
// CHECK-NEXT:      uint sg {{\[\[}}simdgroup_index_in_threadgroup{{\]\]}},
// CHECK-NEXT:      uint3 tptg {{\[\[}}threads_per_threadgroup{{\]\]}})
// CHECK:         if (t >= 64u) {
// CHECK:         const float4 x0 = ((device const float4 *)in0)[t];
// CHECK-NEXT:    const float4 x1 = ((device const float4 *)in1)[t % 16u];
// CHECK:         for (uint c = 0; c < 4u; c++) {
// CHECK-NEXT:      float v0 = (float)x0[c] + (float)x1[c];
// CHECK-NEXT:      float v1 = rlx_silu(v0);
// CHECK-NEXT:      long v2 = (v1 > 0.5f ? (long)1 : (long)0);
// CHECK-NEXT:      float v3 = (v2 != 0 ? v1 : (-1.0f));
// CHECK:         ((device float4 *)out3)[t] = y3;

// Integers compute in 64 bits and wrap to the result type; a division by
// zero sets a bit of the status word instead of trapping. f16 results are
// rounded after each op, as the reference does.

// CHECK-LABEL: // fused element-wise div, cast over [7]
// CHECK:           device atomic_uint *status {{\[\[}}buffer(4){{\]\]}},
// CHECK:         long v0 = (long)(int)(rlx_idiv(x0, x1, status));
// CHECK-NEXT:    float v1 = (float)(half)((float)v0);
// CHECK-NEXT:    out0[t] = (int)v0;
// CHECK-NEXT:    out1[t] = (half)v1;

func.func @chain(%x: tensor<4x64xf32>, %b: tensor<64xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>) {
  %r:2 = thunk.call @chain_thunk(%x, %b) {target = "metal"} : (tensor<4x64xf32>, tensor<64xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>) {
  ^bb0(%a: tensor<4x64xf32>, %c: tensor<64xf32>):
    %0 = graph.add %a, %c : (tensor<4x64xf32>, tensor<64xf32>) -> tensor<4x64xf32>
    %1 = graph.silu %0 : (tensor<4x64xf32>) -> tensor<4x64xf32>
    %h = graph.constant dense<0.5> : tensor<f32>
    %2 = graph.cmp %1, %h {predicate = "gt"} : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xi1>
    %m = graph.constant dense<-1.0> : tensor<1xf32>
    %3 = graph.select %2, %1, %m : (tensor<4x64xi1>, tensor<4x64xf32>, tensor<1xf32>) -> tensor<4x64xf32>
    thunk.yield %1, %3 : tensor<4x64xf32>, tensor<4x64xf32>
  }
  return %r#0, %r#1 : tensor<4x64xf32>, tensor<4x64xf32>
}

func.func @ints(%x: tensor<7xi32>, %y: tensor<7xi32>) -> (tensor<7xi32>, tensor<7xf16>) {
  %r:2 = thunk.call @ints_thunk(%x, %y) {target = "metal"} : (tensor<7xi32>, tensor<7xi32>) -> (tensor<7xi32>, tensor<7xf16>) {
  ^bb0(%a: tensor<7xi32>, %b: tensor<7xi32>):
    %0 = graph.div %a, %b : (tensor<7xi32>, tensor<7xi32>) -> tensor<7xi32>
    %1 = graph.cast %0 : (tensor<7xi32>) -> tensor<7xf16>
    thunk.yield %0, %1 : tensor<7xi32>, tensor<7xf16>
  }
  return %r#0, %r#1 : tensor<7xi32>, tensor<7xf16>
}
