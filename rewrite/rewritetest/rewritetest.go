package rewritetest

import (
	"math/big"

	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/rewrite"
)

// Dialect returns the tst dialect's definitions (new ones on each call).
//
//	tst.const  {value}  pure constant; folds to its value
//	tst.add    (a, b)   pure, commutative; folds constants, x+0 → x, and
//	                    moves a constant left operand to the right in place
//	tst.mul    (a, b)   pure; pattern tst.MulOne: x*1 → x
//	tst.neg    (a)      pure; pattern tst.NegNeg: -(-x) → x
//	tst.flip   {state}  pure; pattern tst.Flip toggles state forever
//	tst.region          pure, one region ended by tst.yield
//	tst.isolated        isolated from above, one block, no terminator
//	tst.graph           graph region, no terminator
//	tst.effect          has side effects (no traits)
func Dialect() *ir.Dialect {
	pure := ir.TraitPure
	return &ir.Dialect{
		Name: "tst",
		Ops: []*ir.OpDef{
			{Name: "tst.const", Traits: pure | ir.TraitConstantLike, InherentAttrs: []string{"value"}, Fold: foldConst},
			{Name: "tst.add", Traits: pure | ir.TraitCommutative, Fold: foldAdd},
			{Name: "tst.mul", Traits: pure},
			{Name: "tst.neg", Traits: pure},
			{Name: "tst.flip", Traits: pure, InherentAttrs: []string{"state"}},
			{Name: "tst.region", Traits: pure},
			{Name: "tst.yield", Traits: pure | ir.TraitTerminator | ir.TraitReturnLike},
			{Name: "tst.isolated", Traits: ir.TraitIsolatedFromAbove | ir.TraitNoTerminator | ir.TraitSingleBlock},
			{Name: "tst.graph", Traits: ir.TraitGraphRegion | ir.TraitNoTerminator | ir.TraitSingleBlock},
			{Name: "tst.effect"},
		},
		Materialize: func(b *ir.Builder, value ir.Attribute, t ir.Type, loc ir.Location) *ir.Operation {
			a, ok := value.(*ir.IntegerAttr)
			if !ok || a.Type != t {
				return nil
			}
			return b.CreateOp("tst.const", loc, nil, []ir.Type{t}, ir.NamedAttr{Name: "value", Value: a})
		},
	}
}

// Register adds the tst dialect to ctx.
func Register(ctx *ir.Context) { ctx.RegisterDialect(Dialect()) }

func foldConst(op *ir.Operation, _ []ir.Attribute) []ir.FoldResult {
	return []ir.FoldResult{{Attr: op.Attr("value")}}
}

func foldAdd(op *ir.Operation, operands []ir.Attribute) []ir.FoldResult {
	if op.NumOperands() != 2 || op.NumResults() != 1 {
		return nil
	}
	l, lok := operands[0].(*ir.IntegerAttr)
	r, rok := operands[1].(*ir.IntegerAttr)
	switch {
	case lok && rok:
		sum := new(big.Int).Add(l.BigValue(), r.BigValue())
		return []ir.FoldResult{{Attr: op.Context().BigIntegerAttr(op.Result(0).Type(), sum)}}
	case rok && r.BigValue().Sign() == 0:
		return []ir.FoldResult{{Value: op.Operand(0)}}
	case lok:
		a, b := op.Operand(0), op.Operand(1)
		op.SetOperand(0, b)
		op.SetOperand(1, a)
		return []ir.FoldResult{{Value: op.Result(0)}}
	}
	return nil
}

// Patterns returns the tst dialect's canonicalization patterns.
func Patterns(*ir.Context) []*rewrite.Pattern {
	return []*rewrite.Pattern{
		{
			Name: "tst.MulOne", Labels: []string{"identity"}, Root: "tst.mul", Benefit: 1,
			MatchAndRewrite: func(op *ir.Operation, r *rewrite.Rewriter) bool {
				c, ok := rewrite.MatchConstant(op.Operand(1)).(*ir.IntegerAttr)
				if !ok || c.BigValue().Cmp(big.NewInt(1)) != 0 {
					return r.NotifyMatchFailure(op, "rhs is not the constant 1")
				}
				r.ReplaceOp(op, []*ir.Value{op.Operand(0)})
				return true
			},
		},
		{
			Name: "tst.NegNeg", Labels: []string{"identity"}, Root: "tst.neg", Benefit: 2,
			MatchAndRewrite: func(op *ir.Operation, r *rewrite.Rewriter) bool {
				inner := op.Operand(0).DefiningOp()
				if inner == nil || inner.Name() != "tst.neg" {
					return r.NotifyMatchFailure(op, "operand is not a tst.neg")
				}
				r.ReplaceOp(op, []*ir.Value{inner.Operand(0)})
				return true
			},
		},
		{
			Name: "tst.Flip", Root: "tst.flip", Benefit: 1,
			MatchAndRewrite: func(op *ir.Operation, r *rewrite.Rewriter) bool {
				ctx := op.Context()
				next := ctx.BoolAttr(op.Attr("state") != ctx.BoolAttr(true))
				r.ModifyOpInPlace(op, func() { op.SetAttr(ctx, "state", next) })
				return true
			},
		},
	}
}
