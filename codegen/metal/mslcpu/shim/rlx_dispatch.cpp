// rlx_dispatch.cpp: rlx::dispatch (rlx_dispatch.h) over the harness's own
// dispatcher. It includes rlx_runtime.cpp rather than linking it, to reach
// run_dispatch without widening that file's interface; a program built
// from mslcpu.WriteSources compiles this file instead of rlx_runtime.cpp.
#include "rlx_runtime.cpp"

#include "rlx_dispatch.h"

namespace rlx {

void dispatch(const KernelEntry &k, void *const *ptrs, unsigned n, const unsigned grid[3], const unsigned tg[3],
              std::size_t tgmem) {
  // The environment the harness reads, read once: RLX_MSL_DEADLINE, and
  // RLX_MSL_EXECUTOR=fibers for the fiber executor (plain builds only).
  static const bool configured = [] {
    if (const char *s = std::getenv("RLX_MSL_DEADLINE")) deadline_seconds = std::atoi(s);
    if (const char *e = std::getenv("RLX_MSL_EXECUTOR")) {
      fibers = std::string(e) == "fibers";
#if defined(RLX_ASAN) || defined(RLX_TSAN)
      if (fibers) fatal("the fiber executor is not available in sanitizer builds");
#endif
    }
    return true;
  }();
  (void)configured;
  std::vector<Buf> bufs(n);
  std::vector<unsigned> bind(n);
  for (unsigned i = 0; i < n; i++) {
    bufs[i].size = 0;
    bufs[i].base = bufs[i].data = static_cast<unsigned char *>(ptrs[i]);
    bind[i] = i;
  }
  run_dispatch(k, bufs, grid, tg, tgmem, bind);
}

}  // namespace rlx
