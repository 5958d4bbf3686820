// Package ref is rlx's reference interpreter: it runs a func.func of graph
// ops by calling, for each op, its kernel in runtime/kernels, and is the
// oracle that passes and backends are compared with. Results are
// bit-reproducible: the kernels fix every accumulation order
// (docs/runtime-kernels.md), and the interpreter adds no arithmetic of its
// own, so two runs, two GOMAXPROCS settings or two machines give the same
// bits.
//
// Compile turns a function into a Program once: a flat list of kernel
// calls whose attributes are decoded up front and whose values live in
// densely numbered slots, so a run does no map lookups, reflection or
// attribute parsing per op. A backward pass over that list finds each
// value's last use, and Run drops a value as soon as its last reader has
// run, so memory stays near the live tensors. Programs are immutable and
// may run concurrently.
//
// What runs:
//
//   - every graph op; f16 and bf16 results are rounded by the kernels when
//     each op finishes. graph.constant materialises its dense (or
//     dense_resource) attribute once, at compile time. graph.param asks a
//     Weights source for the named tensor each time it runs and checks it
//     against the param's type;
//   - the mps dialect's primitives (mps.add, mps.reduce_sum, mps.placeholder,
//     …, what lower-to-mps makes of an mps.subgraph), each with MPSGraph's
//     semantics as docs/dialects/mps.md states them: reductions keep their
//     axes, a slice start may count from the end, mps.placeholder binds a
//     weight by name as graph.param does;
//   - func.call to a function of the same module, inlined at compile time
//     (recursion is reported as an error);
//   - region ops, recognised by their structure and not by name, so that
//     mps.subgraph and thunk.call (and any op shaped like them) run without
//     this package knowing their dialects. A region op has exactly one
//     region holding one block; the block's arguments correspond one to one
//     (same types) to the op's operands, and the block's last op, the
//     terminator, has no results and operands that correspond one to one to
//     the op's results. The body runs in place: block argument i is operand
//     i, and result i is the terminator's operand i. Region ops nest, and
//     their bodies may hold graph ops, calls and further region ops.
//
// Anything else is an error at compile time, located at the op.
//
// Errors a user can cause — a missing weight, a weight or input of the wrong
// type, an out-of-range gather index, integer division by zero, a kernel
// rejecting its operands — are *ir.Diagnostic values located at the failing
// op ("in.mlir:12:7: error: 'graph.gather' op index 9 ...") with a "called
// from here" note per func.call it was reached through. Run recovers from a
// panic in a kernel and reports it the same way, as an internal error.
//
// Weights and inputs come from files (ReadWeights for safetensors,
// tensor.ReadNPY) or from a seed (Seeded, SeededInputs): every tensor has its
// own generator stream, derived from the seed and its name (StreamSeed), so
// adding a weight never changes the others, and the values are shaped to
// what reads them (valid GGUF blocks for a packed weight that a
// dequant_matmul reads, in-range indices for a gather); see SeededTensor.
//
// To compare two functions bit for bit (a function and its transformed
// version), use Differential, or Compile both, run them on the same
// SeededInputs and Materialize'd weights, and CompareResults.
package ref
