package q6kcolumns

import (
	"slices"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// Run converts the qualifying params under op (see the package doc) and
// returns their names, sorted.
func Run(op *ir.Operation) []string {
	type shape struct{ n, k int64 }
	uses := map[string][]*ir.Operation{} // a name's dequant_matmuls
	seen := map[string]shape{}
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
			s := shape{d.N(), d.K()}
			if prev, ok := seen[name]; ok && prev != s {
				bad[name] = true
			}
			seen[name] = s
			uses[name] = append(uses[name], u.Owner())
		}
		if len(uses[name]) == 0 {
			bad[name] = true
		}
	})
	var names []string
	ctx := op.Context()
	for name, ops := range uses {
		if bad[name] {
			continue
		}
		for _, d := range ops {
			d.SetAttr(ctx, "format", ctx.StringAttr(string(graph.Q6_KC16)))
		}
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
