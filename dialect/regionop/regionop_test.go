package regionop_test

import (
	"slices"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/dialect/regionop"
	"github.com/rlx-compiler/rlx/internal/irtest"
	"github.com/rlx-compiler/rlx/ir"
)

// TestSource follows values across region boundaries.
func TestSource(t *testing.T) {
	m := irtest.Parse(t, nil, irtest.Split)
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
