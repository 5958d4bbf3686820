// rlx_sim_server.cpp: the sim backend's server (runtime/backend/sim). It
// maps the arena and the weight buffer that the Go process maps too (two
// files, MAP_SHARED), and runs Metal steps through rlx_runtime.h's CPU
// implementation (rlx_runtime_cpu.cpp), reading commands on stdin and
// answering each on stdout:
//
//   'K' u32 id, u32 n, n bytes        pipeline id is the kernel of that name
//   'D' u32 n, n dispatches            run them in order; a dispatch is
//       u32 kernel, u32 grid[3], u32 threadgroup[3], u32 tgmem, u32 nbind,
//       nbind x (u32 buffer, u32 access, u64 offset, u64 bytes)
//   'Q'                                exit
//
// An answer is u32 status (0: done) and u32 n, n bytes of message. A
// kernel that deadlocks or skips a barrier ends the process with the
// dispatcher's report on stderr, which the Go side shows.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "rlx_runtime.h"

extern "C" rlx_context *rlx_cpu_create_over(void *arena, uint64_t arena_bytes, void *weights, uint64_t weight_bytes);

namespace {

template <class T>
bool get(T *v) {
  return std::fread(v, sizeof *v, 1, stdin) == 1;
}

void answer(uint32_t status, const std::string &msg) {
  uint32_t n = msg.size();
  std::fwrite(&status, 4, 1, stdout);
  std::fwrite(&n, 4, 1, stdout);
  std::fwrite(msg.data(), 1, n, stdout);
  std::fflush(stdout);
}

void *map(const char *path, uint64_t bytes) {
  if (bytes == 0) return nullptr;
  int fd = open(path, O_RDWR);
  if (fd < 0) {
    std::perror(path);
    std::exit(2);
  }
  void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) {
    std::perror("mmap");
    std::exit(2);
  }
  close(fd);
  return p;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s ARENA BYTES WEIGHTS BYTES\n", argv[0]);
    return 2;
  }
  uint64_t ab = std::strtoull(argv[2], nullptr, 10), wb = std::strtoull(argv[4], nullptr, 10);
  rlx_context *ctx = rlx_cpu_create_over(map(argv[1], ab), ab, map(argv[3], wb), wb);
  for (;;) {
    char c;
    if (!get(&c)) return 0;
    if (c == 'Q') return 0;
    if (c == 'K') {
      uint32_t id, n;
      if (!get(&id) || !get(&n)) return 3;
      std::string name(n, '\0');
      if (std::fread(&name[0], 1, n, stdin) != n) return 3;
      answer(rlx_kernel(ctx, id, name.c_str()), rlx_error(ctx) ? rlx_error(ctx) : "");
      continue;
    }
    if (c != 'D') {
      answer(1, "unknown command");
      return 3;
    }
    uint32_t nd;
    if (!get(&nd)) return 3;
    int status = 0;
    for (uint32_t d = 0; d < nd; d++) {
      uint32_t k, g[3], t[3], tgmem, nb;
      if (!get(&k) || !get(&g) || !get(&t) || !get(&tgmem) || !get(&nb)) return 3;
      std::vector<rlx_binding> b(nb);
      for (auto &x : b) {
        if (!get(&x.buffer) || !get(&x.access) || !get(&x.offset) || !get(&x.bytes)) return 3;
      }
      if (status == 0) status = rlx_dispatch(ctx, k, g[0], g[1], g[2], t[0], t[1], t[2], tgmem, nb, b.data());
    }
    answer(status, status && rlx_error(ctx) ? rlx_error(ctx) : "");
  }
}
