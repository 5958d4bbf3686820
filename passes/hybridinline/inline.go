package hybridinline

import (
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/dialect/mps"
	"github.com/rlx-compiler/rlx/dialect/regionop"
	"github.com/rlx-compiler/rlx/dialect/thunk"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/pipeline"
)

// Info describes the hybrid-inline pass.
var Info = &pipeline.PassInfo{
	Argument: "hybrid-inline",
	Name:     "HybridInline",
	Summary:  "Put the bodies of mps.subgraph and thunk.call regions back in line",
	Description: "The inverse of hybrid-split: every region op directly in the function is " +
		"replaced by its body, and identical leaves are merged.",
	Anchor: "func.func",
	New:    func() pipeline.Pass { return &pass{} },
}

type pass struct {
	inlined, merged pipeline.Statistic
}

func (p *pass) Info() *pipeline.PassInfo { return Info }

func (p *pass) Declare(d *pipeline.Decl) {
	d.Stat(&p.inlined, "regions-inlined", "Number of region ops put back in line")
	d.Stat(&p.merged, "leaves-merged", "Number of duplicate leaves erased")
}

func (p *pass) Run(op *ir.Operation, am *pipeline.AnalysisManager) error {
	n, m := Inline(op)
	if n == 0 && m == 0 {
		am.PreserveAll()
	}
	p.inlined.Add(int64(n))
	p.merged.Add(int64(m))
	return nil
}

// Inline puts the region ops directly in f's body back in line and merges
// identical leaves. It returns the number of regions inlined and of leaves
// merged.
func Inline(f *ir.Operation) (regions, leaves int) {
	if f.NumRegions() == 0 {
		return 0, 0
	}
	for b := range f.Region(0).Blocks() {
		for op := range b.Ops() {
			if (op.Name() == mps.SubgraphName || op.Name() == thunk.CallName) && regionop.IsOutlined(op) {
				inlineOne(op)
				regions++
			}
		}
	}
	if regions == 0 {
		return 0, 0
	}
	return regions, mergeLeaves(f)
}

func inlineOne(op *ir.Operation) {
	body := op.Region(0).First()
	yield := body.Last()
	for k := 0; k < op.NumResults(); k++ {
		op.Result(k).ReplaceAllUsesWith(yield.Operand(k))
	}
	for i, a := range body.Arguments() {
		a.ReplaceAllUsesWith(op.Operand(i))
	}
	for o := body.First(); o != yield; {
		next := o.Next()
		o.MoveBefore(op)
		o = next
	}
	yield.Erase()
	op.Erase()
}

type leafKey struct {
	name  *ir.OpName
	props ir.Attribute
	attrs *ir.DictAttr
	typ   ir.Type
}

// mergeLeaves keeps the first of every set of identical leaves in f's
// body (attributes and types are uniqued, so identity is pointer
// equality).
func mergeLeaves(f *ir.Operation) int {
	n := 0
	seen := map[leafKey]*ir.Operation{}
	for b := range f.Region(0).Blocks() {
		for op := range b.Ops() {
			if graph.IsLeaf(op) && op.NumResults() == 1 {
				k := leafKey{op.OpName(), op.Props(), op.Attrs(), op.Result(0).Type()}
				if first, ok := seen[k]; ok {
					op.Result(0).ReplaceAllUsesWith(first.Result(0))
					op.Erase()
					n++
				} else {
					seen[k] = op
				}
			}
		}
	}
	return n
}
