package importer

import (
	"encoding/binary"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/passes/q6kcolumns"
	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// q6kGGUF builds a GGUF of random tensors, q6_k or f32, for the columns
// tests.
type q6kGGUF struct {
	t   *testing.T
	rng *tensor.RNG
	w   gguf.Writer
}

// add adds a tensor of shape (row-major, the last dim contiguous), q6_k
// when q.
func (b *q6kGGUF) add(name string, q bool, shape ...int) {
	n := 1
	for _, d := range shape {
		n *= d
	}
	x, err := b.rng.Uniform(tensor.F32, []int{n}, -0.1, 0.1)
	if err != nil {
		b.t.Fatal(err)
	}
	typ, data := gguf.TypeF32, make([]byte, 4*n)
	for i, v := range x.Floats() {
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(v))
	}
	if q {
		if data, err = gguf.Quantize(gguf.Q6_K, x.Floats(), n/shape[len(shape)-1], shape[len(shape)-1]); err != nil {
			b.t.Fatal(err)
		}
		typ = gguf.TypeQ6_K
	}
	if err := b.w.AddTensor(name, typ, shape, data); err != nil {
		b.t.Fatal(err)
	}
}

// compare writes the file, imports it with and without
// Options.Q6KColumns, checks that the columns module reads every q6_k
// dequant_matmul (reads of them, one per chosen expert) as q6_k_c16 and
// the plain one as q6_k, that the two decode tokens to the same logits
// bit for bit, also split by hybrid-split, and that the q6k-columns pass
// makes the plain module the columns one.
func (b *q6kGGUF) compare(reads, vocab int, tokens []int) {
	t := b.t
	path := filepath.Join(t.TempDir(), "q6k.gguf")
	if err := b.w.WriteFile(path); err != nil {
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
	m, err := ImportGGUF(newContext(), path, Options{MaxTokens: 8, Q6KColumns: true})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Source.Close()
	if _, err := checkSplit(t, m, tokens); err != nil {
		t.Errorf("hybrid-split of the columns module: %v", err)
	}
}

// TestQ6KColumns imports a one-layer llama GGUF whose projections are q6_k
// with and without Options.Q6KColumns: the columns module reads them as
// q6_k_c16 (the binder rearranges the blocks at load) and decodes the same
// logits bit for bit.
func TestQ6KColumns(t *testing.T) {
	const hidden, ffn, vocab, heads, kvHeads = 256, 512, 16, 2, 1
	b := &q6kGGUF{t: t, rng: tensor.NewRNG(5)}
	w := &b.w
	w.Add("general.architecture", "llama")
	w.Add("llama.embedding_length", uint32(hidden))
	w.Add("llama.block_count", uint32(1))
	w.Add("llama.attention.head_count", uint32(heads))
	w.Add("llama.attention.head_count_kv", uint32(kvHeads))
	w.Add("llama.feed_forward_length", uint32(ffn))
	w.Add("llama.attention.layer_norm_rms_epsilon", float32(1e-5))
	kv := kvHeads * hidden / heads
	b.add("token_embd.weight", false, vocab, hidden)
	b.add("blk.0.attn_norm.weight", false, hidden)
	b.add("blk.0.attn_q.weight", true, hidden, hidden)
	b.add("blk.0.attn_k.weight", true, kv, hidden)
	b.add("blk.0.attn_v.weight", true, kv, hidden)
	b.add("blk.0.attn_output.weight", true, hidden, hidden)
	b.add("blk.0.ffn_norm.weight", false, hidden)
	b.add("blk.0.ffn_gate.weight", true, ffn, hidden)
	b.add("blk.0.ffn_up.weight", true, ffn, hidden)
	b.add("blk.0.ffn_down.weight", true, hidden, ffn)
	b.add("output_norm.weight", false, hidden)
	b.add("output.weight", true, vocab, hidden)
	b.compare(8, vocab, []int{3, 1, 4, 1, 5})
}

// TestQ6KColumnsExperts does the same for a one-layer Qwen3-Next GGUF (its
// one layer full attention) whose experts are q6_k stacks: each chosen
// expert's dequant_matmul reads q6_k_c16, the binder rearranges the stacks
// expert by expert, and the logits are the q6_k module's bit for bit.
func TestQ6KColumnsExperts(t *testing.T) {
	const hidden, heads, kvHeads, headDim, experts, moeFFN, vocab = 256, 2, 1, 128, 4, 256, 16
	b := &q6kGGUF{t: t, rng: tensor.NewRNG(6)}
	w := &b.w
	key := func(k string) string { return "qwen3next." + k }
	w.Add("general.architecture", "qwen3next")
	for k, v := range map[string]uint32{
		"embedding_length": hidden, "block_count": 1, "feed_forward_length": moeFFN,
		"attention.head_count": heads, "attention.head_count_kv": kvHeads,
		"attention.key_length": headDim, "attention.value_length": headDim, "rope.dimension_count": 64,
		"ssm.conv_kernel": 4, "ssm.state_size": 128, "ssm.group_count": 1, "ssm.time_step_rank": 1,
		"ssm.inner_size": 128, "full_attention_interval": 1,
		"expert_count": experts, "expert_used_count": 2,
		"expert_feed_forward_length": moeFFN, "expert_shared_feed_forward_length": moeFFN,
	} {
		w.Add(key(k), v)
	}
	w.Add(key("attention.layer_norm_rms_epsilon"), float32(1e-6))
	b.add("token_embd.weight", false, vocab, hidden)
	b.add("blk.0.attn_norm.weight", false, hidden)
	b.add("blk.0.attn_q.weight", true, heads*2*headDim, hidden)
	b.add("blk.0.attn_k.weight", true, kvHeads*headDim, hidden)
	b.add("blk.0.attn_v.weight", true, kvHeads*headDim, hidden)
	b.add("blk.0.attn_output.weight", true, hidden, heads*headDim)
	b.add("blk.0.attn_q_norm.weight", false, headDim)
	b.add("blk.0.attn_k_norm.weight", false, headDim)
	b.add("blk.0.post_attention_norm.weight", false, hidden)
	b.add("blk.0.ffn_gate_inp.weight", false, experts, hidden)
	b.add("blk.0.ffn_gate_exps.weight", true, experts, moeFFN, hidden)
	b.add("blk.0.ffn_up_exps.weight", true, experts, moeFFN, hidden)
	b.add("blk.0.ffn_down_exps.weight", true, experts, hidden, moeFFN)
	b.add("blk.0.ffn_gate_shexp.weight", true, moeFFN, hidden)
	b.add("blk.0.ffn_up_shexp.weight", true, moeFFN, hidden)
	b.add("blk.0.ffn_down_shexp.weight", true, hidden, moeFFN)
	b.add("blk.0.ffn_gate_inp_shexp.weight", false, hidden)
	b.add("output_norm.weight", false, hidden)
	b.add("output.weight", true, vocab, hidden)
	// 8 dense reads (q, k, v, o, the shared expert's three, the head) and
	// 2 chosen experts × 3 projections.
	b.compare(8+6, vocab, []int{3, 1, 4, 1, 5, 9, 2})
}
