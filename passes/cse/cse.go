// Package cse is the cse pass: it eliminates common sub-expressions the
// way MLIR's CSE does.
//
// Ops are looked up in a scoped hash table keyed by their name, attributes,
// properties, result types and operands (rewrite.Hasher and
// rewrite.Equivalent, ignoring locations). Walking a region, an op that is
// free of memory effects and equivalent to an op already in scope is
// replaced by it; a trivially dead op is erased. Scopes follow dominance:
// in a single-block region the block is one scope, in a multi-block SSA
// region the dominator tree is walked depth first, and a value defined in
// a block is visible in the blocks it dominates and in the regions of
// later ops of the same block, but never inside ops that are (or, being
// unregistered, might be) isolated from above, which get a fresh table.
// Multi-block graph regions are skipped. Terminators and ops with a
// multi-block region are never eliminated; ops with single-block regions
// are eliminated when their regions are equivalent too.
package cse

import (
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/rewrite"
)

// Stats counts what Run did.
type Stats struct {
	// CSE is the number of ops replaced by an equivalent op.
	CSE int
	// DCE is the number of trivially dead ops erased.
	DCE int
}

// Run eliminates common sub-expressions in the regions of op (op itself
// is kept) and erases the ops found trivially dead on the way.
func Run(op *ir.Operation) Stats {
	c := &cse{hasher: rewrite.NewHasher()}
	known := c.newTable()
	for i := 0; i < op.NumRegions(); i++ {
		c.region(known, op.Region(i))
	}
	for _, o := range c.toErase {
		o.DropAllUses()
		o.Erase()
	}
	return c.stats
}

type cse struct {
	hasher  rewrite.Hasher
	toErase []*ir.Operation
	stats   Stats
}

func (c *cse) region(known *table, r *ir.Region) {
	if r.Empty() {
		return
	}
	ssa := rewrite.HasSSADominance(r)
	if r.HasOneBlock() {
		known.push()
		c.block(known, r.First(), ssa)
		known.pop()
		return
	}
	// Without dominance there is no order in which to visit the blocks.
	if !ssa {
		return
	}
	var visit func(n *domNode)
	visit = func(n *domNode) {
		known.push()
		c.block(known, n.block, ssa)
		for _, ch := range n.children {
			visit(ch)
		}
		known.pop()
	}
	visit(newDomTree(r))
}

func (c *cse) block(known *table, b *ir.Block, ssa bool) {
	for op := b.First(); op != nil; op = op.Next() {
		if op.NumRegions() > 0 {
			// Values of the enclosing regions cannot be captured by an
			// op that is isolated from above.
			scope := known
			if rewrite.MightHaveTrait(op, ir.TraitIsolatedFromAbove) {
				scope = c.newTable()
			}
			for i := 0; i < op.NumRegions(); i++ {
				c.region(scope, op.Region(i))
			}
		}
		c.simplify(known, op, ssa)
	}
}

// simplify eliminates op when it is dead or redundant.
func (c *cse) simplify(known *table, op *ir.Operation, ssa bool) {
	if op.HasTrait(ir.TraitTerminator) {
		return
	}
	if rewrite.IsTriviallyDead(op) {
		c.toErase = append(c.toErase, op)
		c.stats.DCE++
		return
	}
	for i := 0; i < op.NumRegions(); i++ {
		if r := op.Region(i); !r.Empty() && !r.HasOneBlock() {
			return
		}
	}
	// rlx knows no read-only effects: an op that is not free of effects
	// is never eliminated.
	if !rewrite.IsMemoryEffectFree(op) {
		return
	}
	if existing := known.lookup(op); existing != nil {
		c.replace(known, op, existing, ssa)
		return
	}
	known.insert(op)
}

func (c *cse) replace(known *table, op, existing *ir.Operation, ssa bool) {
	if ssa {
		// With dominance no use of op has been visited yet.
		for i := 0; i < op.NumResults(); i++ {
			op.Result(i).ReplaceAllUsesWith(existing.Result(i))
		}
		c.toErase = append(c.toErase, op)
	} else {
		// In a graph region, users already visited (and so possibly
		// recorded in the table) keep their operands.
		for i := 0; i < op.NumResults(); i++ {
			op.Result(i).ReplaceUsesIf(existing.Result(i), func(u *ir.OpOperand) bool {
				return known.lookup(u.Owner()) == nil
			})
		}
		if !hasUses(op) {
			c.toErase = append(c.toErase, op)
		}
	}
	if _, unknown := existing.Loc().(*ir.UnknownLoc); unknown {
		if _, u := op.Loc().(*ir.UnknownLoc); !u {
			existing.SetLoc(op.Loc())
		}
	}
	c.stats.CSE++
}

func hasUses(op *ir.Operation) bool {
	for i := 0; i < op.NumResults(); i++ {
		if op.Result(i).HasUses() {
			return true
		}
	}
	return false
}

// table is a scoped hash table of ops: lookups see every scope, and pop
// forgets the ops inserted since the matching push.
type table struct {
	hasher  rewrite.Hasher
	buckets map[uint64][]*ir.Operation
	log     []uint64 // hashes of inserted ops, scopes delimited by marks
	marks   []int
}

func (c *cse) newTable() *table {
	return &table{hasher: c.hasher, buckets: map[uint64][]*ir.Operation{}}
}

func (t *table) hash(op *ir.Operation) uint64 {
	return t.hasher.Hash(op, nil, rewrite.IgnoreLocations)
}

func (t *table) lookup(op *ir.Operation) *ir.Operation {
	ops := t.buckets[t.hash(op)]
	for i := len(ops) - 1; i >= 0; i-- {
		if rewrite.Equivalent(ops[i], op, rewrite.IgnoreLocations) {
			return ops[i]
		}
	}
	return nil
}

func (t *table) insert(op *ir.Operation) {
	h := t.hash(op)
	t.buckets[h] = append(t.buckets[h], op)
	t.log = append(t.log, h)
}

func (t *table) push() { t.marks = append(t.marks, len(t.log)) }

func (t *table) pop() {
	m := t.marks[len(t.marks)-1]
	t.marks = t.marks[:len(t.marks)-1]
	for i := len(t.log) - 1; i >= m; i-- {
		h := t.log[i]
		b := t.buckets[h]
		if len(b) == 1 {
			delete(t.buckets, h)
		} else {
			t.buckets[h] = b[:len(b)-1]
		}
	}
	t.log = t.log[:m]
}
