package metal_test

import (
	"fmt"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
)

// A decode step's region after hybrid-split: a q8_0 projection and an
// RMS norm.
const stepSrc = `
func.func @step(%x: tensor<1x64xf32>, %g: tensor<64xf32>) -> tensor<1x64xf32> {
  %r = thunk.call @step_thunk(%x, %g) {target = "metal"} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32> {
  ^bb0(%a: tensor<1x64xf32>, %b: tensor<64xf32>):
    %w = graph.param "w_o" : tensor<4352xui8>
    %0 = graph.dequant_matmul %a, %w {format = "q8_0", k = 64 : i64, n = 64 : i64} : (tensor<1x64xf32>, tensor<4352xui8>) -> tensor<1x64xf32>
    %1 = graph.rms_norm %0, %b {epsilon = 1.0e-06 : f32} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
    thunk.yield %1 : tensor<1x64xf32>
  }
  return %r : tensor<1x64xf32>
}`

// Emit returns the source, the kernels with their launch shapes, and the
// manifest: each region's buffers and the dispatches to encode.
func ExampleEmit() {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	m, err := asm.ParseString(ctx, "step.mlir", stepSrc)
	if err != nil {
		panic(err)
	}
	out, err := metal.Emit(m, metal.Options{})
	if err != nil {
		panic(err)
	}
	for _, k := range out.Kernels {
		fmt.Printf("%s: grid %v, threadgroup %v, %d bytes of threadgroup memory\n", k.Name, k.Grid, k.Threadgroup, k.ThreadgroupMemory)
	}
	r := out.Manifest.Regions[0]
	for _, b := range r.Buffers {
		fmt.Printf("buffer %d: %s %s %q\n", b.ID, b.Role, b.Type, b.Name)
	}
	for _, d := range r.Dispatches {
		fmt.Println(d.Kernel, d.Buffers)
	}
	// Output:
	// dequant_gemv_q8_0_0: grid [16 1 1], threadgroup [128 1 1], 64 bytes of threadgroup memory
	// rms_norm_0: grid [1 1 1], threadgroup [32 1 1], 128 bytes of threadgroup memory
	// buffer 0: input tensor<1x64xf32> ""
	// buffer 1: input tensor<64xf32> ""
	// buffer 2: output tensor<1x64xf32> ""
	// buffer 3: param tensor<4352xui8> "w_o"
	// buffer 4: temp tensor<1x64xf32> ""
	// dequant_gemv_q8_0_0 [0 3 4]
	// rms_norm_0 [4 1 2]
}

// Traffic says what each region's dispatches move through device memory,
// against the least any implementation must.
func ExampleManifest_Traffic() {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	m, err := asm.ParseString(ctx, "step.mlir", stepSrc)
	if err != nil {
		panic(err)
	}
	out, err := metal.Emit(m, metal.Options{})
	if err != nil {
		panic(err)
	}
	for _, t := range out.Manifest.Traffic() {
		fmt.Printf("%s: %d dispatches, %d bytes read, %d written, minimum %d\n", t.Symbol, t.Dispatches, t.Read, t.Written, t.Min)
	}
	// Output:
	// step_thunk: 2 dispatches, 5120 bytes read, 512 written, minimum 5120
}
