package regionop_test

import (
	"slices"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/dialect/regionop"
	"github.com/rlx-compiler/rlx/ir"
)

const split = `func.func @f(%x: tensor<1x4x64xf32>, %k: tensor<1x4x4x16xf32>, %m1: tensor<1x4xf32>) -> tensor<1x4x4x16xf32> {
  %0:2 = mps.subgraph @f_mps0(%x) : (tensor<1x4x64xf32>) -> (tensor<1x4x4x16xf32>, tensor<1x4xf32>) {
  ^bb0(%a: tensor<1x4x64xf32>):
    %q = graph.reshape %a : (tensor<1x4x64xf32>) -> tensor<1x4x4x16xf32>
    %r = graph.reduce %q {axes = array<i64: 2, 3>, kind = "max"} : (tensor<1x4x4x16xf32>) -> tensor<1x4xf32>
    mps.yield %q, %r : tensor<1x4x4x16xf32>, tensor<1x4xf32>
  }
  %1 = thunk.call @f_thunk1(%0#1, %m1) {target = "metal"} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32> {
  ^bb0(%a: tensor<1x4xf32>, %b: tensor<1x4xf32>):
    %m = graph.max %a, %b : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    thunk.yield %m : tensor<1x4xf32>
  }
  %2 = mps.subgraph @f_mps2(%0#0, %k, %1) : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4xf32>) -> tensor<1x4x4x16xf32> {
  ^bb0(%q: tensor<1x4x4x16xf32>, %kk: tensor<1x4x4x16xf32>, %m: tensor<1x4xf32>):
    %o = graph.attention %q, %kk, %kk, %m {mask = "custom"} : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4xf32>) -> tensor<1x4x4x16xf32>
    mps.yield %o : tensor<1x4x4x16xf32>
  }
  return %2 : tensor<1x4x4x16xf32>
}
`

func parse(t *testing.T, src string) *ir.Operation {
	t.Helper()
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	m, err := asm.ParseString(ctx, "in.mlir", src)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSource follows values across region boundaries.
func TestSource(t *testing.T) {
	m := parse(t, split)
	body := m.Region(0).First().First().Region(0).First()
	ops := slices.Collect(body.Ops())
	mps2 := ops[2]
	if !regionop.IsOutlined(mps2) || regionop.IsOutlined(ops[3]) {
		t.Fatal("IsOutlined")
	}
	attn := mps2.Region(0).First().First()
	// q: block argument → %0#0 → the reshape inside @f_mps0.
	if d := regionop.Source(attn.Operand(0)).DefiningOp(); d == nil || d.Name() != "graph.reshape" {
		t.Errorf("source of q: %v", d)
	}
	// k: block argument → the function argument %k.
	if s := regionop.Source(attn.Operand(1)); !s.IsBlockArgument() || s.OwnerBlock() != body || s.Index() != 1 {
		t.Errorf("source of k is not %%arg1")
	}
}

// TestCheck builds ops of every shape Check tells apart, in generic form
// with an unregistered op so that no verifier stands in the way.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want regionop.Violation
	}{
		{`%0 = "test.r"(%x) ({
^bb0(%a: tensor<4xf32>):
  "test.y"(%a) : (tensor<4xf32>) -> ()
}) : (tensor<4xf32>) -> tensor<4xf32>`, regionop.Outlined},
		{`"test.r"() : () -> ()`, regionop.NotOneBlock},
		{`"test.r"() ({
^bb0:
  "test.y"() : () -> ()
^bb1:
  "test.y"() : () -> ()
}) : () -> ()`, regionop.NotOneBlock},
		{`%0 = "test.r"(%x) ({
^bb0(%a: tensor<4xf16>):
  "test.y"(%x) : (tensor<4xf32>) -> ()
}) : (tensor<4xf32>) -> tensor<4xf32>`, regionop.ArgumentsDiffer},
		{`%0 = "test.r"(%x) ({
^bb0:
  "test.y"(%x) : (tensor<4xf32>) -> ()
}) : (tensor<4xf32>) -> tensor<4xf32>`, regionop.ArgumentsDiffer},
		{`%0 = "test.r"(%x) ({
^bb0(%a: tensor<4xf32>):
  "test.y"() : () -> ()
}) : (tensor<4xf32>) -> tensor<4xf32>`, regionop.YieldDiffers},
		{`%0 = "test.r"(%x) ({
^bb0(%a: tensor<4xf32>):
  %1 = "test.y"(%a) : (tensor<4xf32>) -> tensor<4xf32>
}) : (tensor<4xf32>) -> tensor<4xf32>`, regionop.YieldDiffers},
	} {
		ctx := ir.NewContext()
		dialect.RegisterAll(ctx)
		ctx.AllowUnregistered = true
		m, err := asm.ParseString(ctx, "in.mlir", "func.func @f(%x: tensor<4xf32>) {\n"+tc.src+"\nreturn\n}")
		if err != nil {
			t.Fatalf("%v\n%s", err, tc.src)
		}
		var op *ir.Operation
		m.Walk(func(o *ir.Operation) {
			if o.Name() == "test.r" {
				op = o
			}
		})
		if got := regionop.Check(op); got != tc.want {
			t.Errorf("Check = %v, want %v\n%s", got, tc.want, tc.src)
		}
		if regionop.IsOutlined(op) != (tc.want == regionop.Outlined) {
			t.Errorf("IsOutlined disagrees with Check\n%s", tc.src)
		}
	}
}
