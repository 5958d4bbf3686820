// Package abi holds rlx_runtime.h, the C runtime ABI through which an AOT
// host module (codegen/llvmir) sequences a plan's steps, and two
// implementations of it that run on any machine: rlx_runtime_cpu.cpp,
// which runs the Metal steps' kernels on the CPU (the emitted MSL compiled
// as C++ against codegen/metal/mslcpu's shim, buffers bound at offsets
// into one arena), and c/rlx_record.c, which records every call as a line of
// text for tests to compare with the plan. The Metal implementation lives
// with the Metal backend (runtime/backend/metal), which calls the same
// functions through cgo.
//
// The files are embedded (Files) so that tools can write them into a
// bundle (rlx-compile) and tests into a temporary directory.
package abi
