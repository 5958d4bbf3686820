package q6kcolumns

import (
	"slices"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// Run converts the qualifying params under op (see the package doc) and
// returns their names, sorted.
func Run(op *ir.Operation) []string {
	uses := map[string][]graph.DequantMatMul{} // a name's dequant_matmuls
	bad := map[string]bool{}
	op.Walk(func(o *ir.Operation) {
		p, ok := graph.AsParam(o)
		if !ok {
			return
		}
		name := p.Name()
		for u := range o.Result(0).Uses() {
			d, ok := graph.AsDequantMatMul(u.Owner())
			if !ok || u.Index() != 1 || d.Format() != graph.Q6_K {
				bad[name] = true
				continue
			}
			if prev := uses[name]; len(prev) > 0 && (prev[0].N() != d.N() || prev[0].K() != d.K()) {
				bad[name] = true
			}
			uses[name] = append(uses[name], d)
		}
	})
	var names []string
	ctx := op.Context()
	for name, ds := range uses {
		if bad[name] {
			continue
		}
		for _, d := range ds {
			d.Op.SetAttr(ctx, "format", ctx.StringAttr(string(graph.Q6_KC16)))
		}
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
