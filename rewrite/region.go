package rewrite

import "github.com/rlx-compiler/rlx/ir"

// SimplifyRegions cleans up regions and the regions nested in them: it
// erases unreachable blocks, then dead ops and dead block arguments, and,
// with mergeBlocks, merges identical blocks. It reports whether anything
// changed. Every change goes through r.
func SimplifyRegions(r *Rewriter, regions []*ir.Region, mergeBlocks bool) bool {
	changed := EraseUnreachableBlocks(r, regions)
	if RegionDCE(r, regions) {
		changed = true
	}
	if mergeBlocks && MergeIdenticalBlocks(r, regions) {
		changed = true
	}
	return changed
}

// EraseUnreachableBlocks erases the blocks that the entry block of their
// region cannot reach, in regions and all regions nested in them.
func EraseUnreachableBlocks(r *Rewriter, regions []*ir.Region) bool {
	erased := false
	work := append([]*ir.Region(nil), regions...)
	pushNested := func(b *ir.Block) {
		for o := range b.Ops() {
			for i := 0; i < o.NumRegions(); i++ {
				work = append(work, o.Region(i))
			}
		}
	}
	for len(work) > 0 {
		reg := work[len(work)-1]
		work = work[:len(work)-1]
		if reg.Empty() {
			continue
		}
		if reg.HasOneBlock() {
			pushNested(reg.First())
			continue
		}
		reachable := map[*ir.Block]bool{}
		for _, b := range ir.PostOrder(reg.First()) {
			reachable[b] = true
		}
		for b := range reg.Blocks() {
			if !reachable[b] {
				dropDefinedValueUses(b)
				r.EraseBlock(b)
				erased = true
			} else {
				pushNested(b)
			}
		}
	}
	return erased
}

// dropDefinedValueUses drops every use of a value defined in b (arguments,
// results, and values of nested regions).
func dropDefinedValueUses(b *ir.Block) {
	for _, a := range b.Arguments() {
		dropUses(a)
	}
	for o := range b.Ops() {
		o.DropAllUses()
		for i := 0; i < o.NumRegions(); i++ {
			for nb := range o.Region(i).Blocks() {
				dropDefinedValueUses(nb)
			}
		}
	}
}

// liveness is the result of RegionDCE's analysis: the ops and block
// arguments proven live. An op result is live when its op is.
type liveness struct {
	ops     map[*ir.Operation]bool
	values  map[*ir.Value]bool
	changed bool
}

func (l *liveness) isLive(v *ir.Value) bool {
	if op := v.DefiningOp(); op != nil {
		return l.ops[op]
	}
	return l.values[v]
}

func (l *liveness) setOp(op *ir.Operation) {
	if !l.ops[op] {
		l.ops[op] = true
		l.changed = true
	}
}

func (l *liveness) setValue(v *ir.Value) {
	if op := v.DefiningOp(); op != nil {
		l.setOp(op)
		return
	}
	if !l.values[v] {
		l.values[v] = true
		l.changed = true
	}
}

// value marks v live when a live op uses it.
func (l *liveness) value(v *ir.Value) {
	live := false
	for u := range v.Uses() {
		live = live || l.ops[u.Owner()]
	}
	if live {
		l.setValue(v)
	}
}

func (l *liveness) op(op *ir.Operation) {
	for i := 0; i < op.NumRegions(); i++ {
		l.region(op.Region(i))
	}
	if op.HasTrait(ir.TraitTerminator) {
		// Terminators are live, and so are the arguments of their
		// successors: rlx has no branch interface that would say which
		// operands feed which argument.
		l.setOp(op)
		for i := 0; i < op.NumSuccessors(); i++ {
			for _, a := range op.Successor(i).Arguments() {
				l.setValue(a)
			}
		}
		return
	}
	if l.ops[op] {
		return
	}
	if !WouldBeTriviallyDead(op) {
		l.setOp(op)
		return
	}
	for i := 0; i < op.NumResults(); i++ {
		l.value(op.Result(i))
	}
}

func (l *liveness) region(reg *ir.Region) {
	if reg.Empty() {
		return
	}
	for _, b := range ir.PostOrder(reg.First()) {
		// Uses are visited before definitions to converge faster.
		for o := b.Last(); o != nil; o = o.Prev() {
			l.op(o)
		}
		// The arguments of an entry block belong to its region's contract
		// with the parent op; they are never removed.
		if b.IsEntryBlock() {
			continue
		}
		for _, a := range b.Arguments() {
			if !l.isLive(a) {
				l.value(a)
			}
		}
	}
}

// RegionDCE erases the ops of regions (and nested regions) that have no
// effects and whose results only feed other such ops, including cycles in
// graph regions, and the unused arguments of non-entry blocks.
func RegionDCE(r *Rewriter, regions []*ir.Region) bool {
	l := getLiveness()
	defer putLiveness(l)
	for {
		l.changed = false
		for _, reg := range regions {
			l.region(reg)
		}
		if !l.changed {
			break
		}
	}
	return deleteDead(r, regions, l)
}

func deleteDead(r *Rewriter, regions []*ir.Region, l *liveness) bool {
	erased := false
	for _, reg := range regions {
		if reg.Empty() {
			continue
		}
		// Post-order visits uses before definitions in SSA CFG regions;
		// graph regions may have cycles, hence the explicit drop of uses.
		for _, b := range ir.PostOrder(reg.First()) {
			for o := b.Last(); o != nil; {
				prev := o.Prev()
				if !l.ops[o] {
					erased = true
					o.DropAllUses()
					r.EraseOp(o)
				} else {
					nested := make([]*ir.Region, o.NumRegions())
					for i := range nested {
						nested[i] = o.Region(i)
					}
					if deleteDead(r, nested, l) {
						erased = true
					}
				}
				o = prev
			}
		}
		for b := reg.First().Next(); b != nil; b = b.Next() {
			for i := b.NumArguments() - 1; i >= 0; i-- {
				if a := b.Argument(i); !l.isLive(a) {
					dropUses(a)
					b.EraseArgument(i)
				}
			}
		}
	}
	return erased
}
