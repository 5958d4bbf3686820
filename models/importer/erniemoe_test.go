package importer

import (
	"fmt"
	"slices"
	"testing"
)

// ernieMoEConfig is a tiny ERNIE-4.5-MoE config: layer 0 dense (MoE from
// moe_layer_start_index 1 on; 128 rows, which llama.cpp's converter
// divides by the 2 kv heads for the shared experts' width), 8 experts of
// 32 rows (top 2), two shared experts (one MLP of 64 rows), rope on
// interleaved pairs.
func ernieMoEConfig(normMin float64) map[string]any {
	return map[string]any{
		"architectures": []string{"Ernie4_5_MoeForCausalLM"}, "model_type": "ernie4_5_moe", "vocab_size": 256, "hidden_size": 64,
		"intermediate_size": 128, "num_hidden_layers": 3, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16,
		"max_position_embeddings": 512, "rms_norm_eps": 1e-5, "hidden_act": "silu", "tie_word_embeddings": true, "use_bias": false,
		"moe_num_experts": 8, "moe_k": 2, "moe_intermediate_size": 32, "moe_num_shared_experts": 2, "moe_layer_start_index": 1,
		"moe_layer_end_index": -1, "moe_layer_interval": 1, "moe_norm_min": normMin, "router_aux_loss_coef": 0.001,
		"output_router_logits": false, "rope_parameters": map[string]any{"rope_type": "default", "rope_theta": 500000.0},
	}
}

// ernieMoETensors are ernieMoEConfig's tensors as published (one per
// expert; the selection bias [1, E] under mlp.moe_statics).
func ernieMoETensors() []drawn {
	ts := []drawn{{"model.embed_tokens.weight", 0, 0.08, []int{256, 64}}, {"model.norm.weight", 1, 0.08, []int{64}}}
	for l := range 3 {
		p := fmt.Sprintf("model.layers.%d.", l)
		ts = append(ts, drawn{p + "input_layernorm.weight", 1, 0.08, []int{64}}, drawn{p + "post_attention_layernorm.weight", 1, 0.08, []int{64}})
		ts = append(ts, drawnAttention(p+"self_attn.")...)
		if l == 0 {
			ts = append(ts, linearOf(p+"mlp.gate_proj", 128, 64, false)...)
			ts = append(ts, linearOf(p+"mlp.up_proj", 128, 64, false)...)
			ts = append(ts, linearOf(p+"mlp.down_proj", 64, 128, false)...)
			continue
		}
		ts = append(ts, drawn{p + "mlp.gate.weight", 0, 0.5, []int{8, 64}}, drawn{p + "mlp.moe_statics.e_score_correction_bias", 0, 0.05, []int{1, 8}})
		for e := range 8 {
			q := fmt.Sprintf("%smlp.experts.%d.", p, e)
			ts = append(ts, linearOf(q+"gate_proj", 32, 64, false)...)
			ts = append(ts, linearOf(q+"up_proj", 32, 64, false)...)
			ts = append(ts, linearOf(q+"down_proj", 64, 32, false)...)
		}
		ts = append(ts, linearOf(p+"mlp.shared_experts.gate_proj", 64, 64, false)...)
		ts = append(ts, linearOf(p+"mlp.shared_experts.up_proj", 64, 64, false)...)
		ts = append(ts, linearOf(p+"mlp.shared_experts.down_proj", 64, 64, false)...)
	}
	return ts
}

// TestErnie45MoE: a drawn ERNIE-4.5-MoE checkpoint decodes as the oracle
// does (its float64 reading of Ernie4_5_MoeSparseMoeBlock: the choice by
// probability + e_score_correction_bias, the weights their
// probabilities over max(Σ, moe_norm_min), the shared experts ungated),
// reading every tensor; the spec's routing fields, which the oracle
// takes from it, are asserted apart; its GGUF form decodes the same (F32;
// Q8_0 as its dequantised weights); a moe_norm_min above the sums moves
// the logits.
func TestErnie45MoE(t *testing.T) {
	dir := drawCheckpoint(t, ernieMoEConfig(1e-12), ernieMoETensors())
	base, _ := importAndCheck(t, dir, lnTokens)
	s, err := specFromConfig(dir, 16)
	if err != nil {
		t.Fatal(err)
	}
	if !s.selectSoftmax || s.normMin != 1e-12 || !s.normTopK || s.sharedFFN != 64 || !s.sharedUngated || s.experts != 8 || s.topK != 2 ||
		!slices.Equal(s.moeLayer, []bool{false, true, true}) {
		t.Errorf("spec: %+v", s)
	}
	// Its GGUF form (ernie4_5-moe: the experts stacked, exp_probs_b,
	// interleave_moe_layer_step, leading_dense_block_count, the shared
	// experts' count and width).
	checkGGUFForms(t, dir, lnTokens, base)
	clamped, _ := importAndCheck(t, drawCheckpoint(t, ernieMoEConfig(4), ernieMoETensors()), lnTokens)
	if rel, _ := agreement(clamped, base); rel < 1e-3 {
		t.Errorf("moe_norm_min 4 moves the logits by only %.3g", rel)
	}
}

// ernie45300BConfig is an ERNIE-4.5-300B-A47B config.json as a public
// copy gives it (its layers cut to 5 there), with the Paddle-side fields.
const ernie45300BConfig = `{"architectures": ["Ernie4_5_MoeForCausalLM"], "bos_token_id": 1, "eos_token_id": 2, "dtype": "bfloat16",
  "hidden_act": "silu", "hidden_size": 8192, "intermediate_size": 28672, "max_position_embeddings": 131072, "model_type": "ernie4_5_moe",
  "num_attention_heads": 64, "num_key_value_heads": 8, "num_hidden_layers": 5, "pad_token_id": 0, "rms_norm_eps": 1e-05,
  "use_cache": false, "vocab_size": 103424, "rope_theta": 500000, "use_rmsnorm": true, "use_bias": false, "moe_num_experts": 64,
  "moe_layer_start_index": 1, "moe_intermediate_size": 3584, "moe_capacity": [64, 64, 64], "moe_gate": "topk", "moe_k": 4,
  "moe_layer_interval": 1, "moe_use_aux_free": true, "num_nextn_predict_layers": 1, "tie_word_embeddings": false, "is_quantized": false}`

// TestErnie45MoEPublishedConfig reads it: layer 0 dense, 1 to 4 routing
// over 64 experts (top 4) of 3584 rows, two shared experts by default.
func TestErnie45MoEPublishedConfig(t *testing.T) {
	s, err := specOf(t, ernie45300BConfig)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.moeLayer, []bool{false, true, true, true, true}) || s.experts != 64 || s.topK != 4 || s.moeFFN != 3584 ||
		s.sharedFFN != 2*3584 || s.headDim != 128 || s.theta != 500000 || s.normMin != 1e-12 {
		t.Errorf("spec: %+v", s)
	}
}
