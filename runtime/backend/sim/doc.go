// Package sim is the runtime's simulation backend ("sim"): the whole
// Metal path except Apple's own code, on Linux. Metal steps run the
// kernels codegen/metal emitted, compiled as C++ against the CPU shim of
// codegen/metal/mslcpu and linked with the CPU implementation of
// rlx_runtime.h (runtime/abi), in a server process that maps the same
// arena and weight buffer as this one (two files, MAP_SHARED), so every
// kernel reads and writes the plan's slots at their offsets in one arena,
// as on a GPU; MPS steps run their regions after lower-to-mps through the
// interpreter of the mps primitives (runtime/ref), over the same arena;
// host steps run through the interpreter in their graph form.
//
// The server is a separate program, so this package and everything that
// imports it build and test with Go alone: New fails with an error that
// wraps mslcpu.ErrNoClang when clang++-19 is missing, and the tests skip
// on it. Compiling the kernels takes seconds; the programs are cached per
// source for the life of the process.
package sim
