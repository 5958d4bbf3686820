package graph

import (
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect/builtin"
	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/ir"
)

func TestCreate(t *testing.T) {
	ctx := newContext()
	f32 := ctx.F32()
	x := ctx.TensorType([]int64{1, 64}, f32)
	m := builtin.NewModule(ctx, nil)
	b := ir.NewBuilder(ctx)
	b.SetInsertionPointToEnd(builtin.Body(m))
	f := fn.NewFunc(b, nil, "decode", ctx.FunctionType([]ir.Type{x}, []ir.Type{x}))
	b.SetInsertionPointToEnd(f.Body())
	must := func(op *ir.Operation, err error) *ir.Operation {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return op
	}
	w := must(Create(b, nil, ParamName, nil, []ir.Type{ctx.TensorType([]int64{64, 64}, f32)}, ir.NamedAttr{Name: "name", Value: ctx.StringAttr("l0.wq")}))
	g := must(Create(b, nil, ParamName, nil, []ir.Type{ctx.TensorType([]int64{64}, f32)}, ir.NamedAttr{Name: "name", Value: ctx.StringAttr("l0.norm")}))
	arg := f.Body().Argument(0)
	mm := must(Create(b, nil, MatMulName, []*ir.Value{arg, w.Result(0)}, nil))
	n := must(Create(b, nil, RMSNormName, []*ir.Value{mm.Result(0), g.Result(0)}, nil,
		ir.NamedAttr{Name: "epsilon", Value: ctx.FloatAttr(f32, 1e-6)}))
	r := must(Create(b, nil, ReshapeName, []*ir.Value{n.Result(0)}, []ir.Type{ctx.TensorType([]int64{1, 1, 4, 16}, f32)}))
	att := must(Create(b, nil, AttentionName, []*ir.Value{r.Result(0), r.Result(0), r.Result(0)}, nil,
		ir.NamedAttr{Name: "mask", Value: ctx.StringAttr("causal")}))
	out := must(Create(b, nil, ReshapeName, []*ir.Value{att.Result(0)}, []ir.Type{x}))
	b.CreateOp(fn.ReturnName, nil, []*ir.Value{out.Result(0)}, nil)
	if err := ir.Verify(m); err != nil {
		t.Fatal(err)
	}
	got := printIR(m, false)
	for _, want := range []string{
		`graph.matmul %arg0, %0 : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>`,
		`graph.attention %4, %4, %4 {mask = "causal"} : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>) -> tensor<1x1x4x16xf32>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("built IR lacks\n  %s\nin\n%s", want, got)
		}
	}

	// Errors leave nothing behind.
	before := printIR(m, false)
	for _, tc := range []struct {
		name     string
		operands []*ir.Value
		results  []ir.Type
		want     string
	}{
		{MatMulName, []*ir.Value{arg, g.Result(0)}, nil, "'graph.matmul' op operand #1 has shape [64], expected rank at least 2"},
		{ReshapeName, []*ir.Value{arg}, nil, "'graph.reshape' takes its result type as an input: pass results"},
		{"graph.nope", nil, nil, "'graph.nope' is not a graph op"},
		{AddName, []*ir.Value{arg, arg}, []ir.Type{ctx.TensorType([]int64{2, 64}, f32)}, "result shape [2, 64] does not match inferred [1, 64]"},
	} {
		_, err := Create(b, nil, tc.name, tc.operands, tc.results)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Create(%s) error = %v, want %q", tc.name, err, tc.want)
		}
	}
	if after := printIR(m, false); after != before || arg.NumUses() != 1 {
		t.Errorf("failed Create changed the IR (arg uses %d):\n%s", arg.NumUses(), after)
	}
}

// TestDialectFresh checks that Dialect returns new definitions on each
// call, so that contexts never share mutable op definitions.
func TestDialectFresh(t *testing.T) {
	d1, d2 := Dialect(), Dialect()
	if len(d1.Ops) != len(OpNames()) || len(d1.Ops) != len(d2.Ops) {
		t.Fatalf("Dialect has %d and %d ops, want %d", len(d1.Ops), len(d2.Ops), len(OpNames()))
	}
	for i := range d1.Ops {
		if d1.Ops[i] == d2.Ops[i] {
			t.Errorf("%s: the same *ir.OpDef twice", d1.Ops[i].Name)
		}
		if d1.Ops[i].Traits&ir.TraitPure == 0 {
			t.Errorf("%s is not Pure", d1.Ops[i].Name)
		}
	}
	errs := make(chan error)
	for i := 0; i < 2; i++ {
		go func() {
			m, err := asm.ParseString(newContext(), "in.mlir", exampleModule())
			if err == nil {
				err = ir.Verify(m)
			}
			errs <- err
		}()
	}
	for i := 0; i < 2; i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestComputeOpNames: every graph op but the two leaves.
func TestComputeOpNames(t *testing.T) {
	got := ComputeOpNames()
	if len(got) != len(OpNames())-2 {
		t.Fatalf("%d compute ops of %d ops", len(got), len(OpNames()))
	}
	for _, n := range got {
		if n == ParamName || n == ConstantName || lookup(n) == nil {
			t.Errorf("ComputeOpNames has %q", n)
		}
	}
}
