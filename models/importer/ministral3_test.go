package importer

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// ministral3Config is a tiny Ministral3ForCausalLM config
// (Ministral3Config's fields): YaRN ×16 over an original context of 2
// with cos and sin unscaled (mscale = mscale_all_dim = 1, as published),
// and q scaled by 1 + 0.5·log(1 + ⌊pos / 2⌋), which changes every two
// positions. rope replaces or adds rope parameters, extra top fields (a
// nil value deletes one).
func ministral3Config(rope, extra map[string]any) map[string]any {
	r := map[string]any{"rope_type": "yarn", "type": "yarn", "rope_theta": 1000000.0, "factor": 16.0,
		"original_max_position_embeddings": 2, "max_position_embeddings": 512, "beta_fast": 32.0, "beta_slow": 1.0,
		"mscale": 1.0, "mscale_all_dim": 1.0, "llama_4_scaling_beta": 0.5}
	maps.Copy(r, rope)
	cfg := map[string]any{
		"architectures": []string{"Ministral3ForCausalLM"}, "model_type": "ministral3", "vocab_size": 256, "hidden_size": 64,
		"intermediate_size": 96, "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16,
		"max_position_embeddings": 512, "rms_norm_eps": 1e-5, "hidden_act": "silu", "tie_word_embeddings": false,
		"sliding_window": nil, "attention_dropout": 0.0, "pad_token_id": 11, "bos_token_id": 1, "eos_token_id": 2,
		"rope_parameters": r,
	}
	for k, v := range extra {
		if v == nil {
			delete(cfg, k)
			continue
		}
		cfg[k] = v
	}
	return cfg
}

// ministral3Tensors are its tensors, the text model's under prefix and
// the head named head ("" for a tied head).
func ministral3Tensors(prefix, head string) []drawn {
	ts := []drawn{{prefix + "embed_tokens.weight", 0, 0.5, []int{256, 64}}, {prefix + "norm.weight", 1, 0.08, []int{64}}}
	if head != "" {
		ts = append(ts, drawn{head, 0, 0.08, []int{256, 64}})
	}
	for l := range 2 {
		p := fmt.Sprintf("%slayers.%d.", prefix, l)
		ts = append(ts, drawn{p + "input_layernorm.weight", 1, 0.08, []int{64}}, drawn{p + "post_attention_layernorm.weight", 1, 0.08, []int{64}},
			drawn{p + "mlp.gate_proj.weight", 0, 0.1, []int{96, 64}}, drawn{p + "mlp.up_proj.weight", 0, 0.1, []int{96, 64}},
			drawn{p + "mlp.down_proj.weight", 0, 0.1, []int{64, 96}})
		ts = append(ts, drawnAttention(p+"self_attn.")...)
	}
	return ts
}

// TestMinistral3: drawn Ministral 3 checkpoints decode as the oracle does
// (importAndCheck: every tensor read, within 1e-5, hybrid-split bit for
// bit), and their GGUF forms (llama.cpp's mistral3) as their
// safetensors. q's scaling moves the logits from position 2 on and leaves
// positions 0 and 1 bit for bit (so it divides pos, not pos + 1, as Llama
// 4's does); mscale_all_dim 0 scales cos and sin by 0.1·ln 16 + 1; the
// published form (Mistral3ForConditionalGeneration, model_type
// "ministral3" under text_config, the tensors under
// model.language_model.) decodes bit for bit as the text model.
func TestMinistral3(t *testing.T) {
	tokens := []int{1, 17, 42, 200, 5, 99, 255, 128, 7, 64}
	tensors := ministral3Tensors("model.", "lm_head.weight")
	dir := drawCheckpoint(t, ministral3Config(nil, nil), tensors)
	want, _ := importAndCheck(t, dir, tokens)
	s := importedSpec(t, dir)
	if s.tempFloor != 2 || s.tempScale != 0.5 || s.tempOffset != 0 || !s.tempAll || s.ropeAttn != 1 || s.window != 0 {
		t.Errorf("spec: q scaled by ⌊(pos + %d) / %d⌋ × %g (every layer %v), cos and sin × %g, window %d", s.tempOffset, s.tempFloor, s.tempScale, s.tempAll, s.ropeAttn, s.window)
	}
	checkGGUFForms(t, dir, tokens, want)

	plain, _ := importAndCheck(t, drawCheckpoint(t, ministral3Config(map[string]any{"llama_4_scaling_beta": 0.0}, nil), tensors), tokens)
	vocab := want.Shape()[1]
	rows := func(x *tensor.Tensor, from, to int) []float32 { return x.Floats()[from*vocab : to*vocab] }
	if !slices.Equal(rows(want, 0, 2), rows(plain, 0, 2)) {
		t.Errorf("β 0.5 changes the logits of positions 0 and 1, where ⌊pos / 2⌋ = 0")
	}
	if rel := agreementRel(want, plain); rel < 1e-3 {
		t.Errorf("β 0.5 moves the logits by only %.3g", rel)
	}

	scaledDir := drawCheckpoint(t, ministral3Config(map[string]any{"mscale_all_dim": 0.0}, map[string]any{"tie_word_embeddings": true}),
		ministral3Tensors("model.", ""))
	scaled, _ := importAndCheck(t, scaledDir, tokens)
	if s := importedSpec(t, scaledDir); math.Abs(s.ropeAttn-(0.1*math.Log(16)+1)) > 1e-12 {
		t.Errorf("mscale_all_dim 0: cos and sin × %g, want 0.1·ln 16 + 1", s.ropeAttn)
	}
	checkGGUFForms(t, scaledDir, tokens, scaled)

	// The published form.
	text := ministral3Config(nil, map[string]any{"architectures": nil})
	published := map[string]any{"architectures": []string{"Mistral3ForConditionalGeneration"}, "model_type": "mistral3",
		"text_config": text, "image_token_index": 10, "multimodal_projector_bias": false, "projector_hidden_act": "gelu",
		"spatial_merge_size": 2, "vision_feature_layer": -1, "vision_config": map[string]any{"hidden_size": 16}}
	vision := drawn{"model.vision_tower.patch_conv.weight", 0, 0.08, []int{16, 3, 2, 2}}
	vl := drawCheckpoint(t, published, append(ministral3Tensors("model.language_model.", "lm_head.weight"), vision))
	m, err := ImportHF(newContext(), vl, Options{MaxTokens: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Source.Close()
	if !slices.Equal(m.Unused, []string{vision.name}) {
		t.Errorf("the published form leaves %v unread, want the vision tower's %s only", m.Unused, vision.name)
	}
	if got := decodeModule(t, m.Module, m.Source, tokens); !tensor.BitsEqual(got, want) {
		t.Errorf("the published form: %.3g from the text model's logits, want bit-identical", agreementRel(got, want))
	}
}

// TestMinistral3Config reads Ministral 3 3B Instruct's published
// config.json (its text_config as given there, the vision config
// trimmed), Ministral3Config's defaults, and the refusals.
func TestMinistral3Config(t *testing.T) {
	const published = `{"architectures": ["Mistral3ForConditionalGeneration"], "model_type": "mistral3", "dtype": "bfloat16",
  "image_token_index": 10, "multimodal_projector_bias": false, "projector_hidden_act": "gelu", "spatial_merge_size": 2,
  "vision_feature_layer": -1, "vision_config": {"model_type": "pixtral", "hidden_size": 1024},
  "text_config": {"attention_dropout": 0.0, "head_dim": 128, "hidden_act": "silu", "hidden_size": 3072,
    "initializer_range": 0.02, "intermediate_size": 9216, "max_position_embeddings": 262144, "model_type": "ministral3",
    "num_attention_heads": 32, "num_hidden_layers": 26, "num_key_value_heads": 8, "rms_norm_eps": 1e-05,
    "rope_parameters": {"beta_fast": 32.0, "beta_slow": 1.0, "factor": 16.0, "llama_4_scaling_beta": 0.1,
      "mscale": 1.0, "mscale_all_dim": 1.0, "original_max_position_embeddings": 16384, "rope_theta": 1000000.0,
      "rope_type": "yarn", "type": "yarn"},
    "sliding_window": null, "tie_word_embeddings": true, "use_cache": true, "vocab_size": 131072},
  "tie_word_embeddings": true}`
	s, err := specOfCache(t, published, 32768)
	if err != nil {
		t.Fatal(err)
	}
	if s.hidden != 3072 || s.headDim != 128 || s.layers != 26 || s.kvHeads != 8 || !s.tied || s.eps != 1e-5 ||
		s.tempFloor != 16384 || s.tempScale != 0.1 || !s.tempAll || s.ropeAttn != 1 || s.theta != 1e6 {
		t.Errorf("published: hidden %d, head %d, layers %d, kv %d, tied %v, eps %g, q scaled from %d by %g (all %v), cos × %g, θ %g",
			s.hidden, s.headDim, s.layers, s.kvHeads, s.tied, s.eps, s.tempFloor, s.tempScale, s.tempAll, s.ropeAttn, s.theta)
	}
	// A cache that ends before 16384 never scales q: nothing is built.
	if s, err := specOfCache(t, published, 16384); err != nil || s.tempFloor != 0 || !s.tempAll {
		t.Errorf("a cache of 16384: q scaled from %d (err %v), want never", s.tempFloor, err)
	}
	// Ministral3Config's defaults: the 8B's sizes, head_dim 128 (not
	// 4096 / 32 by accident: hidden 3072 here), 8 kv heads, eps 1e-5,
	// YaRN ×16 over 16384 with β 0.1.
	s, err = specFromConfig(drawCheckpoint(t, map[string]any{"architectures": []string{"Ministral3ForCausalLM"}, "hidden_size": 3072}, nil), 32768)
	if err != nil {
		t.Fatal(err)
	}
	if s.vocab != 131072 || s.layers != 34 || s.heads != 32 || s.kvHeads != 8 || s.headDim != 128 || s.ffn != 14336 || s.eps != 1e-5 ||
		s.tempFloor != 16384 || s.tempScale != 0.1 || s.ropeAttn != 1 || s.tied {
		t.Errorf("defaults: vocab %d, layers %d, heads %d/%d of %d, ffn %d, eps %g, q from %d by %g, cos × %g, tied %v",
			s.vocab, s.layers, s.heads, s.kvHeads, s.headDim, s.ffn, s.eps, s.tempFloor, s.tempScale, s.ropeAttn, s.tied)
	}
	if s, err := specFromConfig(drawCheckpoint(t, ministral3Config(nil, map[string]any{"head_dim": json.RawMessage("null"), "num_key_value_heads": json.RawMessage("null")}), nil), 16); err != nil || s.headDim != 16 || s.kvHeads != 4 {
		t.Errorf("null head_dim and kv heads: %v, want hidden ÷ heads and as many kv heads as heads", err)
	}
	for _, tc := range []struct {
		rope map[string]any
		want string
	}{
		{map[string]any{"llama_4_scaling_beta": nil}, "rope_parameters must give llama_4_scaling_beta and original_max_position_embeddings"},
		{map[string]any{"llama_4_scaling_beta": -0.1}, "llama_4_scaling_beta = -0.1 in rope_parameters"},
		{map[string]any{"llama_4_scaling_beta": 2e6}, "llama_4_scaling_beta = 2e+06 in rope_parameters: rlx needs 0 or a scale in [1e-06, 1e+06]"},
		{map[string]any{"llama_4_scaling_beta": "x"}, `field "llama_4_scaling_beta" = "x" is not a number`},
		{map[string]any{"rope_type": "default", "type": "default", "original_max_position_embeddings": nil}, "rope_parameters must give llama_4_scaling_beta and original_max_position_embeddings"},
		{map[string]any{"rope_type": "default", "type": "default", "original_max_position_embeddings": 0, "factor": nil, "mscale": nil, "mscale_all_dim": nil,
			"beta_fast": nil, "beta_slow": nil}, "original_max_position_embeddings = 0 in rope_parameters"},
		{map[string]any{"llama_4_scaling_floor": 2}, `field "llama_4_scaling_floor" is not supported`},
	} {
		rope := ministral3Config(nil, nil)["rope_parameters"].(map[string]any)
		for k, v := range tc.rope {
			if v == nil {
				delete(rope, k)
				continue
			}
			rope[k] = v
		}
		_, err := specFromConfig(drawCheckpoint(t, ministral3Config(nil, map[string]any{"rope_parameters": rope}), nil), 16)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one containing %q", tc.rope, err, tc.want)
		}
	}
	// FP8 with a scale per tensor and static activation scales: rlx
	// reads block-wise FP8 with dynamic activations only.
	fp8 := map[string]any{"quant_method": "fp8", "activation_scheme": "static", "weight_block_size": nil}
	if _, err := specFromConfig(drawCheckpoint(t, ministral3Config(nil, map[string]any{"quantization_config": fp8}), nil), 16); err == nil ||
		!strings.Contains(err.Error(), `field "activation_scheme" = "static" is not supported`) {
		t.Errorf("per-tensor FP8 with static activations: error %v, want a refusal of its activation_scheme", err)
	}
}

// TestMinistral3GGUF: llama.cpp's mistral3 keys read as the file gives
// them: without attention.temperature_scale q is not scaled (the logits
// move), attention.temperature_length where given divides the positions
// in place of YaRN's original context (and a file giving both, unequal,
// is refused), yarn_log_multiplier is mscale_all_dim; and the refusals.
func TestMinistral3GGUF(t *testing.T) {
	tokens := []int{1, 17, 42, 200, 5, 99, 255, 128, 7, 64}
	file := convertToGGUF(t, drawCheckpoint(t, ministral3Config(nil, nil), ministral3Tensors("model.", "lm_head.weight")), 0, false)
	want, _ := decodeGGUF(t, editKV(t, file, nil), tokens)
	if got, _ := decodeGGUF(t, editKV(t, file, map[string]any{"mistral3.attention.temperature_scale": nil}), tokens); agreementRel(got, want) < 1e-3 {
		t.Errorf("the file without attention.temperature_scale decodes within %.3g of the one with it", agreementRel(got, want))
	}
	for _, tc := range []struct {
		edits        map[string]any
		floor        int
		attn         float64
		errorContain string
	}{
		{nil, 2, 1, ""},
		{map[string]any{"mistral3.attention.temperature_length": uint32(2)}, 2, 1, ""},
		{map[string]any{"mistral3.attention.temperature_length": uint32(3), "mistral3.rope.scaling.type": nil, "mistral3.rope.scaling.factor": nil,
			"mistral3.rope.scaling.original_context_length": nil, "mistral3.rope.scaling.yarn_log_multiplier": nil,
			"mistral3.rope.scaling.yarn_beta_fast": nil, "mistral3.rope.scaling.yarn_beta_slow": nil}, 3, 0, ""}, // no YaRN: no factor
		{map[string]any{"mistral3.rope.scaling.yarn_log_multiplier": float32(0)}, 2, 0.1*math.Log(16) + 1, ""},
		{map[string]any{"mistral3.rope.scaling.yarn_log_multiplier": float32(2)}, 2, (0.1*math.Log(16) + 1) / (0.2*math.Log(16) + 1), ""},
		{map[string]any{"mistral3.attention.temperature_scale": float32(0)}, 0, 1, ""},
		{map[string]any{"mistral3.rope.scaling.factor": float32(0.5), "mistral3.rope.scaling.yarn_log_multiplier": float32(2)}, 2, 1, ""}, // factor ≤ 1: no magnitude correction
		{map[string]any{"mistral3.attention.temperature_length": uint32(3)}, 0, 0, "mistral3.attention.temperature_length = 3 differs from mistral3.rope.scaling.original_context_length = 2"},
		{map[string]any{"mistral3.attention.temperature_scale": float32(-1)}, 0, 0, "mistral3.attention.temperature_scale = -1: rlx needs 0 or a scale"},
		{map[string]any{"mistral3.attention.temperature_scale": float32(2e6)}, 0, 0, "mistral3.attention.temperature_scale = 2000000: rlx needs 0 or a scale"},
		{map[string]any{"mistral3.attention.temperature_scale": "x"}, 0, 0, "mistral3.attention.temperature_scale"},
		{map[string]any{"mistral3.rope.scaling.yarn_log_multiplier": float32(-20)}, 0, 0, "gives cos and sin a factor"},
		{map[string]any{"mistral3.rope.scaling.type": nil, "mistral3.rope.scaling.factor": nil, "mistral3.rope.scaling.original_context_length": nil,
			"mistral3.rope.scaling.yarn_log_multiplier": nil, "mistral3.context_length": nil}, 0, 0, "mistral3.attention.temperature_scale needs the positions it divides"},
	} {
		s, err := ggufSpec(t, editKV(t, file, tc.edits))
		switch {
		case tc.errorContain != "":
			if err == nil || !strings.Contains(err.Error(), tc.errorContain) {
				t.Errorf("%v: error %v, want one containing %q", tc.edits, err, tc.errorContain)
			}
		case err != nil:
			t.Errorf("%v: %v", tc.edits, err)
		case s.tempFloor != tc.floor || tc.floor > 0 && (s.tempScale != 0.5 || !s.tempAll || s.tempOffset != 0) || math.Abs(s.ropeAttn-tc.attn) > 1e-6:
			t.Errorf("%v: q scaled by ⌊(pos + %d) / %d⌋ × %g (every layer %v), cos and sin × %g; want a floor of %d, × %g", tc.edits,
				s.tempOffset, s.tempFloor, s.tempScale, s.tempAll, s.ropeAttn, tc.floor, tc.attn)
		}
	}
}
