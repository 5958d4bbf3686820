// rlx_fill.h: the element codes of the job file and rlx_fill_random, the
// kernel that makes a Random buffer's bytes on the device, exactly the
// bytes of cuda.Fill in Go. Included by rlx_cuda_runtime.cu; the Go tests
// also compile it as plain host C++ (RLX_FILL_HOST, with __device__,
// __global__ and the thread indices defined by the test) and compare what
// every thread of a small grid writes with Fill, for every element type.
#ifndef RLX_FILL_H
#define RLX_FILL_H

// Element codes of the job file (Elem in jobs.go).
enum { kF32, kF16, kBF16, kI32, kI64, kI8, kI1, kUI8, kU32, kQ4_0, kQ8_0, kQ4_K, kQ6_K, kQ6_KC16, kQ5_K, kQ2_K, kQ3_K, kQ4_1, kQ5_0, kQ5_1, kIQ4_NL, kIQ4_XS, kMXFP4 };

// rlx_hash and the fill below make exactly the bytes of cuda.Fill in Go,
// so that a reference computed there checks a run here.
__device__ unsigned rlx_hash(unsigned long long i, unsigned seed) {
  unsigned long long z = i * 0x9e3779b97f4a7c15ull + seed;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (unsigned)((z ^ (z >> 31)) >> 16);
}

__device__ float rlx_uniform(unsigned h) { return (float)(h >> 8) * (2.0f / 16777216.0f) - 1.0f; }

__device__ unsigned short rlx_to_f16(float f) {
  unsigned short b;
#ifdef RLX_FILL_HOST
  _Float16 h = (_Float16)f;  // round to nearest even, as cvt.rn
  __builtin_memcpy(&b, &h, 2);
#else
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(b) : "f"(f));
#endif
  return b;
}

// Random contents (cuda.Fill): floats uniform in [-1, 1), integers in
// [0, 1024), booleans 0 or 1, bytes anything; GGUF blocks random bytes
// with every f16 scale uniform/64.
__global__ void rlx_fill_random(unsigned char *p, unsigned long long size, int elem, unsigned seed) {
  const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  const unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  switch (elem) {
    case kF32:
      for (unsigned long long i = t; i < size / 4; i += stride) ((float *)p)[i] = rlx_uniform(rlx_hash(i, seed));
      return;
    case kF16:
      for (unsigned long long i = t; i < size / 2; i += stride)
        ((unsigned short *)p)[i] = rlx_to_f16(rlx_uniform(rlx_hash(i, seed)));
      return;
    case kBF16:
      for (unsigned long long i = t; i < size / 2; i += stride) {
        union {
          float f;
          unsigned u;
        } pun;
        pun.f = rlx_uniform(rlx_hash(i, seed));
        ((unsigned short *)p)[i] = (unsigned short)((pun.u + 0x7fffu + ((pun.u >> 16) & 1u)) >> 16);
      }
      return;
    case kI32:
    case kU32:
      for (unsigned long long i = t; i < size / 4; i += stride) ((unsigned *)p)[i] = rlx_hash(i, seed) % 1024u;
      return;
    case kI64:
      for (unsigned long long i = t; i < size / 8; i += stride)
        ((unsigned long long *)p)[i] = rlx_hash(i, seed) % 1024u;
      return;
    case kI1:
      for (unsigned long long i = t; i < size; i += stride) p[i] = (unsigned char)(rlx_hash(i, seed) & 1u);
      return;
  }
  // q6_k_c16: bytes, and its d array (the last size/105 bytes) f16
  // scales, scale b drawn as block b's d would be.
  if (elem == kQ6_KC16) {
    const unsigned long long at = size - size / 105;
    for (unsigned long long i = t; i < size; i += stride) {
      unsigned char v = (unsigned char)rlx_hash(i, seed);
      if (i >= at && at + (i - at) / 2 * 2 + 2 <= size) {
        const unsigned short h = rlx_to_f16(rlx_uniform(rlx_hash((i - at) / 2 * 2, seed ^ 0x51ca1eu)) / 64.0f);
        v = (unsigned char)((i - at) % 2 == 0 ? h : h >> 8);
      }
      p[i] = v;
    }
    return;
  }
  // Bytes, and GGUF blocks whose scale fields (the f16 d, and dmin or m
  // where the format has one) are set apart.
  // Per code from kQ4_0 on: the block's bytes, how many scales, and
  // their offsets (cuda.quantBlocks, from runtime/gguf; q6_k_c16 is
  // above, mxfp4's scale an E8M0 byte, below).
  const unsigned blocks[][4] = {
      {18, 1, 0, 0},   {34, 1, 0, 0},  {144, 2, 0, 2}, {210, 1, 208, 0}, {0, 0, 0, 0},
      {176, 2, 0, 2},  {84, 2, 80, 82}, {110, 1, 108, 0}, {20, 2, 0, 2},  {22, 1, 0, 0},
      {24, 2, 0, 2},   {18, 1, 0, 0},  {136, 1, 0, 0}, {17, 0, 0, 0},
  };
  unsigned bs = 0, ns = 0, s0 = 0, s1 = 0;
  if (elem >= kQ4_0 && elem <= kMXFP4) {
    const unsigned *q = blocks[elem - kQ4_0];
    bs = q[0], ns = q[1], s0 = q[2], s1 = q[3];
  }
  const unsigned long long whole = bs ? size / bs * bs : 0;
  for (unsigned long long i = t; i < size; i += stride) {
    unsigned char v = (unsigned char)rlx_hash(i, seed);
    if (i < whole) {
      const unsigned long long b = i / bs;
      const unsigned off = (unsigned)(i % bs);
      for (unsigned k = 0; k < ns; k++) {
        const unsigned at = k == 0 ? s0 : s1;
        if (off == at || off == at + 1) {
          const unsigned short h = rlx_to_f16(rlx_uniform(rlx_hash(b * 2 + k, seed ^ 0x51ca1eu)) / 64.0f);
          v = (unsigned char)(off == at ? h : h >> 8);
        }
      }
      // mxfp4's E8M0 exponent byte: 122 to 125 (2^-6 to 2^-3).
      if (elem == kMXFP4 && off == 0) v = (unsigned char)(122u + rlx_hash(b * 2, seed ^ 0x51ca1eu) % 4u);
    }
    p[i] = v;
  }
}

#endif
