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
  unsigned bs = 0, s0 = 0, s1 = 0, ns = 0;
  switch (elem) {
    case kQ4_0:
      bs = 18, s0 = 0, ns = 1;
      break;
    case kQ8_0:
      bs = 34, s0 = 0, ns = 1;
      break;
    case kQ4_K:
      bs = 144, s0 = 0, s1 = 2, ns = 2;
      break;
    case kQ6_K:
      bs = 210, s0 = 208, ns = 1;
      break;
    case kQ5_K:
      bs = 176, s0 = 0, s1 = 2, ns = 2;
      break;
    case kQ2_K:
      bs = 84, s0 = 80, s1 = 82, ns = 2;
      break;
    case kQ3_K:
      bs = 110, s0 = 108, ns = 1;
      break;
    case kQ4_1:
      bs = 20, s0 = 0, s1 = 2, ns = 2;
      break;
    case kQ5_0:
      bs = 22, s0 = 0, ns = 1;
      break;
    case kQ5_1:
      bs = 24, s0 = 0, s1 = 2, ns = 2;
      break;
    case kIQ4_NL:
      bs = 18, s0 = 0, ns = 1;
      break;
    case kIQ4_XS:
      bs = 136, s0 = 0, ns = 1;
      break;
    case kMXFP4:
      bs = 17, ns = 0;
      break;
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
