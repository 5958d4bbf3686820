// rlx_dispatch.h: the dispatcher of rlx_runtime.cpp as a function, for
// programs with a main of their own (mslcpu.WriteSources): a runtime that
// binds buffers at offsets into its own memory, as Metal's
// setBuffer:offset:atIndex: does, instead of the harness's job files.
#ifndef RLX_DISPATCH_H
#define RLX_DISPATCH_H

#include <cstddef>

#include "rlx_shim_common.h"

namespace rlx {

// The kernels compiled into the program (kernels.cpp), in the order
// WriteSources was given them.
extern const KernelEntry kernel_table[];
extern const int kernel_count;

// dispatch runs kernel k over grid threadgroups of tg threads, with
// tgmem bytes of threadgroup memory, buffer i of the kernel at ptrs[i].
// Like the harness, it reports a deadlock, a barrier some thread skipped
// or threadgroup memory written out of bounds on stderr and exits with
// status 3.
void dispatch(const KernelEntry &k, void *const *ptrs, unsigned n, const unsigned grid[3], const unsigned tg[3],
              std::size_t tgmem);

}  // namespace rlx

#endif
