// Package metal is the runtime's Metal backend ("metal"), for macOS: it
// runs a plan on the GPU through rlx_runtime.h's Metal implementation
// (rlx_runtime_metal_darwin.m), the same code an app links with an AOT
// host module. One MTLBuffer holds the arena and one the weights; the
// kernels' library is compiled once from the emitted MSL, with fast math
// off; each MPS region's builder (codegen/mps) builds its MPSGraph once
// and compiles it into an executable once; and a run encodes every step
// into one command buffer (an MPSCommandBuffer, which MPSGraph encodes
// into as well), commits it and waits once, at the end. MPSGraph tensor
// data lives at an offset in the arena: through MPSNDArray views
// (initWithBuffer:offset:descriptor:, macOS 15) where the OS has them,
// and through staging buffers filled and emptied by blit copies in the
// same command buffer on older systems, so no CPU wait is added there
// either.
//
// The MPSGraph builders are generated per model, so the backend compiles
// them into a dynamic library when a plan is prepared (xcrun clang, from
// Xcode's command line tools) and loads it; an app compiles them with the
// rest of its code instead (docs/apps.md).
//
// On other systems, or without cgo, New returns ErrUnavailable. On Linux
// the package is checked by compiling it for darwin/arm64 with clang-19
// against rlx's stub SDK (codegen/mps/sdk, with the Metal classes the
// backend uses) and stub C headers for Go's runtime/cgo (sdk/libc here):
// TestDarwinBuild.
package metal
