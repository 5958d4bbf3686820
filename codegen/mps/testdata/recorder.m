// The recording MPSGraph (see recorder.h). Built without ARC.
#include <stdio.h>
#import "recorder.h"

@implementation MPSGraphTensor
- (id)copyWithZone:(NSZone *)zone {
	return [self retain];
}
- (MPSShape *)shape {
	return nil;
}
- (MPSDataType)dataType {
	return MPSDataTypeInvalid;
}
- (MPSGraphOperation *)operation {
	return nil;
}
@end

@implementation RLXTensor
@end

// list formats integers as "1,2,3".
static NSString *list(NSArray *numbers) {
	NSMutableString *s = [NSMutableString string];
	for (NSUInteger i = 0; i < [numbers count]; i++) {
		if (i > 0) {
			[s appendString:@","];
		}
		[s appendFormat:@"%lld", [[numbers objectAtIndex:i] longLongValue]];
	}
	return s;
}

static NSString *hex(const void *bytes, NSUInteger n) {
	NSMutableString *s = [NSMutableString string];
	for (NSUInteger i = 0; i < n; i++) {
		[s appendFormat:@"%02x", ((const unsigned char *)bytes)[i]];
	}
	return s;
}

static NSString *hexString(NSString *name) {
	const char *c = [name UTF8String];
	return hex(c, strlen(c));
}

@implementation RLXGraph
+ (RLXGraph *)recordingGraph {
	RLXGraph *g = [[[RLXGraph alloc] init] autorelease];
	g->record = [[NSMutableString alloc] init];
	return g;
}
- (void)dealloc {
	[record release];
	[super dealloc];
}
- (MPSGraphTensor *)rlxNew:(NSString *)line {
	// MPSGraphTensor's init is unavailable: alloc zeroes the instance,
	// which is all a recorded tensor needs besides its number.
	RLXTensor *t = [[RLXTensor alloc] autorelease];
	t->rid = next++;
	[record appendFormat:@"t%lu %@\n", t->rid, line];
	return t;
}
- (MPSGraphTensor *)rlxInput:(unsigned long)i {
	return [self rlxNew:[NSString stringWithFormat:@"input %lu", i]];
}
- (MPSGraphTensor *)rlxOp:(NSString *)op operands:(NSArray *)operands attrs:(NSString *)attrs {
	NSMutableString *line = [NSMutableString stringWithString:op];
	for (NSUInteger i = 0; i < [operands count]; i++) {
		id x = [operands objectAtIndex:i];
		if (![x isKindOfClass:[RLXTensor class]]) {
			[line appendString:@" not-a-recorded-tensor"];
			continue;
		}
		[line appendFormat:@" t%lu", ((RLXTensor *)x)->rid];
	}
	if ([attrs length] > 0) {
		[line appendFormat:@" %@", attrs];
	}
	return [self rlxNew:line];
}
- (void)rlxPrint:(NSString *)title results:(NSArray *)results {
	printf("region %s\n%s", [title UTF8String], [record UTF8String]);
	if (results == nil) {
		printf("fail the builder returned nil\n");
		return;
	}
	NSMutableString *line = [NSMutableString stringWithString:@"result"];
	for (NSUInteger i = 0; i < [results count]; i++) {
		[line appendFormat:@" t%lu", ((RLXTensor *)[results objectAtIndex:i])->rid];
	}
	printf("%s\n", [line UTF8String]);
}
@end

// Recording shorthands: the receiver is always an RLXGraph.
#define OP(n, o, a) [(RLXGraph *)self rlxOp:(n) operands:(o) attrs:(a)]
#define UNARY(name) OP(name, [NSArray arrayWithObject:tensor], @"")
#define BINARY(name) OP(name, ([NSArray arrayWithObjects:primaryTensor, secondaryTensor, nil]), @"")

@implementation MPSGraph
+ (instancetype)new {
	return [[self alloc] init];
}
- (instancetype)init {
	return [super init];
}
- (NSArray *)placeholderTensors {
	return [NSArray array];
}
- (MPSGraphTensorDataDictionary *)runWithMTLCommandQueue:(id<MTLCommandQueue>)commandQueue
                                                   feeds:(MPSGraphTensorDataDictionary *)feeds
                                           targetTensors:(NSArray *)targetTensors
                                        targetOperations:(NSArray *)targetOperations {
	return nil;
}
- (MPSGraphTensorDataDictionary *)encodeToCommandBuffer:(MPSCommandBuffer *)commandBuffer
                                                  feeds:(MPSGraphTensorDataDictionary *)feeds
                                          targetTensors:(NSArray *)targetTensors
                                       targetOperations:(NSArray *)targetOperations
                                    executionDescriptor:(MPSGraphExecutionDescriptor *)executionDescriptor {
	return nil;
}
- (MPSGraphExecutable *)compileWithDevice:(MPSGraphDevice *)device
                                    feeds:(MPSGraphTensorShapedTypeDictionary *)feeds
                            targetTensors:(NSArray *)targetTensors
                         targetOperations:(NSArray *)targetOperations
                    compilationDescriptor:(MPSGraphCompilationDescriptor *)compilationDescriptor {
	return nil;
}
@end

@implementation MPSGraph (MemoryOps)
- (MPSGraphTensor *)placeholderWithShape:(MPSShape *)shape dataType:(MPSDataType)dataType name:(NSString *)name {
	return OP(@"mps.placeholder", [NSArray array],
	          ([NSString stringWithFormat:@"shape=%@ type=%u name=%@", list(shape), dataType, hexString(name)]));
}
- (MPSGraphTensor *)constantWithData:(NSData *)data shape:(MPSShape *)shape dataType:(MPSDataType)dataType {
	return OP(@"mps.constant", [NSArray array],
	          ([NSString stringWithFormat:@"shape=%@ type=%u data=%@", list(shape), dataType, hex([data bytes], [data length])]));
}
- (MPSGraphTensor *)constantWithScalar:(double)scalar dataType:(MPSDataType)dataType {
	return OP(@"mps.constant-scalar-without-shape", [NSArray array], @"");
}
- (MPSGraphTensor *)constantWithScalar:(double)scalar shape:(MPSShape *)shape dataType:(MPSDataType)dataType {
	return OP(@"mps.constant", [NSArray array],
	          ([NSString stringWithFormat:@"shape=%@ type=%u scalar=%.17g", list(shape), dataType, scalar]));
}
@end

@implementation MPSGraph (MPSGraphArithmeticOps)
- (MPSGraphTensor *)identityWithTensor:(MPSGraphTensor *)tensor name:(NSString *)name {
	return UNARY(@"unsupported.identity");
}
- (MPSGraphTensor *)exponentWithTensor:(MPSGraphTensor *)tensor name:(NSString *)name {
	return UNARY(@"mps.exp");
}
- (MPSGraphTensor *)logarithmWithTensor:(MPSGraphTensor *)tensor name:(NSString *)name {
	return UNARY(@"mps.log");
}
- (MPSGraphTensor *)squareWithTensor:(MPSGraphTensor *)tensor name:(NSString *)name {
	return UNARY(@"mps.square");
}
- (MPSGraphTensor *)squareRootWithTensor:(MPSGraphTensor *)tensor name:(NSString *)name {
	return UNARY(@"mps.sqrt");
}
- (MPSGraphTensor *)reciprocalSquareRootWithTensor:(MPSGraphTensor *)tensor name:(NSString *)name {
	return UNARY(@"mps.rsqrt");
}
- (MPSGraphTensor *)reverseSquareRootWithTensor:(MPSGraphTensor *)tensor name:(NSString *)name {
	return UNARY(@"mps.rsqrt");
}
- (MPSGraphTensor *)reciprocalWithTensor:(MPSGraphTensor *)tensor name:(NSString *)name {
	return UNARY(@"mps.reciprocal");
}
- (MPSGraphTensor *)absoluteWithTensor:(MPSGraphTensor *)tensor name:(NSString *)name {
	return UNARY(@"mps.abs");
}
- (MPSGraphTensor *)negativeWithTensor:(MPSGraphTensor *)tensor name:(NSString *)name {
	return UNARY(@"mps.neg");
}
- (MPSGraphTensor *)sinWithTensor:(MPSGraphTensor *)tensor name:(NSString *)name {
	return UNARY(@"mps.sin");
}
- (MPSGraphTensor *)cosWithTensor:(MPSGraphTensor *)tensor name:(NSString *)name {
	return UNARY(@"mps.cos");
}
- (MPSGraphTensor *)tanhWithTensor:(MPSGraphTensor *)tensor name:(NSString *)name {
	return UNARY(@"mps.tanh");
}
- (MPSGraphTensor *)erfWithTensor:(MPSGraphTensor *)tensor name:(NSString *)name {
	return UNARY(@"mps.erf");
}
- (MPSGraphTensor *)additionWithPrimaryTensor:(MPSGraphTensor *)primaryTensor secondaryTensor:(MPSGraphTensor *)secondaryTensor name:(NSString *)name {
	return BINARY(@"mps.add");
}
- (MPSGraphTensor *)subtractionWithPrimaryTensor:(MPSGraphTensor *)primaryTensor secondaryTensor:(MPSGraphTensor *)secondaryTensor name:(NSString *)name {
	return BINARY(@"mps.sub");
}
- (MPSGraphTensor *)multiplicationWithPrimaryTensor:(MPSGraphTensor *)primaryTensor secondaryTensor:(MPSGraphTensor *)secondaryTensor name:(NSString *)name {
	return BINARY(@"mps.mul");
}
- (MPSGraphTensor *)divisionWithPrimaryTensor:(MPSGraphTensor *)primaryTensor secondaryTensor:(MPSGraphTensor *)secondaryTensor name:(NSString *)name {
	return BINARY(@"mps.div");
}
- (MPSGraphTensor *)powerWithPrimaryTensor:(MPSGraphTensor *)primaryTensor secondaryTensor:(MPSGraphTensor *)secondaryTensor name:(NSString *)name {
	return BINARY(@"mps.pow");
}
- (MPSGraphTensor *)maximumWithPrimaryTensor:(MPSGraphTensor *)primaryTensor secondaryTensor:(MPSGraphTensor *)secondaryTensor name:(NSString *)name {
	return BINARY(@"unsupported.maximum-without-nan-propagation");
}
- (MPSGraphTensor *)minimumWithPrimaryTensor:(MPSGraphTensor *)primaryTensor secondaryTensor:(MPSGraphTensor *)secondaryTensor name:(NSString *)name {
	return BINARY(@"unsupported.minimum-without-nan-propagation");
}
- (MPSGraphTensor *)maximumWithNaNPropagationWithPrimaryTensor:(MPSGraphTensor *)primaryTensor secondaryTensor:(MPSGraphTensor *)secondaryTensor name:(NSString *)name {
	return BINARY(@"mps.max");
}
- (MPSGraphTensor *)minimumWithNaNPropagationWithPrimaryTensor:(MPSGraphTensor *)primaryTensor secondaryTensor:(MPSGraphTensor *)secondaryTensor name:(NSString *)name {
	return BINARY(@"mps.min");
}
- (MPSGraphTensor *)equalWithPrimaryTensor:(MPSGraphTensor *)primaryTensor secondaryTensor:(MPSGraphTensor *)secondaryTensor name:(NSString *)name {
	return BINARY(@"mps.equal");
}
- (MPSGraphTensor *)notEqualWithPrimaryTensor:(MPSGraphTensor *)primaryTensor secondaryTensor:(MPSGraphTensor *)secondaryTensor name:(NSString *)name {
	return BINARY(@"mps.not_equal");
}
- (MPSGraphTensor *)lessThanWithPrimaryTensor:(MPSGraphTensor *)primaryTensor secondaryTensor:(MPSGraphTensor *)secondaryTensor name:(NSString *)name {
	return BINARY(@"mps.less");
}
- (MPSGraphTensor *)lessThanOrEqualToWithPrimaryTensor:(MPSGraphTensor *)primaryTensor secondaryTensor:(MPSGraphTensor *)secondaryTensor name:(NSString *)name {
	return BINARY(@"mps.less_equal");
}
- (MPSGraphTensor *)greaterThanWithPrimaryTensor:(MPSGraphTensor *)primaryTensor secondaryTensor:(MPSGraphTensor *)secondaryTensor name:(NSString *)name {
	return BINARY(@"mps.greater");
}
- (MPSGraphTensor *)greaterThanOrEqualToWithPrimaryTensor:(MPSGraphTensor *)primaryTensor secondaryTensor:(MPSGraphTensor *)secondaryTensor name:(NSString *)name {
	return BINARY(@"mps.greater_equal");
}
- (MPSGraphTensor *)selectWithPredicateTensor:(MPSGraphTensor *)predicateTensor
                          truePredicateTensor:(MPSGraphTensor *)truePredicateTensor
                         falsePredicateTensor:(MPSGraphTensor *)falseSelectTensor
                                         name:(NSString *)name {
	return OP(@"mps.select", ([NSArray arrayWithObjects:predicateTensor, truePredicateTensor, falseSelectTensor, nil]), @"");
}
@end

@implementation MPSGraph (MPSGraphActivationOps)
- (MPSGraphTensor *)reLUWithTensor:(MPSGraphTensor *)tensor name:(NSString *)name {
	return UNARY(@"mps.relu");
}
- (MPSGraphTensor *)sigmoidWithTensor:(MPSGraphTensor *)tensor name:(NSString *)name {
	return UNARY(@"mps.sigmoid");
}
- (MPSGraphTensor *)softMaxWithTensor:(MPSGraphTensor *)tensor axis:(NSInteger)axis name:(NSString *)name {
	return OP(@"mps.softmax", [NSArray arrayWithObject:tensor], ([NSString stringWithFormat:@"axis=%ld", (long)axis]));
}
@end

@implementation MPSGraph (MPSGraphMatrixMultiplicationOps)
- (MPSGraphTensor *)matrixMultiplicationWithPrimaryTensor:(MPSGraphTensor *)primaryTensor secondaryTensor:(MPSGraphTensor *)secondaryTensor name:(NSString *)name {
	return BINARY(@"mps.matmul");
}
@end

#define REDUCE(name) OP(name, [NSArray arrayWithObject:tensor], ([NSString stringWithFormat:@"axes=%@", list(axes)]))

@implementation MPSGraph (MPSGraphReductionOps)
- (MPSGraphTensor *)reductionSumWithTensor:(MPSGraphTensor *)tensor axes:(NSArray *)axes name:(NSString *)name {
	return REDUCE(@"mps.reduce_sum");
}
- (MPSGraphTensor *)reductionMaximumWithTensor:(MPSGraphTensor *)tensor axes:(NSArray *)axes name:(NSString *)name {
	return REDUCE(@"unsupported.reduction-maximum-without-nan-propagation");
}
- (MPSGraphTensor *)reductionMinimumWithTensor:(MPSGraphTensor *)tensor axes:(NSArray *)axes name:(NSString *)name {
	return REDUCE(@"unsupported.reduction-minimum-without-nan-propagation");
}
- (MPSGraphTensor *)reductionMaximumPropagateNaNWithTensor:(MPSGraphTensor *)tensor axes:(NSArray *)axes name:(NSString *)name {
	return REDUCE(@"mps.reduce_max");
}
- (MPSGraphTensor *)reductionMinimumPropagateNaNWithTensor:(MPSGraphTensor *)tensor axes:(NSArray *)axes name:(NSString *)name {
	return REDUCE(@"mps.reduce_min");
}
- (MPSGraphTensor *)reductionProductWithTensor:(MPSGraphTensor *)tensor axes:(NSArray *)axes name:(NSString *)name {
	return REDUCE(@"mps.reduce_prod");
}
@end

@implementation MPSGraph (MPSGraphNormalizationOps)
- (MPSGraphTensor *)meanOfTensor:(MPSGraphTensor *)tensor axes:(NSArray *)axes name:(NSString *)name {
	return REDUCE(@"mps.mean");
}
@end

@implementation MPSGraph (MPSGraphTensorShapeOps)
- (MPSGraphTensor *)reshapeTensor:(MPSGraphTensor *)tensor withShape:(MPSShape *)shape name:(NSString *)name {
	return OP(@"mps.reshape", [NSArray arrayWithObject:tensor], ([NSString stringWithFormat:@"shape=%@", list(shape)]));
}
- (MPSGraphTensor *)transposeTensor:(MPSGraphTensor *)tensor dimension:(NSUInteger)dimensionIndex withDimension:(NSUInteger)dimensionIndex2 name:(NSString *)name {
	return OP(@"mps.transpose", [NSArray arrayWithObject:tensor],
	          ([NSString stringWithFormat:@"dimension=%lu with_dimension=%lu", (unsigned long)dimensionIndex, (unsigned long)dimensionIndex2]));
}
- (MPSGraphTensor *)transposeTensor:(MPSGraphTensor *)tensor permutation:(NSArray *)permutation name:(NSString *)name {
	return OP(@"mps.permute", [NSArray arrayWithObject:tensor], ([NSString stringWithFormat:@"permutation=%@", list(permutation)]));
}
- (MPSGraphTensor *)sliceTensor:(MPSGraphTensor *)tensor dimension:(NSUInteger)dimensionIndex start:(NSInteger)start length:(NSInteger)length name:(NSString *)name {
	return OP(@"mps.slice", [NSArray arrayWithObject:tensor],
	          ([NSString stringWithFormat:@"dimension=%lu start=%ld length=%ld", (unsigned long)dimensionIndex, (long)start, (long)length]));
}
- (MPSGraphTensor *)sliceTensor:(MPSGraphTensor *)tensor starts:(NSArray *)starts ends:(NSArray *)ends strides:(NSArray *)strides name:(NSString *)name {
	return OP(@"mps.strided_slice", [NSArray arrayWithObject:tensor],
	          ([NSString stringWithFormat:@"starts=%@ ends=%@ strides=%@", list(starts), list(ends), list(strides)]));
}
- (MPSGraphTensor *)concatTensors:(NSArray *)tensors dimension:(NSInteger)dimensionIndex name:(NSString *)name {
	return OP(@"mps.concat", tensors, ([NSString stringWithFormat:@"dimension=%ld", (long)dimensionIndex]));
}
- (MPSGraphTensor *)broadcastTensor:(MPSGraphTensor *)tensor toShape:(MPSShape *)shape name:(NSString *)name {
	return OP(@"mps.broadcast", [NSArray arrayWithObject:tensor], ([NSString stringWithFormat:@"shape=%@", list(shape)]));
}
- (MPSGraphTensor *)castTensor:(MPSGraphTensor *)tensor toType:(MPSDataType)type name:(NSString *)name {
	return OP(@"mps.cast", [NSArray arrayWithObject:tensor], ([NSString stringWithFormat:@"type=%u", type]));
}
@end

@implementation MPSGraph (GatherOps)
- (MPSGraphTensor *)gatherWithUpdatesTensor:(MPSGraphTensor *)updatesTensor
                              indicesTensor:(MPSGraphTensor *)indicesTensor
                                       axis:(NSUInteger)axis
                            batchDimensions:(NSUInteger)batchDimensions
                                       name:(NSString *)name {
	return OP(@"mps.gather", ([NSArray arrayWithObjects:updatesTensor, indicesTensor, nil]),
	          ([NSString stringWithFormat:@"axis=%lu batch_dimensions=%lu", (unsigned long)axis, (unsigned long)batchDimensions]));
}
@end

@implementation MPSGraph (MPSGraphSDPAOps)
- (MPSGraphTensor *)scaledDotProductAttentionWithQueryTensor:(MPSGraphTensor *)queryTensor
                                                   keyTensor:(MPSGraphTensor *)keyTensor
                                                 valueTensor:(MPSGraphTensor *)valueTensor
                                                  maskTensor:(MPSGraphTensor *)maskTensor
                                                       scale:(float)scale
                                                        name:(NSString *)name {
	NSMutableArray *operands = [NSMutableArray arrayWithObjects:queryTensor, keyTensor, valueTensor, nil];
	if (maskTensor != nil) {
		[operands addObject:maskTensor];
	}
	return OP(@"mps.sdpa", operands, ([NSString stringWithFormat:@"scale=%.9g", (double)scale]));
}
- (MPSGraphTensor *)scaledDotProductAttentionWithQueryTensor:(MPSGraphTensor *)queryTensor
                                                   keyTensor:(MPSGraphTensor *)keyTensor
                                                 valueTensor:(MPSGraphTensor *)valueTensor
                                                       scale:(float)scale
                                                        name:(NSString *)name {
	return OP(@"mps.sdpa", ([NSArray arrayWithObjects:queryTensor, keyTensor, valueTensor, nil]),
	          ([NSString stringWithFormat:@"scale=%.9g", (double)scale]));
}
@end
