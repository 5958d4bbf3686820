// RUN: rlx-opt %s --hybrid-split --lower-to-mps | FileCheck %s
// RUN: rlx-opt %s --hybrid-split --lower-to-mps=sdpa | FileCheck %s --check-prefix=SDPA
// RUN: rlx-opt %s --hybrid-split -o %t.split.mlir
// RUN: rlx-opt %t.split.mlir --lower-to-mps -o %t.low.mlir
// RUN: rlx-run %t.split.mlir --entry causal --compare-with %t.low.mlir | FileCheck %s --check-prefix=SAME
// RUN: rlx-run %t.split.mlir --entry custom --compare-with %t.low.mlir | FileCheck %s --check-prefix=SAME
// RUN: rlx-opt %t.split.mlir --lower-to-mps=sdpa -o %t.sdpa.mlir
// RUN: rlx-run %t.split.mlir --entry custom --compare-with %t.sdpa.mlir | FileCheck %s --check-prefix=SAME

// Attention written by hand: q [B, Sq, H, D] to [B, H, Sq, D]; k and v
// with their kv heads repeated for GQA (a trailing axis broadcast) and
// permuted; scores q·kᵀ, times the scale, the softcap c·tanh(s/c), a
// select of −∞ where the mask drops a key, softmax over the keys, times
// v, back to [B, Sq, H, Dv]. A custom mask [B, Sk] keeps keys ≥ 0.5, and
// a query that keeps none gives zeros, as graph.attention defines it.
// Both give the graph op's bits on the interpreter, and so does the sdpa
// option (MPSGraph's own attention, macOS 15) where it applies: without
// a softcap (the causal function keeps the hand-written form).

// SAME: bit-identical: yes

// CHECK-LABEL: func.func @causal(
// CHECK:         ^bb0(%[[Q:.*]]: tensor<1x3x4x8xf32>, %[[K:.*]]: tensor<1x3x2x8xf32>, %[[V:.*]]: tensor<1x3x2x8xf32>):
// CHECK-NEXT:      %[[QH:.*]] = mps.permute %[[Q]] {permutation = array<i64: 0, 2, 1, 3>} : (tensor<1x3x4x8xf32>) -> tensor<1x4x3x8xf32>
// CHECK-NEXT:      %[[V5:.*]] = mps.reshape %[[V]] : (tensor<1x3x2x8xf32>) -> tensor<1x3x2x1x8xf32>
// CHECK-NEXT:      %[[VB:.*]] = mps.broadcast %[[V5]] : (tensor<1x3x2x1x8xf32>) -> tensor<1x3x2x2x8xf32>
// CHECK-NEXT:      %[[VR:.*]] = mps.reshape %[[VB]] : (tensor<1x3x2x2x8xf32>) -> tensor<1x3x4x8xf32>
// CHECK-NEXT:      %[[VH:.*]] = mps.permute %[[VR]] {permutation = array<i64: 0, 2, 1, 3>}
// CHECK-NEXT:      %[[KEEP:.*]] = mps.constant dense<{{\[}}[true, false, false], [true, true, false], [true, true, true]]> : tensor<3x3xi1>
// CHECK-NEXT:      %[[K5:.*]] = mps.reshape %[[K]]
// CHECK-NEXT:      %[[KB:.*]] = mps.broadcast %[[K5]]
// CHECK-NEXT:      %[[KR:.*]] = mps.reshape %[[KB]]
// CHECK-NEXT:      %[[KT:.*]] = mps.permute %[[KR]] {permutation = array<i64: 0, 2, 3, 1>} : (tensor<1x3x4x8xf32>) -> tensor<1x4x8x3xf32>
// CHECK-NEXT:      %[[S:.*]] = mps.matmul %[[QH]], %[[KT]] : (tensor<1x4x3x8xf32>, tensor<1x4x8x3xf32>) -> tensor<1x4x3x3xf32>
// CHECK-NEXT:      %[[SC:.*]] = mps.constant dense<0.353553385> : tensor<f32>
// CHECK-NEXT:      %[[S1:.*]] = mps.mul %[[S]], %[[SC]]
// CHECK-NEXT:      %[[CAP:.*]] = mps.constant dense<3.000000e+01> : tensor<f32>
// CHECK-NEXT:      %[[S2:.*]] = mps.div %[[S1]], %[[CAP]]
// CHECK-NEXT:      %[[S3:.*]] = mps.tanh %[[S2]]
// CHECK-NEXT:      %[[S4:.*]] = mps.mul %[[S3]], %[[CAP]]
// CHECK-NEXT:      %[[NINF:.*]] = mps.constant dense<0xFF800000> : tensor<f32>
// CHECK-NEXT:      %[[S5:.*]] = mps.select %[[KEEP]], %[[S4]], %[[NINF]] : (tensor<3x3xi1>, tensor<1x4x3x3xf32>, tensor<f32>) -> tensor<1x4x3x3xf32>
// CHECK-NEXT:      %[[P:.*]] = mps.softmax %[[S5]] {axis = 3 : i64}
// CHECK-NEXT:      %[[O:.*]] = mps.matmul %[[P]], %[[VH]] : (tensor<1x4x3x3xf32>, tensor<1x4x3x8xf32>) -> tensor<1x4x3x8xf32>
// CHECK-NEXT:      %[[OUT:.*]] = mps.permute %[[O]] {permutation = array<i64: 0, 2, 1, 3>} : (tensor<1x4x3x8xf32>) -> tensor<1x3x4x8xf32>
// CHECK-NEXT:      mps.yield %[[OUT]]
// SDPA-LABEL:  func.func @causal(
// SDPA-NOT:      mps.sdpa
// SDPA:          mps.softmax
func.func @causal(%q: tensor<1x3x4x8xf32>, %k: tensor<1x3x2x8xf32>, %v: tensor<1x3x2x8xf32>) -> tensor<1x3x4x8xf32> {
  %0 = graph.attention %q, %k, %v {mask = "causal", softcap = 30.0 : f32} : (tensor<1x3x4x8xf32>, tensor<1x3x2x8xf32>, tensor<1x3x2x8xf32>) -> tensor<1x3x4x8xf32>
  return %0 : tensor<1x3x4x8xf32>
}

// CHECK-LABEL: func.func @custom(
// CHECK:         ^bb0(%[[Q:.*]]: tensor<1x1x2x8xf32>, %[[K:.*]]: tensor<1x5x2x8xf32>, %[[V:.*]]: tensor<1x5x2x8xf32>, %[[M:.*]]: tensor<1x5xf32>):
// CHECK:           %[[HALF:.*]] = mps.constant dense<5.000000e-01>
// CHECK-NEXT:      %[[GE:.*]] = mps.greater_equal %[[M]], %[[HALF]] : (tensor<1x5xf32>, tensor<f32>) -> tensor<1x5xi1>
// CHECK-NEXT:      %[[KEEP:.*]] = mps.reshape %[[GE]] : (tensor<1x5xi1>) -> tensor<1x1x1x5xi1>
// CHECK-NEXT:      %[[KF:.*]] = mps.cast %[[KEEP]] : (tensor<1x1x1x5xi1>) -> tensor<1x1x1x5xf32>
// CHECK-NEXT:      %[[KN:.*]] = mps.reduce_sum %[[KF]] {axes = array<i64: 3>}
// CHECK-NEXT:      %[[ZERO:.*]] = mps.constant dense<0.000000e+00>
// CHECK-NEXT:      %[[ANY:.*]] = mps.greater %[[KN]], %[[ZERO]] : (tensor<1x1x1x1xf32>, tensor<f32>) -> tensor<1x1x1x1xi1>
// CHECK:           mps.select %[[KEEP]], {{.*}} : (tensor<1x1x1x5xi1>, tensor<1x2x1x5xf32>, tensor<f32>) -> tensor<1x2x1x5xf32>
// CHECK-NEXT:      mps.softmax
// CHECK-NEXT:      %[[O:.*]] = mps.matmul
// CHECK-NEXT:      mps.constant dense<0.000000e+00>
// CHECK-NEXT:      mps.select %[[ANY]], %[[O]], {{.*}} : (tensor<1x1x1x1xi1>, tensor<1x2x1x8xf32>, tensor<f32>) -> tensor<1x2x1x8xf32>
// SDPA-LABEL:  func.func @custom(
// SDPA:          %[[KEEP:.*]] = mps.reshape {{.*}} -> tensor<1x1x1x5xi1>
// SDPA:          %[[KH:.*]] = mps.permute {{.*}} {permutation = array<i64: 0, 2, 1, 3>} : (tensor<1x5x2x8xf32>) -> tensor<1x2x5x8xf32>
// SDPA-NEXT:     %[[ZERO:.*]] = mps.constant dense<0.000000e+00>
// SDPA-NEXT:     %[[NINF:.*]] = mps.constant dense<0xFF800000>
// SDPA-NEXT:     %[[ADD:.*]] = mps.select %[[KEEP]], %[[ZERO]], %[[NINF]] : (tensor<1x1x1x5xi1>, tensor<f32>, tensor<f32>) -> tensor<1x1x1x5xf32>
// SDPA-NEXT:     mps.sdpa {{.*}}, %[[KH]], {{.*}}, %[[ADD]] {scale = 0.353553385 : f32} : (tensor<1x2x1x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x1x1x5xf32>) -> tensor<1x2x1x8xf32>
func.func @custom(%q: tensor<1x1x2x8xf32>, %k: tensor<1x5x2x8xf32>, %v: tensor<1x5x2x8xf32>, %m: tensor<1x5xf32>) -> tensor<1x1x2x8xf32> {
  %0 = graph.attention %q, %k, %v, %m {mask = "custom"} : (tensor<1x1x2x8xf32>, tensor<1x5x2x8xf32>, tensor<1x5x2x8xf32>, tensor<1x5xf32>) -> tensor<1x1x2x8xf32>
  return %0 : tensor<1x1x2x8xf32>
}
