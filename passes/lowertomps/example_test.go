package lowertomps_test

import (
	"fmt"
	"os"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/passes/hybridsplit"
	"github.com/rlx-compiler/rlx/passes/lowertomps"
)

// ExampleLower splits a function and lowers its MPS region: the weight
// becomes a placeholder fed by name, silu becomes x·sigmoid(x), and the
// matmul is one primitive.
func ExampleLower() {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	src := `func.func @f(%x: tensor<1x32xf32>) -> tensor<1x32xf32> {
  %w = graph.param "w" : tensor<32x32xf32>
  %0 = graph.matmul %x, %w : (tensor<1x32xf32>, tensor<32x32xf32>) -> tensor<1x32xf32>
  %1 = graph.silu %0 : (tensor<1x32xf32>) -> tensor<1x32xf32>
  return %1 : tensor<1x32xf32>
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
	st, err := lowertomps.Lower(f, lowertomps.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d graph ops in %d regions became %d primitives\n", st.GraphOps, st.Regions, st.Primitives)
	_ = ir.Print(os.Stdout, f, ir.PrintOptions{})
	// Output:
	// 3 graph ops in 1 regions became 4 primitives
	// func.func @f(%arg0: tensor<1x32xf32>) -> tensor<1x32xf32> {
	//   %0 = mps.subgraph @f_mps0(%arg0) : (tensor<1x32xf32>) -> tensor<1x32xf32> {
	//   ^bb0(%arg1: tensor<1x32xf32>):
	//     %1 = mps.placeholder "w" : tensor<32x32xf32>
	//     %2 = mps.matmul %arg1, %1 : (tensor<1x32xf32>, tensor<32x32xf32>) -> tensor<1x32xf32>
	//     %3 = mps.sigmoid %2 : (tensor<1x32xf32>) -> tensor<1x32xf32>
	//     %4 = mps.mul %2, %3 : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
	//     mps.yield %4 : tensor<1x32xf32>
	//   }
	//   return %0 : tensor<1x32xf32>
	// }
}
