package llvmir_test

import (
	"fmt"
	"strings"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/codegen/llvmir"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
)

// Compile writes the host module of a split function: three functions an
// app calls, and the ports; the run's calls follow the plan.
func ExampleCompile() {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	m, err := asm.Parse(ctx, "split.mlir", []byte(`func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = thunk.call @f_thunk0(%x) {target = "metal"} : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %e = graph.exp %a : (tensor<4xf32>) -> tensor<4xf32>
    thunk.yield %e : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}`), asm.Options{})
	if err != nil {
		panic(err)
	}
	out, err := llvmir.Compile(m.Op, llvmir.Options{})
	if err != nil {
		panic(err)
	}
	for _, f := range out.Host.Funcs {
		if len(f.Blocks) > 0 {
			fmt.Println("define", f.Name())
		}
	}
	for _, line := range strings.Split(out.Host.String(), "\n") {
		if strings.Contains(line, "call i32 @rlx_dispatch") || strings.Contains(line, "call i32 @rlx_commit_and_wait") {
			fmt.Println(strings.TrimSpace(line[strings.Index(line, "call"):]))
		}
	}
	// Output:
	// define rlx_f_create
	// define rlx_f_bind_weights
	// define rlx_f_run
	// call i32 @rlx_dispatch(%rlx_context* %ctx, i32 0, i32 1, i32 1, i32 1, i32 32, i32 1, i32 1, i32 0, i32 2, %rlx_binding* getelementptr ([2 x %rlx_binding], [2 x %rlx_binding]* @rlx_f_bind.1, i64 0, i64 0))
	// call i32 @rlx_commit_and_wait(%rlx_context* %ctx)
}
