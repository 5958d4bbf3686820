// Package cuda compiles the MSL that codegen/metal emits as CUDA, so that
// the emitted text itself runs on an NVIDIA GPU: its races, bounds and
// speed can then be checked there (bench/gpu, docs/gpu-check.md), which
// the CPU harness of codegen/metal/mslcpu cannot show.
//
// Three parts, all of rlx's own:
//
//   - The shim (shim/metal_stdlib and the files it includes): MSL's
//     scalar and vector types (every swizzle, the operators, MSL's
//     alignments), half and bfloat, the math functions, the simd_*
//     functions on warp shuffles over __activemask(), threadgroup_barrier
//     as __syncthreads, simdgroup_barrier as __syncwarp, and the atomics
//     on CUDA's. The vector types, half, bfloat and the math also build
//     for the host, where TestShimOnHost runs them.
//   - Generate, the wrapper generator: from the emitted text and its
//     manifest it writes the text as nvcc compiles it (Transform: the
//     [[...]] attributes and address-space keywords blanked, helpers made
//     __device__, every line kept in place), one __global__ wrapper per
//     kernel that casts the bound buffers to the kernel's parameter types,
//     hands the block's dynamic shared memory in as the threadgroup memory
//     (poisoned first when asked) and computes the position attributes
//     from blockIdx and threadIdx, and a launch table in the manifest's
//     order. The wrappers can be split over several translation units for
//     a parallel nvcc.
//   - The runtime (shim/rlx_cuda_runtime.cu): rlx_launch, which checks a
//     launch against the manifest's threadgroup and memory and launches
//     on a caller's stream (Python drives it with ctypes), rlx_fill (its
//     kernel in shim/rlx_fill.h, which the tests also build for the host
//     and compare with Fill), and
//     rlx_run_jobs, which runs a job file (WriteJobs) with guard bytes and
//     poisoned outputs, or with every buffer at its exact size for
//     compute-sanitizer. rlx_cuda_main.cu makes a program of it.
//
// A Metal simdgroup and a CUDA warp are both 32 lanes taken from the
// threadgroup's linear thread order, so simdgroup s is warp s and the
// kernels' simd reductions map one to one. What differs is documented in
// docs/gpu-check.md: scheduling, caches, fast math, and what a CUDA run
// does not say about an Apple GPU.
//
// CI has no GPU and no CUDA toolkit: SyntaxCheck runs clang-19 in CUDA
// mode over generated sources against shim/cuda_stubs.h, our own
// declarations of the CUDA names the shim uses, spelled as nvcc's headers
// spell them, and tests skip without clang.
package cuda
