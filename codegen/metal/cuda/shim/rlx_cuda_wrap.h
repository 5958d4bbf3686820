// rlx_cuda_wrap.h: helpers of the generated __global__ wrappers. Included
// after the kernel text, while rlx_msl_names.h's macros are still defined,
// so it spells nothing those macros rename (no min, max, thread, …).
#ifndef RLX_CUDA_WRAP_H
#define RLX_CUDA_WRAP_H

#include "rlx_cuda_abi.h"

namespace rlx_wrap {

__device__ __forceinline__ unsigned linear_tid() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__device__ __forceinline__ unsigned threads() { return blockDim.x * blockDim.y * blockDim.z; }

__device__ __forceinline__ metal::rlx_uint3 u3(unsigned x, unsigned y, unsigned z) {
  return metal::rlx_uint3(x, y, z);
}
__device__ __forceinline__ metal::rlx_uint2 u2(unsigned x, unsigned y) { return metal::rlx_uint2(x, y); }

// poison fills the threadgroup memory with 0xff bytes (NaN for floats, -1
// for integers) and waits for the whole block, so that a kernel reading
// threadgroup memory it never wrote computes with NaN, as in the CPU
// harness, which poisons it for every threadgroup.
__device__ __forceinline__ void poison(unsigned char *p, unsigned bytes) {
  unsigned *w = (unsigned *)p;
  for (unsigned i = linear_tid(); i < bytes / 4u; i += threads()) w[i] = 0xffffffffu;
  __syncthreads();
}

}  // namespace rlx_wrap

#endif
