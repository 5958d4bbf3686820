package importer

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/internal/golden"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/passes/hybridsplit"
	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

var updateSplit = flag.Bool("update-split", false, "rewrite testdata/split.md from TestHybridSplit's results")

// splitReport is the committed table of TestHybridSplit, quoted in
// docs/import.md.
const splitReport = "testdata/split.md"

// TestHybridSplit runs hybrid-split (dependency mode, the default) on
// every imported model, from safetensors and from a Q8_0 GGUF file,
// decodes the fixture's tokens with the split module and requires logits
// bit-identical to the unsplit module's at every step. Its table of
// regions, MPS coverage and boundary traffic must equal testdata/split.md
// (rewritten with -update-split), which docs/import.md quotes.
func TestHybridSplit(t *testing.T) {
	var b strings.Builder
	b.WriteString("| model | compute ops | regions (mps + thunk) | MPS coverage | boundary values | boundary bytes |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|\n")
	for _, name := range fixtureNames {
		f := loadFixture(t, name)
		for _, q8 := range []bool{false, true} {
			if _, no := ggufNot[name]; no && q8 {
				continue // no GGUF form (TestGGUFAgreement)
			}
			if _, none := noGGUF[f.Arch]; none && q8 {
				continue
			}
			label := name + "/safetensors"
			var m *Model
			var err error
			if q8 {
				label = name + "/gguf-q8_0"
				m, err = ImportGGUF(newContext(), writeGGUF(t, f, gguf.Q8_0, false), Options{MaxTokens: 16})
			} else {
				m, err = ImportHF(newContext(), f.dir, Options{MaxTokens: 16})
			}
			if err != nil {
				t.Fatal(err)
			}
			row, err := checkSplit(t, m, f.Tokens)
			m.Source.Close()
			if err != nil {
				t.Errorf("%s: %v", label, err)
				continue
			}
			fmt.Fprintf(&b, "| %s | %s\n", label, row)
		}
	}
	table := b.String()
	t.Log("hybrid-split on the imported models, every split decoding bit-identically:\n" + table)
	if t.Failed() {
		return
	}
	golden.Report(t, table, splitReport, "../../docs/import.md", *updateSplit, "go test ./models/importer -run TestHybridSplit -update-split")
}

// checkSplit splits a copy of m's @decode, decodes tokens with both and
// compares the logits bit for bit; it returns the report row's cells.
func checkSplit(t testing.TB, m *Model, tokens []int) (string, error) {
	want := decodeModule(t, m.Module, m.Source, tokens)
	mod := m.Module.Clone(nil)
	res, err := hybridsplit.Split(mod.Region(0).First().First(), hybridsplit.Options{})
	if err != nil {
		return "", err
	}
	if err := ir.Verify(mod); err != nil {
		return "", fmt.Errorf("the split module does not verify: %v", err)
	}
	got := decodeModule(t, mod, m.Source, tokens)
	if !tensor.BitsEqual(got, want) {
		d := ref.Compare(got, want)
		return "", fmt.Errorf("split logits differ from the unsplit ones: %d elements, max |Δ| %g", d.Count, d.MaxAbs)
	}
	return fmt.Sprintf("%d | %d (%d + %d) | %.1f%% | %d | %d |", res.MPSOps+res.ThunkOps, res.MPSRegions+res.ThunkRegions,
		res.MPSRegions, res.ThunkRegions, 100*res.Coverage(), res.BoundaryValues, res.BoundaryBytes), nil
}
