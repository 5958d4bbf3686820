package q6kcolumns_test

import (
	"fmt"
	"os"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/passes/q6kcolumns"
)

// Example runs the pass from Go: "w" is read only by a q6_k
// dequant_matmul and becomes q6_k_c16; "v" is also reshaped and stays.
func Example() {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	src := `func.func @f(%x: tensor<1x256xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>, tensor<420xui8>) {
  %w = graph.param "w" : tensor<420xui8>
  %0 = graph.dequant_matmul %x, %w {format = "q6_k", k = 256 : i64, n = 2 : i64} : (tensor<1x256xf32>, tensor<420xui8>) -> tensor<1x2xf32>
  %v = graph.param "v" : tensor<420xui8>
  %1 = graph.dequant_matmul %x, %v {format = "q6_k", k = 256 : i64, n = 2 : i64} : (tensor<1x256xf32>, tensor<420xui8>) -> tensor<1x2xf32>
  %2 = graph.reshape %v : (tensor<420xui8>) -> tensor<420xui8>
  return %0, %1, %2 : tensor<1x2xf32>, tensor<1x2xf32>, tensor<420xui8>
}`
	f, err := asm.Parse(ctx, "f.mlir", []byte(src), asm.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(q6kcolumns.Run(f.Op))
	_ = ir.Print(os.Stdout, f.Op, ir.PrintOptions{})
	// Output:
	// [w]
	// module {
	//   func.func @f(%arg0: tensor<1x256xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>, tensor<420xui8>) {
	//     %0 = graph.param "w" : tensor<420xui8>
	//     %1 = graph.dequant_matmul %arg0, %0 {format = "q6_k_c16", k = 256 : i64, n = 2 : i64} : (tensor<1x256xf32>, tensor<420xui8>) -> tensor<1x2xf32>
	//     %2 = graph.param "v" : tensor<420xui8>
	//     %3 = graph.dequant_matmul %arg0, %2 {format = "q6_k", k = 256 : i64, n = 2 : i64} : (tensor<1x256xf32>, tensor<420xui8>) -> tensor<1x2xf32>
	//     %4 = graph.reshape %2 : (tensor<420xui8>) -> tensor<420xui8>
	//     return %1, %3, %4 : tensor<1x2xf32>, tensor<1x2xf32>, tensor<420xui8>
	//   }
	// }
}
