// Package dqprobe holds dqprobe.cu, a hand-written CUDA program that the
// GPU check runs on the lent NVIDIA machine to measure what bounds the
// dequantising GEMVs (docs/gpu-check.md, runs 18, 19, 28 to 30, 32): the
// emitted kernel's layout with its arithmetic replaced (loads only, packed
// halves), other layouts of the same loads (q4_0 repacked into arrays of
// qs and d; x-stationary shapes, a lane a block column walking rows, for
// q4_0 and for q6_k repacked out of GGUF's blocks), and a plain
// 16-byte read of the same bytes,
// each timed as bench.py times the emitted kernels and checked against a
// double-precision reference on the host. It is a measurement, not a
// kernel rlx emits.
//
// On the GPU machine, from the repository root:
//
//	nvcc -O3 -arch=sm_90 -std=c++17 -o /tmp/dqp bench/gpu/dqprobe/dqprobe.cu && /tmp/dqp
//
// or, for the times, each kernel's SASS instructions by opcode and ncu's
// counters for the kernels a regular expression names, in one call:
//
//	OUT=$OUT/probe DQPROBE_ONLY=float,rot NCU_KERNELS=gemv bash bench/gpu/dqprobe/run.sh
//
// DQPROBE_ONLY takes full variant names (a variant runs when its name
// occurs in the list). Here, the package's test checks the program's syntax with clang-19 in
// CUDA mode (host and device sides) against declarations of our own
// (testdata/stubs), so that CI notices when it no longer compiles.
package dqprobe
