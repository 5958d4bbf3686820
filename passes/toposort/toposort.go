package toposort

import (
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/rewrite"
)

// Run sorts the blocks of every graph region in op (op's own regions
// included).
func Run(op *ir.Operation) {
	op.Walk(func(o *ir.Operation) {
		if !o.HasTrait(ir.TraitGraphRegion) {
			return
		}
		for i := 0; i < o.NumRegions(); i++ {
			r := o.Region(i)
			if rewrite.HasSSADominance(r) {
				continue
			}
			for b := range r.Blocks() {
				SortBlock(b, nil)
			}
		}
	})
}

// SortBlock moves the ops of b (all but a final terminator) so that each
// comes after the ops defining its operands and the operands of the ops
// nested in it. ready, when not nil, may declare an operand ready for an
// op regardless. When cycles prevent a full order the first unscheduled
// op is placed next and SortBlock returns false.
func SortBlock(b *ir.Block, ready func(v *ir.Value, op *ir.Operation) bool) bool {
	end := (*ir.Operation)(nil)
	if last := b.Last(); last != nil && last.HasTrait(ir.TraitTerminator) {
		end = last
	}
	unscheduled := map[*ir.Operation]bool{}
	for o := b.First(); o != end; o = o.Next() {
		unscheduled[o] = true
	}
	// next is the first op not yet placed; placed ops are moved before it.
	next := b.First()
	all := true
	for len(unscheduled) > 0 {
		progress := false
		for o := next; o != end; {
			after := o.Next()
			if isReady(o, unscheduled, ready) {
				delete(unscheduled, o)
				if o == next {
					next = after
				} else {
					o.MoveBefore(next)
				}
				progress = true
			}
			o = after
		}
		if !progress {
			all = false
			delete(unscheduled, next)
			next = next.Next()
		}
	}
	return all
}

// isReady reports whether every operand of op and of the ops nested in it
// is a block argument, declared ready, or defined outside the unscheduled
// ops (a value defined inside op itself counts as ready).
func isReady(op *ir.Operation, unscheduled map[*ir.Operation]bool, ready func(*ir.Value, *ir.Operation) bool) bool {
	operandReady := func(v *ir.Value) bool {
		if ready != nil && ready(v, op) {
			return true
		}
		for p := v.DefiningOp(); p != nil; p = p.ParentOp() {
			if p == op {
				return true
			}
			if unscheduled[p] {
				return false
			}
		}
		return true
	}
	return !op.WalkInterruptible(func(o *ir.Operation) ir.WalkResult {
		for i := 0; i < o.NumOperands(); i++ {
			if !operandReady(o.Operand(i)) {
				return ir.WalkInterrupt
			}
		}
		return ir.WalkAdvance
	})
}
