// rlx_types.h: MSL's scalar and vector types for the CUDA shim
// (metal_stdlib includes it). Everything here works on the host too.
#ifndef RLX_CUDA_TYPES_H
#define RLX_CUDA_TYPES_H

namespace metal {

typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;

// ---- half -----------------------------------------------------------------
// half is a class over its IEEE binary16 bits. Arithmetic happens in float
// (the operands convert), and a float converts back implicitly, as a
// _Float16 would; the emitted kernels compute in float and convert at
// loads and stores anyway. The device converts with PTX's cvt (round to
// nearest even); the host with the same rounding in software.

RLX_HD unsigned rlx_f32_bits(float f) {
  unsigned u;
  RLX_MEMCPY(&u, &f, 4);
  return u;
}
RLX_HD float rlx_bits_f32(unsigned u) {
  float f;
  RLX_MEMCPY(&f, &u, 4);
  return f;
}

RLX_HD unsigned short rlx_f2h_soft(float f) {
  const unsigned x = rlx_f32_bits(f);
  const unsigned sign = (x >> 16) & 0x8000u;
  const unsigned ax = x & 0x7fffffffu;
  if (ax > 0x7f800000u) return (unsigned short)(sign | 0x7e00u);  // NaN stays a quiet NaN
  if (ax >= 0x477ff000u) return (unsigned short)(sign | 0x7c00u);  // from 65520 up: infinity
  if (ax < 0x38800000u) {  // below 2^-14: a subnormal half or zero
    if (ax < 0x33000000u) return (unsigned short)sign;  // below 2^-25: zero
    const unsigned e = ax >> 23;
    const unsigned m = (ax & 0x7fffffu) | 0x800000u;
    const unsigned shift = 126u - e;  // 14..24: units of 2^-24
    unsigned r = m >> shift;
    const unsigned rem = m & ((1u << shift) - 1u), half_way = 1u << (shift - 1u);
    if (rem > half_way || (rem == half_way && (r & 1u))) r++;
    return (unsigned short)(sign | r);
  }
  unsigned r = (ax >> 13) - (112u << 10);
  const unsigned rem = ax & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) r++;  // a carry into the exponent is right
  return (unsigned short)(sign | r);
}

RLX_HD float rlx_h2f_soft(unsigned short h) {
  const unsigned s = (unsigned)(h & 0x8000u) << 16;
  const unsigned e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0) {
    const float v = (float)m * 5.9604644775390625e-8f;  // m * 2^-24, exact
    return s ? -v : v;
  }
  if (e == 31) return rlx_bits_f32(s | 0x7f800000u | (m << 13));
  return rlx_bits_f32(s | ((e + 112u) << 23) | (m << 13));
}

RLX_HD unsigned short rlx_f2h(float f) {
#ifdef __CUDA_ARCH__
  unsigned short r;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(r) : "f"(f));
  return r;
#else
  return rlx_f2h_soft(f);
#endif
}

RLX_HD float rlx_h2f(unsigned short h) {
#ifdef __CUDA_ARCH__
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
  return f;
#else
  return rlx_h2f_soft(h);
#endif
}

struct rlx_half {
  unsigned short bits;
  rlx_half() = default;
  template <class U, class = typename std::enable_if<std::is_arithmetic<U>::value>::type>
  RLX_HD rlx_half(U v) : bits(rlx_f2h((float)v)) {}
  RLX_HD operator float() const { return rlx_h2f(bits); }
  RLX_HD rlx_half &operator+=(float v) { return *this = rlx_half((float)*this + v); }
  RLX_HD rlx_half &operator-=(float v) { return *this = rlx_half((float)*this - v); }
  RLX_HD rlx_half &operator*=(float v) { return *this = rlx_half((float)*this * v); }
  RLX_HD rlx_half &operator/=(float v) { return *this = rlx_half((float)*this / v); }
};

// ---- bfloat ---------------------------------------------------------------
// The same as the CPU shim's: round to nearest even, a NaN stays a quiet
// NaN, in software on both sides so that the two shims agree bit for bit.

RLX_HD unsigned short rlx_f2bf(float f) {
  unsigned u = rlx_f32_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((u >> 16) | 0x40u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (unsigned short)(u >> 16);
}

struct rlx_bfloat {
  unsigned short bits;
  rlx_bfloat() = default;
  template <class U, class = typename std::enable_if<std::is_arithmetic<U>::value>::type>
  RLX_HD rlx_bfloat(U v) : bits(rlx_f2bf((float)v)) {}
  RLX_HD operator float() const { return rlx_bits_f32((unsigned)bits << 16); }
  RLX_HD rlx_bfloat &operator+=(float v) { return *this = rlx_bfloat((float)*this + v); }
  RLX_HD rlx_bfloat &operator-=(float v) { return *this = rlx_bfloat((float)*this - v); }
  RLX_HD rlx_bfloat &operator*=(float v) { return *this = rlx_bfloat((float)*this * v); }
  RLX_HD rlx_bfloat &operator/=(float v) { return *this = rlx_bfloat((float)*this / v); }
};

template <class T>
struct rlx_is_scalar
    : std::integral_constant<bool, std::is_arithmetic<T>::value || std::is_same<T, rlx_half>::value ||
                                       std::is_same<T, rlx_bfloat>::value> {};

// ---- vectors ----------------------------------------------------------------
// vec<T, N> has MSL's layout: N elements, a 3-vector padded to 4, aligned
// to its size (float4 to 16 bytes, half4 to 8), so that the kernels' vector
// loads through cast pointers are single wide loads. The components are
// union members: s[i] for indexing, x/y/z/w and r/g/b/a, and a swz proxy
// for every swizzle (swizzles<N>.inc). The union's members all hold T, so
// reading one after writing another is the usual type punning that nvcc
// and clang define.

template <class T, int N>
struct vec;

// swz is a swizzle: a view of the vector's N elements that reads (and,
// for distinct indices, writes) elements I... in order.
template <class T, int N, int... I>
struct swz {
  T s[N];
  typedef vec<T, (int)sizeof...(I)> value_type;
  RLX_HD value_type get() const { return value_type(s[I]...); }
  RLX_HD operator value_type() const { return get(); }
  RLX_HD swz &operator=(const value_type &v) {
    int k = 0;
    int unused[] = {(s[I] = v.s[k++], 0)...};
    (void)unused;
    return *this;
  }
  // A swizzle assigned from one of the same kind copies its selected
  // elements, not the whole storage.
  RLX_HD swz &operator=(const swz &o) { return *this = o.get(); }
};

template <class V>
struct rlx_is_swz : std::false_type {};
template <class T, int N, int... I>
struct rlx_is_swz<swz<T, N, I...>> : std::true_type {};

template <class V>
struct rlx_is_vec : std::false_type {};
template <class T, int N>
struct rlx_is_vec<vec<T, N>> : std::true_type {};

// rlx_val turns a swizzle into its vector and leaves anything else alone,
// so that one generic operator serves swizzles on either side.
template <class T, int N, int... I>
RLX_HD vec<T, (int)sizeof...(I)> rlx_val(const swz<T, N, I...> &v) {
  return v.get();
}
template <class V, class = typename std::enable_if<!rlx_is_swz<V>::value>::type>
RLX_HD const V &rlx_val(const V &v) {
  return v;
}

// A vector's assignment copies element by element. Copying its bytes at
// once with memcpy (RLX_VEC_COPY_BYTES, kept for bench/gpu's probe) was
// miscompiled by nvcc 13.0 for a half4 whose elements a loop had stored
// one by one: the low byte of element 3 came out zero, at ptxas -O0 and
// without FMA contraction too (docs/gpu-check.md#what-the-gpu-found).
template <class T, int N>
RLX_HD void rlx_copy_storage(void *dst, const void *src, size_t bytes) {
#ifdef RLX_VEC_COPY_BYTES
  RLX_MEMCPY(dst, src, bytes);
#else
  (void)bytes;
  for (int i = 0; i < N; i++) ((T *)dst)[i] = ((const T *)src)[i];
#endif
}

#define RLX_VEC_COMMON(N)                                                    \
  vec() = default;                                                           \
  RLX_HD vec(T v) {                                                          \
    for (int i = 0; i < N; i++) s[i] = v;                                    \
  }                                                                          \
  template <class U>                                                         \
  RLX_HD explicit vec(const vec<U, N> &o) {                                  \
    for (int i = 0; i < N; i++) s[i] = T(o.s[i]);                            \
  }                                                                          \
  RLX_HD vec &operator=(const vec &o) {                                      \
    rlx_copy_storage<T, N>((void *)this, (const void *)&o, sizeof(vec));       \
    return *this;                                                            \
  }                                                                          \
  RLX_HD T &operator[](int i) { return s[i]; }                               \
  RLX_HD const T &operator[](int i) const { return s[i]; }

template <class T>
struct alignas(2 * sizeof(T)) vec<T, 2> {
  union {
    T s[2];
    struct {
      T x, y;
    };
    struct {
      T r, g;
    };
#include "swizzles2.inc"
  };
  RLX_VEC_COMMON(2)
  RLX_HD vec(T a, T b) {
    s[0] = a;
    s[1] = b;
  }
};

template <class T>
struct alignas(4 * sizeof(T)) vec<T, 3> {
  union {
    T s[3];
    struct {
      T x, y, z;
    };
    struct {
      T r, g, b;
    };
#include "swizzles3.inc"
  };
  RLX_VEC_COMMON(3)
  RLX_HD vec(T a, T b, T c) {
    s[0] = a;
    s[1] = b;
    s[2] = c;
  }
  RLX_HD vec(const vec<T, 2> &a, T c) : vec(a.s[0], a.s[1], c) {}
  RLX_HD vec(T a, const vec<T, 2> &b) : vec(a, b.s[0], b.s[1]) {}
};

template <class T>
struct alignas(4 * sizeof(T)) vec<T, 4> {
  union {
    T s[4];
    struct {
      T x, y, z, w;
    };
    struct {
      T r, g, b, a;
    };
#include "swizzles4.inc"
  };
  RLX_VEC_COMMON(4)
  RLX_HD vec(T a, T b, T c, T d) {
    s[0] = a;
    s[1] = b;
    s[2] = c;
    s[3] = d;
  }
  RLX_HD vec(const vec<T, 2> &a, T c, T d) : vec(a.s[0], a.s[1], c, d) {}
  RLX_HD vec(T a, const vec<T, 2> &b, T d) : vec(a, b.s[0], b.s[1], d) {}
  RLX_HD vec(T a, T b, const vec<T, 2> &c) : vec(a, b, c.s[0], c.s[1]) {}
  RLX_HD vec(const vec<T, 2> &a, const vec<T, 2> &b) : vec(a.s[0], a.s[1], b.s[0], b.s[1]) {}
  RLX_HD vec(const vec<T, 3> &a, T d) : vec(a.s[0], a.s[1], a.s[2], d) {}
  RLX_HD vec(T a, const vec<T, 3> &b) : vec(a, b.s[0], b.s[1], b.s[2]) {}
};
#undef RLX_VEC_COMMON

// Operators, element by element, as MSL defines them: vector with vector
// of the same type, vector with scalar (the scalar converted to the
// element type, then broadcast), and, through rlx_val, swizzles on either
// side. Comparisons give bool vectors.
template <class S>
using rlx_if_scalar = typename std::enable_if<rlx_is_scalar<S>::value>::type;
template <class A, class B>
using rlx_if_swz2 = typename std::enable_if<rlx_is_swz<A>::value || rlx_is_swz<B>::value>::type;

#define RLX_VEC_BINOP(OP)                                                                           \
  template <class T, int N>                                                                         \
  RLX_HD vec<T, N> operator OP(const vec<T, N> &a, const vec<T, N> &b) {                            \
    vec<T, N> r;                                                                                    \
    for (int i = 0; i < N; i++) r.s[i] = T(a.s[i] OP b.s[i]);                                       \
    return r;                                                                                       \
  }                                                                                                 \
  template <class T, int N, class S, class = rlx_if_scalar<S>>                                      \
  RLX_HD vec<T, N> operator OP(const vec<T, N> &a, const S &b) {                                    \
    vec<T, N> r;                                                                                    \
    for (int i = 0; i < N; i++) r.s[i] = T(a.s[i] OP T(b));                                         \
    return r;                                                                                       \
  }                                                                                                 \
  template <class T, int N, class S, class = rlx_if_scalar<S>>                                      \
  RLX_HD vec<T, N> operator OP(const S &a, const vec<T, N> &b) {                                    \
    vec<T, N> r;                                                                                    \
    for (int i = 0; i < N; i++) r.s[i] = T(T(a) OP b.s[i]);                                         \
    return r;                                                                                       \
  }                                                                                                 \
  template <class A, class B, class = rlx_if_swz2<A, B>>                                            \
  RLX_HD auto operator OP(const A &a, const B &b)->decltype(rlx_val(a) OP rlx_val(b)) {             \
    return rlx_val(a) OP rlx_val(b);                                                                \
  }                                                                                                 \
  template <class T, int N, class U>                                                                \
  RLX_HD vec<T, N> &operator OP##=(vec<T, N> &a, const U &b) {                                      \
    return a = a OP rlx_val(b);                                                                     \
  }                                                                                                 \
  template <class A, class U, class = typename std::enable_if<rlx_is_swz<A>::value>::type>          \
  RLX_HD A &operator OP##=(A &a, const U &b) {                                                      \
    a = rlx_val(a) OP rlx_val(b);                                                                   \
    return a;                                                                                       \
  }

RLX_VEC_BINOP(+)
RLX_VEC_BINOP(-)
RLX_VEC_BINOP(*)
RLX_VEC_BINOP(/)
RLX_VEC_BINOP(%)
RLX_VEC_BINOP(&)
RLX_VEC_BINOP(|)
RLX_VEC_BINOP(^)
RLX_VEC_BINOP(<<)
RLX_VEC_BINOP(>>)
#undef RLX_VEC_BINOP

#define RLX_VEC_CMP(OP)                                                                 \
  template <class T, int N>                                                             \
  RLX_HD vec<bool, N> operator OP(const vec<T, N> &a, const vec<T, N> &b) {             \
    vec<bool, N> r;                                                                     \
    for (int i = 0; i < N; i++) r.s[i] = a.s[i] OP b.s[i];                              \
    return r;                                                                           \
  }                                                                                     \
  template <class T, int N, class S, class = rlx_if_scalar<S>>                          \
  RLX_HD vec<bool, N> operator OP(const vec<T, N> &a, const S &b) {                     \
    vec<bool, N> r;                                                                     \
    for (int i = 0; i < N; i++) r.s[i] = a.s[i] OP T(b);                                \
    return r;                                                                           \
  }                                                                                     \
  template <class T, int N, class S, class = rlx_if_scalar<S>>                          \
  RLX_HD vec<bool, N> operator OP(const S &a, const vec<T, N> &b) {                     \
    vec<bool, N> r;                                                                     \
    for (int i = 0; i < N; i++) r.s[i] = T(a) OP b.s[i];                                \
    return r;                                                                           \
  }                                                                                     \
  template <class A, class B, class = rlx_if_swz2<A, B>>                                \
  RLX_HD auto operator OP(const A &a, const B &b)->decltype(rlx_val(a) OP rlx_val(b)) { \
    return rlx_val(a) OP rlx_val(b);                                                    \
  }

RLX_VEC_CMP(==)
RLX_VEC_CMP(!=)
RLX_VEC_CMP(<)
RLX_VEC_CMP(<=)
RLX_VEC_CMP(>)
RLX_VEC_CMP(>=)
#undef RLX_VEC_CMP

#define RLX_VEC_UNARY(OP, R)                                                                        \
  template <class T, int N>                                                                         \
  RLX_HD vec<R, N> operator OP(const vec<T, N> &a) {                                                \
    vec<R, N> r;                                                                                    \
    for (int i = 0; i < N; i++) r.s[i] = R(OP a.s[i]);                                              \
    return r;                                                                                       \
  }                                                                                                 \
  template <class A, class = typename std::enable_if<rlx_is_swz<A>::value>::type>                   \
  RLX_HD auto operator OP(const A &a)->decltype(OP rlx_val(a)) {                                    \
    return OP rlx_val(a);                                                                           \
  }

RLX_VEC_UNARY(-, T)
RLX_VEC_UNARY(+, T)
RLX_VEC_UNARY(~, T)
RLX_VEC_UNARY(!, bool)
#undef RLX_VEC_UNARY

// The MSL names of the vector types, under rlx_ prefixes here
// (rlx_msl_names.h maps float4 to rlx_float4, …).
#define RLX_VEC_TYPES(T, NAME)          \
  typedef vec<T, 2> rlx_##NAME##2;      \
  typedef vec<T, 3> rlx_##NAME##3;      \
  typedef vec<T, 4> rlx_##NAME##4;
RLX_VEC_TYPES(bool, bool)
RLX_VEC_TYPES(char, char)
RLX_VEC_TYPES(uchar, uchar)
RLX_VEC_TYPES(short, short)
RLX_VEC_TYPES(ushort, ushort)
RLX_VEC_TYPES(int, int)
RLX_VEC_TYPES(uint, uint)
RLX_VEC_TYPES(long, long)
RLX_VEC_TYPES(ulong, ulong)
RLX_VEC_TYPES(float, float)
RLX_VEC_TYPES(rlx_half, half)
RLX_VEC_TYPES(rlx_bfloat, bfloat)
#undef RLX_VEC_TYPES

// as_type: the bits of one type as another of the same size.
template <class T, class U>
RLX_HD T as_type(const U &u) {
  static_assert(sizeof(T) == sizeof(U), "as_type needs types of one size");
  T t;
  RLX_MEMCPY((void *)&t, (const void *)&u, sizeof t);
  return t;
}
// A swizzle's bits are those of the vector it names (t.xy of a uint4 is
// a uint2), not of the storage it points into.
template <class T, class E, int N, int... I>
RLX_HD T as_type(const swz<E, N, I...> &u) {
  return as_type<T>(u.get());
}

}  // namespace metal

#endif
