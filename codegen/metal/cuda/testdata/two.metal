// A hand-written source in the emitter's layout, for the generator's tests.
#include <metal_stdlib>
using namespace metal;

static inline float rlx_sq(float x) { return x * x; }

// sum of squares of each row of 64, by one simdgroup per row
kernel void row_sq(
    device const float *x [[buffer(0)]],
    device float *y [[buffer(1)]],
    threadgroup float *tg [[threadgroup(0)]],
    uint3 tgpos [[threadgroup_position_in_grid]],
    uint3 tpos [[thread_position_in_threadgroup]],
    uint lane [[thread_index_in_simdgroup]],
    uint sg [[simdgroup_index_in_threadgroup]],
    uint3 tptg [[threads_per_threadgroup]])
{
  float s = 0.0f;
  for (uint i = tpos.x; i < 64u; i += tptg.x) {
    s += rlx_sq(x[tgpos.x * 64u + i]);
  }
  s = simd_sum(s);
  if (lane == 0) {
    tg[sg] = s;
  }
  threadgroup_barrier(mem_flags::mem_threadgroup);
  if (tpos.x == 0) {
    y[tgpos.x] = tg[0] + tg[1];
  }
}

// scale by a constant buffer, one thread per element
kernel void scale(
    device const half *x [[buffer(0)]],
    constant float *k [[buffer(1)]],
    device half *y [[buffer(2)]],
    uint gid [[thread_position_in_grid]],
    ushort lane [[thread_index_in_simdgroup]])
{
  if (gid >= 100u) {
    return;
  }
  y[gid] = (half)((float)x[gid] * k[0]);
}
