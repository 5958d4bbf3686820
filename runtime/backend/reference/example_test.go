package reference_test

import (
	"fmt"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/backend"
	"github.com/rlx-compiler/rlx/runtime/backend/reference"
	"github.com/rlx-compiler/rlx/runtime/ref"
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
