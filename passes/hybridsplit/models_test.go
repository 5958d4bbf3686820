package hybridsplit

import (
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/internal/golden"
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

// resize sets a model's hidden size (0 keeps the default) and the GGUF
// format of its large projections ("" keeps the default). Quantised
// projections take f32 activations, so a format also makes them f32.
func resize(c *models.Common, hidden int, quant graph.QuantFormat) {
	if hidden > 0 {
		c.Hidden = hidden
	}
	if quant != "" {
		c.Quant, c.DType = quant, ""
	}
}

func modelCases() []modelCase {
	qwen := func(hidden int, quant graph.QuantFormat) func(*ir.Context) (*models.Model, error) {
		return func(ctx *ir.Context) (*models.Model, error) {
			c := models.DefaultQwen35()
			resize(&c.Common, hidden, quant)
			return models.Qwen35(ctx, c)
		}
	}
	zonos := func(hidden int, quant graph.QuantFormat) func(*ir.Context) (*models.Model, error) {
		return func(ctx *ir.Context) (*models.Model, error) {
			c := models.DefaultZonos()
			resize(&c.Common, hidden, quant)
			return models.Zonos(ctx, c)
		}
	}
	kimi := func(hidden int, quant graph.QuantFormat) func(*ir.Context) (*models.Model, error) {
		return func(ctx *ir.Context) (*models.Model, error) {
			c := models.DefaultKimi()
			resize(&c.Common, hidden, quant)
			return models.Kimi(ctx, c)
		}
	}
	// The default layer counts (qwen35 4, zonos 2, kimi 4), as in
	// models/testdata/opcounts.txt; the quantised rows cover the formats
	// the default configurations do not use.
	return []modelCase{
		{"qwen35/toy", qwen(0, ""), true},
		{"zonos/toy", zonos(0, ""), true},
		{"kimi/toy", kimi(0, ""), true},
		{"qwen35/h1024", qwen(1024, ""), false},
		{"zonos/h1024", zonos(1024, ""), false},
		{"kimi/h1024", kimi(1024, ""), false},
		{"qwen35/h1024-q4_k", qwen(1024, graph.Q4_K), false},
		{"zonos/h1024-q6_k", zonos(1024, graph.Q6_K), false},
		{"kimi/h1024-q4_0", kimi(1024, graph.Q4_0), false},
	}
}

var updateModels = flag.Bool("update-models", false, "rewrite testdata/models.md from TestModels' results")

// modelsReport is the committed report of TestModels, also quoted in
// docs/hybrid-split.md.
const modelsReport = "testdata/models.md"

// TestModels splits the model graphs (Qwen3.5-like GDN + attention decode,
// Zonos-like GQA decoder with KV-cache concat, Kimi-like KDA + MLA) at toy
// size and at hidden 1024, in both modes, checks the split structurally,
// runs the original and the split function through the reference
// interpreter on the model's own random inputs and weights, and requires
// bit-identical results. Its table of regions, MPS coverage and boundary
// traffic per model, seed and dependency side by side, must equal
// testdata/models.md (rewritten with -update-models), and
// docs/hybrid-split.md must quote that table.
func TestModels(t *testing.T) {
	var b strings.Builder
	b.WriteString("| model | compute ops | seed: regions (mps + thunk) | seed: coverage | seed: boundary values | seed: boundary bytes | dependency: regions (mps + thunk) | dependency: coverage | dependency: boundary values | dependency: boundary bytes |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, mc := range modelCases() {
		if testing.Short() && !mc.short {
			continue
		}
		start := time.Now()
		row, err := checkModel(mc)
		if err != nil {
			t.Errorf("%s: %v", mc.name, err)
			continue
		}
		b.WriteString(row)
		t.Logf("%s: %v", mc.name, time.Since(start).Round(time.Millisecond))
	}
	table := b.String()
	t.Log("hybrid-split on the model graphs, every split bit-identical to the original:\n" + table)
	if t.Failed() || testing.Short() {
		return
	}
	golden.Report(t, table, modelsReport, "../../docs/hybrid-split.md", *updateModels, "go test ./passes/hybridsplit -run TestModels -update-models")
}

// checkModel builds the model, runs it once, then splits a copy in each
// mode and checks that the split copy gives the same bits. It returns the
// model's row of the report.
func checkModel(mc modelCase) (string, error) {
	ctx := newContext()
	m, err := mc.build(ctx)
	if err != nil {
		return "", err
	}
	inputs, err := m.RandomInputs(1)
	if err != nil {
		return "", err
	}
	st, err := m.RandomWeights(1)
	if err != nil {
		return "", err
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
		return "", fmt.Errorf("the original does not run: %v", err)
	}
	row := ""
	for _, mode := range []Mode{ModeSeed, ModeDependency} {
		mod := m.Module.Clone(nil)
		f := mod.Region(0).First().First()
		s := takeSnapshot(f, nil)
		res, err := Split(f, Options{Mode: mode})
		if err != nil {
			return "", err
		}
		if err := ir.Verify(mod); err != nil {
			return "", fmt.Errorf("mode=%s: does not verify: %v", mode, err)
		}
		regions, err := checkSplit(s)
		if err != nil {
			return "", fmt.Errorf("mode=%s: %v", mode, err)
		}
		if b := pathBound(s); mode == ModeDependency && len(regions) < b {
			return "", fmt.Errorf("%d regions, below the path bound %d", len(regions), b)
		}
		got, err := run(mod)
		if err != nil {
			return "", fmt.Errorf("mode=%s: the split function does not run: %v", mode, err)
		}
		diffs, err := ref.CompareResults(want, got)
		if err != nil {
			return "", err
		}
		for i, d := range diffs {
			if !d.SameType || !d.BitIdentical {
				return "", fmt.Errorf("mode=%s: result #%d (%s) differs from the original's: %d elements, max |Δ| %g", mode, i, m.Outputs[i].Name, d.Count, d.MaxAbs)
			}
		}
		if row == "" {
			row = fmt.Sprintf("| %s | %d |", mc.name, res.MPSOps+res.ThunkOps)
		}
		row += fmt.Sprintf(" %d (%d + %d) | %.1f%% | %d | %d |", res.MPSRegions+res.ThunkRegions, res.MPSRegions, res.ThunkRegions,
			100*res.Coverage(), res.BoundaryValues, res.BoundaryBytes)
	}
	return row + "\n", nil
}
