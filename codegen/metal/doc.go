// Package metal emits Metal Shading Language kernels for the thunk.call
// regions of a module after hybrid-split (target = "metal"), and the
// manifest a runtime reads to run them.
//
// Emit walks every such region in order and plans it: each value gets a
// buffer (region operands, results, weights, constants, temporaries; a
// reshape is a view of its operand's buffer), and each op, or each run of
// element-wise ops, becomes a dispatch of a kernel specialised to its
// static shapes and attributes. Kernels with the same specialisation are
// emitted once and shared, so a model whose layers repeat emits a small
// source however many layers it has.
//
// Kernels follow the hand-written ones of ggml-metal and MLX: fused
// element-wise chains with vector loads, GEMV with simdgroup reductions for
// few rows and tiled GEMM through threadgroup memory otherwise, one
// threadgroup per row for norms, softmax and reductions, a decode and a
// general attention kernel with online softmax, a gated delta net that
// keeps its state on chip, and fused dequantising GEMV and GEMM for the
// GGUF formats. Each op family is one file, and familyTable maps ops to
// them.
//
// The emitted text stays inside a narrow subset of MSL, so that the same
// text also compiles as C++ against the CPU shim of codegen/metal/mslcpu
// (and, later, as CUDA): buffers are device or constant pointers with
// [[buffer(n)]], threadgroup memory is one [[threadgroup(0)]] parameter,
// shapes and attributes are literals, helpers are static inline with
// explicit address spaces, and there are no function constants, functional
// vector constructors or simdgroup matrices. docs/codegen-metal.md lists
// the subset; TestSubset checks every emitted kernel against it.
//
// Metal's limits are checked at emission, with a located error naming the
// op: at most 31 buffers, at most 32 KB of threadgroup memory (a multiple
// of 16), and at most Options.MaxThreadsPerThreadgroup threads.
package metal
