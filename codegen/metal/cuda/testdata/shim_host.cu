// shim_host.cu: the CUDA shim's host-side half (vector types, swizzles,
// half and bfloat, math) run on the CPU: TestShimOnHost builds it with
// clang-19 -x cuda --cuda-host-only and runs it. Written in MSL spelling,
// through the shim's macros, as kernel text is.
#include <metal_stdlib>
#include <cstdio>

using namespace metal;

static int failures = 0;
#define CHECK(cond)                                                   \
  do {                                                                \
    if (!(cond)) {                                                    \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);     \
      failures++;                                                     \
    }                                                                 \
  } while (0)

static unsigned short f16_bits(_Float16 h) {
  unsigned short b;
  __builtin_memcpy(&b, &h, 2);
  return b;
}

static void test_half() {
  // Every half converts to the float that the compiler's _Float16 gives.
  for (unsigned b = 0; b < 65536; b++) {
    _Float16 h;
    unsigned short s = (unsigned short)b;
    __builtin_memcpy(&h, &s, 2);
    const float want = (float)h, got = rlx_h2f_soft(s);
    if (want != got && !(want != want && got != got)) {
      std::printf("FAIL half %#06x -> float: got %a, want %a\n", b, got, want);
      failures++;
      return;
    }
  }
  // Floats round to the half the compiler's conversion gives (round to
  // nearest even, overflow to infinity, subnormals), over every float
  // whose low 12 bits are 0x800 or 0x000 (ties and exact values) and a
  // sweep of others.
  unsigned checked = 0;
  for (unsigned long long u = 0; u < 0x100000000ull; u += 0x7ffull) {
    const unsigned bits = (unsigned)u;
    const float f = rlx_bits_f32(bits);
    if (f != f) continue;
    const unsigned short want = f16_bits((_Float16)f), got = rlx_f2h_soft(f);
    checked++;
    if (want != got) {
      std::printf("FAIL float %a (%#010x) -> half: got %#06x, want %#06x\n", f, bits, got, want);
      failures++;
      return;
    }
  }
  CHECK(checked > 2000000);
  CHECK(rlx_f2h_soft(65519.99f) == 0x7bff);
  CHECK(rlx_f2h_soft(65520.0f) == 0x7c00);
  CHECK(rlxm_isnan((float)half(rlx_bits_f32(0x7fc00001u))));
  half h = 1.5f;
  h += 2.0f;
  CHECK((float)h == 3.5f);
  CHECK(h * 2 == 7.0f);
}

static void test_bfloat() {
  CHECK(bfloat(1.0f).bits == 0x3f80);
  CHECK(bfloat(rlx_bits_f32(0x3f808000u)).bits == 0x3f80);  // tie, to even
  CHECK(bfloat(rlx_bits_f32(0x3f818000u)).bits == 0x3f82);  // tie, to even
  CHECK(bfloat(rlx_bits_f32(0x3f808001u)).bits == 0x3f81);
  CHECK(rlxm_isnan((float)bfloat(rlx_bits_f32(0x7f800001u))));
  CHECK((float)bfloat(-2.5f) == -2.5f);
}

static void test_vectors() {
  CHECK(sizeof(float4) == 16 && alignof(float4) == 16);
  CHECK(sizeof(float3) == 16 && alignof(float3) == 16);
  CHECK(sizeof(half4) == 8 && alignof(half4) == 8);
  CHECK(sizeof(half3) == 8 && sizeof(half2) == 4);
  CHECK(sizeof(uchar4) == 4 && sizeof(long2) == 16 && sizeof(uint3) == 16);

  float4 a = float4{1.0f, 2.0f, 3.0f, 4.0f};
  float4 b = float4(0.5f);
  CHECK(all(a + b == float4(1.5f, 2.5f, 3.5f, 4.5f)));
  CHECK(all(a * 2 == float4(2.0f, 4.0f, 6.0f, 8.0f)));
  CHECK(all(8.0f / a == float4(8.0f, 4.0f, 8.0f / 3.0f, 2.0f)));
  CHECK(a.x == 1.0f && a.w == 4.0f && a.r == 1.0f && a.a == 4.0f && a[2] == 3.0f);

  // Swizzles read, write, repeat, and assign from each other.
  float2 zw = a.zw;
  CHECK(zw.x == 3.0f && zw.y == 4.0f);
  float4 r = a.wzyx;
  CHECK(all(r == float4(4.0f, 3.0f, 2.0f, 1.0f)));
  CHECK(all(a.xxyy == float4(1.0f, 1.0f, 2.0f, 2.0f)));
  CHECK(all(a.bgr == float3(3.0f, 2.0f, 1.0f)));
  float4 c = a;
  c.xy = a.yx;  // same swizzle kind: only x and y change
  CHECK(all(c == float4(2.0f, 1.0f, 3.0f, 4.0f)));
  float4 d = float4(9.0f);
  d.zw = a.zw;  // one swizzle kind on both sides: still only z and w
  CHECK(all(d == float4(9.0f, 9.0f, 3.0f, 4.0f)));
  c.zw = float2(9.0f, 8.0f);
  CHECK(all(c == float4(2.0f, 1.0f, 9.0f, 8.0f)));
  c.xz += 1.0f;
  CHECK(all(c == float4(3.0f, 1.0f, 10.0f, 8.0f)));
  CHECK(all(a.xy + a.zw == float2(4.0f, 6.0f)));
  CHECK(all(-a.xy == float2(-1.0f, -2.0f)));
  c[3] = -1.0f;
  CHECK(c.w == -1.0f);

  // Constructors from smaller vectors, conversions, comparisons, select.
  CHECK(all(float4(a.xy, 7.0f, 8.0f) == float4(1.0f, 2.0f, 7.0f, 8.0f)));
  CHECK(all(float4(float3(1.0f, 2.0f, 3.0f), 4.0f) == a));
  half4 h = (half4)a;
  CHECK((float)h.z == 3.0f);
  float4 back = (float4)h;
  CHECK(all(back == a));
  int4 i = int4(7, -3, 5, 0);
  CHECK(all((i % 4) == int4(3, -3, 1, 0)));
  CHECK(all((i & 1) == int4(1, 1, 1, 0)));
  CHECK(all((uint4(1, 2, 3, 4) << 2u) == uint4(4, 8, 12, 16)));
  bool4 lt = a < float4(2.0f);
  CHECK(lt.x && !lt.y && any(lt) && !all(lt));
  CHECK(all(select(a, b, lt) == float4(0.5f, 2.0f, 3.0f, 4.0f)));
  CHECK(dot(a, a) == 30.0f);
  CHECK(dot(a.xy, a.zw) == 11.0f);
  CHECK(all(cross(float3(1.0f, 0.0f, 0.0f), float3(0.0f, 1.0f, 0.0f)) == float3(0.0f, 0.0f, 1.0f)));
  CHECK(as_type<uint>(1.0f) == 0x3f800000u);
  CHECK(as_type<float2>(uint2(0x3f800000u, 0x40000000u)).y == 2.0f);
  CHECK(as_type<float2>(uint4(0u, 0u, 0x3f800000u, 0x40000000u).zw).x == 1.0f);
  uchar4 u = uchar4(250, 1, 2, 3);
  CHECK((u + uchar4(10)).x == 4);  // wraps as uchar
}

static void test_math() {
  const float nan = rlx_bits_f32(0x7fc00000u);
  CHECK(max(1.0f, nan) == 1.0f && min(nan, -2.0f) == -2.0f);
  CHECK(max(3, 7) == 7 && min(3u, 7u) == 3u && max(-5l, -9l) == -5l);
  CHECK(clamp(5.0f, 0.0f, 1.0f) == 1.0f && clamp(-3, 0, 10) == 0);
  CHECK(abs(-3) == 3 && abs(-2.5f) == 2.5f && fabs(-0.0f) == 0.0f);
  CHECK(fract(-0.25f) == 0.75f && sign(-3.0f) == -1.0f && sign(0.0f) == 0.0f);
  CHECK(isnan(nan) && !isnan(1.0f) && isinf(INFINITY) && isfinite(1.0f) && signbit(-0.0f));
  CHECK(exp(0.0f) == 1.0f && exp(-INFINITY) == 0.0f && sqrt(4.0f) == 2.0f && rsqrt(4.0f) == 0.5f);
  CHECK(precise::exp(0.0f) == 1.0f && fast::sqrt(9.0f) == 3.0f);
  CHECK(all(fmax(float4(1.0f, nan, 3.0f, -1.0f), 0.0f) == float4(1.0f, 0.0f, 3.0f, 0.0f)));
  CHECK(all(clamp(float2(-1.0f, 2.0f), 0.0f, 1.0f) == float2(0.0f, 1.0f)));
  CHECK(all(abs(int2(-1, 2)) == int2(1, 2)));
  CHECK(all(isnan(float2(nan, 1.0f)) == bool2(true, false)));
  CHECK(step(1.0f, 0.5f) == 0.0f && mix(0.0f, 10.0f, 0.25f) == 2.5f);
  CHECK((float)max(half(1.0f), half(2.0f)) == 2.0f);
  CHECK(length(float2(3.0f, 4.0f)) == 5.0f);
  CHECK(select(1, 2, true) == 2);
  CHECK(numeric_limits<float>::max() == FLT_MAX && numeric_limits<int>::min() == -2147483647 - 1);
  CHECK((float)numeric_limits<half>::max() == 65504.0f && isinf(numeric_limits<float>::infinity()));
}

int main() {
  test_half();
  test_bfloat();
  test_vectors();
  test_math();
  if (failures) {
    std::printf("%d failures\n", failures);
    return 1;
  }
  std::printf("shim host test: all passed\n");
  return 0;
}
