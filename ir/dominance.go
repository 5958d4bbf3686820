package ir

// domTree is the dominator tree of a region's blocks, computed with the
// iterative algorithm of Cooper, Harvey and Kennedy over a reverse
// post-order. Blocks unreachable from the entry are dominated by nothing
// and dominate only themselves... except that MLIR treats them as
// dominated by every block, so uses in dead blocks are accepted.
type domTree struct {
	idom     map[*Block]*Block
	order    map[*Block]int // reverse post-order number
	children map[*Block][]*Block
}

func newDomTree(r *Region) *domTree {
	t := &domTree{idom: map[*Block]*Block{}, order: map[*Block]int{}, children: map[*Block][]*Block{}}
	entry := r.first
	if entry == nil {
		return t
	}
	post := PostOrder(entry)
	rpo := make([]*Block, len(post))
	for i, b := range post {
		rpo[len(post)-1-i] = b
		t.order[b] = len(post) - 1 - i
	}
	preds := map[*Block][]*Block{}
	for _, b := range rpo {
		for _, s := range b.Successors() {
			preds[s] = append(preds[s], b)
		}
	}
	t.idom[entry] = entry
	for changed := true; changed; {
		changed = false
		for _, b := range rpo[1:] {
			var nd *Block
			for _, p := range preds[b] {
				if t.idom[p] == nil {
					continue
				}
				if nd == nil {
					nd = p
				} else {
					nd = t.intersect(p, nd)
				}
			}
			if nd != nil && t.idom[b] != nd {
				t.idom[b] = nd
				changed = true
			}
		}
	}
	for _, b := range rpo[1:] {
		if p := t.idom[b]; p != nil {
			t.children[p] = append(t.children[p], b)
		}
	}
	return t
}

func (t *domTree) intersect(a, b *Block) *Block {
	for a != b {
		for t.order[a] > t.order[b] {
			a = t.idom[a]
		}
		for t.order[b] > t.order[a] {
			b = t.idom[b]
		}
	}
	return a
}

// dominates reports whether a dominates b. Unreachable blocks are treated
// as dominated by everything, as MLIR does.
func (t *domTree) dominates(a, b *Block) bool {
	if _, reachable := t.idom[b]; !reachable {
		return true
	}
	for {
		if a == b {
			return true
		}
		p := t.idom[b]
		if p == b {
			return false
		}
		b = p
	}
}

// Dominance answers dominance queries for the ops of a region tree. It
// computes dominator trees lazily, per region, and treats graph regions
// (and regions of unregistered ops) as having no dominance order.
type Dominance struct {
	trees map[*Region]*domTree
}

// NewDominance returns an empty dominance cache.
func NewDominance() *Dominance { return &Dominance{trees: map[*Region]*domTree{}} }

func (d *Dominance) tree(r *Region) *domTree {
	t := d.trees[r]
	if t == nil {
		t = newDomTree(r)
		d.trees[r] = t
	}
	return t
}

// BlockDominates reports whether block a dominates block b; both must be
// in the same region.
func (d *Dominance) BlockDominates(a, b *Block) bool {
	return d.tree(a.parent).dominates(a, b)
}

// Children returns the blocks b immediately dominates in its region's
// dominator tree, in reverse post-order of the control flow. Walking the
// tree from a region's entry block visits every block reachable from it,
// each after its dominators (the order CSE needs); unreachable blocks are
// in no one's children. The slice belongs to the cache.
func (d *Dominance) Children(b *Block) []*Block {
	return d.tree(b.parent).children[b]
}

// ValueDominates reports whether v is available at op: defined before it
// in the same block, in a dominating block, or in an enclosing region
// without dominance order.
func (d *Dominance) ValueDominates(v *Value, op *Operation) bool {
	defBlock := v.ParentBlock()
	if defBlock == nil || defBlock.parent == nil {
		return false
	}
	r := defBlock.parent
	anc := r.FindAncestorOpInRegion(op)
	if anc == nil {
		return false
	}
	if !r.HasSSADominance() {
		return true
	}
	if anc.block == defBlock {
		return v.isArg || (v.defOp() != anc && v.defOp().IsBeforeInBlock(anc))
	}
	return d.BlockDominates(defBlock, anc.block)
}

// HasSSADominance reports whether values in r must dominate their uses, by
// MLIR's rule: a region with several blocks always has dominance; a
// single-block region has none when its op is unregistered (nothing is
// known about it) or declares graph regions.
func (r *Region) HasSSADominance() bool {
	p := r.parent
	if p == nil || !r.HasOneBlock() {
		return true
	}
	return p.IsRegistered() && !p.HasTrait(TraitGraphRegion)
}
