// Package kernels implements every graph-dialect op on tensor.Tensor values,
// independent of the IR: one exported function per op, taking its operands,
// an attribute struct where the op has attributes, and the element type of
// its result. The reference interpreter (runtime/ref) maps each graph op onto
// one call; docs/runtime-kernels.md is the full numerics contract.
//
// Numerics. Arithmetic is float32; each elementary function (exp, tanh, erf,
// ...) is evaluated in float64 by the deterministic routines of
// internal/fmath and rounded once to float32. Results whose element type is
// f16 or bf16 are rounded to that type (nearest even) when the op finishes;
// intermediate values stay float32. Every reduction (dot products, sums,
// maxima) accumulates in one documented order that depends only on the
// shapes, one rounding per step, so results are bit-identical across runs,
// GOMAXPROCS settings and machines. Work is parallel only across independent
// output elements, on at most GOMAXPROCS goroutines.
//
// Go may fuse x*y+z into a fused multiply-add (on arm64, ppc64le, s390x and
// riscv64, and on amd64 built with GOAMD64=v3 or higher), which would change
// results. The kernels write every product that feeds an
// addition as float32(x*y), an explicit conversion that the Go specification
// defines as a rounding step and that therefore forbids fusion.
//
// Errors. Invalid operands (shape or type mismatches, out-of-range gather
// indices, wrong byte counts for packed weights, bad attributes) give an
// error whose message starts with the op name, e.g. "graph.matmul: ...";
// kernels never panic on bad input. Operands are never modified; results are
// freshly allocated, except that Reshape shares its operand's storage.
package kernels
