// rlx's stand-in for the part of Apple's MetalPerformanceShadersGraph that
// the builders of codegen/mps call, and the calls a runtime makes to feed
// and run a graph (codegen/mps/sdk). Every method is declared with the
// selector, argument types, nullability and macOS availability of Apple's
// documentation (reference/metal.md §4 summarises them); where
// documentation and bindings disagreed on a version, the later one is
// used. Methods are grouped as Apple's documentation groups them. It is
// not Apple's header and declares nothing the builders do not need.
//
// Checked builders compile against it with
// `clang -fsyntax-only -x objective-c -fobjc-arc
// -target arm64-apple-macosx14.0 -Werror=unguarded-availability-new -Werror`,
// so a misspelled selector, an argument of the wrong type and a macOS 15
// method called without `@available` are errors. On Linux the same
// declarations are implemented by codegen/mps's recording MPSGraph.
#ifndef RLX_STUB_METALPERFORMANCESHADERSGRAPH_H
#define RLX_STUB_METALPERFORMANCESHADERSGRAPH_H

#import <Foundation/Foundation.h>
#import <Metal/Metal.h>
#import <MetalPerformanceShaders/MetalPerformanceShaders.h>
#import "../rlx_availability.h"

NS_ASSUME_NONNULL_BEGIN

@class MPSGraphOperation;
@class MPSGraphTensorData;
@class MPSGraphShapedType;
@class MPSGraph;

// An edge of a graph: the output of an operation, with a shape (nil or
// with -1 entries when not known) and an element type.
RLX_MACOS(11.0)
@interface MPSGraphTensor : NSObject <NSCopying>
@property (readonly, nullable, copy) MPSShape *shape;
@property (readonly) MPSDataType dataType;
@property (readonly) MPSGraphOperation *operation;
- (instancetype)init __attribute__((unavailable));
@end

// A node of a graph.
RLX_MACOS(11.0)
@interface MPSGraphOperation : NSObject <NSCopying>
@property (readonly) NSArray<MPSGraphTensor *> *inputTensors;
@property (readonly) NSArray<MPSGraphTensor *> *outputTensors;
@property (readonly) MPSGraph *graph;
@property (readonly) NSString *name;
- (instancetype)init __attribute__((unavailable));
@end

// The device a graph runs on.
RLX_MACOS(11.0)
@interface MPSGraphDevice : NSObject
+ (instancetype)deviceWithMTLDevice:(id<MTLDevice>)metalDevice;
@end

// Data fed to or returned from a graph: a view of a Metal buffer.
RLX_MACOS(11.0)
@interface MPSGraphTensorData : NSObject
@property (readonly, copy) MPSShape *shape;
@property (readonly) MPSDataType dataType;
- (instancetype)initWithMTLBuffer:(id<MTLBuffer>)buffer shape:(MPSShape *)shape dataType:(MPSDataType)dataType;
- (instancetype)initWithMTLBuffer:(id<MTLBuffer>)buffer
                            shape:(MPSShape *)shape
                         dataType:(MPSDataType)dataType
                         rowBytes:(NSUInteger)rowBytes RLX_MACOS(12.3);
- (instancetype)initWithMPSNDArray:(MPSNDArray *)ndarray;
@end

RLX_MACOS(12.0)
@interface MPSGraphType : NSObject <NSCopying>
@end

// The shape and element type of a feed, for compiling a graph.
RLX_MACOS(11.0)
@interface MPSGraphShapedType : MPSGraphType
@property (readwrite, nullable, copy) MPSShape *shape;
@property (readwrite) MPSDataType dataType;
- (instancetype)initWithShape:(nullable MPSShape *)shape dataType:(MPSDataType)dataType;
@end

typedef NSDictionary<MPSGraphTensor *, MPSGraphTensorData *> MPSGraphTensorDataDictionary;
typedef NSDictionary<MPSGraphTensor *, MPSGraphShapedType *> MPSGraphTensorShapedTypeDictionary;

RLX_MACOS(12.0)
@interface MPSGraphCompilationDescriptor : NSObject <NSCopying>
@end

RLX_MACOS(12.0)
@interface MPSGraphExecutableExecutionDescriptor : NSObject <NSCopying>
@property (readwrite) BOOL waitUntilCompleted;
@end

RLX_MACOS(11.0)
@interface MPSGraphExecutionDescriptor : NSObject
@property (readwrite) BOOL waitUntilCompleted;
@end

// A graph compiled for a device and feed types.
RLX_MACOS(12.0)
@interface MPSGraphExecutable : NSObject
@property (readonly, nullable) NSArray<MPSGraphTensor *> *feedTensors;
@property (readonly, nullable) NSArray<MPSGraphTensor *> *targetTensors;
- (NSArray<MPSGraphTensorData *> *)runWithMTLCommandQueue:(id<MTLCommandQueue>)commandQueue
                                              inputsArray:(NSArray<MPSGraphTensorData *> *)inputsArray
                                             resultsArray:(nullable NSArray<MPSGraphTensorData *> *)resultsArray
                                      executionDescriptor:(nullable MPSGraphExecutableExecutionDescriptor *)executionDescriptor;
- (NSArray<MPSGraphTensorData *> *)encodeToCommandBuffer:(MPSCommandBuffer *)commandBuffer
                                             inputsArray:(NSArray<MPSGraphTensorData *> *)inputsArray
                                            resultsArray:(nullable NSArray<MPSGraphTensorData *> *)resultsArray
                                     executionDescriptor:(nullable MPSGraphExecutableExecutionDescriptor *)executionDescriptor;
@end

// A graph of tensor operations.
RLX_MACOS(11.0)
@interface MPSGraph : NSObject
+ (instancetype)new;
- (instancetype)init;
@property (readonly) NSArray<MPSGraphTensor *> *placeholderTensors;

- (MPSGraphTensorDataDictionary *)runWithMTLCommandQueue:(id<MTLCommandQueue>)commandQueue
                                                   feeds:(MPSGraphTensorDataDictionary *)feeds
                                           targetTensors:(NSArray<MPSGraphTensor *> *)targetTensors
                                        targetOperations:(nullable NSArray<MPSGraphOperation *> *)targetOperations;

- (MPSGraphTensorDataDictionary *)encodeToCommandBuffer:(MPSCommandBuffer *)commandBuffer
                                                  feeds:(MPSGraphTensorDataDictionary *)feeds
                                          targetTensors:(NSArray<MPSGraphTensor *> *)targetTensors
                                       targetOperations:(nullable NSArray<MPSGraphOperation *> *)targetOperations
                                    executionDescriptor:(nullable MPSGraphExecutionDescriptor *)executionDescriptor;

- (MPSGraphExecutable *)compileWithDevice:(nullable MPSGraphDevice *)device
                                    feeds:(MPSGraphTensorShapedTypeDictionary *)feeds
                            targetTensors:(NSArray<MPSGraphTensor *> *)targetTensors
                         targetOperations:(nullable NSArray<MPSGraphOperation *> *)targetOperations
                    compilationDescriptor:(nullable MPSGraphCompilationDescriptor *)compilationDescriptor RLX_MACOS(12.0);
@end

// Placeholders and constants.
@interface MPSGraph (MemoryOps)
- (MPSGraphTensor *)placeholderWithShape:(nullable MPSShape *)shape
                                dataType:(MPSDataType)dataType
                                    name:(nullable NSString *)name;
- (MPSGraphTensor *)constantWithData:(NSData *)data shape:(MPSShape *)shape dataType:(MPSDataType)dataType;
- (MPSGraphTensor *)constantWithScalar:(double)scalar dataType:(MPSDataType)dataType;
- (MPSGraphTensor *)constantWithScalar:(double)scalar shape:(MPSShape *)shape dataType:(MPSDataType)dataType;
@end

// Element-wise arithmetic, comparisons and selection; operands broadcast.
@interface MPSGraph (MPSGraphArithmeticOps)
- (MPSGraphTensor *)identityWithTensor:(MPSGraphTensor *)tensor name:(nullable NSString *)name;
- (MPSGraphTensor *)exponentWithTensor:(MPSGraphTensor *)tensor name:(nullable NSString *)name;
- (MPSGraphTensor *)logarithmWithTensor:(MPSGraphTensor *)tensor name:(nullable NSString *)name;
- (MPSGraphTensor *)squareWithTensor:(MPSGraphTensor *)tensor name:(nullable NSString *)name;
- (MPSGraphTensor *)squareRootWithTensor:(MPSGraphTensor *)tensor name:(nullable NSString *)name;
- (MPSGraphTensor *)reciprocalSquareRootWithTensor:(MPSGraphTensor *)tensor name:(nullable NSString *)name RLX_MACOS(15.0);
- (MPSGraphTensor *)reverseSquareRootWithTensor:(MPSGraphTensor *)tensor
                                           name:(nullable NSString *)name
    RLX_MACOS_DEPRECATED(11.0, 15.0, "reciprocalSquareRootWithTensor:name:");
- (MPSGraphTensor *)reciprocalWithTensor:(MPSGraphTensor *)tensor name:(nullable NSString *)name;
- (MPSGraphTensor *)absoluteWithTensor:(MPSGraphTensor *)tensor name:(nullable NSString *)name;
- (MPSGraphTensor *)negativeWithTensor:(MPSGraphTensor *)tensor name:(nullable NSString *)name;
- (MPSGraphTensor *)sinWithTensor:(MPSGraphTensor *)tensor name:(nullable NSString *)name;
- (MPSGraphTensor *)cosWithTensor:(MPSGraphTensor *)tensor name:(nullable NSString *)name;
- (MPSGraphTensor *)tanhWithTensor:(MPSGraphTensor *)tensor name:(nullable NSString *)name;
- (MPSGraphTensor *)erfWithTensor:(MPSGraphTensor *)tensor name:(nullable NSString *)name;

- (MPSGraphTensor *)additionWithPrimaryTensor:(MPSGraphTensor *)primaryTensor
                              secondaryTensor:(MPSGraphTensor *)secondaryTensor
                                         name:(nullable NSString *)name;
- (MPSGraphTensor *)subtractionWithPrimaryTensor:(MPSGraphTensor *)primaryTensor
                                 secondaryTensor:(MPSGraphTensor *)secondaryTensor
                                            name:(nullable NSString *)name;
- (MPSGraphTensor *)multiplicationWithPrimaryTensor:(MPSGraphTensor *)primaryTensor
                                    secondaryTensor:(MPSGraphTensor *)secondaryTensor
                                               name:(nullable NSString *)name;
- (MPSGraphTensor *)divisionWithPrimaryTensor:(MPSGraphTensor *)primaryTensor
                              secondaryTensor:(MPSGraphTensor *)secondaryTensor
                                         name:(nullable NSString *)name;
- (MPSGraphTensor *)powerWithPrimaryTensor:(MPSGraphTensor *)primaryTensor
                           secondaryTensor:(MPSGraphTensor *)secondaryTensor
                                      name:(nullable NSString *)name;
- (MPSGraphTensor *)maximumWithPrimaryTensor:(MPSGraphTensor *)primaryTensor
                             secondaryTensor:(MPSGraphTensor *)secondaryTensor
                                        name:(nullable NSString *)name;
- (MPSGraphTensor *)minimumWithPrimaryTensor:(MPSGraphTensor *)primaryTensor
                             secondaryTensor:(MPSGraphTensor *)secondaryTensor
                                        name:(nullable NSString *)name;
- (MPSGraphTensor *)maximumWithNaNPropagationWithPrimaryTensor:(MPSGraphTensor *)primaryTensor
                                               secondaryTensor:(MPSGraphTensor *)secondaryTensor
                                                          name:(nullable NSString *)name RLX_MACOS(12.0);
- (MPSGraphTensor *)minimumWithNaNPropagationWithPrimaryTensor:(MPSGraphTensor *)primaryTensor
                                               secondaryTensor:(MPSGraphTensor *)secondaryTensor
                                                          name:(nullable NSString *)name RLX_MACOS(12.0);

- (MPSGraphTensor *)equalWithPrimaryTensor:(MPSGraphTensor *)primaryTensor
                           secondaryTensor:(MPSGraphTensor *)secondaryTensor
                                      name:(nullable NSString *)name;
- (MPSGraphTensor *)notEqualWithPrimaryTensor:(MPSGraphTensor *)primaryTensor
                              secondaryTensor:(MPSGraphTensor *)secondaryTensor
                                         name:(nullable NSString *)name;
- (MPSGraphTensor *)lessThanWithPrimaryTensor:(MPSGraphTensor *)primaryTensor
                              secondaryTensor:(MPSGraphTensor *)secondaryTensor
                                         name:(nullable NSString *)name;
- (MPSGraphTensor *)lessThanOrEqualToWithPrimaryTensor:(MPSGraphTensor *)primaryTensor
                                       secondaryTensor:(MPSGraphTensor *)secondaryTensor
                                                  name:(nullable NSString *)name;
- (MPSGraphTensor *)greaterThanWithPrimaryTensor:(MPSGraphTensor *)primaryTensor
                                 secondaryTensor:(MPSGraphTensor *)secondaryTensor
                                            name:(nullable NSString *)name;
- (MPSGraphTensor *)greaterThanOrEqualToWithPrimaryTensor:(MPSGraphTensor *)primaryTensor
                                          secondaryTensor:(MPSGraphTensor *)secondaryTensor
                                                     name:(nullable NSString *)name;

- (MPSGraphTensor *)selectWithPredicateTensor:(MPSGraphTensor *)predicateTensor
                          truePredicateTensor:(MPSGraphTensor *)truePredicateTensor
                         falsePredicateTensor:(MPSGraphTensor *)falseSelectTensor
                                         name:(nullable NSString *)name;
@end

// Activation functions.
@interface MPSGraph (MPSGraphActivationOps)
- (MPSGraphTensor *)reLUWithTensor:(MPSGraphTensor *)tensor name:(nullable NSString *)name;
- (MPSGraphTensor *)sigmoidWithTensor:(MPSGraphTensor *)tensor name:(nullable NSString *)name;
- (MPSGraphTensor *)softMaxWithTensor:(MPSGraphTensor *)tensor axis:(NSInteger)axis name:(nullable NSString *)name;
@end

@interface MPSGraph (MPSGraphMatrixMultiplicationOps)
- (MPSGraphTensor *)matrixMultiplicationWithPrimaryTensor:(MPSGraphTensor *)primaryTensor
                                          secondaryTensor:(MPSGraphTensor *)secondaryTensor
                                                     name:(nullable NSString *)name;
@end

// Reductions keep the reduced axes, with size 1.
@interface MPSGraph (MPSGraphReductionOps)
- (MPSGraphTensor *)reductionSumWithTensor:(MPSGraphTensor *)tensor
                                      axes:(nullable NSArray<NSNumber *> *)axes
                                      name:(nullable NSString *)name;
- (MPSGraphTensor *)reductionMaximumWithTensor:(MPSGraphTensor *)tensor
                                          axes:(nullable NSArray<NSNumber *> *)axes
                                          name:(nullable NSString *)name;
- (MPSGraphTensor *)reductionMinimumWithTensor:(MPSGraphTensor *)tensor
                                          axes:(nullable NSArray<NSNumber *> *)axes
                                          name:(nullable NSString *)name;
- (MPSGraphTensor *)reductionMaximumPropagateNaNWithTensor:(MPSGraphTensor *)tensor
                                                      axes:(nullable NSArray<NSNumber *> *)axes
                                                      name:(nullable NSString *)name;
- (MPSGraphTensor *)reductionMinimumPropagateNaNWithTensor:(MPSGraphTensor *)tensor
                                                      axes:(nullable NSArray<NSNumber *> *)axes
                                                      name:(nullable NSString *)name;
- (MPSGraphTensor *)reductionProductWithTensor:(MPSGraphTensor *)tensor
                                          axes:(nullable NSArray<NSNumber *> *)axes
                                          name:(nullable NSString *)name;
@end

@interface MPSGraph (MPSGraphNormalizationOps)
- (MPSGraphTensor *)meanOfTensor:(MPSGraphTensor *)tensor axes:(NSArray<NSNumber *> *)axes name:(nullable NSString *)name;
@end

@interface MPSGraph (MPSGraphTensorShapeOps)
- (MPSGraphTensor *)reshapeTensor:(MPSGraphTensor *)tensor withShape:(MPSShape *)shape name:(nullable NSString *)name;
- (MPSGraphTensor *)transposeTensor:(MPSGraphTensor *)tensor
                          dimension:(NSUInteger)dimensionIndex
                      withDimension:(NSUInteger)dimensionIndex2
                               name:(nullable NSString *)name;
- (MPSGraphTensor *)transposeTensor:(MPSGraphTensor *)tensor
                        permutation:(NSArray<NSNumber *> *)permutation
                               name:(nullable NSString *)name RLX_MACOS(13.0);
- (MPSGraphTensor *)sliceTensor:(MPSGraphTensor *)tensor
                      dimension:(NSUInteger)dimensionIndex
                          start:(NSInteger)start
                         length:(NSInteger)length
                           name:(nullable NSString *)name;
- (MPSGraphTensor *)sliceTensor:(MPSGraphTensor *)tensor
                         starts:(NSArray<NSNumber *> *)starts
                           ends:(NSArray<NSNumber *> *)ends
                        strides:(NSArray<NSNumber *> *)strides
                           name:(nullable NSString *)name;
- (MPSGraphTensor *)concatTensors:(NSArray<MPSGraphTensor *> *)tensors
                        dimension:(NSInteger)dimensionIndex
                             name:(nullable NSString *)name;
- (MPSGraphTensor *)broadcastTensor:(MPSGraphTensor *)tensor
                            toShape:(MPSShape *)shape
                               name:(nullable NSString *)name RLX_MACOS(12.0);
- (MPSGraphTensor *)castTensor:(MPSGraphTensor *)tensor
                        toType:(MPSDataType)type
                          name:(nullable NSString *)name RLX_MACOS(12.0);
@end

@interface MPSGraph (GatherOps)
- (MPSGraphTensor *)gatherWithUpdatesTensor:(MPSGraphTensor *)updatesTensor
                              indicesTensor:(MPSGraphTensor *)indicesTensor
                                       axis:(NSUInteger)axis
                            batchDimensions:(NSUInteger)batchDimensions
                                       name:(nullable NSString *)name;
@end

// Scaled dot-product attention: softmax(q·kᵀ·scale + mask)·v.
@interface MPSGraph (MPSGraphSDPAOps)
- (MPSGraphTensor *)scaledDotProductAttentionWithQueryTensor:(MPSGraphTensor *)queryTensor
                                                   keyTensor:(MPSGraphTensor *)keyTensor
                                                 valueTensor:(MPSGraphTensor *)valueTensor
                                                  maskTensor:(nullable MPSGraphTensor *)maskTensor
                                                       scale:(float)scale
                                                        name:(nullable NSString *)name RLX_MACOS(15.0);
- (MPSGraphTensor *)scaledDotProductAttentionWithQueryTensor:(MPSGraphTensor *)queryTensor
                                                   keyTensor:(MPSGraphTensor *)keyTensor
                                                 valueTensor:(MPSGraphTensor *)valueTensor
                                                       scale:(float)scale
                                                        name:(nullable NSString *)name RLX_MACOS(15.0);
@end

NS_ASSUME_NONNULL_END

#endif
