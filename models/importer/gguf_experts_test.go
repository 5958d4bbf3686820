package importer

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// TestGGUFPerExpertMixtral: a Mixtral GGUF file in llama.cpp's older
// layout, one tensor an expert (blk.N.ffn_gate.E.weight, as TheBloke's
// Mixtral files hold them), decodes bit for bit as the same file with
// the experts stacked (blk.N.ffn_gate_exps.weight), in F32 and in Q8_0,
// and reads every tensor.
func TestGGUFPerExpertMixtral(t *testing.T) {
	f := loadFixture(t, "mixtral")
	for _, format := range []gguf.Format{0, gguf.Q8_0} {
		data := convertToGGUF(t, f.dir, format, false)
		decode := func(path string) *tensor.Tensor {
			t.Helper()
			logits, unused := decodeGGUF(t, path, f.Tokens)
			if len(unused) > 0 {
				t.Errorf("%v: unread tensors %v", format, unused)
			}
			return logits
		}
		stacked := decode(editKV(t, data, nil))
		split, n := splitExperts(t, data)
		if n == 0 {
			t.Fatalf("%v: the file has no stacked experts to split", format)
		}
		if got := decode(split); !tensor.BitsEqual(got, stacked) {
			rel, _ := agreement(got, stacked)
			t.Errorf("%v: per-expert tensors decode %.3g from the stacked ones (max |Δ| / max |logit|), want bit-identical", format, rel)
		}
	}
}

// splitExperts rewrites the GGUF file data with each stacked expert
// tensor blk.N.ffn_X_exps.weight as one tensor an expert,
// blk.N.ffn_X.E.weight; it returns the path and how many it split.
func splitExperts(t *testing.T, data []byte) (string, int) {
	t.Helper()
	exps := regexp.MustCompile(`^(blk\.\d+\.ffn_(?:gate|up|down))_exps\.weight$`)
	split := 0
	path := rewriteGGUF(t, data, nil, func(w *gguf.Writer, name string, info *gguf.TensorInfo, b []byte) {
		shape := info.Shape()
		m := exps.FindStringSubmatch(name)
		if m == nil {
			if err := w.AddTensor(name, info.Type, shape, b); err != nil {
				t.Fatal(err)
			}
			return
		}
		split++
		size := len(b) / shape[0]
		for e := range shape[0] {
			if err := w.AddTensor(fmt.Sprintf("%s.%d.weight", m[1], e), info.Type, shape[1:], b[e*size:(e+1)*size]); err != nil {
				t.Fatal(err)
			}
		}
	})
	return path, split
}

// decodeHF imports the checkpoint directory dir and decodes tokens; it
// returns the logits and the tensors the module does not read.
func decodeHF(t *testing.T, dir string, tokens []int) (*tensor.Tensor, []string) {
	t.Helper()
	m, err := ImportHF(newContext(), dir, Options{MaxTokens: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Source.Close()
	return decodeModule(t, m.Module, m.Source, tokens), m.Unused
}

// decodeGGUF imports the GGUF file at path and decodes tokens; it
// returns the logits and the tensors the module does not read.
func decodeGGUF(t *testing.T, path string, tokens []int) (*tensor.Tensor, []string) {
	t.Helper()
	m, err := ImportGGUF(newContext(), path, Options{MaxTokens: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Source.Close()
	return decodeModule(t, m.Module, m.Source, tokens), m.Unused
}
