package q6kcolumns

import (
	"slices"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// read is one graph.dequant_matmul reading a param's bytes, and the runs
// of bytes that the gathers and slices on the way select (see
// graph.MovesPacked).
type read struct {
	d    graph.DequantMatMul
	runs []int64
}

// Run converts the qualifying params under op (see the package doc) and
// returns their names, sorted.
func Run(op *ir.Operation) []string {
	reads := map[string][]read{}
	bad := map[string]bool{}
	op.Walk(func(o *ir.Operation) {
		p, ok := graph.AsParam(o)
		if !ok {
			return
		}
		name := p.Name()
		if !follow(o.Result(0), nil, func(r read) { reads[name] = append(reads[name], r) }) {
			bad[name] = true
		}
	})
	var names []string
	ctx := op.Context()
	for name, rs := range reads {
		if bad[name] || !whole(rs) {
			continue
		}
		for _, r := range rs {
			r.d.Op.SetAttr(ctx, "format", ctx.StringAttr(string(graph.Q6_KC16)))
		}
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// follow calls found for every q6_k dequant_matmul that reads v's bytes,
// directly or through ops that only move them, and reports whether those
// are v's only uses.
func follow(v *ir.Value, runs []int64, found func(read)) bool {
	ok := true
	for u := range v.Uses() {
		if out, run, moves := graph.MovesPacked(u); moves {
			ok = follow(out, append(runs[:len(runs):len(runs)], run), found) && ok
			continue
		}
		d, isDQ := graph.AsDequantMatMul(u.Owner())
		if !isDQ || u.Index() != 1 || d.Format() != graph.Q6_K {
			ok = false
			continue
		}
		found(read{d, runs})
	}
	return ok
}

// whole reports whether a name's reads share one [n, k] and select whole
// matrices of it, so that its blocks can be rearranged matrix by matrix.
func whole(rs []read) bool {
	n, k := rs[0].d.N(), rs[0].d.K()
	per := graph.Q6_K.PackedBytes(n, k)
	for _, r := range rs {
		if r.d.N() != n || r.d.K() != k || per <= 0 {
			return false
		}
		for _, run := range r.runs {
			if run%per != 0 {
				return false
			}
		}
	}
	return true
}
