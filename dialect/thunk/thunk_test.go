package thunk_test

import (
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/dialect/thunk"
	"github.com/rlx-compiler/rlx/ir"
)

func TestCall(t *testing.T) {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	src := `func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = thunk.call @f_thunk0(%x) {target = "host"} : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %m = graph.softplus %a : (tensor<4xf32>) -> tensor<4xf32>
    thunk.yield %m : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}`
	m, err := asm.ParseString(ctx, "in.mlir", src)
	if err != nil {
		t.Fatal(err)
	}
	if err := ir.Verify(m); err != nil {
		t.Fatal(err)
	}
	c, ok := thunk.AsCall(m.Region(0).First().First().Region(0).First().First())
	if !ok || c.Symbol() != "f_thunk0" || c.Target() != thunk.TargetHost || c.Yield().Name() != thunk.YieldName {
		t.Errorf("view: %v %q %q", ok, c.Symbol(), c.Target())
	}
	bad := strings.Replace(src, `"host"`, `"gpu"`, 1)
	m, err = asm.ParseString(ctx, "in.mlir", bad)
	if err != nil {
		t.Fatal(err)
	}
	if err := ir.Verify(m); err == nil || !strings.Contains(err.Error(), `attribute 'target' must be "metal" or "host", got "gpu"`) {
		t.Errorf("target error: %v", err)
	}
}
