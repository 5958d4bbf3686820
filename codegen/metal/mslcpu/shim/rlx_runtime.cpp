// rlx_runtime.cpp: the dispatcher behind the CPU shim. It reads a job file
// written by the Go driver (package mslcpu), allocates every buffer with
// guard bytes on both sides, runs each dispatch with one OS thread per GPU
// thread (real barriers, 32-lane simdgroups), checks the guards and writes
// the buffers back.
//
// Threadgroups of a dispatch run one after another on the same threads:
// each thread plays its lane in every threadgroup, with a start and an end
// rendezvous around the kernel call. A thread that returns from the kernel
// leaves its simdgroup (later simd functions see it inactive, as on the
// GPU) and the threadgroup barrier; a threadgroup_barrier reached after a
// thread returned is reported, because Metal requires every thread of the
// threadgroup to reach it. A barrier that waits longer than the deadline is
// reported as a deadlock instead of hanging.
#include <linux/futex.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <setjmp.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <climits>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "rlx_shim_common.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RLX_ASAN 1
#endif
#if __has_feature(thread_sanitizer)
#define RLX_TSAN 1
#endif
#endif

namespace rlx {
namespace {

const int kGuard = 64;
const unsigned char kGuardByte = 0xcb;
const unsigned char kPoisonByte = 0xff;  // NaN for floats, -1 for integers
int deadline_seconds = 20;

std::mutex fatal_mu;

[[noreturn]] void fatal(const std::string &msg) {
  // One report, even when several threads fail at once.
  fatal_mu.lock();
  std::fprintf(stderr, "rlx-msl-cpu: %s\n", msg.c_str());
  std::fflush(stderr);
  std::_Exit(3);
}

// Barrier with a participant count that threads can leave, and a deadline.
// Arrivals count under a mutex; waiters then sleep on the generation word
// with a futex, outside the mutex, so that a release wakes every waiter at
// once instead of handing the mutex from one to the next (a condition
// variable's herd, which dominated runs of 1024-thread threadgroups). The
// generation is stored with release and loaded with acquire, which orders
// every arrival's writes before every waiter's later reads, for the CPU
// and for ThreadSanitizer alike.
// In the fiber executor every participant is a fiber of one OS thread: a
// wait that does not complete the round yields to the scheduler, which
// resumes the fiber once the generation has moved.
void fiber_block(const void *barrier, const uint32_t *gen, uint32_t seen, const char *what);
bool fibers = false;

class Barrier {
 public:
  void reset(int n) {
    std::lock_guard<std::mutex> g(mu_);
    count_ = n;
    waiting_ = 0;
  }
  // wait returns when every participant has arrived; the last to arrive
  // runs done (if any) first, while the others still wait.
  template <class F>
  void wait(const char *what, F done) {
    uint32_t gen;
    if (fibers) {
      gen = fgen_;
      if (++waiting_ >= count_) {
        done();
        waiting_ = 0;
        fgen_++;
        return;
      }
      fiber_block(this, &fgen_, gen, what);
      return;
    }
    {
      std::lock_guard<std::mutex> g(mu_);
      gen = gen_.load(std::memory_order_relaxed);
      if (++waiting_ >= count_) {
        done();
        release();
        return;
      }
    }
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(deadline_seconds);
    while (gen_.load(std::memory_order_acquire) == gen) {
      struct timespec ts = {0, 200 * 1000 * 1000};
      syscall(SYS_futex, reinterpret_cast<uint32_t *>(&gen_), FUTEX_WAIT_PRIVATE, gen, &ts, nullptr, 0);
      if (gen_.load(std::memory_order_acquire) == gen && std::chrono::steady_clock::now() > until) {
        std::lock_guard<std::mutex> g(mu_);
        fatal(std::string("deadlock: ") + what + " waited " + std::to_string(deadline_seconds) + " s with " +
              std::to_string(waiting_) + " of " + std::to_string(count_) + " threads arrived");
      }
    }
  }
  void wait(const char *what) {
    wait(what, [] {});
  }
  // leave removes the caller from later rounds (arrive_and_drop) and
  // returns how many threads were waiting in the current round.
  int leave() {
    if (fibers) {
      int w = waiting_;
      count_--;
      if (waiting_ > 0 && waiting_ >= count_) {
        waiting_ = 0;
        fgen_++;
      }
      return w;
    }
    std::lock_guard<std::mutex> g(mu_);
    int w = waiting_;
    count_--;
    if (waiting_ > 0 && waiting_ >= count_) release();
    return w;
  }

 private:
  // release ends the round; mu_ is held.
  void release() {
    waiting_ = 0;
    gen_.fetch_add(1, std::memory_order_release);
    syscall(SYS_futex, reinterpret_cast<uint32_t *>(&gen_), FUTEX_WAKE_PRIVATE, INT32_MAX, nullptr, nullptr, 0);
  }
  std::mutex mu_;
  std::atomic<uint32_t> gen_{0};
  uint32_t fgen_ = 0;
  int count_ = 0, waiting_ = 0;
};

struct Simdgroup {
  Barrier bar;
  std::mutex mu;
  unsigned active = 0;  // lanes still running the kernel
  alignas(16) unsigned char slots[32][64];
};

struct Dispatch;

struct ThreadCtx {
  Dispatch *d;
  unsigned tid, lane, sg;
  unsigned pos[kPosCount];
};

thread_local ThreadCtx *tls = nullptr;

struct Dispatch {
  KernelFn fn;
  unsigned grid[3], tg[3];
  unsigned nthreads, nsg;
  std::vector<void *> bufs;
  std::vector<unsigned char> tgmem_store;
  unsigned char *tgmem = nullptr;
  size_t tgmem_len = 0;
  Barrier end, tgbar;
  std::vector<Simdgroup> sgs;
  std::mutex mu;
  unsigned returned = 0;  // threads of the current threadgroup that returned
  std::string error;
};

void setup_threadgroup(Dispatch *d) {
  d->tgbar.reset((int)d->nthreads);
  d->returned = 0;
  for (unsigned s = 0; s < d->nsg; s++) {
    unsigned lanes = d->nthreads - s * 32 < 32 ? d->nthreads - s * 32 : 32;
    d->sgs[s].bar.reset((int)lanes);
    d->sgs[s].active = lanes == 32 ? 0xffffffffu : ((1u << lanes) - 1u);
  }
  if (d->tgmem_len) std::memset(d->tgmem, kPoisonByte, d->tgmem_len);
}

void set_positions(Dispatch *d, ThreadCtx *c, unsigned g) {
  unsigned t = c->tid;
  unsigned tx = t % d->tg[0], ty = (t / d->tg[0]) % d->tg[1], tz = t / (d->tg[0] * d->tg[1]);
  unsigned gx = g % d->grid[0], gy = (g / d->grid[0]) % d->grid[1], gz = g / (d->grid[0] * d->grid[1]);
  unsigned *p = c->pos;
  p[kPosTG] = gx, p[kPosTG + 1] = gy, p[kPosTG + 2] = gz;
  p[kPosT] = tx, p[kPosT + 1] = ty, p[kPosT + 2] = tz;
  p[kPosLane] = c->lane, p[kPosSG] = c->sg;
  p[kPosTPTG] = d->tg[0], p[kPosTPTG + 1] = d->tg[1], p[kPosTPTG + 2] = d->tg[2];
  p[kPosTGPG] = d->grid[0], p[kPosTGPG + 1] = d->grid[1], p[kPosTGPG + 2] = d->grid[2];
  p[kPosGrid] = gx * d->tg[0] + tx, p[kPosGrid + 1] = gy * d->tg[1] + ty, p[kPosGrid + 2] = gz * d->tg[2] + tz;
}

// thread_returned takes a thread that returned from the kernel out of its
// simdgroup and out of the threadgroup barrier.
void thread_returned(Dispatch *d, ThreadCtx *c) {
  Simdgroup &s = d->sgs[c->sg];
  {
    std::lock_guard<std::mutex> lk(s.mu);
    s.active &= ~(1u << c->lane);
  }
  s.bar.leave();
  {
    std::lock_guard<std::mutex> lk(d->mu);
    d->returned++;
  }
  if (d->tgbar.leave() > 0) {
    fatal("a thread returned while " + std::string("others wait in threadgroup_barrier") +
          " (every thread must reach it on Metal)");
  }
}

void *worker(void *arg) {
  ThreadCtx *c = (ThreadCtx *)arg;
  Dispatch *d = c->d;
  tls = c;
  unsigned groups = d->grid[0] * d->grid[1] * d->grid[2];
  // One rendezvous per threadgroup: the last thread to finish threadgroup
  // g sets up g+1 before any thread starts it.
  for (unsigned g = 0; g < groups; g++) {
    set_positions(d, c, g);
    d->fn(d->bufs.data(), d->tgmem, c->pos);
    thread_returned(d, c);
    d->end.wait("threadgroup end", [d] { setup_threadgroup(d); });
  }
  return nullptr;
}

// The fiber executor: a threadgroup's threads are ucontext fibers run
// round-robin by the dispatching thread, switching at every barrier and
// simdgroup function. It keeps the threads' semantics (barriers, simdgroup
// exchanges, returns) at a fraction of the cost of OS threads, for large
// runs such as the model test; sanitizer builds use threads.
struct Fiber {
  ucontext_t ctx;  // the fiber's start
  jmp_buf jb;      // where it yielded
  bool started = false;
  char *stack = nullptr;  // kFiberStack bytes, not zeroed
  ThreadCtx tc;
  bool done = false;
  const void *barrier = nullptr;  // what it waits on, or null
  const uint32_t *gen = nullptr;
  uint32_t seen = 0;
  const char *what = "";
};

// Switches after the start use _setjmp/_longjmp, which keep the signal
// mask (swapcontext saves and restores it with a system call each time).
struct FiberSched {
  jmp_buf main;
  std::vector<Fiber> fibers;
  Fiber *cur = nullptr;
};

FiberSched *sched = nullptr;
const size_t kFiberStack = 256 * 1024;

void fiber_block(const void *barrier, const uint32_t *gen, uint32_t seen, const char *what) {
  Fiber *f = sched->cur;
  f->barrier = barrier, f->gen = gen, f->seen = seen, f->what = what;
  if (_setjmp(f->jb) == 0) _longjmp(sched->main, 1);
}

void fiber_entry(unsigned hi, unsigned lo) {
  Fiber *f = (Fiber *)(((uintptr_t)hi << 32) | lo);
  Dispatch *d = f->tc.d;
  d->fn(d->bufs.data(), d->tgmem, f->tc.pos);
  thread_returned(d, &f->tc);
  f->done = true;
  _longjmp(sched->main, 1);
}

void run_fibers(Dispatch *d) {
  FiberSched fs;
  sched = &fs;
  fs.fibers = std::vector<Fiber>(d->nthreads);
  for (unsigned t = 0; t < d->nthreads; t++) {
    fs.fibers[t].stack = (char *)std::malloc(kFiberStack);
    ThreadCtx &c = fs.fibers[t].tc;
    c.d = d, c.tid = t, c.lane = t % 32, c.sg = t / 32;
  }
  unsigned groups = d->grid[0] * d->grid[1] * d->grid[2];
  for (unsigned g = 0; g < groups; g++) {
    setup_threadgroup(d);
    for (Fiber &f : fs.fibers) {
      set_positions(d, &f.tc, g);
      f.done = false, f.started = false, f.barrier = nullptr;
      getcontext(&f.ctx);
      f.ctx.uc_stack.ss_sp = f.stack;
      f.ctx.uc_stack.ss_size = kFiberStack;
      f.ctx.uc_link = nullptr;
      uintptr_t p = (uintptr_t)&f;
      makecontext(&f.ctx, (void (*)())fiber_entry, 2, (unsigned)(p >> 32), (unsigned)p);
    }
    for (;;) {
      bool progress = false, live = false;
      for (Fiber &f : fs.fibers) {
        if (f.done) continue;
        live = true;
        if (f.barrier && *f.gen == f.seen) continue;
        f.barrier = nullptr;
        fs.cur = &f;
        tls = &f.tc;
        if (_setjmp(fs.main) == 0) {
          if (!f.started) {
            f.started = true;
            setcontext(&f.ctx);
          }
          _longjmp(f.jb, 1);
        }
        progress = true;
      }
      if (!live) break;
      if (!progress) {
        unsigned n = 0;
        const char *what = "";
        for (Fiber &f : fs.fibers)
          if (!f.done) n++, what = f.what;
        fatal(std::string("deadlock: ") + std::to_string(n) + " threads wait in " + what +
              " and no thread of the threadgroup can reach it");
      }
    }
  }
  for (Fiber &f : fs.fibers) std::free(f.stack);
  sched = nullptr;
}

}  // namespace

void simd_exchange(const void *mine, std::size_t size, void *all32, unsigned *active) {
  ThreadCtx *c = tls;
  if (size > 64) fatal("simd value wider than 64 bytes");
  Simdgroup &s = c->d->sgs[c->sg];
  std::memcpy(s.slots[c->lane], mine, size);
  s.bar.wait("simdgroup function");
  unsigned char *out = (unsigned char *)all32;
  for (unsigned l = 0; l < 32; l++) std::memcpy(out + l * size, s.slots[l], size);
  {
    std::lock_guard<std::mutex> g(s.mu);
    *active = s.active;
  }
  s.bar.wait("simdgroup function");
}

void threadgroup_barrier() {
  Dispatch *d = tls->d;
  unsigned gone;
  {
    std::lock_guard<std::mutex> g(d->mu);
    gone = d->returned;
  }
  if (gone) {
    fatal("threadgroup_barrier reached after " + std::to_string(gone) + " of " + std::to_string(d->nthreads) +
          " threads of the threadgroup returned (every thread must reach it on Metal)");
  }
  d->tgbar.wait("threadgroup_barrier");
}

void simdgroup_barrier() { tls->d->sgs[tls->sg].bar.wait("simdgroup_barrier"); }

unsigned current_lane() { return tls->lane; }

namespace {

// Job file (little-endian), written by mslcpu.writeJob:
//   "RLXJOB1\n" u32 njobs, then per job:
//   u32 nbuf, per buffer: u64 size, u8 init (0 poison, 1 data, 2 zero), data if init 1
//   u32 ndisp, per dispatch: u32 kernel, u32 grid[3], u32 tg[3], u64 tgmem, u32 nbind, u32 buffer[nbind]
// Result file: "RLXRES1\n", per job per buffer: u64 size, u32 guard_before, u32 guard_after, bytes
//   (guard_* is the number of changed guard bytes).
struct Reader {
  FILE *f;
  template <class T>
  T get() {
    T v;
    if (std::fread(&v, sizeof v, 1, f) != 1) fatal("truncated job file");
    return v;
  }
};

struct Buf {
  size_t size;
  unsigned char *base;  // allocation start
  unsigned char *data;
};

Buf alloc_buf(size_t size) {
  Buf b;
  b.size = size;
#ifdef RLX_ASAN
  // Exact-size allocations, so that AddressSanitizer reports an access one
  // element past the end at the kernel line.
  b.base = (unsigned char *)std::malloc(size ? size : 1);
  b.data = b.base;
#else
  size_t total = size + 2 * kGuard;
  b.base = (unsigned char *)std::aligned_alloc(64, (total + 63) / 64 * 64);
  b.data = b.base + kGuard;
  std::memset(b.base, kGuardByte, kGuard);
  std::memset(b.data + size, kGuardByte, kGuard);
#endif
  return b;
}

unsigned guard_changes(const unsigned char *p) {
  unsigned n = 0;
  for (int i = 0; i < kGuard; i++) n += p[i] != kGuardByte;
  return n;
}

void run_threads(Dispatch *d);

void run_dispatch(const KernelEntry &k, const std::vector<Buf> &bufs, const unsigned grid[3], const unsigned tg[3],
                  size_t tgmem, const std::vector<unsigned> &bind) {
  Dispatch d;
  d.fn = k.fn;
  for (int i = 0; i < 3; i++) d.grid[i] = grid[i], d.tg[i] = tg[i];
  d.nthreads = tg[0] * tg[1] * tg[2];
  if (d.nthreads == 0 || d.nthreads > 1024) fatal(std::string(k.name) + ": bad threadgroup size");
  d.nsg = (d.nthreads + 31) / 32;
  d.sgs = std::vector<Simdgroup>(d.nsg);
  for (unsigned b : bind) d.bufs.push_back(bufs[b].data);
  d.tgmem_len = tgmem;
  if (tgmem) {
#ifdef RLX_ASAN
    d.tgmem = (unsigned char *)std::malloc(tgmem);
#else
    d.tgmem_store.resize(tgmem + 2 * kGuard, kGuardByte);
    d.tgmem = d.tgmem_store.data() + kGuard;
#endif
  }
  if (fibers) {
    run_fibers(&d);
  } else {
    run_threads(&d);
  }
#ifdef RLX_ASAN
  std::free(d.tgmem);
#else
  if (tgmem && (guard_changes(d.tgmem_store.data()) || guard_changes(d.tgmem + tgmem))) {
    fatal(std::string(k.name) + ": threadgroup memory written outside its " + std::to_string(tgmem) + " bytes");
  }
#endif
}

void run_threads(Dispatch *dp) {
  Dispatch &d = *dp;
  d.end.reset((int)d.nthreads);
  setup_threadgroup(&d);
  std::vector<ThreadCtx> ctx(d.nthreads);
  std::vector<pthread_t> th(d.nthreads);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 1 << 20);
  for (unsigned t = 0; t < d.nthreads; t++) {
    ctx[t].d = &d;
    ctx[t].tid = t;
    ctx[t].lane = t % 32;
    ctx[t].sg = t / 32;
    if (pthread_create(&th[t], &attr, worker, &ctx[t]) != 0) fatal("pthread_create failed");
  }
  for (unsigned t = 0; t < d.nthreads; t++) pthread_join(th[t], nullptr);
  pthread_attr_destroy(&attr);
}

}  // namespace

int harness_main(int argc, char **argv, const KernelEntry *kernels, int nkernels) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s JOB RESULT\n", argv[0]);
    return 2;
  }
  if (const char *s = std::getenv("RLX_MSL_DEADLINE")) deadline_seconds = std::atoi(s);
  // RLX_MSL_EXECUTOR=fibers runs threadgroups as fibers (not in
  // sanitizer builds, whose reports need the OS threads).
  if (const char *e = std::getenv("RLX_MSL_EXECUTOR")) {
    fibers = std::string(e) == "fibers";
#if defined(RLX_ASAN) || defined(RLX_TSAN)
    if (fibers) fatal("the fiber executor is not available in sanitizer builds");
#endif
  }
  // RLX_MSL_PROFILE=1 prints each dispatch's wall time on stderr.
  const bool profile = std::getenv("RLX_MSL_PROFILE") != nullptr;
  Reader r{std::fopen(argv[1], "rb")};
  if (!r.f) fatal(std::string("cannot open ") + argv[1]);
  char magic[8];
  if (std::fread(magic, 1, 8, r.f) != 8 || std::memcmp(magic, "RLXJOB1\n", 8) != 0) fatal("not a job file");
  FILE *out = std::fopen(argv[2], "wb");
  if (!out) fatal(std::string("cannot create ") + argv[2]);
  std::fwrite("RLXRES1\n", 1, 8, out);
  unsigned njobs = r.get<uint32_t>();
  for (unsigned j = 0; j < njobs; j++) {
    unsigned nbuf = r.get<uint32_t>();
    std::vector<Buf> bufs;
    for (unsigned b = 0; b < nbuf; b++) {
      uint64_t size = r.get<uint64_t>();
      uint8_t init = r.get<uint8_t>();
      Buf buf = alloc_buf(size);
      if (init == 1) {
        if (std::fread(buf.data, 1, size, r.f) != size) fatal("truncated job file");
      } else {
        std::memset(buf.data, init == 2 ? 0 : kPoisonByte, size);
      }
      bufs.push_back(buf);
    }
    unsigned ndisp = r.get<uint32_t>();
    for (unsigned i = 0; i < ndisp; i++) {
      unsigned kid = r.get<uint32_t>();
      unsigned grid[3], tg[3];
      for (int a = 0; a < 3; a++) grid[a] = r.get<uint32_t>();
      for (int a = 0; a < 3; a++) tg[a] = r.get<uint32_t>();
      uint64_t tgmem = r.get<uint64_t>();
      unsigned nbind = r.get<uint32_t>();
      std::vector<unsigned> bind;
      for (unsigned b = 0; b < nbind; b++) {
        unsigned id = r.get<uint32_t>();
        if (id >= nbuf) fatal("binding names a missing buffer");
        bind.push_back(id);
      }
      if ((int)kid >= nkernels) fatal("job names a missing kernel");
      auto t0 = std::chrono::steady_clock::now();
      run_dispatch(kernels[kid], bufs, grid, tg, tgmem, bind);
      if (profile) {
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        std::fprintf(stderr, "rlx-msl-cpu: %s grid %u,%u,%u threadgroup %u: %.1f ms\n", kernels[kid].name, grid[0],
                     grid[1], grid[2], tg[0] * tg[1] * tg[2], ms);
      }
    }
    for (Buf &b : bufs) {
      uint64_t size = b.size;
#ifdef RLX_ASAN
      uint32_t before = 0, after = 0;
#else
      uint32_t before = guard_changes(b.base), after = guard_changes(b.data + b.size);
#endif
      std::fwrite(&size, 8, 1, out);
      std::fwrite(&before, 4, 1, out);
      std::fwrite(&after, 4, 1, out);
      std::fwrite(b.data, 1, b.size, out);
      std::free(b.base);
    }
  }
  std::fclose(out);
  std::fclose(r.f);
  return 0;
}

}  // namespace rlx
