package asm_test

import (
	"fmt"
	"os"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
)

// Example parses a function in the custom form, verifies it and prints it
// in MLIR's generic form, as `rlx-opt --mlir-print-op-generic` does.
func Example() {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	src := `func.func @scale(%x: tensor<4xf32>, %s: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.mul %x, %s : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}`
	f, err := asm.Parse(ctx, "scale.mlir", []byte(src), asm.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := ir.Verify(f.Op); err != nil {
		fmt.Println(err)
		return
	}
	_ = ir.Print(os.Stdout, f.Op, ir.PrintOptions{Generic: true})
	// Output:
	// "builtin.module"() ({
	//   "func.func"() <{function_type = (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>, sym_name = "scale"}> ({
	//   ^bb0(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>):
	//     %0 = "graph.mul"(%arg0, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
	//     "func.return"(%0) : (tensor<4xf32>) -> ()
	//   }) : () -> ()
	// }) : () -> ()
}

// Example_error shows a located parse error: file:line:col, the message,
// the source line and a caret, as mlir-opt prints them.
func Example_error() {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	_, err := asm.Parse(ctx, "bad.mlir", []byte("func.func @f() {\n  return %nope : i32\n}"), asm.Options{})
	fmt.Println(err)
	// Output:
	// bad.mlir:2:10: error: use of undeclared SSA value name
	//   return %nope : i32
	//          ^
}

// ExampleSourceMgr renders diagnostics as rlx-opt does, with the source
// line and a caret: a verifier error here (an *ir.Diagnostic knows only its
// location, so the SourceMgr supplies the line), and, the same way, the
// diagnostics of a parse error (asm.ErrorDiagnostics). Rendered text ends
// in a newline; an *asm.Error's Error() does not, as Go errors do not.
func ExampleSourceMgr() {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	src := []byte(`func.func @f(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}`)
	sm := asm.NewSourceMgr()
	sm.PrintOpOnDiagnostic = false // no "see current operation" note
	sm.AddFile("mm.mlir", src)
	f, err := asm.Parse(ctx, "mm.mlir", src, asm.Options{})
	if err != nil {
		for _, d := range asm.ErrorDiagnostics(ctx, err) {
			sm.Print(os.Stdout, d)
		}
		return
	}
	if err := ir.Verify(f.Op); err != nil {
		if d, ok := err.(*ir.Diagnostic); ok {
			sm.Print(os.Stdout, d)
		}
	}
	// Output:
	// mm.mlir:2:8: error: 'graph.matmul' op operand #1 has shape [4, 5], expected [3, 5] (its rows must equal the columns of operand #0)
	//   %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
	//        ^
}
