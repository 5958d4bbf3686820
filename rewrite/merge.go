package rewrite

import "github.com/rlx-compiler/rlx/ir"

// MergeIdenticalBlocks merges blocks of regions (and nested regions) that
// are identical and have the same successors into one, redirecting their
// predecessors. As in MLIR, blocks whose ops differ only in values defined
// outside them could be merged by passing those values as new block
// arguments; that needs a branch interface rlx does not have, so such
// clusters are left alone.
func MergeIdenticalBlocks(r *Rewriter, regions []*ir.Region) bool {
	var work []*ir.Region
	queued := map[*ir.Region]bool{}
	push := func(reg *ir.Region) {
		if !queued[reg] {
			queued[reg] = true
			work = append(work, reg)
		}
	}
	for _, reg := range regions {
		push(reg)
	}
	changed := false
	h := NewHasher()
	for len(work) > 0 {
		reg := work[len(work)-1]
		work = work[:len(work)-1]
		delete(queued, reg)
		if mergeIdenticalBlocks(r, h, reg) {
			push(reg)
			changed = true
		}
		for b := range reg.Blocks() {
			for o := range b.Ops() {
				for i := 0; i < o.NumRegions(); i++ {
					push(o.Region(i))
				}
			}
		}
	}
	return changed
}

// blockData caches what block comparison needs.
type blockData struct {
	block *ir.Block
	hash  uint64
	order map[*ir.Operation]int // position of each op's first result
}

func newBlockData(h Hasher, b *ir.Block) *blockData {
	d := &blockData{block: b, order: map[*ir.Operation]int{}}
	n := b.NumArguments()
	ignore := func(*ir.Value) uint64 { return 0 }
	for o := range b.Ops() {
		if o.NumResults() > 0 {
			d.order[o] = n
			n += o.NumResults()
		}
		d.hash = mix(d.hash, h.Hash(o, ignore, IgnoreLocations))
	}
	return d
}

func (d *blockData) orderOf(v *ir.Value) int {
	if v.IsBlockArgument() {
		return v.Index()
	}
	return d.order[v.DefiningOp()] + v.Index()
}

type blockCluster struct {
	leader *blockData
	blocks []*ir.Block
	// mismatched is set when some block differs from the leader in a value
	// defined outside; merging would then need new block arguments.
	mismatched bool
}

// add puts b in the cluster when it is equivalent to the leader.
func (c *blockCluster) add(b *blockData) bool {
	lb, mb := c.leader.block, b.block
	if c.leader.hash != b.hash || !sameTypes(lb.ArgumentTypes(), mb.ArgumentTypes()) {
		return false
	}
	mismatched := false
	lo, mo := lb.First(), mb.First()
	for ; lo != nil && mo != nil; lo, mo = lo.Next(), mo.Next() {
		if !equivalentIgnoringOperands(lo, mo, IgnoreLocations) {
			return false
		}
		for i := 0; i < lo.NumOperands(); i++ {
			lv, mv := lo.Operand(i), mo.Operand(i)
			if lv == mv {
				continue
			}
			if lv.Type() != mv.Type() {
				return false
			}
			lIn, mIn := lv.ParentBlock() == lb, mv.ParentBlock() == mb
			if lIn != mIn {
				return false
			}
			if !lIn {
				if !validSuccessorArg(lb, lv) || !validSuccessorArg(mb, mv) {
					return false
				}
				mismatched = true
				continue
			}
			if c.leader.orderOf(lv) != b.orderOf(mv) {
				return false
			}
		}
		if usedOutside(lo, lb) || usedOutside(mo, mb) {
			return false
		}
	}
	if lo != nil || mo != nil {
		return false
	}
	c.mismatched = c.mismatched || mismatched
	c.blocks = append(c.blocks, mb)
	return true
}

// validSuccessorArg reports whether v, defined outside b, could be passed
// to b as a successor operand: not a result of a predecessor's terminator.
func validSuccessorArg(b *ir.Block, v *ir.Value) bool {
	def := v.DefiningOp()
	if def == nil || def != def.Block().Last() {
		return true
	}
	for _, p := range predecessors(b) {
		if p == def.Block() {
			return false
		}
	}
	return true
}

func usedOutside(op *ir.Operation, b *ir.Block) bool {
	for i := 0; i < op.NumResults(); i++ {
		for u := range op.Result(i).Users() {
			if u.Block() != b {
				return true
			}
		}
	}
	return false
}

// predecessors returns the blocks of b's region whose terminators branch
// to b (one entry per edge).
func predecessors(b *ir.Block) []*ir.Block {
	var out []*ir.Block
	for p := range b.Parent().Blocks() {
		for _, s := range p.Successors() {
			if s == b {
				out = append(out, p)
			}
		}
	}
	return out
}

func sameTypes(a, b []ir.Type) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func sameBlocks(a, b []*ir.Block) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func mergeIdenticalBlocks(r *Rewriter, h Hasher, reg *ir.Region) bool {
	if reg.Empty() || reg.HasOneBlock() {
		return false
	}
	// Group the non-entry blocks by their successor lists.
	type group struct {
		succ   []*ir.Block
		blocks []*ir.Block
	}
	var groups []*group
	for b := reg.First().Next(); b != nil; b = b.Next() {
		s := b.Successors()
		var g *group
		for _, cand := range groups {
			if sameBlocks(cand.succ, s) {
				g = cand
				break
			}
		}
		if g == nil {
			g = &group{succ: s}
			groups = append(groups, g)
		}
		g.blocks = append(g.blocks, b)
	}
	merged := false
	for _, g := range groups {
		if len(g.blocks) < 2 {
			continue
		}
		var clusters []*blockCluster
		for _, b := range g.blocks {
			if hasNonEmptyRegion(b) || argUsedOutside(b) {
				continue
			}
			d := newBlockData(h, b)
			added := false
			for _, c := range clusters {
				if c.add(d) {
					added = true
					break
				}
			}
			if !added {
				clusters = append(clusters, &blockCluster{leader: d})
			}
		}
		for _, c := range clusters {
			if len(c.blocks) == 0 || c.mismatched {
				continue
			}
			for _, b := range c.blocks {
				replaceBlockUses(reg, b, c.leader.block)
				r.EraseBlock(b)
			}
			merged = true
		}
	}
	return merged
}

func hasNonEmptyRegion(b *ir.Block) bool {
	for o := range b.Ops() {
		for i := 0; i < o.NumRegions(); i++ {
			if !o.Region(i).Empty() {
				return true
			}
		}
	}
	return false
}

func argUsedOutside(b *ir.Block) bool {
	for _, a := range b.Arguments() {
		for u := range a.Users() {
			if u.Block() != b {
				return true
			}
		}
	}
	return false
}

// replaceBlockUses redirects every successor edge to from in reg to to.
func replaceBlockUses(reg *ir.Region, from, to *ir.Block) {
	for b := range reg.Blocks() {
		t := b.Last()
		if t == nil {
			continue
		}
		for i := 0; i < t.NumSuccessors(); i++ {
			if t.Successor(i) == from {
				t.SetSuccessor(i, to)
			}
		}
	}
}
