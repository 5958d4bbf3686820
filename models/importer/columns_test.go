package importer

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/internal/ggufgen"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/passes/q6kcolumns"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// compareColumns writes the checkpoint, imports it with and without
// Options.Q6KColumns, checks that the columns module reads every q6_k
// dequant_matmul (m.Reads of them, one per chosen expert) as q6_k_c16 and
// the plain one as q6_k, that the two decode tokens to the same logits
// bit for bit, also split by hybrid-split, and that the q6k-columns pass
// makes the plain module the columns one.
func compareColumns(t *testing.T, m *ggufgen.Model, err error, tokens []int) {
	if err != nil {
		t.Fatal(err)
	}
	reads, vocab := m.Reads, m.Vocab
	path := filepath.Join(t.TempDir(), "q6k.gguf")
	if err := m.W.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	run := func(columns, pass bool) (string, *tensor.Tensor) {
		m, err := ImportGGUF(newContext(), path, Options{MaxTokens: 8, Q6KColumns: columns})
		if err != nil {
			t.Fatal(err)
		}
		defer m.Source.Close()
		if pass {
			q6kcolumns.Run(m.Module)
		}
		var text strings.Builder
		if err := ir.Print(&text, m.Module, ir.PrintOptions{}); err != nil {
			t.Fatal(err)
		}
		return text.String(), decodeModule(t, m.Module, m.Source, tokens)
	}
	plain, want := run(false, false)
	cols, got := run(true, false)
	if n := strings.Count(cols, `format = "q6_k_c16"`); n != reads || strings.Contains(cols, `format = "q6_k"`) {
		t.Errorf("the columns module has %d q6_k_c16 reads, want all %d", n, reads)
	}
	if n := strings.Count(plain, `format = "q6_k"`); n != reads {
		t.Errorf("the plain module has %d q6_k reads, want %d", n, reads)
	}
	g, wv := got.Floats(), want.Floats()
	if len(wv) != len(tokens)*vocab || len(g) != len(wv) {
		t.Fatalf("%d and %d logits, want %d", len(wv), len(g), len(tokens)*vocab)
	}
	for i := range wv {
		if math.Float32bits(g[i]) != math.Float32bits(wv[i]) {
			t.Fatalf("logit %d: %g with q6_k_c16, %g with q6_k", i, g[i], wv[i])
		}
	}
	// The q6k-columns pass on the plain import chooses what the option
	// does.
	if passed, _ := run(false, true); passed != cols {
		t.Error("rlx-opt --q6k-columns on the plain import differs from the import with Q6KColumns")
	}
	// Split, the columns module decodes the same logits (the params are
	// cloned into the regions that read them; their binding is unchanged).
	cm, err := ImportGGUF(newContext(), path, Options{MaxTokens: 8, Q6KColumns: true})
	if err != nil {
		t.Fatal(err)
	}
	defer cm.Source.Close()
	if _, err := checkSplit(t, cm, tokens); err != nil {
		t.Errorf("hybrid-split of the columns module: %v", err)
	}
}

// TestQ6KColumns imports a one-layer llama GGUF whose projections are q6_k
// (internal/ggufgen) with and without Options.Q6KColumns: the columns
// module reads them as q6_k_c16 (the binder rearranges the blocks at load)
// and decodes the same logits bit for bit.
func TestQ6KColumns(t *testing.T) {
	m, err := ggufgen.Llama(5)
	compareColumns(t, m, err, []int{3, 1, 4, 1, 5})
}

// TestQ6KColumnsExperts does the same for a one-layer Qwen3-Next GGUF (its
// one layer full attention) whose experts are q6_k stacks: each chosen
// expert's dequant_matmul reads q6_k_c16, the binder rearranges the stacks
// expert by expert, and the logits are the q6_k module's bit for bit.
func TestQ6KColumnsExperts(t *testing.T) {
	m, err := ggufgen.Qwen3Next(6)
	compareColumns(t, m, err, []int{3, 1, 4, 1, 5, 9, 2})
}
