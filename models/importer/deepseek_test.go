package importer

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/ir"
)

// deepseekConfig is a tiny DeepSeek-V3 config: latent attention (q
// through a rank-24 LoRA, a latent of 16, 8 nope and 8 rope dims a head,
// values of 12), YaRN with mscale_all_dim, layer 0 dense, layers 1 and 2
// routing over 8 experts of 32 rows in 4 groups, 2 of them open, top 2,
// with a shared expert.
func deepseekConfig(edits map[string]any) map[string]any {
	c := map[string]any{
		"architectures": []string{"DeepseekV3ForCausalLM"}, "model_type": "deepseek_v3", "vocab_size": 256, "hidden_size": 64,
		"intermediate_size": 96, "num_hidden_layers": 3, "num_attention_heads": 4, "num_key_value_heads": 4, "rms_norm_eps": 1e-6,
		"q_lora_rank": 24, "kv_lora_rank": 16, "qk_nope_head_dim": 8, "qk_rope_head_dim": 8, "v_head_dim": 12,
		"moe_intermediate_size": 32, "n_routed_experts": 8, "num_experts_per_tok": 2, "n_shared_experts": 1,
		"first_k_dense_replace": 1, "n_group": 4, "topk_group": 2, "norm_topk_prob": true, "routed_scaling_factor": 2.5,
		"topk_method": "noaux_tc", "scoring_func": "sigmoid", "rope_interleave": true, "tie_word_embeddings": false,
		"rope_scaling": map[string]any{"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 64, "beta_fast": 32,
			"beta_slow": 1, "mscale": 1.0, "mscale_all_dim": 1.0},
		"rope_theta": 10000.0,
	}
	for k, v := range edits {
		c[k] = v
	}
	return c
}

// deepseekTensors are a DeepSeek-V3 checkpoint's tensors for
// deepseekConfig (q_proj in place of the LoRA where qLora is 0), the
// experts one tensor each, as published.
func deepseekTensors(qLora int) []drawn { return latentTensors(qLora, true) }

// latentTensors are deepseekTensors, with the routers' selection bias
// (V3's) or without (V2's).
func latentTensors(qLora int, selectBias bool) []drawn {
	return latentTensorsOf(latentDims{kvLora: 16, nope: 8, rope: 8, v: 12}, qLora, selectBias)
}

// latentDims are a drawn checkpoint's latent attention sizes (4 heads).
type latentDims struct{ kvLora, nope, rope, v int }

// latentTensorsOf are latentTensors with the latent attention's sizes d.
func latentTensorsOf(d latentDims, qLora int, selectBias bool) []drawn {
	ts := []drawn{{"model.embed_tokens.weight", 0, 0.08, []int{256, 64}}, {"model.norm.weight", 1, 0.08, []int{64}},
		{"lm_head.weight", 0, 0.08, []int{256, 64}}}
	qd := 4 * (d.nope + d.rope)
	for l := range 3 {
		p := fmt.Sprintf("model.layers.%d.", l)
		a := p + "self_attn."
		ts = append(ts, drawn{p + "input_layernorm.weight", 1, 0.08, []int{64}}, drawn{p + "post_attention_layernorm.weight", 1, 0.08, []int{64}},
			drawn{a + "kv_a_proj_with_mqa.weight", 0, 0.08, []int{d.kvLora + d.rope, 64}}, drawn{a + "kv_a_layernorm.weight", 1, 0.08, []int{d.kvLora}},
			drawn{a + "kv_b_proj.weight", 0, 0.2, []int{4 * (d.nope + d.v), d.kvLora}}, drawn{a + "o_proj.weight", 0, 0.08, []int{64, 4 * d.v}})
		if qLora > 0 {
			ts = append(ts, drawn{a + "q_a_proj.weight", 0, 0.08, []int{qLora, 64}}, drawn{a + "q_a_layernorm.weight", 1, 0.08, []int{qLora}},
				drawn{a + "q_b_proj.weight", 0, 0.2, []int{qd, qLora}})
		} else {
			ts = append(ts, drawn{a + "q_proj.weight", 0, 0.08, []int{qd, 64}})
		}
		m := p + "mlp."
		if l == 0 {
			ts = append(ts, drawn{m + "gate_proj.weight", 0, 0.08, []int{96, 64}}, drawn{m + "up_proj.weight", 0, 0.08, []int{96, 64}},
				drawn{m + "down_proj.weight", 0, 0.08, []int{64, 96}})
			continue
		}
		if selectBias {
			ts = append(ts, drawn{m + "gate.e_score_correction_bias", 0, 0.1, []int{8}})
		}
		ts = append(ts, drawn{m + "gate.weight", 0, 0.3, []int{8, 64}},
			drawn{m + "shared_experts.gate_proj.weight", 0, 0.08, []int{32, 64}}, drawn{m + "shared_experts.up_proj.weight", 0, 0.08, []int{32, 64}},
			drawn{m + "shared_experts.down_proj.weight", 0, 0.08, []int{64, 32}})
		for e := range 8 {
			x := fmt.Sprintf("%sexperts.%d.", m, e)
			ts = append(ts, drawn{x + "gate_proj.weight", 0, 0.08, []int{32, 64}}, drawn{x + "up_proj.weight", 0, 0.08, []int{32, 64}},
				drawn{x + "down_proj.weight", 0, 0.08, []int{64, 32}})
		}
	}
	return ts
}

// TestDeepseekV3: drawn DeepSeek-V3 checkpoints decode as the oracle does
// (importAndCheck; the oracle's latent attention is transformers'
// unabsorbed form, the importer's absorbed): deepseekConfig, and with
// q_proj, every group open and the rope unscaled. Group-limited routing
// and YaRN's mscale² change the logits.
func TestDeepseekV3(t *testing.T) {
	tokens := []int{1, 17, 42, 200, 5, 99, 255, 128, 7, 64}
	base, m := importAndCheck(t, drawCheckpoint(t, deepseekConfig(nil), deepseekTensors(24)), tokens)
	var text strings.Builder
	if err := ir.Print(&text, m.Module, ir.PrintOptions{}); err != nil {
		t.Fatal(err)
	}
	// One cache a layer: the latent and k's rope dims, 16 + 8 a position.
	if !strings.Contains(text.String(), `"l1.latent_cache"`) || strings.Contains(text.String(), "k_cache") || !strings.Contains(text.String(), "x1x24xf32") {
		t.Errorf("the module's caches are not one latent cache of 24 a position a layer")
	}
	open, _ := importAndCheck(t, drawCheckpoint(t, deepseekConfig(map[string]any{"topk_group": 4}), deepseekTensors(24)), tokens)
	if rel := agreementRel(base, open); rel < 1e-4 {
		t.Errorf("closing two of four groups changes the logits by only %.3g", rel)
	}
	unscaled, _ := importAndCheck(t, drawCheckpoint(t, deepseekConfig(map[string]any{"rope_scaling": map[string]any{"type": "yarn", "factor": 4.0,
		"original_max_position_embeddings": 64, "mscale": 1.0, "mscale_all_dim": 0}}), deepseekTensors(24)), tokens)
	if rel := agreementRel(base, unscaled); rel < 1e-4 {
		t.Errorf("mscale² on the scores changes the logits by only %.3g", rel)
	}
	// Moonlight's form: q_proj, every group open, the rope unscaled, and
	// rms_norm_eps 1e-5, which the latent norms do not take.
	importAndCheck(t, drawCheckpoint(t, deepseekConfig(map[string]any{"q_lora_rank": nil, "n_group": 1, "topk_group": 1,
		"rope_scaling": nil, "rope_interleave": false, "rms_norm_eps": 1e-5}), deepseekTensors(0)), tokens)
}

// deepseekV2Config is deepseekConfig as DeepSeek-V2: group_limited_greedy
// over the softmax (one group open of 4 needs topk_group 1 in edits),
// × 2, V2-Lite's YaRN (mscale = mscale_all_dim), no rope_interleave.
func deepseekV2Config(edits map[string]any) map[string]any {
	c := deepseekConfig(map[string]any{"architectures": []string{"DeepseekV2ForCausalLM"}, "model_type": "deepseek_v2",
		"topk_method": "group_limited_greedy", "scoring_func": "softmax", "norm_topk_prob": false, "routed_scaling_factor": 2.0,
		"rope_scaling": map[string]any{"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 64, "beta_fast": 32,
			"beta_slow": 1, "mscale": 0.707, "mscale_all_dim": 0.707}})
	delete(c, "rope_interleave")
	for k, v := range edits {
		c[k] = v
	}
	return c
}

// TestDeepseekV2: drawn DeepSeek-V2 checkpoints decode as the oracle
// does: group_limited_greedy routing (4 groups ranked by their best
// probability, 1 open, top 2, × 2; with 2 open the top 2 are always in
// them) under V2's YaRN (mscale = mscale_all_dim: cos and sin
// unscaled, the scores × mscale²); and greedy with q_proj. Closing
// groups changes the logits.
func TestDeepseekV2(t *testing.T) {
	tokens := []int{1, 17, 42, 200, 5, 99, 255, 128, 7, 64}
	grouped, _ := importAndCheck(t, drawCheckpoint(t, deepseekV2Config(map[string]any{"topk_group": 1}), latentTensors(24, false)), tokens)
	open, _ := importAndCheck(t, drawCheckpoint(t, deepseekV2Config(map[string]any{"topk_group": 4}), latentTensors(24, false)), tokens)
	if rel := agreementRel(grouped, open); rel < 1e-4 {
		t.Errorf("closing three of four groups changes the logits by only %.3g", rel)
	}
	importAndCheck(t, drawCheckpoint(t, deepseekV2Config(nil), latentTensors(24, false)), tokens)
	importAndCheck(t, drawCheckpoint(t, deepseekV2Config(map[string]any{"q_lora_rank": nil, "topk_method": "greedy", "n_group": nil, "topk_group": nil,
		"rope_scaling": nil}), latentTensors(0, false)), tokens)
	for _, tc := range []struct {
		edits map[string]any
		want  string
	}{
		{map[string]any{"topk_method": "noaux_tc"}, `field "topk_method" = "noaux_tc" is not supported`},
		{map[string]any{"scoring_func": "sigmoid"}, `scoring_func`},
		{map[string]any{"n_group": 3}, `n_group = 3, topk_group = 2: rlx needs 1 ≤ topk_group ≤ n_group, n_group dividing the 8 experts`},
	} {
		if _, err := specFromConfig(drawCheckpoint(t, deepseekV2Config(tc.edits), nil), 16); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.edits, err, tc.want)
		}
	}
}

// TestLatentConfigErrors: the latent attention's sizes and the DeepSeek
// fields rlx does not implement are refused, naming the field.
func TestLatentConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		edits map[string]any
		want  string
	}{
		{map[string]any{"head_dim": 16}, `head_dim = 16 differs from qk_rope_head_dim = 8`},
		{map[string]any{"qk_head_dim": 17}, `qk_head_dim = 17 is not qk_nope_head_dim + qk_rope_head_dim = 16`},
		{map[string]any{"qk_rope_head_dim": 7, "qk_head_dim": 15}, `gives a rotary dim of 7 for head_dim 7; rlx needs an even dim`},
		{map[string]any{"kv_lora_rank": 0}, `qk_nope_head_dim = 8, v_head_dim = 12, kv_lora_rank = 0: rlx needs them positive`},
		{map[string]any{"attention_bias": true}, `attention_bias`},
		{map[string]any{"moe_layer_freq": 2}, `moe_layer_freq`},
		{map[string]any{"topk_method": "greedy"}, `topk_method`},
		{map[string]any{"num_experts_per_tok": 9}, `9 chosen must be in [1, 8 experts]`},
	} {
		if _, err := specFromConfig(drawCheckpoint(t, deepseekConfig(tc.edits), nil), 16); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.edits, err, tc.want)
		}
	}
}
