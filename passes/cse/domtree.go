package cse

import "github.com/rlx-compiler/rlx/ir"

// DomInfo holds the dominator trees of the multi-block regions CSE walks,
// built on first use; it is MLIR's DominanceInfo analysis (Dominance).
type DomInfo struct {
	trees map[*ir.Region]*domNode
}

func (d *DomInfo) tree(r *ir.Region) *domNode {
	if t, ok := d.trees[r]; ok {
		return t
	}
	if d.trees == nil {
		d.trees = map[*ir.Region]*domNode{}
	}
	t := newDomTree(r)
	d.trees[r] = t
	return t
}

// domNode is a block in a dominator tree; children are in reverse
// post-order of the CFG.
type domNode struct {
	block    *ir.Block
	children []*domNode
}

// newDomTree builds the dominator tree of the blocks of r reachable from
// its entry, with the iterative algorithm of Cooper, Harvey and Kennedy.
// Unreachable blocks are left out, as MLIR's CSE never visits them.
func newDomTree(r *ir.Region) *domNode {
	entry := r.First()
	post := ir.PostOrder(entry)
	n := len(post)
	rpo := make([]*ir.Block, n)
	index := make(map[*ir.Block]int, n)
	for i, b := range post {
		rpo[n-1-i] = b
		index[b] = n - 1 - i
	}
	preds := make([][]int, n)
	for i, b := range rpo {
		for _, s := range b.Successors() {
			if j, ok := index[s]; ok {
				preds[j] = append(preds[j], i)
			}
		}
	}
	idom := make([]int, n)
	for i := range idom {
		idom[i] = -1
	}
	idom[0] = 0
	intersect := func(a, b int) int {
		for a != b {
			for a > b {
				a = idom[a]
			}
			for b > a {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for i := 1; i < n; i++ {
			nd := -1
			for _, p := range preds[i] {
				if idom[p] < 0 {
					continue
				}
				if nd < 0 {
					nd = p
				} else {
					nd = intersect(p, nd)
				}
			}
			if nd >= 0 && idom[i] != nd {
				idom[i] = nd
				changed = true
			}
		}
	}
	nodes := make([]*domNode, n)
	for i, b := range rpo {
		nodes[i] = &domNode{block: b}
	}
	for i := 1; i < n; i++ {
		p := nodes[idom[i]]
		p.children = append(p.children, nodes[i])
	}
	return nodes[0]
}
