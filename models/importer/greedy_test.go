package importer

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/decode"
	"github.com/rlx-compiler/rlx/runtime/ref"
)

// TestGreedyGeneration imports each fixture that holds its own weights
// and generates greedily from testdata/hf/greedy.json's prompt
// (decode.Generate, what rlx-run --generate runs): the new tokens must be
// transformers' own greedy continuation (tools/hf-fixtures/greedy.py:
// `generate` with do_sample=False in float64, 8 new tokens; its smallest
// top-two gap is 0.005, far above the logits' 1e-6 disagreement).
func TestGreedyGeneration(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "hf", "greedy.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Prompt   []int `json:"prompt"`
		New      int   `json:"new_tokens"`
		Fixtures map[string]struct {
			Tokens []int  `json:"tokens"`
			Error  string `json:"error"`
		} `json:"fixtures"`
	}
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Fixtures) < 13 || g.New < 2 {
		t.Fatalf("greedy.json holds %d fixtures of %d new tokens", len(g.Fixtures), g.New)
	}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range g.Fixtures {
			if !yield(k) {
				return
			}
		}
	}) {
		want := g.Fixtures[name]
		t.Run(name, func(t *testing.T) {
			if want.Error != "" || len(want.Tokens) != g.New {
				t.Fatalf("transformers did not generate: %q, %v", want.Error, want.Tokens)
			}
			dir := filepath.Join("testdata", "hf", name)
			m, err := ImportHF(newContext(), dir, Options{MaxTokens: 16})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Source.Close()
			p, err := ref.Compile(m.Module, "decode")
			if err != nil {
				t.Fatal(err)
			}
			d, err := decode.New(p)
			if err != nil {
				t.Fatal(err)
			}
			// The last new token is the last step's arg-max, not fed.
			tokens, logits, err := d.Generate(g.Prompt, g.New-1, m.Source)
			if err != nil {
				t.Fatal(err)
			}
			v := logits.Floats()
			got := append(tokens[len(g.Prompt):], decode.ArgMax(v[len(v)-d.Vocab:]))
			if !slices.Equal(got, want.Tokens) {
				t.Errorf("generated %v, transformers %v", got, want.Tokens)
			}
		})
	}
}
