package passes_test

import (
	"fmt"
	"os"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/passes"
	"github.com/rlx-compiler/rlx/pipeline"
)

// Example runs hybrid-split from Go, as `rlx-opt --hybrid-split` does: the
// matmul and the add go to an mps.subgraph region, the Q8_0 matmul (which
// MPSGraph cannot run) to a thunk.call region of native kernels.
func Example() {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	src := `func.func @f(%x: tensor<1x32xf32>, %w: tensor<32x32xf32>, %q: tensor<1088xui8>) -> tensor<1x32xf32> {
  %0 = graph.matmul %x, %w : (tensor<1x32xf32>, tensor<32x32xf32>) -> tensor<1x32xf32>
  %1 = graph.add %0, %x : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  %2 = graph.dequant_matmul %1, %q {format = "q8_0", k = 32 : i64, n = 32 : i64} : (tensor<1x32xf32>, tensor<1088xui8>) -> tensor<1x32xf32>
  return %2 : tensor<1x32xf32>
}`
	f, err := asm.Parse(ctx, "f.mlir", []byte(src), asm.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	reg := pipeline.NewRegistry(passes.All()...)
	opm, err := pipeline.Parse(reg, "builtin.module(func.func(hybrid-split))")
	if err != nil {
		fmt.Println(err)
		return
	}
	pm := pipeline.NewWith(ctx, opm)
	if err := pm.Run(f.Op); err != nil {
		fmt.Println(err)
		return
	}
	_ = ir.Print(os.Stdout, f.Op, ir.PrintOptions{})
	// Output:
	// module {
	//   func.func @f(%arg0: tensor<1x32xf32>, %arg1: tensor<32x32xf32>, %arg2: tensor<1088xui8>) -> tensor<1x32xf32> {
	//     %0 = mps.subgraph @f_mps0(%arg0, %arg1) : (tensor<1x32xf32>, tensor<32x32xf32>) -> tensor<1x32xf32> {
	//     ^bb0(%arg3: tensor<1x32xf32>, %arg4: tensor<32x32xf32>):
	//       %2 = graph.matmul %arg3, %arg4 : (tensor<1x32xf32>, tensor<32x32xf32>) -> tensor<1x32xf32>
	//       %3 = graph.add %2, %arg3 : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
	//       mps.yield %3 : tensor<1x32xf32>
	//     }
	//     %1 = thunk.call @f_thunk1(%0, %arg2) {target = "metal"} : (tensor<1x32xf32>, tensor<1088xui8>) -> tensor<1x32xf32> {
	//     ^bb0(%arg3: tensor<1x32xf32>, %arg4: tensor<1088xui8>):
	//       %2 = graph.dequant_matmul %arg3, %arg4 {format = "q8_0", k = 32 : i64, n = 32 : i64} : (tensor<1x32xf32>, tensor<1088xui8>) -> tensor<1x32xf32>
	//       thunk.yield %2 : tensor<1x32xf32>
	//     }
	//     return %1 : tensor<1x32xf32>
	//   }
	// }
}
