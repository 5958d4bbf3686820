// Package lowertomps is the lower-to-mps pass: inside every mps.subgraph
// of a function, each graph op becomes primitives of the mps dialect
// (dialect/mps, prims.go), ops that map one to one onto MPSGraph methods.
// After it a region's body is exactly the MPSGraph that codegen/mps
// writes as an Objective-C builder, and the reference interpreter runs it
// with MPSGraph's semantics.
//
// Most graph ops are one primitive (add → mps.add, transpose →
// mps.permute, slice → mps.slice, …). Leaves become mps.placeholder
// (a weight fed by name) and mps.constant. Reductions keep their axes in
// MPSGraph, so a reduce without keep_dims is followed by mps.reshape, and
// mean is a sum divided by the count. rms_norm, layer_norm, silu, gelu,
// gelu_tanh, rope (rank 3) and attention are decomposed; attention is
// written by hand (matmul, scale, softcap, mask, softmax, matmul), and
// MPSGraph's own SDPA is used only with the option sdpa, because it
// drifts on RoPE'd inputs.
//
// The decompositions compute in f32 (f16 and bf16 operands are cast up,
// the result down once) and follow the order and roundings of the graph
// ops' kernels, so on the interpreter a lowered region gives its graph
// form's bits in most cases and stays within a few ulps otherwise
// (TestModels measures both on the model graphs).
//
// What may be lowered is what may be in an mps.subgraph: mps.Placeable,
// which reads the capability table of dialect/graph. An op it refuses, or
// one without a rule here, is an error located at the op and naming it;
// TestCapabilityTable walks every row of the table against the rules.
package lowertomps
