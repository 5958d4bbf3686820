/* rlx_record.c: rlx_runtime.h as a recorder. Every call is written as one
 * line of text (an MPS region's tensors and a dispatch's bindings on
 * indented lines after it) to the file named by the RLX_RECORD
 * environment variable, or to stderr; tests compare the record of a host
 * module's run with the plan it was made from. The arena and the weight
 * buffer are real memory, so a driver can write inputs; nothing runs.
 * An MPS region's builder is called with null arguments and what it
 * returns is recorded as a string: the tests' stand-in builders return
 * their own names, which shows the host module passed the right one. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rlx_runtime.h"

struct rlx_context {
  unsigned char *arena, *weights;
  uint64_t arena_bytes, weight_bytes;
  rlx_weight_loader load;
  void *user;
  FILE *out;
};

static const char *buffer_name(uint32_t b) { return b == RLX_WEIGHTS ? "weights" : b == RLX_ARENA ? "arena" : "?"; }

static const char *access_name(uint32_t a) {
  switch (a) {
    case RLX_READ:
      return "read";
    case RLX_WRITE:
      return "write";
    case RLX_READ_WRITE:
      return "read_write";
  }
  return "?";
}

static void tensor(FILE *f, const char *what, const rlx_tensor *t) {
  fprintf(f, "  %s %s@%" PRIu64 "+%" PRIu64 " dtype 0x%08x shape [", what, buffer_name(t->buffer), t->offset, t->bytes,
          t->dtype);
  for (uint32_t i = 0; i < t->rank; i++) fprintf(f, "%s%" PRId64, i ? ", " : "", t->shape[i]);
  fprintf(f, "] name %s\n", t->name ? t->name : "-");
}

rlx_context *rlx_create(uint64_t arena_bytes, uint64_t weight_bytes, const char *library) {
  rlx_context *ctx = calloc(1, sizeof *ctx);
  ctx->arena = malloc(arena_bytes ? arena_bytes : 1);
  ctx->weights = calloc(weight_bytes ? weight_bytes : 1, 1);
  ctx->arena_bytes = arena_bytes;
  ctx->weight_bytes = weight_bytes;
  const char *path = getenv("RLX_RECORD");
  ctx->out = path ? fopen(path, "w") : stderr;
  if (!ctx->out) ctx->out = stderr;
  fprintf(ctx->out, "create arena %" PRIu64 " weights %" PRIu64 " library %s\n", arena_bytes, weight_bytes,
          library ? "given" : "null");
  return ctx;
}

void rlx_destroy(rlx_context *ctx) {
  if (!ctx) return;
  fprintf(ctx->out, "destroy\n");
  if (ctx->out != stderr) fclose(ctx->out);
  free(ctx->arena);
  free(ctx->weights);
  free(ctx);
}

const char *rlx_error(rlx_context *ctx) {
  (void)ctx;
  return NULL;
}

int rlx_kernel(rlx_context *ctx, uint32_t pipeline, const char *name) {
  fprintf(ctx->out, "kernel %u %s\n", pipeline, name);
  return 0;
}

int rlx_mps_region(rlx_context *ctx, uint32_t region, const char *symbol, rlx_mps_builder build, uint32_t n_inputs,
                   const rlx_tensor *inputs, uint32_t n_results, const rlx_tensor *results, uint32_t n_weights,
                   const rlx_tensor *weights, uint32_t n_constants, const rlx_constant *constants) {
  const char *who = build ? (const char *)build(NULL, NULL, NULL, NULL) : "null";
  fprintf(ctx->out, "mps_region %u %s builder %s\n", region, symbol, who ? who : "null");
  for (uint32_t i = 0; i < n_inputs; i++) tensor(ctx->out, "input", &inputs[i]);
  for (uint32_t i = 0; i < n_results; i++) tensor(ctx->out, "result", &results[i]);
  for (uint32_t i = 0; i < n_weights; i++) tensor(ctx->out, "weight", &weights[i]);
  for (uint32_t i = 0; i < n_constants; i++) fprintf(ctx->out, "  constant %s %" PRIu64 "\n", constants[i].key, constants[i].bytes);
  return 0;
}

void rlx_set_weight_loader(rlx_context *ctx, rlx_weight_loader load, void *user) {
  ctx->load = load;
  ctx->user = user;
  fprintf(ctx->out, "set_weight_loader\n");
}

int rlx_bind_weight(rlx_context *ctx, const char *name, uint64_t offset, uint64_t bytes) {
  fprintf(ctx->out, "bind_weight %s weights@%" PRIu64 "+%" PRIu64 "\n", name, offset, bytes);
  if (offset > ctx->weight_bytes || bytes > ctx->weight_bytes - offset) return 1;
  return ctx->load ? ctx->load(ctx->user, name, ctx->weights + offset, bytes) : 1;
}

int rlx_set_weight_bytes(rlx_context *ctx, uint64_t offset, uint64_t bytes, const void *data) {
  /* FNV-1a 64 of the bytes, so the record shows which bytes were set. */
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint64_t i = 0; i < bytes; i++) h = (h ^ ((const unsigned char *)data)[i]) * 0x100000001b3ull;
  fprintf(ctx->out, "set_weight_bytes weights@%" PRIu64 "+%" PRIu64 " fnv %016" PRIx64 "\n", offset, bytes, h);
  return 0;
}

int rlx_begin(rlx_context *ctx) {
  fprintf(ctx->out, "begin\n");
  return 0;
}

int rlx_fill_zero(rlx_context *ctx, uint64_t offset, uint64_t bytes) {
  fprintf(ctx->out, "fill_zero arena@%" PRIu64 "+%" PRIu64 "\n", offset, bytes);
  return 0;
}

int rlx_copy_weight(rlx_context *ctx, uint64_t src, uint64_t dst, uint64_t bytes) {
  fprintf(ctx->out, "copy_weight weights@%" PRIu64 " -> arena@%" PRIu64 " +%" PRIu64 "\n", src, dst, bytes);
  return 0;
}

int rlx_dispatch(rlx_context *ctx, uint32_t kernel, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t tx, uint32_t ty,
                 uint32_t tz, uint32_t tgmem, uint32_t n, const rlx_binding *b) {
  fprintf(ctx->out, "dispatch %u grid %u %u %u threadgroup %u %u %u tgmem %u\n", kernel, gx, gy, gz, tx, ty, tz, tgmem);
  for (uint32_t i = 0; i < n; i++) {
    fprintf(ctx->out, "  bind %s@%" PRIu64 "+%" PRIu64 " %s\n", buffer_name(b[i].buffer), b[i].offset, b[i].bytes,
            access_name(b[i].access));
  }
  return 0;
}

int rlx_mps(rlx_context *ctx, uint32_t region) {
  fprintf(ctx->out, "mps %u\n", region);
  return 0;
}

int rlx_copy(rlx_context *ctx, uint64_t src, uint64_t dst, uint64_t bytes) {
  fprintf(ctx->out, "copy arena@%" PRIu64 " -> arena@%" PRIu64 " +%" PRIu64 "\n", src, dst, bytes);
  return 0;
}

int rlx_commit_and_wait(rlx_context *ctx) {
  fprintf(ctx->out, "commit_and_wait\n");
  return 0;
}

int rlx_check_status(rlx_context *ctx, uint64_t offset, uint64_t bytes, const char *symbol) {
  fprintf(ctx->out, "check_status arena@%" PRIu64 "+%" PRIu64 " %s\n", offset, bytes, symbol);
  return 0;
}

void *rlx_arena(rlx_context *ctx) { return ctx->arena; }
