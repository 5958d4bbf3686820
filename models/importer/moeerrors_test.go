package importer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStop71Refusals: the refusals of stop 71's readers that no other
// test meets, each naming its field — config.json's (LFM2-MoE, ERNIE-4.5-
// MoE, MiniMax-M2, Apertus, Falcon-H1) and the GGUF files' (lfm2moe,
// ernie4_5-moe, minimax-m2).
func TestStop71Refusals(t *testing.T) {
	configOf := func(dir string) string {
		data, err := os.ReadFile(filepath.Join(dir, "config.json"))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	falcon, _ := drawnFalconH1(t, falconH1Variant{1, false, false})
	lfm2, ernie := configOf(writeLfm2MoE(t, true, 1.5)), configOf(drawCheckpoint(t, ernieMoEConfig(1e-12), nil))
	minimax, apertus := configOf(drawCheckpoint(t, miniMaxM2Config(), nil)), configOf(drawCheckpoint(t, apertusConfig(nil), nil))
	edit := func(config, old, new string) string {
		if !strings.Contains(config, old) {
			t.Fatalf("the config holds no %q", old)
		}
		return strings.Replace(config, old, new, 1)
	}
	for _, tc := range []struct{ config, want string }{
		{edit(lfm2, `"num_experts_per_tok": 2`, `"num_experts_per_tok": 9`), "num_experts_per_tok = 9 must be in [1, num_experts = 8]"},
		{edit(lfm2, `"routed_scaling_factor": 1.5`, `"routed_scaling_factor": 0`), `"routed_scaling_factor" = 0: rlx needs a scale in`},
		{edit(ernie, `"moe_k": 2`, `"moe_k": 0`), "moe_k = 0 must be in [1, moe_num_experts = 8]"},
		{edit(ernie, `"moe_norm_min": 1e-12`, `"moe_norm_min": -1`), `"moe_norm_min" = -1: rlx needs a finite, non-negative minimum`},
		{edit(ernie, `"moe_k": 2`, `"moe_k": 2, "moe_gate": "top2"`), `"moe_gate" = "top2" is not supported`},
		{edit(ernie, `"moe_k": 2`, `"moe_k": 2, "use_rmsnorm": false`), `"use_rmsnorm" = false is not supported`},
		{edit(minimax, `"num_experts_per_tok": 2`, `"num_experts_per_tok": 0`), "num_experts_per_tok = 0 must be in [1, num_local_experts = 8]"},
		{edit(minimax, `"scoring_func": "sigmoid"`, `"scoring_func": "softmax"`), `"scoring_func" = "softmax" is not supported`},
		{edit(minimax, `"use_qk_norm": true`, `"use_qk_norm": false`), `"use_qk_norm" = false is not supported`},
		{edit(apertus, `"attention_bias": false`, `"attention_bias": false, "mlp_bias": true`), `"mlp_bias" = true is not supported`},
		{edit(configOf(falcon), `"attention_bias": false`, `"attention_bias": false, "attn_layer_indices": [1]`), `"attn_layer_indices" = [1] is not supported`},
		{edit(configOf(falcon), `"rope_traditional": false`, `"rope_traditional": true`), `"rope_traditional" = true is not supported`},
	} {
		if _, err := specOf(t, tc.config); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("want an error containing %q, got %v", tc.want, err)
		}
	}
	refusesGGUF(t, convertToGGUF(t, writeLfm2MoE(t, true, 1), 0, false), []ggufRefusal{
		{map[string]any{"lfm2moe.expert_gating_func": uint32(1)}, "lfm2moe.expert_gating_func = 1 is not supported for lfm2moe"},
		{map[string]any{"lfm2moe.expert_used_count": uint32(9)}, "lfm2moe.expert_used_count = 9 must be in [1, lfm2moe.expert_count = 8]"},
		{map[string]any{"lfm2moe.expert_weights_scale": float32(0)}, "lfm2moe.expert_weights_scale = 0: rlx needs a scale in"},
	})
	refusesGGUF(t, convertToGGUF(t, drawCheckpoint(t, ernieMoEConfig(1e-12), ernieMoETensors()), 0, false), []ggufRefusal{
		{map[string]any{"ernie4_5-moe.expert_feed_forward_length": uint32(0)}, "with a positive ernie4_5-moe.expert_feed_forward_length"},
		{map[string]any{"ernie4_5-moe.interleave_moe_layer_step": uint32(0)}, "ernie4_5-moe.interleave_moe_layer_step must be positive"},
	})
	refusesGGUF(t, convertToGGUF(t, drawCheckpoint(t, miniMaxM2Config(), miniMaxM2Tensors()), 0, false), []ggufRefusal{
		{map[string]any{"minimax-m2.expert_gating_func": uint32(1)}, "minimax-m2.expert_gating_func = 1 is not supported for minimax-m2"},
		{map[string]any{"minimax-m2.expert_count": uint32(1)}, "minimax-m2.expert_used_count = 2 must be in [1, minimax-m2.expert_count = 1]"},
	})
}
