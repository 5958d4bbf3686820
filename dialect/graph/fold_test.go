package graph

import (
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/ir"
)

// foldLast parses a function, folds its last graph op and returns the op
// and the fold results.
func foldLast(t *testing.T, ctx *ir.Context, src string) (*ir.Operation, *ir.Operation, []ir.FoldResult) {
	t.Helper()
	m := parseVerify(t, ctx, src)
	var last *ir.Operation
	m.Walk(func(op *ir.Operation) {
		if strings.HasPrefix(op.Name(), "graph.") {
			last = op
		}
	})
	def := last.Def()
	if def.Fold == nil {
		return m, last, nil
	}
	return m, last, def.Fold(last, make([]ir.Attribute, last.NumOperands()))
}

func TestFold(t *testing.T) {
	const (
		// replaced: the op folds to the function argument %arg0.
		replaced = "arg0"
		// inPlace: the op was rewritten and returns its own result.
		inPlace = "in place"
		none    = ""
	)
	for _, tc := range []struct {
		name, args, body, want string
		// after is the printed op after an in-place fold.
		after string
	}{
		{"reshape same type", "%x: tensor<4x8xf32>", `%0 = graph.reshape %x : (tensor<4x8xf32>) -> tensor<4x8xf32>`, replaced, ""},
		{"reshape of reshape", "%x: tensor<4x8xf32>", `%0 = graph.reshape %x : (tensor<4x8xf32>) -> tensor<32xf32>
  %1 = graph.reshape %0 : (tensor<32xf32>) -> tensor<2x16xf32>`, inPlace, `graph.reshape %arg0 : (tensor<4x8xf32>) -> tensor<2x16xf32>`},
		{"reshape of reshape back", "%x: tensor<4x8xf32>", `%0 = graph.reshape %x : (tensor<4x8xf32>) -> tensor<32xf32>
  %1 = graph.reshape %0 : (tensor<32xf32>) -> tensor<4x8xf32>`, replaced, ""},
		{"reshape of other", "%x: tensor<4x8xf32>", `%0 = graph.exp %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = graph.reshape %0 : (tensor<4x8xf32>) -> tensor<32xf32>`, none, ""},
		{"transpose identity", "%x: tensor<4x8xf32>", `%0 = graph.transpose %x {permutation = array<i64: 0, 1>} : (tensor<4x8xf32>) -> tensor<4x8xf32>`, replaced, ""},
		{"transpose twice to identity", "%x: tensor<2x3x4xf32>", `%0 = graph.transpose %x {permutation = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %1 = graph.transpose %0 {permutation = array<i64: 2, 0, 1>} : (tensor<3x4x2xf32>) -> tensor<2x3x4xf32>`, replaced, ""},
		{"transpose twice composed", "%x: tensor<2x3x4xf32>", `%0 = graph.transpose %x {permutation = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = graph.transpose %0 {permutation = array<i64: 0, 2, 1>} : (tensor<3x2x4xf32>) -> tensor<3x4x2xf32>`, inPlace,
			`graph.transpose %arg0 {permutation = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>`},
		{"transpose of other", "%x: tensor<2x3xf32>", `%0 = graph.transpose %x {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>`, none, ""},
		{"cast same type", "%x: tensor<4xf32>", `%0 = graph.cast %x : (tensor<4xf32>) -> tensor<4xf32>`, replaced, ""},
		{"cast", "%x: tensor<4xf32>", `%0 = graph.cast %x : (tensor<4xf32>) -> tensor<4xf16>`, none, ""},
		{"broadcast same type", "%x: tensor<4xf32>", `%0 = graph.broadcast %x : (tensor<4xf32>) -> tensor<4xf32>`, replaced, ""},
		{"broadcast", "%x: tensor<4xf32>", `%0 = graph.broadcast %x : (tensor<4xf32>) -> tensor<2x4xf32>`, none, ""},
		{"no folder", "%x: tensor<4xf32>", `%0 = graph.exp %x : (tensor<4xf32>) -> tensor<4xf32>`, none, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := newContext()
			src := "func.func @f(" + tc.args + ") {\n  " + tc.body + "\n  return\n}\n"
			m, op, res := foldLast(t, ctx, src)
			switch tc.want {
			case none:
				if res != nil {
					t.Fatalf("folded to %+v, want no fold", res)
				}
			case replaced:
				if len(res) != 1 || res[0].Value == nil || !res[0].Value.IsBlockArgument() || res[0].Value.Index() != 0 {
					t.Fatalf("fold = %+v, want the function argument", res)
				}
			case inPlace:
				if len(res) != 1 || res[0].Value != op.Result(0) {
					t.Fatalf("fold = %+v, want the op's own result", res)
				}
				if err := ir.Verify(m); err != nil {
					t.Fatalf("verify after in-place fold: %v", err)
				}
				if got := printIR(m, false); !strings.Contains(got, tc.after) {
					t.Fatalf("after folding:\n%s\nwant it to contain\n  %s", got, tc.after)
				}
			}
		})
	}
}

func TestFoldConstantAndMaterialize(t *testing.T) {
	ctx := newContext()
	_, op, res := foldLast(t, ctx, `func.func @f() {
  %0 = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return
}`)
	if len(res) != 1 || res[0].Attr != op.Attr("value") {
		t.Fatalf("constant folds to %+v, want its value", res)
	}
	d := ctx.Dialect("graph")
	b := ir.NewBuilder(ctx)
	b.SetInsertionPoint(op)
	c := d.Materialize(b, res[0].Attr, op.Result(0).Type(), op.Loc())
	if c == nil || c.Name() != ConstantName || c.Attr("value") != op.Attr("value") || c.Result(0).Type() != op.Result(0).Type() {
		t.Fatalf("Materialize = %v", c)
	}
	if err := ir.Verify(op.ParentOp().ParentOp()); err != nil {
		t.Fatal(err)
	}
	if d.Materialize(b, ctx.FloatAttr(ctx.F32(), 1), ctx.F32(), op.Loc()) != nil {
		t.Error("Materialize made a constant of a scalar attribute")
	}
	if d.Materialize(b, res[0].Attr, ctx.TensorType([]int64{3}, ctx.F32()), op.Loc()) != nil {
		t.Error("Materialize made a constant of the wrong type")
	}
}
