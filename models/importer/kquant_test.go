package importer

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/internal/ggufgen"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/gguf"
)

// TestKQuantGGUF: a GGUF whose matrices (dense and expert stacks) are
// in one of the block formats with kernels (q4_k, q5_k, q6_k, and the
// unit formats q2_k, q3_k, q4_1, q5_0, q5_1, iq4_nl, iq4_xs, mxfp4) imports with one graph.dequant_matmul of that format
// per matrix read, and decodes to the logits of the same model stored as
// F32 tensors of the values its blocks decode to (the interpreter's
// dequant_matmul is its matmul of the decoded weights, so within 1e-5).
func TestKQuantGGUF(t *testing.T) {
	builds := map[string]func(uint64, ggufgen.Stored) (*ggufgen.Model, error){
		"llama": ggufgen.LlamaStored, "qwen3next": ggufgen.Qwen3NextStored,
	}
	for name, build := range builds {
		for _, f := range []gguf.Format{gguf.Q4_K, gguf.Q5_K, gguf.Q6_K, gguf.Q2_K, gguf.Q3_K, gguf.Q4_1, gguf.Q5_0, gguf.Q5_1, gguf.IQ4_NL, gguf.IQ4_XS, gguf.MXFP4} {
			t.Run(name+"_"+f.String(), func(t *testing.T) {
				dir := t.TempDir()
				imp := func(decoded bool) (*Model, *ggufgen.Model) {
					m, err := build(3, ggufgen.Stored{Format: f, Decoded: decoded})
					if err != nil {
						t.Fatal(err)
					}
					path := filepath.Join(dir, "blocks.gguf")
					if decoded {
						path = filepath.Join(dir, "decoded.gguf")
					}
					if err := m.W.WriteFile(path); err != nil {
						t.Fatal(err)
					}
					got, err := ImportGGUF(newContext(), path, Options{MaxTokens: 8})
					if err != nil {
						t.Fatal(err)
					}
					t.Cleanup(func() { got.Source.Close() })
					return got, m
				}
				blocks, m := imp(false)
				decoded, _ := imp(true)
				want := `format = "` + f.String() + `"`
				if n := strings.Count(printed(t, blocks.Module), want); n != m.Reads {
					t.Errorf("%d dequant_matmuls read %s, want %d", n, want, m.Reads)
				}
				if strings.Contains(printed(t, decoded.Module), "dequant_matmul") {
					t.Error("the decoded file's module reads blocks")
				}
				tokens := []int{1, 5, 9, 2}
				got := decodeModule(t, blocks.Module, blocks.Source, tokens)
				ref := decodeModule(t, decoded.Module, decoded.Source, tokens)
				if rel, bad := agreement(got, ref); rel > 1e-5 || len(bad) > 0 {
					t.Errorf("max |Δ| / max |logit| = %.3g against the decoded file (tolerance 1e-5), arg-max differs at %v", rel, bad)
				}
			})
		}
	}
}

// printed is op's text.
func printed(t *testing.T, op *ir.Operation) string {
	t.Helper()
	var b strings.Builder
	if err := ir.Print(&b, op, ir.PrintOptions{}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
