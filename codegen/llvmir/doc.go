// Package llvmir writes the host module of a plan (rlx-translate
// --mlir-to-llvmir), for apps that do not embed Go: an LLVM IR module,
// written with github.com/llir/llvm, that sequences the plan's steps
// through the C runtime ABI of runtime/abi (rlx_runtime.h). The plan's
// arena offsets, kernel grids, threadgroups and bindings, the MPS regions'
// tensors and the weights' slots are constants of the module; an app links
// it with the kernels' library (the .metal source), the MPSGraph builders
// (codegen/mps) and an implementation of rlx_runtime.h (the Metal one in
// runtime/backend/metal), and calls three functions:
//
//	int rlx_<f>_create(const char *library, rlx_context **out);
//	int rlx_<f>_bind_weights(rlx_context *ctx, rlx_weight_loader load, void *user);
//	int rlx_<f>_run(rlx_context *ctx);
//
// with the arguments written into and the results read from rlx_arena(ctx)
// at the slots rlx_<f>_inputs and rlx_<f>_outputs give (Header declares
// them). rlx_<f>_run encodes every step and waits once, at the end.
//
// llir/llvm v0.3.6 writes typed pointers (i8*); LLVM 15 and later read
// them as opaque pointers, and the tests check the module with
// opt-19 -passes=verify, compile it with clang-19, link it with a
// recording implementation of the ABI (whose record must equal the plan)
// and, for a plan of Metal steps only, with the CPU implementation and the
// kernels compiled for the CPU, whose results must match the interpreter.
package llvmir
