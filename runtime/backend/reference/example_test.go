package reference_test

import (
	"fmt"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/backend"
	"github.com/rlx-compiler/rlx/runtime/backend/reference"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// New prepares a split function's plan for the reference backend; Run
// writes the inputs into their arena slots, runs each region through the
// interpreter over the arena, and reads the results back: the
// interpreter's bits, in one CPU wait.
func ExampleNew() {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	m, err := asm.Parse(ctx, "split.mlir", []byte(`func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0:2 = mps.subgraph @f_mps0(%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>):
    %e = graph.exp %a : (tensor<4xf32>) -> tensor<4xf32>
    %n = graph.neg %a : (tensor<4xf32>) -> tensor<4xf32>
    mps.yield %e, %n : tensor<4xf32>, tensor<4xf32>
  }
  %1 = thunk.call @f_thunk1(%0#0, %0#1) {target = "metal"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%e: tensor<4xf32>, %n: tensor<4xf32>):
    %m = graph.max %e, %n : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    thunk.yield %m : tensor<4xf32>
  }
  return %1 : tensor<4xf32>
}`), asm.Options{})
	if err != nil {
		panic(err)
	}
	c, err := backend.Compile(m.Op, "", backend.Options{})
	if err != nil {
		panic(err)
	}
	b, err := reference.New(c, ref.Seeded(1))
	if err != nil {
		panic(err)
	}
	defer b.Close()
	in, err := ref.SeededInputs(1, c.Program)
	if err != nil {
		panic(err)
	}
	got, err := b.Run(in)
	if err != nil {
		panic(err)
	}
	want, err := c.Program.Run(in, ref.Seeded(1))
	if err != nil {
		panic(err)
	}
	fmt.Println(got[0].Type(), "the interpreter's bits:", ref.Checksum(got[0]) == ref.Checksum(want[0]))
	fmt.Println("CPU waits:", b.Stats().Waits)
	// Output:
	// tensor<4xf32> the interpreter's bits: true
	// CPU waits: 1
}

// EmitModule emits a module's kernels once; each of its functions then
// compiles on them, and the Compiled values share one MSL output (a
// prefill and a decode entry, say, or the many functions of a test).
func ExampleEmitModule() {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	m, err := asm.Parse(ctx, "two.mlir", []byte(`module {
  func.func @double(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = thunk.call @double_thunk0(%x) {target = "metal"} : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: tensor<4xf32>):
      %s = graph.add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      thunk.yield %s : tensor<4xf32>
    }
    return %0 : tensor<4xf32>
  }
  func.func @square(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = thunk.call @square_thunk0(%x) {target = "metal"} : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: tensor<4xf32>):
      %p = graph.mul %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      thunk.yield %p : tensor<4xf32>
    }
    return %0 : tensor<4xf32>
  }
}`), asm.Options{})
	if err != nil {
		panic(err)
	}
	em, err := backend.EmitModule(m.Op, backend.Options{})
	if err != nil {
		panic(err)
	}
	var first *backend.Compiled
	for _, name := range []string{"double", "square"} {
		c, err := em.Compile(name)
		if err != nil {
			panic(err)
		}
		if first == nil {
			first = c
		}
		b, err := reference.New(c, nil)
		if err != nil {
			panic(err)
		}
		x, err := tensor.FromFloat32(tensor.F32, []int{4}, []float32{1, 2, 3, 4})
		if err != nil {
			panic(err)
		}
		got, err := b.Run([]*tensor.Tensor{x})
		b.Close()
		if err != nil {
			panic(err)
		}
		fmt.Println(name, got[0].Floats())
	}
	fmt.Println("kernels:", len(first.MSL.Manifest.Kernels))
	// Output:
	// double [2 4 6 8]
	// square [1 4 9 16]
	// kernels: 2
}
