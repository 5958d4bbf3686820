package hybridsplit

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/models"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// modelCase is one model graph of the model test.
type modelCase struct {
	name  string
	build func(*ir.Context) (*models.Model, error)
	// short runs it under -short too.
	short bool
}

func modelCases() []modelCase {
	qwen := func(hidden, layers int) func(*ir.Context) (*models.Model, error) {
		return func(ctx *ir.Context) (*models.Model, error) {
			c := models.DefaultQwen35()
			if hidden > 0 {
				c.Hidden, c.Layers = hidden, layers
			}
			return models.Qwen35(ctx, c)
		}
	}
	zonos := func(hidden, layers int) func(*ir.Context) (*models.Model, error) {
		return func(ctx *ir.Context) (*models.Model, error) {
			c := models.DefaultZonos()
			if hidden > 0 {
				c.Hidden, c.Layers = hidden, layers
			}
			return models.Zonos(ctx, c)
		}
	}
	kimi := func(hidden, layers int) func(*ir.Context) (*models.Model, error) {
		return func(ctx *ir.Context) (*models.Model, error) {
			c := models.DefaultKimi()
			if hidden > 0 {
				c.Hidden, c.Layers = hidden, layers
			}
			return models.Kimi(ctx, c)
		}
	}
	return []modelCase{
		{"qwen35/toy", qwen(0, 0), true},
		{"zonos/toy", zonos(0, 0), true},
		{"kimi/toy", kimi(0, 0), true},
		{"qwen35/h1024", qwen(1024, 3), false},
		{"zonos/h1024", zonos(1024, 2), false},
		{"kimi/h1024", kimi(1024, 4), false},
	}
}

// TestModels splits the model graphs (Qwen3.5-like GDN + attention decode,
// Zonos-like GQA decoder with KV-cache concat, Kimi-like KDA + MLA) at toy
// size and at hidden 1024, in both modes, checks the split structurally,
// runs the original and the split function through the reference
// interpreter on the model's own random inputs and weights, and requires
// bit-identical results. It logs a table of regions, MPS coverage and
// boundary traffic per model and mode.
func TestModels(t *testing.T) {
	var table []string
	table = append(table, fmt.Sprintf("%-14s %-10s %5s %5s %5s %8s %8s %12s %6s", "model", "mode", "ops", "mps", "thunk", "coverage", "boundary", "bytes", "same"))
	for _, mc := range modelCases() {
		if testing.Short() && !mc.short {
			continue
		}
		start := time.Now()
		rows, err := checkModel(mc)
		if err != nil {
			t.Errorf("%s: %v", mc.name, err)
			continue
		}
		table = append(table, rows...)
		t.Logf("%s: %v", mc.name, time.Since(start).Round(time.Millisecond))
	}
	t.Log("hybrid-split on the model graphs (ops: compute ops; mps/thunk: regions; boundary: values crossing a region boundary):\n" + strings.Join(table, "\n"))
}

// checkModel builds the model, runs it once, then splits a copy in each
// mode and checks that the split copy gives the same bits.
func checkModel(mc modelCase) ([]string, error) {
	ctx := newContext()
	m, err := mc.build(ctx)
	if err != nil {
		return nil, err
	}
	inputs, err := m.RandomInputs(1)
	if err != nil {
		return nil, err
	}
	st, err := m.RandomWeights(1)
	if err != nil {
		return nil, err
	}
	w := &ref.TensorWeights{Tensors: st.Tensors}
	run := func(mod *ir.Operation) ([]*tensor.Tensor, error) {
		p, err := ref.Compile(mod, models.FuncName)
		if err != nil {
			return nil, err
		}
		return p.Run(inputs, w)
	}
	want, err := run(m.Module)
	if err != nil {
		return nil, fmt.Errorf("the original does not run: %v", err)
	}
	var rows []string
	for _, mode := range []string{ModeSeed, ModeDependency} {
		mod := m.Module.Clone(nil)
		f := mod.Region(0).First().First()
		s := takeSnapshot(f, nil)
		res, err := Split(f, Options{Mode: mode})
		if err != nil {
			return nil, err
		}
		if err := ir.Verify(mod); err != nil {
			return nil, fmt.Errorf("mode=%s: does not verify: %v", mode, err)
		}
		regions, err := checkSplit(s)
		if err != nil {
			return nil, fmt.Errorf("mode=%s: %v", mode, err)
		}
		if b := pathBound(s); mode == ModeDependency && len(regions) < b {
			return nil, fmt.Errorf("%d regions, below the path bound %d", len(regions), b)
		}
		got, err := run(mod)
		if err != nil {
			return nil, fmt.Errorf("mode=%s: the split function does not run: %v", mode, err)
		}
		diffs, err := ref.CompareResults(want, got)
		if err != nil {
			return nil, err
		}
		for i, d := range diffs {
			if !d.SameType || !d.BitIdentical {
				return nil, fmt.Errorf("mode=%s: result #%d (%s) differs from the original's: %d elements, max |Δ| %g", mode, i, m.Outputs[i].Name, d.Count, d.MaxAbs)
			}
		}
		rows = append(rows, fmt.Sprintf("%-14s %-10s %5d %5d %5d %7.1f%% %8d %12d %6s", mc.name, mode, res.MPSOps+res.ThunkOps,
			res.MPSRegions, res.ThunkRegions, 100*res.Coverage(), res.BoundaryValues, res.BoundaryBytes, "bits"))
	}
	return rows, nil
}
