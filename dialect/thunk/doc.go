// Package thunk defines the thunk dialect: thunk.call, an
// isolated-from-above region whose ops run as native kernels, one dispatch
// per op in order, and its terminator thunk.yield. The hybrid-split pass
// produces it for the ops MPSGraph cannot run.
//
// thunk.call has the outlined-region form of mps.subgraph (see package
// mps): a symbol (`@<function>_thunk<i>`), operands, one single-block
// region whose entry block takes one argument per operand, and results,
// one per operand of thunk.yield. It also has a `target` attribute saying
// where the kernels run: "metal" (hand-written Metal kernels) or "host"
// (host code over the unified-memory arena).
//
//	%1 = thunk.call @decode_thunk1(%0#0, %0#1, %0#2) {target = "metal"} : (…) -> tensor<1x1x8x16xf32> {
//	^bb0(%q: …, %k: …, %v: …):
//	  %o = graph.attention %q, %k, %v {mask = "causal"} : …
//	  thunk.yield %o : tensor<1x1x8x16xf32>
//	}
//
// Like mps.subgraph, thunk.call sits directly in a func.func; its
// operands and results are ranked tensors, which may have dynamic dims.
// Any op may be in its body except another op with regions, leaves of any
// type included: every graph op has a native kernel.
package thunk
