package metal

import "strings"

// Helper functions the kernels call, emitted once at the top of the
// source when some kernel uses them, in this order. Every helper is
// `static inline`, and every pointer parameter names its address space
// (the strict syntax pass in codegen/metal/mslcpu checks that).
type helper uint8

const (
	hErf helper = iota
	hLog1p
	hUnary   // sigmoid, silu, softplus, gelu, gelu_tanh
	hFMinMax // NaN-propagating max and min with -0 < +0
	hPow
	hIntOps // integer division, power
	hCast   // float to integer conversions
	hTGSum  // threadgroup sum and max over simdgroups
	hHalf   // half and bfloat from raw bits
	hDequant
	hTopK // top-k's order
	numHelpers
)

// helperSource returns a helper's text.
func helperSource(h helper) string {
	return [numHelpers]string{
		hErf: `
// rlx_erf and rlx_erfc for float (MSL has neither). |x| < 0.5: the Taylor
// series of erf about 0; otherwise erfc from the Chebyshev fit of
// Numerical Recipes (erfcc), erfc(a) = t*exp(-a*a + c0 + t*(c1 + ...))
// with t = 1/(1 + a/2), whose error is relative (below 1.2e-7 in exact
// arithmetic, 4e-5 in float out to a = 9.5, where erfc nears float's
// smallest normal), so that gelu's far tail keeps its digits: Abramowitz
// and Stegun's 7.1.26, used before, is exact to 1.5e-7 absolute but 4%
// off relative at a = 9 (random function 6736).
static inline float rlx_erfc_pos(float a) {
  float t = 1.0f / (1.0f + 0.5f * a);
  float p = -1.26551223f + t * (1.00002368f + t * (0.37409196f + t * (0.09678418f + t * (-0.18628806f +
      t * (0.27886807f + t * (-1.13520398f + t * (1.48851587f + t * (-0.82215223f + t * 0.17087277f))))))));
  return t * exp(-a * a + p);
}
static inline float rlx_erf(float x) {
  float a = fabs(x);
  float r;
  if (a < 0.5f) {
    // Taylor series about 0: relative error below 1e-8 on [0, 0.5).
    float x2 = a * a;
    r = a * (1.1283791671f + x2 * (-0.3761263890f + x2 * (0.1128379167f + x2 * (-0.0268661706f +
        x2 * (0.0052239776f + x2 * (-0.0008548327f + x2 * 0.0001205491f))))));
  } else {
    r = 1.0f - rlx_erfc_pos(a);
  }
  return x < 0.0f ? -r : r;
}
static inline float rlx_erfc(float x) {
  if (x >= 0.5f) {
    return rlx_erfc_pos(x);
  }
  if (x <= -0.5f) {
    return 2.0f - rlx_erfc_pos(-x);
  }
  return 1.0f - rlx_erf(x);
}
`,
		hLog1p: `
// rlx_log1p: log(1+y) accurate for small y (Goldberg's trick; needs IEEE
// arithmetic, which the safe math mode gives). MSL has no log1p.
static inline float rlx_log1p(float y) {
  float u = 1.0f + y;
  if (u == 1.0f) {
    return y;
  }
  return log(u) * (y / (u - 1.0f));
}
`,
		hUnary: `
static inline float rlx_sigmoid(float x) { return 1.0f / (1.0f + exp(-x)); }
static inline float rlx_silu(float x) { return x / (1.0f + exp(-x)); }
static inline float rlx_softplus(float x) { return max(x, 0.0f) + rlx_log1p(exp(-fabs(x))); }
static inline float rlx_gelu(float x) { return 0.5f * x * rlx_erfc(-x * 0.70710678118654752f); }
static inline float rlx_gelu_tanh(float x) {
  float u = 0.79788456080286536f * (x + 0.044715f * x * x * x);
  return x / (1.0f + exp(-2.0f * u));
}
static inline float rlx_relu(float x) { return (x > 0.0f || isnan(x)) ? x : 0.0f; }
`,
		hFMinMax: `
// The graph dialect's max and min: NaN if either side is NaN, -0 < +0.
static inline float rlx_fmax(float a, float b) {
  if (isnan(a) || isnan(b)) {
    return a + b;
  }
  if (a == b) {
    return signbit(a) ? b : a;
  }
  return a > b ? a : b;
}
static inline float rlx_fmin(float a, float b) {
  if (isnan(a) || isnan(b)) {
    return a + b;
  }
  if (a == b) {
    return signbit(a) ? a : b;
  }
  return a < b ? a : b;
}
`,
		hPow: `
// rlx_pow: C's pow for float, with the sign for a negative base and an
// odd integer exponent (MSL's pow is undefined for x < 0), and C's 1 for
// pow(1, y) and pow(-1, ±inf) whatever y, NaN too (random function 6975).
static inline float rlx_pow(float x, float y) {
  if (y == 0.0f || x == 1.0f || (x == -1.0f && isinf(y))) {
    return 1.0f;
  }
  if (isnan(x) || isnan(y)) {
    return x + y;
  }
  if (x < 0.0f) {
    if (floor(y) != y) {
      return (x - x) / (x - x);
    }
    float r = pow(-x, y);
    float h = y * 0.5f;
    return floor(h) != h ? -r : r;
  }
  return pow(x, y);
}
`,
		hIntOps: `
// Integer division truncating toward zero; a zero divisor gives 0 and sets
// the status bit, instead of trapping.
static inline long rlx_idiv(long a, long b, device atomic_uint *status) {
  if (b == 0) {
    atomic_fetch_or_explicit(status, 2u, memory_order_relaxed);
    return 0;
  }
  if (b == -1) {
    return (long)(0ul - (ulong)a);
  }
  return a / b;
}
static inline long rlx_ipow(long a, long b) {
  ulong r = 1ul;
  ulong base = (ulong)a;
  while (b > 0) {
    if ((b & 1) != 0) {
      r = r * base;
    }
    base = base * base;
    b >>= 1;
  }
  return (long)r;
}
`,
		hCast: `
// float to integer: truncate toward zero, saturate, NaN to 0.
static inline long rlx_f2i(float x, float lo, float hi, long ilo, long ihi) {
  if (isnan(x)) {
    return 0;
  }
  if (x <= lo) {
    return ilo;
  }
  if (x >= hi) {
    return ihi;
  }
  return (long)trunc(x);
}
`,
		hTGSum: `
// Sum and max of one value per thread over a threadgroup: simd_sum inside
// each simdgroup, the partials through threadgroup memory, every thread
// folding them in simdgroup order. scratch holds one float per simdgroup;
// the second barrier lets the caller reuse it.
static inline float rlx_tg_sum(float v, threadgroup float *scratch, uint lane, uint sg, uint nthreads) {
  v = simd_sum(v);
  if (lane == 0) {
    scratch[sg] = v;
  }
  threadgroup_barrier(mem_flags::mem_threadgroup);
  float t = 0.0f;
  uint nsg = (nthreads + 31u) / 32u;
  for (uint s = 0; s < nsg; s++) {
    t += scratch[s];
  }
  threadgroup_barrier(mem_flags::mem_threadgroup);
  return t;
}
static inline float rlx_tg_max(float v, threadgroup float *scratch, uint lane, uint sg, uint nthreads) {
  v = simd_max(v);
  if (lane == 0) {
    scratch[sg] = v;
  }
  threadgroup_barrier(mem_flags::mem_threadgroup);
  float t = -INFINITY;
  uint nsg = (nthreads + 31u) / 32u;
  for (uint s = 0; s < nsg; s++) {
    t = fmax(t, scratch[s]);
  }
  threadgroup_barrier(mem_flags::mem_threadgroup);
  return t;
}
`,
		hHalf: `
static inline float rlx_half_bits(ushort h) { return (float)as_type<half>(h); }
`,
		hDequant: dequantHelpers,
		hTopK: `
// Top-k's order (kernels.TopK): larger values first, NaN above every
// number and NaNs equal, equal values (-0 and +0 too) by lower index. An
// element is the key pair (rlx_topk_key(v), ~i): it comes first exactly
// when its pair is the larger, high word first.
static inline uint rlx_topk_key(float v) {
  if (isnan(v)) {
    return 0xffffffffu;
  }
  const uint u = v == 0.0f ? 0u : as_type<uint>(v);
  return (u & 0x80000000u) != 0u ? ~u : (u | 0x80000000u);
}
static inline bool rlx_topk_above(uint ah, uint al, uint bh, uint bl) {
  return ah > bh || (ah == bh && al > bl);
}
`,
	}[h]
}

// helperDeps lists what a helper calls.
func helperDeps(h helper) []helper {
	switch h {
	case hUnary:
		return []helper{hErf, hLog1p}
	case hDequant:
		return []helper{hHalf}
	}
	return nil
}

// helperSet is the set of helpers the emitted kernels use.
type helperSet [numHelpers]bool

func (s *helperSet) use(h helper) {
	if s[h] {
		return
	}
	s[h] = true
	for _, d := range helperDeps(h) {
		s.use(d)
	}
}

func (s *helperSet) write(w *strings.Builder) {
	for h := range numHelpers {
		if !s[h] {
			continue
		}
		w.WriteString(helperSource(h))
	}
}
