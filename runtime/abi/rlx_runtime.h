/* rlx_runtime.h: the C runtime ABI of rlx plans (docs/apps.md).
 *
 * A host module that `rlx-translate --mlir-to-llvmir` writes sequences one
 * plan's steps through these functions, with the plan's arena offsets,
 * kernel grids and bindings as constants. An implementation runs them:
 * rlx_runtime_metal.m on Apple GPUs (runtime/backend/metal: one arena
 * MTLBuffer, the kernels' library, one MPSGraph executable per region),
 * rlx_runtime_cpu.cpp on the CPU (the emitted MSL compiled as C++ with
 * codegen/metal/mslcpu's shim), or a test's recording implementation.
 *
 * Every function that can fail returns 0 on success and nonzero on
 * failure, with a message in rlx_error(ctx). Offsets and sizes are bytes.
 * Nothing here waits for the device except rlx_commit_and_wait: a run
 * encodes every step and waits once, at the end.
 */
#ifndef RLX_RUNTIME_H
#define RLX_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RLX_ABI_VERSION 2

typedef struct rlx_context rlx_context;

/* The two buffers of a plan. */
enum { RLX_ARENA = 0, RLX_WEIGHTS = 1 };

/* How a kernel uses a binding. */
enum { RLX_READ = 1, RLX_WRITE = 2, RLX_READ_WRITE = 3 };

/* Element types, with MPSDataType's values so that an implementation on
 * MPSGraph passes them through. */
enum {
  RLX_F32 = 0x10000020,
  RLX_F16 = 0x10000010,
  RLX_BF16 = (int)0x90000010u,
  RLX_I64 = 0x20000040,
  RLX_I32 = 0x20000020,
  RLX_I8 = 0x20000008,
  RLX_U8 = 0x00000008,
  RLX_BOOL = (int)0x80000008u
};

/* A kernel argument: bytes of a buffer at an offset. */
typedef struct rlx_binding {
  uint32_t buffer; /* RLX_ARENA or RLX_WEIGHTS */
  uint32_t access; /* RLX_READ, RLX_WRITE or RLX_READ_WRITE */
  uint64_t offset;
  uint64_t bytes;
} rlx_binding;

/* A tensor in a buffer: an MPS region's input, result or weight, or a
 * function's argument or result. name is a weight's name (NULL for
 * others). */
typedef struct rlx_tensor {
  const char *name;
  uint32_t buffer;
  uint32_t dtype;
  uint64_t offset;
  uint64_t bytes;
  uint32_t rank;
  const int64_t *shape;
} rlx_tensor;

/* A constant an MPS region's builder takes from its dictionary
 * (codegen/mps: constants larger than max-inline-bytes). */
typedef struct rlx_constant {
  const char *key;
  const void *data;
  uint64_t bytes;
} rlx_constant;

/* An MPS region's builder from codegen/mps, as an opaque function
 * pointer: NSArray<MPSGraphTensor *> *(MPSGraph *, NSArray<MPSGraphTensor *>
 * *inputs, NSMutableDictionary<NSString *, MPSGraphTensor *> *weights,
 * NSDictionary<NSString *, NSData *> *constants). */
typedef void *(*rlx_mps_builder)(void *graph, void *inputs, void *weights, void *constants);

/* Copies the `bytes` bytes of the weight called name to dst; returns 0 on
 * success. */
typedef int (*rlx_weight_loader)(void *user, const char *name, void *dst, uint64_t bytes);

/* rlx_create allocates the arena and the weight buffer and loads the
 * kernels' library: MSL source text, the path of a .metallib, or NULL for
 * the app's default library (the .metal file compiled by Xcode). It
 * returns NULL when the device or the library fails (rlx_error(NULL) says
 * why). */
rlx_context *rlx_create(uint64_t arena_bytes, uint64_t weight_bytes, const char *library);
void rlx_destroy(rlx_context *ctx);
const char *rlx_error(rlx_context *ctx);

/* rlx_kernel makes pipeline from the library's kernel function name. */
int rlx_kernel(rlx_context *ctx, uint32_t pipeline, const char *name);

/* rlx_mps_region builds MPS region region with its builder and compiles its
 * executable once; every run then feeds inputs and weights from, and
 * writes results to, the given slots. */
int rlx_mps_region(rlx_context *ctx, uint32_t region, const char *symbol, rlx_mps_builder build, uint32_t n_inputs,
                   const rlx_tensor *inputs, uint32_t n_results, const rlx_tensor *results, uint32_t n_weights,
                   const rlx_tensor *weights, uint32_t n_constants, const rlx_constant *constants);

/* Weights: rlx_bind_weight fills a weight's slot through the loader;
 * rlx_set_weight_bytes fills one with bytes the host module holds (a
 * kernel's constant). */
void rlx_set_weight_loader(rlx_context *ctx, rlx_weight_loader load, void *user);
int rlx_bind_weight(rlx_context *ctx, const char *name, uint64_t offset, uint64_t bytes);
int rlx_set_weight_bytes(rlx_context *ctx, uint64_t offset, uint64_t bytes, const void *data);

/* A run: rlx_begin, the plan's commands in order, rlx_commit_and_wait,
 * then rlx_check_status on every status word. */
int rlx_begin(rlx_context *ctx);
int rlx_fill_zero(rlx_context *ctx, uint64_t offset, uint64_t bytes);
int rlx_copy_weight(rlx_context *ctx, uint64_t src, uint64_t dst, uint64_t bytes);
int rlx_dispatch(rlx_context *ctx, uint32_t kernel, uint32_t grid_x, uint32_t grid_y, uint32_t grid_z, uint32_t tg_x,
                 uint32_t tg_y, uint32_t tg_z, uint32_t threadgroup_memory, uint32_t n_bindings,
                 const rlx_binding *bindings);
int rlx_mps(rlx_context *ctx, uint32_t region);
int rlx_copy(rlx_context *ctx, uint64_t src, uint64_t dst, uint64_t bytes);
int rlx_commit_and_wait(rlx_context *ctx);
/* rlx_check_status fails when the status word at offset is not zero (bit
 * 0: a gather index out of range, bit 1: an integer division by zero in
 * region symbol), or when one of the u32 words after it, up to bytes (the
 * arrival counters of folded merges, MSL 3.2), is not back at zero. */
int rlx_check_status(rlx_context *ctx, uint64_t offset, uint64_t bytes, const char *symbol);

/* The arena's bytes, shared with the device: a function's arguments are
 * written and its results read at the offsets of its ports. */
void *rlx_arena(rlx_context *ctx);

#ifdef __cplusplus
}
#endif

#endif
