// rlx's stand-in for the part of Apple's Metal that MPSGraph's
// declarations mention (codegen/mps/sdk): the device, buffer, command
// queue and command buffer protocols, with no methods beyond what the
// runtime glue of an MPSGraph needs. Written from Apple's documentation;
// not Apple's header.
#ifndef RLX_STUB_METAL_H
#define RLX_STUB_METAL_H

#import <Foundation/Foundation.h>
#import "../rlx_availability.h"

NS_ASSUME_NONNULL_BEGIN

@protocol MTLBuffer;
@protocol MTLCommandQueue;
@protocol MTLCommandBuffer;

RLX_MACOS(10.11)
@protocol MTLDevice <NSObject>
@property (nonnull, readonly) NSString *name;
- (nullable id<MTLCommandQueue>)newCommandQueue;
- (nullable id<MTLBuffer>)newBufferWithLength:(NSUInteger)length options:(NSUInteger)options;
@end

RLX_MACOS(10.11)
@protocol MTLBuffer <NSObject>
@property (readonly) NSUInteger length;
- (void *)contents;
@end

RLX_MACOS(10.11)
@protocol MTLCommandBuffer <NSObject>
- (void)commit;
- (void)waitUntilCompleted;
@end

RLX_MACOS(10.11)
@protocol MTLCommandQueue <NSObject>
- (nullable id<MTLCommandBuffer>)commandBuffer;
@end

RLX_MACOS(10.11)
extern id<MTLDevice> _Nullable MTLCreateSystemDefaultDevice(void);

NS_ASSUME_NONNULL_END

#endif
