package importer

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// lfm2Config is a tiny LFM2 config as transformers writes it: short
// convolutions (window 3) in layers 0 and 2, attention in 1 and 3, the
// MLP's width auto-adjusted from 96 to 64.
var lfm2Config = map[string]any{
	"architectures": []string{"Lfm2ForCausalLM"}, "model_type": "lfm2", "vocab_size": 256, "hidden_size": 64,
	"intermediate_size": 96, "num_hidden_layers": 4, "num_attention_heads": 4, "num_key_value_heads": 2,
	"max_position_embeddings": 512, "norm_eps": 1e-5, "conv_L_cache": 3, "conv_bias": false,
	"layer_types":              []string{"conv", "full_attention", "conv", "full_attention"},
	"block_auto_adjust_ff_dim": true, "block_multiple_of": 32, "block_ffn_dim_multiplier": 1.0,
	"tie_word_embeddings": true, "rope_parameters": map[string]any{"rope_type": "default", "rope_theta": 1e6},
}

// drawn is one tensor of a drawn checkpoint: N(base, std) elements.
type drawn struct {
	name      string
	base, std float64
	shape     []int
}

// drawCheckpoint writes config and tensors drawn as listed (seeded) into
// a new directory: a checkpoint of an architecture no fixture has.
func drawCheckpoint(t testing.TB, config map[string]any, tensors []drawn) string {
	t.Helper()
	dir := t.TempDir()
	writeConfig(t, dir, config)
	rng := rand.New(rand.NewPCG(61, 2))
	st := &tensor.Safetensors{Tensors: map[string]*tensor.Tensor{}}
	for _, d := range tensors {
		n := 1
		for _, k := range d.shape {
			n *= k
		}
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(d.base + d.std*rng.NormFloat64())
		}
		var err error
		if st.Tensors[d.name], err = tensor.FromFloat32(tensor.F32, d.shape, v); err != nil {
			t.Fatal(err)
		}
	}
	writeSafetensors(t, filepath.Join(dir, "model.safetensors"), st)
	return dir
}

// writeLfm2 writes a checkpoint of lfm2Config with weights drawn N(0,
// 0.08) (norms about 1, the conv taps N(0, 0.3)) into a new directory.
func writeLfm2(t *testing.T) string {
	t.Helper()
	return drawCheckpoint(t, lfm2Config, lfm2Tensors())
}

// lfm2Tensors are writeLfm2's tensors.
func lfm2Tensors() []drawn {
	ts := []drawn{{"model.embed_tokens.weight", 0, 0.08, []int{256, 64}}, {"model.embedding_norm.weight", 1, 0.08, []int{64}}}
	for l, kind := range []string{"conv", "attn", "conv", "attn"} {
		p := fmt.Sprintf("model.layers.%d.", l)
		ts = append(ts, drawn{p + "operator_norm.weight", 1, 0.08, []int{64}}, drawn{p + "ffn_norm.weight", 1, 0.08, []int{64}},
			drawn{p + "feed_forward.w1.weight", 0, 0.08, []int{64, 64}}, drawn{p + "feed_forward.w3.weight", 0, 0.08, []int{64, 64}},
			drawn{p + "feed_forward.w2.weight", 0, 0.08, []int{64, 64}})
		if kind == "conv" {
			ts = append(ts, drawn{p + "conv.in_proj.weight", 0, 0.08, []int{192, 64}}, drawn{p + "conv.conv.weight", 0, 0.3, []int{64, 1, 3}},
				drawn{p + "conv.out_proj.weight", 0, 0.08, []int{64, 64}})
			continue
		}
		ts = append(ts, drawn{p + "self_attn.q_proj.weight", 0, 0.08, []int{64, 64}}, drawn{p + "self_attn.k_proj.weight", 0, 0.08, []int{32, 64}},
			drawn{p + "self_attn.v_proj.weight", 0, 0.08, []int{32, 64}}, drawn{p + "self_attn.out_proj.weight", 0, 0.08, []int{64, 64}},
			drawn{p + "self_attn.q_layernorm.weight", 1, 0.08, []int{16}}, drawn{p + "self_attn.k_layernorm.weight", 1, 0.08, []int{16}})
	}
	return ts
}

// writeLfm2MoE writes an LFM2-MoE checkpoint (LFM2-8B-A1B's layout) of
// lfm2Config's layers: layer 0's MLP dense (64 rows), the others 8
// experts of 32 rows, one tensor per expert as published (w1 the gate,
// w3 up, w2 down), chosen by σ(logit) (+ expert_bias under bias), top 2,
// renormalised, × scale.
func writeLfm2MoE(t testing.TB, bias bool, scale float64) string {
	t.Helper()
	cfg := maps.Clone(lfm2Config)
	for _, k := range []string{"block_auto_adjust_ff_dim", "block_multiple_of", "block_ffn_dim_multiplier"} {
		delete(cfg, k)
	}
	maps.Copy(cfg, map[string]any{"architectures": []string{"Lfm2MoeForCausalLM"}, "model_type": "lfm2_moe", "intermediate_size": 64,
		"moe_intermediate_size": 32, "num_dense_layers": 1, "num_experts": 8, "num_experts_per_tok": 2, "use_expert_bias": bias,
		"routed_scaling_factor": scale, "norm_topk_prob": true})
	var ts []drawn
	for _, d := range lfm2Tensors() {
		l, _ := strconv.Atoi(strings.Split(d.name+"..", ".")[2])
		if l == 0 || !strings.Contains(d.name, ".feed_forward.") {
			ts = append(ts, d)
		}
	}
	for l := 1; l < 4; l++ {
		f := fmt.Sprintf("model.layers.%d.feed_forward.", l)
		ts = append(ts, drawn{f + "gate.weight", 0, 0.3, []int{8, 64}})
		if bias {
			ts = append(ts, drawn{f + "expert_bias", 0, 0.1, []int{8}})
		}
		for e := range 8 {
			p := fmt.Sprintf("%sexperts.%d.", f, e)
			ts = append(ts, drawn{p + "w1.weight", 0, 0.15, []int{32, 64}}, drawn{p + "w3.weight", 0, 0.15, []int{32, 64}},
				drawn{p + "w2.weight", 0, 0.15, []int{64, 32}})
		}
	}
	return drawCheckpoint(t, cfg, ts)
}

// TestLfm2MoE: drawn LFM2-MoE checkpoints (with and without the expert
// bias, routed_scaling_factor 1.5) decode as the oracle does, reading
// every tensor; their GGUF form (llama.cpp's lfm2moe: the experts
// stacked, leading_dense_block_count, sigmoid gating, which llama.cpp
// never scales, so at routed_scaling_factor 1) the same, F32 and Q8_0.
func TestLfm2MoE(t *testing.T) {
	tokens := []int{1, 17, 42, 200, 5, 99, 255, 128, 3, 64, 7, 31}
	for _, bias := range []bool{true, false} {
		t.Run(fmt.Sprintf("bias %v", bias), func(t *testing.T) {
			scaled := writeLfm2MoE(t, bias, 1.5)
			_, m := importAndCheck(t, scaled, tokens)
			if m.Arch != "Lfm2MoeForCausalLM" {
				t.Errorf("arch %q", m.Arch)
			}
			// The oracle takes these from the spec: they are checked here.
			s, err := specFromConfig(scaled, 16)
			if err != nil {
				t.Fatal(err)
			}
			if s.routedScale != 1.5 || s.noSelectBias == bias || s.routeEps != 1e-6 || !s.normTopK || !s.sigmoidRouter || s.ffn != 64 ||
				s.moeFFN != 32 || s.experts != 8 || s.topK != 2 || !slices.Equal(s.moeLayer, []bool{false, true, true, true}) {
				t.Errorf("spec: %+v", s)
			}
			dir := writeLfm2MoE(t, bias, 1)
			want, _ := importAndCheck(t, dir, tokens)
			checkGGUFForms(t, dir, tokens, want)
		})
	}
}

// TestLfm2: an LFM2 checkpoint decodes as the oracle does (its short
// convolutions' state carried over twelve tokens), reading every
// tensor, and its GGUF form (llama.cpp's lfm2: head_count_kv 0 for the
// convolution layers, shortconv.l_cache, token_embd_norm) decodes the
// same, in F32 and, against its dequantised weights, in Q8_0.
func TestLfm2(t *testing.T) {
	dir := writeLfm2(t)
	tokens := []int{1, 17, 42, 200, 5, 99, 255, 128, 3, 64, 7, 31}
	want, m := importAndCheck(t, dir, tokens)
	if m.Arch != "Lfm2ForCausalLM" {
		t.Errorf("arch %q", m.Arch)
	}
	s, err := specFromConfig(dir, 16)
	if err != nil {
		t.Fatal(err)
	}
	if s.ffn != 64 || s.shortConv != 3 || !s.tied || s.eps != 1e-5 {
		t.Errorf("spec: ffn %d, window %d, tied %v, eps %g", s.ffn, s.shortConv, s.tied, s.eps)
	}
	checkGGUFForms(t, dir, tokens, want)
}

// checkGGUFForms converts the checkpoint in dir to GGUF as llama.cpp's
// converter does and decodes tokens: the F32 file within 1e-5 of want
// (the safetensors' logits) with the same arg-max, the Q8_0 file within
// 1e-5 of the F32 file of its dequantised weights.
func checkGGUFForms(t *testing.T, dir string, tokens []int, want *tensor.Tensor) {
	t.Helper()
	got, _ := decodeGGUF(t, editKV(t, convertToGGUF(t, dir, 0, false), nil), tokens)
	if rel, bad := agreement(got, want); rel > 1e-5 || len(bad) > 0 {
		t.Errorf("F32 GGUF against safetensors: %.3g (tolerance 1e-5), arg-max differs at %v", rel, bad)
	}
	q8, _ := decodeGGUF(t, editKV(t, convertToGGUF(t, dir, gguf.Q8_0, false), nil), tokens)
	dq, _ := decodeGGUF(t, editKV(t, convertToGGUF(t, dir, gguf.Q8_0, true), nil), tokens)
	if rel, _ := agreement(q8, dq); rel > 1e-5 {
		t.Errorf("Q8_0 GGUF against its dequantised weights: %.3g (tolerance 1e-5)", rel)
	}
}

// lfm28BA1BConfig is LFM2-8B-A1B's config.json as a public copy gives it
// (trimmed there).
const lfm28BA1BConfig = `{"architectures": ["Lfm2MoeForCausalLM"], "model_type": "lfm2_moe", "vocab_size": 65536, "hidden_size": 2048,
  "intermediate_size": 7168, "moe_intermediate_size": 1792, "num_hidden_layers": 24, "num_attention_heads": 32,
  "num_key_value_heads": 8, "max_position_embeddings": 128000, "norm_eps": 1e-05, "conv_bias": false, "conv_L_cache": 3,
  "rope_theta": 1000000.0, "num_dense_layers": 2, "num_experts": 32, "num_experts_per_tok": 4, "norm_topk_prob": true,
  "use_expert_bias": true, "routed_scaling_factor": 1.0, "eos_token_id": 7,
  "layer_types": ["conv", "conv", "full_attention", "conv", "conv", "conv", "full_attention", "conv", "conv", "conv",
    "full_attention", "conv", "conv", "conv", "full_attention", "conv", "conv", "conv", "full_attention", "conv", "conv",
    "full_attention", "conv", "conv"]}`

// TestLfm2MoEPublishedConfig reads LFM2-8B-A1B's config: 6 attention and
// 18 convolution layers, the first 2 MLPs dense (7168 rows), 32 experts
// (top 4) of 1792 elsewhere, the expert bias.
func TestLfm2MoEPublishedConfig(t *testing.T) {
	s, err := specOf(t, lfm28BA1BConfig)
	if err != nil {
		t.Fatal(err)
	}
	attends := 0
	for _, k := range s.layerTypes {
		if k == fullAttention {
			attends++
		}
	}
	if attends != 6 || s.ffn != 7168 || s.moeFFN != 1792 || s.experts != 32 || s.topK != 4 || s.noSelectBias || s.moeLayer[1] || !s.moeLayer[2] ||
		s.kvHeads != 8 || s.theta != 1e6 || !s.tied {
		t.Errorf("spec: %+v", s)
	}
}
