package metal

import (
	"fmt"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// graph.dequant_matmul: x [M, K] f32 times Wᵀ, W [N, K] stored row-major
// as GGUF blocks, decoded inside the kernel (never to a full matrix).
//
// GEMV (M ≤ gemvMaxRows, the decode case): dequant_gemv.go.
//
// GEMM: the tiled loop of matmul.go with K steps of 32: each step decodes
// one unit of 32 weights (one q4_0 or q8_0 block, one sub-block of a q4_k
// or q6_k block) per weight row of the tile into threadgroup memory,
// beside the x tile, with one helper per format (rlx_dq32_*) reading
// blocks with the widest loads their alignment allows: 2-byte loads on
// the 18-, 34- and 210-byte blocks, 4-byte loads on q4_k's 144-byte
// blocks.

type quantInfo struct {
	name  string
	block int64 // weights per block
	bytes int64 // bytes per block
}

// quantFormat returns the GGUF formats with kernels (layouts in
// docs/runtime-kernels.md).
func quantFormat(f graph.QuantFormat) (quantInfo, bool) {
	switch f {
	case "q4_0":
		return quantInfo{"q4_0", 32, 18}, true
	case "q8_0":
		return quantInfo{"q8_0", 32, 34}, true
	case "q4_k":
		return quantInfo{"q4_k", 256, 144}, true
	case "q5_k":
		return quantInfo{"q5_k", 256, 176}, true
	case "q6_k":
		return quantInfo{"q6_k", 256, 210}, true
	case "q6_k_c16":
		return quantInfo{"q6_k_c16", 256, 210}, true
	case "q2_k":
		return quantInfo{"q2_k", 256, 84}, true
	case "q3_k":
		return quantInfo{"q3_k", 256, 110}, true
	case "q4_1":
		return quantInfo{"q4_1", 32, 20}, true
	case "q5_0":
		return quantInfo{"q5_0", 32, 22}, true
	case "q5_1":
		return quantInfo{"q5_1", 32, 24}, true
	case "iq4_nl":
		return quantInfo{"iq4_nl", 32, 18}, true
	case "iq4_xs":
		return quantInfo{"iq4_xs", 256, 136}, true
	case "mxfp4":
		return quantInfo{"mxfp4", 32, 17}, true
	}
	return quantInfo{}, false
}

// dequantHelpers decode unit u (32 weights) of a weight row into w, in the
// reference's arithmetic: q4_0 (q−8)·d, q8_0 q·d, q4_k and q5_k d1·q −
// m1 with d1 = d·sc and m1 = dmin·m, q6_k (d·sc)·(q−32).
const dequantHelpers = `
// rlx_mf: q < 2^23 as a float without an integer conversion, from v =
// 0x4B000000 | q, the bits of 2^23 + q (exact). A word ORed with
// 0x4B000000 once gives each of its fields so with one AND (by 0x4B000000
// | the field's mask).
static inline float rlx_mf(uint v) { return as_type<float>(v) - 8388608.0f; }
// rlx_mfo: the same field less an offset folded into the subtraction (o =
// 2^23 + the field's offset, exact below 2^24): q4_0's q − 8 and q8_0's q
// (its byte XORed with 0x80, so q + 128 in the field) straight away.
static inline float rlx_mfo(uint v, float o) { return as_type<float>(v) - o; }
// rlx_n256, rlx_n16: a byte moved to bits 15-22 of v, one nibble of it
// as a float with no subtraction: e holds 256's bits (0x43800000), with
// which bit 15 is worth 1, so the low nibble (bits 15-18) is 256 + q;
// or 16's (0x41800000), with which bit 19 is worth 1, so the high
// nibble (bits 19-22) is 16 + q. e comes from a register (a constant
// plus tgpos.y, which is 0) so that the AND and the OR stay one
// instruction on GPUs whose three-input logic ops take one constant.
static inline float rlx_n256(uint v, uint e) { return as_type<float>((v & 0x00078000u) | e); }
static inline float rlx_n16(uint v, uint e) { return as_type<float>((v & 0x00780000u) | e); }
// rlx_b128: the byte at bits 16-23 of v, a field below 64 (q6_k's), as
// 128 + q: e holds 128's bits (0x43000000), with which bit 16 is worth 1.
static inline float rlx_b128(uint v, uint e) { return as_type<float>((v & 0x00FF0000u) | e); }
// rlx_q4k_pair: the 6-bit scales and minimums of q4_k sub-blocks 2c and
// 2c + 1 from the block's first 16 bytes (hd.y..hd.w hold the 12 scale
// bytes: sub-blocks 0-3 in bytes 0-7; 4-7 in the low nibbles (scales)
// and high nibbles (minimums) of bytes 8-11 with the top two bits of
// bytes 0-3 and 4-7), as one byte each: scale 2c, scale 2c + 1, minimum
// 2c, minimum 2c + 1 from the low byte up. The two sub-blocks' bytes
// are neighbours, so both come from one shift of each word. Both forms
// are computed and one selected: a simdgroup's lanes take both anyway,
// and with a branch the compiler split hd's 16-byte load into three.
static inline uint rlx_q4k_pair(uint4 hd, uint c) {
  const uint s = (c & 1u) * 16u;
  const uint y = hd.y >> s;
  const uint z = hd.z >> s;
  const uint w = hd.w >> s;
  const uint lo = (y & 0x3F3Fu) | ((z & 0x3F3Fu) << 16);
  const uint hi = ((w & 0x0F0Fu) | ((y >> 2) & 0x3030u)) | ((((w >> 4) & 0x0F0Fu) | ((z >> 2) & 0x3030u)) << 16);
  return c < 2u ? lo : hi;
}
static inline void rlx_dq32_q4_0(device const uchar *row, uint u, thread float *w) {
  device const ushort *p = (device const ushort *)(row + u * 18u);
  const float d = rlx_half_bits(p[0]);
  for (uint j = 0; j < 8u; j++) {
    const uint q = p[1u + j];
    w[2u * j] = (float)((int)(q & 15u) - 8) * d;
    w[2u * j + 1u] = (float)((int)((q >> 8) & 15u) - 8) * d;
    w[2u * j + 16u] = (float)((int)((q >> 4) & 15u) - 8) * d;
    w[2u * j + 17u] = (float)((int)((q >> 12) & 15u) - 8) * d;
  }
}
static inline void rlx_dq32_q8_0(device const uchar *row, uint u, thread float *w) {
  device const ushort *p = (device const ushort *)(row + u * 34u);
  const float d = rlx_half_bits(p[0]);
  for (uint j = 0; j < 16u; j++) {
    const uint q = p[1u + j];
    w[2u * j] = (float)(int)(char)(uchar)(q & 255u) * d;
    w[2u * j + 1u] = (float)(int)(char)(uchar)(q >> 8) * d;
  }
}
// rlx_k4_unit: d1 = d·sc and m1 = dmin·m of sub-block j of the q4_k or
// q5_k block blk (their headers are the same).
static inline void rlx_k4_unit(device const uchar *blk, uint j, thread float *d1, thread float *m1) {
  device const ushort *h = (device const ushort *)blk;
  const float d = rlx_half_bits(h[0]);
  const float dmin = rlx_half_bits(h[1]);
  device const uchar *s = blk + 4;
  uint sc;
  uint mn;
  if (j < 4u) {
    sc = s[j] & 63u;
    mn = s[j + 4u] & 63u;
  } else {
    sc = (s[j + 4u] & 15u) | ((s[j - 4u] >> 6) << 4);
    mn = (s[j + 4u] >> 4) | ((s[j] >> 6) << 4);
  }
  *d1 = d * (float)sc;
  *m1 = dmin * (float)mn;
}
static inline void rlx_dq32_q4_k(device const uchar *row, uint u, thread float *w) {
  device const uchar *blk = row + (u / 8u) * 144u;
  const uint j = u % 8u;
  float d1;
  float m1;
  rlx_k4_unit(blk, j, &d1, &m1);
  device const uint *qs = (device const uint *)(blk + 16u + (j / 2u) * 32u);
  const uint shift = (j & 1u) * 4u;
  for (uint i = 0; i < 8u; i++) {
    const uint q = qs[i] >> shift;
    w[4u * i] = d1 * (float)(q & 15u) - m1;
    w[4u * i + 1u] = d1 * (float)((q >> 8) & 15u) - m1;
    w[4u * i + 2u] = d1 * (float)((q >> 16) & 15u) - m1;
    w[4u * i + 3u] = d1 * (float)((q >> 24) & 15u) - m1;
  }
}
static inline void rlx_dq32_q5_k(device const uchar *row, uint u, thread float *w) {
  device const uchar *blk = row + (u / 8u) * 176u;
  const uint j = u % 8u;
  float d1;
  float m1;
  rlx_k4_unit(blk, j, &d1, &m1);
  device const uint *qh = (device const uint *)(blk + 16u);
  device const uint *qs = (device const uint *)(blk + 48u + (j / 2u) * 32u);
  const uint shift = (j & 1u) * 4u;
  for (uint i = 0; i < 8u; i++) {
    const uint q = ((qs[i] >> shift) & 0x0F0F0F0Fu) | (((qh[i] >> j) & 0x01010101u) << 4);
    w[4u * i] = d1 * (float)(q & 31u) - m1;
    w[4u * i + 1u] = d1 * (float)((q >> 8) & 31u) - m1;
    w[4u * i + 2u] = d1 * (float)((q >> 16) & 31u) - m1;
    w[4u * i + 3u] = d1 * (float)((q >> 24) & 31u) - m1;
  }
}
static inline void rlx_dq32_q6_k(device const uchar *row, uint u, thread float *w) {
  device const uchar *blk = row + (u / 8u) * 210u;
  const uint e = (u % 8u) * 32u;
  const uint hf = e / 128u;
  const uint g = (e % 128u) / 32u;
  device const ushort *ql = (device const ushort *)(blk + 64u * hf + (g & 1u) * 32u);
  device const ushort *qh = (device const ushort *)(blk + 128u + 32u * hf);
  device const char *sc = (device const char *)(blk + 192u + 8u * hf + 2u * g);
  const float d = rlx_half_bits(*((device const ushort *)(blk + 208u)));
  const uint nib = (g >> 1) * 4u;
  const uint hsh = 2u * g;
  for (uint i = 0; i < 16u; i++) {
    const uint l = ql[i];
    const uint hb = qh[i];
    const float dsc = d * (float)sc[(2u * i) / 16u];
    const int q0 = (int)(((l >> nib) & 15u) | (((hb >> hsh) & 3u) << 4)) - 32;
    const int q1 = (int)(((l >> (8u + nib)) & 15u) | (((hb >> (8u + hsh)) & 3u) << 4)) - 32;
    w[2u * i] = dsc * (float)q0;
    w[2u * i + 1u] = dsc * (float)q1;
  }
}
// The unit formats (dequantGEMVUnits and the GEMM): the values as
// runtime/gguf's decoders compute them, the bytes read in the widest
// words the blocks' alignment allows (q4_1's 20 and q5_1's 24 bytes 4-byte
// words, q5_0's 22 and iq4_nl's 18 2-byte ones, iq4_xs's quants 4-byte
// words, mxfp4's 17 single bytes).
static inline void rlx_dq32_q4_1(device const uchar *row, uint u, thread float *w) {
  device const uint *p = (device const uint *)(row + u * 20u);
  const float d = rlx_half_bits((ushort)(p[0] & 0xFFFFu));
  const float m = rlx_half_bits((ushort)(p[0] >> 16));
  for (uint i = 0; i < 4u; i++) {
    const uint v = p[1u + i];
    for (uint b = 0; b < 4u; b++) {
      const uint q = (v >> (8u * b)) & 255u;
      w[4u * i + b] = (float)(q & 15u) * d + m;
      w[4u * i + b + 16u] = (float)(q >> 4) * d + m;
    }
  }
}
static inline void rlx_dq32_q5_0(device const uchar *row, uint u, thread float *w) {
  device const ushort *h = (device const ushort *)(row + u * 22u);
  const float d = rlx_half_bits(h[0]);
  const uint qh = (uint)h[1] | ((uint)h[2] << 16);
  for (uint i = 0; i < 8u; i++) {
    const uint v = h[3u + i];
    for (uint b = 0; b < 2u; b++) {
      const uint j = 2u * i + b;
      const uint q = (v >> (8u * b)) & 255u;
      w[j] = (float)((int)((q & 15u) | (((qh >> j) & 1u) << 4)) - 16) * d;
      w[j + 16u] = (float)((int)((q >> 4) | (((qh >> (j + 16u)) & 1u) << 4)) - 16) * d;
    }
  }
}
static inline void rlx_dq32_q5_1(device const uchar *row, uint u, thread float *w) {
  device const uint *p = (device const uint *)(row + u * 24u);
  const float d = rlx_half_bits((ushort)(p[0] & 0xFFFFu));
  const float m = rlx_half_bits((ushort)(p[0] >> 16));
  const uint qh = p[1];
  for (uint i = 0; i < 4u; i++) {
    const uint v = p[2u + i];
    for (uint b = 0; b < 4u; b++) {
      const uint j = 4u * i + b;
      const uint q = (v >> (8u * b)) & 255u;
      w[j] = (float)((q & 15u) | (((qh >> j) & 1u) << 4)) * d + m;
      w[j + 16u] = (float)((q >> 4) | (((qh >> (j + 16u)) & 1u) << 4)) * d + m;
    }
  }
}
// q2_k and q3_k: unit j of a block is values 32j..32j+31, two groups of
// 16 with their own scales, the low two bits of each at shift 2(j % 4)
// of qs[32(j / 4) + l], l < 32.
static inline void rlx_dq32_q2_k(device const uchar *row, uint u, thread float *w) {
  device const uchar *blk = row + (u / 8u) * 84u;
  const uint j = u % 8u;
  const float d = rlx_half_bits(((device const ushort *)blk)[40]);
  const float dmin = rlx_half_bits(((device const ushort *)blk)[41]);
  device const uchar *qs = blk + 16u + (j / 4u) * 32u;
  const uint sh = 2u * (j % 4u);
  for (uint g = 0; g < 2u; g++) {
    const uint sc = blk[8u * (j / 4u) + 2u * (j % 4u) + g];
    const float dl = d * (float)(sc & 15u);
    const float ml = dmin * (float)(sc >> 4);
    for (uint l = 0; l < 16u; l++) {
      w[16u * g + l] = dl * (float)((qs[16u * g + l] >> sh) & 3u) - ml;
    }
  }
}
static inline void rlx_dq32_q3_k(device const uchar *row, uint u, thread float *w) {
  device const uchar *blk = row + (u / 8u) * 110u;
  const uint j = u % 8u;
  const float d = rlx_half_bits(((device const ushort *)blk)[54]);
  device const uchar *qs = blk + 32u + (j / 4u) * 32u;
  const uint sh = 2u * (j % 4u);
  const uint bit = 4u * (j / 4u) + j % 4u;
  for (uint g = 0; g < 2u; g++) {
    const uint is = 8u * (j / 4u) + 2u * (j % 4u) + g;
    const uint lo = (blk[96u + is % 8u] >> (4u * (is / 8u))) & 15u;
    const uint hi = (blk[104u + is % 4u] >> (2u * (is / 4u))) & 3u;
    const float dl = d * (float)((int)(lo | (hi << 4)) - 32);
    for (uint l = 0; l < 16u; l++) {
      const int v = (int)((qs[16u * g + l] >> sh) & 3u) - (((blk[16u * g + l] >> bit) & 1u) != 0u ? 0 : 4);
      w[16u * g + l] = dl * (float)v;
    }
  }
}
// rlx_gv_q2_k, rlx_gv_q3_k: the GEMV's slice u of a row (block u / 8,
// t = u % 8): the 32 weights 128h + 32s + 4t + i of the block (h < 2,
// s < 4, i < 4) into w[4(4h + s) + i]. A slice reads its block's quant
// bytes once (the 4 at 4t of each 32-byte run of qs, and q3_k's 4 of
// hmask) where a unit of 32 consecutive weights reads 32 bytes of qs
// for 2 bits of each (and q3_k 32 of hmask for 1); its x is eight runs
// of four (dequantGEMVUnits). Values as rlx_dq32_q2_k's and
// rlx_dq32_q3_k's: the same products of the same floats.
static inline void rlx_gv_q2_k(device const uchar *row, uint u, thread float *w) {
  device const uint *p = (device const uint *)(row + (u / 8u) * 84u);
  const uint t = u % 8u;
  const uint c = 8u * (t / 4u);
  const float d = rlx_half_bits((ushort)(p[20] & 0xFFFFu));
  const float dmin = rlx_half_bits((ushort)(p[20] >> 16));
  for (uint h = 0; h < 2u; h++) {
    const uint q = p[4u + 8u * h + t];
    for (uint s = 0; s < 4u; s++) {
      const uint sc = (p[2u * h + s / 2u] >> (16u * (s % 2u) + c)) & 255u;
      const float dl = d * (float)(sc & 15u);
      const float ml = dmin * (float)(sc >> 4);
      for (uint i = 0; i < 4u; i++) {
        w[4u * (4u * h + s) + i] = dl * (float)((q >> (8u * i + 2u * s)) & 3u) - ml;
      }
    }
  }
}
static inline void rlx_gv_q3_k(device const uchar *row, uint u, thread float *w) {
  device const ushort *p = (device const ushort *)(row + (u / 8u) * 110u);
  const uint t = u % 8u;
  const uint c = 8u * (t / 4u);
  const float d = rlx_half_bits(p[54]);
  const uint hm = (uint)p[2u * t] | ((uint)p[2u * t + 1u] << 16);
  // The scales' low nibbles (bytes 96-103) and high bits (104-107).
  const uint s0 = (uint)p[48] | ((uint)p[49] << 16);
  const uint s1 = (uint)p[50] | ((uint)p[51] << 16);
  const uint s2 = (uint)p[52] | ((uint)p[53] << 16);
  for (uint h = 0; h < 2u; h++) {
    const uint q = (uint)p[16u + 16u * h + 2u * t] | ((uint)p[17u + 16u * h + 2u * t] << 16);
    for (uint s = 0; s < 4u; s++) {
      // Scale 8h + 2s + t / 4: its low nibble in byte 2s + t / 4 of
      // 96-103 (at 4h), its high bits in byte (2s + t / 4) % 4 of
      // 104-107 (at 2(2h + s / 2)).
      const uint lo = ((s < 2u ? s0 : s1) >> (16u * (s % 2u) + c + 4u * h)) & 15u;
      const uint hi = (s2 >> (16u * (s % 2u) + c + 2u * (2u * h + s / 2u))) & 3u;
      const float dl = d * (float)((int)(lo | (hi << 4)) - 32);
      // Each byte of f: the weight's two low bits and, above them, its
      // hmask bit: v + 4 (v = low − (bit ? 0 : 4)), read as a float
      // through 2^23's bits less 2^23 + 4 (rlx_mfo).
      const uint f = ((q >> (2u * s)) & 0x03030303u) | (((hm >> (4u * h + s)) & 0x01010101u) << 2);
      for (uint i = 0; i < 4u; i++) {
        w[4u * (4u * h + s) + i] = dl * rlx_mfo(((f >> (8u * i)) & 7u) | 0x4B000000u, 8388612.0f);
      }
    }
  }
}
// rlx_gd_q2_k: the GEMV's dot of slice u of a q2_k row (rlx_gv_q2_k's
// weights) with x, factored: each weight's 2 bits stay where they sit in
// the quant word, masked, not shifted, and meet x prescaled by the
// field's power of two (xs[4h + s] = x's run of four for (h, s) times
// 2^-(2s), 2^-(2s+8), 2^-(2s+16), 2^-(2s+24), exact); each run's scale
// multiplies its sum, and dmin·m its plain sum (xsum[4h + s]) once.
static inline float rlx_gd_q2_k(device const uchar *row, uint u, thread const float4 *xs, thread const float *xsum) {
  device const uint *p = (device const uint *)(row + (u / 8u) * 84u);
  const uint t = u % 8u;
  const uint c = 8u * (t / 4u);
  float a = 0.0f, b = 0.0f;
  for (uint h = 0; h < 2u; h++) {
    const uint q = p[4u + 8u * h + t];
    for (uint s = 0; s < 4u; s++) {
      const uint sc = (p[2u * h + s / 2u] >> (16u * (s % 2u) + c)) & 255u;
      const uint mk = 3u << (2u * s);
      const float4 xv = xs[4u * h + s];
      const float sq = xv.x * (float)(q & mk) + xv.y * (float)(q & (mk << 8u)) + xv.z * (float)(q & (mk << 16u)) + xv.w * (float)(q & (mk << 24u));
      a += (float)(sc & 15u) * sq;
      b += (float)(sc >> 4) * xsum[4u * h + s];
    }
  }
  return rlx_half_bits((ushort)(p[20] & 0xFFFFu)) * a - rlx_half_bits((ushort)(p[20] >> 16)) * b;
}
// rlx_gd_q3_k: rlx_gd_q2_k's factored dot for q3_k's slice u
// (rlx_gv_q3_k's weights): a weight is low + 4·bit − 4, its two low
// bits masked in place against xs (as q2_k's) and its hmask bit against
// xh (x's run times 2^(2-8i-4h-s)), the 4 off each run's plain sum.
static inline float rlx_gd_q3_k(device const uchar *row, uint u, thread const float4 *xs, thread const float4 *xh, thread const float *xsum) {
  device const ushort *p = (device const ushort *)(row + (u / 8u) * 110u);
  const uint t = u % 8u;
  const uint c = 8u * (t / 4u);
  const uint hm = (uint)p[2u * t] | ((uint)p[2u * t + 1u] << 16);
  const uint s0 = (uint)p[48] | ((uint)p[49] << 16);
  const uint s1 = (uint)p[50] | ((uint)p[51] << 16);
  const uint s2 = (uint)p[52] | ((uint)p[53] << 16);
  float a = 0.0f;
  for (uint h = 0; h < 2u; h++) {
    const uint q = (uint)p[16u + 16u * h + 2u * t] | ((uint)p[17u + 16u * h + 2u * t] << 16);
    for (uint s = 0; s < 4u; s++) {
      const uint lo = ((s < 2u ? s0 : s1) >> (16u * (s % 2u) + c + 4u * h)) & 15u;
      const uint hi = (s2 >> (16u * (s % 2u) + c + 2u * (2u * h + s / 2u))) & 3u;
      const float sc = (float)((int)(lo | (hi << 4)) - 32);
      const uint mk = 3u << (2u * s);
      const uint hk = 1u << (4u * h + s);
      const float4 xv = xs[4u * h + s];
      const float4 hv = xh[4u * h + s];
      const float sq = xv.x * (float)(q & mk) + xv.y * (float)(q & (mk << 8u)) + xv.z * (float)(q & (mk << 16u)) + xv.w * (float)(q & (mk << 24u))
          + hv.x * (float)(hm & hk) + hv.y * (float)(hm & (hk << 8u)) + hv.z * (float)(hm & (hk << 16u)) + hv.w * (float)(hm & (hk << 24u));
      a += sc * (sq - 4.0f * xsum[4u * h + s]);
    }
  }
  return rlx_half_bits(p[54]) * a;
}
// rlx_lut8: entry n (< 16) of a table of 16 signed bytes packed into two
// 64-bit words (entries 0-7 in lo, low byte first): iq4's levels and
// mxfp4's doubled E2M1 codes, without an array in memory.
static inline float rlx_lut8(ulong lo, ulong hi, uint n) {
  const ulong t = n < 8u ? lo : hi;
  return (float)(int)(char)(uchar)((t >> (8u * (n & 7u))) & 255ul);
}
// rlx_iq4_level, rlx_mxfp4_level: level n of iq4_nl and iq4_xs (ggml's
// kvalues_iq4nl) and of mxfp4 (the doubled E2M1 values).
static inline float rlx_iq4_level(uint n) { return rlx_lut8(0xF6EADDCFBFAD9881ul, 0x7159453526190D01ul, n); }
static inline float rlx_mxfp4_level(uint n) { return rlx_lut8(0x0C08060403020100ul, 0xF4F8FAFCFDFEFF00ul, n); }
// rlx_iq4_nl_codes, rlx_iq4_xs_codes: unit u's 32 4-bit codes into c
// (weight j's at c[j]) and the factor they share; weight j is the factor
// times level c[j] (rlx_dq32_* take the levels from rlx_iq4_level, the
// GEMV's rlx_gv_* from a table in threadgroup memory).
static inline float rlx_iq4_nl_codes(device const uchar *row, uint u, thread uint *c) {
  device const ushort *h = (device const ushort *)(row + u * 18u);
  for (uint i = 0; i < 8u; i++) {
    const uint v = h[1u + i];
    for (uint b = 0; b < 2u; b++) {
      const uint q = (v >> (8u * b)) & 255u;
      c[2u * i + b] = q & 15u;
      c[2u * i + b + 16u] = q >> 4;
    }
  }
  return rlx_half_bits(h[0]);
}
// rlx_iq4_xs_codes: the factor is d times sub-block u % 8's 6-bit scale
// less 32.
static inline float rlx_iq4_xs_codes(device const uchar *row, uint u, thread uint *c) {
  device const uchar *blk = row + (u / 8u) * 136u;
  const uint ib = u % 8u;
  device const uint *qs = (device const uint *)(blk + 8u + 16u * ib);
  for (uint i = 0; i < 4u; i++) {
    const uint v = qs[i];
    for (uint b = 0; b < 4u; b++) {
      const uint q = (v >> (8u * b)) & 255u;
      c[4u * i + b] = q & 15u;
      c[4u * i + b + 16u] = q >> 4;
    }
  }
  const float d = rlx_half_bits(((device const ushort *)blk)[0]);
  const uint sh = ((device const ushort *)blk)[1];
  const int ls = (int)(((blk[4u + ib / 2u] >> (4u * (ib % 2u))) & 15u) | (((sh >> (2u * ib)) & 3u) << 4));
  return d * (float)(ls - 32);
}
// rlx_e8m0: mxfp4's factor 2^(e − 128) (runtime/gguf's e8m0Half: a
// subnormal below e = 2); weight j of a block is it times the doubled
// E2M1 value of its code (rlx_mxfp4_level).
static inline float rlx_e8m0(uint e) { return as_type<float>(e < 2u ? (0x00200000u << e) : ((e - 1u) << 23)); }
static inline void rlx_dq32_iq4_nl(device const uchar *row, uint u, thread float *w) {
  uint c[32];
  const float d = rlx_iq4_nl_codes(row, u, c);
  for (uint j = 0; j < 32u; j++) {
    w[j] = d * rlx_iq4_level(c[j]);
  }
}
static inline void rlx_dq32_iq4_xs(device const uchar *row, uint u, thread float *w) {
  uint c[32];
  const float d = rlx_iq4_xs_codes(row, u, c);
  for (uint j = 0; j < 32u; j++) {
    w[j] = d * rlx_iq4_level(c[j]);
  }
}
static inline void rlx_dq32_mxfp4(device const uchar *row, uint u, thread float *w) {
  device const uchar *blk = row + u * 17u;
  const float d = rlx_e8m0(blk[0]);
  for (uint j = 0; j < 16u; j++) {
    const uint q = blk[1u + j];
    w[j] = rlx_mxfp4_level(q & 15u) * d;
    w[j + 16u] = rlx_mxfp4_level(q >> 4) * d;
  }
}
// rlx_gv_iq4_nl, rlx_gv_iq4_xs, rlx_gv_mxfp4: the GEMV's units of the
// formats with levels, each level read from lv, the format's 16 levels
// as floats in threadgroup memory (rlx_iq4_level's or
// rlx_mxfp4_level's), which the kernel writes once: one load a weight
// instead of rlx_lut8's select and 64-bit shift. The products are
// rlx_dq32's.
static inline void rlx_gv_iq4_nl(device const uchar *row, uint u, thread float *w, threadgroup const float *lv) {
  uint c[32];
  const float d = rlx_iq4_nl_codes(row, u, c);
  for (uint j = 0; j < 32u; j++) {
    w[j] = d * lv[c[j]];
  }
}
static inline void rlx_gv_iq4_xs(device const uchar *row, uint u, thread float *w, threadgroup const float *lv) {
  uint c[32];
  const float d = rlx_iq4_xs_codes(row, u, c);
  for (uint j = 0; j < 32u; j++) {
    w[j] = d * lv[c[j]];
  }
}
static inline void rlx_gv_mxfp4(device const uchar *row, uint u, thread float *w, threadgroup const float *lv) {
  device const uchar *blk = row + u * 17u;
  const float d = rlx_e8m0(blk[0]);
  for (uint j = 0; j < 16u; j++) {
    const uint q = blk[1u + j];
    w[j] = lv[q & 15u] * d;
    w[j + 16u] = lv[q >> 4] * d;
  }
}
// rlx_dq32_q6_k_c16: unit u of row r of an [n, k] q6_k_c16 weight w
// (runtime/gguf's Q6_KC16), its columns 2u and 2u + 1 of 16 weights; c16
// is n·k/16, the columns of the whole weight.
static inline void rlx_dq32_q6_k_c16(device const uchar *w, uint c16, uint k, uint r, uint u, thread float *o) {
  const float d = rlx_half_bits(((device const ushort *)(w + 13u * c16))[r * (k / 256u) + u / 8u]);
  for (uint h = 0u; h < 2u; h++) {
    const uint col = r * (k / 16u) + 2u * u + h;
    const uint2 ql = ((device const uint2 *)w)[col];
    const uint qh = ((device const uint *)(w + 8u * c16))[col];
    const float dsc = d * (float)(int)(char)w[12u * c16 + col];
    for (uint j = 0u; j < 8u; j++) {
      const uint byte = ((j < 4u ? ql.x : ql.y) >> (8u * (j % 4u))) & 255u;
      // The top bits of weight j (j < 4: qh byte j, bits 4-5; else byte
      // j − 4, bits 0-1) and of weight 8 + j (bits 6-7; bits 2-3).
      const uint hb = (qh >> (8u * (j % 4u))) & 255u;
      const uint lo = (byte & 15u) | ((j < 4u ? (hb >> 4) : hb) & 3u) << 4;
      const uint hi = (byte >> 4) | ((j < 4u ? (hb >> 6) : (hb >> 2)) & 3u) << 4;
      o[16u * h + j] = dsc * (float)((int)lo - 32);
      o[16u * h + 8u + j] = dsc * (float)((int)hi - 32);
    }
  }
}
`

func emitDequantMatMul(r *regionState, op *ir.Operation) error {
	return emitDequant(r, op, nil)
}

// emitExpertBatch emits the one dispatch of an expert batch (experts.go).
func emitExpertBatch(r *regionState, bt *expertBatch) error {
	return emitDequant(r, bt.ops[0], bt)
}

// emitDequant emits op, a graph.dequant_matmul: from its packed weight,
// from an expert of a stack in place (r.expert), or, with bt, the whole
// batch of in-place experts that op leads.
func emitDequant(r *regionState, op *ir.Operation, bt *expertBatch) error {
	dq, _ := graph.AsDequantMatMul(op)
	x, _ := infoOf(op.Operand(0))
	wt, _ := infoOf(op.Operand(1))
	y, _ := infoOf(op.Result(0))
	f, ok := quantFormat(dq.Format())
	if !ok || x.rank() != 2 || x.elem != elemF32 {
		return ir.OpError(op, "has no Metal kernel for format %q and operand %v", dq.Format(), op.Operand(0).Type())
	}
	n, k := dq.N(), dq.K()
	m := x.dim(0)
	if k%f.block != 0 || wt.n != n*(k/f.block)*f.bytes {
		return ir.OpError(op, "packed weight of %d bytes does not hold [%d, %d] in %s", wt.n, n, k, f.name)
	}
	if y.n == 0 {
		return nil
	}
	rowBytes := (k / f.block) * f.bytes
	gemv := m <= gemvMaxRows
	family := "dequant_gemm_" + f.name
	if gemv {
		family = "dequant_gemv_" + f.name
	}
	// Three kinds of kernel: the weight read from its own buffer, one
	// expert of a stack read in place (r.expert), or a batch of them.
	ex, inPlace := r.expert[op]
	var stack, idx tensorInfo
	key := keyOf(m, n, k)
	if inPlace {
		stack, _ = infoOf(ex.stack)
		idx, _ = infoOf(ex.idx)
		if ex.per != wt.n {
			return ir.OpError(op, "internal error: an expert of %d bytes read as %d", ex.per, wt.n)
		}
		family += "_expert"
		key = keyOf(m, n, k, ex.count, idx.elem, idx.n)
		if bt != nil {
			family += "s"
			key = keyOf(m, n, k, ex.count, idx.elem, idx.n, bt.shared)
		}
	}
	kern, err := r.e.kernel(op, family, key, func(b *kb) error {
		b.e.helpers.use(hDequant)
		b.k.Summary = fmt.Sprintf("x[%d, %d] · W[%d, %d]ᵀ, W in %s", m, k, n, k, f.name)
		if bt != nil {
			return expertBatchKernel(b, bt, f, m, n, k, x, stack, idx, y)
		}
		b.buffer("x", x, accRead)
		if inPlace {
			b.k.Summary += fmt.Sprintf(", W the matrix of [%d] experts that eidx[ej] picks", ex.count)
			b.buffer("wx", stack, accRead)
			b.k.Reads -= stack.bytes() - ex.per // one matrix of the stack is read
			b.buffer("eidx", idx, accRead)
			b.rawBuffer("ej", "device const int *", "i32", []int64{1}, 4, accRead)
			b.buffer("y", y, accWrite)
			b.status()
			// Which index is a constant buffer, not a literal, so that the
			// K experts of a projection share one kernel. An index out of
			// range reads expert 0 and sets the status word, as the gather
			// it replaces would (the run fails).
			expertBase(b, "ej[0]", ex)
		} else {
			b.buffer("w", wt, accRead)
			b.buffer("y", y, accWrite)
		}
		if gemv {
			dequantGEMVBody(b, f, m, n, k)
			return nil
		}
		b.l("device const float *ap = x;")
		b.l("device float *yp = y;")
		bm := gemmRows(b)
		emitGEMM(b, m, k, n, 1, elemF32,
			func(b *kb) { // As[kk][i] = x[m0+i, k0+kk]
				b.l("for (uint e = tpos.x; e < %du; e += tptg.x) {", 32*bm)
				b.l("const uint i = e / 32u;")
				b.l("const uint kk = e %% 32u;")
				b.l("const uint gm = m0 + i;")
				b.l("As[kk * %du + i] = gm < %du ? ap[gm * %du + k0 + kk] : 0.0f;", bm, m, k)
				b.l("}")
			},
			func(b *kb) { // Bs[kk][j] = W[n0+j, k0+kk], one unit per row
				b.l("for (uint j = tpos.x; j < %du; j += tptg.x) {", gemmBN)
				b.l("const uint gn = n0 + j;")
				b.l("float wv[32];")
				b.l("if (gn < %du) {", n)
				if f.name == "q6_k_c16" {
					b.l("rlx_dq32_q6_k_c16(w, %du, %du, gn, k0 / 32u, wv);", n*k/16, k)
				} else {
					b.l("rlx_dq32_%s(w + gn * %du, k0 / 32u, wv);", f.name, rowBytes)
				}
				b.l("} else {")
				b.l("for (uint kk = 0; kk < 32u; kk++) {")
				b.l("wv[kk] = 0.0f;")
				b.l("}")
				b.l("}")
				b.l("for (uint kk = 0; kk < 32u; kk++) {")
				b.l("Bs[kk * %du + j] = wv[kk];", gemmBN)
				b.l("}")
				b.l("}")
			}, 32, k)
		return nil
	})
	if err != nil {
		return err
	}
	// The bindings, in the kernel's parameter order.
	var ids []int
	ops := []*ir.Operation{op}
	switch {
	case bt != nil:
		var reads, writes []*ir.Value
		for _, dq := range bt.ops {
			if !bt.shared || len(reads) == 0 {
				reads = append(reads, dq.Operand(0))
			}
			writes = append(writes, dq.Result(0))
		}
		ids, err = r.bind(append(reads, ex.stack, ex.idx), append(writes, nil))
		ops = bt.ops
	case inPlace:
		ids, err = r.bind([]*ir.Value{op.Operand(0), ex.stack, ex.idx}, nil)
		if err == nil {
			var out []int
			out, err = r.bind(nil, []*ir.Value{op.Result(0), nil})
			ids = append(append(ids, r.literalI32(int32(ex.j))), out...)
		}
	default:
		ids, err = r.bind([]*ir.Value{op.Operand(0), op.Operand(1)}, []*ir.Value{op.Result(0)})
	}
	if err != nil {
		return err
	}
	r.dispatch(kern, ops, ids)
	return nil
}

// dequantGEMVBody writes the GEMV of the format's layout: q6_k_c16's
// columns (dequant_columns.go), the GGUF blocks' (dequant_gemv.go), or
// their units of 32 weights (dequantGEMVUnits).
func dequantGEMVBody(b *kb, f quantInfo, m, n, k int64) {
	if f.name == "q6_k_c16" {
		dequantGEMVColumns(b, m, n, k)
		return
	}
	if f.unitGEMV() {
		dequantGEMVUnits(b, f, m, n, k)
		return
	}
	dequantGEMV(b, f, m, n, k)
}

// expertBatchKernel builds the kernel of an expert batch: the GEMV of one
// expert, its index j the threadgroup's z position, reading its matrix in
// place (an index out of range: expert 0 and the status word), x (its own
// buffer xj, or the shared x) and writing yj.
func expertBatchKernel(b *kb, bt *expertBatch, f quantInfo, m, n, k int64, x, stack, idx, y tensorInfo) error {
	kexp := len(bt.ops)
	b.k.Summary = fmt.Sprintf("x[%d, %d] · W[%d, %d]ᵀ for each of %d experts of [%d] that eidx picks, W in %s", m, k, n, k, kexp, bt.count, f.name)
	pick := func(name string) string { // the buffer of expert tgpos.z
		e := fmt.Sprintf("%s%d", name, kexp-1)
		for j := kexp - 2; j >= 0; j-- {
			e = fmt.Sprintf("tgpos.z == %du ? %s%d : %s", j, name, j, e)
		}
		return e
	}
	if bt.shared {
		b.buffer("x", x, accRead)
	} else {
		for j := range kexp {
			b.buffer(fmt.Sprintf("x%d", j), x, accRead)
		}
	}
	b.buffer("wx", stack, accRead)
	b.k.Reads -= stack.bytes() - int64(kexp)*bt.per // the chosen matrices of the stack are read
	b.buffer("eidx", idx, accRead)
	for j := range kexp {
		b.buffer(fmt.Sprintf("y%d", j), y, accWrite)
	}
	b.status()
	expertBase(b, "tgpos.z", bt.expertRead)
	if !bt.shared {
		b.l("device const float *x = %s;", pick("x"))
	}
	b.l("device float *y = %s;", pick("y"))
	dequantGEMVBody(b, f, m, n, k)
	if b.k.Grid[2] != 1 || b.k.Resize != ResizeRows {
		return fmt.Errorf("internal error: an expert batch's GEMV launches %v threadgroups (%s)", b.k.Grid, b.k.Resize)
	}
	b.k.Grid[2] = kexp
	return nil
}
