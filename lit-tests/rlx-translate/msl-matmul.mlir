// RUN: rlx-translate --mlir-to-msl --gemv-layout=wide %s | FileCheck %s

// matmul: GEMV for up to 8 rows, here in the wide layout (lanes own 16
// bytes of each row of b, a simdgroup loads 4 rows before using them, K
// split across threadgroups with the partials added in order by
// gemv_merge; msl-gemv-narrow.mlir has the narrow one), tiled GEMM above.
// dequant_matmul: GEMV with four simdgroups on four weight rows (q4_0
// eight at wide N; q4_k two simdgroups on eight, staged through
// threadgroup memory), lanes sharing blocks, x
// loaded once per block for all rows and pre-scaled so masked words need
// no shift (q8_0's 128 going with the float conversion), or, for q4_0
// and q4_k, taken as it is, each byte of the weights shifted to the
// mantissa's top so that a nibble reads as 256 + q or 16 + q,
// the sums met through shuffles and threadgroup memory; GEMM
// through threadgroup tiles, decoding 32 weights at a time by one helper
// per format.

// CHECK:       static inline float rlx_mf(uint v) { return as_type<float>(v) - 8388608.0f; }
// CHECK:       static inline float rlx_mfo(uint v, float o) { return as_type<float>(v) - o; }
// CHECK:       static inline float rlx_n256(uint v, uint e) { return as_type<float>((v & 0x00078000u) | e); }
// CHECK-NEXT:  static inline float rlx_n16(uint v, uint e) { return as_type<float>((v & 0x00780000u) | e); }
// CHECK:       static inline float rlx_b128(uint v, uint e) { return as_type<float>((v & 0x00FF0000u) | e); }
// CHECK:       static inline uint rlx_q4k_pair(uint4 hd, uint c) {
// CHECK:       static inline void rlx_dq32_q4_0(device const uchar *row, uint u, thread float *w) {
// CHECK-NEXT:    device const ushort *p = (device const ushort *)(row + u * 18u);
// CHECK:       static inline void rlx_dq32_q8_0(device const uchar *row, uint u, thread float *w) {
// CHECK-NEXT:    device const ushort *p = (device const ushort *)(row + u * 34u);
// CHECK:       static inline void rlx_dq32_q4_k(device const uchar *row, uint u, thread float *w) {
// CHECK:         device const uint *qs = (device const uint *)(blk + 16u + (j / 2u) * 32u);
// CHECK:       static inline void rlx_dq32_q6_k(device const uchar *row, uint u, thread float *w) {
// CHECK:         device const ushort *ql = (device const ushort *)(blk + 64u * hf + (g & 1u) * 32u);

// CHECK-LABEL: // gemv [1 64]·[64 96], f32·f32, K in 2 splits of 32
// CHECK-NEXT:  kernel void gemv_0(
// CHECK-NEXT:      device const float *a {{\[\[}}buffer(0){{\]\]}},
// CHECK-NEXT:      device const float *b {{\[\[}}buffer(1){{\]\]}},
// CHECK-NEXT:      device float *part {{\[\[}}buffer(2){{\]\]}},
// CHECK-NEXT:      threadgroup float *tg {{\[\[}}threadgroup(0){{\]\]}},
// CHECK:         const uint k0 = tgpos.y * 32u;
// CHECK:         for (; kk + 4u <= k1; kk += nsg * 4u) {
// CHECK-NEXT:      const float4 b0_0 = *((device const float4 *)(bp + (kk + 0u) * 96u + c0));
// CHECK:         tg[(sg * 4u + 0u) * 32u + lane] = acc[0];
// CHECK:         threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK:             part[((tgpos.y * 1u + z) * 1u + mi) * 96u + col] = sum;
// CHECK-LABEL: // gemv_merge: 2 splits of 96 partial sums into f32
// CHECK-NEXT:  kernel void gemv_merge_0(
// Two splits: a simdgroup each, their sums added in simdgroup order.
// CHECK:           uint sp = sg;
// CHECK-NEXT:      for (; sp < 2u; sp += P) {
// CHECK-NEXT:        s += part[sp * 96u + t];
// CHECK:           tg[sg * 32u + lane] = s;
// CHECK:             sum += tg[g * 32u + lane];
// CHECK:           y[t] = (float)sum;

// CHECK-LABEL: // gemm [12 64]·[64 96], f32·f32
// CHECK:         threadgroup float *Bs = tg + 1024u;
// CHECK:         for (uint k0 = 0; k0 < 64u; k0 += 16u) {
// CHECK:               acc[i * 4u + j] += af[i] * bf[j];

// CHECK-LABEL: // x[1, 256] · W[40, 256]ᵀ, W in q4_0
// CHECK-NEXT:  kernel void dequant_gemv_q4_0_0(
// CHECK-NEXT:      device const float *x {{\[\[}}buffer(0){{\]\]}},
// CHECK-NEXT:      device const uchar *w {{\[\[}}buffer(1){{\]\]}},
// CHECK-NEXT:      device float *y {{\[\[}}buffer(2){{\]\]}},
// CHECK:         const uint r0 = tgpos.x * 4u;
// Three block slots a loop step, then the rest (below).
// CHECK:         const uint stride = tptg.x / 2u;
// CHECK-NEXT:    uint ib0 = tpos.x / 2u;
// CHECK-NEXT:    for (; ib0 + 2u * stride < 8u; ib0 += 3u * stride) {
// CHECK-NEXT:      {
// CHECK-NEXT:        const uint ib = ib0 + 0u * stride;
// A lane's x pieces (and their words) alternate from block to block.
// CHECK:             const uint sw = (ib & 1u) * 4u;
// CHECK-NEXT:        const float4 xlv0 = *((device const float4 *)(xb + p * 8u + sw));
// CHECK:             const float4 xlv1 = *((device const float4 *)(xb + p * 8u + (4u - sw)));
// x as it is: each byte is shifted to the mantissa's top instead.
// CHECK-NEXT:        const float xl4 = xlv1.x;
// CHECK-NEXT:        const float xl5 = xlv1.y;
// The exponents of 256 and 16 from registers (tgpos.y is 0), and q4_0's
// −8 with the 256·Σx and 16·Σx that the fields carry, once a block.
// CHECK:             const uint e256 = 0x43800000u + tgpos.y;
// CHECK-NEXT:        const uint e16 = 0x41800000u + tgpos.y;
// CHECK-NEXT:        const float xo = 264.0f * sxl + 24.0f * sxh;
// CHECK:             const uint ws = sw / 2u;
// CHECK:               device const ushort *q = (device const ushort *)(w0 + ib * 18u);
// CHECK:                 const uint u = q[wq + (0u ^ ws)];
// CHECK-NEXT:            const uint v0 = u << 15;
// CHECK-NEXT:            const uint v1 = u << 7;
// CHECK-NEXT:            al += xl0 * rlx_n256(v0, e256);
// CHECK-NEXT:            al += xl1 * rlx_n256(v1, e256);
// CHECK-NEXT:            ah += xh0 * rlx_n16(v0, e16);
// CHECK-NEXT:            ah += xh1 * rlx_n16(v1, e16);
// CHECK:               acc[0] += d * ((al + ah) - xo);
// Two blocks left to a lane take one step; one goes alone.
// CHECK:         if (ib0 + 1u * stride < 8u) {
// CHECK:           ib0 += 2u * stride;
// CHECK-NEXT:    }
// CHECK-NEXT:    for (; ib0 < 8u; ib0 += stride) {
// The four rows' sums meet in a butterfly: each exchange halves the sums
// a lane holds, and lane 8r ends with row r's.
// CHECK:           const bool up0 = (lane & 16u) != 0u;
// CHECK-NEXT:      const float f0_0 = (up0 ? acc[2] : acc[0]) + simd_shuffle_xor(up0 ? acc[0] : acc[2], 16u);
// CHECK-NEXT:      const float f0_1 = (up0 ? acc[3] : acc[1]) + simd_shuffle_xor(up0 ? acc[1] : acc[3], 16u);
// CHECK-NEXT:      const bool up1 = (lane & 8u) != 0u;
// CHECK-NEXT:      const float f1_0 = (up1 ? f0_1 : f0_0) + simd_shuffle_xor(up1 ? f0_0 : f0_1, 8u);
// CHECK-NEXT:      const float f2_0 = f1_0 + simd_shuffle_xor(f1_0, 4u);
// CHECK-NEXT:      const float f3_0 = f2_0 + simd_shuffle_xor(f2_0, 2u);
// CHECK-NEXT:      const float f4_0 = f3_0 + simd_shuffle_xor(f3_0, 1u);
// CHECK-NEXT:      if ((lane & 7u) == 0u) {
// CHECK-NEXT:        tg[sg * 4u + lane / 8u] = f4_0;
// CHECK:         threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK:           for (uint g = 0; g < tptg.x / 32u; g++) {
// CHECK-LABEL: // x[1, 256] · W[40, 256]ᵀ, W in q8_0
// CHECK:         const uint r0 = tgpos.x * 4u;
// q8_0 takes four slots a step. Its rows are an even number of blocks,
// so it reads 4-byte words, five a lane and row, funnelled into the four
// words of its qs; its x pieces are swapped by two on odd blocks and put
// back in order with selects.
// CHECK:         for (; ib0 + 3u * stride < 8u; ib0 += 4u * stride) {
// CHECK:             const uint rot = (ib & 1u) * 2u;
// CHECK-NEXT:        const float4 xrv0 = *((device const float4 *)(xb + p * 16u + (0u ^ rot) * 4u));
// CHECK:             const float xs0 = rot != 0u ? xr8 : xr0;
// CHECK:             const float xs15 = rot != 0u ? xr7 : xr15;
// CHECK-NEXT:        const uint qa = ib * 34u + 2u + p * 16u;
// CHECK-NEXT:        const uint wb = (qa - 2u) / 4u;
// CHECK-NEXT:        const uint sh = 32u - (qa & 2u) * 8u;
// CHECK:               device const uint *q = (device const uint *)w0 + wb;
// CHECK:               const uint qw4 = q[4];
// CHECK:                 const uint v = (uint)((((ulong)qw1 << 32) | (ulong)qw0) >> sh) ^ 0x80808080u;
// CHECK-NEXT:            const uint lo = v | 0x4B000000u;
// CHECK-NEXT:            const uint hi = (v >> 16) | 0x4B000000u;
// CHECK-NEXT:            a0 += xs0 * rlx_mfo(lo & 0x4B0000FFu, 8388736.0f);
// CHECK-NEXT:            a1 += xs1 * rlx_mfo(lo & 0x4B00FF00u, 8421376.0f);
// CHECK-NEXT:            a0 += xs2 * rlx_mfo(hi & 0x4B0000FFu, 8388736.0f);
// CHECK-NEXT:            a1 += xs3 * rlx_mfo(hi & 0x4B00FF00u, 8421376.0f);
// Three blocks left to a lane take one step; fewer go one at a time.
// CHECK:         if (ib0 + 2u * stride < 8u) {
// CHECK:           ib0 += 3u * stride;
// CHECK-NEXT:    }
// CHECK-NEXT:    for (; ib0 < 8u; ib0 += stride) {
// q4_k: staged through threadgroup memory (lit-tests/rlx-translate/
// msl-dequant-staged.mlir has the stages); with one row of x and rows of
// one stage (K = 256: one block), four rows a threadgroup, else eight.
// CHECK-LABEL: // x[1, 256] · W[40, 256]ᵀ, W in q4_k
// CHECK:         threadgroup float *red = (threadgroup float *)(tg + 36u);
// CHECK-NEXT:    const uint r0 = tgpos.x * 4u;
// CHECK:               threadgroup const uchar *blk = tb + ib * 144u;
// CHECK-NEXT:          const uint4 hd = *((threadgroup const uint4 *)blk);
// A lane's two sub-blocks' scales and minimums come from one call.
// CHECK-NEXT:          const uint4 qv = *((threadgroup const uint4 *)(blk + 16u + c * 32u + h * 16u));
// CHECK-NEXT:          const uint sm = rlx_q4k_pair(hd, c);
// Each byte of a word to bits 15-22: four shifts a word.
// CHECK:                 const uint v0 = qv.x << 15;
// CHECK-NEXT:            const uint v1 = qv.x << 7;
// CHECK-NEXT:            const uint v2 = qv.x >> 1;
// CHECK-NEXT:            const uint v3 = qv.x >> 9;
// CHECK-NEXT:            al += xl0 * rlx_n256(v0, e256);
// CHECK-NEXT:            ah += xh0 * rlx_n16(v0, e16);
// The sums give back the 256 and 16 each field carries.
// CHECK:               al -= 256.0f * sxl;
// CHECK-NEXT:          ah -= 16.0f * sxh;
// CHECK:         if (tpos.x < 4u) {
// CHECK-NEXT:      float s = 0.0f;
// CHECK-LABEL: // x[1, 256] · W[40, 256]ᵀ, W in q6_k
// CHECK:               const uint qa = (uint)hw[n6 * 32u + j6 * 2u] | ((uint)hw[n6 * 32u + j6 * 2u + 1u] << 16);
// CHECK:                 float t = x0_0 * rlx_b128(q0 << 16, e128);
// CHECK:                 a += rlx_mfo(((uint)sc[0] ^ 0x80u) | mg, 8388736.0f) * (t - c0);
// CHECK-LABEL: // x[20, 256] · W[40, 256]ᵀ, W in q4_k
// CHECK-NEXT:  kernel void dequant_gemm_q4_k_0(
// CHECK:         for (uint k0 = 0; k0 < 256u; k0 += 32u) {
// CHECK:             for (uint j = tpos.x; j < 64u; j += tptg.x) {
// CHECK:                 rlx_dq32_q4_k(w + gn * 144u, k0 / 32u, wv);
// CHECK:                 Bs[kk * 64u + j] = wv[kk];

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

// q4_0 takes eight rows a threadgroup where that still makes 1024
// threadgroups (N ≥ 8185), four below.
// CHECK-LABEL: // x[1, 32] · W[8195, 32]ᵀ, W in q4_0
// CHECK:         const uint r0 = tgpos.x * 8u;
// CHECK:         float acc[8];
// CHECK-LABEL: // x[1, 32] · W[8184, 32]ᵀ, W in q4_0
// CHECK:         const uint r0 = tgpos.x * 4u;
// CHECK:         float acc[4];

func.func @wide(%x: tensor<1x32xf32>) -> (tensor<1x8195xf32>, tensor<1x8184xf32>) {
  %r:2 = thunk.call @wide_thunk(%x) {target = "metal"} : (tensor<1x32xf32>) -> (tensor<1x8195xf32>, tensor<1x8184xf32>) {
  ^bb0(%a: tensor<1x32xf32>):
    %w0 = graph.param "w.wide" : tensor<147510xui8>
    %w1 = graph.param "w.narrow" : tensor<147312xui8>
    %0 = graph.dequant_matmul %a, %w0 {format = "q4_0", k = 32 : i64, n = 8195 : i64} : (tensor<1x32xf32>, tensor<147510xui8>) -> tensor<1x8195xf32>
    %1 = graph.dequant_matmul %a, %w1 {format = "q4_0", k = 32 : i64, n = 8184 : i64} : (tensor<1x32xf32>, tensor<147312xui8>) -> tensor<1x8184xf32>
    thunk.yield %0, %1 : tensor<1x8195xf32>, tensor<1x8184xf32>
  }
  return %r#0, %r#1 : tensor<1x8195xf32>, tensor<1x8184xf32>
}

// Five rows of x on q4_k's eight weight rows: 40 results a threadgroup,
// more than a simdgroup's threads, so the last step loops (a threadgroup
// of one simdgroup, emitted or resized, has 32). Up to 32 results take
// one thread each without a loop (q4_k's one row of x above: 8).
// CHECK-LABEL: // x[5, 256] · W[40, 256]ᵀ, W in q4_k
// CHECK:         for (uint i = tpos.x; i < 40u; i += tptg.x) {
// CHECK-NEXT:      float s = 0.0f;
// CHECK-NEXT:      for (uint g = 0; g < tptg.x / 32u; g++) {
// CHECK-NEXT:        s += red[g * 40u + i];
// CHECK-NEXT:      }
// CHECK-NEXT:      const uint row = r0 + i / 5u;
// CHECK-NEXT:      if (row < 40u) {
// CHECK-NEXT:        y[(i % 5u) * 40u + row] = s;

func.func @batch5(%x: tensor<5x256xf32>) -> tensor<5x40xf32> {
  %r = thunk.call @batch5_thunk(%x) {target = "metal"} : (tensor<5x256xf32>) -> tensor<5x40xf32> {
  ^bb0(%a: tensor<5x256xf32>):
    %w = graph.param "w.q4_k" : tensor<5760xui8>
    %0 = graph.dequant_matmul %a, %w {format = "q4_k", k = 256 : i64, n = 40 : i64} : (tensor<5x256xf32>, tensor<5760xui8>) -> tensor<5x40xf32>
    thunk.yield %0 : tensor<5x40xf32>
  }
  return %r : tensor<5x40xf32>
}
