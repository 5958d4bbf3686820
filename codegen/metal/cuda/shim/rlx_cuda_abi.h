// rlx_cuda_abi.h: what the generated kernel table and the runtime
// (rlx_cuda_runtime.cu) share. Plain CUDA C++, no MSL names.
#ifndef RLX_CUDA_ABI_H
#define RLX_CUDA_ABI_H

#ifdef RLX_CUDA_STUBS
#include "cuda_stubs.h"
#endif

// A Metal kernel binds at most 31 buffers; the wrapper takes them by value
// in one parameter (248 bytes of the 4 KB parameter space).
#define RLX_MAX_BUFFERS 31

struct rlx_buffers {
  void *p[RLX_MAX_BUFFERS];
};

// One kernel of the table: the generated __global__ wrapper and what the
// manifest says about it.
struct rlx_kernel_entry {
  const char *name;
  const void *fn;
  int nbuffers;
  int max_threads;               // the manifest's threadgroup, the wrapper's __launch_bounds__
  unsigned long long tgmem;      // bytes of threadgroup memory the kernel takes
};

// The generated <name>_table.cu defines these, in the manifest's order.
extern "C" const rlx_kernel_entry rlx_kernel_table[];
extern "C" const int rlx_kernel_table_len;

#endif
