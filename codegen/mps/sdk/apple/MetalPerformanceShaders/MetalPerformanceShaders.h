// rlx's stand-in for the part of Apple's MetalPerformanceShaders that
// MPSGraph builds on (codegen/mps/sdk): the element types (MPSDataType)
// and shapes (MPSShape) of tensors, the command buffer MPSGraph encodes
// into, and the MPSNDArray views the Metal backend's runtime feeds
// MPSGraph with (runtime/backend/metal). Written from Apple's documentation of MPSDataType (the
// bits that compose each value: float, signed, alternate encoding, and the
// bit width); not Apple's header.
#ifndef RLX_STUB_METALPERFORMANCESHADERS_H
#define RLX_STUB_METALPERFORMANCESHADERS_H

#import <Foundation/Foundation.h>
#import <Metal/Metal.h>
#import "../rlx_availability.h"

NS_ASSUME_NONNULL_BEGIN

// A tensor's element type: a bit width in the low bits, plus what kind of
// number it is.
typedef NS_ENUM(uint32_t, MPSDataType) {
	MPSDataTypeInvalid = 0,

	MPSDataTypeFloatBit = 0x10000000,
	MPSDataTypeFloat32 = MPSDataTypeFloatBit | 32,
	MPSDataTypeFloat16 = MPSDataTypeFloatBit | 16,

	MPSDataTypeSignedBit = 0x20000000,
	MPSDataTypeInt8 = MPSDataTypeSignedBit | 8,
	MPSDataTypeInt16 = MPSDataTypeSignedBit | 16,
	MPSDataTypeInt32 = MPSDataTypeSignedBit | 32,
	MPSDataTypeInt64 RLX_MACOS(12.0) = MPSDataTypeSignedBit | 64,

	MPSDataTypeUInt8 = 8,
	MPSDataTypeUInt16 = 16,
	MPSDataTypeUInt32 = 32,
	MPSDataTypeUInt64 RLX_MACOS(12.0) = 64,

	MPSDataTypeAlternateEncodingBit = 0x80000000,
	MPSDataTypeBool RLX_MACOS(12.0) = MPSDataTypeAlternateEncodingBit | 8,
	MPSDataTypeBFloat16 RLX_MACOS(14.0) = MPSDataTypeAlternateEncodingBit | MPSDataTypeFloat16,
};

// A tensor's shape: one NSNumber per dimension.
typedef NSArray<NSNumber *> MPSShape;

RLX_MACOS(10.15)
@interface MPSCommandBuffer : NSObject <MTLCommandBuffer>
+ (instancetype)commandBufferFromCommandQueue:(id<MTLCommandQueue>)commandQueue;
@end

// The shape and element type of an MPSNDArray; the shape lists the
// dimensions slowest first, as MPSGraph's do.
RLX_MACOS(10.15)
@interface MPSNDArrayDescriptor : NSObject
+ (instancetype)descriptorWithDataType:(MPSDataType)dataType shape:(MPSShape *)shape;
@property (readwrite) MPSDataType dataType;
// Declared with the view initializer's macOS 15.0: the documentation we
// read does not say when it came, and the runtime sets it only there.
@property (readwrite) BOOL preferPackedRows RLX_MACOS(15.0);
@end

// A multidimensional array in a Metal buffer; initWithBuffer:offset: makes
// a view of a buffer at an offset (macOS 15).
RLX_MACOS(10.15)
@interface MPSNDArray : NSObject
- (instancetype)initWithBuffer:(id<MTLBuffer>)buffer
                        offset:(NSUInteger)offset
                    descriptor:(MPSNDArrayDescriptor *)descriptor RLX_MACOS(15.0);
@end

NS_ASSUME_NONNULL_END

#endif
