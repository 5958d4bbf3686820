// rlx_runtime_cpu.cpp: rlx_runtime.h on the CPU. The Metal steps' kernels
// are the emitted MSL compiled as C++ against codegen/metal/mslcpu's shim
// and linked in (mslcpu.WriteSources: rlx::kernel_table), and each
// dispatch runs them through rlx::dispatch with its buffers bound at
// offsets into one arena and one weight buffer, as Metal binds
// setBuffer:offset:atIndex:. MPS regions need MPSGraph: a plan with MPS
// steps fails at rlx_mps_region here. Everything runs when encoded, so
// rlx_commit_and_wait has nothing to wait for.
//
// rlx_cpu_create_over (not in the ABI) runs over memory its caller
// provides: the sim backend's server maps the arena it shares with Go.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "rlx_dispatch.h"
#include "rlx_runtime.h"

struct rlx_context {
  unsigned char *arena = nullptr, *weights = nullptr;
  uint64_t arena_bytes = 0, weight_bytes = 0;
  bool owned = false;
  std::vector<int> kernels;  // pipeline id -> index in rlx::kernel_table
  rlx_weight_loader load = nullptr;
  void *user = nullptr;
  std::string err;
};

namespace {

std::string create_error;

int fail(rlx_context *ctx, const std::string &msg) {
  ctx->err = msg;
  return 1;
}

bool inside(uint64_t offset, uint64_t bytes, uint64_t size) { return offset <= size && bytes <= size - offset; }

}  // namespace

extern "C" {

rlx_context *rlx_cpu_create_over(void *arena, uint64_t arena_bytes, void *weights, uint64_t weight_bytes) {
  rlx_context *ctx = new rlx_context;
  ctx->arena = static_cast<unsigned char *>(arena);
  ctx->weights = static_cast<unsigned char *>(weights);
  ctx->arena_bytes = arena_bytes;
  ctx->weight_bytes = weight_bytes;
  return ctx;
}

rlx_context *rlx_create(uint64_t arena_bytes, uint64_t weight_bytes, const char *library) {
  (void)library;  // the kernels are compiled in
  unsigned char *arena = static_cast<unsigned char *>(std::malloc(arena_bytes ? arena_bytes : 1));
  unsigned char *weights = static_cast<unsigned char *>(std::calloc(weight_bytes ? weight_bytes : 1, 1));
  if (!arena || !weights) {
    std::free(arena);
    std::free(weights);
    create_error = "out of memory";
    return nullptr;
  }
  // Poisoned, so that a kernel reading a slot nothing wrote reads NaN.
  std::memset(arena, 0xff, arena_bytes);
  rlx_context *ctx = rlx_cpu_create_over(arena, arena_bytes, weights, weight_bytes);
  ctx->owned = true;
  return ctx;
}

void rlx_destroy(rlx_context *ctx) {
  if (!ctx) return;
  if (ctx->owned) {
    std::free(ctx->arena);
    std::free(ctx->weights);
  }
  delete ctx;
}

const char *rlx_error(rlx_context *ctx) {
  if (!ctx) return create_error.empty() ? nullptr : create_error.c_str();
  return ctx->err.empty() ? nullptr : ctx->err.c_str();
}

int rlx_kernel(rlx_context *ctx, uint32_t pipeline, const char *name) {
  for (int i = 0; i < rlx::kernel_count; i++) {
    if (std::strcmp(rlx::kernel_table[i].name, name) == 0) {
      if (ctx->kernels.size() <= pipeline) ctx->kernels.resize(pipeline + 1, -1);
      ctx->kernels[pipeline] = i;
      return 0;
    }
  }
  return fail(ctx, std::string("no kernel named ") + name + " in the library");
}

int rlx_mps_region(rlx_context *ctx, uint32_t, const char *symbol, rlx_mps_builder, uint32_t, const rlx_tensor *, uint32_t,
                   const rlx_tensor *, uint32_t, const rlx_tensor *, uint32_t, const rlx_constant *) {
  return fail(ctx, std::string("MPS region @") + symbol +
                       ": the CPU runtime runs Metal kernels only (MPSGraph regions need rlx_runtime_metal.m)");
}

void rlx_set_weight_loader(rlx_context *ctx, rlx_weight_loader load, void *user) {
  ctx->load = load;
  ctx->user = user;
}

int rlx_bind_weight(rlx_context *ctx, const char *name, uint64_t offset, uint64_t bytes) {
  if (!inside(offset, bytes, ctx->weight_bytes)) return fail(ctx, std::string("weight ") + name + " lies outside the weight buffer");
  if (!ctx->load) return fail(ctx, "no weight loader");
  if (ctx->load(ctx->user, name, ctx->weights + offset, bytes) != 0) return fail(ctx, std::string("cannot load weight ") + name);
  return 0;
}

int rlx_set_weight_bytes(rlx_context *ctx, uint64_t offset, uint64_t bytes, const void *data) {
  if (!inside(offset, bytes, ctx->weight_bytes)) return fail(ctx, "constant outside the weight buffer");
  std::memcpy(ctx->weights + offset, data, bytes);
  return 0;
}

int rlx_begin(rlx_context *) { return 0; }

int rlx_fill_zero(rlx_context *ctx, uint64_t offset, uint64_t bytes) {
  if (!inside(offset, bytes, ctx->arena_bytes)) return fail(ctx, "fill outside the arena");
  std::memset(ctx->arena + offset, 0, bytes);
  return 0;
}

int rlx_copy_weight(rlx_context *ctx, uint64_t src, uint64_t dst, uint64_t bytes) {
  if (!inside(src, bytes, ctx->weight_bytes) || !inside(dst, bytes, ctx->arena_bytes)) return fail(ctx, "copy outside a buffer");
  std::memcpy(ctx->arena + dst, ctx->weights + src, bytes);
  return 0;
}

int rlx_dispatch(rlx_context *ctx, uint32_t kernel, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t tx, uint32_t ty,
                 uint32_t tz, uint32_t tgmem, uint32_t n, const rlx_binding *b) {
  if (kernel >= ctx->kernels.size() || ctx->kernels[kernel] < 0) return fail(ctx, "dispatch of an unknown pipeline");
  std::vector<void *> ptrs(n);
  for (uint32_t i = 0; i < n; i++) {
    unsigned char *base = b[i].buffer == RLX_WEIGHTS ? ctx->weights : ctx->arena;
    uint64_t size = b[i].buffer == RLX_WEIGHTS ? ctx->weight_bytes : ctx->arena_bytes;
    if (!inside(b[i].offset, b[i].bytes, size)) {
      return fail(ctx, std::string(rlx::kernel_table[ctx->kernels[kernel]].name) + ": binding " + std::to_string(i) +
                           " lies outside its buffer");
    }
    ptrs[i] = base + b[i].offset;
  }
  const unsigned grid[3] = {gx, gy, gz}, tg[3] = {tx, ty, tz};
  rlx::dispatch(rlx::kernel_table[ctx->kernels[kernel]], ptrs.data(), n, grid, tg, tgmem);
  return 0;
}

int rlx_mps(rlx_context *ctx, uint32_t region) {
  return fail(ctx, "MPS region " + std::to_string(region) + ": the CPU runtime runs Metal kernels only");
}

int rlx_copy(rlx_context *ctx, uint64_t src, uint64_t dst, uint64_t bytes) {
  if (!inside(src, bytes, ctx->arena_bytes) || !inside(dst, bytes, ctx->arena_bytes)) return fail(ctx, "copy outside the arena");
  std::memmove(ctx->arena + dst, ctx->arena + src, bytes);
  return 0;
}

int rlx_commit_and_wait(rlx_context *) { return 0; }

int rlx_check_status(rlx_context *ctx, uint64_t offset, uint64_t bytes, const char *symbol) {
  if (bytes < 4 || !inside(offset, bytes, ctx->arena_bytes)) return fail(ctx, "status words outside the arena");
  for (uint64_t w = 4; w + 4 <= bytes; w += 4) {
    uint32_t c;
    std::memcpy(&c, ctx->arena + offset + w, 4);
    if (c != 0)
      return fail(ctx, std::string("region @") + symbol + ": arrival counter " + std::to_string(w / 4 - 1) + " is " +
                           std::to_string(c) + " after the run, not 0 (a folded merge did not finish)");
  }
  uint32_t s;
  std::memcpy(&s, ctx->arena + offset, 4);
  if (s == 0) return 0;
  std::string why;
  if (s & 1) why += "a gather index was out of range";
  if (s & 2) why += std::string(why.empty() ? "" : ", ") + "an integer division by zero";
  return fail(ctx, std::string("region @") + symbol + ": " + why);
}

void *rlx_arena(rlx_context *ctx) { return ctx->arena; }

}  // extern "C"
