// Package suite builds the suites of the GPU check (bench/gpu,
// docs/gpu-check.md): sets of cases emitted as one MSL module, the CUDA
// sources that run them through the shim, one job per case with its
// inputs (carried or filled on the device), and the reference
// interpreter's outputs that the device driver compares with.
//
// The cases: SmallCases (codegen/metal's op suite, the CPU harness's
// sizes), RealCases (a decoder's real sizes, and the decode kernels the
// benchmark times) and RandomCases (hybrid-split's random functions with
// every op kept native, so that kernels fuse in the combinations the
// emitter makes of them).
package suite
