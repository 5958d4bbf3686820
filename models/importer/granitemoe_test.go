package importer

import (
	"fmt"
	"strings"
	"testing"
)

// graniteMoEConfig is a tiny Granite MoE config: 8 experts of 32 rows,
// top 2, IBM's four multipliers, and with shared > 0 Granite MoE
// Shared's ungated expert of that many rows.
func graniteMoEConfig(shared int) map[string]any {
	arch := "GraniteMoeForCausalLM"
	c := map[string]any{
		"vocab_size": 256, "hidden_size": 64, "intermediate_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4,
		"num_key_value_heads": 2, "max_position_embeddings": 512, "rms_norm_eps": 1e-6, "hidden_act": "silu",
		"tie_word_embeddings": true, "attention_bias": false, "num_local_experts": 8, "num_experts_per_tok": 2,
		"embedding_multiplier": 2.0, "logits_scaling": 4.0, "residual_multiplier": 0.5, "attention_multiplier": 0.2,
		"output_router_logits": false, "router_aux_loss_coef": 0.001,
		"rope_parameters": map[string]any{"rope_type": "default", "rope_theta": 1e4},
	}
	if shared > 0 {
		arch = "GraniteMoeSharedForCausalLM"
		c["shared_intermediate_size"] = shared
	}
	c["architectures"] = []string{arch}
	return c
}

// TestGraniteMoE: drawn Granite MoE checkpoints, without and with the
// shared expert, decode as the oracle does, reading every tensor
// (block_sparse_moe's input_linear [E, 2I, H], output_linear, router.layer;
// shared_mlp's input_linear and output_linear), and their GGUF forms
// (llama.cpp's granitemoe: the experts' gate and up split, the shared
// expert under expert_shared_feed_forward_length) the same in F32 and,
// against their dequantised weights, in Q8_0.
func TestGraniteMoE(t *testing.T) {
	for _, shared := range []int{0, 48} {
		t.Run(fmt.Sprint("shared ", shared), func(t *testing.T) {
			ts := []drawn{{"model.embed_tokens.weight", 0, 0.08, []int{256, 64}}, {"model.norm.weight", 1, 0.08, []int{64}}}
			for l := range 2 {
				p := fmt.Sprintf("model.layers.%d.", l)
				ts = append(ts, drawn{p + "input_layernorm.weight", 1, 0.08, []int{64}}, drawn{p + "post_attention_layernorm.weight", 1, 0.08, []int{64}},
					drawn{p + "self_attn.q_proj.weight", 0, 0.08, []int{64, 64}}, drawn{p + "self_attn.k_proj.weight", 0, 0.08, []int{32, 64}},
					drawn{p + "self_attn.v_proj.weight", 0, 0.08, []int{32, 64}}, drawn{p + "self_attn.o_proj.weight", 0, 0.08, []int{64, 64}},
					drawn{p + "block_sparse_moe.router.layer.weight", 0, 0.3, []int{8, 64}},
					drawn{p + "block_sparse_moe.input_linear.weight", 0, 0.08, []int{8, 64, 64}},
					drawn{p + "block_sparse_moe.output_linear.weight", 0, 0.08, []int{8, 64, 32}})
				if shared > 0 {
					ts = append(ts, drawn{p + "shared_mlp.input_linear.weight", 0, 0.08, []int{2 * shared, 64}},
						drawn{p + "shared_mlp.output_linear.weight", 0, 0.08, []int{64, shared}})
				}
			}
			dir := drawCheckpoint(t, graniteMoEConfig(shared), ts)
			want, _ := importAndCheck(t, dir, lnTokens)
			checkGGUFForms(t, dir, lnTokens, want)
		})
	}
}

// TestGraniteScaleBounds: a Granite multiplier or a Cohere logit scale
// far outside the published ones (logits ÷ 3e-44 made every logit −Inf)
// is refused, in config.json and in GGUF metadata, naming the field.
func TestGraniteScaleBounds(t *testing.T) {
	c := graniteMoEConfig(0)
	c["logits_scaling"] = 3e-44
	if _, err := specFromConfig(drawCheckpoint(t, c, nil), 16); err == nil || !strings.Contains(err.Error(), `"logits_scaling" = 3e-44: rlx needs a multiplier in [1e-06, 1e+06]`) {
		t.Errorf("logits_scaling 3e-44: %v", err)
	}
	cohere := convertToGGUF(t, loadFixture(t, "cohere").dir, 0, false)
	if _, err := ggufSpec(t, editKV(t, cohere, map[string]any{"command-r.logit_scale": float32(1e30)})); err == nil || !strings.Contains(err.Error(), "command-r.logit_scale = 1.0000000150474662e+30") {
		t.Errorf("command-r.logit_scale 1e30: %v", err)
	}
	file := convertToGGUF(t, loadFixture(t, "granite").dir, 0, false)
	for _, key := range []string{"granite.logit_scale", "granite.embedding_scale"} {
		for _, v := range []float32{3e-44, 1e30} {
			_, err := ggufSpec(t, editKV(t, file, map[string]any{key: v}))
			if err == nil || !strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), "rlx needs a scale in [1e-06, 1e+06]") {
				t.Errorf("%s = %g: %v", key, v, err)
			}
		}
	}
}
