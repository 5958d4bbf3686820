package mps_test

import (
	"fmt"
	"strings"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/codegen/mps"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
)

// ExampleEmit writes the builder of a lowered region for macOS 15, where
// reciprocalSquareRootWithTensor:name: needs no @available guard.
func ExampleEmit() {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	src := `func.func @f(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = mps.subgraph @f_mps0(%x) : (tensor<2x8xf32>) -> tensor<2x8xf32> {
  ^bb0(%a: tensor<2x8xf32>):
    %w = mps.placeholder "scale" : tensor<8xf32>
    %1 = mps.mul %a, %w : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    %2 = mps.rsqrt %1 : (tensor<2x8xf32>) -> tensor<2x8xf32>
    mps.yield %2 : tensor<2x8xf32>
  }
  return %0 : tensor<2x8xf32>
}`
	m, err := asm.Parse(ctx, "f.mlir", []byte(src), asm.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := mps.Emit(m.Op, mps.Options{MacOS: mps.Version{Major: 15}})
	if err != nil {
		fmt.Println(err)
		return
	}
	b := out.Builders[0]
	fmt.Printf("%s: weights %v\n", b.Function, b.Weights[0].Name)
	src2 := string(out.Source)
	fmt.Print(src2[strings.Index(src2, "  MPSGraphTensor *in0"):strings.Index(src2, "}\n\nNS_ASSUME_NONNULL_END")])
	// Output:
	// rlx_build_f_mps0: weights scale
	//   MPSGraphTensor *in0 = [inputs objectAtIndex:0];
	//   MPSGraphTensor *t0 = rlx_weight(graph, weights, @"scale", @[@8], MPSDataTypeFloat32);
	//   MPSGraphTensor *t1 = [graph multiplicationWithPrimaryTensor:in0 secondaryTensor:t0 name:nil];
	//   MPSGraphTensor *t2 = [graph reciprocalSquareRootWithTensor:t1 name:nil];
	//   return @[t2];
}
