package plan_test

import (
	"fmt"
	"os"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/plan"
	"github.com/rlx-compiler/rlx/runtime/ref"
)

// A split function: an MPS region hands two results to a Metal kernel.
const splitFunc = `func.func @step(%x: tensor<1x64xf32>) -> tensor<1x64xf32> {
  %0:2 = mps.subgraph @step_mps0(%x) : (tensor<1x64xf32>) -> (tensor<1x64xf32>, tensor<1x64xf32>) {
  ^bb0(%a: tensor<1x64xf32>):
    %wq = graph.param "wq" : tensor<64x64xf32>
    %wk = graph.param "wk" : tensor<64x64xf32>
    %q = graph.matmul %a, %wq : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
    %k = graph.matmul %a, %wk : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
    mps.yield %q, %k : tensor<1x64xf32>, tensor<1x64xf32>
  }
  %1 = thunk.call @step_thunk1(%0#0, %0#1) {target = "metal"} : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32> {
  ^bb0(%q: tensor<1x64xf32>, %k: tensor<1x64xf32>):
    %s = graph.softplus %q : (tensor<1x64xf32>) -> tensor<1x64xf32>
    %m = graph.max %s, %k : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
    thunk.yield %m : tensor<1x64xf32>
  }
  return %1 : tensor<1x64xf32>
}`

// Build plans a split function from it and the manifest of its Metal
// kernels; Print shows the plan as rlx-run --plan does.
func ExampleBuild() {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	m, err := asm.Parse(ctx, "split.mlir", []byte(splitFunc), asm.Options{})
	if err != nil {
		panic(err)
	}
	kernels, err := metal.Emit(m.Op, metal.Options{})
	if err != nil {
		panic(err)
	}
	f, err := ref.EntryFunc(m.Op, "")
	if err != nil {
		panic(err)
	}
	p, err := plan.Build(f, kernels.Manifest, plan.Options{})
	if err != nil {
		panic(err)
	}
	p.Print(os.Stdout)
	fmt.Println("CPU waits per run:", p.Waits())
	// Output:
	// plan @step align 256 guard 0
	//   arena 768 bytes, lower bound 768 (1.000x); weights 32768 bytes; 2 steps, 1 dispatches
	//   input 0 %arg0 : tensor<1x64xf32> @0+256 live [-1, 0]
	//   weight 0 "wq" : tensor<64x64xf32> @0+16384
	//   weight 1 "wk" : tensor<64x64xf32> @16384+16384
	//   step 0 mps @step_mps0
	//     in %arg0 : tensor<1x64xf32> @0+256
	//     out %0#0 : tensor<1x64xf32> @256+256 live [0, 1]
	//     out %0#1 : tensor<1x64xf32> @512+256 live [0, 1]
	//     weights "wq", "wk"
	//   step 1 metal @step_thunk1
	//     in %0#0 : tensor<1x64xf32> @256+256
	//     in %0#1 : tensor<1x64xf32> @512+256
	//     out %1 : tensor<1x64xf32> @0+256 live [1, 2]
	//     dispatch ew_0 grid [1, 1, 1] threadgroup [32, 1, 1] tgmem 0
	//       bind arena@256+256 read, arena@512+256 read, arena@0+256 write
	//   output 0 %1 : tensor<1x64xf32> @0+256
	// CPU waits per run: 1
}
