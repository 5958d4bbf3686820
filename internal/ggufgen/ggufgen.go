package ggufgen

import (
	"encoding/binary"
	"math"

	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// Model is a built checkpoint.
type Model struct {
	W     gguf.Writer
	Vocab int
	// Reads is how many graph.dequant_matmuls an import reads the
	// quantised matrices with: one per dense projection, one per chosen
	// expert and projection.
	Reads int
}

// Stored is how a model's quantised tensors are stored: as blocks of
// Format (q6_k where zero), or with Decoded as F32 tensors of the values
// those blocks decode to (the same model, read without a kernel).
type Stored struct {
	Format  gguf.Format
	Decoded bool
}

// builder adds tensors of values uniform in [−0.1, 0.1].
type builder struct {
	m   *Model
	rng *tensor.RNG
	st  Stored
	err error
}

func newBuilder(m *Model, seed uint64, st Stored) *builder {
	if st.Format == 0 {
		st.Format = gguf.Q6_K
	}
	return &builder{m: m, rng: tensor.NewRNG(seed), st: st}
}

// add adds a tensor of shape (row-major, the last dim contiguous),
// quantised as b.st says when q.
func (b *builder) add(name string, q bool, shape ...int) {
	if b.err != nil {
		return
	}
	n := 1
	for _, d := range shape {
		n *= d
	}
	x, err := b.rng.Uniform(tensor.F32, []int{n}, -0.1, 0.1)
	if err != nil {
		b.err = err
		return
	}
	v := x.Floats()
	typ := gguf.TypeF32
	if q {
		rows, k := n/shape[len(shape)-1], shape[len(shape)-1]
		data, err := gguf.Quantize(b.st.Format, v, rows, k)
		if err == nil && b.st.Decoded {
			v, err = gguf.Dequantize(b.st.Format, data, rows, k)
		}
		if err != nil {
			b.err = err
			return
		}
		if !b.st.Decoded {
			b.err = b.m.W.AddTensor(name, gguf.TypeOf(b.st.Format), shape, data)
			return
		}
	}
	data := make([]byte, 4*n)
	for i, f := range v {
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(f))
	}
	b.err = b.m.W.AddTensor(name, typ, shape, data)
}

// Llama returns a one-layer Llama (hidden 256, 2 heads on 1 KV head, an
// MLP of 512, vocabulary 16) whose eight projections are q6_k.
func Llama(seed uint64) (*Model, error) { return LlamaStored(seed, Stored{}) }

// LlamaStored is Llama with its projections stored as st says.
func LlamaStored(seed uint64, st Stored) (*Model, error) {
	const hidden, ffn, vocab, heads, kvHeads = 256, 512, 16, 2, 1
	b := newBuilder(&Model{Vocab: vocab, Reads: 8}, seed, st)
	w := &b.m.W
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
	return b.m, b.err
}

// Qwen3Next returns a one-layer Qwen3-Next (full_attention_interval 1, so
// its layer is gated attention; hidden 256, 2 heads of 128 on 1 KV head,
// 4 experts of 256 with 2 chosen, a shared expert of 256, vocabulary 16)
// whose projections and expert stacks are q6_k.
func Qwen3Next(seed uint64) (*Model, error) { return Qwen3NextStored(seed, Stored{}) }

// Qwen3NextStored is Qwen3Next with its projections and expert stacks
// stored as st says.
func Qwen3NextStored(seed uint64, st Stored) (*Model, error) {
	const hidden, heads, kvHeads, headDim, experts, moeFFN, vocab = 256, 2, 1, 128, 4, 256, 16
	// 8 dense reads (q, k, v, o, the shared expert's three, the head) and
	// 2 chosen experts × 3 projections.
	b := newBuilder(&Model{Vocab: vocab, Reads: 8 + 6}, seed, st)
	w := &b.m.W
	w.Add("general.architecture", "qwen3next")
	for _, kv := range []struct {
		k string
		v uint32
	}{
		{"embedding_length", hidden}, {"block_count", 1}, {"feed_forward_length", moeFFN},
		{"attention.head_count", heads}, {"attention.head_count_kv", kvHeads},
		{"attention.key_length", headDim}, {"attention.value_length", headDim}, {"rope.dimension_count", 64},
		{"ssm.conv_kernel", 4}, {"ssm.state_size", 128}, {"ssm.group_count", 1}, {"ssm.time_step_rank", 1},
		{"ssm.inner_size", 128}, {"full_attention_interval", 1},
		{"expert_count", experts}, {"expert_used_count", 2},
		{"expert_feed_forward_length", moeFFN}, {"expert_shared_feed_forward_length", moeFFN},
	} {
		w.Add("qwen3next."+kv.k, kv.v)
	}
	w.Add("qwen3next.attention.layer_norm_rms_epsilon", float32(1e-6))
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
	return b.m, b.err
}
