// dqprobe: what bounds the dequantising GEMV on this GPU: the emitted
// kernel's loads, or its decode? (docs/gpu-check.md, run 18)
//
// Hand-written CUDA, not emitted MSL: a measurement of ceilings, not a
// kernel rlx ships. For q4_0 (and the first three for q8_0; q6_k and
// q4_k from run 30) at K × N =
// 4096 × 14336 and 14336 × 4096 it times, each as a CUDA graph cycling
// through enough weight copies to be four times the 60 MB L2 (bench.py's
// method: median over 7 trials of trial time / launches):
//
//   float     the emitted kernel's loop (codegen/metal/dequant_gemv.go:
//             128 threads, four rows a threadgroup, two lanes a block,
//             2-byte loads, fields as floats through 2^23's bits), to
//             calibrate against the emitted kernel's time
//   loads     the same loads, the arithmetic replaced by an XOR of the
//             words: what the loads alone cost
//   half2     the same loads, each 32-bit word's fields made into two
//             halves at once (1024's bits ORed in, 1024 + offset
//             subtracted) and multiplied into a half2 sum a block
//   float8, half2_8   eight rows a threadgroup
//   readall   the weights read with 16-byte loads, consecutive threads on
//             consecutive vectors: the best these bytes can be read
//   pair_loads        loads only, a pair of blocks (36 bytes) a lane in
//             nine 4-byte loads
//   staged_loads, staged_float   staged through threadgroup memory in
//             16-byte loads (two buffers, the next stage's loads before
//             this stage's decode), loads only or with the emitted float
//             decode; four or eight rows
//   row_loads, row_float, row_half2   a row a lane, 144 bytes at a time
//             in 16-byte loads, S simdgroups splitting the row
//
// and, from run 19 (pairQ4_0, pairQ8_0, pairTQ4_0, pairTQ8_0, ROT below):
//
//   pair_*    a lane a pair of blocks, all in 4-byte loads, x read straight
//             from device memory a half of qs at a time; f = the emitted
//             float decode, m1/m2 = fields as 1 + q/16 (m2 with 1.0's bits
//             in a register); r = rows, t = threads
//   pairT_*   two lanes a pair (a block each, five or nine 4-byte loads),
//             x through threadgroup memory a chunk of 128 blocks at a time
//   rot, rot8 the emitted layout with each lane's x pieces (and the qs
//             words that go with them) taken in an order that changes
//             from block to block, so that one load's lanes spread over
//             more banks; four or eight rows
//
// and, from run 28 (soaQ4_0):
//
//   soa_*     q4_0 repacked out of GGUF's blocks (every block's qs, then
//             every block's d; the same bytes), read straight into
//             registers, a lane's 8 bytes of qs and its block's d a row,
//             the next block's loaded before this one's decode; loads =
//             loads only, float = the float decode above, emit = the
//             emitted kernel's decode (offsets with the subtraction, two
//             sums a row), sub = fields read as subnormal floats (an
//             AND and a multiply-add a weight; exact only where subnormals
//             are kept); the number is the rows a threadgroup of 128,
//             _a2, _a3 = the loads two or three block slots ahead,
//             _m8 = at most 64 registers a thread (eight threadgroups a
//             multiprocessor)
//
// and, from run 29 (xsQ4_0):
//
//   xs_*      x-stationary: the same repacked q4_0, a lane a block column
//             with its 32 x values in registers, walking r rows (r16,
//             r32, r64) with its 16-byte loads d rows ahead (d4, d8);
//             fields through per-place exponents (no x scaling); a
//             threadgroup of k/32 lanes; loads = the loads only; _c4 =
//             four (eight) sums a row instead of two; _k = built for
//             that k; xs2 = two lanes a block column, each with 8 bytes
//             of qs and 16 x values; xs_sh = run 29h's decode (each byte
//             shifted to the mantissa's top, 256 + q and 16 + q, no
//             subtraction; NMSE about 1e-11)
//   xsg_*     xs on GGUF's blocks as they are: two lanes a pair of
//             blocks, five 4-byte loads each, the qs words funnel-shifted
//   xsb_*     xs with the rows split evenly over 132·B threadgroups
//             (B = 4 at k = 4096, 1 at 14336; _g3: 3 at 4096; d4: 5, 2)
//
// and, from run 30 (xsQ6K, xsQ4K; q6_k and q4_k, at the same shapes):
//
//   xs6_*     x-stationary q6_k, repacked out of GGUF's blocks (the same
//             bytes; repackQ6_K): a lane a column of 32 weights with its
//             x in registers, a row one 16-byte load of low nibbles, one
//             8-byte load of high bits, the two scales and d (one a
//             block); each 6-bit field read as 128 + q (the emitter's
//             rlx_b128); r, d, c as xs_; loads = the loads only
//   xs6h_*    xs6 with a lane a column of 16 weights (one scale group;
//             repackQ6_K with W = 16), k/16 threads, half the registers
//   xs4k_*    x-stationary q4_k, repacked (repackQ4_K: a sub-block
//             column's 16 bytes of nibbles, and a 16-byte head a block
//             with d, dmin and the scales and minimums as three words);
//             nibbles read as xs_sh's
//
// and, from run 32 (touches: Touch, in xsQ4_0 and xsQ6K):
//
//   xspKP_*, xs6pKP_*, xs6hpKP_*   xs_sh, xs6, xs6h with each turn
//             touching the lines of the rows (P + 1)·D on (P turns past
//             the register loads), so that more bytes are in flight than
//             the registers hold: K = 1 by prefetch.global.L2, K = 2 by a
//             4-byte load whose value is kept a turn, K = 3 by a volatile
//             4-byte load whose value is dropped (MSL can say 2 and 3)
//
// and, from stop 50 (not yet run):
//
//   xs6hld_*  xs6h_r32_d4_c2 with plain weight loads (ld.global) instead
//             of __ldg's read-only path: the CUDA translation of the
//             emitted q6_k_c16 GEMV loads so, the probe's kernels do not
//
// DQPROBE_ONLY=a,b,… runs only the variants whose names occur in it.
// run.sh does a whole device call (build, times, SASS counts, ncu).
//
// and a copy kernel for the roofline. Each decoding kernel's y is checked
// against a double-precision reference on the host (NMSE). With
// DQPROBE_ONCE set it launches each kernel once at the first shape and times nothing,
// for ncu.
//
//   nvcc -O3 -arch=sm_90 -std=c++17 -o dqprobe dqprobe.cu && ./dqprobe > probe.tsv
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

#define CK(x)                                                                                   \
  do {                                                                                          \
    cudaError_t e_ = (x);                                                                       \
    if (e_ != cudaSuccess) {                                                                    \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));       \
      exit(1);                                                                                  \
    }                                                                                           \
  } while (0)

enum Fmt { Q4_0, Q8_0, Q6_K, Q4_K };
enum Var { FLOAT, LOADS, HALF2, ROT };
static const char *fmtName[] = {"q4_0", "q8_0", "q6_k", "q4_k"};

constexpr int THREADS = 128;

__device__ __forceinline__ float mf(uint32_t v) { return __uint_as_float(v) - 8388608.0f; }
__device__ __forceinline__ float h2f(uint16_t h) { return __half2float(__ushort_as_half(h)); }
__device__ __forceinline__ __half2 asH2(uint32_t v) {
  __half2 h;
  memcpy(&h, &v, 4);
  return h;
}
__device__ __forceinline__ uint32_t pack(const uint16_t *q, int i) {
  return (uint32_t)q[i] | ((uint32_t)q[i + 1] << 16);
}

// The loads-only variants' stand-in for a decode: the same 2-byte loads
// (the block's d and the lane's Q words of qs), XORed into bits.
template <int ROWS, int BLOCK, int Q>
__device__ __forceinline__ void xorWords(const uint8_t *const *w, uint32_t ib, uint32_t p, uint32_t *bits) {
#pragma unroll
  for (int r = 0; r < ROWS; r++) {
    const uint16_t *q = (const uint16_t *)(w[r] + ib * BLOCK);
    uint32_t b = q[0];
#pragma unroll
    for (int i = 0; i < Q; i++) b ^= (uint32_t)q[1 + p * Q + i] << (i * (16 / Q));
    bits[r] ^= b;
  }
}

// x's slice for q4_0 lane part p of the block at xb: weights 8p..8p+7
// (l0, l1) and 16+8p..16+8p+7 (h0, h1), and their sum. With b = 1 the
// two pieces of each half come swapped (l0 holds weights 8p+4..8p+7: run
// 19d's ROT, whose qs words are swapped to match).
struct XQ4 {
  float4 l0, l1, h0, h1;
  float sx;
};
__device__ __forceinline__ XQ4 xq4(const float *xb, uint32_t p, uint32_t b) {
  XQ4 v;
  v.l0 = *(const float4 *)(xb + p * 8 + 4 * b);
  v.l1 = *(const float4 *)(xb + p * 8 + 4 * (1 - b));
  v.h0 = *(const float4 *)(xb + p * 8 + 16 + 4 * b);
  v.h1 = *(const float4 *)(xb + p * 8 + 16 + 4 * (1 - b));
  v.sx = (v.l0.x + v.l0.y + v.l0.z + v.l0.w) + (v.l1.x + v.l1.y + v.l1.z + v.l1.w) +
         (v.h0.x + v.h0.y + v.h0.z + v.h0.w) + (v.h1.x + v.h1.y + v.h1.z + v.h1.w);
  return v;
}

// The emitted float decode's x: each weight's x pre-scaled by 1, 1/16,
// 1/256 or 1/4096 for its nibble's place in a 16-bit word.
struct XQ4F {
  float xl[8], xh[8], sx;
};
__device__ __forceinline__ XQ4F xq4Scaled(const XQ4 &v) {
  return XQ4F{{v.l0.x, v.l0.y * 0.00390625f, v.l0.z, v.l0.w * 0.00390625f, v.l1.x, v.l1.y * 0.00390625f, v.l1.z,
               v.l1.w * 0.00390625f},
              {v.h0.x * 0.0625f, v.h0.y * 0.000244140625f, v.h0.z * 0.0625f, v.h0.w * 0.000244140625f,
               v.h1.x * 0.0625f, v.h1.y * 0.000244140625f, v.h1.z * 0.0625f, v.h1.w * 0.000244140625f},
              v.sx};
}

// The emitted float decode of a q4_0 lane part: h holds its four 16-bit
// words of qs, d is the block's scale.
__device__ __forceinline__ float q4Float(const XQ4F &x, const uint32_t *h, float d) {
  float al = 0.f, ah = 0.f;
#pragma unroll
  for (int i = 0; i < 4; i++) {
    const uint32_t u = h[i] | 0x4B000000u;
    al += x.xl[2 * i] * mf(u & 0x4B00000Fu);
    al += x.xl[2 * i + 1] * mf(u & 0x4B000F00u);
    ah += x.xh[2 * i] * mf(u & 0x4B0000F0u);
    ah += x.xh[2 * i + 1] * mf(u & 0x4B00F000u);
  }
  return d * ((al + ah) - 8.0f * x.sx);
}

// Each row's sum (one a lane) summed over the threadgroup's simdgroups
// through red, in simdgroup order, and stored to y[r0 + r].
template <int ROWS>
__device__ __forceinline__ void storeRows(const float *sum, float (*red)[ROWS], float *y, uint32_t r0, uint32_t n) {
  const uint32_t t = threadIdx.x, lane = t % 32, sg = t / 32;
#pragma unroll
  for (int r = 0; r < ROWS; r++) {
    float s = sum[r];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if (lane == 0) red[sg][r] = s;
  }
  __syncthreads();
  if (t < ROWS && r0 + t < n) {
    float s = 0.f;
    for (uint32_t g = 0; g < blockDim.x / 32; g++) s += red[g][t];
    y[r0 + t] = s;
  }
}

// One block slot ib of q4_0 for every row: lane part p holds qs bytes
// 8p..8p+7 (weights 8p+j low nibbles, 16+8p+j high nibbles).
template <Var V, int ROWS>
__device__ __forceinline__ void slotQ4_0(const float *x, const uint8_t *const *w, uint32_t ib, uint32_t p,
                                         float *acc, uint32_t *bits) {
  // ROT (run 19d): the lane's two x pieces of each half (weights 8p..8p+3
  // and 8p+4..8p+7, and the same 16 on) taken in an order that alternates
  // between neighbouring blocks, with the qs halves they go with, so that
  // one load's lanes spread over four 16-byte places of their 128-byte
  // lines instead of two (fewer bank conflicts). The same arithmetic in
  // the same order for each piece slot; b = 0 is the emitted order.
  const uint32_t b = V == ROT ? ib & 1u : 0u;
  const XQ4 v = xq4(x + ib * 32, p, b);
  const float4 l0 = v.l0, l1 = v.l1, h0 = v.h0, h1 = v.h1;
  if (V == FLOAT || V == ROT) {
    const XQ4F xs = xq4Scaled(v);
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
      const uint16_t *q = (const uint16_t *)(w[r] + ib * 18);
      const uint32_t h[4] = {q[1 + p * 4 + 2 * b], q[2 + p * 4 + 2 * b], q[3 + p * 4 - 2 * b], q[4 + p * 4 - 2 * b]};
      acc[r] += q4Float(xs, h, h2f(q[0]));
    }
  } else if (V == LOADS) {
    xorWords<ROWS, 18, 4>(w, ib, p, bits);
    acc[0] += v.sx;
  } else {
    // Word k (bytes 8p+4k .. 8p+4k+3): a = weights 8p+4k, +2 (low nibbles
    // of bytes 0, 2), c = +1, +3 (bytes 1, 3); b, d the same bytes' high
    // nibbles, weights 16 on, as 16·q.
    const __half2 xa0 = __floats2half2_rn(l0.x, l0.z), xc0 = __floats2half2_rn(l0.y, l0.w);
    const __half2 xa1 = __floats2half2_rn(l1.x, l1.z), xc1 = __floats2half2_rn(l1.y, l1.w);
    const __half2 xb0 = __floats2half2_rn(h0.x * 0.0625f, h0.z * 0.0625f);
    const __half2 xd0 = __floats2half2_rn(h0.y * 0.0625f, h0.w * 0.0625f);
    const __half2 xb1 = __floats2half2_rn(h1.x * 0.0625f, h1.z * 0.0625f);
    const __half2 xd1 = __floats2half2_rn(h1.y * 0.0625f, h1.w * 0.0625f);
    const __half2 off = asH2(0x64086408u);  // 1032 = 1024 + 8
    const __half2 off16 = asH2(0x64806480u);  // 1152 = 1024 + 16·8
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
      const uint16_t *q = (const uint16_t *)(w[r] + ib * 18);
      const float d = h2f(q[0]);
      const uint32_t w0 = pack(q, 1 + p * 4), w1 = pack(q, 3 + p * 4);
      __half2 s0 = __hmul2(xa0, __hsub2(asH2((w0 & 0x000F000Fu) | 0x64006400u), off));
      __half2 s1 = __hmul2(xb0, __hsub2(asH2((w0 & 0x00F000F0u) | 0x64006400u), off16));
      s0 = __hfma2(xc0, __hsub2(asH2(((w0 >> 8) & 0x000F000Fu) | 0x64006400u), off), s0);
      s1 = __hfma2(xd0, __hsub2(asH2(((w0 >> 8) & 0x00F000F0u) | 0x64006400u), off16), s1);
      s0 = __hfma2(xa1, __hsub2(asH2((w1 & 0x000F000Fu) | 0x64006400u), off), s0);
      s1 = __hfma2(xb1, __hsub2(asH2((w1 & 0x00F000F0u) | 0x64006400u), off16), s1);
      s0 = __hfma2(xc1, __hsub2(asH2(((w1 >> 8) & 0x000F000Fu) | 0x64006400u), off), s0);
      s1 = __hfma2(xd1, __hsub2(asH2(((w1 >> 8) & 0x00F000F0u) | 0x64006400u), off16), s1);
      const __half2 s = __hadd2(s0, s1);
      acc[r] += d * (__low2float(s) + __high2float(s));
    }
  }
}

// q8_0: lane part p holds qs bytes 16p..16p+15, weights 16p+j.
template <Var V, int ROWS>
__device__ __forceinline__ void slotQ8_0(const float *x, const uint8_t *const *w, uint32_t ib, uint32_t p,
                                         float *acc, uint32_t *bits) {
  const float *xb = x + ib * 32 + p * 16;
  if (V == FLOAT || V == ROT) {
    // ROT (run 19d): piece slot c (four weights, one float4 of x, two qs
    // halves) holds piece (c + ib) % 4, so that one load's lanes spread
    // over eight 16-byte places of their 128-byte lines instead of two;
    // rot = 0 is the emitted order. (Σx is summed a piece at a time in
    // ROT, a weight at a time in FLOAT, as each ran.)
    const uint32_t rot = V == ROT ? ib & 3u : 0u;
    float xsc[16];
    float sx = 0.f;
#pragma unroll
    for (int c = 0; c < 4; c++) {
      const float4 vv = *(const float4 *)(xb + 4 * ((c + rot) & 3u));
      xsc[4 * c] = vv.x;
      xsc[4 * c + 1] = vv.y * 0.00390625f;
      xsc[4 * c + 2] = vv.z;
      xsc[4 * c + 3] = vv.w * 0.00390625f;
      if (V == ROT) {
        sx += (vv.x + vv.y) + (vv.z + vv.w);
      } else {
        sx += vv.x;
        sx += vv.y;
        sx += vv.z;
        sx += vv.w;
      }
    }
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
      const uint16_t *q = (const uint16_t *)(w[r] + ib * 34);
      const float d = h2f(q[0]);
      float a0 = 0.f, a1 = 0.f;
#pragma unroll
      for (int i = 0; i < 8; i++) {
        const uint32_t u = q[1 + p * 8 + 2 * ((i / 2 + rot) & 3u) + i % 2] ^ 0x4B008080u;
        a0 += xsc[2 * i] * mf(u & 0x4B0000FFu);
        a1 += xsc[2 * i + 1] * mf(u & 0x4B00FF00u);
      }
      acc[r] += d * ((a0 + a1) - 128.0f * sx);
    }
    return;
  }
  const float4 v0 = *(const float4 *)xb, v1 = *(const float4 *)(xb + 4), v2 = *(const float4 *)(xb + 8),
               v3 = *(const float4 *)(xb + 12);
  const float xs[16] = {v0.x, v0.y, v0.z, v0.w, v1.x, v1.y, v1.z, v1.w,
                        v2.x, v2.y, v2.z, v2.w, v3.x, v3.y, v3.z, v3.w};
  if (V == LOADS) {
    xorWords<ROWS, 34, 8>(w, ib, p, bits);
    float sx = 0.f;
#pragma unroll
    for (int i = 0; i < 16; i++) sx += xs[i];
    acc[0] += sx;
  } else {
    // Word k (bytes 16p+4k ..): e = weights +0, +2, o = +1, +3.
    __half2 xe[4], xo[4];
#pragma unroll
    for (int k = 0; k < 4; k++) {
      xe[k] = __floats2half2_rn(xs[4 * k], xs[4 * k + 2]);
      xo[k] = __floats2half2_rn(xs[4 * k + 1], xs[4 * k + 3]);
    }
    const __half2 off = asH2(0x64806480u);  // 1152 = 1024 + 128
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
      const uint16_t *q = (const uint16_t *)(w[r] + ib * 34);
      const float d = h2f(q[0]);
      __half2 s0 = __float2half2_rn(0.f), s1 = __float2half2_rn(0.f);
#pragma unroll
      for (int k = 0; k < 4; k++) {
        const uint32_t u = pack(q, 1 + p * 8 + 2 * k) ^ 0x80808080u;
        s0 = __hfma2(xe[k], __hsub2(asH2((u & 0x00FF00FFu) | 0x64006400u), off), s0);
        s1 = __hfma2(xo[k], __hsub2(asH2(((u >> 8) & 0x00FF00FFu) | 0x64006400u), off), s1);
      }
      const __half2 s = __hadd2(s0, s1);
      acc[r] += d * (__low2float(s) + __high2float(s));
    }
  }
}

template <Fmt F, Var V, int ROWS>
__global__ void __launch_bounds__(THREADS) gemv(const float *x, const uint8_t *w, float *y, uint32_t n,
                                                uint32_t k) {
  __shared__ float red[THREADS / 32][ROWS];
  const uint32_t nb = k / 32, rowBytes = nb * (F == Q4_0 ? 18 : 34);
  const uint32_t r0 = blockIdx.x * ROWS, t = threadIdx.x, p = t % 2;
  const uint8_t *wr[ROWS];
#pragma unroll
  for (int r = 0; r < ROWS; r++) wr[r] = w + (size_t)(r0 + r < n ? r0 + r : n - 1) * rowBytes;
  float acc[ROWS] = {};
  uint32_t bits[ROWS] = {};
  const uint32_t stride = blockDim.x / 2;
  uint32_t ib0 = t / 2;
  // Four-bit formats take two slots a step (dqUnroll), q8_0 one.
  if (F == Q4_0) {
    for (; ib0 + stride < nb; ib0 += 2 * stride) {
      slotQ4_0<V, ROWS>(x, wr, ib0, p, acc, bits);
      slotQ4_0<V, ROWS>(x, wr, ib0 + stride, p, acc, bits);
    }
    for (; ib0 < nb; ib0 += stride) slotQ4_0<V, ROWS>(x, wr, ib0, p, acc, bits);
  } else {
    for (; ib0 < nb; ib0 += stride) slotQ8_0<V, ROWS>(x, wr, ib0, p, acc, bits);
  }
  float sum[ROWS];
#pragma unroll
  for (int r = 0; r < ROWS; r++) sum[r] = V == LOADS ? (float)(bits[r] & 0xFFFFu) + acc[0] : acc[r];
  storeRows<ROWS>(sum, red, y, r0, n);
}


// The whole weight buffer read with 16-byte loads, consecutive threads on
// consecutive vectors: what reading these bytes can cost at best.
__global__ void __launch_bounds__(256) readAll(const float *x, const uint8_t *w, float *y, uint32_t n, uint32_t k) {
  const size_t nv = (size_t)n * (k / 32) * 18 / 16;  // q4_0 rows are whole 16-byte units
  const uint4 *v = (const uint4 *)w;
  uint32_t b = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < nv; i += (size_t)gridDim.x * blockDim.x) {
    const uint4 t = __ldg(v + i);
    b ^= t.x ^ t.y ^ t.z ^ t.w;
  }
  if (b == 0x12345678u) y[0] = x[0];
}

// Row a lane: lane l of a threadgroup's S simdgroups owns weight row
// 32·tg + l, and simdgroup s takes the row's superblocks (eight q4_0
// blocks, 144 bytes = nine 16-byte loads) s, s + S, …; the simdgroups'
// sums meet in threadgroup memory. Every byte's place in a superblock is
// known when compiling, so extracting fields needs no indexing. x is read
// by every lane at the same address (a broadcast): in float from device
// memory, or, for half2, as half2s in threadgroup memory that the
// threadgroup converts and permutes first (a, c, b, d of each word).
template <int S, Var V>
__global__ void __launch_bounds__(32 * S) rowlaneQ4_0(const float *x, const uint8_t *w, float *y, uint32_t n,
                                                      uint32_t k) {
  extern __shared__ uint32_t smem[];
  const uint32_t lane = threadIdx.x % 32, sg = threadIdx.x / 32;
  const uint32_t nsb = k / 256, rowBytes = (k / 32) * 18;
  __half2 *xs = (__half2 *)smem;
  float *red = (float *)(smem + (V == HALF2 ? k / 2 : 0));
  if (V == HALF2) {
    for (uint32_t i = threadIdx.x; i < k / 2; i += blockDim.x) {
      const uint32_t blk = i / 16, j = i % 16, m = j / 4, kind = j % 4;
      const uint32_t base = blk * 32 + 4 * m + (kind & 1) + (kind >= 2 ? 16 : 0);
      const float sc = kind >= 2 ? 0.0625f : 1.0f;
      xs[i] = __floats2half2_rn(x[base] * sc, x[base + 2] * sc);
    }
    __syncthreads();
  }
  const uint32_t row = blockIdx.x * 32 + lane;
  const uint32_t rr = row < n ? row : n - 1;
  const uint4 *wr = (const uint4 *)(w + (size_t)rr * rowBytes);
  float acc = 0.f;
  uint32_t bits = 0;
  for (uint32_t sb = sg; sb < nsb; sb += S) {
    uint32_t wd[37];
#pragma unroll
    for (int i = 0; i < 9; i++) {
      const uint4 v = __ldg(wr + sb * 9 + i);
      wd[4 * i] = v.x;
      wd[4 * i + 1] = v.y;
      wd[4 * i + 2] = v.z;
      wd[4 * i + 3] = v.w;
    }
    wd[36] = 0;
    if (V == LOADS) {
#pragma unroll
      for (int i = 0; i < 36; i++) bits ^= wd[i] << (i % 7);
      continue;
    }
#pragma unroll
    for (int b = 0; b < 8; b++) {
      const int off = 18 * b;
      const uint32_t dw = wd[off / 4];
      const float d = h2f((uint16_t)(off % 4 == 0 ? (dw & 0xFFFFu) : (dw >> 16)));
      uint32_t q[4];
#pragma unroll
      for (int m = 0; m < 4; m++) {
        const int qo = off + 2 + 4 * m;
        q[m] = qo % 4 == 0 ? wd[qo / 4] : __funnelshift_r(wd[qo / 4], wd[qo / 4 + 1], 16);
      }
      if (V == HALF2) {
        const uint4 *xb = (const uint4 *)(xs + (sb * 8 + b) * 16);
        const __half2 off8 = asH2(0x64086408u), off128 = asH2(0x64806480u);
        __half2 s0 = __float2half2_rn(0.f), s1 = __float2half2_rn(0.f);
#pragma unroll
        for (int m = 0; m < 4; m++) {
          const uint4 xv = xb[m];  // a, c, b, d
          s0 = __hfma2(asH2(xv.x), __hsub2(asH2((q[m] & 0x000F000Fu) | 0x64006400u), off8), s0);
          s1 = __hfma2(asH2(xv.z), __hsub2(asH2((q[m] & 0x00F000F0u) | 0x64006400u), off128), s1);
          s0 = __hfma2(asH2(xv.y), __hsub2(asH2(((q[m] >> 8) & 0x000F000Fu) | 0x64006400u), off8), s0);
          s1 = __hfma2(asH2(xv.w), __hsub2(asH2(((q[m] >> 8) & 0x00F000F0u) | 0x64006400u), off128), s1);
        }
        const __half2 s = __hadd2(s0, s1);
        acc += d * (__low2float(s) + __high2float(s));
      } else {
        // A 4-bit field at bits f..f+3 (f ≤ 16) ORed into the bits of
        // 2^(23−f) is the float 2^(23−f) + q (the field lands on the
        // mantissa's units): one AND-OR, then one subtraction of
        // 2^(23−f) + 8 gives q − 8 exactly. Bits 20..31 are shifted down by
        // 12 first (one shift a word).
        const float *xg = x + (sb * 8 + b) * 32;
        float s0 = 0.f, s1 = 0.f;
#pragma unroll
        for (int m = 0; m < 4; m++) {
          const float4 xl = *(const float4 *)(xg + 4 * m), xh = *(const float4 *)(xg + 16 + 4 * m);
          const float xlv[4] = {xl.x, xl.y, xl.z, xl.w}, xhv[4] = {xh.x, xh.y, xh.z, xh.w};
          const uint32_t hi = q[m] >> 12;
#pragma unroll
          for (int t = 0; t < 4; t++) {
#pragma unroll
            for (int h = 0; h < 2; h++) {
              const int f0 = 8 * t + 4 * h;
              const uint32_t src = f0 <= 16 ? q[m] : hi;
              const int f = f0 <= 16 ? f0 : f0 - 12;
              const uint32_t magic = (uint32_t)(150 - f) << 23;
              const float v = __uint_as_float((src & (15u << f)) | magic) - (__uint_as_float(magic) + 8.0f);
              if (h == 0) {
                s0 += xlv[t] * v;
              } else {
                s1 += xhv[t] * v;
              }
            }
          }
        }
        acc += d * (s0 + s1);
      }
    }
  }
  if (V == LOADS) acc = (float)(bits & 0xFFFFu);
  red[sg * 32 + lane] = acc;
  __syncthreads();
  if (sg == 0) {
    float s = 0.f;
#pragma unroll
    for (int g = 0; g < S; g++) s += red[g * 32 + lane];
    if (row < n) y[row] = s;
  }
}

// The roofline's copy: 16-byte loads and stores, consecutive threads on
// consecutive vectors (bench/gpu/check.py's env stage uses torch's copy_).
__global__ void __launch_bounds__(256) copyKernel(const uint4 *a, uint4 *b, size_t nv) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < nv; i += (size_t)gridDim.x * blockDim.x) b[i] = a[i];
}

// Loads only, a pair of q4_0 blocks a lane (36 bytes, 4-byte aligned:
// nine 4-byte loads), four rows a threadgroup, thread t on pairs t,
// t + 128, …: what 4-byte loads of the same bytes cost.
__global__ void __launch_bounds__(128) pairLoads(const float *x, const uint8_t *w, float *y, uint32_t n, uint32_t k) {
  const uint32_t np = k / 64, rowWords = (k / 32) * 18 / 4;
  const uint32_t r0 = blockIdx.x * 4;
  uint32_t bits = 0;
  for (uint32_t pr = threadIdx.x; pr < np; pr += blockDim.x) {
#pragma unroll
    for (int r = 0; r < 4; r++) {
      const uint32_t *wp = (const uint32_t *)w + (size_t)min(r0 + r, n - 1) * rowWords + pr * 9;
#pragma unroll
      for (int i = 0; i < 9; i++) bits ^= __ldg(wp + i) << i;
    }
  }
  if (bits == 0x12345678u) y[r0] = x[0];
}

// Run 19's helpers. wordRows: each row's first 4-byte word (plus off
// words), rows past n reading the last row.
template <int ROWS>
__device__ __forceinline__ void wordRows(const uint8_t *w, uint32_t r0, uint32_t n, uint32_t rowWords, uint32_t off,
                                         const uint32_t **wr) {
#pragma unroll
  for (int r = 0; r < ROWS; r++) wr[r] = (const uint32_t *)w + (size_t)min(r0 + r, n - 1) * rowWords + off;
}

// loadWords: W consecutive 4-byte words of each row from word at on,
// every load issued before any is used.
template <int ROWS, int W>
__device__ __forceinline__ void loadWords(const uint32_t *const *wr, uint32_t at, uint32_t (*wd)[W]) {
#pragma unroll
  for (int r = 0; r < ROWS; r++)
#pragma unroll
    for (int i = 0; i < W; i++) wd[r][i] = __ldg(wr[r] + at + i);
}

// halfBits: the half (hi = 0: bits 0..15, 1: bits 16..31) of v as a
// half float's value (a block's d).
__device__ __forceinline__ float halfBits(uint32_t v, int hi) { return h2f((uint16_t)(hi ? v >> 16 : v)); }

// q4Half: s plus the four weights of the 16-bit half of v at bit o (0 or
// 16) times x0..x3 (pre-scaled for M): M = 0 the emitted float decode
// (fields ORed into 2^23's bits, 2^23 subtracted), else fields moved to
// mantissa bits 15..18 and 19..22 and ORed into one (1.0's bits).
template <int M>
__device__ __forceinline__ float q4Half(uint32_t v, int o, float x0, float x1, float x2, float x3, uint32_t one,
                                        float s) {
  if (M == 0) {
    const uint32_t u = (v >> o) | 0x4B000000u;
    s += x0 * mf(u & 0x4B00000Fu);
    s += x1 * mf(u & 0x4B0000F0u);
    s += x2 * mf(u & 0x4B000F00u);
    s += x3 * mf(u & 0x4B00F000u);
  } else {
    const uint32_t a = o ? v >> 1 : v << 15, e = o ? v >> 9 : v << 7;
    s += x0 * __uint_as_float((a & 0x00078000u) | one);
    s += x1 * __uint_as_float((a & 0x00780000u) | one);
    s += x2 * __uint_as_float((e & 0x00078000u) | one);
    s += x3 * __uint_as_float((e & 0x00780000u) | one);
  }
  return s;
}

// q8Half: s plus the two q8_0 weights of the 16-bit half of v at bit o
// times x0, x1 (x1 pre-scaled by 1/256), each as q + 128.
__device__ __forceinline__ float q8Half(uint32_t v, int o, float x0, float x1, float s) {
  const uint32_t u = ((v >> o) & 0xFFFFu) ^ 0x4B008080u;  // the other half must not reach bits 24..31
  s += x0 * mf(u & 0x4B0000FFu);
  s += x1 * mf(u & 0x4B00FF00u);
  return s;
}

// PairFmt: what the pair kernels need of a format. A pair of blocks is
// WORDS 4-byte words; a block's d is its first 16-bit half, then HALVES
// halves of qs. x(xb, m, c, xv): half m's x (xb: the block's 32 floats)
// pre-scaled for the decode into xv, its part of the block's offset term
// added to c. half(v, o, xv, one, s): s plus half (v, o)'s weights times
// xv. offset(c): what comes off the block's sum before d multiplies it.
template <Fmt F, int M>
struct PairFmt;
template <int M>
struct PairFmt<Q4_0, M> {
  static constexpr int WORDS = 9, HALVES = 8;
  // qs bytes 2m, 2m+1: weights 2m (bits 0..3), 2m+16, 2m+1, 2m+17
  static __device__ __forceinline__ void x(const float *xb, int m, float &c, float *xv) {
    const float2 xl = *(const float2 *)(xb + 2 * m), xh = *(const float2 *)(xb + 16 + 2 * m);
    if (M == 0) {
      c += (xl.x + xl.y) + (xh.x + xh.y);
    } else {
      c += 264.0f * (xl.x + xl.y) + 24.0f * (xh.x + xh.y);
    }
    xv[0] = M == 0 ? xl.x : xl.x * 256.0f;
    xv[1] = M == 0 ? xh.x * 0.0625f : xh.x * 16.0f;
    xv[2] = M == 0 ? xl.y * 0.00390625f : xl.y * 256.0f;
    xv[3] = M == 0 ? xh.y * 0.000244140625f : xh.y * 16.0f;
  }
  static __device__ __forceinline__ float half(uint32_t v, int o, const float *xv, uint32_t one, float s) {
    return q4Half<M>(v, o, xv[0], xv[1], xv[2], xv[3], one, s);
  }
  static __device__ __forceinline__ float offset(float c) { return M == 0 ? 8.0f * c : c; }
};
template <int M>
struct PairFmt<Q8_0, M> {
  static constexpr int WORDS = 17, HALVES = 16;
  static __device__ __forceinline__ void x(const float *xb, int m, float &c, float *xv) {
    const float2 v = *(const float2 *)(xb + 2 * m);
    c += v.x + v.y;
    xv[0] = v.x;
    xv[1] = v.y * 0.00390625f;
  }
  static __device__ __forceinline__ float half(uint32_t v, int o, const float *xv, uint32_t, float s) {
    return q8Half(v, o, xv[0], xv[1], s);
  }
  static __device__ __forceinline__ float offset(float c) { return 128.0f * c; }
};

// M = 2's 1.0: its bits in a register the compiler cannot fold (k < 2^31).
template <int M>
__device__ __forceinline__ uint32_t oneBits(uint32_t k) {
  return M == 2 ? (0x3F800000u | (k >> 31)) : 0x3F800000u;
}

// Pair layout (run 19): a lane owns a pair of blocks of each of its
// ROWS rows (q4_0: 36 bytes, q8_0: 68: 4-byte aligned), read in 4-byte
// loads, thread t on pairs t, t + THR, …. All of a row's words are loaded
// before any is decoded; x is read a 16-bit half of qs at a time (the
// four or two weights it holds), shared by the rows, so a lane holds its
// rows' words, not the pair's 64 x values. Every half's place in the
// pair is known when compiling: no shifts or selects to find it.
//   M = 0: the emitted float decode (the half ORed into 2^23's bits, each
//          field ANDed out, 2^23 subtracted, x pre-scaled by its place)
//   M = 1: (q4_0) a field moved to mantissa bits 15..18 or 19..22 and
//          ORed into 1.0's bits is the float 1 + q/256 or 1 + q/16: one
//          shift (for two fields), one AND-OR and one multiply-add a
//          weight, against x pre-scaled by 256 or 16; the pair's 1·x
//          terms and the −8 offset come off once a block (c, shared by
//          the rows)
//   M = 2: as 1, with 1.0's bits in a register the compiler cannot fold
//          (so each AND-OR can be one LOP3)
template <Fmt F, int ROWS, int M, int THR>
__device__ __forceinline__ void pairBody(const float *x, const uint8_t *w, float *y, uint32_t n, uint32_t k) {
  using P = PairFmt<F, M>;
  constexpr int W = P::WORDS, H = P::HALVES;
  __shared__ float red[THR / 32][ROWS];
  const uint32_t t = threadIdx.x, np = k / 64, r0 = blockIdx.x * ROWS, one = oneBits<M>(k);
  const uint32_t *wr[ROWS];
  wordRows<ROWS>(w, r0, n, np * W, 0, wr);
  float acc[ROWS] = {};
  for (uint32_t pr = t; pr < np; pr += THR) {
    uint32_t wd[ROWS][W];
    loadWords<ROWS, W>(wr, pr * W, wd);
#pragma unroll
    for (int b = 0; b < 2; b++) {  // block b: d is half (H+1)b, qs halves (H+1)b+1 .. (H+1)b+H
      float s[ROWS] = {};
      float c = 0.f;
#pragma unroll
      for (int m = 0; m < H; m++) {
        float xv[4];
        P::x(x + pr * 64 + 32 * b, m, c, xv);
        const int hj = (H + 1) * b + 1 + m;
#pragma unroll
        for (int r = 0; r < ROWS; r++) s[r] = P::half(wd[r][hj / 2], (hj % 2) * 16, xv, one, s[r]);
      }
#pragma unroll
      for (int r = 0; r < ROWS; r++) acc[r] += halfBits(wd[r][((H + 1) * b) / 2], b) * (s[r] - P::offset(c));
    }
  }
  storeRows<ROWS>(acc, red, y, r0, n);
}
template <int ROWS, int M, int THR>
__global__ void __launch_bounds__(THR) pairQ4_0(const float *x, const uint8_t *w, float *y, uint32_t n,
                                               uint32_t k) {
  pairBody<Q4_0, ROWS, M, THR>(x, w, y, n, k);
}
template <int ROWS, int THR>
__global__ void __launch_bounds__(THR) pairQ8_0(const float *x, const uint8_t *w, float *y, uint32_t n,
                                               uint32_t k) {
  pairBody<Q8_0, ROWS, 0, THR>(x, w, y, n, k);
}

// pairT's x staging: a chunk of XCH blocks, a block's 32 floats at a
// stride of XSTRIDE floats (so that both the copy's and the lanes' 8-byte
// accesses miss no bank). stageX copies chunk cb, thread t taking float4s
// t, t + 128, … (consecutive threads on consecutive float4s).
constexpr uint32_t XCH = 128, XSTRIDE = 34;
__device__ __forceinline__ void stageX(const float *x, float *xs, uint32_t cb, uint32_t nb, uint32_t t) {
#pragma unroll
  for (int i = 0; i < 8; i++) {
    const uint32_t f = t + 128 * i, b = f / 8, q = f % 8;
    if (cb + b < nb) {
      const float4 v = *(const float4 *)(x + (size_t)(cb + b) * 32 + 4 * q);
      *(float2 *)(xs + b * XSTRIDE + 4 * q) = make_float2(v.x, v.y);
      *(float2 *)(xs + b * XSTRIDE + 4 * q + 2) = make_float2(v.z, v.w);
    }
  }
}

// Run 19b: the pair layout with two lanes a pair and x through
// threadgroup memory (128 threads). Lane part p = t % 2 owns block
// 2·pr + p of the pair pr = t / 2 + 64·c of each of its ROWS rows and
// loads W/2 + 1 of the pair's W words (from word p·W/2: q4_0 p = 0 words
// 0..4, p = 1 words 4..8; q8_0 0..8, 8..16): its qs as aligned words (a
// funnel shift by 16 for p = 0, none for p = 1: a select and a shift a
// word, the same code in every lane), its d the first or second half of
// its first word. Each lane reads its block's x from stageX's copy, shared
// by the rows. M: the decode, as pairBody's.
template <Fmt F, int ROWS, int M>
__device__ __forceinline__ void pairTBody(const float *x, const uint8_t *w, float *y, uint32_t n, uint32_t k) {
  using P = PairFmt<F, M>;
  constexpr int W = P::WORDS, LW = W / 2 + 1, H = P::HALVES;
  __shared__ __attribute__((aligned(16))) float xs[XCH * XSTRIDE];
  __shared__ float red[4][ROWS];
  const uint32_t t = threadIdx.x, p = t % 2, nb = k / 32, r0 = blockIdx.x * ROWS, one = oneBits<M>(k);
  const uint32_t sh = 16u * (1u - p);
  const uint32_t *wr[ROWS];
  wordRows<ROWS>(w, r0, n, nb / 2 * W, W / 2 * p, wr);
  float acc[ROWS] = {};
  for (uint32_t cb = 0; cb < nb; cb += XCH) {
    __syncthreads();  // the last chunk's reads are done
    stageX(x, xs, cb, nb, t);
    __syncthreads();
    if (cb + t >= nb) continue;  // the last chunk may be short (nb even: whole pairs)
    uint32_t wd[ROWS][LW];
    loadWords<ROWS, LW>(wr, (cb + t) / 2 * W, wd);
    float s[ROWS] = {};
    float c = 0.f;
#pragma unroll
    for (int m = 0; m < H; m++) {
      float xv[4];
      P::x(xs + t * XSTRIDE, m, c, xv);
      const int i = m / 2;
#pragma unroll
      for (int r = 0; r < ROWS; r++) {
        const uint32_t q = __funnelshift_r(p ? wd[r][i + 1] : wd[r][i], wd[r][i + 1], sh);
        s[r] = P::half(q, (m % 2) * 16, xv, one, s[r]);
      }
    }
#pragma unroll
    for (int r = 0; r < ROWS; r++) acc[r] += halfBits(wd[r][0], p) * (s[r] - P::offset(c));
  }
  storeRows<ROWS>(acc, red, y, r0, n);
}
template <int ROWS, int M>
__global__ void __launch_bounds__(128) pairTQ4_0(const float *x, const uint8_t *w, float *y, uint32_t n,
                                                uint32_t k) {
  pairTBody<Q4_0, ROWS, M>(x, w, y, n, k);
}
template <int ROWS>
__global__ void __launch_bounds__(128) pairTQ8_0(const float *x, const uint8_t *w, float *y, uint32_t n,
                                                uint32_t k) {
  pairTBody<Q8_0, ROWS, 0>(x, w, y, n, k);
}

// Staged (codegen/metal/dequant_stage.go's idea, run 11): the
// threadgroup copies a stage of 64 blocks of each of its ROWS rows (1,152
// bytes a row, 72 16-byte loads) into one of two threadgroup buffers, the
// next stage's loads issued before this stage's decode, one barrier a
// stage. The lanes then decode as the emitted kernel does (two lanes a
// block, x shared by the rows), but read a lane's 8 bytes of qs as three
// aligned 4-byte words shifted into two (a block's qs start at 2 mod 4 in
// every other block) instead of four 2-byte reads. LOADS: the staging
// only, the decode replaced by an XOR of the same words.
template <int ROWS, Var V>
__global__ void __launch_bounds__(128) stagedQ4_0(const float *x, const uint8_t *w, float *y, uint32_t n,
                                                  uint32_t k) {
  constexpr uint32_t SB = 64 * 18, SV = SB / 16;  // a row's stage: bytes, 16-byte vectors
  // A lane's third word may lie 4 bytes past its row's stage (unused then).
  __shared__ __attribute__((aligned(16))) uint8_t buf[2][ROWS * SB + 16];
  __shared__ float red[4][ROWS];
  const uint32_t t = threadIdx.x, nb = k / 32, stages = nb / 64, rowBytes = nb * 18;
  const uint32_t r0 = blockIdx.x * ROWS;
  constexpr int PER = (ROWS * SV + 127) / 128;  // vectors a thread copies a stage
  uint4 v[PER];
  auto load = [&](uint32_t s) {
#pragma unroll
    for (int i = 0; i < PER; i++) {
      const uint32_t e = t + 128 * i;
      if (e < ROWS * SV) {
        const uint32_t r = e / SV, c = e % SV;
        const uint32_t row = r0 + r < n ? r0 + r : n - 1;
        v[i] = __ldg((const uint4 *)(w + (size_t)row * rowBytes + (size_t)s * SB) + c);
      }
    }
  };
  auto store = [&](uint32_t b) {
#pragma unroll
    for (int i = 0; i < PER; i++) {
      const uint32_t e = t + 128 * i;
      if (e < ROWS * SV) ((uint4 *)buf[b])[e] = v[i];
    }
  };
  load(0);
  store(0);
  __syncthreads();
  float acc[ROWS] = {};
  uint32_t bits = 0;
  const uint32_t blk = t / 2, p = t % 2;
  const uint32_t a = blk * 18 + 2 + 8 * p, base = a & ~3u, sh = (a & 3u) * 8;
  for (uint32_t s = 0; s < stages; s++) {
    if (s + 1 < stages) load(s + 1);
    const uint8_t *sb = buf[s % 2];
    if (V == LOADS) {
#pragma unroll
      for (int r = 0; r < ROWS; r++) {
        const uint32_t *wd = (const uint32_t *)(sb + r * SB + base);
        bits ^= wd[0] ^ (wd[1] << 1) ^ (wd[2] << 2) ^ *(const uint16_t *)(sb + r * SB + blk * 18);
      }
    } else {
      const XQ4F xs = xq4Scaled(xq4(x + (s * 64 + blk) * 32, p, 0));
#pragma unroll
      for (int r = 0; r < ROWS; r++) {
        const uint32_t *wd = (const uint32_t *)(sb + r * SB + base);
        const uint32_t w0 = wd[0], w1 = wd[1], w2 = wd[2];
        const uint32_t q01 = __funnelshift_r(w0, w1, sh), q23 = __funnelshift_r(w1, w2, sh);
        const uint32_t h[4] = {q01 & 0xFFFFu, q01 >> 16, q23 & 0xFFFFu, q23 >> 16};
        acc[r] += q4Float(xs, h, h2f(*(const uint16_t *)(sb + r * SB + blk * 18)));
      }
    }
    if (s + 1 < stages) store((s + 1) % 2);
    __syncthreads();
  }
  float sum[ROWS];
#pragma unroll
  for (int r = 0; r < ROWS; r++) sum[r] = V == LOADS ? (float)(bits & 0xFFFFu) : acc[r];
  storeRows<ROWS>(sum, red, y, r0, n);
}

// Run 28: q4_0 repacked out of GGUF's blocks into two arrays, every
// block's 16 bytes of qs (row-major, [n][nb][16]) and then every block's
// d ([n][nb] halves), the same bytes as GGUF's. A lane reads its 8 bytes
// of qs in one 8-byte load (lanes 2i, 2i+1 read block i's 16), and the
// block's d in a 2-byte load, straight into registers: no staging, and
// the next block's words loaded before this one's decode. x as the
// emitted kernel reads it, a lane's 16 floats. ROWS rows a threadgroup
// of 128.
template <int ROWS, Var V, int DEC = 0, int AHEAD = 1, int MINB = 1>
__global__ void __launch_bounds__(128, MINB) soaQ4_0(const float *x, const uint8_t *w, float *y, uint32_t n,
                                                     uint32_t k) {
  __shared__ float red[4][ROWS];
  const uint32_t t = threadIdx.x, nb = k / 32, p = t % 2, blk = t / 2;
  const uint32_t r0 = blockIdx.x * ROWS;
  const uint16_t *dd = (const uint16_t *)(w + (size_t)n * nb * 16);
  size_t rb[ROWS];
#pragma unroll
  for (int r = 0; r < ROWS; r++) rb[r] = (size_t)(r0 + r < n ? r0 + r : n - 1) * nb;
  // AHEAD sets of a block's words a row: the loads of block slot ib +
  // 64·AHEAD are issued before slot ib's decode.
  uint2 q[AHEAD][ROWS];
  uint16_t dh[AHEAD][ROWS];
  auto load = [&](int a, uint32_t ib) {
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
      q[a][r] = __ldg((const uint2 *)(w + (rb[r] + ib) * 16 + 8 * p));
      dh[a][r] = __ldg(dd + rb[r] + ib);
    }
  };
  float acc[ROWS] = {};
  uint32_t bits = 0;
  auto step = [&](uint32_t ib, const uint2 *qc, const uint16_t *dc) {
    if (V == LOADS) {
#pragma unroll
      for (int r = 0; r < ROWS; r++) bits ^= qc[r].x ^ (qc[r].y << 1) ^ dc[r];
    } else if (DEC == 2) {
      // Fields read as subnormal floats (q·2^(k−149) for a field at bit
      // k of its 16-bit word), x scaled by 2^(126−k) to meet them: an AND
      // and a multiply-add a weight, the −8 taken as −8·Σx once a row.
      // Exact where the GPU keeps subnormals (nvcc's default); a GPU or
      // a compiler mode that flushes them to zero makes it wrong.
      const XQ4 v = xq4(x + ib * 32, p, 0);
      // 2^126, 2^118, 2^122, 2^114 (biased exponents 253, 245, 249, 241)
      const float s0 = __uint_as_float(0x7E800000u), s8 = __uint_as_float(0x7A800000u);
      const float s4 = __uint_as_float(0x7C800000u), s12 = __uint_as_float(0x78800000u);
      const float xl[8] = {v.l0.x * s0, v.l0.y * s8, v.l0.z * s0, v.l0.w * s8,
                           v.l1.x * s0, v.l1.y * s8, v.l1.z * s0, v.l1.w * s8};
      const float xh[8] = {v.h0.x * s4, v.h0.y * s12, v.h0.z * s4, v.h0.w * s12,
                           v.h1.x * s4, v.h1.y * s12, v.h1.z * s4, v.h1.w * s12};
      const float m8 = -8.0f * v.sx;
#pragma unroll
      for (int r = 0; r < ROWS; r++) {
        const uint32_t u[4] = {qc[r].x, qc[r].x >> 16, qc[r].y, qc[r].y >> 16};
        float al = 0.f, ah = 0.f;
#pragma unroll
        for (int i = 0; i < 4; i++) {
          al += xl[2 * i] * __uint_as_float(u[i] & 0x000Fu);
          al += xl[2 * i + 1] * __uint_as_float(u[i] & 0x0F00u);
          ah += xh[2 * i] * __uint_as_float(u[i] & 0x00F0u);
          ah += xh[2 * i + 1] * __uint_as_float(u[i] & 0xF000u);
        }
        acc[r] += h2f(dc[r]) * ((al + ah) * 8388608.0f + m8);
      }
    } else if (DEC == 1) {
      // The emitted kernel's decode (dqLaneQ4_0 since run 21c): q − 8
      // taken with the subtraction of 2²³ (2²³ + 8·place), two sums a
      // row; a 32-bit word ORed with 2²³'s bits serves its low half's
      // four fields (the masks clear bits 16–22), its high half is
      // shifted down first.
      const XQ4F xs = xq4Scaled(xq4(x + ib * 32, p, 0));
#pragma unroll
      for (int r = 0; r < ROWS; r++) {
        const uint32_t u[4] = {qc[r].x | 0x4B000000u, (qc[r].x >> 16) | 0x4B000000u, qc[r].y | 0x4B000000u,
                               (qc[r].y >> 16) | 0x4B000000u};
        float al = 0.f, ah = 0.f;
#pragma unroll
        for (int i = 0; i < 4; i++) {
          al += xs.xl[2 * i] * (__uint_as_float(u[i] & 0x4B00000Fu) - 8388616.0f);
          al += xs.xl[2 * i + 1] * (__uint_as_float(u[i] & 0x4B000F00u) - 8390656.0f);
          ah += xs.xh[2 * i] * (__uint_as_float(u[i] & 0x4B0000F0u) - 8388736.0f);
          ah += xs.xh[2 * i + 1] * (__uint_as_float(u[i] & 0x4B00F000u) - 8421376.0f);
        }
        acc[r] += h2f(dc[r]) * (al + ah);
      }
    } else {
      const XQ4F xs = xq4Scaled(xq4(x + ib * 32, p, 0));
#pragma unroll
      for (int r = 0; r < ROWS; r++) {
        const uint32_t h[4] = {qc[r].x & 0xFFFFu, qc[r].x >> 16, qc[r].y & 0xFFFFu, qc[r].y >> 16};
        acc[r] += q4Float(xs, h, h2f(dc[r]));
      }
    }
  };
#pragma unroll
  for (int a = 0; a < AHEAD; a++)
    if (blk + 64 * a < nb) load(a, blk + 64 * a);
  for (uint32_t ib0 = blk; ib0 < nb; ib0 += 64 * AHEAD) {
#pragma unroll
    for (int a = 0; a < AHEAD; a++) {
      const uint32_t ib = ib0 + 64 * a;
      if (ib < nb) {
        uint2 qc[ROWS];
        uint16_t dc[ROWS];
#pragma unroll
        for (int r = 0; r < ROWS; r++) {
          qc[r] = q[a][r];
          dc[r] = dh[a][r];
        }
        if (ib + 64 * AHEAD < nb) load(a, ib + 64 * AHEAD);
        step(ib, qc, dc);
      }
    }
  }
  float sum[ROWS];
#pragma unroll
  for (int r = 0; r < ROWS; r++) sum[r] = V == LOADS ? (float)(bits & 0xFFFFu) : acc[r];
  storeRows<ROWS>(sum, red, y, r0, n);
}

// Run 29: x-stationary. A lane owns one block column of q4_0 repacked as
// soaQ4_0 reads it: x's 32 floats for that column stay in its registers
// while it walks RPT consecutive rows, one 16-byte load of qs and a
// 2-byte load of d a row, the load D rows ahead issued before this row's
// decode (a loop of D rows a turn, so the code stays small). A
// threadgroup has k/32 lanes (a whole row a threadgroup). Each field is
// (q & mask) | E_s as a float, E_s the exponent that makes the field's
// unit 1 (2^(23−s) + q for a field at bit s), less 2^(23−s) + 8: q − 8
// exactly, so x needs no scaling; E_s is a constant plus blockIdx.y (0)
// so the compiler keeps it in a register and the AND and OR are one
// instruction (ORed with blockIdx.y, or shuffled, it splits them). NB:
// the blocks a row as a constant (the emitted kernel knows k), so that
// the D loads of a turn are one address plus constant offsets. A word's fields at bits 20,
// 24, 28 are shifted down 12 first. Every 4 rows a simdgroup halves its
// sums twice (lanes 0, 8, 16, 24 end with rows 0..3) and sums the rest
// over its lanes, into threadgroup memory; the simdgroups' sums are
// added at the end. LOADS: the decode replaced by an XOR of the words.
__device__ __forceinline__ void qWords(const uint4 &q, uint32_t *w) { w[0] = q.x, w[1] = q.y, w[2] = q.z, w[3] = q.w; }
__device__ __forceinline__ void qWords(const uint2 &q, uint32_t *w) { w[0] = q.x, w[1] = q.y; }
__device__ __forceinline__ uint32_t qXor(const uint4 &q) { return q.x ^ (q.y << 1) ^ (q.z << 2) ^ (q.w << 3); }
__device__ __forceinline__ uint32_t qXor(const uint2 &q) { return q.x ^ (q.y << 1); }
__device__ __forceinline__ void qWords(uint32_t q, uint32_t *w) { w[0] = q; }
__device__ __forceinline__ uint32_t qXor(uint32_t q) { return q; }

// The x-stationary kernels' shared pieces (xsQ4_0, xsbQ4_0, xsgQ4_0).

// xsLoadX: the x values of lane part h of block column c, W of the
// block's four qs words a part: xv[4j + b] = x[4(hW + j) + b] and
// xv[4W + 4j + b] = x[16 + 4(hW + j) + b].
template <int W>
__device__ __forceinline__ void xsLoadX(const float *x, uint32_t c, uint32_t h, float *xv) {
#pragma unroll
  for (int i = 0; i < 2 * W; i++) {
    const float4 v = __ldg((const float4 *)(x + c * 32 + (i / W) * 16 + h * 4 * W) + i % W);
    xv[4 * i] = v.x, xv[4 * i + 1] = v.y, xv[4 * i + 2] = v.z, xv[4 * i + 3] = v.w;
  }
}

// XsExp: the per-place exponents (2^(23−s)'s bits for a field at bit s),
// each a constant plus blockIdx.y (0), so that ptxas keeps them in
// registers and a field's AND-OR stays one LOP3 (run 29c).
struct XsExp {
  uint32_t e0, e4, e8, e12, e16;
};
__device__ __forceinline__ XsExp xsExp() {
  const uint32_t z = blockIdx.y;
  return XsExp{0x4B000000u + z, 0x49000000u + z, 0x47000000u + z, 0x45000000u + z, 0x43000000u + z};
}

// xsWord: word j of a lane's qs into its CH sums, each field read as
// 2^(23−s) + q and less 2^(23−s) + 8 (q − 8 exactly); bit s of u is byte
// s/8, the high nibble if s%8 = 4: weight 4j + s/8 + 16·(s%8/4), whose
// x is xj[s/8] or xj[XH + s/8] (XH = 4W). The fields at bits 20, 24 and
// 28 are read from u shifted down 12.
template <int CH, int XH>
__device__ __forceinline__ void xsWord(uint32_t u, int j, const float *xv, const XsExp &e, float *acc) {
  const uint32_t v = u >> 12;
  const float *xj = xv + 4 * j;
  acc[(8 * j + 0) % CH] += xj[0] * (__uint_as_float((u & 0x0000000Fu) | e.e0) - 8388616.0f);
  acc[(8 * j + 1) % CH] += xj[XH] * (__uint_as_float((u & 0x000000F0u) | e.e4) - 524296.0f);
  acc[(8 * j + 2) % CH] += xj[1] * (__uint_as_float((u & 0x00000F00u) | e.e8) - 32776.0f);
  acc[(8 * j + 3) % CH] += xj[XH + 1] * (__uint_as_float((u & 0x0000F000u) | e.e12) - 2056.0f);
  acc[(8 * j + 4) % CH] += xj[2] * (__uint_as_float((u & 0x000F0000u) | e.e16) - 136.0f);
  acc[(8 * j + 5) % CH] += xj[XH + 2] * (__uint_as_float((v & 0x00000F00u) | e.e8) - 32776.0f);
  acc[(8 * j + 6) % CH] += xj[3] * (__uint_as_float((v & 0x0000F000u) | e.e12) - 2056.0f);
  acc[(8 * j + 7) % CH] += xj[XH + 3] * (__uint_as_float((v & 0x000F0000u) | e.e16) - 136.0f);
}

// xsTotal: a row's CH sums added pairwise into one.
template <int CH>
__device__ __forceinline__ float xsTotal(float *acc) {
#pragma unroll
  for (int c = CH / 2; c > 0; c /= 2)
#pragma unroll
    for (int j = 0; j < c; j++) acc[j] += acc[j + c];
  return acc[0];
}

// xsExchange: four rows' lane sums (part[0..3]) of a simdgroup into its
// row of threadgroup memory, redRow[0..3]: halve twice (lane bit 16
// keeps rows 2, 3; bit 8 the odd one), then sum over the remaining 8
// lanes; lanes 0, 8, 16, 24 store rows 0, 1, 2, 3.
__device__ __forceinline__ void xsExchange(const float *part, uint32_t lane, float *redRow) {
  const uint32_t all = 0xffffffffu;
  const bool u16 = lane & 16, u8 = lane & 8;
  const float s0 = u16 ? part[0] : part[2], s1 = u16 ? part[1] : part[3];
  const float h0 = (u16 ? part[2] : part[0]) + __shfl_xor_sync(all, s0, 16);
  const float h1 = (u16 ? part[3] : part[1]) + __shfl_xor_sync(all, s1, 16);
  float s = (u8 ? h1 : h0) + __shfl_xor_sync(all, u8 ? h0 : h1, 8);
  s += __shfl_xor_sync(all, s, 4);
  s += __shfl_xor_sync(all, s, 2);
  s += __shfl_xor_sync(all, s, 1);
  if ((lane & 7) == 0) redRow[(u8 ? 1 : 0) + (u16 ? 2 : 0)] = s;
}

// xsStore: after a barrier, thread t < rows adds row t's simdgroup sums
// in simdgroup order and stores y[r0 + t].
template <int R>
__device__ __forceinline__ void xsStore(float (*red)[R], float *y, uint32_t r0, uint32_t rows) {
  __syncthreads();
  const uint32_t t = threadIdx.x;
  if (t < rows) {
    float s = 0.f;
    for (uint32_t g = 0; g < blockDim.x / 32; g++) s += red[g][t];
    y[r0 + t] = s;
  }
}

// xsShiftedWord: word j of a lane's 4-bit fields (run 29h's decode, as
// the emitter's dqShiftedDecode): each byte to bits 15-22, its low nibble
// read with 256's exponent bits (n256: 256 + q, weight 4j + b, x in
// xv[4j + b]), its high one with 16's (n16: 16 + q, x in xv[XH + 4j +
// b]), into the CH sums (even: low nibbles, odd: high ones).
template <int CH, int XH>
__device__ __forceinline__ void xsShiftedWord(uint32_t u, int j, const float *xv, uint32_t n256, uint32_t n16,
                                              float *acc) {
  const uint32_t v[4] = {u << 15, u << 7, u >> 1, u >> 9};
  const float *xj = xv + 4 * j;
#pragma unroll
  for (int b = 0; b < 4; b++) {
    acc[(8 * j + 2 * b) % CH] += xj[b] * __uint_as_float((v[b] & 0x00078000u) | n256);
    acc[(8 * j + 2 * b + 1) % CH] += xj[XH + b] * __uint_as_float((v[b] & 0x00780000u) | n16);
  }
}


// Run 32: touches, rows ahead of a kernel's register loads, that bring
// the lines into the caches without holding registers for them until
// they land. PFK 1: prefetch.global.L2 (no register; CUDA only). PFK 2:
// a plain 4-byte load, its value XORed into a sum one turn later (what
// MSL can say: the sum decides a store that never happens, so the load
// stays). PFK 3: a volatile 4-byte load whose value is dropped (MSL can
// say that too; no sum, and ptxas may give it no register). Touch j of
// a turn is lane j % 32's, j < TPR·D.
template <int PFK>
struct Touch {
  uint32_t acc = 0, pend = 0;
  __device__ __forceinline__ void at(const uint8_t *p) {
    if (PFK == 1) asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
    if (PFK == 2) {
      acc ^= pend;
      pend = *(const uint32_t *)p;
    }
    if (PFK == 3) (void)*(const volatile uint32_t *)p;
  }
  // keep: the sum into a store no real input takes (k is never 0).
  __device__ __forceinline__ void keep(float *y, uint32_t k) {
    if (PFK == 2 && (acc ^ pend) == 0x9E3779B9u && k == 0) y[0] = 0.f;
  }
};

template <int RPT, int D, Var V, uint32_t NB, int CH = 2, int LPC = 1, bool SHIFTED = false, int PF = 0,
          int PFK = 0>
__global__ void __launch_bounds__(448 * LPC) xsQ4_0(const float *x, const uint8_t *w, float *y, uint32_t n,
                                                    uint32_t k) {
  static_assert(RPT % D == 0 && D % 4 == 0, "RPT: a multiple of D, D of 4");
  static_assert(PF == 0 || LPC == 1, "touches: one lane a block column");
  // LPC lanes a block column, each with W of the block's four words of
  // qs (lane part h: words hW..hW+W−1) and the 2W·4 x values they meet.
  constexpr int W = 4 / LPC;
  using QT = typename std::conditional<W == 4, uint4, uint2>::type;
  __shared__ float red[14 * LPC][RPT];
  constexpr uint32_t nb = NB;
  const uint32_t t = threadIdx.x, lane = t % 32, sg = t / 32, h = t % LPC, c = t / LPC;
  const uint32_t r0 = blockIdx.x * RPT;
  float xv[8 * W];
  xsLoadX<W>(x, c, h, xv);
  const XsExp e = xsExp();
  // SHIFTED (run 29h's emitted decode): each byte to bits 15-22, the low
  // nibble read with 256's exponent (256 + q), the high with 16's (16 + q),
  // no subtraction; the lane's 264·Σx_low + 24·Σx_high comes off once a row.
  const uint32_t n256 = 0x43800000u + blockIdx.y, n16 = 0x41800000u + blockIdx.y;
  float xo = 0.f;
  if (SHIFTED) {
    float sl = 0.f, sh = 0.f;
#pragma unroll
    for (int i = 0; i < 4 * W; i++) sl += xv[i], sh += xv[4 * W + i];
    xo = 264.0f * sl + 24.0f * sh;
  }
  const QT *qp = (const QT *)w + (size_t)r0 * nb * LPC + t;
  const uint16_t *dp = (const uint16_t *)(w + (size_t)n * nb * 16) + (size_t)r0 * nb + c;
  QT qr[D];
  uint16_t dr[D];
#pragma unroll
  for (int i = 0; i < D; i++) {
    qr[i] = __ldg(qp + (size_t)i * nb * LPC);
    dr[i] = __ldg(dp + (size_t)i * nb);
  }
  uint32_t bits = 0;
  // Touches (PF > 0): a row's four lines of the simdgroup's qs and the
  // line of its d; rows (PF + 1)·D on from a turn's decode, the first PF
  // turns' touched before the loop (their own Touch, kept to the end).
  Touch<PFK> tch, tch0;
  auto touchRows = [&](uint32_t rr0, Touch<PFK> &tc) {
#pragma unroll
    for (int jj = 0; jj < (5 * D + 31) / 32; jj++) {
      const uint32_t j = lane + 32 * jj, rr = rr0 + j / 5, which = j % 5;
      if (j < 5 * D && rr < RPT && r0 + rr < n) {
        const size_t at = (size_t)(r0 + rr) * nb + sg * 32;
        tc.at(which < 4 ? w + at * 16 + which * 128 : w + (size_t)n * nb * 16 + at * 2);
      }
    }
  };
#pragma unroll
  for (int p = 1; p <= PF; p++) touchRows(p * D, tch0);
  // A turn: D rows, each row's load D rows on issued first when more
  // rows follow (the last turn issues none), then the pointers move on.
  const QT *qn = qp + D * nb * LPC;
  const uint16_t *dn = dp + D * nb;
  auto turn = [&](uint32_t rt, auto more) {
    if (PF > 0 && decltype(more)::value) touchRows(rt + (PF + 1) * D, tch);
    float part[4];
#pragma unroll
    for (int i = 0; i < D; i++) {
      const QT q = qr[i];
      const uint16_t dh = dr[i];
      if (decltype(more)::value) {
        qr[i] = __ldg(qn + i * nb * LPC);
        dr[i] = __ldg(dn + i * nb);
      }
      if (V == LOADS) {
        bits ^= qXor(q) ^ dh;
        part[i % 4] = (float)(bits & 1u);
      } else {
        uint32_t qw[W];
        qWords(q, qw);
        float acc[CH] = {};
#pragma unroll
        for (int j = 0; SHIFTED && j < W; j++) xsShiftedWord<CH, 4 * W>(qw[j], j, xv, n256, n16, acc);
#pragma unroll
        for (int j = 0; !SHIFTED && j < W; j++) xsWord<CH, 4 * W>(qw[j], j, xv, e, acc);
        part[i % 4] = h2f(dh) * (xsTotal<CH>(acc) - xo);
      }
      if (i % 4 == 3) xsExchange(part, lane, &red[sg][rt + i - 3]);
    }
    if (decltype(more)::value) {
      qn += D * nb * LPC;
      dn += D * nb;
    }
  };
#pragma unroll 1
  for (uint32_t rt = 0; rt + D < RPT; rt += D) turn(rt, std::true_type{});
  turn(RPT - D, std::false_type{});
  tch.keep(y, k);
  tch0.keep(y, k);
  xsStore<RPT>(red, y, r0, min((uint32_t)RPT, n - r0));
}

// xs6Word: word m of a q6_k lane's low nibbles (byte b: field 4m + b,
// and field H + 4m + b in its high nibble) with their high two bits from
// hw (even m: bits 4-5 and 6-7 of each byte; odd m: 0-1 and 2-3, shifted
// up), each byte then a 6-bit field moved to bits 16-23 and read as
// 128 + q (e128: 128's exponent bits), into the CH sums: even sums take
// the low nibbles' fields, odd ones the high nibbles'.
template <int CH, int H>
__device__ __forceinline__ void xs6Word(uint32_t u, uint32_t hw, int m, const float *xv, uint32_t e128, float *acc) {
  const uint32_t hl = m % 2 ? (hw << 4) & 0x30303030u : hw & 0x30303030u;
  const uint32_t hh = m % 2 ? (hw << 2) & 0x30303030u : (hw >> 2) & 0x30303030u;
  const uint32_t lo = (u & 0x0F0F0F0Fu) | hl, hi = ((u >> 4) & 0x0F0F0F0Fu) | hh;
  const uint32_t lv[4] = {lo << 16, lo << 8, lo, lo >> 8}, hv[4] = {hi << 16, hi << 8, hi, hi >> 8};
#pragma unroll
  for (int b = 0; b < 4; b++) {
    acc[(2 * (4 * m + b)) % CH] += xv[4 * m + b] * __uint_as_float((lv[b] & 0x00FF0000u) | e128);
    acc[(2 * (4 * m + b) + 1) % CH] += xv[H + 4 * m + b] * __uint_as_float((hv[b] & 0x00FF0000u) | e128);
  }
}

// Run 30: q6_k repacked for the x-stationary shape (repackQ6_K, the same
// 210 bytes a block): a lane owns a column of W weights (32: two of the
// block's 16-weight scale groups; 16: one) with its W x values in
// registers and walks RPT rows, D rows ahead, each row one load of the
// low nibbles (W/2 bytes: byte j holds weight j's and, as its high
// nibble, weight W/2 + j's), one of the high two bits (W/4 bytes, placed
// as xs6Word reads them), one of the scales (W/16 bytes) and d, shared
// by the block's 256/W lanes. Each group's sum takes 160·Σx off once
// (the fields are 128 + q: its −32 with it); the scales (XORed with
// 0x80) become floats through 2²³'s bits. With W = 32, even sums (of CH)
// hold group 0, odd ones group 1; with 16, all one group.
// ldw: a weight load through the read-only path (NC: __ldg, ld.global.nc,
// as every probe kernel loads) or a plain load (ld.global, as the CUDA
// translation of the emitted MSL loads: its buffers come in a struct, so
// nvcc cannot prove them read-only).
template <bool NC, class T>
__device__ __forceinline__ T ldw(const T *p) {
  if constexpr (NC) {
    return __ldg(p);
  } else {
    return *p;
  }
}

template <int RPT, int D, Var V, uint32_t NL, int CH = 2, int W = 32, int PF = 0, int PFK = 0, bool NC = true>
__global__ void __launch_bounds__(NL) xsQ6K(const float *x, const uint8_t *w, float *y, uint32_t n, uint32_t k) {
  static_assert(RPT % D == 0 && D % 4 == 0 && CH % 2 == 0 && (W == 32 || W == 16), "RPT: a multiple of D, D of 4");
  using QL = typename std::conditional<W == 32, uint4, uint2>::type;
  using QH = typename std::conditional<W == 32, uint2, uint32_t>::type;
  using SC = typename std::conditional<W == 32, uint16_t, uint8_t>::type;
  constexpr uint32_t LPB = 256 / W;  // lanes a block: one d
  __shared__ float red[NL / 32][RPT];
  const uint32_t t = threadIdx.x, lane = t % 32, sg = t / 32;
  const uint32_t r0 = blockIdx.x * RPT;
  float xv[W];
#pragma unroll
  for (int i = 0; i < W / 4; i++) {
    const float4 v = __ldg((const float4 *)(x + t * W) + i);
    xv[4 * i] = v.x, xv[4 * i + 1] = v.y, xv[4 * i + 2] = v.z, xv[4 * i + 3] = v.w;
  }
  float c0 = 0.f, c1 = 0.f;
#pragma unroll
  for (int i = 0; i < 16; i++) c0 += xv[i], c1 += xv[(W - 16) + i];
  c0 *= 160.0f, c1 *= 160.0f;
  const uint32_t e128 = 0x43000000u + blockIdx.y, mg = 0x4B000000u + blockIdx.y;
  const QL *qlp = (const QL *)w + (size_t)r0 * NL + t;
  const QH *qhp = (const QH *)(w + (size_t)n * NL * (W / 2)) + (size_t)r0 * NL + t;
  const SC *scp = (const SC *)(w + (size_t)n * NL * (3 * W / 4)) + (size_t)r0 * NL + t;
  const uint16_t *dp = (const uint16_t *)(w + (size_t)n * NL * (13 * W / 16)) + (size_t)r0 * (NL / LPB) + t / LPB;
  QL qlr[D];
  QH qhr[D];
  SC scr[D];
  uint16_t dr[D];
#pragma unroll
  for (int i = 0; i < D; i++) {
    qlr[i] = ldw<NC>(qlp + (size_t)i * NL);
    qhr[i] = ldw<NC>(qhp + (size_t)i * NL);
    scr[i] = ldw<NC>(scp + (size_t)i * NL);
    dr[i] = ldw<NC>(dp + (size_t)i * (NL / LPB));
  }
  uint32_t bits = 0;
  // Touches (PF > 0, as xsQ4_0's): a row's W/8 lines of the simdgroup's
  // low nibbles, W/16 of its high bits, the line of its scales and that
  // of its d.
  constexpr int TPR = W / 8 + W / 16 + 2;
  Touch<PFK> tch, tch0;
  auto touchRows = [&](uint32_t rr0, Touch<PFK> &tc) {
#pragma unroll
    for (int jj = 0; jj < (TPR * D + 31) / 32; jj++) {
      const uint32_t j = lane + 32 * jj, rr = rr0 + j / TPR, which = j % TPR;
      if (j < TPR * D && rr < RPT && r0 + rr < n) {
        const size_t at = (size_t)(r0 + rr) * NL + sg * 32;
        const uint8_t *p;
        if (which < W / 8) {
          p = w + at * (W / 2) + which * 128;
        } else if (which < W / 8 + W / 16) {
          p = w + (size_t)n * NL * (W / 2) + at * (W / 4) + (which - W / 8) * 128;
        } else if (which == TPR - 2) {
          p = w + (size_t)n * NL * (3 * W / 4) + at * (W / 16);
        } else {
          p = w + (size_t)n * NL * (13 * W / 16) + ((size_t)(r0 + rr) * (NL / LPB) + sg * 32 / LPB) * 2;
        }
        tc.at(p);
      }
    }
  };
#pragma unroll
  for (int p = 1; p <= PF; p++) touchRows(p * D, tch0);
  const QL *qln = qlp + D * NL;
  const QH *qhn = qhp + D * NL;
  const SC *scn = scp + D * NL;
  const uint16_t *dn = dp + D * (NL / LPB);
  auto turn = [&](uint32_t rt, auto more) {
    if (PF > 0 && decltype(more)::value) touchRows(rt + (PF + 1) * D, tch);
    float part[4];
#pragma unroll
    for (int i = 0; i < D; i++) {
      const QL ql = qlr[i];
      const QH qh = qhr[i];
      const uint32_t sc = scr[i];
      const uint16_t dh = dr[i];
      if (decltype(more)::value) {
        qlr[i] = ldw<NC>(qln + i * NL);
        qhr[i] = ldw<NC>(qhn + i * NL);
        scr[i] = ldw<NC>(scn + i * NL);
        dr[i] = ldw<NC>(dn + i * (NL / LPB));
      }
      if (V == LOADS) {
        bits ^= qXor(ql) ^ qXor(qh) ^ sc ^ dh;
        part[i % 4] = (float)(bits & 1u);
      } else {
        uint32_t u[W / 8], h[W / 16];
        qWords(ql, u);
        qWords(qh, h);
        float acc[CH] = {};
#pragma unroll
        for (int m = 0; m < W / 8; m++) xs6Word<CH, W / 2>(u[m], h[m / 2], m, xv, e128, acc);
        float g0 = 0.f, g1 = 0.f;
#pragma unroll
        for (int c = 0; c < CH; c += 2) g0 += acc[c], g1 += acc[c + 1];
        const float s0 = __uint_as_float(((sc ^ 0x80u) & 0xFFu) | mg) - 8388736.0f;
        if (W == 32) {
          const float s1 = __uint_as_float(((sc >> 8) ^ 0x80u) | mg) - 8388736.0f;
          part[i % 4] = h2f(dh) * (s0 * (g0 - c0) + s1 * (g1 - c1));
        } else {
          part[i % 4] = h2f(dh) * (s0 * ((g0 + g1) - c0));
        }
      }
      if (i % 4 == 3) xsExchange(part, lane, &red[sg][rt + i - 3]);
    }
    if (decltype(more)::value) {
      qln += D * NL, qhn += D * NL, scn += D * NL, dn += D * (NL / LPB);
    }
  };
#pragma unroll 1
  for (uint32_t rt = 0; rt + D < RPT; rt += D) turn(rt, std::true_type{});
  turn(RPT - D, std::false_type{});
  tch.keep(y, k);
  tch0.keep(y, k);
  xsStore<RPT>(red, y, r0, min((uint32_t)RPT, n - r0));
}

// Run 30: q4_k repacked for the x-stationary shape (repackQ4_K, the same
// 144 bytes a block): a lane owns one 32-weight sub-block column (its
// scale and minimum) with its x in registers and walks RPT rows, D ahead,
// each row one 16-byte load of its nibbles (byte j: weight j low, 16 + j
// high, as repacked q4_0) and one 16-byte load of its block's head,
// shared by the block's eight lanes: d, dmin, then the eight sub-blocks'
// scales' low four bits (nibble j of a word), their minimums' low four
// bits, and the top two bits of both (bits 4j..4j+1 and 4j+2..4j+3). The
// nibbles are read as run 29h's (256 + q, 16 + q); the row's sum is
// d·sc·(Σ − 256·Σx_low − 16·Σx_high) − dmin·m·Σx.
template <int RPT, int D, Var V, uint32_t NL, int CH = 4>
__global__ void __launch_bounds__(NL) xsQ4K(const float *x, const uint8_t *w, float *y, uint32_t n, uint32_t k) {
  static_assert(RPT % D == 0 && D % 4 == 0 && CH % 2 == 0, "RPT: a multiple of D, D of 4, CH even");
  __shared__ float red[NL / 32][RPT];
  const uint32_t t = threadIdx.x, lane = t % 32, sg = t / 32, j = t % 8;
  const uint32_t r0 = blockIdx.x * RPT;
  float xv[32];
  xsLoadX<4>(x, t, 0, xv);
  float sl = 0.f, sh = 0.f;
#pragma unroll
  for (int i = 0; i < 16; i++) sl += xv[i], sh += xv[16 + i];
  const float xo = 256.0f * sl + 16.0f * sh, xs = sl + sh;
  const uint32_t n256 = 0x43800000u + blockIdx.y, n16 = 0x41800000u + blockIdx.y, mg = 0x4B000000u + blockIdx.y;
  const uint4 *qp = (const uint4 *)w + (size_t)r0 * NL + t;
  const uint4 *hp = (const uint4 *)(w + (size_t)n * NL * 16) + (size_t)r0 * (NL / 8) + t / 8;
  uint4 qr[D], hr[D];
#pragma unroll
  for (int i = 0; i < D; i++) {
    qr[i] = __ldg(qp + (size_t)i * NL);
    hr[i] = __ldg(hp + (size_t)i * (NL / 8));
  }
  uint32_t bits = 0;
  const uint4 *qn = qp + D * NL, *hn = hp + D * (NL / 8);
  auto turn = [&](uint32_t rt, auto more) {
    float part[4];
#pragma unroll
    for (int i = 0; i < D; i++) {
      const uint4 q = qr[i], hd = hr[i];
      if (decltype(more)::value) {
        qr[i] = __ldg(qn + i * NL);
        hr[i] = __ldg(hn + i * (NL / 8));
      }
      if (V == LOADS) {
        bits ^= qXor(q) ^ qXor(hd);
        part[i % 4] = (float)(bits & 1u);
      } else {
        uint32_t qw[4];
        qWords(q, qw);
        float acc[CH] = {};
#pragma unroll
        for (int m = 0; m < 4; m++) xsShiftedWord<CH, 16>(qw[m], m, xv, n256, n16, acc);
        const uint32_t top = hd.w >> (4 * j);
        const float sc = __uint_as_float((((hd.y >> (4 * j)) & 15u) | (top & 3u) << 4) | mg) - 8388608.0f;
        const float mn = __uint_as_float((((hd.z >> (4 * j)) & 15u) | (top & 12u) << 2) | mg) - 8388608.0f;
        const float d = h2f((uint16_t)(hd.x & 0xFFFFu)), dmin = h2f((uint16_t)(hd.x >> 16));
        part[i % 4] = d * sc * (xsTotal<CH>(acc) - xo) - dmin * mn * xs;
      }
      if (i % 4 == 3) xsExchange(part, lane, &red[sg][rt + i - 3]);
    }
    if (decltype(more)::value) {
      qn += D * NL, hn += D * (NL / 8);
    }
  };
#pragma unroll 1
  for (uint32_t rt = 0; rt + D < RPT; rt += D) turn(rt, std::true_type{});
  turn(RPT - D, std::false_type{});
  xsStore<RPT>(red, y, r0, min((uint32_t)RPT, n - r0));
}

// Run 29: xsQ4_0 with the rows split evenly over a grid of B
// threadgroups a multiprocessor (132·B): threadgroup g takes row quads
// [g·Q/G, (g+1)·Q/G) of Q = n/4, so no multiprocessor gets a whole
// threadgroup more than another (n/RPT threadgroups on 132
// multiprocessors leave some with 4 and some with 3). The row count is
// then known only at run time: loads past the threadgroup's rows are
// skipped, and a turn's second four rows when they are past its end.
template <int D, uint32_t NB, int CH>
__global__ void __launch_bounds__(448) xsbQ4_0(const float *x, const uint8_t *w, float *y, uint32_t n, uint32_t k) {
  static_assert(D % 4 == 0 && D <= 8, "D: 4 or 8");
  constexpr int MAXR = 64;
  __shared__ float red[14][MAXR];
  constexpr uint32_t nb = NB;
  const uint32_t t = threadIdx.x, lane = t % 32, sg = t / 32;
  const uint32_t quads = n / 4, G = gridDim.x, g = blockIdx.x;
  const uint32_t qb = (uint32_t)((uint64_t)g * quads / G), qe = (uint32_t)((uint64_t)(g + 1) * quads / G);
  const uint32_t r0 = 4 * qb, count = 4 * (qe - qb);  // count <= MAXR for the grids used here
  float xv[32];
  xsLoadX<4>(x, t, 0, xv);
  const XsExp e = xsExp();
  const uint4 *qn = (const uint4 *)w + (size_t)r0 * nb + t;
  const uint16_t *dn = (const uint16_t *)(w + (size_t)n * nb * 16) + (size_t)r0 * nb + t;
  uint4 qr[D];
  uint16_t dr[D];
#pragma unroll
  for (int i = 0; i < D; i++)
    if (i < count) {
      qr[i] = __ldg(qn + i * nb);
      dr[i] = __ldg(dn + i * nb);
    }
  qn += D * nb;
  dn += D * nb;
#pragma unroll 1
  for (uint32_t rt = 0; rt < count; rt += D) {
    float part[4];
#pragma unroll
    for (int i = 0; i < D; i++) {
      if (i == 4 && rt + 4 >= count) break;
      const uint4 q = qr[i];
      const uint16_t dh = dr[i];
      if (rt + i + D < count) {
        qr[i] = __ldg(qn + i * nb);
        dr[i] = __ldg(dn + i * nb);
      }
      const uint32_t qw[4] = {q.x, q.y, q.z, q.w};
      float acc[CH] = {};
#pragma unroll
      for (int j = 0; j < 4; j++) xsWord<CH, 16>(qw[j], j, xv, e, acc);
      part[i % 4] = h2f(dh) * xsTotal<CH>(acc);
      if (i % 4 == 3) xsExchange(part, lane, &red[sg][rt + i - 3]);
    }
    qn += D * nb;
    dn += D * nb;
  }
  xsStore<MAXR>(red, y, r0, count);
}

// Run 29: xsQ4_0 on GGUF's own blocks (no repacking). Two neighbouring
// lanes own a pair of blocks (36 bytes, 4-byte aligned where a row has
// an even number of blocks): lane part h reads the pair's words 4h..4h+4
// (five 4-byte loads); part 0's block is d at bytes 0–1 and qs at 2–17,
// part 1's d at 18–19 and qs at 20–35, so a lane's qs words are its
// words funnel-shifted by 16 (part 0) or 32 (part 1). x, decode, sums
// and rows as xsQ4_0 (RPT rows, D rows ahead, CH sums a row).
template <int RPT, int D, uint32_t NB, int CH>
__global__ void __launch_bounds__(448) xsgQ4_0(const float *x, const uint8_t *w, float *y, uint32_t n, uint32_t k) {
  static_assert(RPT % D == 0 && D % 4 == 0 && NB % 2 == 0, "RPT: a multiple of D, D of 4; NB even");
  __shared__ float red[14][RPT];
  constexpr uint32_t rowWords = NB * 18 / 4;
  const uint32_t t = threadIdx.x, lane = t % 32, sg = t / 32, h = t % 2;
  const uint32_t r0 = blockIdx.x * RPT;
  float xv[32];
  xsLoadX<4>(x, t, 0, xv);
  const XsExp e = xsExp();
  const uint32_t sh = 16 + 16 * h, dsh = 16 * h;
  // the lane's first word: pair t/2's word 4h of row r0
  const uint32_t *wp = (const uint32_t *)w + (size_t)r0 * rowWords + (t / 2) * 9 + 4 * h;
  uint32_t wr[D][5];
#pragma unroll
  for (int i = 0; i < D; i++)
#pragma unroll
    for (int j = 0; j < 5; j++) wr[i][j] = __ldg(wp + i * rowWords + j);
  const uint32_t *wn = wp + D * rowWords;
  auto turn = [&](uint32_t rt, auto more) {
    float part[4];
#pragma unroll
    for (int i = 0; i < D; i++) {
      uint32_t W[5];
#pragma unroll
      for (int j = 0; j < 5; j++) W[j] = wr[i][j];
      if (decltype(more)::value) {
#pragma unroll
        for (int j = 0; j < 5; j++) wr[i][j] = __ldg(wn + i * rowWords + j);
      }
      float acc[CH] = {};
#pragma unroll
      for (int j = 0; j < 4; j++) xsWord<CH, 16>(__funnelshift_rc(W[j], W[j + 1], sh), j, xv, e, acc);
      part[i % 4] = h2f((uint16_t)(W[0] >> dsh)) * xsTotal<CH>(acc);
      if (i % 4 == 3) xsExchange(part, lane, &red[sg][rt + i - 3]);
    }
    if (decltype(more)::value) wn += D * rowWords;
  };
#pragma unroll 1
  for (uint32_t rt = 0; rt + D < RPT; rt += D) turn(rt, std::true_type{});
  turn(RPT - D, std::false_type{});
  xsStore<RPT>(red, y, r0, min((uint32_t)RPT, n - r0));
}

typedef void (*Kern)(const float *, const uint8_t *, float *, uint32_t, uint32_t);
struct Variant {
  const char *name;
  Var v;
  int rows;     // rows a threadgroup
  int threads;  // a threadgroup (the x-stationary kernels: k/32, a lane a block column; xs2_ k/16)
  int smemX;    // threadgroup bytes a weight column (k): 2 for half2 x, else 0
  Kern k[4];    // q4_0, q8_0, q6_k, q4_k (null: not for that format)
  int soa;      // the weights it reads: 0 GGUF's blocks; 1 repacked (q4_0: repackQ4_0; q6_k:
                // repackQ6_K with 32-weight columns; q4_k: repackQ4_K); 2 q6_k's 16-weight columns
  uint32_t onlyK;  // the only k it is built for (0: any)
  int grid;        // threadgroups (0: one a rows rows)
};
static const Variant variants[] = {
    {"float", FLOAT, 4, THREADS, 0, {gemv<Q4_0, FLOAT, 4>, gemv<Q8_0, FLOAT, 4>}},
    {"loads", LOADS, 4, THREADS, 0, {gemv<Q4_0, LOADS, 4>, gemv<Q8_0, LOADS, 4>}},
    {"half2", HALF2, 4, THREADS, 0, {gemv<Q4_0, HALF2, 4>, gemv<Q8_0, HALF2, 4>}},
    {"readall", LOADS, 0, 256, 0, {readAll, nullptr}},
    {"pair_loads", LOADS, 4, 128, 0, {pairLoads, nullptr}},
    {"staged_loads", LOADS, 4, 128, 0, {stagedQ4_0<4, LOADS>, nullptr}},
    {"staged_float", FLOAT, 4, 128, 0, {stagedQ4_0<4, FLOAT>, nullptr}},
    {"staged_loads8", LOADS, 8, 128, 0, {stagedQ4_0<8, LOADS>, nullptr}},
    {"staged_float8", FLOAT, 8, 128, 0, {stagedQ4_0<8, FLOAT>, nullptr}},
    {"row_loads_S4", LOADS, 32, 128, 0, {rowlaneQ4_0<4, LOADS>, nullptr}},
    {"row_loads_S8", LOADS, 32, 256, 0, {rowlaneQ4_0<8, LOADS>, nullptr}},
    {"row_loads_S16", LOADS, 32, 512, 0, {rowlaneQ4_0<16, LOADS>, nullptr}},
    {"row_float_S4", FLOAT, 32, 128, 0, {rowlaneQ4_0<4, FLOAT>, nullptr}},
    {"row_float_S8", FLOAT, 32, 256, 0, {rowlaneQ4_0<8, FLOAT>, nullptr}},
    {"row_float_S16", FLOAT, 32, 512, 0, {rowlaneQ4_0<16, FLOAT>, nullptr}},
    {"row_half2_S4", HALF2, 32, 128, 2, {rowlaneQ4_0<4, HALF2>, nullptr}},
    {"row_half2_S8", HALF2, 32, 256, 2, {rowlaneQ4_0<8, HALF2>, nullptr}},
    {"row_half2_S16", HALF2, 32, 512, 2, {rowlaneQ4_0<16, HALF2>, nullptr}},
    {"pair_f_r4_t64", FLOAT, 4, 64, 0, {pairQ4_0<4, 0, 64>, pairQ8_0<4, 64>}},
    {"pair_f_r4_t128", FLOAT, 4, 128, 0, {pairQ4_0<4, 0, 128>, pairQ8_0<4, 128>}},
    {"pair_f_r8_t64", FLOAT, 8, 64, 0, {pairQ4_0<8, 0, 64>, pairQ8_0<8, 64>}},
    {"pair_f_r2_t64", FLOAT, 2, 64, 0, {pairQ4_0<2, 0, 64>, pairQ8_0<2, 64>}},
    {"pair_m1_r4_t64", FLOAT, 4, 64, 0, {pairQ4_0<4, 1, 64>, nullptr}},
    {"pair_m2_r4_t64", FLOAT, 4, 64, 0, {pairQ4_0<4, 2, 64>, nullptr}},
    {"pair_m2_r8_t64", FLOAT, 8, 64, 0, {pairQ4_0<8, 2, 64>, nullptr}},
    {"pair_m2_r4_t128", FLOAT, 4, 128, 0, {pairQ4_0<4, 2, 128>, nullptr}},
    {"rot", ROT, 4, THREADS, 0, {gemv<Q4_0, ROT, 4>, gemv<Q8_0, ROT, 4>}},
    {"rot8", ROT, 8, THREADS, 0, {gemv<Q4_0, ROT, 8>, gemv<Q8_0, ROT, 8>}},
    {"pairT_f_r4", FLOAT, 4, 128, 0, {pairTQ4_0<4, 0>, pairTQ8_0<4>}},
    {"pairT_f_r8", FLOAT, 8, 128, 0, {pairTQ4_0<8, 0>, pairTQ8_0<8>}},
    {"pairT_m2_r4", FLOAT, 4, 128, 0, {pairTQ4_0<4, 2>, nullptr}},
    {"pairT_m2_r8", FLOAT, 8, 128, 0, {pairTQ4_0<8, 2>, nullptr}},
    {"soa_loads8", LOADS, 8, 128, 0, {soaQ4_0<8, LOADS>, nullptr}, true},
    {"soa_loads16", LOADS, 16, 128, 0, {soaQ4_0<16, LOADS>, nullptr}, true},
    {"soa_float8", FLOAT, 8, 128, 0, {soaQ4_0<8, FLOAT>, nullptr}, true},
    {"soa_float16", FLOAT, 16, 128, 0, {soaQ4_0<16, FLOAT>, nullptr}, true},
    {"soa_emit8", FLOAT, 8, 128, 0, {soaQ4_0<8, FLOAT, 1>, nullptr}, true},
    {"soa_emit16", FLOAT, 16, 128, 0, {soaQ4_0<16, FLOAT, 1>, nullptr}, true},
    {"soa_emit4", FLOAT, 4, 128, 0, {soaQ4_0<4, FLOAT, 1>, nullptr}, true},
    {"soa_sub8", FLOAT, 8, 128, 0, {soaQ4_0<8, FLOAT, 2>, nullptr}, true},
    {"soa_sub16", FLOAT, 16, 128, 0, {soaQ4_0<16, FLOAT, 2>, nullptr}, true},
    {"soa_sub8_a2", FLOAT, 8, 128, 0, {soaQ4_0<8, FLOAT, 2, 2>, nullptr}, true},
    {"soa_sub8_m8", FLOAT, 8, 128, 0, {soaQ4_0<8, FLOAT, 2, 1, 8>, nullptr}, true},
    {"soa_sub4_a2", FLOAT, 4, 128, 0, {soaQ4_0<4, FLOAT, 2, 2>, nullptr}, true},
    {"soa_loads8_a2", LOADS, 8, 128, 0, {soaQ4_0<8, LOADS, 0, 2>, nullptr}, true},
    {"soa_sub8_a3", FLOAT, 8, 128, 0, {soaQ4_0<8, FLOAT, 2, 3>, nullptr}, true},
    {"soa_emit8_a2", FLOAT, 8, 128, 0, {soaQ4_0<8, FLOAT, 1, 2>, nullptr}, true},
    {"soa_emit8_a3", FLOAT, 8, 128, 0, {soaQ4_0<8, FLOAT, 1, 3>, nullptr}, true},
    {"soa_emit16_a2", FLOAT, 16, 128, 0, {soaQ4_0<16, FLOAT, 1, 2>, nullptr}, true},
    {"xs_loads_r16_d8_k4096", LOADS, 16, 128, 0, {xsQ4_0<16, 8, LOADS, 128>, nullptr}, true, 4096},
    {"xs_loads_r16_d8_k14336", LOADS, 16, 448, 0, {xsQ4_0<16, 8, LOADS, 448>, nullptr}, true, 14336},
    {"xs_r32_d8_k4096", FLOAT, 32, 128, 0, {xsQ4_0<32, 8, FLOAT, 128>, nullptr}, true, 4096},
    {"xs_r32_d8_k14336", FLOAT, 32, 448, 0, {xsQ4_0<32, 8, FLOAT, 448>, nullptr}, true, 14336},
    {"xs_r16_d4_k4096", FLOAT, 16, 128, 0, {xsQ4_0<16, 4, FLOAT, 128>, nullptr}, true, 4096},
    {"xs_r16_d4_k14336", FLOAT, 16, 448, 0, {xsQ4_0<16, 4, FLOAT, 448>, nullptr}, true, 14336},
    {"xs_r16_d4_c4_k4096", FLOAT, 16, 128, 0, {xsQ4_0<16, 4, FLOAT, 128, 4>, nullptr}, true, 4096},
    {"xs_r16_d4_c4_k14336", FLOAT, 16, 448, 0, {xsQ4_0<16, 4, FLOAT, 448, 4>, nullptr}, true, 14336},
    {"xs_r16_d8_k4096", FLOAT, 16, 128, 0, {xsQ4_0<16, 8, FLOAT, 128>, nullptr}, true, 4096},
    {"xs_r16_d8_k14336", FLOAT, 16, 448, 0, {xsQ4_0<16, 8, FLOAT, 448>, nullptr}, true, 14336},
    {"xs_r32_d8_c4_k4096", FLOAT, 32, 128, 0, {xsQ4_0<32, 8, FLOAT, 128, 4>, nullptr}, true, 4096},
    {"xs_r32_d8_c4_k14336", FLOAT, 32, 448, 0, {xsQ4_0<32, 8, FLOAT, 448, 4>, nullptr}, true, 14336},
    {"xs_r32_d8_c8_k4096", FLOAT, 32, 128, 0, {xsQ4_0<32, 8, FLOAT, 128, 8>, nullptr}, true, 4096},
    {"xs_r32_d8_c8_k14336", FLOAT, 32, 448, 0, {xsQ4_0<32, 8, FLOAT, 448, 8>, nullptr}, true, 14336},
    {"xs_r32_d16_c4_k4096", FLOAT, 32, 128, 0, {xsQ4_0<32, 16, FLOAT, 128, 4>, nullptr}, true, 4096},
    {"xs_r32_d16_c4_k14336", FLOAT, 32, 448, 0, {xsQ4_0<32, 16, FLOAT, 448, 4>, nullptr}, true, 14336},
    {"xs2_r32_d8_c4_k4096", FLOAT, 32, 256, 0, {xsQ4_0<32, 8, FLOAT, 128, 4, 2>, nullptr}, true, 4096},
    {"xs2_r32_d8_c4_k14336", FLOAT, 32, 896, 0, {xsQ4_0<32, 8, FLOAT, 448, 4, 2>, nullptr}, true, 14336},
    {"xs2_r32_d16_c4_k4096", FLOAT, 32, 256, 0, {xsQ4_0<32, 16, FLOAT, 128, 4, 2>, nullptr}, true, 4096},
    {"xs2_r32_d16_c4_k14336", FLOAT, 32, 896, 0, {xsQ4_0<32, 16, FLOAT, 448, 4, 2>, nullptr}, true, 14336},
    {"xs2_r16_d8_c4_k4096", FLOAT, 16, 256, 0, {xsQ4_0<16, 8, FLOAT, 128, 4, 2>, nullptr}, true, 4096},
    {"xs2_r16_d8_c4_k14336", FLOAT, 16, 896, 0, {xsQ4_0<16, 8, FLOAT, 448, 4, 2>, nullptr}, true, 14336},
    {"xs2_r32_d8_c2_k4096", FLOAT, 32, 256, 0, {xsQ4_0<32, 8, FLOAT, 128, 2, 2>, nullptr}, true, 4096},
    {"xs2_r32_d8_c2_k14336", FLOAT, 32, 896, 0, {xsQ4_0<32, 8, FLOAT, 448, 2, 2>, nullptr}, true, 14336},
    {"xsb_d8_c4_k4096", FLOAT, 0, 128, 0, {xsbQ4_0<8, 128, 4>, nullptr}, true, 4096, 132 * 4},
    {"xsb_d8_c4_k14336", FLOAT, 0, 448, 0, {xsbQ4_0<8, 448, 4>, nullptr}, true, 14336, 132 * 1},
    {"xsb_d8_c4_g3_k4096", FLOAT, 0, 128, 0, {xsbQ4_0<8, 128, 4>, nullptr}, true, 4096, 132 * 3},
    {"xsb_d8_c4_g3_k14336", FLOAT, 0, 448, 0, {xsbQ4_0<8, 448, 4>, nullptr}, true, 14336, 132 * 1},
    {"xsb_d4_c4_k4096", FLOAT, 0, 128, 0, {xsbQ4_0<4, 128, 4>, nullptr}, true, 4096, 132 * 5},
    {"xsb_d4_c4_k14336", FLOAT, 0, 448, 0, {xsbQ4_0<4, 448, 4>, nullptr}, true, 14336, 132 * 2},
    {"xsb_d8_c2_k4096", FLOAT, 0, 128, 0, {xsbQ4_0<8, 128, 2>, nullptr}, true, 4096, 132 * 4},
    {"xsb_d8_c2_k14336", FLOAT, 0, 448, 0, {xsbQ4_0<8, 448, 2>, nullptr}, true, 14336, 132 * 1},
    {"xs_sh_r32_d8_c4_k4096", FLOAT, 32, 128, 0, {xsQ4_0<32, 8, FLOAT, 128, 4, 1, true>, nullptr}, true, 4096},
    {"xs_sh_r32_d8_c4_k14336", FLOAT, 32, 448, 0, {xsQ4_0<32, 8, FLOAT, 448, 4, 1, true>, nullptr}, true, 14336},
    {"xs_sh_r32_d8_c2_k4096", FLOAT, 32, 128, 0, {xsQ4_0<32, 8, FLOAT, 128, 2, 1, true>, nullptr}, true, 4096},
    {"xs_sh_r32_d8_c2_k14336", FLOAT, 32, 448, 0, {xsQ4_0<32, 8, FLOAT, 448, 2, 1, true>, nullptr}, true, 14336},
    {"xs_sh_r16_d8_c4_k4096", FLOAT, 16, 128, 0, {xsQ4_0<16, 8, FLOAT, 128, 4, 1, true>, nullptr}, true, 4096},
    {"xs_sh_r16_d8_c4_k14336", FLOAT, 16, 448, 0, {xsQ4_0<16, 8, FLOAT, 448, 4, 1, true>, nullptr}, true, 14336},
    {"xsg_r32_d8_c4_k4096", FLOAT, 32, 128, 0, {xsgQ4_0<32, 8, 128, 4>, nullptr}, false, 4096},
    {"xsg_r32_d8_c4_k14336", FLOAT, 32, 448, 0, {xsgQ4_0<32, 8, 448, 4>, nullptr}, false, 14336},
    {"xsg_r32_d4_c4_k4096", FLOAT, 32, 128, 0, {xsgQ4_0<32, 4, 128, 4>, nullptr}, false, 4096},
    {"xsg_r32_d4_c4_k14336", FLOAT, 32, 448, 0, {xsgQ4_0<32, 4, 448, 4>, nullptr}, false, 14336},
    {"xsg_r16_d4_c4_k4096", FLOAT, 16, 128, 0, {xsgQ4_0<16, 4, 128, 4>, nullptr}, false, 4096},
    {"xsg_r16_d4_c4_k14336", FLOAT, 16, 448, 0, {xsgQ4_0<16, 4, 448, 4>, nullptr}, false, 14336},
    {"xs6_loads_r32_d8_k4096", LOADS, 32, 128, 0, {nullptr, nullptr, xsQ6K<32, 8, LOADS, 128>}, true, 4096},
    {"xs6_loads_r32_d8_k14336", LOADS, 32, 448, 0, {nullptr, nullptr, xsQ6K<32, 8, LOADS, 448>}, true, 14336},
    {"xs6_r32_d8_c2_k4096", FLOAT, 32, 128, 0, {nullptr, nullptr, xsQ6K<32, 8, FLOAT, 128, 2>}, true, 4096},
    {"xs6_r32_d8_c2_k14336", FLOAT, 32, 448, 0, {nullptr, nullptr, xsQ6K<32, 8, FLOAT, 448, 2>}, true, 14336},
    {"xs6_r32_d8_c4_k4096", FLOAT, 32, 128, 0, {nullptr, nullptr, xsQ6K<32, 8, FLOAT, 128, 4>}, true, 4096},
    {"xs6_r32_d8_c4_k14336", FLOAT, 32, 448, 0, {nullptr, nullptr, xsQ6K<32, 8, FLOAT, 448, 4>}, true, 14336},
    {"xs6_r32_d4_c4_k4096", FLOAT, 32, 128, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 128, 4>}, true, 4096},
    {"xs6_r32_d4_c4_k14336", FLOAT, 32, 448, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 448, 4>}, true, 14336},
    {"xs6_r16_d8_c4_k4096", FLOAT, 16, 128, 0, {nullptr, nullptr, xsQ6K<16, 8, FLOAT, 128, 4>}, true, 4096},
    {"xs6_r16_d8_c4_k14336", FLOAT, 16, 448, 0, {nullptr, nullptr, xsQ6K<16, 8, FLOAT, 448, 4>}, true, 14336},
    {"xs6h_loads_r32_d8_k4096", LOADS, 32, 256, 0, {nullptr, nullptr, xsQ6K<32, 8, LOADS, 256, 2, 16>}, 2, 4096},
    {"xs6h_loads_r32_d8_k14336", LOADS, 32, 896, 0, {nullptr, nullptr, xsQ6K<32, 8, LOADS, 896, 2, 16>}, 2, 14336},
    {"xs6h_r32_d8_c2_k4096", FLOAT, 32, 256, 0, {nullptr, nullptr, xsQ6K<32, 8, FLOAT, 256, 2, 16>}, 2, 4096},
    {"xs6h_r32_d8_c2_k14336", FLOAT, 32, 896, 0, {nullptr, nullptr, xsQ6K<32, 8, FLOAT, 896, 2, 16>}, 2, 14336},
    {"xs6h_r32_d8_c4_k4096", FLOAT, 32, 256, 0, {nullptr, nullptr, xsQ6K<32, 8, FLOAT, 256, 4, 16>}, 2, 4096},
    {"xs6h_r32_d8_c4_k14336", FLOAT, 32, 896, 0, {nullptr, nullptr, xsQ6K<32, 8, FLOAT, 896, 4, 16>}, 2, 14336},
    {"xs6h_r32_d4_c4_k4096", FLOAT, 32, 256, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 256, 4, 16>}, 2, 4096},
    {"xs6h_r32_d4_c4_k14336", FLOAT, 32, 896, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 896, 4, 16>}, 2, 14336},
    {"xs6h_r32_d4_c2_k4096", FLOAT, 32, 256, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 256, 2, 16>}, 2, 4096},
    {"xs6h_r32_d4_c2_k14336", FLOAT, 32, 896, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 896, 2, 16>}, 2, 14336},
    {"xs6hld_r32_d4_c2_k4096", FLOAT, 32, 256, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 256, 2, 16, 0, 0, false>}, 2, 4096},
    {"xs6hld_r32_d4_c2_k14336", FLOAT, 32, 896, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 896, 2, 16, 0, 0, false>}, 2, 14336},
    {"xs_sh_r32_d4_c4_k4096", FLOAT, 32, 128, 0, {xsQ4_0<32, 4, FLOAT, 128, 4, 1, true>, nullptr}, true, 4096},
    {"xsp11_sh_r32_d8_c4_k4096", FLOAT, 32, 128, 0, {xsQ4_0<32, 8, FLOAT, 128, 4, 1, true, 1, 1>, nullptr}, true, 4096},
    {"xsp12_sh_r32_d8_c4_k4096", FLOAT, 32, 128, 0, {xsQ4_0<32, 8, FLOAT, 128, 4, 1, true, 2, 1>, nullptr}, true, 4096},
    {"xsp11_sh_r32_d4_c4_k4096", FLOAT, 32, 128, 0, {xsQ4_0<32, 4, FLOAT, 128, 4, 1, true, 1, 1>, nullptr}, true, 4096},
    {"xsp12_sh_r32_d4_c4_k4096", FLOAT, 32, 128, 0, {xsQ4_0<32, 4, FLOAT, 128, 4, 1, true, 2, 1>, nullptr}, true, 4096},
    {"xsp13_sh_r32_d4_c4_k4096", FLOAT, 32, 128, 0, {xsQ4_0<32, 4, FLOAT, 128, 4, 1, true, 3, 1>, nullptr}, true, 4096},
    {"xsp12_sh_r16_d4_c4_k4096", FLOAT, 16, 128, 0, {xsQ4_0<16, 4, FLOAT, 128, 4, 1, true, 2, 1>, nullptr}, true, 4096},
    {"xsp21_sh_r32_d8_c4_k4096", FLOAT, 32, 128, 0, {xsQ4_0<32, 8, FLOAT, 128, 4, 1, true, 1, 2>, nullptr}, true, 4096},
    {"xsp31_sh_r32_d8_c4_k4096", FLOAT, 32, 128, 0, {xsQ4_0<32, 8, FLOAT, 128, 4, 1, true, 1, 3>, nullptr}, true, 4096},
    {"xsp22_sh_r32_d8_c4_k4096", FLOAT, 32, 128, 0, {xsQ4_0<32, 8, FLOAT, 128, 4, 1, true, 2, 2>, nullptr}, true, 4096},
    {"xsp32_sh_r32_d8_c4_k4096", FLOAT, 32, 128, 0, {xsQ4_0<32, 8, FLOAT, 128, 4, 1, true, 2, 3>, nullptr}, true, 4096},
    {"xsp21_sh_r32_d4_c4_k4096", FLOAT, 32, 128, 0, {xsQ4_0<32, 4, FLOAT, 128, 4, 1, true, 1, 2>, nullptr}, true, 4096},
    {"xsp31_sh_r32_d4_c4_k4096", FLOAT, 32, 128, 0, {xsQ4_0<32, 4, FLOAT, 128, 4, 1, true, 1, 3>, nullptr}, true, 4096},
    {"xsp22_sh_r32_d4_c4_k4096", FLOAT, 32, 128, 0, {xsQ4_0<32, 4, FLOAT, 128, 4, 1, true, 2, 2>, nullptr}, true, 4096},
    {"xsp32_sh_r32_d4_c4_k4096", FLOAT, 32, 128, 0, {xsQ4_0<32, 4, FLOAT, 128, 4, 1, true, 2, 3>, nullptr}, true, 4096},
    {"xsp23_sh_r32_d4_c4_k4096", FLOAT, 32, 128, 0, {xsQ4_0<32, 4, FLOAT, 128, 4, 1, true, 3, 2>, nullptr}, true, 4096},
    {"xsp33_sh_r32_d4_c4_k4096", FLOAT, 32, 128, 0, {xsQ4_0<32, 4, FLOAT, 128, 4, 1, true, 3, 3>, nullptr}, true, 4096},
    {"xsp22_sh_r16_d4_c4_k4096", FLOAT, 16, 128, 0, {xsQ4_0<16, 4, FLOAT, 128, 4, 1, true, 2, 2>, nullptr}, true, 4096},
    {"xsp32_sh_r16_d4_c4_k4096", FLOAT, 16, 128, 0, {xsQ4_0<16, 4, FLOAT, 128, 4, 1, true, 2, 3>, nullptr}, true, 4096},
    {"xs_sh_r32_d4_c4_k14336", FLOAT, 32, 448, 0, {xsQ4_0<32, 4, FLOAT, 448, 4, 1, true>, nullptr}, true, 14336},
    {"xsp11_sh_r32_d8_c4_k14336", FLOAT, 32, 448, 0, {xsQ4_0<32, 8, FLOAT, 448, 4, 1, true, 1, 1>, nullptr}, true, 14336},
    {"xsp12_sh_r32_d8_c4_k14336", FLOAT, 32, 448, 0, {xsQ4_0<32, 8, FLOAT, 448, 4, 1, true, 2, 1>, nullptr}, true, 14336},
    {"xsp11_sh_r32_d4_c4_k14336", FLOAT, 32, 448, 0, {xsQ4_0<32, 4, FLOAT, 448, 4, 1, true, 1, 1>, nullptr}, true, 14336},
    {"xsp12_sh_r32_d4_c4_k14336", FLOAT, 32, 448, 0, {xsQ4_0<32, 4, FLOAT, 448, 4, 1, true, 2, 1>, nullptr}, true, 14336},
    {"xsp13_sh_r32_d4_c4_k14336", FLOAT, 32, 448, 0, {xsQ4_0<32, 4, FLOAT, 448, 4, 1, true, 3, 1>, nullptr}, true, 14336},
    {"xsp12_sh_r16_d4_c4_k14336", FLOAT, 16, 448, 0, {xsQ4_0<16, 4, FLOAT, 448, 4, 1, true, 2, 1>, nullptr}, true, 14336},
    {"xsp21_sh_r32_d8_c4_k14336", FLOAT, 32, 448, 0, {xsQ4_0<32, 8, FLOAT, 448, 4, 1, true, 1, 2>, nullptr}, true, 14336},
    {"xsp31_sh_r32_d8_c4_k14336", FLOAT, 32, 448, 0, {xsQ4_0<32, 8, FLOAT, 448, 4, 1, true, 1, 3>, nullptr}, true, 14336},
    {"xsp22_sh_r32_d8_c4_k14336", FLOAT, 32, 448, 0, {xsQ4_0<32, 8, FLOAT, 448, 4, 1, true, 2, 2>, nullptr}, true, 14336},
    {"xsp32_sh_r32_d8_c4_k14336", FLOAT, 32, 448, 0, {xsQ4_0<32, 8, FLOAT, 448, 4, 1, true, 2, 3>, nullptr}, true, 14336},
    {"xsp21_sh_r32_d4_c4_k14336", FLOAT, 32, 448, 0, {xsQ4_0<32, 4, FLOAT, 448, 4, 1, true, 1, 2>, nullptr}, true, 14336},
    {"xsp31_sh_r32_d4_c4_k14336", FLOAT, 32, 448, 0, {xsQ4_0<32, 4, FLOAT, 448, 4, 1, true, 1, 3>, nullptr}, true, 14336},
    {"xsp22_sh_r32_d4_c4_k14336", FLOAT, 32, 448, 0, {xsQ4_0<32, 4, FLOAT, 448, 4, 1, true, 2, 2>, nullptr}, true, 14336},
    {"xsp32_sh_r32_d4_c4_k14336", FLOAT, 32, 448, 0, {xsQ4_0<32, 4, FLOAT, 448, 4, 1, true, 2, 3>, nullptr}, true, 14336},
    {"xsp23_sh_r32_d4_c4_k14336", FLOAT, 32, 448, 0, {xsQ4_0<32, 4, FLOAT, 448, 4, 1, true, 3, 2>, nullptr}, true, 14336},
    {"xsp33_sh_r32_d4_c4_k14336", FLOAT, 32, 448, 0, {xsQ4_0<32, 4, FLOAT, 448, 4, 1, true, 3, 3>, nullptr}, true, 14336},
    {"xsp22_sh_r16_d4_c4_k14336", FLOAT, 16, 448, 0, {xsQ4_0<16, 4, FLOAT, 448, 4, 1, true, 2, 2>, nullptr}, true, 14336},
    {"xsp32_sh_r16_d4_c4_k14336", FLOAT, 16, 448, 0, {xsQ4_0<16, 4, FLOAT, 448, 4, 1, true, 2, 3>, nullptr}, true, 14336},
    {"xs6p11_r32_d4_c4_k4096", FLOAT, 32, 128, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 128, 4, 32, 1, 1>}, true, 4096},
    {"xs6p12_r32_d4_c4_k4096", FLOAT, 32, 128, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 128, 4, 32, 2, 1>}, true, 4096},
    {"xs6p13_r32_d4_c4_k4096", FLOAT, 32, 128, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 128, 4, 32, 3, 1>}, true, 4096},
    {"xs6p21_r32_d4_c4_k4096", FLOAT, 32, 128, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 128, 4, 32, 1, 2>}, true, 4096},
    {"xs6p31_r32_d4_c4_k4096", FLOAT, 32, 128, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 128, 4, 32, 1, 3>}, true, 4096},
    {"xs6p22_r32_d4_c4_k4096", FLOAT, 32, 128, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 128, 4, 32, 2, 2>}, true, 4096},
    {"xs6p32_r32_d4_c4_k4096", FLOAT, 32, 128, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 128, 4, 32, 2, 3>}, true, 4096},
    {"xs6p23_r32_d4_c4_k4096", FLOAT, 32, 128, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 128, 4, 32, 3, 2>}, true, 4096},
    {"xs6p33_r32_d4_c4_k4096", FLOAT, 32, 128, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 128, 4, 32, 3, 3>}, true, 4096},
    {"xs6p11_r32_d4_c4_k14336", FLOAT, 32, 448, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 448, 4, 32, 1, 1>}, true, 14336},
    {"xs6p12_r32_d4_c4_k14336", FLOAT, 32, 448, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 448, 4, 32, 2, 1>}, true, 14336},
    {"xs6p13_r32_d4_c4_k14336", FLOAT, 32, 448, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 448, 4, 32, 3, 1>}, true, 14336},
    {"xs6p21_r32_d4_c4_k14336", FLOAT, 32, 448, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 448, 4, 32, 1, 2>}, true, 14336},
    {"xs6p31_r32_d4_c4_k14336", FLOAT, 32, 448, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 448, 4, 32, 1, 3>}, true, 14336},
    {"xs6p22_r32_d4_c4_k14336", FLOAT, 32, 448, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 448, 4, 32, 2, 2>}, true, 14336},
    {"xs6p32_r32_d4_c4_k14336", FLOAT, 32, 448, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 448, 4, 32, 2, 3>}, true, 14336},
    {"xs6p23_r32_d4_c4_k14336", FLOAT, 32, 448, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 448, 4, 32, 3, 2>}, true, 14336},
    {"xs6p33_r32_d4_c4_k14336", FLOAT, 32, 448, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 448, 4, 32, 3, 3>}, true, 14336},
    {"xs6hp11_r32_d4_c2_k4096", FLOAT, 32, 256, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 256, 2, 16, 1, 1>}, 2, 4096},
    {"xs6hp12_r32_d4_c2_k4096", FLOAT, 32, 256, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 256, 2, 16, 2, 1>}, 2, 4096},
    {"xs6hp13_r32_d4_c2_k4096", FLOAT, 32, 256, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 256, 2, 16, 3, 1>}, 2, 4096},
    {"xs6hp21_r32_d4_c2_k4096", FLOAT, 32, 256, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 256, 2, 16, 1, 2>}, 2, 4096},
    {"xs6hp31_r32_d4_c2_k4096", FLOAT, 32, 256, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 256, 2, 16, 1, 3>}, 2, 4096},
    {"xs6hp22_r32_d4_c2_k4096", FLOAT, 32, 256, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 256, 2, 16, 2, 2>}, 2, 4096},
    {"xs6hp32_r32_d4_c2_k4096", FLOAT, 32, 256, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 256, 2, 16, 2, 3>}, 2, 4096},
    {"xs6hp23_r32_d4_c2_k4096", FLOAT, 32, 256, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 256, 2, 16, 3, 2>}, 2, 4096},
    {"xs6hp33_r32_d4_c2_k4096", FLOAT, 32, 256, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 256, 2, 16, 3, 3>}, 2, 4096},
    {"xs6hp11_r32_d4_c2_k14336", FLOAT, 32, 896, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 896, 2, 16, 1, 1>}, 2, 14336},
    {"xs6hp12_r32_d4_c2_k14336", FLOAT, 32, 896, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 896, 2, 16, 2, 1>}, 2, 14336},
    {"xs6hp13_r32_d4_c2_k14336", FLOAT, 32, 896, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 896, 2, 16, 3, 1>}, 2, 14336},
    {"xs6hp21_r32_d4_c2_k14336", FLOAT, 32, 896, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 896, 2, 16, 1, 2>}, 2, 14336},
    {"xs6hp31_r32_d4_c2_k14336", FLOAT, 32, 896, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 896, 2, 16, 1, 3>}, 2, 14336},
    {"xs6hp22_r32_d4_c2_k14336", FLOAT, 32, 896, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 896, 2, 16, 2, 2>}, 2, 14336},
    {"xs6hp32_r32_d4_c2_k14336", FLOAT, 32, 896, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 896, 2, 16, 2, 3>}, 2, 14336},
    {"xs6hp23_r32_d4_c2_k14336", FLOAT, 32, 896, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 896, 2, 16, 3, 2>}, 2, 14336},
    {"xs6hp33_r32_d4_c2_k14336", FLOAT, 32, 896, 0, {nullptr, nullptr, xsQ6K<32, 4, FLOAT, 896, 2, 16, 3, 3>}, 2, 14336},
    {"xs6_r64_d4_c4_k4096", FLOAT, 64, 128, 0, {nullptr, nullptr, xsQ6K<64, 4, FLOAT, 128, 4>}, true, 4096},
    {"xs6_r64_d4_c4_k14336", FLOAT, 64, 448, 0, {nullptr, nullptr, xsQ6K<64, 4, FLOAT, 448, 4>}, true, 14336},
    {"xs4k_loads_r32_d8_k4096", LOADS, 32, 128, 0, {nullptr, nullptr, nullptr, xsQ4K<32, 8, LOADS, 128>}, 1, 4096},
    {"xs4k_loads_r32_d8_k14336", LOADS, 32, 448, 0, {nullptr, nullptr, nullptr, xsQ4K<32, 8, LOADS, 448>}, 1, 14336},
    {"xs4k_r32_d8_c4_k4096", FLOAT, 32, 128, 0, {nullptr, nullptr, nullptr, xsQ4K<32, 8, FLOAT, 128, 4>}, 1, 4096},
    {"xs4k_r32_d8_c4_k14336", FLOAT, 32, 448, 0, {nullptr, nullptr, nullptr, xsQ4K<32, 8, FLOAT, 448, 4>}, 1, 14336},
    {"xs4k_r32_d8_c2_k4096", FLOAT, 32, 128, 0, {nullptr, nullptr, nullptr, xsQ4K<32, 8, FLOAT, 128, 2>}, 1, 4096},
    {"xs4k_r32_d8_c2_k14336", FLOAT, 32, 448, 0, {nullptr, nullptr, nullptr, xsQ4K<32, 8, FLOAT, 448, 2>}, 1, 14336},
    {"xs4k_r32_d4_c4_k4096", FLOAT, 32, 128, 0, {nullptr, nullptr, nullptr, xsQ4K<32, 4, FLOAT, 128, 4>}, 1, 4096},
    {"xs4k_r32_d4_c4_k14336", FLOAT, 32, 448, 0, {nullptr, nullptr, nullptr, xsQ4K<32, 4, FLOAT, 448, 4>}, 1, 14336},
};

// q4_0's blocks repacked as soaQ4_0 reads them: all qs, then all d.
static std::vector<uint8_t> repackQ4_0(const std::vector<uint8_t> &w) {
  const size_t blocks = w.size() / 18;
  std::vector<uint8_t> o(w.size());
  for (size_t b = 0; b < blocks; b++) {
    memcpy(&o[b * 16], &w[b * 18 + 2], 16);
    memcpy(&o[blocks * 16 + b * 2], &w[b * 18], 2);
  }
  return o;
}

static uint32_t rng = 12345u;
static uint32_t next() {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}
static float h2fHost(uint16_t h) {
  const uint32_t s = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 31u, m = h & 0x3FFu;
  uint32_t b;
  if (e == 0) {
    float v = m * 5.9604644775390625e-8f;
    return s ? -v : v;
  }
  b = s | ((e + 112u) << 23) | (m << 13);
  float f;
  memcpy(&f, &b, 4);
  return f;
}

// A format's block: weights and bytes.
static uint32_t blockWeights(Fmt f) { return f == Q6_K || f == Q4_K ? 256 : 32; }
static uint32_t blockBytes(Fmt f) { return f == Q4_0 ? 18 : f == Q8_0 ? 34 : f == Q6_K ? 210 : 144; }

// randomScale: a half in [2^-9, 2^-6) (exponent fields 6 to 8), for d
// and dmin.
static uint16_t randomScale() {
  const uint32_t e = next() % 3u + 6u;
  return (uint16_t)(e << 10 | (next() & 0x3FFu));
}

// Weights: random qs (q6_k: random ql, qh and signed 8-bit scales;
// q4_k: random scales and minimums); d a half in [2^-9, 2^-6), at the
// block's start (q4_0, q8_0; q4_k with dmin, another such half, after it)
// or end (q6_k).
static std::vector<uint8_t> makeWeights(Fmt f, uint32_t n, uint32_t k) {
  const uint32_t bs = blockBytes(f), dat = f == Q6_K ? 208 : 0;
  std::vector<uint8_t> w((size_t)n * (k / blockWeights(f)) * bs);
  for (size_t b = 0; b < w.size() / bs; b++) {
    uint8_t *blk = &w[b * bs];
    for (uint32_t i = 0; i < bs; i++) blk[i] = (uint8_t)next();
    const uint16_t d = randomScale();
    memcpy(blk + dat, &d, 2);
    if (f == Q4_K) {
      const uint16_t dmin = randomScale();
      memcpy(blk + 2, &dmin, 2);
    }
  }
  return w;
}

// q6_k (GGUF's block_q6_K: ql[128], qh[64], int8 scales[16], half d):
// weight i = 128n + 32g + l of a block is (ql[64n + 32(g & 1) + l]'s low
// nibble for g < 2, high for g ≥ 2) | ((qh[32n + l] >> 2g) & 3) << 4,
// less 32, times d · scales[i / 16].
static int q6Value(const uint8_t *blk, uint32_t i) {
  const uint32_t n = i / 128, g = i % 128 / 32, l = i % 32;
  const uint8_t b = blk[64 * n + 32 * (g & 1) + l];
  const uint32_t nib = g < 2 ? b & 15u : b >> 4;
  return (int)(nib | ((blk[128 + 32 * n + l] >> (2 * g)) & 3u) << 4);
}

// q6_k repacked as xsQ6K reads it (the same bytes), for lane columns of
// W weights (32 or 16): for row r and column c (weights Wc..Wc+W−1 of the
// row), ql[r][c] (W/2 bytes: byte j holds weight j's low nibble and
// weight W/2 + j's as its high one), then qh[r][c] (W/4 bytes: byte b of
// word m/2 holds the high two bits of weights 4m + b and W/2 + 4m + b at
// bits 4-5 and 6-7 for even m, 0-1 and 2-3 for odd m), then sc[r][c]
// (the column's W/16 scales), then d[r][block].
// q4_k (GGUF's block_q4_K: half d, half dmin, scales[12], qs[128]):
// sub-block j (weights 32j..32j+31) has a 6-bit scale and minimum
// (get_scale_min_k4), and weight 64c + l (l < 32) is qs[32c + l]'s low
// nibble, weight 64c + 32 + l its high one.
static void q4kScaleMin(const uint8_t *blk, uint32_t j, int *sc, int *m) {
  const uint8_t *s = blk + 4;
  if (j < 4) {
    *sc = s[j] & 63, *m = s[j + 4] & 63;
  } else {
    *sc = (s[j + 4] & 15) | ((s[j - 4] >> 6) << 4);
    *m = (s[j + 4] >> 4) | ((s[j] >> 6) << 4);
  }
}
static int q4kValue(const uint8_t *blk, uint32_t i) {
  const uint8_t b = blk[16 + 32 * (i / 64) + i % 32];
  return i % 64 < 32 ? b & 15 : b >> 4;
}

// q4_k repacked as xsQ4K reads it (the same bytes): qs[r][c] for row r
// and sub-block column c (16 bytes: byte j holds weight j's nibble and
// weight 16 + j's as its high one), then head[r][b] for each block b
// (16 bytes: d, dmin, then three words: the eight scales' low four bits
// as nibbles, the minimums' likewise, and the top two bits of scale j
// and minimum j at bits 4j, 4j + 2).
static std::vector<uint8_t> repackQ4_K(const std::vector<uint8_t> &w, uint32_t n, uint32_t k) {
  const uint32_t nl = k / 32, nb = k / 256;
  std::vector<uint8_t> o(w.size());
  uint8_t *qs = o.data(), *hd = qs + (size_t)n * nl * 16;
  for (uint32_t r = 0; r < n; r++) {
    for (uint32_t b = 0; b < nb; b++) {
      const uint8_t *blk = &w[((size_t)r * nb + b) * 144];
      uint32_t lo = 0, mlo = 0, top = 0;
      for (uint32_t j = 0; j < 8; j++) {
        int sc, m;
        q4kScaleMin(blk, j, &sc, &m);
        lo |= (uint32_t)(sc & 15) << (4 * j);
        mlo |= (uint32_t)(m & 15) << (4 * j);
        top |= (uint32_t)(sc >> 4) << (4 * j) | (uint32_t)(m >> 4) << (4 * j + 2);
        uint8_t *col = &qs[((size_t)r * nl + b * 8 + j) * 16];
        for (uint32_t l = 0; l < 16; l++) {
          col[l] = (uint8_t)(q4kValue(blk, 32 * j + l) | q4kValue(blk, 32 * j + 16 + l) << 4);
        }
      }
      uint8_t *h = &hd[((size_t)r * nb + b) * 16];
      memcpy(h, blk, 4);
      memcpy(h + 4, &lo, 4);
      memcpy(h + 8, &mlo, 4);
      memcpy(h + 12, &top, 4);
    }
  }
  return o;
}

static std::vector<uint8_t> repackQ6_K(const std::vector<uint8_t> &w, uint32_t n, uint32_t k, uint32_t W) {
  const uint32_t nl = k / W, nb = k / 256, lpb = 256 / W;
  std::vector<uint8_t> o(w.size());
  uint8_t *ql = o.data(), *qh = ql + (size_t)n * nl * W / 2, *sc = qh + (size_t)n * nl * W / 4;
  uint8_t *dd = sc + (size_t)n * nl * W / 16;
  for (uint32_t r = 0; r < n; r++) {
    for (uint32_t c = 0; c < nl; c++) {
      const uint8_t *blk = &w[((size_t)r * nb + c / lpb) * 210];
      int q[32];
      for (uint32_t j = 0; j < W; j++) q[j] = q6Value(blk, c % lpb * W + j);
      const size_t at = (size_t)r * nl + c;
      for (uint32_t j = 0; j < W / 2; j++) ql[at * W / 2 + j] = (uint8_t)((q[j] & 15) | (q[W / 2 + j] & 15) << 4);
      for (uint32_t m = 0; m < W / 8; m++) {
        for (uint32_t b = 0; b < 4; b++) {
          const uint32_t sh = m % 2 ? 0 : 4;
          qh[at * W / 4 + m / 2 * 4 + b] |= (uint8_t)((q[4 * m + b] >> 4) << sh | (q[W / 2 + 4 * m + b] >> 4) << (sh + 2));
        }
      }
      for (uint32_t i = 0; i < W / 16; i++) sc[at * W / 16 + i] = blk[192 + c % lpb * (W / 16) + i];
    }
    for (uint32_t b = 0; b < nb; b++) memcpy(&dd[((size_t)r * nb + b) * 2], &w[((size_t)r * nb + b) * 210 + 208], 2);
  }
  return o;
}

// weightOf: weight i of a block as the reference reads it: d · q for
// q4_0 (q − 8) and q8_0, d · scale · (q − 32) for q6_k, d · sc · q −
// dmin · m for q4_k.
static double weightOf(Fmt f, const uint8_t *blk, uint32_t i) {
  uint16_t dh;
  if (f == Q4_K) {
    uint16_t mh;
    memcpy(&dh, blk, 2);
    memcpy(&mh, blk + 2, 2);
    int sc, m;
    q4kScaleMin(blk, i / 32, &sc, &m);
    return (double)h2fHost(dh) * sc * q4kValue(blk, i) - (double)h2fHost(mh) * m;
  }
  if (f == Q6_K) {
    memcpy(&dh, blk + 208, 2);
    return (double)h2fHost(dh) * (int8_t)blk[192 + i / 16] * (q6Value(blk, i) - 32);
  }
  memcpy(&dh, blk, 2);
  const int q = f == Q8_0 ? (int8_t)blk[2 + i] : i < 16 ? (blk[2 + i] & 15) - 8 : (blk[2 + i - 16] >> 4) - 8;
  return (double)h2fHost(dh) * q;
}

static void reference(Fmt f, const std::vector<uint8_t> &w, const std::vector<float> &x, uint32_t n, uint32_t k,
                      std::vector<double> &y) {
  const uint32_t bs = blockBytes(f), bw = blockWeights(f), nb = k / bw;
  y.assign(n, 0.0);
  for (uint32_t r = 0; r < n; r++) {
    double s = 0;
    for (uint32_t b = 0; b < nb; b++) {
      const uint8_t *blk = &w[((size_t)r * nb + b) * bs];
      for (uint32_t i = 0; i < bw; i++) s += weightOf(f, blk, i) * x[b * bw + i];
    }
    y[r] = s;
  }
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Median over 7 trials of a trial's time / launches, the graph replayed
// until a trial takes at least 20 ms.
template <typename Rec>
static double timeGraph(Rec record, int launches) {
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaGraph_t g;
  cudaGraphExec_t ge;
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  record(s);
  CK(cudaStreamEndCapture(s, &g));
  CK(cudaGraphInstantiate(&ge, g, 0));
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  int reps = 1;
  for (;;) {
    CK(cudaEventRecord(a, s));
    for (int i = 0; i < reps; i++) CK(cudaGraphLaunch(ge, s));
    CK(cudaEventRecord(b, s));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    if (ms >= 20.0f || reps > (1 << 20)) break;
    reps *= 2;
  }
  std::vector<double> ts;
  for (int t = 0; t < 7; t++) {
    CK(cudaEventRecord(a, s));
    for (int i = 0; i < reps; i++) CK(cudaGraphLaunch(ge, s));
    CK(cudaEventRecord(b, s));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    ts.push_back(ms * 1e3 / ((double)reps * launches));
  }
  CK(cudaGraphExecDestroy(ge));
  CK(cudaGraphDestroy(g));
  CK(cudaStreamDestroy(s));
  return median(ts);
}

int main() {
  CK(cudaSetDevice(0));
  // DQPROBE_ONCE=1: launch each kernel once, at the first shape, and time
  // nothing (for ncu).
  const bool once = getenv("DQPROBE_ONCE") != nullptr;
  // DQPROBE_ONLY=a,b: only the variants whose names occur in it.
  const char *only = getenv("DQPROBE_ONLY");
  // Copy roofline: a 1 GiB device-to-device copy (read + write) by a kernel
  // (a graph's memcpy node measured 2.7 TB/s here, against 4.1 to 4.2 for
  // torch's copy_ in the check).
  const size_t cb = (size_t)1 << 30;
  void *ca, *cbuf;
  CK(cudaMalloc(&ca, cb));
  CK(cudaMalloc(&cbuf, cb));
  CK(cudaMemset(ca, 1, cb));
  const double cus = timeGraph([&](cudaStream_t s) { copyKernel<<<132 * 16, 256, 0, s>>>((const uint4 *)ca, (uint4 *)cbuf, cb / 16); }, 1);
  const double copyTBs = 2.0 * cb / (cus * 1e-6) / 1e12;
  CK(cudaFree(ca));
  CK(cudaFree(cbuf));
  printf("copy\t%.3f TB/s\n", copyTBs);
  printf("format\tK\tN\tvariant\tus\troofline\tnmse\n");
  const uint32_t shapes[2][2] = {{4096, 14336}, {14336, 4096}};  // K, N
  for (int fi = 0; fi < 4; fi++) {
    const Fmt f = (Fmt)fi;
    // Formats with no variant chosen: no weights, no reference.
    bool any = false;
    for (const Variant &var : variants) any = any || (var.k[fi] && (!only || strstr(only, var.name)));
    if (!any) continue;
    for (auto &sh : shapes) {
      if (once && &sh != &shapes[0]) break;  // under a profiler: the first shape only
      const uint32_t k = sh[0], n = sh[1];
      const std::vector<uint8_t> wh = makeWeights(f, n, k);
      std::vector<float> xh(k);
      for (auto &v : xh) v = (float)((int)(next() % 2001u) - 1000) / 1000.0f;
      std::vector<double> ref;
      reference(f, wh, xh, n, k, ref);
      const size_t wbytes = wh.size();
      const int sets = (int)std::max<size_t>(2, (4 * 60 * ((size_t)1 << 20) + wbytes - 1) / wbytes);
      std::vector<uint8_t *> ws(sets);
      float *x, *y;
      CK(cudaMalloc(&x, k * 4));
      CK(cudaMalloc(&y, (size_t)n * 4 * sets));
      CK(cudaMemcpy(x, xh.data(), k * 4, cudaMemcpyHostToDevice));
      for (auto &p : ws) {
        CK(cudaMalloc(&p, wbytes));
        CK(cudaMemcpy(p, wh.data(), wbytes, cudaMemcpyHostToDevice));
      }
      // The repacked copies (q4_0, q6_k), for the soa variants.
      std::vector<uint8_t *> wsoa, wsoh;
      if (f == Q6_K) {  // and the 16-weight columns' layout, for the xs6h variants
        const std::vector<uint8_t> rh = repackQ6_K(wh, n, k, 16);
        wsoh.resize(sets);
        for (auto &p : wsoh) {
          CK(cudaMalloc(&p, wbytes));
          CK(cudaMemcpy(p, rh.data(), wbytes, cudaMemcpyHostToDevice));
        }
      }
      if (f != Q8_0) {
        const std::vector<uint8_t> rh =
            f == Q4_0 ? repackQ4_0(wh) : f == Q6_K ? repackQ6_K(wh, n, k, 32) : repackQ4_K(wh, n, k);
        wsoa.resize(sets);
        for (auto &p : wsoa) {
          CK(cudaMalloc(&p, wbytes));
          CK(cudaMemcpy(p, rh.data(), wbytes, cudaMemcpyHostToDevice));
        }
      }
      const double bytes = (double)wbytes + k * 4.0 + n * 4.0;
      for (const Variant &var : variants) {
        const Var v = var.v;
        const Kern kern = var.k[fi];
        if (!kern || (only && !strstr(only, var.name)) || (var.onlyK && var.onlyK != k)) continue;
        const int rows = var.rows;
        const dim3 grid(var.grid ? var.grid : rows ? (n + rows - 1) / rows : 132 * 8);
        const int threads = var.threads;
        // The row-a-lane kernels (rowlaneQ4_0, 32 rows, any k) take 4 bytes a thread more.
        const bool rowlane = rows == 32 && !var.onlyK;
        const size_t smem = (size_t)var.smemX * k + (rowlane ? (size_t)threads * 4 : 0);
        if (smem > 48 * 1024) {  // over a launch's default limit: say so, run the rest
          fprintf(stderr, "%s %u×%u %s: skipped, needs %zu bytes of shared memory\n", fmtName[fi], k, n, var.name, smem);
          continue;
        }
        const std::vector<uint8_t *> &wv = var.soa == 2 ? wsoh : var.soa ? wsoa : ws;
        kern<<<grid, threads, smem>>>(x, wv[0], y, n, k);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        std::vector<float> yh(n);
        CK(cudaMemcpy(yh.data(), y, n * 4, cudaMemcpyDeviceToHost));
        double num = 0, den = 0;
        for (uint32_t i = 0; i < n; i++) {
          num += (yh[i] - ref[i]) * (yh[i] - ref[i]);
          den += ref[i] * ref[i];
        }
        if (once) {  // under a profiler: the one checked launch a kernel
          printf("%s\t%u\t%u\t%s\tonce\n", fmtName[fi], k, n, var.name);
          continue;
        }
        const double us = timeGraph(
            [&](cudaStream_t s) {
              for (int i = 0; i < sets; i++) kern<<<grid, threads, smem, s>>>(x, wv[i], y + (size_t)i * n, n, k);
            },
            sets);
        char nmse[32] = "-";
        if (v != LOADS) snprintf(nmse, sizeof nmse, "%.2e", num / den);
        printf("%s\t%u\t%u\t%s\t%.2f\t%.3f\t%s\n", fmtName[fi], k, n, var.name, us,
               bytes / (us * 1e-6) / (copyTBs * 1e12), nmse);
        fflush(stdout);
      }
      for (auto &p : ws) CK(cudaFree(p));
      for (auto &p : wsoa) CK(cudaFree(p));
      for (auto &p : wsoh) CK(cudaFree(p));
      CK(cudaFree(x));
      CK(cudaFree(y));
    }
  }
  return 0;
}
