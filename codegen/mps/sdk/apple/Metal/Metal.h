// rlx's stand-in for the part of Apple's Metal that MPSGraph's
// declarations mention (codegen/mps/sdk) and that the Metal backend's
// runtime calls (runtime/backend/metal): the device, buffers, the library
// and its compute pipelines, compile options, command queues and buffers,
// compute and blit encoders, with no methods beyond those. Written from Apple's documentation;
// not Apple's header.
#ifndef RLX_STUB_METAL_H
#define RLX_STUB_METAL_H

#import <Foundation/Foundation.h>
#import "../rlx_availability.h"

NS_ASSUME_NONNULL_BEGIN

@protocol MTLBuffer;
@protocol MTLCommandQueue;
@protocol MTLCommandBuffer;
@protocol MTLLibrary;
@protocol MTLFunction;
@protocol MTLComputePipelineState;
@protocol MTLComputeCommandEncoder;
@protocol MTLBlitCommandEncoder;
@class MTLCompileOptions;
@class NSURL;

// Where a buffer's memory lives (MTLResourceOptions' storage-mode bits).
typedef NS_OPTIONS(NSUInteger, MTLResourceOptions) {
	MTLResourceStorageModeShared = 0 << 4,
	MTLResourceStorageModeManaged = 1 << 4,
	MTLResourceStorageModePrivate = 2 << 4,
};

// A grid or threadgroup size.
typedef struct {
	NSUInteger width, height, depth;
} MTLSize;

static inline MTLSize MTLSizeMake(NSUInteger width, NSUInteger height, NSUInteger depth) {
	MTLSize s = {width, height, depth};
	return s;
}

RLX_MACOS(10.11)
@protocol MTLDevice <NSObject>
@property (nonnull, readonly) NSString *name;
- (nullable id<MTLCommandQueue>)newCommandQueue;
- (nullable id<MTLBuffer>)newBufferWithLength:(NSUInteger)length options:(NSUInteger)options;
- (nullable id<MTLLibrary>)newDefaultLibrary;
- (nullable id<MTLLibrary>)newLibraryWithSource:(NSString *)source
                                        options:(nullable MTLCompileOptions *)options
                                          error:(NSError *_Nullable *_Nullable)error;
- (nullable id<MTLLibrary>)newLibraryWithURL:(NSURL *)url error:(NSError *_Nullable *_Nullable)error RLX_MACOS(10.13);
- (nullable id<MTLComputePipelineState>)newComputePipelineStateWithFunction:(id<MTLFunction>)computeFunction
                                                                      error:(NSError *_Nullable *_Nullable)error;
@end

RLX_MACOS(10.11)
@protocol MTLBuffer <NSObject>
@property (readonly) NSUInteger length;
- (void *)contents;
@end

RLX_MACOS(10.11)
@protocol MTLFunction <NSObject>
@end

RLX_MACOS(10.11)
@protocol MTLLibrary <NSObject>
- (nullable id<MTLFunction>)newFunctionWithName:(NSString *)functionName;
@end

RLX_MACOS(10.11)
@protocol MTLComputePipelineState <NSObject>
@property (readonly) NSUInteger maxTotalThreadsPerThreadgroup;
@end

// How the compiler may treat floating point.
typedef NS_ENUM(NSInteger, MTLMathMode) {
	MTLMathModeSafe = 0,
	MTLMathModeRelaxed = 1,
	MTLMathModeFast = 2,
} RLX_MACOS(15.0);

RLX_MACOS(10.11)
@interface MTLCompileOptions : NSObject <NSCopying>
@property (readwrite) BOOL fastMathEnabled RLX_MACOS_DEPRECATED(10.11, 15.0, "mathMode");
@property (readwrite) MTLMathMode mathMode RLX_MACOS(15.0);
@end

RLX_MACOS(10.11)
@protocol MTLCommandEncoder <NSObject>
- (void)endEncoding;
@end

RLX_MACOS(10.11)
@protocol MTLComputeCommandEncoder <MTLCommandEncoder>
- (void)setComputePipelineState:(id<MTLComputePipelineState>)state;
- (void)setBuffer:(nullable id<MTLBuffer>)buffer offset:(NSUInteger)offset atIndex:(NSUInteger)index;
- (void)setThreadgroupMemoryLength:(NSUInteger)length atIndex:(NSUInteger)index;
- (void)dispatchThreadgroups:(MTLSize)threadgroupsPerGrid threadsPerThreadgroup:(MTLSize)threadsPerThreadgroup;
@end

RLX_MACOS(10.11)
@protocol MTLBlitCommandEncoder <MTLCommandEncoder>
- (void)copyFromBuffer:(id<MTLBuffer>)sourceBuffer
           sourceOffset:(NSUInteger)sourceOffset
               toBuffer:(id<MTLBuffer>)destinationBuffer
      destinationOffset:(NSUInteger)destinationOffset
                   size:(NSUInteger)size;
- (void)fillBuffer:(id<MTLBuffer>)buffer range:(NSRange)range value:(uint8_t)value;
@end

typedef NS_ENUM(NSUInteger, MTLCommandBufferStatus) {
	MTLCommandBufferStatusNotEnqueued = 0,
	MTLCommandBufferStatusEnqueued = 1,
	MTLCommandBufferStatusCommitted = 2,
	MTLCommandBufferStatusScheduled = 3,
	MTLCommandBufferStatusCompleted = 4,
	MTLCommandBufferStatusError = 5,
};

RLX_MACOS(10.11)
@protocol MTLCommandBuffer <NSObject>
- (void)commit;
- (void)waitUntilCompleted;
- (nullable id<MTLComputeCommandEncoder>)computeCommandEncoder;
- (nullable id<MTLBlitCommandEncoder>)blitCommandEncoder;
@property (readonly) MTLCommandBufferStatus status;
@property (nullable, readonly) NSError *error;
@end

RLX_MACOS(10.11)
@protocol MTLCommandQueue <NSObject>
- (nullable id<MTLCommandBuffer>)commandBuffer;
@end

RLX_MACOS(10.11)
extern id<MTLDevice> _Nullable MTLCreateSystemDefaultDevice(void);

NS_ASSUME_NONNULL_END

#endif
