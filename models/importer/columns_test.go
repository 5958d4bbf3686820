package importer

import (
	"encoding/binary"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// TestQ6KColumns imports a one-layer llama GGUF whose projections are q6_k
// with and without Options.Q6KColumns: the columns module reads them as
// q6_k_c16 (the binder rearranges the blocks at load) and decodes the same
// logits bit for bit.
func TestQ6KColumns(t *testing.T) {
	const hidden, ffn, vocab, heads, kvHeads = 256, 512, 16, 2, 1
	rng := tensor.NewRNG(5)
	var w gguf.Writer
	w.Add("general.architecture", "llama")
	w.Add("llama.embedding_length", uint32(hidden))
	w.Add("llama.block_count", uint32(1))
	w.Add("llama.attention.head_count", uint32(heads))
	w.Add("llama.attention.head_count_kv", uint32(kvHeads))
	w.Add("llama.feed_forward_length", uint32(ffn))
	w.Add("llama.attention.layer_norm_rms_epsilon", float32(1e-5))
	add := func(name string, q bool, shape ...int) {
		n := 1
		for _, d := range shape {
			n *= d
		}
		x, err := rng.Uniform(tensor.F32, []int{n}, -0.1, 0.1)
		if err != nil {
			t.Fatal(err)
		}
		typ, data := gguf.TypeF32, make([]byte, 4*n)
		for i, v := range x.Floats() {
			binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(v))
		}
		if q {
			if data, err = gguf.Quantize(gguf.Q6_K, x.Floats(), n/shape[len(shape)-1], shape[len(shape)-1]); err != nil {
				t.Fatal(err)
			}
			typ = gguf.TypeQ6_K
		}
		if err := w.AddTensor(name, typ, shape, data); err != nil {
			t.Fatal(err)
		}
	}
	kv := kvHeads * hidden / heads
	add("token_embd.weight", false, vocab, hidden)
	add("blk.0.attn_norm.weight", false, hidden)
	add("blk.0.attn_q.weight", true, hidden, hidden)
	add("blk.0.attn_k.weight", true, kv, hidden)
	add("blk.0.attn_v.weight", true, kv, hidden)
	add("blk.0.attn_output.weight", true, hidden, hidden)
	add("blk.0.ffn_norm.weight", false, hidden)
	add("blk.0.ffn_gate.weight", true, ffn, hidden)
	add("blk.0.ffn_up.weight", true, ffn, hidden)
	add("blk.0.ffn_down.weight", true, hidden, ffn)
	add("output_norm.weight", false, hidden)
	add("output.weight", true, vocab, hidden)
	path := filepath.Join(t.TempDir(), "q6k.gguf")
	if err := w.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	tokens := []int{3, 1, 4, 1, 5}
	run := func(columns bool) (string, *tensor.Tensor) {
		m, err := ImportGGUF(newContext(), path, Options{MaxTokens: 8, Q6KColumns: columns})
		if err != nil {
			t.Fatal(err)
		}
		defer m.Source.Close()
		var text strings.Builder
		if err := ir.Print(&text, m.Module, ir.PrintOptions{}); err != nil {
			t.Fatal(err)
		}
		return text.String(), decodeModule(t, m.Module, m.Source, tokens)
	}
	plain, want := run(false)
	cols, got := run(true)
	if n := strings.Count(cols, `format = "q6_k_c16"`); n != 8 || strings.Contains(cols, `format = "q6_k"`) {
		t.Errorf("the columns module reads %d projections as q6_k_c16, want all 8", n)
	}
	if n := strings.Count(plain, `format = "q6_k"`); n != 8 {
		t.Errorf("the plain module reads %d projections as q6_k, want 8", n)
	}
	g, wv := got.Floats(), want.Floats()
	for i := range wv {
		if math.Float32bits(g[i]) != math.Float32bits(wv[i]) {
			t.Fatalf("logit %d: %g with q6_k_c16, %g with q6_k", i, g[i], wv[i])
		}
	}
	if len(wv) != len(tokens)*vocab {
		t.Fatalf("%d logits, want %d", len(wv), len(tokens)*vocab)
	}
}
