// rlx_shim_common.h: the interface between kernels compiled against the CPU
// shim (metal_stdlib) and the dispatcher (rlx_runtime.cpp). It has no MSL
// keywords, so both translation units include it.
#ifndef RLX_SHIM_COMMON_H
#define RLX_SHIM_COMMON_H

#include <cstddef>

namespace rlx {

// Positions handed to a kernel wrapper, in this order:
// threadgroup_position_in_grid (3), thread_position_in_threadgroup (3),
// thread_index_in_simdgroup, simdgroup_index_in_threadgroup,
// threads_per_threadgroup (3), threadgroups_per_grid (3),
// thread_position_in_grid (3).
enum { kPosTG = 0, kPosT = 3, kPosLane = 6, kPosSG = 7, kPosTPTG = 8, kPosTGPG = 11, kPosGrid = 14, kPosCount = 17 };

// A kernel wrapper: buffers by binding index, the threadgroup memory, the
// thread's positions.
typedef void (*KernelFn)(void *const *buffers, void *tgmem, const unsigned *pos);

struct KernelEntry {
  const char *name;
  KernelFn fn;
};

// Simdgroup exchange: every active lane of the calling thread's simdgroup
// deposits size bytes; on return all32 holds the 32 lanes' values (lane l at
// l*size) and *active the mask of lanes that took part. Lanes that have
// returned from the kernel, or lie beyond the threadgroup's size, are not
// active.
void simd_exchange(const void *mine, std::size_t size, void *all32, unsigned *active);
void threadgroup_barrier();
void simdgroup_barrier();
unsigned current_lane();

int harness_main(int argc, char **argv, const KernelEntry *kernels, int nkernels);

}  // namespace rlx

#endif
