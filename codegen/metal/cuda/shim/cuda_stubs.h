// cuda_stubs.h: declarations of our own for the CUDA names that the shim
// and the generated wrappers use, so that clang can check them with
// -nocudainc -nocudalib (no CUDA toolkit on the machine). Written from
// NVIDIA's CUDA C++ Programming Guide; syntax and types only: the bodies
// are placeholders that nothing runs (the syntax check stops at
// -fsyntax-only, and the host-only build calls none of them). Never used
// with nvcc, which has the real ones.
#ifndef RLX_CUDA_STUBS_H
#define RLX_CUDA_STUBS_H

#include <cstddef>
#include <cstring>

// Spelled as nvcc's host_defines.h spells them, through __location__, so
// that a macro of the shim that would break nvcc's (an empty device, say)
// breaks these too.
#define __annotate__(a) __attribute__((a))
#define __location__(a) __annotate__(a)
#define __host__ __location__(host)
#define __device__ __location__(device)
#define __global__ __location__(global)
#define __shared__ __location__(shared)
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __launch_bounds__(...) __annotate__(launch_bounds(__VA_ARGS__))
#define __align__(n) __attribute__((aligned(n)))

#include <__clang_cuda_builtin_vars.h>

struct uint3 {
  unsigned x, y, z;
};
struct dim3 {
  unsigned x, y, z;
  dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};

// __syncthreads is a clang builtin already.
#define RLX_STUB static __device__ __forceinline__
RLX_STUB void __syncwarp(unsigned = 0xffffffffu) {}
RLX_STUB unsigned __activemask() { return 0xffffffffu; }
RLX_STUB unsigned __shfl_sync(unsigned, unsigned v, int, int = 32) { return v; }
RLX_STUB unsigned __shfl_xor_sync(unsigned, unsigned v, int, int = 32) { return v; }
RLX_STUB int __any_sync(unsigned, int p) { return p; }
RLX_STUB int __all_sync(unsigned, int p) { return p; }
RLX_STUB unsigned __ballot_sync(unsigned, int p) { return p ? 1u : 0u; }
RLX_STUB int __ffs(int v) { return v ? 1 : 0; }
RLX_STUB void __threadfence() {}
RLX_STUB void __threadfence_block() {}

#define RLX_STUB_ATOMIC(NAME, T) \
  RLX_STUB T NAME(T *p, T v) { return *p; }
RLX_STUB_ATOMIC(atomicAdd, int)
RLX_STUB_ATOMIC(atomicAdd, unsigned)
RLX_STUB_ATOMIC(atomicAdd, float)
RLX_STUB_ATOMIC(atomicSub, int)
RLX_STUB_ATOMIC(atomicSub, unsigned)
RLX_STUB_ATOMIC(atomicOr, int)
RLX_STUB_ATOMIC(atomicOr, unsigned)
RLX_STUB_ATOMIC(atomicAnd, int)
RLX_STUB_ATOMIC(atomicAnd, unsigned)
RLX_STUB_ATOMIC(atomicXor, int)
RLX_STUB_ATOMIC(atomicXor, unsigned)
RLX_STUB_ATOMIC(atomicMax, int)
RLX_STUB_ATOMIC(atomicMax, unsigned)
RLX_STUB_ATOMIC(atomicMin, int)
RLX_STUB_ATOMIC(atomicMin, unsigned)
RLX_STUB_ATOMIC(atomicExch, int)
RLX_STUB_ATOMIC(atomicExch, unsigned)
RLX_STUB_ATOMIC(atomicExch, float)
#undef RLX_STUB_ATOMIC
RLX_STUB int atomicCAS(int *p, int, int) { return *p; }
RLX_STUB unsigned atomicCAS(unsigned *p, unsigned, unsigned) { return *p; }

// The device's float math (CUDA's math library); the host keeps <cmath>'s.
#define RLX_STUB_F1(NAME) \
  RLX_STUB float NAME(float x) { return x; }
#define RLX_STUB_F2(NAME) \
  RLX_STUB float NAME(float x, float) { return x; }
RLX_STUB_F1(expf)
RLX_STUB_F1(exp2f)
RLX_STUB_F1(exp10f)
RLX_STUB_F1(logf)
RLX_STUB_F1(log2f)
RLX_STUB_F1(log10f)
RLX_STUB_F1(sqrtf)
RLX_STUB_F1(sinf)
RLX_STUB_F1(cosf)
RLX_STUB_F1(tanf)
RLX_STUB_F1(sinhf)
RLX_STUB_F1(coshf)
RLX_STUB_F1(tanhf)
RLX_STUB_F1(asinf)
RLX_STUB_F1(acosf)
RLX_STUB_F1(atanf)
RLX_STUB_F1(floorf)
RLX_STUB_F1(ceilf)
RLX_STUB_F1(truncf)
RLX_STUB_F1(rintf)
RLX_STUB_F1(roundf)
RLX_STUB_F1(fabsf)
RLX_STUB_F2(fminf)
RLX_STUB_F2(fmaxf)
RLX_STUB_F2(powf)
RLX_STUB_F2(atan2f)
RLX_STUB_F2(copysignf)
RLX_STUB_F2(fmodf)
RLX_STUB float fmaf(float a, float, float) { return a; }
#undef RLX_STUB_F1
#undef RLX_STUB_F2
#undef RLX_STUB

// The runtime API that rlx_cuda_runtime.cu uses (host functions).
enum cudaError_t { cudaSuccess = 0 };
enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2 };
typedef struct CUstream_st *cudaStream_t;
cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t stream);
cudaError_t cudaGetLastError();
const char *cudaGetErrorString(cudaError_t);
cudaError_t cudaMalloc(void **p, size_t n);
cudaError_t cudaFree(void *p);
cudaError_t cudaMemset(void *p, int v, size_t n);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, cudaMemcpyKind kind);
cudaError_t cudaDeviceSynchronize();

#endif
