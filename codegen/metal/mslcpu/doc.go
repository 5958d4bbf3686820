// Package mslcpu runs the MSL that codegen/metal emits on Linux, without
// Apple hardware: the emitted .metal text itself compiles as C++ with
// clang-19 against a shim header of rlx's own (shim/metal_stdlib: the
// metal_stdlib subset the emitter uses — scalar and vector types, half and
// bfloat, math, simd_sum and the other simdgroup functions, barriers,
// atomics) and links with a dispatcher (shim/rlx_runtime.cpp) that runs
// each threadgroup's threads as OS threads with real barriers and 32-lane
// simdgroups.
//
// A Compiler finds clang++-19 and compiles the dispatcher once per Mode;
// Compiler.Build compiles a source once into a program (a Binary), whose
// Run feeds it jobs (buffers and dispatches) and returns the buffers. Every buffer has 64 guard bytes
// on each side, checked after the job, and starts poisoned (0xff) unless
// it holds data, as does threadgroup memory at the start of every
// threadgroup. ASan and TSan builds are the same program with the
// sanitizer (ASan allocates buffers at their exact size instead of
// guarding them). RegionJob and RegionOutputs translate between a
// manifest region and tensors of runtime/tensor, for comparison with the
// reference interpreter.
//
// The dispatcher reports, instead of hanging or passing silently, a
// barrier that waits past a deadline (a lane that skipped a simdgroup
// function), a threadgroup_barrier reached after some thread of the
// threadgroup returned, and threadgroup memory written outside its length.
// Binary.Fibers runs the threads as fibers of one OS thread instead (same
// semantics and reports, an immediate deadlock report, about 30 times
// cheaper per threadgroup) for large runs; sanitizer builds use threads.
//
// SyntaxCheck is the strict pass: clang -fsyntax-only with device,
// constant and threadgroup memory in distinct address spaces, which catches
// what the erasing run shim accepts (a device pointer handed to a helper
// that takes a thread pointer).
//
// Nothing is cached between runs: every Build compiles from the text.
package mslcpu
