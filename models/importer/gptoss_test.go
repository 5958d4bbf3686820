package importer

import (
	"fmt"
	"strings"
	"testing"
)

// gptOSSConfig is a tiny gpt-oss config: 8 experts of 32 rows, top 2,
// layer 0 sliding through a window of 3, layer 1 full, YaRN without
// truncation; limit is swiglu_limit (published 7).
func gptOSSConfig(limit float64) map[string]any {
	return map[string]any{
		"architectures": []string{"GptOssForCausalLM"}, "model_type": "gpt_oss", "vocab_size": 256, "hidden_size": 64,
		"intermediate_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16,
		"max_position_embeddings": 512, "rms_norm_eps": 1e-5, "hidden_act": "silu", "tie_word_embeddings": false,
		"attention_bias": true, "attention_dropout": 0.0, "num_local_experts": 8, "num_experts_per_tok": 2,
		"router_aux_loss_coef": 0.9, "output_router_logits": false, "swiglu_limit": limit, "sliding_window": 3,
		"layer_types": []string{"sliding_attention", "full_attention"},
		"rope_parameters": map[string]any{"rope_type": "yarn", "rope_theta": 150000.0, "factor": 32.0, "beta_fast": 32.0,
			"beta_slow": 1.0, "truncate": false, "original_max_position_embeddings": 64},
	}
}

func gptOSSTensors() []drawn {
	ts := []drawn{{"model.embed_tokens.weight", 0, 0.08, []int{256, 64}}, {"lm_head.weight", 0, 0.08, []int{256, 64}},
		{"model.norm.weight", 1, 0.08, []int{64}}}
	for l := range 2 {
		p := fmt.Sprintf("model.layers.%d.", l)
		ts = append(ts, drawn{p + "input_layernorm.weight", 1, 0.08, []int{64}}, drawn{p + "post_attention_layernorm.weight", 1, 0.08, []int{64}},
			drawn{p + "self_attn.sinks", 0, 1, []int{4}},
			drawn{p + "mlp.router.weight", 0, 0.3, []int{8, 64}}, drawn{p + "mlp.router.bias", 0, 0.3, []int{8}},
			drawn{p + "mlp.experts.gate_up_proj", 0, 0.08, []int{8, 64, 64}}, drawn{p + "mlp.experts.gate_up_proj_bias", 0, 0.3, []int{8, 64}},
			drawn{p + "mlp.experts.down_proj", 0, 0.08, []int{8, 32, 64}}, drawn{p + "mlp.experts.down_proj_bias", 0, 0.08, []int{8, 64}})
		ts = append(ts, linearOf(p+"self_attn.q_proj", 64, 64, true)...)
		ts = append(ts, linearOf(p+"self_attn.k_proj", 32, 64, true)...)
		ts = append(ts, linearOf(p+"self_attn.v_proj", 32, 64, true)...)
		ts = append(ts, linearOf(p+"self_attn.o_proj", 64, 64, true)...)
	}
	return ts
}

// TestGptOSS: a drawn gpt-oss checkpoint decodes as the oracle does
// (rlx's float64 reading of transformers' GptOss modeling: the sinks in
// each softmax's denominator, the router's bias and softmax over the
// chosen logits, the interleaved gate/up with their biases and clamps),
// reading every tensor, with the published limit and with one (0.5)
// that clamps; and the sinks, the router's bias and the clamp each move
// the logits.
func TestGptOSS(t *testing.T) {
	ts := gptOSSTensors()
	for _, limit := range []float64{7, 0.5} {
		t.Run(fmt.Sprint("limit ", limit), func(t *testing.T) {
			importAndCheck(t, drawCheckpoint(t, gptOSSConfig(limit), ts), lnTokens)
		})
	}
	base, _ := importAndCheck(t, drawCheckpoint(t, gptOSSConfig(7), ts), lnTokens)
	for _, c := range []struct {
		what   string
		config map[string]any
		scale  string // a tensor drawn with 4 times its spread
	}{
		{"the clamp", gptOSSConfig(0.5), ""},
		{"the sinks", gptOSSConfig(7), "self_attn.sinks"},
		{"the router's bias", gptOSSConfig(7), "mlp.router.bias"},
	} {
		moved := append([]drawn(nil), ts...)
		for i := range moved {
			if c.scale != "" && strings.HasSuffix(moved[i].name, c.scale) {
				moved[i].std *= 4
			}
		}
		got, _ := importAndCheck(t, drawCheckpoint(t, c.config, moved), lnTokens)
		if rel, _ := agreement(got, base); rel < 1e-3 {
			t.Errorf("%s moves the logits by only %.3g", c.what, rel)
		}
	}
}
