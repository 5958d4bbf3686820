// cuda_runtime.h: declarations of our own for what dqprobe.cu uses of
// CUDA, so that clang-19 can check its syntax in CUDA mode with
// -nocudainc on a machine with no CUDA toolkit (dqprobe_test.go). Written
// from NVIDIA's CUDA C++ Programming Guide and runtime API reference;
// types and signatures only: nothing here runs, and nvcc never sees it.
#ifndef DQPROBE_STUB_CUDA_RUNTIME_H
#define DQPROBE_STUB_CUDA_RUNTIME_H

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))

#include <__clang_cuda_builtin_vars.h>

struct dim3 {
  unsigned x, y, z;
  __host__ __device__ dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
struct __attribute__((aligned(8))) float2 {
  float x, y;
};
struct __attribute__((aligned(16))) float4 {
  float x, y, z, w;
};

struct __attribute__((aligned(8))) uint2 {
  unsigned x, y;
};
struct __attribute__((aligned(16))) uint4 {
  unsigned x, y, z, w;
};

enum cudaError_t { cudaSuccess = 0 };
enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3 };
enum { cudaStreamNonBlocking = 1 };
enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal = 0 };
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;

const char *cudaGetErrorString(cudaError_t);
cudaError_t cudaGetLastError();
cudaError_t cudaSetDevice(int);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaMalloc(void **, size_t);
template <class T>
cudaError_t cudaMalloc(T **p, size_t n) {
  return cudaMalloc((void **)p, n);
}
cudaError_t cudaFree(void *);
cudaError_t cudaMemset(void *, int, size_t);
cudaError_t cudaMemcpy(void *, const void *, size_t, cudaMemcpyKind);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *, unsigned);
cudaError_t cudaStreamDestroy(cudaStream_t);
cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode);
cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t *);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *, cudaGraph_t, unsigned long long);
cudaError_t cudaGraphLaunch(cudaGraphExec_t, cudaStream_t);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t);
cudaError_t cudaGraphDestroy(cudaGraph_t);
cudaError_t cudaEventCreate(cudaEvent_t *);
cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t);
cudaError_t cudaEventSynchronize(cudaEvent_t);
cudaError_t cudaEventElapsedTime(float *, cudaEvent_t, cudaEvent_t);
// What clang's <<<...>>> calls (with no CUDA installation found, clang
// takes the runtime to be one that configures a call this way).
cudaError_t cudaConfigureCall(dim3, dim3, size_t = 0, cudaStream_t = 0);

__device__ void *memcpy(void *, const void *, size_t);
#define DQPROBE_STUB static __device__ __forceinline__
DQPROBE_STUB float2 make_float2(float a, float b) { return float2{a, b}; }
DQPROBE_STUB unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
DQPROBE_STUB float __uint_as_float(unsigned) { return 0.0f; }
DQPROBE_STUB float __shfl_xor_sync(unsigned, float v, int, int = 32) { return v; }
DQPROBE_STUB unsigned __shfl_sync(unsigned, unsigned v, int, int = 32) { return v; }
DQPROBE_STUB uint4 __ldg(const uint4 *p) { return *p; }
DQPROBE_STUB unsigned __ldg(const unsigned *p) { return *p; }
DQPROBE_STUB uint2 __ldg(const uint2 *p) { return *p; }
DQPROBE_STUB unsigned short __ldg(const unsigned short *p) { return *p; }
DQPROBE_STUB unsigned char __ldg(const unsigned char *p) { return *p; }
DQPROBE_STUB float4 __ldg(const float4 *p) { return *p; }
DQPROBE_STUB unsigned __funnelshift_r(unsigned lo, unsigned, unsigned) { return lo; }
DQPROBE_STUB unsigned __funnelshift_rc(unsigned lo, unsigned, unsigned) { return lo; }
#undef DQPROBE_STUB

#endif
