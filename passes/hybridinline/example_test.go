package hybridinline_test

import (
	"fmt"
	"os"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/passes/hybridinline"
	"github.com/rlx-compiler/rlx/passes/hybridsplit"
)

// ExampleInline splits a function and puts it back: the regions' bodies
// return to the function in line, and the weight cloned into both MPS
// regions becomes one graph.param again.
func ExampleInline() {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	src := `func.func @f(%x: tensor<1x32xf32>, %q: tensor<1088xui8>) -> tensor<1x32xf32> {
  %w = graph.param "w" : tensor<32x32xf32>
  %0 = graph.matmul %x, %w : (tensor<1x32xf32>, tensor<32x32xf32>) -> tensor<1x32xf32>
  %1 = graph.dequant_matmul %0, %q {format = "q8_0", k = 32 : i64, n = 32 : i64} : (tensor<1x32xf32>, tensor<1088xui8>) -> tensor<1x32xf32>
  %2 = graph.matmul %1, %w : (tensor<1x32xf32>, tensor<32x32xf32>) -> tensor<1x32xf32>
  return %2 : tensor<1x32xf32>
}`
	m, err := asm.Parse(ctx, "f.mlir", []byte(src), asm.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	f := m.Op.Region(0).First().First()
	if _, err := hybridsplit.Split(f, hybridsplit.Options{}); err != nil {
		fmt.Println(err)
		return
	}
	regions, leaves := hybridinline.Inline(f)
	fmt.Printf("%d regions inlined, %d leaves merged\n", regions, leaves)
	_ = ir.Print(os.Stdout, f, ir.PrintOptions{})
	// Output:
	// 3 regions inlined, 1 leaves merged
	// func.func @f(%arg0: tensor<1x32xf32>, %arg1: tensor<1088xui8>) -> tensor<1x32xf32> {
	//   %0 = graph.param "w" : tensor<32x32xf32>
	//   %1 = graph.matmul %arg0, %0 : (tensor<1x32xf32>, tensor<32x32xf32>) -> tensor<1x32xf32>
	//   %2 = graph.dequant_matmul %1, %arg1 {format = "q8_0", k = 32 : i64, n = 32 : i64} : (tensor<1x32xf32>, tensor<1088xui8>) -> tensor<1x32xf32>
	//   %3 = graph.matmul %2, %0 : (tensor<1x32xf32>, tensor<32x32xf32>) -> tensor<1x32xf32>
	//   return %3 : tensor<1x32xf32>
	// }
}
