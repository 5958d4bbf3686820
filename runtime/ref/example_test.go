package ref_test

import (
	"fmt"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

const src = `
func.func @mlp(%x: tensor<1x4xf32>) -> tensor<1x2xf32> {
  %w = graph.param "w" : tensor<4x2xf32>
  %0 = graph.matmul %x, %w : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
  %1 = graph.relu %0 : (tensor<1x2xf32>) -> tensor<1x2xf32>
  return %1 : tensor<1x2xf32>
}`

func Example() {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	f, err := asm.ParseString(ctx, "mlp.mlir", src)
	if err != nil {
		panic(err)
	}
	p, err := ref.Compile(f, "") // the only public function
	if err != nil {
		panic(err)
	}
	x, _ := tensor.FromFloat32(tensor.F32, []int{1, 4}, []float32{1, 2, 3, 4})
	w, _ := tensor.FromFloat32(tensor.F32, []int{4, 2}, []float32{1, -1, 1, -1, 1, -1, 1, 1})
	out, err := p.Run([]*tensor.Tensor{x}, &ref.TensorWeights{Tensors: map[string]*tensor.Tensor{"w": w}})
	if err != nil {
		panic(err)
	}
	fmt.Println(out[0])

	// A missing weight is an error located at the graph.param op.
	_, err = p.Run([]*tensor.Tensor{x}, &ref.TensorWeights{Source: "w.safetensors"})
	fmt.Println(err)
	// Output:
	// tensor<1x2xf32> [10 0]
	// mlp.mlir:3:8: error: 'graph.param' op no weight named "w" in w.safetensors
}

// ExampleDifferential checks that two ways of writing a function compute
// the same bits on seeded inputs and weights.
func ExampleDifferential() {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	a, _ := asm.ParseString(ctx, "a.mlir", src)
	b, _ := asm.ParseString(ctx, "b.mlir", `
func.func @mlp(%x: tensor<1x4xf32>) -> tensor<1x2xf32> {
  %w = graph.param "w" : tensor<4x2xf32>
  %0 = graph.matmul %x, %w : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
  %z = graph.constant dense<0.0> : tensor<1x2xf32>
  %1 = graph.max %0, %z : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
  return %1 : tensor<1x2xf32>
}`)
	diffs, err := ref.Differential(a, b, "mlp", 1)
	if err != nil {
		panic(err)
	}
	fmt.Printf("bit-identical: %v, max |a-b| = %g\n", diffs[0].BitIdentical, diffs[0].MaxAbs)
	// Output: bit-identical: true, max |a-b| = 0
}
