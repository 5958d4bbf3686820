// RUN: rlx-opt %s --hybrid-split --lower-to-mps | FileCheck %s
// RUN: rlx-opt %s --hybrid-split -o %t.split.mlir
// RUN: rlx-opt %t.split.mlir --lower-to-mps -o %t.low.mlir
// RUN: rlx-run %t.split.mlir --entry rms_norm --compare-with %t.low.mlir | FileCheck %s --check-prefix=SAME
// RUN: rlx-run %t.split.mlir --entry layer_norm --compare-with %t.low.mlir | FileCheck %s --check-prefix=SAME
// RUN: rlx-run %t.split.mlir --entry mean --compare-with %t.low.mlir | FileCheck %s --check-prefix=SAME
// RUN: rlx-run %t.split.mlir --entry silu --compare-with %t.low.mlir --tolerance 1e-6
// RUN: rlx-run %t.split.mlir --entry gelu --compare-with %t.low.mlir --tolerance 1e-6
// RUN: rlx-run %t.split.mlir --entry gelu_tanh --compare-with %t.low.mlir --tolerance 1e-6

// Each decomposition of lower-to-mps, on one op alone in a region: the
// primitives in order, computing in f32 (an f16 op is cast up and its
// result down once). The runs compare a function's lowered form with its
// graph form on the reference interpreter: the norms and the mean give
// the graph op's bits, silu and the gelus (whose kernels evaluate the
// whole formula in float64) stay within 1e-6. rope and attention are in
// rope.mlir and attention.mlir.

// SAME: bit-identical: yes

// CHECK-LABEL: func.func @rms_norm(
// CHECK:         ^bb0(%[[X:.*]]: tensor<2x8xf32>, %[[G:.*]]: tensor<8xf32>):
// CHECK-NEXT:      %[[SQ:.*]] = mps.square %[[X]]
// CHECK-NEXT:      %[[SS:.*]] = mps.reduce_sum %[[SQ]] {axes = array<i64: 1>} : (tensor<2x8xf32>) -> tensor<2x1xf32>
// CHECK-NEXT:      %[[D:.*]] = mps.constant dense<8.000000e+00> : tensor<f32>
// CHECK-NEXT:      %[[MS:.*]] = mps.div %[[SS]], %[[D]]
// CHECK-NEXT:      %[[EPS:.*]] = mps.constant dense<9.99999997E-7> : tensor<f32>
// CHECK-NEXT:      %[[A:.*]] = mps.add %[[MS]], %[[EPS]]
// CHECK-NEXT:      %[[R:.*]] = mps.rsqrt %[[A]]
// CHECK-NEXT:      %[[N:.*]] = mps.mul %[[X]], %[[R]] : (tensor<2x8xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:      %[[Y:.*]] = mps.mul %[[N]], %[[G]] : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:      mps.yield %[[Y]]
func.func @rms_norm(%x: tensor<2x8xf32>, %g: tensor<8xf32>) -> tensor<2x8xf32> {
  %0 = graph.rms_norm %x, %g {epsilon = 1.0e-06 : f32} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// CHECK-LABEL: func.func @layer_norm(
// CHECK:         ^bb0(%[[X:.*]]: tensor<2x8xf16>, %[[G:.*]]: tensor<8xf16>, %[[B:.*]]: tensor<8xf16>):
// CHECK-NEXT:      %[[XF:.*]] = mps.cast %[[X]] : (tensor<2x8xf16>) -> tensor<2x8xf32>
// CHECK-NEXT:      %[[D:.*]] = mps.constant dense<8.000000e+00>
// CHECK-NEXT:      %[[S:.*]] = mps.reduce_sum %[[XF]] {axes = array<i64: 1>}
// CHECK-NEXT:      %[[M:.*]] = mps.div %[[S]], %[[D]]
// CHECK-NEXT:      %[[C:.*]] = mps.sub %[[XF]], %[[M]]
// CHECK-NEXT:      %[[C2:.*]] = mps.square %[[C]]
// CHECK-NEXT:      %[[V:.*]] = mps.reduce_sum %[[C2]] {axes = array<i64: 1>}
// CHECK-NEXT:      %[[VAR:.*]] = mps.div %[[V]], %[[D]]
// CHECK-NEXT:      %[[EPS:.*]] = mps.constant dense<9.99999974E-6>
// CHECK-NEXT:      %[[A:.*]] = mps.add %[[VAR]], %[[EPS]]
// CHECK-NEXT:      %[[R:.*]] = mps.rsqrt %[[A]]
// CHECK-NEXT:      %[[N:.*]] = mps.mul %[[C]], %[[R]]
// CHECK-NEXT:      %[[GF:.*]] = mps.cast %[[G]] : (tensor<8xf16>) -> tensor<8xf32>
// CHECK-NEXT:      %[[NG:.*]] = mps.mul %[[N]], %[[GF]]
// CHECK-NEXT:      %[[BF:.*]] = mps.cast %[[B]] : (tensor<8xf16>) -> tensor<8xf32>
// CHECK-NEXT:      %[[Y:.*]] = mps.add %[[NG]], %[[BF]]
// CHECK-NEXT:      %[[YH:.*]] = mps.cast %[[Y]] : (tensor<2x8xf32>) -> tensor<2x8xf16>
// CHECK-NEXT:      mps.yield %[[YH]]
func.func @layer_norm(%x: tensor<2x8xf16>, %g: tensor<8xf16>, %b: tensor<8xf16>) -> tensor<2x8xf16> {
  %0 = graph.layer_norm %x, %g, %b {epsilon = 1.0e-05 : f32} : (tensor<2x8xf16>, tensor<8xf16>, tensor<8xf16>) -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// CHECK-LABEL: func.func @silu(
// CHECK:         ^bb0(%[[X:.*]]: tensor<2x8xf32>):
// CHECK-NEXT:      %[[S:.*]] = mps.sigmoid %[[X]]
// CHECK-NEXT:      %[[Y:.*]] = mps.mul %[[X]], %[[S]]
// CHECK-NEXT:      mps.yield %[[Y]]
func.func @silu(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = graph.silu %x : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// gelu: 0.5·x·(1+erf(x/√2)).
// CHECK-LABEL: func.func @gelu(
// CHECK:         ^bb0(%[[X:.*]]: tensor<2x8xf32>):
// CHECK-NEXT:      %[[C:.*]] = mps.constant dense<0.707106769> : tensor<f32>
// CHECK-NEXT:      %[[T:.*]] = mps.mul %[[X]], %[[C]]
// CHECK-NEXT:      %[[E:.*]] = mps.erf %[[T]]
// CHECK-NEXT:      %[[ONE:.*]] = mps.constant dense<1.000000e+00>
// CHECK-NEXT:      %[[A:.*]] = mps.add %[[E]], %[[ONE]]
// CHECK-NEXT:      %[[M:.*]] = mps.mul %[[X]], %[[A]]
// CHECK-NEXT:      %[[H:.*]] = mps.constant dense<5.000000e-01>
// CHECK-NEXT:      %[[Y:.*]] = mps.mul %[[M]], %[[H]]
// CHECK-NEXT:      mps.yield %[[Y]]
func.func @gelu(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = graph.gelu %x : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// gelu_tanh: 0.5·x·(1+tanh(√(2/π)·(x+0.044715·x³))).
// CHECK-LABEL: func.func @gelu_tanh(
// CHECK:         ^bb0(%[[X:.*]]: tensor<2x8xf32>):
// CHECK-NEXT:      %[[X2:.*]] = mps.mul %[[X]], %[[X]]
// CHECK-NEXT:      %[[X3:.*]] = mps.mul %[[X2]], %[[X]]
// CHECK-NEXT:      %[[K:.*]] = mps.constant dense<4.471500e-02>
// CHECK-NEXT:      %[[KX3:.*]] = mps.mul %[[X3]], %[[K]]
// CHECK-NEXT:      %[[IN:.*]] = mps.add %[[X]], %[[KX3]]
// CHECK-NEXT:      %[[C:.*]] = mps.constant dense<0.797884583>
// CHECK-NEXT:      %[[U:.*]] = mps.mul %[[IN]], %[[C]]
// CHECK-NEXT:      %[[T:.*]] = mps.tanh %[[U]]
// CHECK-NEXT:      %[[ONE:.*]] = mps.constant dense<1.000000e+00>
// CHECK-NEXT:      %[[A:.*]] = mps.add %[[T]], %[[ONE]]
// CHECK-NEXT:      %[[M:.*]] = mps.mul %[[X]], %[[A]]
// CHECK-NEXT:      %[[H:.*]] = mps.constant dense<5.000000e-01>
// CHECK-NEXT:      %[[Y:.*]] = mps.mul %[[M]], %[[H]]
// CHECK-NEXT:      mps.yield %[[Y]]
func.func @gelu_tanh(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = graph.gelu_tanh %x : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// A mean is a sum over the axes divided by their size; MPSGraph keeps the
// reduced axes, so without keep_dims a reshape drops them.
// CHECK-LABEL: func.func @mean(
// CHECK:         ^bb0(%[[X:.*]]: tensor<2x3x4xf32>):
// CHECK-NEXT:      %[[S:.*]] = mps.reduce_sum %[[X]] {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
// CHECK-NEXT:      %[[N:.*]] = mps.constant dense<3.000000e+00>
// CHECK-NEXT:      %[[M:.*]] = mps.div %[[S]], %[[N]]
// CHECK-NEXT:      %[[Y:.*]] = mps.reshape %[[M]] : (tensor<2x1x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:      mps.yield %[[Y]]
func.func @mean(%x: tensor<2x3x4xf32>) -> tensor<2x4xf32> {
  %0 = graph.reduce %x {axes = array<i64: 1>, keep_dims = false, kind = "mean"} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
