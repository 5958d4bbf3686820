package lowertomps

import (
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rlx-compiler/rlx/dialect/builtin"
	"github.com/rlx-compiler/rlx/internal/golden"
	"github.com/rlx-compiler/rlx/internal/modelregions"
	"github.com/rlx-compiler/rlx/internal/mpsregions"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// relTolerance bounds a decomposed region's error, relative to the largest
// magnitude of the result it is measured on.
const relTolerance = 1e-6

// TestModels lowers every mps.subgraph region of the three model graphs
// (toy size, and hidden 1024 without -short), runs each region's lowered
// form and its graph form on the values the region reads when the model
// runs, and requires bit-identical results where no op of the region is
// decomposed and an error within relTolerance of the result's scale
// elsewhere. It then runs the whole lowered function against the split
// one on the model's inputs. Its table must equal testdata/models.md
// (rewritten with -update-models), which docs/codegen-mps.md quotes.
func TestModels(t *testing.T) {
	var report strings.Builder
	report.WriteString("| model | MPS regions | decomposed | bit-identical | max relative error | whole function: max relative error |\n|---|--:|--:|--:|--:|--:|\n")
	for _, c := range modelregions.Cases() {
		if testing.Short() && !c.Short {
			continue
		}
		start := time.Now()
		row, err := checkModel(c)
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		report.WriteString(row)
		t.Logf("%s: %v", c.Name, time.Since(start).Round(time.Millisecond))
	}
	table := report.String()
	t.Log("lower-to-mps on the model graphs' regions:\n" + table)
	if t.Failed() || testing.Short() {
		return
	}
	golden.Report(t, table, modelsReport, "../../docs/codegen-mps.md", *updateModels, "go test ./passes/lowertomps -run TestModels -update-models")
}

var updateModels = flag.Bool("update-models", false, "rewrite testdata/models.md from TestModels' results")

// modelsReport is the committed report of TestModels, quoted in
// docs/codegen-mps.md.
const modelsReport = "testdata/models.md"

func checkModel(c modelregions.Case) (string, error) {
	s, err := modelregions.Load(c)
	if err != nil {
		return "", err
	}
	low := s.Module.Clone(nil)
	if _, err := Lower(low, Options{}); err != nil {
		return "", err
	}
	if err := ir.Verify(low); err != nil {
		return "", fmt.Errorf("the lowered module does not verify: %v", err)
	}
	lowered := mpsregions.Outlined(low)
	if len(lowered) != len(s.Regions) {
		return "", fmt.Errorf("%d regions after lowering, %d before", len(lowered), len(s.Regions))
	}
	nDecomp, nIdent, worst := 0, 0, 0.0
	for i, r := range s.Regions {
		dec := false
		builtin.Body(r.Module).First().Walk(func(op *ir.Operation) { dec = dec || Decomposes(op) })
		want, err := runRegion(r.Module, r.Inputs, s.Weights)
		if err != nil {
			return "", fmt.Errorf("@%s (graph form): %v", r.Symbol, err)
		}
		got, err := runRegion(lowered[i], r.Inputs, s.Weights)
		if err != nil {
			return "", fmt.Errorf("@%s (lowered): %v", r.Symbol, err)
		}
		ident := true
		for k := range want {
			d := ref.Compare(got[k], want[k])
			if !d.SameType {
				return "", fmt.Errorf("@%s result #%d: %s, expected %s", r.Symbol, k, got[k].Type(), want[k].Type())
			}
			ident = ident && d.BitIdentical
			e := mpsregions.RelError(got[k], want[k])
			worst = max(worst, e)
			switch {
			case !dec && !d.BitIdentical:
				return "", fmt.Errorf("@%s result #%d: no op is decomposed, but %d elements differ (max |Δ| %g)", r.Symbol, k, d.Count, d.MaxAbs)
			case e > relTolerance:
				return "", fmt.Errorf("@%s result #%d: relative error %g above %g (%d elements differ, max |Δ| %g)", r.Symbol, k, e, relTolerance, d.Count, d.MaxAbs)
			}
		}
		if dec {
			nDecomp++
		}
		if ident {
			nIdent++
		}
	}
	inputs, err := s.Model.RandomInputs(1)
	if err != nil {
		return "", err
	}
	want, err := runRegion(s.Module, inputs, s.Weights)
	if err != nil {
		return "", err
	}
	got, err := runRegion(low, inputs, s.Weights)
	if err != nil {
		return "", err
	}
	whole := 0.0
	for k := range want {
		whole = max(whole, mpsregions.RelError(got[k], want[k]))
	}
	return fmt.Sprintf("| %s | %d | %d | %d | %.2g | %.2g |\n", c.Name, len(s.Regions), nDecomp, nIdent, worst, whole), nil
}

func runRegion(mod *ir.Operation, inputs []*tensor.Tensor, w ref.Weights) ([]*tensor.Tensor, error) {
	p, err := ref.Compile(mod, "")
	if err != nil {
		return nil, err
	}
	return p.Run(inputs, w)
}
