// RUN: rlx-translate --mlir-to-msl %s | FileCheck %s

// graph.topk (codegen/metal topk.go), Qwen3-Next's router: one threadgroup
// per row, ten passes; pass j takes the first element after pass j−1's
// pick in top-k's order (no list of taken indices), each thread's best
// through a simd_shuffle_xor butterfly, then the simdgroups' picks folded
// from threadgroup memory (value bits, then index) by every thread alike;
// values are copied from x.

// CHECK:       static inline bool rlx_topk_greater(float a, float b) {
// CHECK-NEXT:    if (isnan(a)) {
// CHECK-NEXT:      return !isnan(b);
// CHECK:       static inline bool rlx_topk_before(float av, uint ai, float bv, uint bi) {
// CHECK:         return rlx_topk_greater(av, bv) || (!rlx_topk_greater(bv, av) && ai < bi);

// CHECK-LABEL: // top 10 of the last axis of [1 512], f32
// CHECK-NEXT:  kernel void topk_0(
// CHECK-NEXT:      device const float *x {{\[\[}}buffer(0){{\]\]}},
// CHECK-NEXT:      device float *y {{\[\[}}buffer(1){{\]\]}},
// CHECK-NEXT:      device int *idx {{\[\[}}buffer(2){{\]\]}},
// CHECK-NEXT:      threadgroup uint *tg {{\[\[}}threadgroup(0){{\]\]}},
// CHECK:         for (uint j = 0; j < 10u; j++) {
// CHECK:           for (uint i = tpos.x; i < 512u; i += tptg.x) {
// CHECK:             if ((pi == 0xffffffffu || rlx_topk_before(pv, pi, v, i)) && rlx_topk_before(v, i, bv, bi)) {
// CHECK:           for (ushort d = 16; d > 0; d >>= 1) {
// CHECK-NEXT:        const float ov = simd_shuffle_xor(bv, d);
// CHECK-NEXT:        const uint oi = simd_shuffle_xor(bi, d);
// CHECK:             tg[sg] = as_type<uint>(bv);
// CHECK-NEXT:        tg[32u + sg] = bi;
// CHECK:           threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:      for (uint s = 0; s < nsg; s++) {
// CHECK:           threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:      if (tpos.x == 0) {
// CHECK-NEXT:        y[tgpos.x * 10u + j] = (float)x[base + bi];
// CHECK-NEXT:        idx[tgpos.x * 10u + j] = (int)bi;

func.func @route(%x: tensor<1x512xf32>) -> (tensor<1x10xf32>, tensor<1x10xi32>) {
  %0:2 = thunk.call @route_thunk0(%x) {target = "metal"} : (tensor<1x512xf32>) -> (tensor<1x10xf32>, tensor<1x10xi32>) {
  ^bb0(%a: tensor<1x512xf32>):
    %1:2 = graph.topk %a {k = 10 : i64} : (tensor<1x512xf32>) -> (tensor<1x10xf32>, tensor<1x10xi32>)
    thunk.yield %1#0, %1#1 : tensor<1x10xf32>, tensor<1x10xi32>
  }
  return %0#0, %0#1 : tensor<1x10xf32>, tensor<1x10xi32>
}
