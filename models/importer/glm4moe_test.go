package importer

import (
	"fmt"
	"strings"
	"testing"
)

// glm4MoEConfig is a tiny GLM-4.5 config: layer 0 dense, layer 1
// routing over 8 experts of 32 rows (top 2, one shared expert),
// routed_scaling_factor 2.5; groups as given.
func glm4MoEConfig(groups, open int) map[string]any {
	return map[string]any{
		"architectures": []string{"Glm4MoeForCausalLM"}, "model_type": "glm4_moe", "vocab_size": 256, "hidden_size": 64,
		"intermediate_size": 96, "moe_intermediate_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4,
		"num_key_value_heads": 2, "head_dim": 16, "max_position_embeddings": 512, "rms_norm_eps": 1e-5, "hidden_act": "silu",
		"tie_word_embeddings": false, "attention_bias": true, "use_qk_norm": true, "n_routed_experts": 8,
		"num_experts_per_tok": 2, "n_shared_experts": 1, "first_k_dense_replace": 1, "n_group": groups, "topk_group": open,
		"norm_topk_prob": true, "routed_scaling_factor": 2.5, "num_nextn_predict_layers": 1,
		"rope_parameters": map[string]any{"rope_type": "default", "rope_theta": 1e6, "partial_rotary_factor": 0.5},
	}
}

// TestGlm4MoE: a drawn GLM-4.5 checkpoint decodes as the oracle does
// (rlx's float64 reading of transformers' Glm4Moe modeling: sigmoid
// scores, the choice by score + e_score_correction_bias, the weights
// renormalised and scaled, the shared expert ungated, the first layer
// dense), reading every tensor, with every group open and with
// group-limited routing; the selection bias moves the logits; groups of
// one expert and a zero routed_scaling_factor are refused.
func TestGlm4MoE(t *testing.T) {
	tensors := func(biasStd float64) []drawn {
		ts := []drawn{{"model.embed_tokens.weight", 0, 0.08, []int{256, 64}}, {"lm_head.weight", 0, 0.08, []int{256, 64}},
			{"model.norm.weight", 1, 0.08, []int{64}}}
		for l := range 2 {
			p := fmt.Sprintf("model.layers.%d.", l)
			ts = append(ts, drawn{p + "input_layernorm.weight", 1, 0.08, []int{64}}, drawn{p + "post_attention_layernorm.weight", 1, 0.08, []int{64}},
				drawn{p + "self_attn.q_norm.weight", 1, 0.08, []int{16}}, drawn{p + "self_attn.k_norm.weight", 1, 0.08, []int{16}})
			ts = append(ts, linearOf(p+"self_attn.q_proj", 64, 64, true)...)
			ts = append(ts, linearOf(p+"self_attn.k_proj", 32, 64, true)...)
			ts = append(ts, linearOf(p+"self_attn.v_proj", 32, 64, true)...)
			ts = append(ts, linearOf(p+"self_attn.o_proj", 64, 64, false)...)
			if l == 0 {
				ts = append(ts, linearOf(p+"mlp.gate_proj", 96, 64, false)...)
				ts = append(ts, linearOf(p+"mlp.up_proj", 96, 64, false)...)
				ts = append(ts, linearOf(p+"mlp.down_proj", 64, 96, false)...)
				continue
			}
			ts = append(ts, drawn{p + "mlp.gate.weight", 0, 0.3, []int{8, 64}}, drawn{p + "mlp.gate.e_score_correction_bias", 0, biasStd, []int{8}})
			for e := range 8 {
				q := fmt.Sprintf("%smlp.experts.%d.", p, e)
				ts = append(ts, linearOf(q+"gate_proj", 32, 64, false)...)
				ts = append(ts, linearOf(q+"up_proj", 32, 64, false)...)
				ts = append(ts, linearOf(q+"down_proj", 64, 32, false)...)
			}
			ts = append(ts, linearOf(p+"mlp.shared_experts.gate_proj", 32, 64, false)...)
			ts = append(ts, linearOf(p+"mlp.shared_experts.up_proj", 32, 64, false)...)
			ts = append(ts, linearOf(p+"mlp.shared_experts.down_proj", 64, 32, false)...)
		}
		return ts
	}
	base, _ := importAndCheck(t, drawCheckpoint(t, glm4MoEConfig(1, 1), tensors(0.3)), lnTokens)
	flat, _ := importAndCheck(t, drawCheckpoint(t, glm4MoEConfig(2, 2), tensors(0.001)), lnTokens)
	if rel, _ := agreement(flat, base); rel < 1e-3 {
		t.Errorf("the selection bias moves the logits by only %.3g", rel)
	}
	// Group-limited routing (DeepSeek-V3's): two of four groups open
	// (TestDeepseekV3 shows it changing the logits).
	importAndCheck(t, drawCheckpoint(t, glm4MoEConfig(4, 2), tensors(0.3)), lnTokens)
	if _, err := specFromConfig(drawCheckpoint(t, glm4MoEConfig(8, 2), nil), 16); err == nil || !strings.Contains(err.Error(), "n_group = 8 of 8 experts: group-limited routing ranks a group by its two best experts") {
		t.Errorf("groups of one expert: %v", err)
	}
	scaled := glm4MoEConfig(1, 1)
	scaled["routed_scaling_factor"] = 0
	if _, err := specFromConfig(drawCheckpoint(t, scaled, nil), 16); err == nil || !strings.Contains(err.Error(), "the scale 0 must be finite and positive") {
		t.Errorf("routed_scaling_factor 0: %v", err)
	}
}

// TestGlm4MoEGGUFErrors: what llama.cpp's glm4moe metadata may say that
// rlx refuses, each a located message.
func TestGlm4MoEGGUFErrors(t *testing.T) {
	file := convertToGGUF(t, loadFixture(t, "glm4_moe").dir, 0, false)
	refusesGGUF(t, file, []ggufRefusal{
		{map[string]any{"glm4moe.expert_gating_func": uint32(1)}, "glm4moe.expert_gating_func = 1 is not supported for glm4moe (rlx implements 2, sigmoid)"},
		{map[string]any{"glm4moe.expert_gating_func": nil}, "missing metadata key glm4moe.expert_gating_func"},
		{map[string]any{"glm4moe.nextn_predict_layers": uint32(5)}, "glm4moe.nextn_predict_layers = 5 leaves no layer of glm4moe.block_count = 5"},
		{map[string]any{"glm4moe.expert_weights_scale": float32(0)}, "the scale 0 must be finite and positive"},
		{map[string]any{"glm4moe.expert_used_count": uint32(9)}, "9 chosen must be in [1, 8 experts]"},
	})
}
