// RUN: rlx-translate --mlir-to-msl %s | FileCheck %s

// Attention decode loads K and V rows without a branch: a masked key reads
// a row the query keeps (attnSafeRow) and meets a weight of exactly 0.
// Without a mask that row is the range's first key, under a causal mask
// row 0, under a sliding window the window's first key. When Sk < Sq row 0
// may be masked for the first queries, so V keeps its branch and zeros.

// CHECK-LABEL: // attention_decode q[1 1 2 16] k[1 8 1 16] v[1 8 1 16], mask none,
// CHECK-NOT:     if (keep0) {
// CHECK:         const float4 t = *((device const float4 *)(v + ((bb * 8u + (keep0 ? j0 : jlo)) * 1u + hk) * 16u + kl * 4u + 0u));

// CHECK-LABEL: // attention_decode q[1 1 2 16] k[1 8 1 16] v[1 8 1 16], mask causal,
// CHECK-NOT:     if (keep0) {
// CHECK:         const float4 t = *((device const float4 *)(v + ((bb * 8u + (keep0 ? j0 : 0u)) * 1u + hk) * 16u + kl * 4u + 0u));

// CHECK-LABEL: // attention_decode q[1 1 2 16] k[1 8 1 16] v[1 8 1 16], mask sliding_window,
// CHECK-NOT:     if (keep0) {
// CHECK:         const float4 t = *((device const float4 *)(v + ((bb * 8u + (keep0 ? j0 : (absq > 3 ? (uint)(absq - 3) : 0u))) * 1u + hk) * 16u + kl * 4u + 0u));

// CHECK-LABEL: // attention_decode q[1 4 2 16] k[1 2 1 16] v[1 2 1 16], mask causal,
// CHECK:         if (keep0) {
// CHECK-NEXT:      const float4 t = *((device const float4 *)(v + ((bb * 2u + (keep0 ? j0 : 0u)) * 1u + hk) * 16u + kl * 4u + 0u));
// CHECK-NEXT:      cv0_0 = t;
// CHECK-NEXT:    } else {

func.func @safe(%q: tensor<1x1x2x16xf32>, %k: tensor<1x8x1x16xf32>, %v: tensor<1x8x1x16xf32>, %q2: tensor<1x4x2x16xf32>, %k2: tensor<1x2x1x16xf32>, %v2: tensor<1x2x1x16xf32>) -> (tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>, tensor<1x4x2x16xf32>) {
  %r:4 = thunk.call @safe_thunk(%q, %k, %v, %q2, %k2, %v2) {target = "metal"} : (tensor<1x1x2x16xf32>, tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>, tensor<1x4x2x16xf32>, tensor<1x2x1x16xf32>, tensor<1x2x1x16xf32>) -> (tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>, tensor<1x4x2x16xf32>) {
  ^bb0(%a: tensor<1x1x2x16xf32>, %b: tensor<1x8x1x16xf32>, %c: tensor<1x8x1x16xf32>, %d: tensor<1x4x2x16xf32>, %e: tensor<1x2x1x16xf32>, %f: tensor<1x2x1x16xf32>):
    %0 = graph.attention %a, %b, %c : (tensor<1x1x2x16xf32>, tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>) -> tensor<1x1x2x16xf32>
    %1 = graph.attention %a, %b, %c {mask = "causal"} : (tensor<1x1x2x16xf32>, tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>) -> tensor<1x1x2x16xf32>
    %2 = graph.attention %a, %b, %c {mask = "sliding_window", window = 3 : i64} : (tensor<1x1x2x16xf32>, tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>) -> tensor<1x1x2x16xf32>
    %3 = graph.attention %d, %e, %f {mask = "causal"} : (tensor<1x4x2x16xf32>, tensor<1x2x1x16xf32>, tensor<1x2x1x16xf32>) -> tensor<1x4x2x16xf32>
    thunk.yield %0, %1, %2, %3 : tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>, tensor<1x4x2x16xf32>
  }
  return %r#0, %r#1, %r#2, %r#3 : tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>, tensor<1x4x2x16xf32>
}
