package importer

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// TestLlama4Config reads Llama 4's fields: a config in the form Llama 4
// Scout's is published (Llama4ForConditionalGeneration, the text model
// under text_config, attn_temperature_tuning a number, moe_layers and
// no_rope_layers listed; sizes cut down), the defaults of a bare
// Llama4ForCausalLM config, and the fields refused.
func TestLlama4Config(t *testing.T) {
	s, err := specOf(t, `{"architectures": ["Llama4ForConditionalGeneration"], "boi_token_index": 200080, "eoi_token_index": 200081,
	  "image_token_index": 200092, "model_type": "llama4", "tie_word_embeddings": false, "torch_dtype": "bfloat16",
	  "transformers_version": "4.51.0.dev0",
	  "text_config": {"attention_bias": false, "attention_chunk_size": 3, "attention_dropout": 0.0, "attn_scale": 0.1,
	    "attn_temperature_tuning": 4, "bos_token_id": 200000, "eos_token_id": [200001, 200007, 200008], "floor_scale": 4,
	    "for_llm_compressor": false, "head_dim": 16, "hidden_act": "silu", "hidden_size": 64, "initializer_range": 0.02,
	    "interleave_moe_layer_step": 1, "intermediate_size": 32, "intermediate_size_mlp": 96, "max_position_embeddings": 10485760,
	    "model_type": "llama4_text", "moe_layers": [0, 1, 2, 3], "no_rope_layers": [1, 1, 1, 0], "num_attention_heads": 4,
	    "num_experts_per_tok": 1, "num_hidden_layers": 4, "num_key_value_heads": 2, "num_local_experts": 16,
	    "output_router_logits": false, "pad_token_id": 200018, "rms_norm_eps": 1e-05,
	    "rope_scaling": {"factor": 16.0, "high_freq_factor": 1.0, "low_freq_factor": 1.0, "original_max_position_embeddings": 8192, "rope_type": "llama3"},
	    "rope_theta": 500000.0, "router_aux_loss_coef": 0.001, "router_jitter_noise": 0.0, "torch_dtype": "bfloat16",
	    "use_cache": true, "use_qk_norm": true, "vocab_size": 256},
	  "vision_config": {"hidden_size": 1408, "model_type": "llama4_vision_model"}}`)
	if err != nil {
		t.Fatal(err)
	}
	if s.ffn != 96 || s.moeFFN != 32 || s.sharedFFN != 32 || s.experts != 16 || s.topK != 1 || !s.inputRouted || !s.sharedUngated ||
		!slices.Equal(s.moeLayer, []bool{true, true, true, true}) || !slices.Equal(s.noRope, []bool{false, false, false, true}) ||
		!s.qkL2Norm || s.chunk != 3 || s.chunked != nil || s.tempFloor != 4 || s.tempScale != 0.1 || s.tied {
		t.Errorf("Scout's form: %+v", s.llama4)
	}
	if !s.chunkedLayer(0) || s.chunkedLayer(3) {
		t.Errorf("chunked layers: the rope layers, not layer 3 (NoPE)")
	}

	const bare = `{"architectures": ["Llama4ForCausalLM"], "hidden_size": 64, "num_hidden_layers": 4, "vocab_size": 256,
	  "num_attention_heads": 4, "num_key_value_heads": 2, "intermediate_size": 32, "intermediate_size_mlp": 96, "num_local_experts": 4`
	s, err = specOf(t, bare+`, "interleave_moe_layer_step": 2}`)
	if err != nil {
		t.Fatal(err)
	}
	// specOf's cache of 8 rows: the default chunk (8192) and floor_scale
	// (8192) lie beyond it, so neither is built.
	if !slices.Equal(s.moeLayer, []bool{false, true, false, true}) || !s.qkL2Norm || s.chunk != 0 || s.tempFloor != 0 || s.topK != 1 {
		t.Errorf("defaults: %+v, moe layers %v", s.llama4, s.moeLayer)
	}
	s, err = specOf(t, bare+`, "attention_chunk_size": 2, "floor_scale": 8, "attn_temperature_tuning": false,
	  "layer_types": ["chunked_attention", "full_attention", "chunked_attention", "full_attention"], "use_qk_norm": false}`)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.chunked, []bool{true, false, true, false}) || s.chunk != 2 || s.tempFloor != 0 || s.qkL2Norm {
		t.Errorf("layer_types, no tuning: %+v", s.llama4)
	}
	s, err = specOf(t, bare+`, "floor_scale": 8, "attn_temperature_tuning": true, "attention_chunk_size": null}`)
	if err != nil || s.tempFloor != 8 || s.chunk != 0 {
		t.Errorf("tuning at floor_scale 8 of a cache of 8, no chunks: %v, %+v", err, s.llama4)
	}
	for _, tc := range []struct{ config, want string }{
		{`{"architectures": ["Llama4ForCausalLM"], "hidden_size": 64, "num_hidden_layers": 4, "vocab_size": 256,
		  "num_attention_heads": 4, "intermediate_size": 32, "num_local_experts": 4}`, `missing field "intermediate_size_mlp"`},
		{bare + `, "num_experts_per_tok": 5}`, `num_experts_per_tok = 5 must be in [1, num_local_experts = 4]`},
		{bare + `, "moe_layers": [0, 4]}`, `field "moe_layers" names layer 4 of 4`},
		{bare + `, "interleave_moe_layer_step": 0}`, `field "interleave_moe_layer_step" must be positive`},
		{bare + `, "floor_scale": 0}`, `field "floor_scale" must be positive`},
		{bare + `, "attn_scale": 1e9}`, `field "attn_scale" = 1e+09: rlx needs a scale in`},
		{bare + `, "attn_temperature_tuning": "yes"}`, `field "attn_temperature_tuning" = "yes" is not true, false or a number`},
		{bare + `, "layer_types": ["sliding_attention", "full_attention", "full_attention", "full_attention"]}`, `type "sliding_attention", which is not supported`},
		{bare + `, "attention_bias": true}`, `attention_bias`},
		{bare + `, "for_llm_compressor": true}`, `for_llm_compressor`},
		{bare + `, "hidden_act": "gelu"}`, `"hidden_act" = "gelu" is not supported`},
	} {
		if _, err := specOf(t, tc.config); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.config, err, tc.want)
		}
	}
}

// llama4Config is a tiny Llama 4 text config: layers 1 and 3 routing
// over 4 experts of 32 rows (the rest dense, 96 rows), layer 3 NoPE and
// scaled by the temperature tuning from position 1 (floor_scale 2), the
// rope layers' q and k L2-normalised and attending within chunks of 3.
func llama4Config(edits map[string]any) map[string]any {
	c := map[string]any{
		"architectures": []string{"Llama4ForCausalLM"}, "model_type": "llama4_text", "vocab_size": 256, "hidden_size": 64,
		"intermediate_size": 32, "intermediate_size_mlp": 96, "num_hidden_layers": 4, "num_attention_heads": 4,
		"num_key_value_heads": 2, "head_dim": 16, "rms_norm_eps": 1e-5, "num_local_experts": 4, "num_experts_per_tok": 1,
		"interleave_moe_layer_step": 2, "attention_chunk_size": 3, "floor_scale": 2, "attn_scale": 0.1,
		"attn_temperature_tuning": true, "use_qk_norm": true, "tie_word_embeddings": false,
		"rope_parameters": map[string]any{"rope_type": "llama3", "rope_theta": 500000.0, "factor": 16.0,
			"low_freq_factor": 1.0, "high_freq_factor": 1.0, "original_max_position_embeddings": 64},
	}
	for k, v := range edits {
		c[k] = v
	}
	return c
}

// llama4Tensors are a Llama 4 checkpoint's tensors for llama4Config under
// prefix (the text model's, "model." or "language_model.model.") and the
// head's name; the experts fused as published, gate_up_proj [E, H, 2I]
// and down_proj [E, I, H].
func llama4Tensors(moe []bool, prefix, head string) []drawn {
	return llama4TensorsOf(moe, prefix, head, 4)
}

// llama4TensorsOf are llama4Tensors with experts experts.
func llama4TensorsOf(moe []bool, prefix, head string, experts int) []drawn {
	ts := []drawn{{prefix + "embed_tokens.weight", 0, 0.08, []int{256, 64}}, {prefix + "norm.weight", 1, 0.08, []int{64}},
		{head, 0, 0.08, []int{256, 64}}}
	for l, routed := range moe {
		p := fmt.Sprintf("%slayers.%d.", prefix, l)
		ts = append(ts, drawn{p + "input_layernorm.weight", 1, 0.08, []int{64}}, drawn{p + "post_attention_layernorm.weight", 1, 0.08, []int{64}},
			drawn{p + "self_attn.q_proj.weight", 0, 0.08, []int{64, 64}}, drawn{p + "self_attn.k_proj.weight", 0, 0.08, []int{32, 64}},
			drawn{p + "self_attn.v_proj.weight", 0, 0.08, []int{32, 64}}, drawn{p + "self_attn.o_proj.weight", 0, 0.08, []int{64, 64}})
		f := p + "feed_forward."
		if !routed {
			ts = append(ts, drawn{f + "gate_proj.weight", 0, 0.08, []int{96, 64}}, drawn{f + "up_proj.weight", 0, 0.08, []int{96, 64}},
				drawn{f + "down_proj.weight", 0, 0.08, []int{64, 96}})
			continue
		}
		ts = append(ts, drawn{f + "router.weight", 0, 0.3, []int{experts, 64}},
			drawn{f + "experts.gate_up_proj", 0, 0.08, []int{experts, 64, 64}}, drawn{f + "experts.down_proj", 0, 0.08, []int{experts, 32, 64}},
			drawn{f + "shared_expert.gate_proj.weight", 0, 0.08, []int{32, 64}}, drawn{f + "shared_expert.up_proj.weight", 0, 0.08, []int{32, 64}},
			drawn{f + "shared_expert.down_proj.weight", 0, 0.08, []int{64, 32}})
	}
	return ts
}

// TestLlama4: drawn Llama 4 checkpoints decode as the oracle does
// (importAndCheck: every tensor read, within 1e-5, hybrid-split bit for
// bit): llama4Config; every layer routing, top 2, without chunks or the
// temperature tuning; and as published, Llama4ForConditionalGeneration
// with the text model under language_model. Chunks and the tuning change
// the logits (so the checks above see them).
func TestLlama4(t *testing.T) {
	tokens := []int{1, 17, 42, 200, 5, 99, 255, 128, 7, 64}
	base, _ := importAndCheck(t, drawCheckpoint(t, llama4Config(nil), llama4Tensors([]bool{false, true, false, true}, "model.", "lm_head.weight")), tokens)
	plain, _ := importAndCheck(t, drawCheckpoint(t, llama4Config(map[string]any{"attention_chunk_size": 16, "attn_temperature_tuning": false}),
		llama4Tensors([]bool{false, true, false, true}, "model.", "lm_head.weight")), tokens)
	if rel := agreementRel(base, plain); rel < 1e-3 {
		t.Errorf("chunks of 3 and the temperature tuning change the logits by only %.3g", rel)
	}
	importAndCheck(t, drawCheckpoint(t, llama4Config(map[string]any{"num_experts_per_tok": 2, "interleave_moe_layer_step": 1,
		"attention_chunk_size": nil, "attn_temperature_tuning": 4, "floor_scale": 4}),
		llama4Tensors([]bool{true, true, true, true}, "model.", "lm_head.weight")), tokens)
	vl := map[string]any{"architectures": []string{"Llama4ForConditionalGeneration"}, "model_type": "llama4",
		"image_token_index": 200092, "tie_word_embeddings": false, "vision_config": map[string]any{"hidden_size": 16},
		"text_config": llama4Config(map[string]any{"architectures": nil})}
	delete(vl["text_config"].(map[string]any), "architectures")
	importAndCheck(t, drawCheckpoint(t, vl, llama4Tensors([]bool{false, true, false, true}, "language_model.model.", "language_model.lm_head.weight")), tokens)
}

// agreementRel is max |a − b| / max |b|.
func agreementRel(a, b *tensor.Tensor) float64 {
	rel, _ := agreement(a, b)
	return rel
}
