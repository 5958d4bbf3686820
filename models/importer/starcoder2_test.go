package importer

import (
	"fmt"
	"testing"
)

// TestStarcoder2: a drawn StarCoder2 checkpoint (LayerNorms with biases,
// biases on every projection, a gelu_tanh MLP of c_fc and c_proj
// without a gate) decodes as the oracle does, reading every tensor, and
// its GGUF form (llama.cpp's starcoder2: attention.layer_norm_epsilon,
// the norms' and ffn_up's and ffn_down's biases) the same, in F32 and,
// against its dequantised weights, in Q8_0. The starcoder2 fixture
// (transformers 5.17, run 43a) checks the same against transformers.
func TestStarcoder2(t *testing.T) {
	config := map[string]any{
		"architectures": []string{"Starcoder2ForCausalLM"}, "model_type": "starcoder2", "vocab_size": 256, "hidden_size": 64,
		"intermediate_size": 96, "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
		"max_position_embeddings": 512, "norm_epsilon": 1e-5, "use_bias": true, "hidden_act": "gelu_pytorch_tanh",
		"sliding_window": nil, "tie_word_embeddings": false, "residual_dropout": 0.0, "embedding_dropout": 0.0,
		"rope_parameters": map[string]any{"rope_type": "default", "rope_theta": 1e5},
	}
	ts := []drawn{{"model.embed_tokens.weight", 0, 0.08, []int{256, 64}}, {"lm_head.weight", 0, 0.08, []int{256, 64}},
		{"model.norm.weight", 1, 0.08, []int{64}}, {"model.norm.bias", 0, 0.08, []int{64}}}
	for l := range 2 {
		p := fmt.Sprintf("model.layers.%d.", l)
		for _, n := range []string{"input_layernorm", "post_attention_layernorm"} {
			ts = append(ts, drawn{p + n + ".weight", 1, 0.08, []int{64}}, drawn{p + n + ".bias", 0, 0.08, []int{64}})
		}
		for _, proj := range []struct {
			name    string
			out, in int
		}{{"self_attn.q_proj", 64, 64}, {"self_attn.k_proj", 32, 64}, {"self_attn.v_proj", 32, 64}, {"self_attn.o_proj", 64, 64},
			{"mlp.c_fc", 96, 64}, {"mlp.c_proj", 64, 96}} {
			ts = append(ts, drawn{p + proj.name + ".weight", 0, 0.08, []int{proj.out, proj.in}}, drawn{p + proj.name + ".bias", 0, 0.08, []int{proj.out}})
		}
	}
	dir := drawCheckpoint(t, config, ts)
	tokens := []int{1, 17, 42, 200, 5, 99, 255, 128}
	want, _ := importAndCheck(t, dir, tokens)
	checkGGUFForms(t, dir, tokens, want)
}
