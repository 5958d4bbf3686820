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

// TestCallVerifier checks the parent and type rules (lit-tests/hybrid-split/
// dialect-invalid.mlir has them all).
func TestCallVerifier(t *testing.T) {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	ctx.AllowUnregistered = true
	for _, tc := range []struct{ src, err string }{
		{`func.func @f(%x: tensor<?xf32>) {
  thunk.call @t(%x) {target = "metal"} : (tensor<?xf32>) -> () {
  ^bb0(%a: tensor<?xf32>):
    %p = graph.param "p" : tensor<1088xui8>
    thunk.yield
  }
  return
}`, ""},
		{`func.func @f(%i: i32) {
  thunk.call @t(%i) {target = "metal"} : (i32) -> () {
  ^bb0(%a: i32):
    thunk.yield
  }
  return
}`, "'thunk.call' op operand #0 must be variadic of ranked tensor of any type values, but got 'i32'"},
		{`func.func @f(%x: tensor<*xf32>) {
  %0 = thunk.call @t(%x) {target = "metal"} : (tensor<*xf32>) -> tensor<*xf32> {
  ^bb0(%a: tensor<*xf32>):
    thunk.yield %a : tensor<*xf32>
  }
  return
}`, "'thunk.call' op operand #0 must be variadic of ranked tensor of any type values, but got 'tensor<*xf32>'"},
		{`thunk.call @t() {target = "host"} : () -> () {
  thunk.yield
}`, "'thunk.call' op expects parent op 'func.func'"},
		// The parent is checked first, as MLIR checks traits before types.
		{`thunk.call @t() {target = "cuda"} : () -> i32 {
  %c = "test.c"() : () -> i32
  thunk.yield %c : i32
}`, "'thunk.call' op expects parent op 'func.func'"},
		{`func.func @f() {
  mps.subgraph @s() : () -> () {
    thunk.call @t() {target = "host"} : () -> () {
      thunk.yield
    }
    mps.yield
  }
  return
}`, "'thunk.call' op expects parent op 'func.func'"},
	} {
		m, err := asm.ParseString(ctx, "in.mlir", tc.src)
		if err != nil {
			t.Fatal(err)
		}
		err = ir.Verify(m)
		if (tc.err == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("error %v, want %q", err, tc.err)
		}
	}
}
