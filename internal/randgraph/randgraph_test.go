package randgraph

import (
	"slices"
	"testing"

	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/dialect/builtin"
	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// dequant is a graph.dequant_matmul's format and shape: x [m, k], the
// weight [n, k].
type dequant struct {
	format  graph.QuantFormat
	m, n, k int64
	expert  bool // the weight an expert the Metal kernels read in place
}

// inPlaceExpert reports whether w is what codegen/metal's
// findExpertReads reads in place: a reshape of a one-row slice along
// axis 0 of a gather along axis 0, by a vector of indices, of a ui8
// table whose rows are a multiple of 16 bytes.
func inPlaceExpert(w *ir.Value) bool {
	r := w.DefiningOp()
	if r == nil || r.Name() != graph.ReshapeName {
		return false
	}
	s, ok := graph.AsSlice(r.Operand(0).DefiningOp())
	if !ok || s.Axis() != 0 || s.Length() != 1 {
		return false
	}
	g, ok := graph.AsGather(s.Op.Operand(0).DefiningOp())
	if !ok || g.Axis() != 0 {
		return false
	}
	tab := g.Table().Type().(*ir.RankedTensorType).Shape
	return len(g.Indices().Type().(*ir.RankedTensorType).Shape) == 1 && len(tab) == 2 && tab[1]%16 == 0
}

// body returns the names of the ops of m's function before its return,
// and its dequant_matmuls.
func body(m *ir.Operation) (names []string, dqs []dequant) {
	f := builtin.Body(m).First()
	for op := range (fn.Func{Op: f}).Body().Ops() {
		if op.Name() == fn.ReturnName {
			break
		}
		names = append(names, op.Name())
		if d, ok := graph.AsDequantMatMul(op); ok {
			expert := inPlaceExpert(op.Operand(1))
			dqs = append(dqs, dequant{d.Format(), op.Operand(0).Type().(*ir.RankedTensorType).Shape[0], d.N(), d.K(), expert})
		}
	}
	return names, dqs
}

// TestFormatsTail checks Config.Formats: a function with it holds the
// one without it as its first ops (the tail's own stream leaves the main
// ops as the seed gave them), and over the seeds Seeded gives it to, the
// tail draws every format of unitFormats at each of the kernels' paths
// (one x row, two to eight, nine to twelve), at rows of more than 32
// units of 32 weights and as an MoE block's experts, and the main ops'
// formats as experts too.
func TestFormatsTail(t *testing.T) {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	for seed := int64(1); seed < 40; seed += 4 {
		cfg := Config{Ops: 8, Refusals: true}
		without, err := Build(ctx, seed, cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Formats = true
		with, err := Build(ctx, seed, cfg)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := body(without)
		b, dqs := body(with)
		if len(b) <= len(a) || !slices.Equal(b[:len(a)], a) {
			t.Errorf("seed %d: with Formats the ops are %v, want %v and then the tail", seed, b, a)
		}
		if len(dqs) == 0 {
			t.Errorf("seed %d: Formats made no dequant_matmul", seed)
		}
	}
	seen := map[string]bool{}
	for seed := int64(1); seed < 1200; seed += 4 {
		m, err := Seeded(ctx, seed)
		if err != nil {
			t.Fatal(err)
		}
		_, dqs := body(m)
		for _, d := range dqs {
			f := string(d.format)
			seen[f] = true
			switch {
			case d.m == 1:
				seen[f+" gemv"] = true
			case d.m <= 8:
				seen[f+" batch"] = true
			default:
				seen[f+" gemm"] = true
			}
			if d.k > 32*32 {
				seen[f+" wide"] = true
			}
			if d.expert {
				seen[f+" experts"] = true
			}
		}
	}
	for _, f := range packedFormats {
		if !seen[string(f)+" experts"] {
			t.Errorf("Seeded's Formats tail never drew %s experts", f)
		}
	}
	for _, f := range unitFormats {
		for _, path := range []string{"", " gemv", " batch", " gemm", " wide", " experts"} {
			if !seen[string(f)+path] {
				t.Errorf("Seeded's Formats tail never drew %s%s", f, path)
			}
		}
	}
}
