package importer

import (
	"fmt"
	"maps"
	"math"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/gguf"
)

// This file checks the LayerNorm families of stop 62 on drawn
// checkpoints against the oracle (rlx's own float64 reading of
// transformers' modeling code), and their GGUF forms against the
// safetensors: Phi-2, StableLM 2 (with and without per-head q/k norms
// and the parallel residual), GPT-NeoX (parallel and sequential),
// Nemotron and Command R+ (Cohere's per-head q/k LayerNorms).

// layerNormModel is a tiny checkpoint of those families: a config (the
// architecture's own fields added to the sizes below) and its tensors.
type layerNormModel struct {
	arch, modelType string
	fields          map[string]any
	prefix          string // the layers' prefix ("model.layers.")
	tensors         func(p string) []drawn
	top             []drawn // embedding, head, final norm
}

const (
	lnHidden, lnFFN, lnHeads, lnKV, lnHeadDim, lnVocab, lnLayers = 64, 96, 4, 2, 16, 256, 2
)

func (m layerNormModel) config() map[string]any {
	c := map[string]any{
		"architectures": []string{m.arch}, "model_type": m.modelType, "vocab_size": lnVocab, "hidden_size": lnHidden,
		"intermediate_size": lnFFN, "num_hidden_layers": lnLayers, "num_attention_heads": lnHeads,
		"max_position_embeddings": 512, "tie_word_embeddings": false,
	}
	maps.Copy(c, m.fields)
	return c
}

func (m layerNormModel) draw(t testing.TB) string {
	ts := append([]drawn(nil), m.top...)
	for l := range lnLayers {
		ts = append(ts, m.tensors(fmt.Sprintf("%s%d.", m.prefix, l))...)
	}
	return drawCheckpoint(t, m.config(), ts)
}

// linearOf is a projection's weight and, with bias, its bias.
func linearOf(name string, out, in int, bias bool) []drawn {
	ts := []drawn{{name + ".weight", 0, 0.08, []int{out, in}}}
	if bias {
		ts = append(ts, drawn{name + ".bias", 0, 0.08, []int{out}})
	}
	return ts
}

// layerNormOf is a LayerNorm's weight (around base) and bias.
func layerNormOf(name string, base float64) []drawn {
	return []drawn{{name + ".weight", base, 0.08, []int{lnHidden}}, {name + ".bias", 0, 0.08, []int{lnHidden}}}
}

func concatDrawn(parts ...[]drawn) []drawn {
	var out []drawn
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

var lnTokens = []int{1, 17, 42, 200, 5, 99, 255, 128}

func phi2Model() layerNormModel {
	return layerNormModel{
		arch: "PhiForCausalLM", modelType: "phi", prefix: "model.layers.",
		fields: map[string]any{"num_key_value_heads": lnKV, "layer_norm_eps": 1e-5, "hidden_act": "gelu_new", "qk_layernorm": false,
			"resid_pdrop": 0.0, "embd_pdrop": 0.0, "attention_dropout": 0.0,
			"rope_parameters": map[string]any{"rope_type": "default", "rope_theta": 1e4, "partial_rotary_factor": 0.5}},
		top: concatDrawn([]drawn{{"model.embed_tokens.weight", 0, 0.08, []int{lnVocab, lnHidden}}},
			linearOf("lm_head", lnVocab, lnHidden, true), layerNormOf("model.final_layernorm", 1)),
		tensors: func(p string) []drawn {
			return concatDrawn(layerNormOf(p+"input_layernorm", 1),
				linearOf(p+"self_attn.q_proj", lnHeads*lnHeadDim, lnHidden, true), linearOf(p+"self_attn.k_proj", lnKV*lnHeadDim, lnHidden, true),
				linearOf(p+"self_attn.v_proj", lnKV*lnHeadDim, lnHidden, true), linearOf(p+"self_attn.dense", lnHidden, lnHeads*lnHeadDim, true),
				linearOf(p+"mlp.fc1", lnFFN, lnHidden, true), linearOf(p+"mlp.fc2", lnHidden, lnFFN, true))
		},
	}
}

func stableLMModel(qkNorm, parallel bool) layerNormModel {
	return layerNormModel{
		arch: "StableLmForCausalLM", modelType: "stablelm", prefix: "model.layers.",
		fields: map[string]any{"num_key_value_heads": lnKV, "layer_norm_eps": 1e-5, "hidden_act": "silu", "use_qkv_bias": !qkNorm,
			"qk_layernorm": qkNorm, "use_parallel_residual": parallel, "hidden_dropout": 0.0, "attention_dropout": 0.0,
			"rope_parameters": map[string]any{"rope_type": "default", "rope_theta": 1e4, "partial_rotary_factor": 0.25}},
		top: concatDrawn([]drawn{{"model.embed_tokens.weight", 0, 0.08, []int{lnVocab, lnHidden}}},
			linearOf("lm_head", lnVocab, lnHidden, false), layerNormOf("model.norm", 1)),
		tensors: func(p string) []drawn {
			ts := concatDrawn(layerNormOf(p+"input_layernorm", 1),
				linearOf(p+"self_attn.q_proj", lnHeads*lnHeadDim, lnHidden, !qkNorm), linearOf(p+"self_attn.k_proj", lnKV*lnHeadDim, lnHidden, !qkNorm),
				linearOf(p+"self_attn.v_proj", lnKV*lnHeadDim, lnHidden, !qkNorm), linearOf(p+"self_attn.o_proj", lnHidden, lnHeads*lnHeadDim, false),
				linearOf(p+"mlp.gate_proj", lnFFN, lnHidden, false), linearOf(p+"mlp.up_proj", lnFFN, lnHidden, false),
				linearOf(p+"mlp.down_proj", lnHidden, lnFFN, false))
			if !parallel {
				ts = append(ts, layerNormOf(p+"post_attention_layernorm", 1)...)
			}
			if qkNorm {
				for h := range lnHeads {
					ts = append(ts, drawn{fmt.Sprintf("%sself_attn.q_layernorm.norms.%d.weight", p, h), 1, 0.08, []int{lnHeadDim}})
				}
				for h := range lnKV {
					ts = append(ts, drawn{fmt.Sprintf("%sself_attn.k_layernorm.norms.%d.weight", p, h), 1, 0.08, []int{lnHeadDim}})
				}
			}
			return ts
		},
	}
}

func gptNeoXModel(parallel bool) layerNormModel {
	return layerNormModel{
		arch: "GPTNeoXForCausalLM", modelType: "gpt_neox", prefix: "gpt_neox.layers.",
		// The first configs' spelling of the rope: rotary_pct and
		// rotary_emb_base.
		fields: map[string]any{"layer_norm_eps": 1e-5, "hidden_act": "gelu", "use_parallel_residual": parallel, "attention_bias": true,
			"rotary_pct": 0.25, "rotary_emb_base": 10000, "hidden_dropout": 0.0, "attention_dropout": 0.0, "classifier_dropout": 0.1},
		top: concatDrawn([]drawn{{"gpt_neox.embed_in.weight", 0, 0.08, []int{lnVocab, lnHidden}}},
			linearOf("embed_out", lnVocab, lnHidden, false), layerNormOf("gpt_neox.final_layer_norm", 1)),
		tensors: func(p string) []drawn {
			return concatDrawn(layerNormOf(p+"input_layernorm", 1), layerNormOf(p+"post_attention_layernorm", 1),
				linearOf(p+"attention.query_key_value", 3*lnHeads*lnHeadDim, lnHidden, true), linearOf(p+"attention.dense", lnHidden, lnHeads*lnHeadDim, true),
				linearOf(p+"mlp.dense_h_to_4h", lnFFN, lnHidden, true), linearOf(p+"mlp.dense_4h_to_h", lnHidden, lnFFN, true))
		},
	}
}

func nemotronModel() layerNormModel {
	return layerNormModel{
		arch: "NemotronForCausalLM", modelType: "nemotron", prefix: "model.layers.",
		fields: map[string]any{"num_key_value_heads": lnKV, "head_dim": lnHeadDim, "norm_eps": 1e-5, "hidden_act": "relu2",
			"attention_bias": true, "mlp_bias": false,
			"rope_parameters": map[string]any{"rope_type": "default", "rope_theta": 1e4, "partial_rotary_factor": 0.5}},
		top: concatDrawn([]drawn{{"model.embed_tokens.weight", 0, 0.08, []int{lnVocab, lnHidden}}},
			linearOf("lm_head", lnVocab, lnHidden, false), layerNormOf("model.norm", 0)),
		tensors: func(p string) []drawn {
			return concatDrawn(layerNormOf(p+"input_layernorm", 0), layerNormOf(p+"post_attention_layernorm", 0),
				linearOf(p+"self_attn.q_proj", lnHeads*lnHeadDim, lnHidden, true), linearOf(p+"self_attn.k_proj", lnKV*lnHeadDim, lnHidden, true),
				linearOf(p+"self_attn.v_proj", lnKV*lnHeadDim, lnHidden, true), linearOf(p+"self_attn.o_proj", lnHidden, lnHeads*lnHeadDim, true),
				linearOf(p+"mlp.up_proj", lnFFN, lnHidden, false), linearOf(p+"mlp.down_proj", lnHidden, lnFFN, false))
		},
	}
}

// commandRPlusModel is Cohere with use_qk_norm (Command R+): per-head
// q/k LayerNorms of [heads, head dim] weights.
func commandRPlusModel() layerNormModel {
	return layerNormModel{
		arch: "CohereForCausalLM", modelType: "cohere", prefix: "model.layers.",
		fields: map[string]any{"num_key_value_heads": lnKV, "layer_norm_eps": 1e-5, "hidden_act": "silu", "use_qk_norm": true,
			"logit_scale": 0.5, "tie_word_embeddings": true, "rope_parameters": map[string]any{"rope_type": "default", "rope_theta": 1e4}},
		top: []drawn{{"model.embed_tokens.weight", 0, 0.08, []int{lnVocab, lnHidden}}, {"model.norm.weight", 1, 0.08, []int{lnHidden}}},
		tensors: func(p string) []drawn {
			return concatDrawn([]drawn{{p + "input_layernorm.weight", 1, 0.08, []int{lnHidden}},
				{p + "self_attn.q_norm.weight", 1, 0.08, []int{lnHeads, lnHeadDim}}, {p + "self_attn.k_norm.weight", 1, 0.08, []int{lnKV, lnHeadDim}}},
				linearOf(p+"self_attn.q_proj", lnHeads*lnHeadDim, lnHidden, false), linearOf(p+"self_attn.k_proj", lnKV*lnHeadDim, lnHidden, false),
				linearOf(p+"self_attn.v_proj", lnKV*lnHeadDim, lnHidden, false), linearOf(p+"self_attn.o_proj", lnHidden, lnHeads*lnHeadDim, false),
				linearOf(p+"mlp.gate_proj", lnFFN, lnHidden, false), linearOf(p+"mlp.up_proj", lnFFN, lnHidden, false),
				linearOf(p+"mlp.down_proj", lnHidden, lnFFN, false))
		},
	}
}

// TestLayerNormFamilies: each drawn checkpoint decodes as the oracle
// does, reading every tensor, and its GGUF form (llama.cpp's phi2,
// stablelm, gptneox, nemotron, command-r) the same in F32 and, against its
// dequantised weights, in Q8_0.
func TestLayerNormFamilies(t *testing.T) {
	for _, c := range []struct {
		name  string
		model layerNormModel
	}{
		{"phi2", phi2Model()},
		{"stablelm", stableLMModel(false, false)},
		{"stablelm_qk_parallel", stableLMModel(true, true)},
		{"gptneox_parallel", gptNeoXModel(true)},
		{"gptneox_sequential", gptNeoXModel(false)},
		{"nemotron", nemotronModel()},
		{"command_r_plus", commandRPlusModel()},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := c.model.draw(t)
			want, _ := importAndCheck(t, dir, lnTokens)
			checkGGUFForms(t, dir, lnTokens, want)
		})
	}
}

// TestPhi2FusedQKV: Phi-2's GGUF files converted from its first
// checkpoint hold attn_qkv [q; k; v] and its bias instead of separate
// tensors; both forms decode alike.
func TestPhi2FusedQKV(t *testing.T) {
	dir := phi2Model().draw(t)
	want, _ := importAndCheck(t, dir, lnTokens)
	held := map[string][]byte{}
	path := rewriteGGUF(t, convertToGGUF(t, dir, 0, false), nil, func(w *gguf.Writer, name string, info *gguf.TensorInfo, b []byte) {
		part := ""
		for _, p := range []string{"attn_q.", "attn_k.", "attn_v."} {
			if strings.Contains(name, "."+p) {
				part = p
			}
		}
		if part == "" {
			if err := w.AddTensor(name, info.Type, info.Shape(), b); err != nil {
				t.Fatal(err)
			}
			return
		}
		held[name] = b
		fused := strings.Replace(name, "."+part, ".attn_qkv.", 1)
		var all []byte
		for _, p := range []string{"attn_q.", "attn_k.", "attn_v."} {
			one, ok := held[strings.Replace(fused, ".attn_qkv.", "."+p, 1)]
			if !ok {
				return // the others come later
			}
			all = append(all, one...)
		}
		shape := []int{(lnHeads + 2*lnKV) * lnHeadDim}
		if strings.HasSuffix(name, ".weight") {
			shape = []int{(lnHeads + 2*lnKV) * lnHeadDim, lnHidden}
		}
		if err := w.AddTensor(fused, gguf.TypeF32, shape, all); err != nil {
			t.Fatal(err)
		}
	})
	if len(held) != 6*lnLayers {
		t.Fatalf("fused %d tensors, want %d", len(held), 6*lnLayers)
	}
	got, unused := decodeGGUF(t, path, lnTokens)
	if len(unused) > 0 {
		t.Errorf("the module does not read %v", unused)
	}
	if rel, bad := agreement(got, want); rel > 1e-5 || len(bad) > 0 {
		t.Errorf("fused attn_qkv GGUF against safetensors: %.3g (tolerance 1e-5), arg-max differs at %v", rel, bad)
	}
}

// TestLayerNormFamilyErrors: what these readers refuse, config.json and
// GGUF, each with a located message; and what they read of the older
// spellings.
func TestLayerNormFamilyErrors(t *testing.T) {
	const sizes = `"hidden_size": 64, "num_hidden_layers": 2, "vocab_size": 256, "num_attention_heads": 4, "intermediate_size": 96`
	for _, tc := range []struct{ config, want string }{
		{`{"architectures": ["PhiForCausalLM"], ` + sizes + `, "hidden_act": "gelu_new", "qk_layernorm": true}`, `"qk_layernorm" = true is not supported`},
		{`{"architectures": ["PhiForCausalLM"], ` + sizes + `, "hidden_act": "gelu"}`, `"hidden_act" = "gelu" is not supported (rlx implements "gelu_new" only)`},
		{`{"architectures": ["PhiForCausalLM"], ` + sizes + `, "hidden_act": "gelu_new", "layer_norm_eps": -1}`, `"layer_norm_eps" = -1: rlx needs a finite, non-negative epsilon`},
		{`{"architectures": ["GPTNeoXForCausalLM"], ` + sizes + `, "num_key_value_heads": 2}`, `num_key_value_heads = 2: GPT-NeoX fuses q, k and v a head at a time`},
		{`{"architectures": ["GPTNeoXForCausalLM"], ` + sizes + `, "hidden_act": "gelu_new"}`, `"hidden_act" = "gelu_new" is not supported (rlx implements "gelu" only)`},
		{`{"architectures": ["GPTNeoXForCausalLM"], ` + sizes + `, "rotary_pct": 0.1}`, `partial_rotary_factor 0.1 gives a rotary dim of 1 for head_dim 16`},
		{`{"architectures": ["NemotronForCausalLM"], ` + sizes + `, "hidden_act": "relu2", "mlp_bias": true}`, `"mlp_bias" = true is not supported`},
		{`{"architectures": ["NemotronForCausalLM"], ` + sizes + `, "hidden_act": "relu2", "norm_eps": "x"}`, `"norm_eps"`},
		{`{"architectures": ["StableLmForCausalLM"], ` + sizes + `, "hidden_act": "gelu"}`, `"hidden_act" = "gelu" is not supported (rlx implements "silu" only)`},
	} {
		if _, err := specOf(t, tc.config); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.config, err, tc.want)
		}
	}
	// GPT-NeoX's first configs: rotary_pct and rotary_emb_base.
	s, err := specOf(t, `{"architectures": ["GPTNeoXForCausalLM"], `+sizes+`, "rotary_pct": 0.5, "rotary_emb_base": 20000, "use_parallel_residual": false}`)
	if err != nil || s.rotaryDim != 8 || s.theta != 20000 || s.parallel {
		t.Errorf("GPT-NeoX with rotary_pct 0.5, rotary_emb_base 20000, sequential: %v (rotary dim %d, base %g, parallel %v)", err, s.rotaryDim, s.theta, s.parallel)
	}

	neox := convertToGGUF(t, gptNeoXModel(true).draw(t), 0, false)
	refusesGGUF(t, neox, []ggufRefusal{
		{map[string]any{"gptneox.use_parallel_residual": uint32(1)}, "gptneox.use_parallel_residual = 1 is not a bool"},
		{map[string]any{"gptneox.attention.head_count_kv": uint32(2)}, "gptneox.attention.head_count_kv = 2: rlx reads gptneox with as many kv heads as heads (4)"},
		{map[string]any{"gptneox.attention.layer_norm_epsilon": float32(math.Inf(1))}, "gptneox.attention.layer_norm_epsilon = +Inf: rlx needs a finite, non-negative epsilon"},
	})
	// Without the key, the blocks run in parallel; false, in sequence.
	for _, tc := range []struct {
		value    any
		parallel bool
	}{{nil, true}, {false, false}, {true, true}} {
		s, err := ggufSpec(t, editKV(t, neox, map[string]any{"gptneox.use_parallel_residual": tc.value}))
		if err != nil || s.parallel != tc.parallel {
			t.Errorf("gptneox.use_parallel_residual %v: %v, parallel %v, want %v", tc.value, err, s != nil && s.parallel, tc.parallel)
		}
	}
}
