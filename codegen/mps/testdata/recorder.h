// A recording implementation of the stub SDK's MPSGraph, for running the
// generated builders on Linux (GNUstep's Foundation, clang, no ARC). Each
// method of MPSGraph that a builder calls appends one line to the graph's
// record, naming the mps primitive it stands for, its operands and its
// arguments; recordertest.go reads the record back into mps ops and
// compares them with the region the builder was generated from. The
// mapping from selector to primitive is written here by hand, apart from
// the emitter's table, so that a builder calling the wrong method is
// caught.
//
// Record lines, one per tensor made:
//
//	t<n> input <i>                            argument i of the builder
//	t<n> <mps op> t<a> t<b> … key=value …      an operation
//	result t<a> t<b> …                         what the builder returned
//	fail <message>                             the builder returned nil
//
// Shapes and lists are comma-separated integers ("" for rank 0), element
// types MPSDataType numbers, names and data hex bytes, scalars %.17g.
#import <Foundation/Foundation.h>
#import <MetalPerformanceShadersGraph/MetalPerformanceShadersGraph.h>

// RLXTensor is the tensor the recording graph returns: its number in the
// record.
@interface RLXTensor : MPSGraphTensor {
@public
	unsigned long rid;
}
@end

// RLXGraph is the recording graph.
@interface RLXGraph : MPSGraph {
@public
	NSMutableString *record;
	unsigned long next;
}
+ (RLXGraph *)recordingGraph;
// rlxInput returns a tensor standing for argument i of a builder.
- (MPSGraphTensor *)rlxInput:(unsigned long)i;
// rlxOp records one operation and returns its result.
- (MPSGraphTensor *)rlxOp:(NSString *)op operands:(NSArray *)operands attrs:(NSString *)attrs;
// rlxPrint writes "region <title>", the record, and the results (or a
// fail line when results is nil) to standard output.
- (void)rlxPrint:(NSString *)title results:(NSArray *)results;
@end
