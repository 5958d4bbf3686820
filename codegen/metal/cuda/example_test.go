package cuda_test

import (
	"fmt"
	"strings"

	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/codegen/metal/cuda"
)

// A kernel in the emitter's layout, and the manifest entry that launches
// it: Generate writes the text as nvcc compiles it, a __global__ wrapper
// and the launch table.
func ExampleGenerate() {
	src := `#include <metal_stdlib>
using namespace metal;

kernel void scale(
    device const float *x [[buffer(0)]],
    device float *y [[buffer(1)]],
    uint gid [[thread_position_in_grid]])
{
  y[gid] = 2.0f * x[gid];
}
`
	man := &metal.Manifest{Kernels: []*metal.KernelInfo{{
		Name: "scale", Grid: [3]int{4, 1, 1}, Threadgroup: [3]int{64, 1, 1},
		Bindings: []metal.Binding{{Index: 0, Name: "x"}, {Index: 1, Name: "y"}},
	}}}
	s, err := cuda.Generate("scale", src, man, cuda.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Parts, s.Table, s.Kernels)
	part := string(s.Files[s.Parts[0]])
	fmt.Print(part[strings.Index(part, "extern"):])
	// Output:
	// [scale_part0.cu] scale_table.cu [scale]
	// extern "C" __global__ void __launch_bounds__(64) rlx_k_scale(rlx_buffers rlx_b, unsigned rlx_poison) {
	//   scale(
	//       (const float *)rlx_b.p[0],
	//       (float *)rlx_b.p[1],
	//       (uint)(blockIdx.x * blockDim.x + threadIdx.x));
	// }
	//
	// #include "rlx_msl_names_end.h"
}

// Transform keeps every line of the emitted text in place, so that nvcc's
// messages and compute-sanitizer's reports name .metal lines.
func ExampleTransform() {
	fmt.Print(cuda.Transform("static inline float twice(thread const float *p) { return 2.0f * p[0]; }\n"+
		"kernel void k(device float *y [[buffer(0)]], threadgroup float *tg [[threadgroup(0)]])\n", "k.metal"))
	// Output:
	// #line 1 "k.metal"
	// static inline __device__ float twice(       const float *p) { return 2.0f * p[0]; }
	// kernel void k(       float *y              ,             float *tg                   )
}
