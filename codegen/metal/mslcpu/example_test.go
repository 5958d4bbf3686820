package mslcpu_test

import (
	"fmt"
	"os"

	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/codegen/metal/mslcpu"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// Region buffers hold tensors as a Metal kernel stores them: f16 as its
// bits, i1 as one byte.
func ExampleTensorBytes() {
	x, _ := tensor.FromFloat32(tensor.F16, []int{2}, []float32{1, -2})
	b, _ := mslcpu.TensorBytes(x)
	fmt.Printf("% x\n", b)
	dt, shape, _ := mslcpu.ParseTensorType("tensor<2xf16>")
	y, _ := mslcpu.TensorFromBytes(dt, shape, b)
	fmt.Println(y)
	// Output:
	// 00 3c 00 c0
	// tensor<2xf16> [1 -2]
}

// The harness loop: compile an emitted source once, run a region on
// tensors, read its results back (with the guard bytes and the status word
// checked). It needs clang++-19.
func ExampleCompiler() {
	cc, err := mslcpu.NewCompiler()
	if err != nil {
		fmt.Println(err) // clang++-19 is not installed
		return
	}
	var out *metal.Output // from metal.Emit
	dir, _ := os.MkdirTemp("", "harness")
	defer os.RemoveAll(dir)
	bin, err := cc.Build(dir, out.Source, out.Kernels, mslcpu.Plain)
	if err != nil {
		panic(err)
	}
	region := out.Manifest.Regions[0]
	var args []*tensor.Tensor // the region's operands
	job, err := mslcpu.RegionJob(out.Manifest, region, args, nil, mslcpu.RegionOptions{})
	if err != nil {
		panic(err)
	}
	res, err := bin.Run([]*mslcpu.Job{job})
	if err != nil {
		panic(err) // a sanitizer report, a deadlock, a barrier not every thread reached
	}
	results, err := mslcpu.RegionOutputs(region, res[0])
	fmt.Println(results, err)
}
