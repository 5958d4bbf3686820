// rlx_cuda_runtime.cu: runs the kernels of a generated table (the CUDA
// counterpart of the CPU harness's rlx_runtime.cpp). It is linked with the
// generated objects into a shared library, which Python loads with ctypes
// (rlx_launch on its own buffers and stream), and into a program
// (rlx_cuda_main.cu) that runs job files, for compute-sanitizer.
//
// Job file (little-endian), written by codegen/metal/cuda.WriteJobs:
//   "RLXCUJ1\n" u32 njobs, then per job:
//   u32 namelen, name; u32 nbuf, per buffer: u64 size, u8 init (0 poison,
//   1 data, 2 zero, 3 random), u8 elem (Elem), u32 seed if init is 3,
//   data if init is 1;
//   u32 ndisp, per dispatch: u32 kernel (table index), u32 grid[3],
//   u32 tg[3], u64 tgmem, u32 nbind, u32 buffer[nbind].
// Result file: "RLXCUR1\n" u32 njobs, per job: u32 nbuf, per buffer:
//   u64 size, u32 guard bytes changed before, u32 after, the bytes (size 0
//   when results are not kept).
//
// Buffers are allocated one cudaMalloc each. By default each has 64 guard
// bytes on both sides and starts poisoned (0xff) unless it holds data, as
// in the CPU harness; with RLX_RUN_EXACT each is allocated at its exact
// size and outputs are left uninitialised, so that compute-sanitizer's
// memcheck sees a one-element overrun and initcheck a read of what no one
// wrote.
#ifdef RLX_CUDA_STUBS
#include "cuda_stubs.h"
#else
#include <cuda_runtime.h>
#endif

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "rlx_cuda_abi.h"

namespace {

const size_t kGuard = 64;
const unsigned char kGuardByte = 0xcb;
const unsigned char kPoisonByte = 0xff;

std::string last_error;

int fail(const std::string &msg) {
  last_error = msg;
  std::fprintf(stderr, "rlx-cuda: %s\n", msg.c_str());
  return -1;
}

bool check(cudaError_t e, const char *what) {
  if (e == cudaSuccess) return true;
  fail(std::string(what) + ": " + cudaGetErrorString(e));
  return false;
}

#include "rlx_fill.h"

struct Reader {
  FILE *f;
  bool ok = true;
  template <class T>
  T get() {
    T v{};
    if (std::fread(&v, sizeof v, 1, f) != 1) ok = false;
    return v;
  }
  void bytes(void *p, size_t n) {
    if (n && std::fread(p, 1, n, f) != n) ok = false;
  }
};

struct Buf {
  int init = 0;
  size_t size = 0;
  unsigned char *base = nullptr;  // the allocation
  unsigned char *data = nullptr;  // the buffer the kernels see
};

}  // namespace

extern "C" {

int rlx_kernel_count(void) { return rlx_kernel_table_len; }

const char *rlx_kernel_name(int k) { return k >= 0 && k < rlx_kernel_table_len ? rlx_kernel_table[k].name : ""; }

int rlx_kernel_index(const char *name) {
  for (int k = 0; k < rlx_kernel_table_len; k++)
    if (std::strcmp(rlx_kernel_table[k].name, name) == 0) return k;
  return -1;
}

const char *rlx_last_error(void) { return last_error.c_str(); }

// rlx_launch launches kernel k on stream (a cudaStream_t; 0 for the
// default stream) with the given buffers. poison fills the threadgroup
// memory with 0xff bytes before the kernel starts. It returns 0, a CUDA
// error code, or -1 for a launch that breaks the manifest's contract
// (rlx_last_error says which).
int rlx_launch(int k, const unsigned *grid, const unsigned *tg, unsigned long long tgmem, void *const *bufs,
               int nbufs, unsigned poison, void *stream) {
  if (k < 0 || k >= rlx_kernel_table_len) return fail("no kernel #" + std::to_string(k));
  const rlx_kernel_entry &e = rlx_kernel_table[k];
  if (nbufs != e.nbuffers)
    return fail(std::string(e.name) + ": " + std::to_string(nbufs) + " buffers, the kernel binds " +
                std::to_string(e.nbuffers));
  const unsigned long long threads = (unsigned long long)tg[0] * tg[1] * tg[2];
  if (threads == 0 || threads > (unsigned long long)e.max_threads)
    return fail(std::string(e.name) + ": " + std::to_string(threads) + " threads per threadgroup, at most " +
                std::to_string(e.max_threads));
  if (tgmem < e.tgmem)
    return fail(std::string(e.name) + ": " + std::to_string(tgmem) + " bytes of threadgroup memory, the kernel needs " +
                std::to_string(e.tgmem));
  rlx_buffers b;
  std::memset(&b, 0, sizeof b);
  for (int i = 0; i < nbufs; i++) b.p[i] = bufs[i];
  void *args[] = {&b, &poison};
  cudaError_t err = cudaLaunchKernel(e.fn, dim3(grid[0], grid[1], grid[2]), dim3(tg[0], tg[1], tg[2]), args,
                                     (size_t)tgmem, (cudaStream_t)stream);
  if (err == cudaSuccess) err = cudaGetLastError();
  if (err != cudaSuccess) fail(std::string(e.name) + ": " + cudaGetErrorString(err));
  return (int)err;
}

// rlx_fill fills size bytes at p as cuda.Fill(elem, size, seed) does, on
// stream; it returns 0 or a CUDA error code.
int rlx_fill(void *p, unsigned long long size, int elem, unsigned seed, void *stream) {
  unsigned char *data = (unsigned char *)p;
  void *args[] = {&data, &size, &elem, &seed};
  cudaError_t err = cudaLaunchKernel((const void *)rlx_fill_random, dim3(1024), dim3(256), args, 0, (cudaStream_t)stream);
  if (err == cudaSuccess) err = cudaGetLastError();
  if (err != cudaSuccess) fail(std::string("random fill: ") + cudaGetErrorString(err));
  return (int)err;
}

// Flags of rlx_run_jobs.
#define RLX_RUN_EXACT 1
#define RLX_RUN_NO_RESULTS 2
#define RLX_RUN_OUTPUTS_ONLY 4  // write back only what the kernels write (poisoned or zeroed buffers)

// rlx_run_jobs runs a job file and writes the result file; it returns 0,
// or -1 after printing what failed.
int rlx_run_jobs(const char *job_path, const char *res_path, int flags, unsigned repeat) {
  const bool exact = (flags & RLX_RUN_EXACT) != 0;
  FILE *jf = std::fopen(job_path, "rb");
  if (!jf) return fail(std::string("cannot open ") + job_path);
  FILE *rf = std::fopen(res_path, "wb");
  if (!rf) {
    std::fclose(jf);
    return fail(std::string("cannot create ") + res_path);
  }
  Reader r{jf};
  char magic[8];
  r.bytes(magic, 8);
  if (!r.ok || std::memcmp(magic, "RLXCUJ1\n", 8) != 0) return fail("not a job file");
  const unsigned njobs = r.get<unsigned>();
  std::fwrite("RLXCUR1\n", 1, 8, rf);
  std::fwrite(&njobs, 4, 1, rf);
  int status = 0;
  for (unsigned j = 0; j < njobs && status == 0; j++) {
    std::string name(r.get<unsigned>(), '\0');
    r.bytes(&name[0], name.size());
    const unsigned nbuf = r.get<unsigned>();
    std::vector<Buf> bufs(nbuf);
    for (unsigned i = 0; i < nbuf && r.ok; i++) {
      Buf &b = bufs[i];
      b.size = (size_t)r.get<unsigned long long>();
      const int init = b.init = r.get<unsigned char>();
      const int elem = r.get<unsigned char>();
      const unsigned seed = init == 3 ? r.get<unsigned>() : 0u;
      std::vector<unsigned char> host;
      if (init == 1) {
        host.resize(b.size);
        r.bytes(host.data(), b.size);
      }
      const size_t alloc = exact ? b.size : b.size + 2 * kGuard;
      if (alloc && !check(cudaMalloc((void **)&b.base, alloc), "cudaMalloc")) return -1;
      b.data = exact ? b.base : b.base + kGuard;
      if (!exact && !check(cudaMemset(b.base, kGuardByte, alloc), "cudaMemset")) return -1;
      if (b.size == 0) continue;
      switch (init) {
        case 0:
          if (!exact && !check(cudaMemset(b.data, kPoisonByte, b.size), "cudaMemset")) return -1;
          break;
        case 1:
          if (!check(cudaMemcpy(b.data, host.data(), b.size, cudaMemcpyHostToDevice), "cudaMemcpy")) return -1;
          break;
        case 2:
          if (!check(cudaMemset(b.data, 0, b.size), "cudaMemset")) return -1;
          break;
        default:
          if (rlx_fill(b.data, b.size, elem, seed, nullptr) != 0) return -1;
      }
    }
    struct Launch {
      unsigned k, grid[3], tg[3];
      unsigned long long tgmem;
      std::vector<void *> ptrs;
    };
    std::vector<Launch> launches;
    const unsigned ndisp = r.get<unsigned>();
    for (unsigned d = 0; d < ndisp && r.ok; d++) {
      Launch l;
      l.k = r.get<unsigned>();
      for (unsigned &v : l.grid) v = r.get<unsigned>();
      for (unsigned &v : l.tg) v = r.get<unsigned>();
      l.tgmem = r.get<unsigned long long>();
      const unsigned nbind = r.get<unsigned>();
      l.ptrs.resize(nbind);
      for (unsigned i = 0; i < nbind; i++) {
        const unsigned id = r.get<unsigned>();
        if (id >= nbuf) return fail("job " + name + ": dispatch binds buffer " + std::to_string(id));
        l.ptrs[i] = bufs[id].data;
      }
      launches.push_back(std::move(l));
    }
    if (!r.ok) return fail("truncated job file");
    // A region's dispatches may run again on the same buffers (repeat > 1):
    // its results must not change, and its folded merges' arrival counters
    // must be back at zero for the next run, as a runtime would see them.
    for (unsigned rep = 0; rep < repeat && status == 0; rep++) {
      for (Launch &l : launches) {
        if (rlx_launch((int)l.k, l.grid, l.tg, l.tgmem, l.ptrs.data(), (int)l.ptrs.size(), exact ? 0u : 1u, nullptr) != 0) {
          status = -1;
          break;
        }
      }
    }
    if (status == 0 && !check(cudaDeviceSynchronize(), ("job " + name).c_str())) status = -1;
    std::fprintf(stderr, "rlx-cuda: job %s: %s\n", name.c_str(), status == 0 ? "ran" : "FAILED");
    std::fwrite(&nbuf, 4, 1, rf);
    for (Buf &b : bufs) {
      std::vector<unsigned char> host(exact ? b.size : b.size + 2 * kGuard);
      unsigned before = 0, after = 0;
      const bool written = b.init == 0 || b.init == 2;
      const bool keep = status == 0 && (flags & RLX_RUN_NO_RESULTS) == 0 &&
                        ((flags & RLX_RUN_OUTPUTS_ONLY) == 0 || written);
      if (keep && !host.empty() && !check(cudaMemcpy(host.data(), b.base, host.size(), cudaMemcpyDeviceToHost), "cudaMemcpy"))
        status = -1;
      const unsigned char *data = host.data() + (exact ? 0 : kGuard);
      if (keep && !exact) {
        for (size_t g = 0; g < kGuard; g++) {
          before += host[g] != kGuardByte;
          after += host[kGuard + b.size + g] != kGuardByte;
        }
      }
      const unsigned long long size = keep ? b.size : 0;
      std::fwrite(&size, 8, 1, rf);
      std::fwrite(&before, 4, 1, rf);
      std::fwrite(&after, 4, 1, rf);
      if (size) std::fwrite(data, 1, size, rf);
      if (b.base) cudaFree(b.base);
    }
  }
  std::fclose(jf);
  std::fclose(rf);
  return status;
}

}  // extern "C"
