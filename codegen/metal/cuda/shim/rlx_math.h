// rlx_math.h: MSL's math functions for the CUDA shim (metal_stdlib
// includes it). They are named rlxm_<name> here and rlx_msl_names.h maps
// the MSL names onto them, because CUDA declares its own float overloads
// of exp, max, … in the global namespace, and two functions of one
// signature found through `using namespace metal;` would be ambiguous.
//
// Scalars: float through CUDA's (or the C library's) correctly rounded or
// few-ulp float functions; half and bfloat computed in float and rounded
// back; integers for abs, min, max and clamp, one overload per type so
// that mixed types are as ambiguous as they are in MSL. Vectors and
// swizzles: element by element.
#ifndef RLX_CUDA_MATH_H
#define RLX_CUDA_MATH_H

namespace metal {

// Classification by bits: exact on both sides, whatever the math headers
// declare.
RLX_HD bool rlxm_isnan(float x) { return (rlx_f32_bits(x) & 0x7fffffffu) > 0x7f800000u; }
RLX_HD bool rlxm_isinf(float x) { return (rlx_f32_bits(x) & 0x7fffffffu) == 0x7f800000u; }
RLX_HD bool rlxm_isfinite(float x) { return (rlx_f32_bits(x) & 0x7fffffffu) < 0x7f800000u; }
RLX_HD bool rlxm_signbit(float x) { return (rlx_f32_bits(x) >> 31) != 0; }

// One-argument float functions, and their half and bfloat forms.
#define RLX_MATH1(NAME, EXPR)                                                    \
  RLX_HD float rlxm_##NAME(float x) { return EXPR; }                             \
  RLX_HD rlx_half rlxm_##NAME(rlx_half h) { return rlx_half(rlxm_##NAME((float)h)); } \
  RLX_HD rlx_bfloat rlxm_##NAME(rlx_bfloat h) { return rlx_bfloat(rlxm_##NAME((float)h)); }

RLX_MATH1(exp, expf(x))
RLX_MATH1(exp2, exp2f(x))
RLX_MATH1(exp10, exp10f(x))
RLX_MATH1(log, logf(x))
RLX_MATH1(log2, log2f(x))
RLX_MATH1(log10, log10f(x))
RLX_MATH1(sqrt, sqrtf(x))
// Two correctly rounded operations, as the CPU shim computes it; CUDA's
// rsqrtf is a 2-ulp approximation.
RLX_MATH1(rsqrt, 1.0f / sqrtf(x))
RLX_MATH1(sin, sinf(x))
RLX_MATH1(cos, cosf(x))
RLX_MATH1(tan, tanf(x))
RLX_MATH1(sinh, sinhf(x))
RLX_MATH1(cosh, coshf(x))
RLX_MATH1(tanh, tanhf(x))
RLX_MATH1(asin, asinf(x))
RLX_MATH1(acos, acosf(x))
RLX_MATH1(atan, atanf(x))
RLX_MATH1(floor, floorf(x))
RLX_MATH1(ceil, ceilf(x))
RLX_MATH1(trunc, truncf(x))
RLX_MATH1(rint, rintf(x))
RLX_MATH1(round, roundf(x))
RLX_MATH1(fabs, fabsf(x))
RLX_MATH1(fract, fminf(x - floorf(x), 0x1.fffffep-1f))
RLX_MATH1(saturate, fminf(fmaxf(x, 0.0f), 1.0f))
RLX_MATH1(sign, rlxm_isnan(x) ? 0.0f : (x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : x)))
#undef RLX_MATH1

// Two-argument float functions.
#define RLX_MATH2(NAME, EXPR)                                                                     \
  RLX_HD float rlxm_##NAME(float x, float y) { return EXPR; }                                     \
  RLX_HD rlx_half rlxm_##NAME(rlx_half a, rlx_half b) { return rlx_half(rlxm_##NAME((float)a, (float)b)); } \
  RLX_HD rlx_bfloat rlxm_##NAME(rlx_bfloat a, rlx_bfloat b) { return rlx_bfloat(rlxm_##NAME((float)a, (float)b)); }

RLX_MATH2(pow, powf(x, y))
RLX_MATH2(powr, powf(x, y))
RLX_MATH2(atan2, atan2f(x, y))
RLX_MATH2(fmax, fmaxf(x, y))
RLX_MATH2(fmin, fminf(x, y))
RLX_MATH2(copysign, copysignf(x, y))
RLX_MATH2(fmod, fmodf(x, y))
RLX_MATH2(step, y < x ? 0.0f : 1.0f)
RLX_MATH2(divide, x / y)
#undef RLX_MATH2

// MSL's max and min of floats are fmax and fmin (a NaN operand loses).
RLX_HD float rlxm_max(float a, float b) { return fmaxf(a, b); }
RLX_HD float rlxm_min(float a, float b) { return fminf(a, b); }
RLX_HD rlx_half rlxm_max(rlx_half a, rlx_half b) { return rlx_half(fmaxf((float)a, (float)b)); }
RLX_HD rlx_half rlxm_min(rlx_half a, rlx_half b) { return rlx_half(fminf((float)a, (float)b)); }
RLX_HD float rlxm_clamp(float x, float lo, float hi) { return fminf(fmaxf(x, lo), hi); }
RLX_HD rlx_half rlxm_clamp(rlx_half x, rlx_half lo, rlx_half hi) {
  return rlx_half(rlxm_clamp((float)x, (float)lo, (float)hi));
}
RLX_HD float rlxm_fma(float a, float b, float c) { return fmaf(a, b, c); }
RLX_HD float rlxm_mix(float x, float y, float a) { return x + (y - x) * a; }
RLX_HD float rlxm_abs(float x) { return fabsf(x); }
RLX_HD rlx_half rlxm_abs(rlx_half x) { return rlx_half(fabsf((float)x)); }

#define RLX_INT_MATH(T)                                                             \
  RLX_HD T rlxm_max(T a, T b) { return a > b ? a : b; }                             \
  RLX_HD T rlxm_min(T a, T b) { return a < b ? a : b; }                             \
  RLX_HD T rlxm_clamp(T x, T lo, T hi) { return x < lo ? lo : (x > hi ? hi : x); }
RLX_INT_MATH(char)
RLX_INT_MATH(uchar)
RLX_INT_MATH(short)
RLX_INT_MATH(ushort)
RLX_INT_MATH(int)
RLX_INT_MATH(uint)
RLX_INT_MATH(long)
RLX_INT_MATH(ulong)
#undef RLX_INT_MATH
RLX_HD int rlxm_abs(int x) { return x < 0 ? -x : x; }
RLX_HD long rlxm_abs(long x) { return x < 0 ? -x : x; }
RLX_HD short rlxm_abs(short x) { return (short)(x < 0 ? -x : x); }
RLX_HD char rlxm_abs(char x) { return (char)(x < 0 ? -x : x); }

RLX_HD bool rlxm_isnan(rlx_half x) { return rlxm_isnan((float)x); }
RLX_HD bool rlxm_isinf(rlx_half x) { return rlxm_isinf((float)x); }
RLX_HD bool rlxm_isfinite(rlx_half x) { return rlxm_isfinite((float)x); }
RLX_HD bool rlxm_signbit(rlx_half x) { return (x.bits >> 15) != 0; }

// select(a, b, c) is c ? b : a.
template <class T>
RLX_HD T rlxm_select(T a, T b, bool c) {
  return c ? b : a;
}

// Vectors and swizzles: every function above, element by element. A
// swizzle argument is first turned into its vector.
template <class T, int N, class F>
RLX_HD auto rlx_map(const vec<T, N> &v, F f) -> vec<decltype(f(v.s[0])), N> {
  vec<decltype(f(v.s[0])), N> r;
  for (int i = 0; i < N; i++) r.s[i] = f(v.s[i]);
  return r;
}

#define RLX_VMATH1(NAME)                                                                       \
  template <class T, int N>                                                                    \
  RLX_HD auto rlxm_##NAME(const vec<T, N> &v)->vec<decltype(rlxm_##NAME(v.s[0])), N> {         \
    vec<decltype(rlxm_##NAME(v.s[0])), N> r;                                                   \
    for (int i = 0; i < N; i++) r.s[i] = rlxm_##NAME(v.s[i]);                                  \
    return r;                                                                                  \
  }                                                                                            \
  template <class A, class = typename std::enable_if<rlx_is_swz<A>::value>::type>              \
  RLX_HD auto rlxm_##NAME(const A &a)->decltype(rlxm_##NAME(a.get())) {                        \
    return rlxm_##NAME(a.get());                                                               \
  }
RLX_VMATH1(exp)
RLX_VMATH1(exp2)
RLX_VMATH1(exp10)
RLX_VMATH1(log)
RLX_VMATH1(log2)
RLX_VMATH1(log10)
RLX_VMATH1(sqrt)
RLX_VMATH1(rsqrt)
RLX_VMATH1(sin)
RLX_VMATH1(cos)
RLX_VMATH1(tan)
RLX_VMATH1(sinh)
RLX_VMATH1(cosh)
RLX_VMATH1(tanh)
RLX_VMATH1(asin)
RLX_VMATH1(acos)
RLX_VMATH1(atan)
RLX_VMATH1(floor)
RLX_VMATH1(ceil)
RLX_VMATH1(trunc)
RLX_VMATH1(rint)
RLX_VMATH1(round)
RLX_VMATH1(fabs)
RLX_VMATH1(fract)
RLX_VMATH1(saturate)
RLX_VMATH1(sign)
RLX_VMATH1(abs)
RLX_VMATH1(isnan)
RLX_VMATH1(isinf)
RLX_VMATH1(isfinite)
RLX_VMATH1(signbit)
#undef RLX_VMATH1

// Two- and three-argument functions on vectors: the other arguments may be
// vectors of the same type or scalars (broadcast).
template <class T, int N>
RLX_HD T rlx_at(const vec<T, N> &v, int i) {
  return v.s[i];
}
template <class T, int N, class S, class = rlx_if_scalar<S>>
RLX_HD T rlx_at(const S &s, int) {
  return T(s);
}

#define RLX_VMATH2(NAME)                                                                   \
  template <class T, int N, class B>                                                       \
  RLX_HD vec<T, N> rlxm_##NAME(const vec<T, N> &a, const B &b) {                           \
    vec<T, N> r;                                                                           \
    const auto bv = rlx_val(b);                                                            \
    for (int i = 0; i < N; i++) r.s[i] = rlxm_##NAME(a.s[i], rlx_at<T, N>(bv, i));         \
    return r;                                                                              \
  }                                                                                        \
  template <class A, class B, class = typename std::enable_if<rlx_is_swz<A>::value>::type> \
  RLX_HD auto rlxm_##NAME(const A &a, const B &b)->decltype(rlxm_##NAME(a.get(), b)) {     \
    return rlxm_##NAME(a.get(), b);                                                        \
  }
RLX_VMATH2(pow)
RLX_VMATH2(powr)
RLX_VMATH2(atan2)
RLX_VMATH2(fmax)
RLX_VMATH2(fmin)
RLX_VMATH2(max)
RLX_VMATH2(min)
RLX_VMATH2(copysign)
RLX_VMATH2(fmod)
RLX_VMATH2(step)
RLX_VMATH2(divide)
#undef RLX_VMATH2

#define RLX_VMATH3(NAME)                                                                        \
  template <class T, int N, class B, class C>                                                   \
  RLX_HD vec<T, N> rlxm_##NAME(const vec<T, N> &a, const B &b, const C &c) {                    \
    vec<T, N> r;                                                                                \
    const auto bv = rlx_val(b);                                                                 \
    const auto cv = rlx_val(c);                                                                 \
    for (int i = 0; i < N; i++) r.s[i] = rlxm_##NAME(a.s[i], rlx_at<T, N>(bv, i), rlx_at<T, N>(cv, i)); \
    return r;                                                                                   \
  }
RLX_VMATH3(clamp)
RLX_VMATH3(fma)
RLX_VMATH3(mix)
#undef RLX_VMATH3

template <class T, int N>
RLX_HD vec<T, N> rlxm_select(const vec<T, N> &a, const vec<T, N> &b, const vec<bool, N> &c) {
  vec<T, N> r;
  for (int i = 0; i < N; i++) r.s[i] = c.s[i] ? b.s[i] : a.s[i];
  return r;
}

template <int N>
RLX_HD bool rlxm_all(const vec<bool, N> &v) {
  for (int i = 0; i < N; i++)
    if (!v.s[i]) return false;
  return true;
}
template <int N>
RLX_HD bool rlxm_any(const vec<bool, N> &v) {
  for (int i = 0; i < N; i++)
    if (v.s[i]) return true;
  return false;
}
RLX_HD bool rlxm_all(bool v) { return v; }
RLX_HD bool rlxm_any(bool v) { return v; }

template <class A, class B>
RLX_HD auto rlxm_dot(const A &a, const B &b) -> decltype(rlx_val(a).s[0] * rlx_val(b).s[0]) {
  const auto x = rlx_val(a);
  const auto y = rlx_val(b);
  auto r = x.s[0] * y.s[0];
  for (int i = 1; i < (int)(sizeof(x.s) / sizeof(x.s[0])); i++) r += x.s[i] * y.s[i];
  return r;
}
template <class A>
RLX_HD auto rlxm_length(const A &a) -> decltype(rlxm_sqrt(rlxm_dot(a, a))) {
  return rlxm_sqrt(rlxm_dot(a, a));
}
template <class A>
RLX_HD auto rlxm_normalize(const A &a) -> decltype(rlx_val(a) * rlxm_rsqrt(rlxm_dot(a, a))) {
  return rlx_val(a) * rlxm_rsqrt(rlxm_dot(a, a));
}
template <class A, class B>
RLX_HD auto rlxm_distance(const A &a, const B &b) -> decltype(rlxm_length(rlx_val(a) - rlx_val(b))) {
  return rlxm_length(rlx_val(a) - rlx_val(b));
}
template <class T>
RLX_HD vec<T, 3> rlxm_cross(const vec<T, 3> &a, const vec<T, 3> &b) {
  return vec<T, 3>(a.s[1] * b.s[2] - a.s[2] * b.s[1], a.s[2] * b.s[0] - a.s[0] * b.s[2],
                   a.s[0] * b.s[1] - a.s[1] * b.s[0]);
}

// numeric_limits, with max and min spelled as the kernel text's macros
// turn them (numeric_limits<float>::max() reaches rlxm_max here).
template <class T>
struct numeric_limits;
template <>
struct numeric_limits<float> {
  static RLX_HD float rlxm_max() { return FLT_MAX; }
  static RLX_HD float rlxm_min() { return FLT_MIN; }
  static RLX_HD float lowest() { return -FLT_MAX; }
  static RLX_HD float epsilon() { return FLT_EPSILON; }
  static RLX_HD float infinity() { return rlx_bits_f32(0x7f800000u); }
  static RLX_HD float quiet_NaN() { return rlx_bits_f32(0x7fc00000u); }
};
template <>
struct numeric_limits<rlx_half> {
  static RLX_HD rlx_half rlxm_max() { return rlx_half(65504.0f); }
  static RLX_HD rlx_half rlxm_min() { return rlx_half(6.103515625e-05f); }
  static RLX_HD rlx_half lowest() { return rlx_half(-65504.0f); }
  static RLX_HD rlx_half epsilon() { return rlx_half(0.0009765625f); }
  static RLX_HD rlx_half infinity() { return rlx_half(rlx_bits_f32(0x7f800000u)); }
  static RLX_HD rlx_half quiet_NaN() { return rlx_half(rlx_bits_f32(0x7fc00000u)); }
};
#define RLX_INT_LIMITS(T, LO, HI)                        \
  template <>                                            \
  struct numeric_limits<T> {                             \
    static RLX_HD T rlxm_max() { return HI; }            \
    static RLX_HD T rlxm_min() { return LO; }            \
    static RLX_HD T lowest() { return LO; }              \
  };
RLX_INT_LIMITS(int, (int)0x80000000u, 0x7fffffff)
RLX_INT_LIMITS(uint, 0u, 0xffffffffu)
RLX_INT_LIMITS(short, (short)-32768, (short)32767)
RLX_INT_LIMITS(ushort, (ushort)0, (ushort)65535)
RLX_INT_LIMITS(char, (char)-128, (char)127)
RLX_INT_LIMITS(uchar, (uchar)0, (uchar)255)
RLX_INT_LIMITS(long, (long)0x8000000000000000ul, 0x7fffffffffffffffl)
RLX_INT_LIMITS(ulong, 0ul, 0xfffffffffffffffful)
#undef RLX_INT_LIMITS

// precise:: and fast:: name the same functions: the shim's are accurate,
// which is a valid precise and a valid fast implementation.
#define RLX_MATH_NS_FNS                                                                    \
  using metal::rlxm_exp;                                                                   \
  using metal::rlxm_exp2;                                                                  \
  using metal::rlxm_exp10;                                                                 \
  using metal::rlxm_log;                                                                   \
  using metal::rlxm_log2;                                                                  \
  using metal::rlxm_log10;                                                                 \
  using metal::rlxm_sqrt;                                                                  \
  using metal::rlxm_rsqrt;                                                                 \
  using metal::rlxm_sin;                                                                   \
  using metal::rlxm_cos;                                                                   \
  using metal::rlxm_tan;                                                                   \
  using metal::rlxm_tanh;                                                                  \
  using metal::rlxm_pow;                                                                   \
  using metal::rlxm_powr;                                                                  \
  using metal::rlxm_divide;                                                                \
  using metal::rlxm_fmax;                                                                  \
  using metal::rlxm_fmin;                                                                  \
  using metal::rlxm_max;                                                                   \
  using metal::rlxm_min;                                                                   \
  using metal::rlxm_clamp;                                                                 \
  using metal::rlxm_normalize;                                                             \
  using metal::rlxm_length;
namespace precise {
RLX_MATH_NS_FNS
}  // namespace precise
namespace fast {
RLX_MATH_NS_FNS
}  // namespace fast
#undef RLX_MATH_NS_FNS

}  // namespace metal

#endif
