// Package tensor holds the dense tensors that the reference runtime computes
// with, independent of the IR.
//
// A Tensor has an element type (f32, f16, bf16, i32, i64, i1, i8 or ui8), a
// static shape and row-major (C order) storage. Floating-point tensors store
// their elements as float32; an f16 or bf16 tensor only ever holds float32
// values that are exactly representable in its type, so the storage is the
// value and needs no decoding. Integer tensors (i1, i8, i32, i64) store int64
// values that lie in the range of their type; i64 values are therefore exact.
// ui8 tensors store raw bytes, which is how packed quantised weights travel.
//
// Tensors are values: kernels never modify their operands and always return
// freshly allocated results, so a tensor may be shared freely once built.
//
// Besides the type itself the package provides the numeric helpers every
// backend needs to agree on: f32↔f16 and f32↔bf16 rounding (round to nearest,
// ties to even, with correct subnormals, infinities and NaNs), NumPy
// broadcasting and strides, an odometer for walking indices, a seeded
// generator whose streams are fixed by this package (splitmix64, see RNG), and
// readers and writers for the .npy and safetensors file formats. The readers
// validate everything they read and return errors, never panic, and never
// allocate much more memory than the input holds.
package tensor
