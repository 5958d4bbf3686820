package importer

import (
	"fmt"
	"maps"
	"math"
	"testing"
)

// apertusConfig is a tiny Apertus config (ApertusConfig's fields);
// extra replaces or adds fields.
func apertusConfig(extra map[string]any) map[string]any {
	cfg := map[string]any{
		"architectures": []string{"ApertusForCausalLM"}, "model_type": "apertus", "vocab_size": 256, "hidden_size": 64,
		"intermediate_size": 96, "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16,
		"max_position_embeddings": 512, "rms_norm_eps": 1e-5, "hidden_act": "xielu", "tie_word_embeddings": false,
		"attention_bias": false, "attention_dropout": 0.0, "pad_token_id": 3, "bos_token_id": 1, "eos_token_id": 2,
		"rope_parameters": map[string]any{"rope_type": "llama3", "rope_theta": 12000000.0, "factor": 8.0,
			"original_max_position_embeddings": 64, "low_freq_factor": 1.0, "high_freq_factor": 4.0},
	}
	maps.Copy(cfg, extra)
	return cfg
}

// apertusTensors are its tensors: per-head q/k norms, the renamed norms,
// the MLP without a gate and its xIELU parameters (α_p and α_n drawn so
// that softplus lands near 0.7 and 0.3 as the published ones do; β and
// ε as saved, 0-d, where withBuffers).
func apertusTensors(withBuffers bool) []drawn {
	ts := []drawn{{"model.embed_tokens.weight", 0, 0.5, []int{256, 64}}, {"lm_head.weight", 0, 0.08, []int{256, 64}},
		{"model.norm.weight", 1, 0.08, []int{64}}}
	for l := range 2 {
		p := fmt.Sprintf("model.layers.%d.", l)
		ts = append(ts, drawn{p + "attention_layernorm.weight", 1, 0.08, []int{64}}, drawn{p + "feedforward_layernorm.weight", 1, 0.08, []int{64}},
			drawn{p + "self_attn.q_norm.weight", 1, 0.08, []int{16}}, drawn{p + "self_attn.k_norm.weight", 1, 0.08, []int{16}},
			drawn{p + "mlp.up_proj.weight", 0, 0.3, []int{96, 64}}, drawn{p + "mlp.down_proj.weight", 0, 0.1, []int{64, 96}},
			drawn{p + "mlp.act_fn.alpha_p", 0, 0.3, []int{1}}, drawn{p + "mlp.act_fn.alpha_n", -1, 0.3, []int{1}})
		if withBuffers {
			ts = append(ts, drawn{p + "mlp.act_fn.beta", 0.5, 0, []int{}}, drawn{p + "mlp.act_fn.eps", -1e-6, 0, []int{}})
		}
		ts = append(ts, drawnAttention(p+"self_attn.")...)
	}
	return ts
}

// TestApertus: drawn Apertus checkpoints decode as the oracle does
// (xIELU as XIELUActivation computes it, each layer's parameters; the
// per-head q/k norms; Llama 3's rope), reading every tensor, with β and
// ε saved and without them (XIELUActivation's defaults), and their GGUF
// forms alike; a config without rope takes ApertusConfig's default Llama
// 3 scaling.
func TestApertus(t *testing.T) {
	for _, buffers := range []bool{true, false} {
		dir := drawCheckpoint(t, apertusConfig(nil), apertusTensors(buffers))
		want, _ := importAndCheck(t, dir, lnTokens)
		// Its GGUF form: llama.cpp's apertus, the xIELU parameters as
		// the global xielu.* arrays (β and ε absent where the checkpoint
		// has none), Llama 3's rope as rope_freqs.
		checkGGUFForms(t, dir, lnTokens, want)
	}
	refusesGGUF(t, convertToGGUF(t, drawCheckpoint(t, apertusConfig(nil), apertusTensors(true)), 0, false), []ggufRefusal{
		{map[string]any{"xielu.alpha_p": []float32{0.5}}, "metadata key xielu.alpha_p must be one float or an array of 2 floats, one a layer"},
		{map[string]any{"xielu.alpha_n": "x"}, "metadata key xielu.alpha_n must be one float or an array of 2 floats"},
		{map[string]any{"xielu.eps": []float32{0, float32(math.Inf(1))}}, "metadata key xielu.eps holds +Inf, want finite floats"},
	})
	cfg := apertusConfig(nil)
	delete(cfg, "rope_parameters")
	s, err := specFromConfig(drawCheckpoint(t, cfg, nil), 16)
	if err != nil {
		t.Fatal(err)
	}
	if s.theta != 1.2e7 || !s.xielu || !s.qkNorm {
		t.Errorf("defaults: θ %g, xielu %v, q/k norms %v", s.theta, s.xielu, s.qkNorm)
	}
	if _, err := specFromConfig(drawCheckpoint(t, apertusConfig(map[string]any{"hidden_act": "silu"}), nil), 16); err == nil {
		t.Errorf("an Apertus with silu: no error")
	}
}
