// Package mps defines the mps dialect's region op: mps.subgraph, an
// isolated-from-above region whose body runs as one MPSGraph dispatch, and
// its terminator mps.yield. The hybrid-split pass produces it; the
// primitive mps ops of lower-to-mps will join it here.
//
// The op is an outlined region: it has a symbol (`@<function>_mps<i>`),
// operands, one single-block region whose entry block takes one argument
// per operand (same types, same order), and results, one per operand of
// the terminator (same types, same order):
//
//	%0:2 = mps.subgraph @decode_mps0(%x) : (tensor<1x64xf32>) -> (tensor<1x64xf32>, tensor<1x64xf32>) {
//	^bb0(%a: tensor<1x64xf32>):
//	  %w = graph.param "l0.wq" : tensor<64x64xf32>
//	  %q = graph.matmul %a, %w : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
//	  %r = graph.add %q, %a : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
//	  mps.yield %q, %r : tensor<1x64xf32>, tensor<1x64xf32>
//	}
//
// The generic form works as for every op:
// `"mps.subgraph"(%x) <{sym_name = "decode_mps0"}> ({…}) : (…) -> (…)`.
// thunk.call (package thunk) shares this form; ParseOutlined,
// PrintOutlined, VerifyOutlined, VerifyParent and VerifyTypes implement it
// for both.
//
// The verifier checks, besides the form, what MLIR's HasParent trait and
// ODS type constraints would: the op sits directly in a func.func (region
// ops make up a partitioned function's body and do not nest), and its
// operands and results are statically shaped tensors, in mlir-opt's words
// ("'mps.subgraph' op operand #0 must be variadic of statically shaped
// tensor of any type values, but got 'i32'"). Then every op in the body
// must be a graph op that MPSGraph can run (graph.MPSCapable) or a leaf
// (graph.param, graph.constant) whose type MPSGraph takes: the capability
// table passes every leaf, as hybrid-split clones leaves rather than
// placing them, but the rule on types that holds for every other op holds
// for a leaf inside a region too. Capability is a property of the op in
// the function before partitioning, so for graph.attention the verifier
// follows q, k and v back across region boundaries (a block argument to
// the region op's operand, a region op's result to its terminator's
// operand) until they reach a function argument or a leaf through view
// ops, exactly as graph.MPSCapable does inside one function.
package mps
