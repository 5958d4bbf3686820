// RUN: rlx-translate --mlir-to-msl %s | FileCheck %s

// graph.topk (codegen/metal topk.go), Qwen3-Next's router (512 experts:
// one simdgroup a row, its keys in registers, no threadgroup memory) and
// a row of 2000 (one threadgroup a row): ten passes; each element a pair of 32-bit keys (its value
// mapped to an order-preserving integer, NaN highest, -0 as +0; its index
// complemented), so a pick is the largest pair; pass j takes the largest
// pair below pass j−1's pick (no list of taken indices), each thread's
// best through a simd_shuffle_xor butterfly, the simdgroups' pairs folded
// by simdgroup 0's second butterfly and handed to every thread through
// threadgroup memory; values are copied from x.

// CHECK:       static inline uint rlx_topk_key(float v) {
// CHECK-NEXT:    if (isnan(v)) {
// CHECK-NEXT:      return 0xffffffffu;
// CHECK-NEXT:    }
// CHECK-NEXT:    const uint u = v == 0.0f ? 0u : as_type<uint>(v);
// CHECK-NEXT:    return (u & 0x80000000u) != 0u ? ~u : (u | 0x80000000u);
// CHECK:       static inline bool rlx_topk_above(uint ah, uint al, uint bh, uint bl) {
// CHECK-NEXT:    return ah > bh || (ah == bh && al > bl);

// CHECK-LABEL: // top 10 of the last axis of [1 512], f32
// CHECK-NEXT:  kernel void topk_0(
// CHECK-NEXT:      device const float *x {{\[\[}}buffer(0){{\]\]}},
// CHECK-NEXT:      device float *y {{\[\[}}buffer(1){{\]\]}},
// CHECK-NEXT:      device int *idx {{\[\[}}buffer(2){{\]\]}},
// CHECK-NOT:       threadgroup uint *tg
// CHECK:         uint kh[16];
// CHECK:           kh[e] = i < 512u ? rlx_topk_key((float)x[base + i]) : 0u;
// CHECK:         for (uint j = 0; j < 10u; j++) {
// CHECK:           for (uint e = 0; e < 16u; e++) {
// CHECK:             const uint h = kh[e];
// CHECK-NEXT:        const uint l = i < 512u ? ~i : 0u;
// CHECK:           for (ushort d = 16; d > 0; d >>= 1) {
// CHECK-NOT:       threadgroup_barrier
// CHECK:           if (lane == 0) {
// CHECK-NEXT:        y[tgpos.x * 10u + j] = (float)x[base + ~bl];
// CHECK-NEXT:        idx[tgpos.x * 10u + j] = (int)(~bl);

// CHECK-LABEL: // top 10 of the last axis of [1 2000], f32
// CHECK-NEXT:  kernel void topk_1(
// CHECK-NEXT:      device const float *x {{\[\[}}buffer(0){{\]\]}},
// CHECK-NEXT:      device float *y {{\[\[}}buffer(1){{\]\]}},
// CHECK-NEXT:      device int *idx {{\[\[}}buffer(2){{\]\]}},
// CHECK-NEXT:      threadgroup uint *tg {{\[\[}}threadgroup(0){{\]\]}},
// CHECK:         for (uint j = 0; j < 10u; j++) {
// CHECK:           for (uint i = tpos.x; i < 2000u; i += tptg.x) {
// CHECK-NEXT:        const uint h = rlx_topk_key((float)x[base + i]);
// CHECK-NEXT:        const uint l = ~i;
// CHECK-NEXT:        if ((j == 0u || rlx_topk_above(ph, pl, h, l)) && rlx_topk_above(h, l, bh, bl)) {
// CHECK:           for (ushort d = 16; d > 0; d >>= 1) {
// CHECK-NEXT:        const uint oh = simd_shuffle_xor(bh, d);
// CHECK-NEXT:        const uint ol = simd_shuffle_xor(bl, d);
// CHECK:           if (nsg > 1u) {
// CHECK:               tg[sg] = bh;
// CHECK-NEXT:          tg[32u + sg] = bl;
// CHECK:             threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:        if (sg == 0) {
// CHECK-NEXT:          bh = lane < nsg ? tg[lane] : 0u;
// CHECK-NEXT:          bl = lane < nsg ? tg[32u + lane] : 0u;
// CHECK:                 tg[64u] = bh;
// CHECK-NEXT:            tg[65u] = bl;
// CHECK:             threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:        bh = tg[64u];
// CHECK-NEXT:        bl = tg[65u];
// CHECK:           if (tpos.x == 0) {
// CHECK-NEXT:        y[tgpos.x * 10u + j] = (float)x[base + ~bl];
// CHECK-NEXT:        idx[tgpos.x * 10u + j] = (int)(~bl);

func.func @route(%x: tensor<1x512xf32>) -> (tensor<1x10xf32>, tensor<1x10xi32>) {
  %0:2 = thunk.call @route_thunk0(%x) {target = "metal"} : (tensor<1x512xf32>) -> (tensor<1x10xf32>, tensor<1x10xi32>) {
  ^bb0(%a: tensor<1x512xf32>):
    %1:2 = graph.topk %a {k = 10 : i64} : (tensor<1x512xf32>) -> (tensor<1x10xf32>, tensor<1x10xi32>)
    thunk.yield %1#0, %1#1 : tensor<1x10xf32>, tensor<1x10xi32>
  }
  return %0#0, %0#1 : tensor<1x10xf32>, tensor<1x10xi32>
}

func.func @long(%x: tensor<1x2000xf32>) -> (tensor<1x10xf32>, tensor<1x10xi32>) {
  %0:2 = thunk.call @long_thunk0(%x) {target = "metal"} : (tensor<1x2000xf32>) -> (tensor<1x10xf32>, tensor<1x10xi32>) {
  ^bb0(%a: tensor<1x2000xf32>):
    %1:2 = graph.topk %a {k = 10 : i64} : (tensor<1x2000xf32>) -> (tensor<1x10xf32>, tensor<1x10xi32>)
    thunk.yield %1#0, %1#1 : tensor<1x10xf32>, tensor<1x10xi32>
  }
  return %0#0, %0#1 : tensor<1x10xf32>, tensor<1x10xi32>
}
