package rewrite

import (
	"fmt"

	"github.com/rlx-compiler/rlx/ir"
)

// Listener is told about every change made through a Rewriter. Drivers
// implement it to keep their worklists current; tools use it to trace
// rewrites. Embed BaseListener to implement only some of the methods.
type Listener interface {
	// OpInserted is called after op has been inserted into a block (newly
	// created, cloned or moved).
	OpInserted(op *ir.Operation)
	// OpModified is called after op has been changed in place.
	OpModified(op *ir.Operation)
	// OpReplaced is called before the uses of op's results are replaced
	// with values.
	OpReplaced(op *ir.Operation, values []*ir.Value)
	// OpErased is called just before op is erased; its operands are still
	// set and its regions are already empty.
	OpErased(op *ir.Operation)
	// BlockInserted is called after b has been inserted into a region.
	BlockInserted(b *ir.Block)
	// BlockErased is called just before b is erased; its ops are gone.
	BlockErased(b *ir.Block)
	// MatchFailure is called when a pattern explains why it did not apply.
	MatchFailure(op *ir.Operation, reason string)
}

// BaseListener implements Listener with methods that do nothing.
type BaseListener struct{}

func (BaseListener) OpInserted(*ir.Operation)              {}
func (BaseListener) OpModified(*ir.Operation)              {}
func (BaseListener) OpReplaced(*ir.Operation, []*ir.Value) {}
func (BaseListener) OpErased(*ir.Operation)                {}
func (BaseListener) BlockInserted(*ir.Block)               {}
func (BaseListener) BlockErased(*ir.Block)                 {}
func (BaseListener) MatchFailure(*ir.Operation, string)    {}

// Rewriter is the only way patterns change IR. It embeds an ir.Builder for
// creating ops at an insertion point; ops it creates are reported to the
// listener.
type Rewriter struct {
	*ir.Builder
	listener Listener
}

// NewRewriter returns a rewriter that reports to l (which may be nil).
func NewRewriter(ctx *ir.Context, l Listener) *Rewriter {
	r := &Rewriter{Builder: ir.NewBuilder(ctx), listener: l}
	if l != nil {
		r.Builder.Listener = func(op *ir.Operation) {
			if op.Block() != nil {
				l.OpInserted(op)
			}
		}
	}
	return r
}

// Listener returns the rewriter's listener (nil when there is none).
func (r *Rewriter) Listener() Listener { return r.listener }

// Clone inserts a deep copy of op at the insertion point, mapping operands
// through m, and reports the copy and every op and block nested in it.
func (r *Rewriter) Clone(op *ir.Operation, m *ir.ValueMap) *ir.Operation {
	c := op.Clone(m)
	r.Builder.Insert(c)
	if r.listener != nil {
		for i := 0; i < c.NumRegions(); i++ {
			notifyInsertedRegion(r.listener, c.Region(i))
		}
	}
	return c
}

func notifyInsertedRegion(l Listener, reg *ir.Region) {
	for b := range reg.Blocks() {
		l.BlockInserted(b)
		for o := range b.Ops() {
			l.OpInserted(o)
			for i := 0; i < o.NumRegions(); i++ {
				notifyInsertedRegion(l, o.Region(i))
			}
		}
	}
}

// CreateBlock appends a new block with the given argument types to reg,
// moves the insertion point to its end and reports the block.
func (r *Rewriter) CreateBlock(reg *ir.Region, types []ir.Type, locs []ir.Location) *ir.Block {
	b := r.Builder.CreateBlock(reg, types, locs)
	if r.listener != nil {
		r.listener.BlockInserted(b)
	}
	return b
}

// ModifyOpInPlace runs fn, which changes op's operands, attributes,
// successors or location, and reports op as modified.
func (r *Rewriter) ModifyOpInPlace(op *ir.Operation, fn func()) {
	fn()
	if r.listener != nil {
		r.listener.OpModified(op)
	}
}

// ReplaceAllUsesWith makes every use of from use to instead; each user is
// reported as modified.
func (r *Rewriter) ReplaceAllUsesWith(from, to *ir.Value) {
	r.ReplaceUsesWithIf(from, to, nil)
}

// ReplaceUsesWithIf replaces the uses of from for which pred returns true
// (all uses when pred is nil); each changed user is reported as modified.
func (r *Rewriter) ReplaceUsesWithIf(from, to *ir.Value, pred func(*ir.OpOperand) bool) {
	if from == to {
		return
	}
	for u := range from.Uses() {
		if pred == nil || pred(u) {
			r.ModifyOpInPlace(u.Owner(), func() { u.Set(to) })
		}
	}
}

// ReplaceAllOpUsesWith replaces the uses of op's results with values (one
// per result) without erasing op.
func (r *Rewriter) ReplaceAllOpUsesWith(op *ir.Operation, values []*ir.Value) {
	if len(values) != op.NumResults() {
		panic(fmt.Sprintf("rewrite: replacing %s (%d results) with %d values", op.Name(), op.NumResults(), len(values)))
	}
	if r.listener != nil {
		r.listener.OpReplaced(op, values)
	}
	for i, v := range values {
		r.ReplaceAllUsesWith(op.Result(i), v)
	}
}

// ReplaceOp replaces the uses of op's results with values (one per result)
// and erases op.
func (r *Rewriter) ReplaceOp(op *ir.Operation, values []*ir.Value) {
	r.ReplaceAllOpUsesWith(op, values)
	r.EraseOp(op)
}

// ReplaceOpWithOp replaces op with the results of newOp, which must have
// as many results.
func (r *Rewriter) ReplaceOpWithOp(op, newOp *ir.Operation) {
	r.ReplaceOp(op, newOp.Results())
}

// EraseOp erases op, which must have no uses (in graph regions remaining
// uses are dropped). Nested ops are erased one by one, users before
// definitions, so the listener sees consistent IR at every notification.
func (r *Rewriter) EraseOp(op *ir.Operation) {
	if r.listener == nil {
		op.DropAllUses()
		op.Erase()
		return
	}
	r.eraseTree(op)
}

func (r *Rewriter) eraseTree(op *ir.Operation) {
	for i := op.NumRegions() - 1; i >= 0; i-- {
		reg := op.Region(i)
		// Successors may use values of their predecessors, so blocks are
		// erased in post-order; repeat for blocks the entry cannot reach.
		for !reg.Empty() {
			blocks := ir.PostOrder(reg.First())
			for _, b := range blocks {
				for o := b.Last(); o != nil; {
					prev := o.Prev()
					r.eraseTree(o)
					o = prev
				}
			}
			for _, b := range blocks {
				for _, a := range b.Arguments() {
					dropUses(a)
				}
				r.listener.BlockErased(b)
				b.Erase()
			}
		}
	}
	r.listener.OpErased(op)
	op.DropAllUses()
	op.Erase()
}

// EraseBlock erases b and its ops (last to first). Nothing outside b may
// use b or its values.
func (r *Rewriter) EraseBlock(b *ir.Block) {
	for o := b.Last(); o != nil; {
		prev := o.Prev()
		r.EraseOp(o)
		o = prev
	}
	if r.listener != nil {
		r.listener.BlockErased(b)
	}
	b.Erase()
}

// MoveOpBefore moves op just before pos and reports it as inserted.
func (r *Rewriter) MoveOpBefore(op, pos *ir.Operation) {
	op.MoveBefore(pos)
	if r.listener != nil {
		r.listener.OpInserted(op)
	}
}

// MoveOpAfter moves op just after pos and reports it as inserted.
func (r *Rewriter) MoveOpAfter(op, pos *ir.Operation) {
	op.MoveAfter(pos)
	if r.listener != nil {
		r.listener.OpInserted(op)
	}
}

// InlineBlockBefore moves the ops of src into dest before the op before
// (at the end of dest when before is nil), replaces the uses of src's
// arguments with args, and erases src, which must have no predecessors.
func (r *Rewriter) InlineBlockBefore(src, dest *ir.Block, before *ir.Operation, args []*ir.Value) {
	if len(args) != src.NumArguments() {
		panic(fmt.Sprintf("rewrite: inlining a block of %d arguments with %d values", src.NumArguments(), len(args)))
	}
	for i, a := range src.Arguments() {
		r.ReplaceAllUsesWith(a, args[i])
	}
	for o := range src.Ops() {
		o.Remove()
		dest.InsertBefore(o, before)
		if r.listener != nil {
			r.listener.OpInserted(o)
		}
	}
	r.EraseBlock(src)
}

// MergeBlocks appends the ops of src to dest (see InlineBlockBefore).
func (r *Rewriter) MergeBlocks(src, dest *ir.Block, args []*ir.Value) {
	r.InlineBlockBefore(src, dest, nil, args)
}

// SplitBlock moves before and the ops after it in its block into a new
// block inserted right after, and returns the new block.
func (r *Rewriter) SplitBlock(before *ir.Operation) *ir.Block {
	b := before.Block()
	nb := &ir.Block{}
	b.Parent().InsertBlockBefore(nb, b.Next())
	if r.listener != nil {
		r.listener.BlockInserted(nb)
	}
	for o := before; o != nil; {
		next := o.Next()
		o.Remove()
		nb.Append(o)
		if r.listener != nil {
			r.listener.OpInserted(o)
		}
		o = next
	}
	return nb
}

// InlineRegionBefore moves the blocks of src into dst before the block
// before (at the end when before is nil).
func (r *Rewriter) InlineRegionBefore(src, dst *ir.Region, before *ir.Block) {
	for b := range src.Blocks() {
		src.RemoveBlock(b)
		dst.InsertBlockBefore(b, before)
		if r.listener != nil {
			r.listener.BlockInserted(b)
		}
	}
}

// NotifyMatchFailure reports why a pattern did not apply to op and returns
// false, so a pattern can `return r.NotifyMatchFailure(op, "…")`.
func (r *Rewriter) NotifyMatchFailure(op *ir.Operation, format string, args ...any) bool {
	if r.listener != nil {
		r.listener.MatchFailure(op, fmt.Sprintf(format, args...))
	}
	return false
}

// dropUses makes every use of v a nil operand; the users must be erased.
func dropUses(v *ir.Value) {
	for u := range v.Uses() {
		u.Set(nil)
	}
}
