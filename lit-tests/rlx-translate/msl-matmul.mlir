// RUN: rlx-translate --mlir-to-msl %s | FileCheck %s

// matmul: GEMV for up to 8 rows (lanes own four columns of b's rows, the
// simdgroups split K and meet in threadgroup memory), tiled GEMM above.
// dequant_matmul: GGUF blocks decoded 32 weights at a time by one helper
// per format, 2-byte reads on the 18-, 34- and 210-byte blocks; GEMV with
// simdgroups owning weight rows and simd_sum over K, GEMM through
// threadgroup tiles.

// CHECK:       static inline void rlx_dq32_q4_0(device const uchar *row, uint u, thread float *w) {
// CHECK-NEXT:    device const ushort *p = (device const ushort *)(row + u * 18u);
// CHECK:       static inline void rlx_dq32_q8_0(device const uchar *row, uint u, thread float *w) {
// CHECK-NEXT:    device const ushort *p = (device const ushort *)(row + u * 34u);
// CHECK:       static inline void rlx_dq32_q4_k(device const uchar *row, uint u, thread float *w) {
// CHECK:         device const uint *qs = (device const uint *)(blk + 16u + (j / 2u) * 32u);
// CHECK:       static inline void rlx_dq32_q6_k(device const uchar *row, uint u, thread float *w) {
// CHECK:         device const ushort *ql = (device const ushort *)(blk + 64u * hf + (g & 1u) * 32u);

// CHECK-LABEL: // gemv [1 64]·[64 96], f32·f32
// CHECK-NEXT:  kernel void gemv_0(
// CHECK-NEXT:      device const float *a {{\[\[}}buffer(0){{\]\]}},
// CHECK-NEXT:      device const float *b {{\[\[}}buffer(1){{\]\]}},
// CHECK-NEXT:      device float *y {{\[\[}}buffer(2){{\]\]}},
// CHECK-NEXT:      threadgroup float *tg {{\[\[}}threadgroup(0){{\]\]}},
// CHECK:           for (uint kk = sg; kk < 64u; kk += nsg) {
// CHECK-NEXT:        const float4 bv = *((device const float4 *)(bp + kk * 96u + c0));
// CHECK:           tg[(sg * 4u + i) * 32u + lane] = acc[i];
// CHECK:         threadgroup_barrier(mem_flags::mem_threadgroup);

// CHECK-LABEL: // gemm [12 64]·[64 96], f32·f32
// CHECK:         threadgroup float *Bs = tg + 1024u;
// CHECK:         for (uint k0 = 0; k0 < 64u; k0 += 16u) {
// CHECK:               acc[i * 4u + j] += af[i] * bf[j];

// CHECK-LABEL: // x[1, 256] · W[40, 256]ᵀ, W in q4_0
// CHECK-NEXT:  kernel void dequant_gemv_q4_0_0(
// CHECK-NEXT:      device const float *x {{\[\[}}buffer(0){{\]\]}},
// CHECK-NEXT:      device const uchar *w {{\[\[}}buffer(1){{\]\]}},
// CHECK-NEXT:      device float *y {{\[\[}}buffer(2){{\]\]}},
// CHECK:         const uint r0 = (tgpos.x * 2u + sg) * 4u;
// CHECK:         for (uint u = lane; u < 8u; u += 32u) {
// CHECK:               rlx_dq32_q4_0(w + (r0 + r) * 144u, u, wv);
// CHECK:             const float s = simd_sum(acc[r * 1u + mi]);
// CHECK-LABEL: // x[1, 256] · W[40, 256]ᵀ, W in q8_0
// CHECK:         const uint r0 = (tgpos.x * 4u + sg) * 2u;
// CHECK:               rlx_dq32_q8_0(w + (r0 + r) * 272u, u, wv);
// CHECK-LABEL: // x[1, 256] · W[40, 256]ᵀ, W in q4_k
// CHECK:               rlx_dq32_q4_k(w + (r0 + r) * 144u, u, wv);
// CHECK-LABEL: // x[1, 256] · W[40, 256]ᵀ, W in q6_k
// CHECK:               rlx_dq32_q6_k(w + (r0 + r) * 210u, u, wv);

// CHECK-LABEL: // x[20, 256] · W[40, 256]ᵀ, W in q4_k
// CHECK-NEXT:  kernel void dequant_gemm_q4_k_0(
// CHECK:         for (uint k0 = 0; k0 < 256u; k0 += 32u) {
// CHECK:             if (tpos.x < 64u) {
// CHECK:                 rlx_dq32_q4_k(w + gn * 144u, k0 / 32u, wv);
// CHECK:                 Bs[kk * 64u + tpos.x] = wv[kk];

func.func @mm(%x: tensor<1x64xf32>, %b: tensor<64x96xf32>, %y: tensor<12x64xf32>, %xq: tensor<1x256xf32>, %xg: tensor<20x256xf32>) -> (tensor<1x96xf32>, tensor<12x96xf32>, tensor<1x40xf32>, tensor<1x40xf32>, tensor<1x40xf32>, tensor<1x40xf32>, tensor<20x40xf32>) {
  %r:7 = thunk.call @mm_thunk(%x, %b, %y, %xq, %xg) {target = "metal"} : (tensor<1x64xf32>, tensor<64x96xf32>, tensor<12x64xf32>, tensor<1x256xf32>, tensor<20x256xf32>) -> (tensor<1x96xf32>, tensor<12x96xf32>, tensor<1x40xf32>, tensor<1x40xf32>, tensor<1x40xf32>, tensor<1x40xf32>, tensor<20x40xf32>) {
  ^bb0(%a: tensor<1x64xf32>, %w: tensor<64x96xf32>, %c: tensor<12x64xf32>, %d: tensor<1x256xf32>, %e: tensor<20x256xf32>):
    %0 = graph.matmul %a, %w : (tensor<1x64xf32>, tensor<64x96xf32>) -> tensor<1x96xf32>
    %1 = graph.matmul %c, %w : (tensor<12x64xf32>, tensor<64x96xf32>) -> tensor<12x96xf32>
    %w40 = graph.param "w.q4_0" : tensor<5760xui8>
    %w80 = graph.param "w.q8_0" : tensor<10880xui8>
    %w4k = graph.param "w.q4_k" : tensor<5760xui8>
    %w6k = graph.param "w.q6_k" : tensor<8400xui8>
    %2 = graph.dequant_matmul %d, %w40 {format = "q4_0", k = 256 : i64, n = 40 : i64} : (tensor<1x256xf32>, tensor<5760xui8>) -> tensor<1x40xf32>
    %3 = graph.dequant_matmul %d, %w80 {format = "q8_0", k = 256 : i64, n = 40 : i64} : (tensor<1x256xf32>, tensor<10880xui8>) -> tensor<1x40xf32>
    %4 = graph.dequant_matmul %d, %w4k {format = "q4_k", k = 256 : i64, n = 40 : i64} : (tensor<1x256xf32>, tensor<5760xui8>) -> tensor<1x40xf32>
    %5 = graph.dequant_matmul %d, %w6k {format = "q6_k", k = 256 : i64, n = 40 : i64} : (tensor<1x256xf32>, tensor<8400xui8>) -> tensor<1x40xf32>
    %6 = graph.dequant_matmul %e, %w4k {format = "q4_k", k = 256 : i64, n = 40 : i64} : (tensor<20x256xf32>, tensor<5760xui8>) -> tensor<20x40xf32>
    thunk.yield %0, %1, %2, %3, %4, %5, %6 : tensor<1x96xf32>, tensor<12x96xf32>, tensor<1x40xf32>, tensor<1x40xf32>, tensor<1x40xf32>, tensor<1x40xf32>, tensor<20x40xf32>
  }
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6 : tensor<1x96xf32>, tensor<12x96xf32>, tensor<1x40xf32>, tensor<1x40xf32>, tensor<1x40xf32>, tensor<1x40xf32>, tensor<20x40xf32>
}
