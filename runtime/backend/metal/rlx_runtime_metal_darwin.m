//go:build darwin && cgo

// rlx_runtime_metal_darwin.m: rlx_runtime.h on Apple GPUs, for the Metal
// backend (through cgo) and for apps that link a host module (rlx-compile
// copies this file into the bundle; docs/apps.md).
//
// One shared MTLBuffer holds the arena and one the weights. A run encodes
// into one MPSCommandBuffer: kernel dispatches go to a compute encoder
// (serial dispatch, so each sees the one before), MPSGraph executables
// encode into the same command buffer, copies and fills to blit encoders;
// rlx_commit_and_wait is the only place the CPU waits.
//
// MPSGraph's tensor data cannot point into a buffer at an offset before
// macOS 15: there MPSNDArray initWithBuffer:offset:descriptor: gives a view
// of the arena, with packed rows. On older systems each MPS tensor gets a
// staging buffer of its own, filled from the arena by a blit before the
// executable runs (results: emptied into the arena after), in the same
// command buffer, so no CPU wait is added either way.
#import <Foundation/Foundation.h>
#import <Metal/Metal.h>
#import <MetalPerformanceShaders/MetalPerformanceShaders.h>
#import <MetalPerformanceShadersGraph/MetalPerformanceShadersGraph.h>

#include <string.h>

#include "rlx_runtime.h"

typedef NSArray<MPSGraphTensor *> *_Nullable (*rlx_objc_builder)(MPSGraph *, NSArray<MPSGraphTensor *> *,
                                                                NSMutableDictionary<NSString *, MPSGraphTensor *> *,
                                                                NSDictionary<NSString *, NSData *> *);

// A tensor of an MPS region: where it lives, and the data MPSGraph reads
// or writes (a view of the arena or the weights, or a staging buffer).
@interface RLXTensor : NSObject
@property(nonatomic) id<MTLBuffer> buffer;  // the arena or the weights
@property(nonatomic) uint64_t offset, bytes;
@property(nonatomic) id<MTLBuffer> staging;  // nil when data views the buffer
@property(nonatomic) MPSGraphTensorData *data;
@end

@implementation RLXTensor
@end

// An MPS region: its executable and its tensors in the executable's
// feed order, and its results.
@interface RLXRegion : NSObject
@property(nonatomic) MPSGraphExecutable *exe;
@property(nonatomic) NSArray<RLXTensor *> *feeds;
@property(nonatomic) NSArray<RLXTensor *> *results;
@property(nonatomic) NSArray<MPSGraphTensorData *> *feedData, *resultData;
@end

@implementation RLXRegion
@end

@interface RLXContext : NSObject
@property(nonatomic) id<MTLDevice> device;
@property(nonatomic) id<MTLCommandQueue> queue;
@property(nonatomic) id<MTLLibrary> library;
@property(nonatomic) id<MTLBuffer> arena, weights;
@property(nonatomic) NSMutableDictionary<NSNumber *, id<MTLComputePipelineState>> *pipelines;
@property(nonatomic) NSMutableDictionary<NSNumber *, RLXRegion *> *regions;
@property(nonatomic) MPSCommandBuffer *commands;
@property(nonatomic) id<MTLComputeCommandEncoder> compute;
@property(nonatomic) NSString *error;
@property(nonatomic) rlx_weight_loader load;
@property(nonatomic) void *user;
@end

@implementation RLXContext
@end

static NSString *create_error;

static RLXContext *context(rlx_context *ctx) { return (__bridge RLXContext *)(void *)ctx; }

static int fail(RLXContext *c, NSString *msg) {
  c.error = msg;
  return 1;
}

static BOOL inside(uint64_t offset, uint64_t bytes, id<MTLBuffer> b) {
  return offset <= b.length && bytes <= b.length - offset;
}

// endCompute closes the compute encoder before other work is encoded.
static void endCompute(RLXContext *c) {
  if (c.compute) {
    [c.compute endEncoding];
    c.compute = nil;
  }
}

static MPSShape *shapeOf(const rlx_tensor *t) {
  NSMutableArray<NSNumber *> *s = [NSMutableArray array];
  for (uint32_t i = 0; i < t->rank; i++) [s addObject:@(t->shape[i])];
  return s;
}

rlx_context *rlx_create(uint64_t arena_bytes, uint64_t weight_bytes, const char *library) {
  RLXContext *c = [RLXContext new];
  c.device = MTLCreateSystemDefaultDevice();
  if (!c.device) {
    create_error = @"no Metal device";
    return NULL;
  }
  c.queue = [c.device newCommandQueue];
  c.arena = [c.device newBufferWithLength:(arena_bytes ? arena_bytes : 16) options:MTLResourceStorageModeShared];
  c.weights = [c.device newBufferWithLength:(weight_bytes ? weight_bytes : 16) options:MTLResourceStorageModeShared];
  if (!c.queue || !c.arena || !c.weights) {
    create_error = @"cannot allocate the arena and the weights";
    return NULL;
  }
  NSError *err = nil;
  if (library == NULL) {
    c.library = [c.device newDefaultLibrary];
  } else {
    NSString *lib = [NSString stringWithUTF8String:library];
    if ([lib hasSuffix:@".metallib"]) {
      c.library = [c.device newLibraryWithURL:[NSURL fileURLWithPath:lib] error:&err];
    } else {
      // The kernels rely on IEEE exp(-inf) = 0, NaN propagation and no
      // contraction: fast math off (the manifest's math_mode "safe").
      MTLCompileOptions *opts = [MTLCompileOptions new];
      if (@available(macOS 15.0, *)) {
        opts.mathMode = MTLMathModeSafe;
      } else {
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
        opts.fastMathEnabled = NO;
#pragma clang diagnostic pop
      }
      c.library = [c.device newLibraryWithSource:lib options:opts error:&err];
    }
  }
  if (!c.library) {
    create_error = [NSString stringWithFormat:@"cannot load the kernels' library: %@", err ? err.localizedDescription : @"no default library"];
    return NULL;
  }
  c.pipelines = [NSMutableDictionary dictionary];
  c.regions = [NSMutableDictionary dictionary];
  return (rlx_context *)(__bridge_retained void *)c;
}

void rlx_destroy(rlx_context *ctx) {
  if (ctx) {
    RLXContext *c = (__bridge_transfer RLXContext *)(void *)ctx;
    c.regions = nil;
  }
}

const char *rlx_error(rlx_context *ctx) {
  NSString *e = ctx ? context(ctx).error : create_error;
  return e ? e.UTF8String : NULL;
}

int rlx_kernel(rlx_context *ctx, uint32_t pipeline, const char *name) {
  RLXContext *c = context(ctx);
  id<MTLFunction> f = [c.library newFunctionWithName:[NSString stringWithUTF8String:name]];
  if (!f) return fail(c, [NSString stringWithFormat:@"no kernel %s in the library", name]);
  NSError *err = nil;
  id<MTLComputePipelineState> ps = [c.device newComputePipelineStateWithFunction:f error:&err];
  if (!ps) return fail(c, [NSString stringWithFormat:@"kernel %s: %@", name, err.localizedDescription]);
  c.pipelines[@(pipeline)] = ps;
  return 0;
}

// tensorFor makes the data of one MPS tensor: a view of its buffer at its
// offset where the OS has MPSNDArray views, a staging buffer elsewhere.
static RLXTensor *tensorFor(RLXContext *c, const rlx_tensor *t) {
  RLXTensor *r = [RLXTensor new];
  r.buffer = t->buffer == RLX_WEIGHTS ? c.weights : c.arena;
  r.offset = t->offset;
  r.bytes = t->bytes;
  MPSShape *shape = shapeOf(t);
  MPSDataType dt = (MPSDataType)t->dtype;
  if (@available(macOS 15.0, *)) {
    MPSNDArrayDescriptor *d = [MPSNDArrayDescriptor descriptorWithDataType:dt shape:shape];
    d.preferPackedRows = YES;
    MPSNDArray *a = [[MPSNDArray alloc] initWithBuffer:r.buffer offset:t->offset descriptor:d];
    r.data = [[MPSGraphTensorData alloc] initWithMPSNDArray:a];
  } else {
    r.staging = [c.device newBufferWithLength:(t->bytes ? t->bytes : 16) options:MTLResourceStorageModePrivate];
    r.data = [[MPSGraphTensorData alloc] initWithMTLBuffer:r.staging shape:shape dataType:dt];
  }
  return r;
}

int rlx_mps_region(rlx_context *ctx, uint32_t region, const char *symbol, rlx_mps_builder build, uint32_t n_inputs,
                   const rlx_tensor *inputs, uint32_t n_results, const rlx_tensor *results, uint32_t n_weights,
                   const rlx_tensor *weights, uint32_t n_constants, const rlx_constant *constants) {
  RLXContext *c = context(ctx);
  MPSGraph *graph = [MPSGraph new];
  NSMutableArray<MPSGraphTensor *> *in = [NSMutableArray array];
  NSMutableDictionary<MPSGraphTensor *, MPSGraphShapedType *> *types = [NSMutableDictionary dictionary];
  NSMutableDictionary<MPSGraphTensor *, RLXTensor *> *fed = [NSMutableDictionary dictionary];
  for (uint32_t i = 0; i < n_inputs; i++) {
    MPSGraphTensor *p = [graph placeholderWithShape:shapeOf(&inputs[i]) dataType:(MPSDataType)inputs[i].dtype name:nil];
    [in addObject:p];
    types[p] = [[MPSGraphShapedType alloc] initWithShape:shapeOf(&inputs[i]) dataType:(MPSDataType)inputs[i].dtype];
    fed[p] = tensorFor(c, &inputs[i]);
  }
  NSMutableDictionary<NSString *, MPSGraphTensor *> *wts = [NSMutableDictionary dictionary];
  NSMutableDictionary<NSString *, NSData *> *consts = [NSMutableDictionary dictionary];
  for (uint32_t i = 0; i < n_constants; i++) {
    [consts setObject:[NSData dataWithBytes:constants[i].data length:constants[i].bytes]
               forKey:[NSString stringWithUTF8String:constants[i].key]];
  }
  NSArray<MPSGraphTensor *> *outs = ((rlx_objc_builder)build)(graph, in, wts, consts);
  if (!outs || outs.count != n_results) {
    return fail(c, [NSString stringWithFormat:@"MPS region @%s: the builder returned %lu results, the plan has %u", symbol,
                                              (unsigned long)outs.count, n_results]);
  }
  // The builder made a placeholder per weight, by name.
  for (uint32_t i = 0; i < n_weights; i++) {
    MPSGraphTensor *p = wts[[NSString stringWithUTF8String:weights[i].name]];
    if (!p) return fail(c, [NSString stringWithFormat:@"MPS region @%s does not read weight %s", symbol, weights[i].name]);
    types[p] = [[MPSGraphShapedType alloc] initWithShape:shapeOf(&weights[i]) dataType:(MPSDataType)weights[i].dtype];
    fed[p] = tensorFor(c, &weights[i]);
  }
  RLXRegion *r = [RLXRegion new];
  r.exe = [graph compileWithDevice:[MPSGraphDevice deviceWithMTLDevice:c.device]
                             feeds:types
                     targetTensors:outs
                  targetOperations:nil
             compilationDescriptor:nil];
  if (!r.exe) return fail(c, [NSString stringWithFormat:@"MPS region @%s does not compile", symbol]);
  NSMutableArray<RLXTensor *> *feeds = [NSMutableArray array];
  NSMutableArray<MPSGraphTensorData *> *feedData = [NSMutableArray array];
  for (MPSGraphTensor *p in r.exe.feedTensors) {
    RLXTensor *t = fed[p];
    if (!t) return fail(c, [NSString stringWithFormat:@"MPS region @%s: a feed of the executable is not an input or a weight", symbol]);
    [feeds addObject:t];
    [feedData addObject:t.data];
  }
  NSMutableArray<RLXTensor *> *res = [NSMutableArray array];
  NSMutableArray<MPSGraphTensorData *> *resData = [NSMutableArray array];
  for (uint32_t i = 0; i < n_results; i++) {
    RLXTensor *t = tensorFor(c, &results[i]);
    [res addObject:t];
    [resData addObject:t.data];
  }
  r.feeds = feeds;
  r.feedData = feedData;
  r.results = res;
  r.resultData = resData;
  c.regions[@(region)] = r;
  return 0;
}

void rlx_set_weight_loader(rlx_context *ctx, rlx_weight_loader load, void *user) {
  context(ctx).load = load;
  context(ctx).user = user;
}

int rlx_bind_weight(rlx_context *ctx, const char *name, uint64_t offset, uint64_t bytes) {
  RLXContext *c = context(ctx);
  if (!inside(offset, bytes, c.weights)) return fail(c, [NSString stringWithFormat:@"weight %s lies outside the weight buffer", name]);
  if (!c.load) return fail(c, @"no weight loader");
  if (c.load(c.user, name, (char *)c.weights.contents + offset, bytes) != 0) {
    return fail(c, [NSString stringWithFormat:@"cannot load weight %s", name]);
  }
  return 0;
}

int rlx_set_weight_bytes(rlx_context *ctx, uint64_t offset, uint64_t bytes, const void *data) {
  RLXContext *c = context(ctx);
  if (!inside(offset, bytes, c.weights)) return fail(c, @"constant outside the weight buffer");
  memcpy((char *)c.weights.contents + offset, data, bytes);
  return 0;
}

int rlx_begin(rlx_context *ctx) {
  RLXContext *c = context(ctx);
  c.commands = [MPSCommandBuffer commandBufferFromCommandQueue:c.queue];
  return c.commands ? 0 : fail(c, @"no command buffer");
}

int rlx_fill_zero(rlx_context *ctx, uint64_t offset, uint64_t bytes) {
  RLXContext *c = context(ctx);
  if (!inside(offset, bytes, c.arena)) return fail(c, @"fill outside the arena");
  endCompute(c);
  id<MTLBlitCommandEncoder> b = [c.commands blitCommandEncoder];
  [b fillBuffer:c.arena range:NSMakeRange(offset, bytes) value:0];
  [b endEncoding];
  return 0;
}

static void blit(RLXContext *c, id<MTLBuffer> from, uint64_t src, id<MTLBuffer> to, uint64_t dst, uint64_t bytes) {
  id<MTLBlitCommandEncoder> b = [c.commands blitCommandEncoder];
  [b copyFromBuffer:from sourceOffset:src toBuffer:to destinationOffset:dst size:bytes];
  [b endEncoding];
}

int rlx_copy_weight(rlx_context *ctx, uint64_t src, uint64_t dst, uint64_t bytes) {
  RLXContext *c = context(ctx);
  if (!inside(src, bytes, c.weights) || !inside(dst, bytes, c.arena)) return fail(c, @"copy outside a buffer");
  endCompute(c);
  blit(c, c.weights, src, c.arena, dst, bytes);
  return 0;
}

int rlx_dispatch(rlx_context *ctx, uint32_t kernel, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t tx, uint32_t ty,
                 uint32_t tz, uint32_t tgmem, uint32_t n, const rlx_binding *b) {
  RLXContext *c = context(ctx);
  id<MTLComputePipelineState> ps = c.pipelines[@(kernel)];
  if (!ps) return fail(c, [NSString stringWithFormat:@"dispatch of unknown pipeline %u", kernel]);
  if ((NSUInteger)tx * ty * tz > ps.maxTotalThreadsPerThreadgroup) {
    return fail(c, [NSString stringWithFormat:@"pipeline %u needs %u threads per threadgroup, this GPU allows %lu "
                                              @"(emit the kernels with --max-threads-per-threadgroup=%lu)",
                                              kernel, tx * ty * tz, (unsigned long)ps.maxTotalThreadsPerThreadgroup,
                                              (unsigned long)ps.maxTotalThreadsPerThreadgroup / 32 * 32]);
  }
  if (!c.compute) c.compute = [c.commands computeCommandEncoder];
  [c.compute setComputePipelineState:ps];
  for (uint32_t i = 0; i < n; i++) {
    id<MTLBuffer> buf = b[i].buffer == RLX_WEIGHTS ? c.weights : c.arena;
    if (!inside(b[i].offset, b[i].bytes, buf)) return fail(c, @"a binding lies outside its buffer");
    [c.compute setBuffer:buf offset:b[i].offset atIndex:i];
  }
  if (tgmem) [c.compute setThreadgroupMemoryLength:tgmem atIndex:0];
  [c.compute dispatchThreadgroups:MTLSizeMake(gx, gy, gz) threadsPerThreadgroup:MTLSizeMake(tx, ty, tz)];
  return 0;
}

int rlx_mps(rlx_context *ctx, uint32_t region) {
  RLXContext *c = context(ctx);
  RLXRegion *r = c.regions[@(region)];
  if (!r) return fail(c, [NSString stringWithFormat:@"unknown MPS region %u", region]);
  endCompute(c);
  for (RLXTensor *t in r.feeds) {
    if (t.staging) blit(c, t.buffer, t.offset, t.staging, 0, t.bytes);
  }
  [r.exe encodeToCommandBuffer:c.commands inputsArray:r.feedData resultsArray:r.resultData executionDescriptor:nil];
  for (RLXTensor *t in r.results) {
    if (t.staging) blit(c, t.staging, 0, t.buffer, t.offset, t.bytes);
  }
  return 0;
}

int rlx_copy(rlx_context *ctx, uint64_t src, uint64_t dst, uint64_t bytes) {
  RLXContext *c = context(ctx);
  if (!inside(src, bytes, c.arena) || !inside(dst, bytes, c.arena)) return fail(c, @"copy outside the arena");
  endCompute(c);
  blit(c, c.arena, src, c.arena, dst, bytes);
  return 0;
}

int rlx_commit_and_wait(rlx_context *ctx) {
  RLXContext *c = context(ctx);
  endCompute(c);
  [c.commands commit];
  [c.commands waitUntilCompleted];
  if (c.commands.status == MTLCommandBufferStatusError) {
    return fail(c, [NSString stringWithFormat:@"the GPU failed: %@", c.commands.error.localizedDescription]);
  }
  c.commands = nil;
  return 0;
}

int rlx_check_status(rlx_context *ctx, uint64_t offset, uint64_t bytes, const char *symbol) {
  RLXContext *c = context(ctx);
  if (bytes < 4 || !inside(offset, bytes, c.arena)) return fail(c, @"status words outside the arena");
  for (uint64_t w = 4; w + 4 <= bytes; w += 4) {
    uint32_t n;
    memcpy(&n, (char *)c.arena.contents + offset + w, 4);
    if (n != 0)
      return fail(c, [NSString stringWithFormat:@"region @%s: arrival counter %llu is %u after the run, not 0 (a folded merge did not finish)",
                                                symbol, (unsigned long long)(w / 4 - 1), n]);
  }
  uint32_t s;
  memcpy(&s, (char *)c.arena.contents + offset, 4);
  if (s == 0) return 0;
  NSMutableArray<NSString *> *why = [NSMutableArray array];
  if (s & 1) [why addObject:@"a gather index was out of range"];
  if (s & 2) [why addObject:@"an integer division by zero"];
  return fail(c, [NSString stringWithFormat:@"region @%s: %@", symbol, [why componentsJoinedByString:@", "]]);
}

void *rlx_arena(rlx_context *ctx) { return context(ctx).arena.contents; }
