package importer

import (
	"fmt"
	"testing"
)

// TestQwen3VLMoE: a drawn Qwen3-VL-MoE checkpoint's text model (under
// model.language_model., its experts fused as [E, in, out]: gate_up_proj
// [E, H, 2I] with the gate's columns first, down_proj [E, I, H]) decodes
// as the oracle does, reading every tensor.
func TestQwen3VLMoE(t *testing.T) {
	config := map[string]any{
		"architectures": []string{"Qwen3VLMoeForConditionalGeneration"}, "model_type": "qwen3_vl_moe", "tie_word_embeddings": false,
		"image_token_id": 200, "video_token_id": 201, "vision_start_token_id": 202, "vision_end_token_id": 203,
		"vision_config": map[string]any{"depth": 1, "hidden_size": 16},
		"text_config": map[string]any{
			"vocab_size": 256, "hidden_size": 64, "intermediate_size": 96, "moe_intermediate_size": 32, "num_hidden_layers": 2,
			"num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "max_position_embeddings": 512, "rms_norm_eps": 1e-6,
			"hidden_act": "silu", "attention_bias": false, "num_experts": 8, "num_experts_per_tok": 2, "decoder_sparse_step": 1,
			"norm_topk_prob": true, "mlp_only_layers": []int{}, "tie_word_embeddings": false,
			"rope_parameters": map[string]any{"rope_type": "default", "rope_theta": 1e6, "mrope_section": []int{3, 3, 2}, "mrope_interleaved": true},
		},
	}
	p0 := "model.language_model."
	ts := []drawn{{p0 + "embed_tokens.weight", 0, 0.08, []int{256, 64}}, {"lm_head.weight", 0, 0.08, []int{256, 64}},
		{p0 + "norm.weight", 1, 0.08, []int{64}}}
	for l := range 2 {
		p := fmt.Sprintf("%slayers.%d.", p0, l)
		ts = append(ts, drawn{p + "input_layernorm.weight", 1, 0.08, []int{64}}, drawn{p + "post_attention_layernorm.weight", 1, 0.08, []int{64}},
			drawn{p + "self_attn.q_norm.weight", 1, 0.08, []int{16}}, drawn{p + "self_attn.k_norm.weight", 1, 0.08, []int{16}},
			drawn{p + "self_attn.q_proj.weight", 0, 0.08, []int{64, 64}}, drawn{p + "self_attn.k_proj.weight", 0, 0.08, []int{32, 64}},
			drawn{p + "self_attn.v_proj.weight", 0, 0.08, []int{32, 64}}, drawn{p + "self_attn.o_proj.weight", 0, 0.08, []int{64, 64}},
			drawn{p + "mlp.gate.weight", 0, 0.3, []int{8, 64}},
			drawn{p + "mlp.experts.gate_up_proj", 0, 0.08, []int{8, 64, 64}}, drawn{p + "mlp.experts.down_proj", 0, 0.08, []int{8, 32, 64}})
	}
	importAndCheck(t, drawCheckpoint(t, config, ts), lnTokens)
}
