// Package mps defines the mps dialect's region op: mps.subgraph, an
// isolated-from-above region whose body runs as one MPSGraph dispatch, and
// its terminator mps.yield. The hybrid-split pass produces it. Beside them
// are the primitives (prims.go): one op per MPSGraph method (mps.add,
// mps.matmul, mps.reduce_sum, …), with MPSGraph's semantics, described by
// one table (Primitives) that the verifier, the docs and the Objective-C
// emitter (codegen/mps) read; lower-to-mps rewrites a region's graph ops
// into them, and an mps.subgraph may hold them.
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
// thunk.call (package thunk) shares this form; package regionop
// implements it for both.
//
// The verifier checks, besides the form, what MLIR's HasParent trait and
// ODS type constraints would: the op sits directly in a func.func (region
// ops make up a partitioned function's body and do not nest), and its
// operands and results are statically shaped tensors, in mlir-opt's words
// ("'mps.subgraph' op operand #0 must be variadic of statically shaped
// tensor of any type values, but got 'i32'"). Then every op in the body
// must be a graph op, and the Placer the dialect was registered with must
// accept it. What MPSGraph can run is not this package's knowledge but the
// target layer's: dialect.RegisterAll passes target.MPSPlaceable, which
// accepts what the capability table of some MPSGraph target passes (a
// graph op MPSGraph runs, or a leaf whose type MPSGraph takes). For
// graph.attention it follows q, k and v back across region boundaries (a
// block argument to the region op's operand, a region op's result to its
// terminator's operand), as hybrid-split does in the function before the
// split, so the two agree.
package mps
