package ref

import (
	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/dialect/mps"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/gguf"
)

// Consumers of a value, seen through the ops that only pass values on:
// region ops (operand i is block argument i), their terminators (operand i
// is the region op's result i) and func.call (operand i is the callee's
// argument i). The seeded generators use them to make values their
// readers accept: valid GGUF blocks for a packed weight, in-range gather
// indices for an integer input.

// forEachUse calls visit for every use of v by an op that computes.
func (c *compiler) forEachUse(v *ir.Value, visit func(*ir.OpOperand), seen map[*ir.Value]bool) {
	if seen[v] {
		return
	}
	seen[v] = true
	for u := range v.Uses() {
		owner, i := u.Owner(), u.Index()
		switch {
		case owner.Name() == fn.CallName:
			if callee := c.callee(owner); callee != nil {
				if body := (fn.Func{Op: callee}).Body(); body != nil && i < body.NumArguments() {
					c.forEachUse(body.Argument(i), visit, seen)
				}
			}
		case owner.NumRegions() > 0:
			if regionOp(owner) == nil {
				c.forEachUse(owner.Region(0).First().Argument(i), visit, seen)
			}
		case owner.Next() == nil && owner.NumResults() == 0 && owner.Block() != nil:
			parent := owner.Block().ParentOp()
			if parent != nil && parent.Name() != fn.FuncName && regionOp(parent) == nil && i < parent.NumResults() {
				c.forEachUse(parent.Result(i), visit, seen)
			}
		default:
			visit(u)
		}
	}
}

func (c *compiler) callee(call *ir.Operation) *ir.Operation {
	ref, ok := call.Attr("callee").(*ir.SymbolRefAttr)
	if !ok || len(ref.Nested) > 0 || c.symbols == nil {
		return nil
	}
	if f := c.symbols.Lookup(ref.Root); f != nil && f.Name() == fn.FuncName {
		return f
	}
	return nil
}

// quantUse returns how the first graph.dequant_matmul that reads v as its
// packed weight interprets it, or nil. It follows the bytes through the
// ops that only move them (graph.MovesPacked: an MoE block's reshape,
// gather of the chosen experts and slice of one), marking the use
// Stacked, and Partial when one of those selects runs of bytes that are
// not whole matrices.
func (c *compiler) quantUse(v *ir.Value) *QuantUse {
	var q *QuantUse
	seen := map[*ir.Value]bool{}
	var follow func(v *ir.Value, runs []int64)
	follow = func(v *ir.Value, runs []int64) {
		c.forEachUse(v, func(u *ir.OpOperand) {
			if q != nil {
				return
			}
			if out, run, ok := graph.MovesPacked(u); ok {
				follow(out, append(runs[:len(runs):len(runs)], run))
				return
			}
			d, ok := graph.AsDequantMatMul(u.Owner())
			if !ok || u.Index() != 1 {
				return
			}
			f, err := gguf.ParseFormat(string(d.Format()))
			if err != nil {
				return
			}
			q = &QuantUse{Format: f, N: int(d.N()), K: int(d.K()), Stacked: len(runs) > 0}
			per, err := gguf.ByteCount(f, q.N, q.K)
			for _, r := range runs {
				if err != nil || r%int64(per) != 0 {
					q.Partial = true
				}
			}
		}, seen)
	}
	follow(v, nil)
	return q
}

// indexBound returns the smallest static size of a table axis that v
// indexes as graph.gather indices, or 0 when v is not used that way.
func (c *compiler) indexBound(v *ir.Value) int {
	bound := 0
	c.forEachUse(v, func(u *ir.OpOperand) {
		owner := u.Owner()
		if u.Index() != 1 || (owner.Name() != graph.GatherName && owner.Name() != mps.GatherName) {
			return
		}
		t, ok := owner.Operand(0).Type().(*ir.RankedTensorType)
		if !ok {
			return
		}
		var ax int
		if g, ok := graph.AsGather(owner); ok {
			ax = g.Axis()
		} else {
			ax = attrI64(owner, "axis")
		}
		if ax < len(t.Shape) && t.Shape[ax] != ir.Dynamic && (bound == 0 || int(t.Shape[ax]) < bound) {
			bound = int(t.Shape[ax])
		}
	}, map[*ir.Value]bool{})
	return bound
}
