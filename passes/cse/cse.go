package cse

import (
	"sync"

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
func Run(op *ir.Operation) Stats { return run(op, ir.NewDominance()) }

func run(op *ir.Operation, dom *ir.Dominance) Stats {
	c := &cse{hasher: rewrite.NewHasher(), dom: dom}
	known := c.newTable()
	for i := 0; i < op.NumRegions(); i++ {
		c.region(known, op.Region(i))
	}
	for _, t := range c.tables {
		t.release()
	}
	for _, o := range c.toErase {
		o.DropAllUses()
		o.Erase()
	}
	return c.stats
}

type cse struct {
	hasher  rewrite.Hasher
	dom     *ir.Dominance
	toErase []*ir.Operation
	stats   Stats
	tables  []*table // released when Run ends
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
	var visit func(b *ir.Block)
	visit = func(b *ir.Block) {
		known.push()
		c.block(known, b, ssa)
		for _, ch := range c.dom.Children(b) {
			visit(ch)
		}
		known.pop()
	}
	visit(r.First())
}

func (c *cse) block(known *table, b *ir.Block, ssa bool) {
	for op := range b.Ops() {
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
	hasher rewrite.Hasher
	// heads maps an op hash to its most recent entry (1-based); entries
	// chain to older ones with the same hash. Entries are kept in insert
	// order, so a scope is the tail after its mark.
	heads   map[uint64]int32
	entries []entry
	marks   []int
}

type entry struct {
	op   *ir.Operation
	hash uint64
	next int32 // 1-based index of the previous entry with this hash, or 0
}

// Tables are reused from function to function (and on every worker), so
// that a pass over many functions does not regrow one map per function;
// tables that grew very large are dropped instead.
var tablePool = sync.Pool{New: func() any { return &table{heads: map[uint64]int32{}} }}

const maxPooledEntries = 1 << 15

func (c *cse) newTable() *table {
	t := tablePool.Get().(*table)
	t.hasher = c.hasher
	c.tables = append(c.tables, t)
	return t
}

func (t *table) release() {
	if cap(t.entries) > maxPooledEntries {
		return
	}
	clear(t.heads)
	clear(t.entries)
	t.entries = t.entries[:0]
	t.marks = t.marks[:0]
	tablePool.Put(t)
}

func (t *table) hash(op *ir.Operation) uint64 {
	return t.hasher.Hash(op, nil, rewrite.IgnoreLocations)
}

func (t *table) lookup(op *ir.Operation) *ir.Operation {
	for i := t.heads[t.hash(op)]; i != 0; i = t.entries[i-1].next {
		if e := t.entries[i-1].op; rewrite.Equivalent(e, op, rewrite.IgnoreLocations) {
			return e
		}
	}
	return nil
}

func (t *table) insert(op *ir.Operation) {
	h := t.hash(op)
	t.entries = append(t.entries, entry{op: op, hash: h, next: t.heads[h]})
	t.heads[h] = int32(len(t.entries))
}

func (t *table) push() { t.marks = append(t.marks, len(t.entries)) }

func (t *table) pop() {
	m := t.marks[len(t.marks)-1]
	t.marks = t.marks[:len(t.marks)-1]
	for i := len(t.entries) - 1; i >= m; i-- {
		e := t.entries[i]
		if e.next == 0 {
			delete(t.heads, e.hash)
		} else {
			t.heads[e.hash] = e.next
		}
	}
	clear(t.entries[m:])
	t.entries = t.entries[:m]
}
