package importer

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/dialect/graph"
)

func specOf(t *testing.T, config string) (*spec, error) {
	t.Helper()
	return specOfCache(t, config, 8)
}

// specOfCache is specOf with a cache of maxTokens positions.
func specOfCache(t *testing.T, config string, maxTokens int) (*spec, error) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	return specFromConfig(dir, maxTokens)
}

const baseQwen35 = `{"architectures": ["Qwen3_5ForCausalLM"], "hidden_size": 64, "num_hidden_layers": 8, "vocab_size": 256,
  "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "intermediate_size": 96,
  "linear_num_key_heads": 2, "linear_num_value_heads": 4, "linear_key_head_dim": 16, "linear_value_head_dim": 16`

// TestConfigFields checks how config.json fields resolve: the older
// top-level rope fields, rope_parameters winning over the top-level
// partial_rotary_factor (transformers 5 writes both), layer types from
// full_attention_interval, and the MoE layer choice.
func TestConfigFields(t *testing.T) {
	s, err := specOf(t, baseQwen35+`, "rope_theta": 10000, "partial_rotary_factor": 0.5}`)
	if err != nil {
		t.Fatal(err)
	}
	if s.rotaryDim != 8 || s.theta != 10000 || math.Abs(s.invFreq[1]-math.Pow(10000, -0.25)) > 1e-15 {
		t.Errorf("legacy rope: rotary %d theta %g inv %v", s.rotaryDim, s.theta, s.invFreq)
	}
	want := []string{linearAttention, linearAttention, linearAttention, fullAttention, linearAttention, linearAttention, linearAttention, fullAttention}
	if !slices.Equal(s.layerTypes, want) {
		t.Errorf("layer types from the default interval: %v", s.layerTypes)
	}
	s, err = specOf(t, baseQwen35+`, "partial_rotary_factor": 0.25, "full_attention_interval": 2, "rope_parameters": {"rope_type": "default", "rope_theta": 1e6, "partial_rotary_factor": 0.5}}`)
	if err != nil {
		t.Fatal(err)
	}
	if s.rotaryDim != 8 || s.layerTypes[1] != fullAttention || s.layerTypes[2] != linearAttention {
		t.Errorf("rope_parameters: rotary %d, layer types %v", s.rotaryDim, s.layerTypes)
	}
	s, err = specOf(t, strings.Replace(baseQwen35, "Qwen3_5ForCausalLM", "Qwen3NextForCausalLM", 1)+
		`, "num_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 32, "shared_expert_intermediate_size": 32, "decoder_sparse_step": 2, "mlp_only_layers": [5]}`)
	if err != nil {
		t.Fatal(err)
	}
	if want := []bool{false, true, false, true, false, false, false, true}; !slices.Equal(s.moeLayer, want) {
		t.Errorf("MoE layers %v, want %v", s.moeLayer, want)
	}
}

// TestLlama3Rope checks the llama3 frequency bands against values worked
// out by hand: with original_max_position_embeddings 8192, low 1, high 4,
// wavelengths over 8192 are divided by the factor, under 2048 kept, and
// those between blended.
func TestLlama3Rope(t *testing.T) {
	s, err := specOf(t, `{"architectures": ["LlamaForCausalLM"], "hidden_size": 64, "num_hidden_layers": 1, "vocab_size": 8,
	  "num_attention_heads": 4, "intermediate_size": 8, "rope_parameters": {"rope_type": "llama3", "rope_theta": 500000.0,
	  "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}}`)
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range s.invFreq {
		base := math.Pow(500000, -float64(2*i)/16)
		wave := 2 * math.Pi / base
		want := base
		switch {
		case wave > 8192:
			want = base / 8
		case wave >= 2048:
			smooth := (8192/wave - 1) / 3
			want = (1-smooth)*base/8 + smooth*base
		}
		if math.Abs(f-want) > 1e-15*want {
			t.Errorf("inv_freq[%d] = %g, want %g", i, f, want)
		}
	}
	if !(s.invFreq[4] < math.Pow(500000, -0.5) && s.invFreq[4] > math.Pow(500000, -0.5)/8) {
		t.Errorf("inv_freq[4] (wavelength between the bands) = %g is not blended", s.invFreq[4])
	}
}

// TestLinearRope: rope_type "linear" divides every frequency by factor,
// in rope_parameters and in the older rope_scaling (its "type" key); a
// checkpoint with it decodes as the oracle does, from safetensors and
// from GGUF.
func TestLinearRope(t *testing.T) {
	for _, rope := range []string{`"rope_parameters": {"rope_type": "linear", "rope_theta": 10000.0, "factor": 4.0}`,
		`"rope_theta": 10000.0, "rope_scaling": {"type": "linear", "factor": 4.0}`} {
		s, err := specOf(t, `{"architectures": ["LlamaForCausalLM"], "hidden_size": 64, "num_hidden_layers": 1, "vocab_size": 8,
		  "num_attention_heads": 4, "intermediate_size": 8, `+rope+`}`)
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range s.invFreq {
			if want := math.Pow(10000, -float64(2*i)/16) / 4; math.Abs(f-want) > 1e-15*want {
				t.Errorf("%s: inv_freq[%d] = %g, want %g", rope, i, f, want)
			}
		}
	}
	// From safetensors and from GGUF (rope.scaling.type "linear" and its
	// factor, as llama.cpp writes them): the same logits, which moved.
	tokens := loadFixture(t, "llama").Tokens
	dir := variant(t, "llama", "LlamaForCausalLM", map[string]any{"rope_parameters": map[string]any{"rope_type": "linear", "rope_theta": 10000.0, "factor": 4.0}}, nil, 0)
	got, _ := importAndCheck(t, dir, tokens)
	plain, _ := importAndCheck(t, variant(t, "llama", "LlamaForCausalLM", map[string]any{"rope_parameters": map[string]any{"rope_type": "default", "rope_theta": 10000.0}}, nil, 0), tokens)
	if rel, _ := agreement(got, plain); rel < 1e-3 {
		t.Errorf("linear scaling by 4 moves the logits by only %.3g of max |logit|", rel)
	}
	checkGGUF(t, dir, "llama", tokens, got)
	if _, err := specOf(t, `{"architectures": ["LlamaForCausalLM"], "hidden_size": 64, "num_hidden_layers": 1, "vocab_size": 8,
	  "num_attention_heads": 4, "intermediate_size": 8, "rope_parameters": {"rope_type": "linear", "rope_theta": 10000.0}}`); err == nil ||
		!strings.Contains(err.Error(), `rope_type "linear" needs a finite positive factor, got 0`) {
		t.Errorf("linear rope without a factor: error %v", err)
	}
}

// gemmaFields are a one-layer Gemma 3's sizes; gemmaText the same as a
// text_config object (left open for one more field).
const (
	gemmaFields = `"hidden_size": 64, "num_hidden_layers": 1, "vocab_size": 8, "num_attention_heads": 4, "intermediate_size": 8`
	gemmaText   = `{` + gemmaFields
)

func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct{ config, want string }{
		{baseQwen35 + `, "linear_value_head_dim": 32}`, `linear_key_head_dim = 16 differs from linear_value_head_dim = 32`},
		{baseQwen35 + `, "layer_types": ["linear_attention"]}`, `field "layer_types" lists 1 layers, but num_hidden_layers = 8`},
		{baseQwen35 + `, "hidden_act": "gelu"}`, `field "hidden_act" = "gelu" is not supported (rlx implements "silu" only)`},
		{baseQwen35 + `, "quantization_config": {"quant_method": "hqq"}}`, `field "quantization_config" = {"quant_method": "hqq"} is not supported (rlx reads transformers' fine-grained FP8`},
		{baseQwen35 + `, "quantization_config": {"quant_method": "awq"}}`, `field "quantization_config": field "bits" = 0 is not supported (rlx reads 4)`},
		{baseQwen35 + `, "rope_parameters": {"rope_type": "default", "rope_theta": 1e6, "attention_factor": 2}}`, `field "attention_factor" is not supported for rope_type default`},
		{baseQwen35 + `, "partial_rotary_factor": 0.1}`, `partial_rotary_factor 0.1 gives a rotary dim of 1 for head_dim 16`},
		{`{"architectures": ["Qwen3ForCausalLM"], "hidden_size": 64, "num_hidden_layers": 1, "vocab_size": 8, "num_attention_heads": 4, "intermediate_size": 8, "use_sliding_window": true}`,
			`use_sliding_window is true but sliding_window is not a positive integer`},
		{`{"architectures": ["Qwen3ForCausalLM"], "hidden_size": 64, "num_hidden_layers": 1, "vocab_size": 8, "num_attention_heads": 4, "intermediate_size": 8, "layer_types": ["chunked_attention"]}`,
			`gives layer 0 type "chunked_attention", which is not supported for Qwen3ForCausalLM`},
		{`{"architectures": ["LlamaForCausalLM"], "hidden_size": 64, "num_hidden_layers": 1, "vocab_size": 8, "num_attention_heads": 4, "intermediate_size": 8, "use_sliding_window": true}`,
			`field "use_sliding_window" = true is not supported (rlx implements false only)`},
		{`{"architectures": ["LlamaForCausalLM"], "num_hidden_layers": 1}`, `missing field "hidden_size"`},
		{strings.Replace(baseQwen35, `"head_dim": 16`, `"head_dim": 16777217`, 1) + `}`, `field "head_dim" = 16777217 is larger than rlx reads (16777216)`},
		{strings.Replace(baseQwen35, `"num_hidden_layers": 8`, `"num_hidden_layers": 65537`, 1) + `}`, `field "num_hidden_layers" = 65537 is more layers than rlx reads (65536)`},
		{baseQwen35 + `, "rope_theta": 0}`, `rope_theta = 0: rlx needs a finite rope base above 1`},
		{baseQwen35 + `, "rms_norm_eps": -1e-6}`, `rms_norm_eps = -1e-06: rlx needs a finite, non-negative epsilon`},
		{baseQwen35 + `, "rms_norm_eps": 1e999}`, `field "rms_norm_eps" = 1e999 is not a number`},
		{baseQwen35 + `, "full_attention_interval": -1}`, `field "full_attention_interval" = -1 is not a non-negative integer`},
		{`{"architectures": ["LlamaForCausalLM", "Other"]}`, `names 2 architectures`},
		// Stop 56's: YaRN keyed by layer type (Gemma 3's form), two expert
		// counts that disagree, a Gemma 2 whose cap is zero.
		{`{"architectures": ["Gemma3ForCausalLM"], ` + gemmaFields + `, "rope_parameters": {"full_attention": {"rope_type": "yarn", "rope_theta": 1e6, "factor": 4, "original_max_position_embeddings": 64},
		  "sliding_attention": {"rope_type": "default", "rope_theta": 10000}}}`,
			`rope_parameters.full_attention: rlx reads YaRN and LongRoPE for one rope a model, not per layer type`},
		{`{"architectures": ["Qwen3MoeForCausalLM"], "hidden_size": 64, "num_hidden_layers": 1, "vocab_size": 8, "num_attention_heads": 4, "intermediate_size": 8,
		  "num_experts": 4, "num_local_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 8}`,
			`num_experts = 4 and num_local_experts = 8 disagree`},
		{`{"architectures": ["Gemma2ForCausalLM"], ` + gemmaFields + `, "final_logit_softcapping": 0}`,
			`field "final_logit_softcapping" = 0: rlx needs a finite positive cap, or null`},
		// The error paths of stop 55's architectures.
		{`{"architectures": ["Qwen3_5ForConditionalGeneration"], "vision_config": {}}`,
			`missing field "text_config" (Qwen3_5ForConditionalGeneration keeps the text model's fields there)`},
		{`{"architectures": ["Gemma3ForConditionalGeneration"], "tie_word_embeddings": false, "text_config": ` + gemmaText + `, "tie_word_embeddings": true}}`,
			`tie_word_embeddings is false here and true in text_config`},
		{`{"architectures": ["Gemma3ForCausalLM"], ` + gemmaFields + `, "hidden_activation": "gelu"}`,
			`field "hidden_activation" = "gelu" is not supported (rlx implements "gelu_pytorch_tanh" only)`},
		{`{"architectures": ["Gemma3ForCausalLM"], ` + gemmaFields + `, "final_logit_softcapping": 30.0}`,
			`field "final_logit_softcapping" = 30.0 is not supported`},
		{`{"architectures": ["Gemma3ForCausalLM"], ` + gemmaFields + `, "query_pre_attn_scalar": 0}`,
			`field "query_pre_attn_scalar" = 0: rlx needs a finite positive scalar`},
		{`{"architectures": ["Gemma3ForCausalLM"], ` + gemmaFields + `, "rope_local_base_freq": 1}`,
			`field "rope_local_base_freq" = 1: rlx needs a finite rope base above 1`},
		{`{"architectures": ["Gemma3ForCausalLM"], ` + gemmaFields + `, "rope_parameters": {"full_attention": {"rope_type": "default", "rope_theta": 1e6}, "chunked_attention": {}}}`,
			`field "rope_parameters" has an entry for "chunked_attention"`},
		{`{"architectures": ["Gemma3ForCausalLM"], ` + gemmaFields + `, "rope_parameters": {"full_attention": {"rope_type": "default", "rope_theta": 1e6}}}`,
			`field "rope_parameters" has no "sliding_attention" entry`},
		{`{"architectures": ["Qwen2ForCausalLM"], "hidden_size": 64, "num_hidden_layers": 2, "vocab_size": 8, "num_attention_heads": 4, "intermediate_size": 8, "layer_types": ["full_attention"]}`,
			`field "layer_types" = ["full_attention"] is not a list of 2 layer types`},
		{`{"architectures": ["MixtralForCausalLM"], "hidden_size": 64, "num_hidden_layers": 1, "vocab_size": 8, "num_attention_heads": 4, "intermediate_size": 8, "num_local_experts": 2, "num_experts_per_tok": 3}`,
			`num_experts_per_tok = 3 must be in [1, num_local_experts = 2]`},
		{`{"architectures": ["Qwen2MoeForCausalLM"], "hidden_size": 64, "num_hidden_layers": 1, "vocab_size": 8, "num_attention_heads": 4, "intermediate_size": 8, "num_experts": 2, "num_experts_per_tok": 1, "moe_intermediate_size": 8}`,
			`shared_expert_intermediate_size must be positive`},
		{`{"architectures": ["MistralForCausalLM"], "hidden_size": 64, "num_hidden_layers": 1, "vocab_size": 8, "num_attention_heads": 4, "intermediate_size": 8, "attention_bias": true}`,
			`field "attention_bias" = true is not supported (rlx implements false only)`},
		{`{"architectures": ["Qwen2ForCausalLM"], "hidden_size": 64, "num_hidden_layers": 1, "vocab_size": 8, "num_attention_heads": 4, "intermediate_size": 8, "attention_bias": true}`,
			`field "attention_bias" = true is not supported (rlx implements false only)`},
		{baseQwen35 + `, "attention_bias": true}`, `field "attention_bias" = true is not supported (rlx implements false only)`},
		{`{"architectures": ["Phi3ForCausalLM"], "hidden_size": 64, "num_hidden_layers": 1, "vocab_size": 8, "num_attention_heads": 4, "intermediate_size": 8,
		  "partial_rotary_factor": 0.75, "rope_scaling": {"type": "longrope", "long_factor": [1, 1], "short_factor": [1, 1]}}`,
			`rope_type "longrope" needs short_factor, a list of 6 numbers (rotary dim 12 / 2)`},
	} {
		if _, err := specOf(t, tc.config); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\n  error %v\n  want %q", tc.config, err, tc.want)
		}
	}
}

// TestPublishedConfigs reads config.json files as Qwen, Mistral, Phi and Gemma
// publish them (every field, sizes and all): each resolves, with the
// biases, head sizes, rope base and head tying its model has.
func TestPublishedConfigs(t *testing.T) {
	for _, tc := range []struct {
		name, config            string
		heads, kvHeads, headDim int
		theta                   float64
		qkvBias, tied           bool
	}{
		{"Qwen2.5-7B-Instruct", `{"architectures": ["Qwen2ForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 151643,
		  "eos_token_id": 151645, "hidden_act": "silu", "hidden_size": 3584, "initializer_range": 0.02, "intermediate_size": 18944,
		  "max_position_embeddings": 32768, "max_window_layers": 28, "model_type": "qwen2", "num_attention_heads": 28,
		  "num_hidden_layers": 28, "num_key_value_heads": 4, "rms_norm_eps": 1e-06, "rope_theta": 1000000.0, "sliding_window": 131072,
		  "tie_word_embeddings": false, "torch_dtype": "bfloat16", "transformers_version": "4.43.1", "use_cache": true,
		  "use_sliding_window": false, "vocab_size": 152064}`, 28, 4, 128, 1e6, true, false},
		{"Qwen2.5-0.5B-Instruct", `{"architectures": ["Qwen2ForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 151643,
		  "eos_token_id": 151645, "hidden_act": "silu", "hidden_size": 896, "initializer_range": 0.02, "intermediate_size": 4864,
		  "max_position_embeddings": 32768, "max_window_layers": 21, "model_type": "qwen2", "num_attention_heads": 14,
		  "num_hidden_layers": 24, "num_key_value_heads": 2, "rms_norm_eps": 1e-06, "rope_theta": 1000000.0, "sliding_window": 32768,
		  "tie_word_embeddings": true, "torch_dtype": "bfloat16", "transformers_version": "4.43.1", "use_cache": true,
		  "use_sliding_window": false, "vocab_size": 151936}`, 14, 2, 64, 1e6, true, true},
		{"Mistral-7B-Instruct-v0.3", `{"architectures": ["MistralForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 1,
		  "eos_token_id": 2, "hidden_act": "silu", "hidden_size": 4096, "initializer_range": 0.02, "intermediate_size": 14336,
		  "max_position_embeddings": 32768, "model_type": "mistral", "num_attention_heads": 32, "num_hidden_layers": 32,
		  "num_key_value_heads": 8, "rms_norm_eps": 1e-05, "rope_theta": 1000000.0, "sliding_window": null,
		  "tie_word_embeddings": false, "torch_dtype": "bfloat16", "transformers_version": "4.42.0.dev0", "use_cache": true,
		  "vocab_size": 32768}`, 32, 8, 128, 1e6, false, false},
		{"Mistral-7B-v0.1", `{"architectures": ["MistralForCausalLM"], "bos_token_id": 1, "eos_token_id": 2, "hidden_act": "silu",
		  "hidden_size": 4096, "initializer_range": 0.02, "intermediate_size": 14336, "max_position_embeddings": 32768,
		  "model_type": "mistral", "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8, "rms_norm_eps": 1e-05,
		  "rope_theta": 10000.0, "sliding_window": 4096, "tie_word_embeddings": false, "torch_dtype": "bfloat16",
		  "transformers_version": "4.34.0.dev0", "use_cache": true, "vocab_size": 32000}`, 32, 8, 128, 1e4, false, false},
		{"Phi-3-mini-4k-instruct", `{"_name_or_path": "Phi-3-mini-4k-instruct", "architectures": ["Phi3ForCausalLM"],
		  "attention_dropout": 0.0, "auto_map": {"AutoConfig": "configuration_phi3.Phi3Config", "AutoModelForCausalLM": "modeling_phi3.Phi3ForCausalLM"},
		  "bos_token_id": 1, "embd_pdrop": 0.0, "eos_token_id": 32000, "hidden_act": "silu", "hidden_size": 3072,
		  "initializer_range": 0.02, "intermediate_size": 8192, "max_position_embeddings": 4096, "model_type": "phi3",
		  "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 32, "original_max_position_embeddings": 4096,
		  "pad_token_id": 32000, "resid_pdrop": 0.0, "rms_norm_eps": 1e-05, "rope_scaling": null, "rope_theta": 10000.0,
		  "sliding_window": 2047, "tie_word_embeddings": false, "torch_dtype": "bfloat16", "transformers_version": "4.40.2",
		  "use_cache": true, "attention_bias": false, "vocab_size": 32064}`, 32, 32, 96, 1e4, false, false},
		{"phi-4", `{"architectures": ["Phi3ForCausalLM"], "attention_bias": false, "attention_dropout": 0.0, "bos_token_id": 100257,
		  "embd_pdrop": 0.0, "eos_token_id": 100265, "hidden_act": "silu", "hidden_size": 5120, "initializer_range": 0.02,
		  "intermediate_size": 17920, "max_position_embeddings": 16384, "model_type": "phi3", "num_attention_heads": 40,
		  "num_hidden_layers": 40, "num_key_value_heads": 10, "original_max_position_embeddings": 16384, "pad_token_id": 100349,
		  "resid_pdrop": 0.0, "rms_norm_eps": 1e-05, "rope_scaling": null, "rope_theta": 250000, "sliding_window": null,
		  "tie_word_embeddings": false, "torch_dtype": "bfloat16", "transformers_version": "4.47.0", "use_cache": true,
		  "vocab_size": 100352}`, 40, 10, 128, 250000, false, false},
		{"Qwen3-30B-A3B", `{"architectures": ["Qwen3MoeForCausalLM"], "attention_bias": false, "attention_dropout": 0.0,
		  "bos_token_id": 151643, "decoder_sparse_step": 1, "eos_token_id": 151645, "head_dim": 128, "hidden_act": "silu",
		  "hidden_size": 2048, "initializer_range": 0.02, "intermediate_size": 6144, "max_position_embeddings": 40960,
		  "max_window_layers": 48, "mlp_only_layers": [], "model_type": "qwen3_moe", "moe_intermediate_size": 768,
		  "norm_topk_prob": true, "num_attention_heads": 32, "num_experts": 128, "num_experts_per_tok": 8, "num_hidden_layers": 48,
		  "num_key_value_heads": 4, "output_router_logits": false, "rms_norm_eps": 1e-06, "rope_scaling": null,
		  "rope_theta": 1000000.0, "router_aux_loss_coef": 0.001, "sliding_window": null, "tie_word_embeddings": false,
		  "torch_dtype": "bfloat16", "transformers_version": "4.51.0", "use_cache": true, "use_sliding_window": false,
		  "vocab_size": 151936}`, 32, 4, 128, 1e6, false, false},
		{"gemma-3-1b-it", `{"architectures": ["Gemma3ForCausalLM"], "attention_bias": false, "attention_dropout": 0.0,
		  "attn_logit_softcapping": null, "bos_token_id": 2, "cache_implementation": "hybrid", "eos_token_id": [1, 106],
		  "final_logit_softcapping": null, "head_dim": 256, "hidden_activation": "gelu_pytorch_tanh", "hidden_size": 1152,
		  "initializer_range": 0.02, "intermediate_size": 6912, "max_position_embeddings": 32768, "model_type": "gemma3_text",
		  "num_attention_heads": 4, "num_hidden_layers": 26, "num_key_value_heads": 1, "pad_token_id": 0,
		  "query_pre_attn_scalar": 256, "rms_norm_eps": 1e-06, "rope_local_base_freq": 10000, "rope_scaling": null,
		  "rope_theta": 1000000, "sliding_window": 512, "sliding_window_pattern": 6, "torch_dtype": "bfloat16",
		  "transformers_version": "4.50.0.dev0", "use_cache": true, "vocab_size": 262144}`, 4, 1, 256, 1e6, false, true},
		{"Mixtral-8x7B-Instruct-v0.1", `{"architectures": ["MixtralForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 1,
		  "eos_token_id": 2, "hidden_act": "silu", "hidden_size": 4096, "initializer_range": 0.02, "intermediate_size": 14336,
		  "max_position_embeddings": 32768, "model_type": "mixtral", "num_attention_heads": 32, "num_experts_per_tok": 2,
		  "num_hidden_layers": 32, "num_key_value_heads": 8, "num_local_experts": 8, "output_router_logits": false,
		  "rms_norm_eps": 1e-05, "rope_theta": 1000000.0, "router_aux_loss_coef": 0.02, "sliding_window": null,
		  "tie_word_embeddings": false, "torch_dtype": "bfloat16", "transformers_version": "4.36.0.dev0", "use_cache": true,
		  "vocab_size": 32000}`, 32, 8, 128, 1e6, false, false},
	} {
		s, err := specOf(t, tc.config)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		moe := map[string][3]int{"Qwen3-30B-A3B": {128, 8, 768}, "Mixtral-8x7B-Instruct-v0.1": {8, 2, 14336}}
		if want, ok := moe[tc.name]; ok && (s.experts != want[0] || s.topK != want[1] || s.moeFFN != want[2] || s.sharedFFN != 0 ||
			!s.normTopK || slices.Contains(s.moeLayer, false)) {
			t.Errorf("%s: %d experts, %d chosen, of %d rows, shared %d, normalised %v, routed layers %v", tc.name, s.experts, s.topK, s.moeFFN, s.sharedFFN, s.normTopK, s.moeLayer)
		}
		if s.heads != tc.heads || s.kvHeads != tc.kvHeads || s.headDim != tc.headDim || s.theta != tc.theta ||
			(s.qkvBias == biasRequired) != tc.qkvBias || s.oBias != noBias || s.tied != tc.tied {
			t.Errorf("%s: heads %d/%d of %d, theta %g, q/k/v biases %v, o bias %v, tied %v", tc.name, s.heads, s.kvHeads, s.headDim, s.theta, s.qkvBias, s.oBias, s.tied)
		}
	}
}

// TestSmolLM3Config: SmolLM3's NoPE layers (no_rope_layers, else every
// no_rope_layer_interval-th layer, 4 by default), its defaults (rope base
// 2·10⁶, a tied head, 4 kv heads), its sliding layers (layer_types, by
// default the NoPE layers, only with use_sliding_window), and the
// fields refused.
func TestSmolLM3Config(t *testing.T) {
	const base = `{"architectures": ["SmolLM3ForCausalLM"], "hidden_size": 64, "num_hidden_layers": 8, "vocab_size": 256,
	  "num_attention_heads": 8, "intermediate_size": 96`
	s, err := specOf(t, base+`}`)
	if err != nil {
		t.Fatal(err)
	}
	nope := []bool{false, false, false, true, false, false, false, true}
	if !slices.Equal(s.noRope, nope) || s.theta != 2e6 || !s.tied || s.kvHeads != 4 || s.window != 0 {
		t.Errorf("defaults: noRope %v, theta %g, tied %v, kv heads %d, window %d", s.noRope, s.theta, s.tied, s.kvHeads, s.window)
	}
	s, err = specOf(t, base+`, "no_rope_layers": [1, 0, 1, 1, 1, 1, 1, 0, 1], "rope_parameters": {"rope_type": "default", "rope_theta": 1e4},
	  "tie_word_embeddings": false, "num_key_value_heads": 2, "use_sliding_window": true, "sliding_window": 3}`)
	if err != nil {
		t.Fatal(err)
	}
	nope = []bool{false, true, false, false, false, false, false, true}
	if !slices.Equal(s.noRope, nope) || s.theta != 1e4 || s.tied || s.kvHeads != 2 || s.window != 3 || !slices.Equal(s.sliding, nope) {
		t.Errorf("given: noRope %v, theta %g, tied %v, kv heads %d, window %d, sliding %v", s.noRope, s.theta, s.tied, s.kvHeads, s.window, s.sliding)
	}
	s, err = specOf(t, base+`, "no_rope_layer_interval": 2, "sliding_window": 3,
	  "layer_types": ["sliding_attention", "full_attention", "full_attention", "full_attention", "full_attention", "full_attention", "full_attention", "full_attention"]}`)
	if err != nil || s.window != 0 || !slices.Equal(s.noRope, []bool{false, true, false, true, false, true, false, true}) {
		t.Errorf("interval 2, no use_sliding_window: %+v, %v", s, err)
	}
	// SmolLM3-3B's layout of config.json (transformers 4.54's fields:
	// pretraining_tp and max_window_layers, which SmolLM3 does not read).
	s, err = specOf(t, `{"architectures": ["SmolLM3ForCausalLM"], "attention_bias": false, "attention_dropout": 0.0, "bos_token_id": null,
	  "eos_token_id": 128012, "hidden_act": "silu", "hidden_size": 64, "initializer_range": 0.02, "intermediate_size": 96,
	  "layer_types": ["full_attention", "full_attention", "full_attention", "full_attention"], "max_position_embeddings": 65536,
	  "max_window_layers": 28, "mlp_bias": false, "model_type": "smollm3", "no_rope_layer_interval": 4, "no_rope_layers": [1, 1, 1, 0],
	  "num_attention_heads": 4, "num_hidden_layers": 4, "num_key_value_heads": 2, "pad_token_id": 128004, "pretraining_tp": 2,
	  "rms_norm_eps": 1e-06, "rope_scaling": null, "rope_theta": 5000000.0, "sliding_window": null, "torch_dtype": "bfloat16",
	  "transformers_version": "4.54.0.dev0", "use_cache": false, "use_sliding_window": false, "vocab_size": 256}`)
	if err != nil || s.theta != 5e6 || !slices.Equal(s.noRope, []bool{false, false, false, true}) {
		t.Errorf("SmolLM3-3B's layout: %v", err)
	}
	for _, tc := range []struct{ config, want string }{
		{base + `, "no_rope_layers": [1, 0]}`, `field "no_rope_layers" = [1, 0] is not a list of at least 8 0s and 1s`},
		{base + `, "no_rope_layers": [1, 2, 1, 1, 1, 1, 1, 1]}`, `field "no_rope_layers" holds 2 at layer 1`},
		{base + `, "no_rope_layer_interval": 0}`, `field "no_rope_layer_interval" must be positive`},
		{base + `, "mlp_bias": true}`, `mlp_bias`},
		{base + `, "hidden_act": "gelu"}`, `"hidden_act" = "gelu" is not supported`},
	} {
		if _, err := specOf(t, tc.config); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.config, err, tc.want)
		}
	}
}

// TestOlmo3Glm4Exaone4Configs: OLMo 3's sliding layers (layer_types, by
// default all but each fourth), GLM-4's defaults (q/k/v biases, half of
// each head rotated, adjacent pairs, four norms, fused gate and up), and
// EXAONE 4's hybrid attention (sliding layers with rope, global ones
// without, from layer_types or sliding_window_pattern as an integer or
// a string of L and G; every layer global and rotated without a
// sliding_window), and the fields refused.
func TestOlmo3Glm4Exaone4Configs(t *testing.T) {
	const sizes = `"hidden_size": 64, "num_hidden_layers": 8, "vocab_size": 256, "num_attention_heads": 4, "num_key_value_heads": 2,
	  "head_dim": 16, "intermediate_size": 96`
	every4 := []bool{true, true, true, false, true, true, true, false}
	not := func(b []bool) []bool {
		out := make([]bool, len(b))
		for i, x := range b {
			out[i] = !x
		}
		return out
	}
	s, err := specOf(t, `{"architectures": ["Olmo3ForCausalLM"], `+sizes+`, "sliding_window": 3}`)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.sliding, every4) || s.window != 3 || !s.postNorms || !s.qkNormWhole || s.noRope != nil || s.localInvFreq != nil {
		t.Errorf("OLMo 3 defaults: sliding %v, window %d, post-norms %v, whole q/k norms %v, noRope %v", s.sliding, s.window, s.postNorms, s.qkNormWhole, s.noRope)
	}
	s, err = specOf(t, `{"architectures": ["Olmo3ForCausalLM"], `+sizes+`, "sliding_window": 4096,
	  "layer_types": ["full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention"],
	  "rope_scaling": {"attention_factor": 1.2079441541679836, "beta_fast": 32, "beta_slow": 1, "factor": 8.0, "original_max_position_embeddings": 8192, "rope_type": "yarn"},
	  "rope_theta": 500000}`)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.sliding, []bool{false, true, false, true, false, true, false, true}) || s.window != 0 || s.ropeAttn != 1.2079441541679836 ||
		!slices.Equal(s.localInvFreq, ropeFrequencies(500000, 16)) || slices.Equal(s.invFreq, s.localInvFreq) {
		t.Errorf("OLMo 3 layer_types, a window past the cache, YaRN (the full layers only): sliding %v, window %d, rope factor %g, local frequencies %v",
			s.sliding, s.window, s.ropeAttn, s.localInvFreq)
	}
	// transformers 5's form: the rope keyed by layer type.
	s, err = specOf(t, `{"architectures": ["Olmo3ForCausalLM"], `+sizes+`, "sliding_window": 3,
	  "rope_parameters": {"full_attention": {"rope_type": "yarn", "rope_theta": 500000.0, "factor": 8.0, "original_max_position_embeddings": 8192,
	  "attention_factor": 1.2079441541679836, "beta_fast": 32, "beta_slow": 1}, "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0}}}`)
	if err != nil {
		t.Fatal(err)
	}
	if s.ropeAttn != 1.2079441541679836 || s.theta != 500000 || !slices.Equal(s.localInvFreq, ropeFrequencies(10000, 16)) || !slices.Equal(s.sliding, every4) {
		t.Errorf("OLMo 3 keyed rope: factor %g, base %g, local frequencies %v, sliding %v", s.ropeAttn, s.theta, s.localInvFreq, s.sliding)
	}

	s, err = specOf(t, `{"architectures": ["Glm4ForCausalLM"], `+sizes+`}`)
	if err != nil {
		t.Fatal(err)
	}
	if s.qkvBias != biasRequired || s.oBias != noBias || s.rotaryDim != 8 || s.ropeStyle != graph.RopeGPTJ || !s.sandwich || !s.fusedGateUp || s.postNorms {
		t.Errorf("GLM-4 defaults: q/k/v biases %v, o bias %v, rotary dim %d, style %s, sandwich %v, fused gate/up %v", s.qkvBias, s.oBias, s.rotaryDim, s.ropeStyle, s.sandwich, s.fusedGateUp)
	}
	// GLM-4-9B-0414's layout of config.json.
	s, err = specOf(t, `{"architectures": ["Glm4ForCausalLM"], "attention_bias": true, "attention_dropout": 0.0,
	  "eos_token_id": [151329, 151336, 151338], "head_dim": 128, "hidden_act": "silu", "hidden_size": 4096, "initializer_range": 0.02,
	  "intermediate_size": 13696, "max_position_embeddings": 32768, "model_type": "glm4", "num_attention_heads": 32,
	  "num_hidden_layers": 40, "num_key_value_heads": 2, "pad_token_id": 151329, "partial_rotary_factor": 0.5, "rms_norm_eps": 1e-05,
	  "rope_theta": 10000.0, "tie_word_embeddings": false, "torch_dtype": "bfloat16", "transformers_version": "4.51.3",
	  "use_cache": true, "vocab_size": 151552}`)
	if err != nil || s.rotaryDim != 64 || s.headDim != 128 || s.kvHeads != 2 || s.qkvBias != biasRequired {
		t.Errorf("GLM-4-9B-0414's layout: %v", err)
	}
	if s, err := specOf(t, `{"architectures": ["Glm4ForCausalLM"], `+sizes+`, "attention_bias": false}`); err != nil || s.qkvBias != noBias {
		t.Errorf("GLM-4 without attention_bias: %v", err)
	}

	exaone := func(extra string) *spec {
		t.Helper()
		s, err := specOf(t, `{"architectures": ["Exaone4ForCausalLM"], `+sizes+extra+`}`)
		if err != nil {
			t.Fatalf("%s: %v", extra, err)
		}
		if !s.postNorms || !s.qkNorm || s.qkNormWhole {
			t.Errorf("%s: post-norms %v, per-head q/k norms %v, whole %v", extra, s.postNorms, s.qkNorm, s.qkNormWhole)
		}
		return s
	}
	if s := exaone(``); s.sliding != nil || s.noRope != nil || s.window != 0 {
		t.Errorf("EXAONE 4 without a window: sliding %v, noRope %v, window %d", s.sliding, s.noRope, s.window)
	}
	if s := exaone(`, "sliding_window": 3`); !slices.Equal(s.sliding, every4) || !slices.Equal(s.noRope, not(every4)) || s.window != 3 {
		t.Errorf("EXAONE 4, a window: sliding %v, noRope %v, window %d", s.sliding, s.noRope, s.window)
	}
	lg := []bool{true, false, true, false, true, false, true, false}
	if s := exaone(`, "sliding_window": 3, "sliding_window_pattern": "LG"`); !slices.Equal(s.sliding, lg) || !slices.Equal(s.noRope, not(lg)) {
		t.Errorf("EXAONE 4, pattern LG: sliding %v, noRope %v", s.sliding, s.noRope)
	}
	if s := exaone(`, "sliding_window": 3, "sliding_window_pattern": 2`); !slices.Equal(s.sliding, lg) {
		t.Errorf("EXAONE 4, pattern 2: sliding %v", s.sliding)
	}
	if s := exaone(`, "sliding_window": 4096, "sliding_window_pattern": "LLLG"`); !slices.Equal(s.noRope, not(every4)) || s.window != 0 {
		t.Errorf("EXAONE 4, a window past the cache: noRope %v (the global layers still take none), window %d", s.noRope, s.window)
	}
	if s := exaone(`, "sliding_window": null, "sliding_window_pattern": "LLLG"`); s.noRope != nil || s.sliding != nil {
		t.Errorf("EXAONE 4, a null window: noRope %v, sliding %v", s.noRope, s.sliding)
	}
	for _, tc := range []struct{ config, want string }{
		{`{"architectures": ["Exaone4ForCausalLM"], ` + sizes + `, "sliding_window": 3, "sliding_window_pattern": "LLXG"}`, `"sliding_window_pattern" = "LLXG" is neither`},
		{`{"architectures": ["Exaone4ForCausalLM"], ` + sizes + `, "sliding_window": 3, "sliding_window_pattern": 0}`, `"sliding_window_pattern" = 0 is neither`},
		{`{"architectures": ["Exaone4ForCausalLM"], ` + sizes + `, "attention_bias": true}`, `attention_bias`},
		{`{"architectures": ["Olmo3ForCausalLM"], ` + sizes + `, "layer_types": ["full_attention"]}`, `"layer_types" = ["full_attention"] is not a list of 8 layer types`},
		{`{"architectures": ["Olmo3ForCausalLM"], ` + sizes + `, "layer_types": ["chunked_attention", "full_attention", "full_attention", "full_attention", "full_attention", "full_attention", "full_attention", "full_attention"]}`, `type "chunked_attention", which is not supported for Olmo3ForCausalLM`},
		{`{"architectures": ["Glm4ForCausalLM"], ` + sizes + `, "partial_rotary_factor": 0.1}`, `rotary dim of 1`},
		{`{"architectures": ["Olmo3ForCausalLM"], ` + sizes + `, "rope_parameters": {"full_attention": {"rope_type": "default", "rope_theta": 1e4},
		  "sliding_attention": {"rope_type": "yarn", "rope_theta": 1e4, "factor": 4, "original_max_position_embeddings": 128}}}`, `rope_parameters.sliding_attention: rlx reads YaRN and LongRoPE for one rope a model`},
		{`{"architectures": ["Olmo3ForCausalLM"], ` + sizes + `, "rope_parameters": {"full_attention": {"rope_type": "default", "rope_theta": 1e4}}}`, `"rope_parameters" has no "sliding_attention" entry`},
		{`{"architectures": ["Olmo3ForCausalLM"], ` + sizes + `, "rope_parameters": {"full_attention": {"rope_type": "default", "rope_theta": 1e4},
		  "sliding_attention": {"rope_type": "default", "rope_theta": 1e4}, "chunked_attention": {}}}`, `has an entry for "chunked_attention" (Olmo3ForCausalLM has`},
	} {
		if _, err := specOf(t, tc.config); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.config, err, tc.want)
		}
	}
}

// TestCohereErnieConfigs: Cohere's LayerNorms, parallel block, logit
// scale and tied head by default; Cohere 2's sliding layers (rotated)
// and global ones (no rope), and no rope anywhere without a window, as
// Cohere2Attention; ERNIE 4.5's adjacent-pair rope; the fields refused.
func TestCohereErnieConfigs(t *testing.T) {
	const sizes = `"hidden_size": 64, "num_hidden_layers": 8, "vocab_size": 256, "num_attention_heads": 4, "num_key_value_heads": 2,
	  "head_dim": 16, "intermediate_size": 96`
	s, err := specOf(t, `{"architectures": ["CohereForCausalLM"], `+sizes+`}`)
	if err != nil {
		t.Fatal(err)
	}
	if !s.layerNorm || !s.parallel || s.logitMul != 0.0625 || !s.tied || s.eps != 1e-5 || s.ropeStyle != graph.RopeGPTJ || s.noRope != nil {
		t.Errorf("Cohere defaults: layer norm %v, parallel %v, logit × %g, tied %v, eps %g, style %s, noRope %v", s.layerNorm, s.parallel, s.logitMul, s.tied, s.eps, s.ropeStyle, s.noRope)
	}
	every4 := []bool{true, true, true, false, true, true, true, false}
	s, err = specOf(t, `{"architectures": ["Cohere2ForCausalLM"], `+sizes+`, "sliding_window": 3, "logit_scale": 0.25, "tie_word_embeddings": false}`)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.sliding, every4) || s.window != 3 || s.logitMul != 0.25 || s.tied {
		t.Errorf("Cohere 2: sliding %v, window %d, logit × %g, tied %v", s.sliding, s.window, s.logitMul, s.tied)
	}
	for i, slides := range every4 {
		if s.noRope[i] == slides {
			t.Errorf("Cohere 2 layer %d: sliding %v, no rope %v", i, slides, s.noRope[i])
		}
	}
	s, err = specOf(t, `{"architectures": ["Cohere2ForCausalLM"], `+sizes+`, "sliding_window": null, "sliding_window_pattern": 2}`)
	if err != nil || !slices.Equal(s.noRope, []bool{true, true, true, true, true, true, true, true}) || s.window != 0 {
		t.Errorf("Cohere 2 without a window: %v, noRope %v", err, s.noRope)
	}
	s, err = specOf(t, `{"architectures": ["Ernie4_5ForCausalLM"], `+sizes+`, "use_bias": false, "tie_word_embeddings": true}`)
	if err != nil || s.ropeStyle != graph.RopeGPTJ || !s.tied || s.qkvBias != noBias {
		t.Errorf("ERNIE 4.5: %v", err)
	}
	for _, tc := range []struct{ config, want string }{
		{`{"architectures": ["CohereForCausalLM"], ` + sizes + `, "logit_scale": 0}`, `"logit_scale" = 0: rlx needs a scale in [1e-06, 1e+06]`},
		{`{"architectures": ["CohereForCausalLM"], ` + sizes + `, "attention_bias": true}`, `attention_bias`},
		{`{"architectures": ["Ernie4_5ForCausalLM"], ` + sizes + `, "use_bias": true}`, `"use_bias" = true is not supported`},
	} {
		if _, err := specOf(t, tc.config); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.config, err, tc.want)
		}
	}
}

// TestStop61ConfigErrors: the config fields stop 61's architectures
// refuse, each named in its error, and LFM2's first published
// full_attn_idxs (the attention layers, in place of layer_types or
// beside them).
func TestStop61ConfigErrors(t *testing.T) {
	const sizes = `"hidden_size": 64, "num_hidden_layers": 4, "vocab_size": 256, "num_attention_heads": 4, "num_key_value_heads": 2,
	  "head_dim": 16, "intermediate_size": 96`
	lfm2 := `{"architectures": ["Lfm2ForCausalLM"], ` + sizes
	s, err := specOf(t, lfm2+`, "full_attn_idxs": [1, 3]}`)
	if err != nil || !slices.Equal(s.layerTypes, []string{shortConvLayer, fullAttention, shortConvLayer, fullAttention}) {
		t.Errorf("full_attn_idxs [1, 3]: %v, layer types %v", err, s.layerTypes)
	}
	for _, tc := range []struct{ config, want string }{
		{lfm2 + `, "full_attn_idxs": [1, 3], "layer_types": ["conv", "conv", "conv", "full_attention"]}`, `"full_attn_idxs" = [1, 3] disagrees with layer_types at layer 1`},
		{lfm2 + `, "full_attn_idxs": [4]}`, `"full_attn_idxs" names layer 4 of 4`},
		{lfm2 + `, "full_attn_idxs": "all"}`, `"full_attn_idxs" = "all" is not a list of layer indices`},
		{lfm2 + `, "block_auto_adjust_ff_dim": true, "block_multiple_of": 0}`, `"block_multiple_of" must be positive`},
		{lfm2 + `, "conv_L_cache": 1}`, `"conv_L_cache" = 1: rlx needs a window of at least 2`},
		{lfm2 + `, "conv_bias": true}`, `"conv_bias" = true is not supported`},
		{`{"architectures": ["Starcoder2ForCausalLM"], ` + sizes + `, "use_bias": false}`, `"use_bias" = false is not supported`},
		{`{"architectures": ["Starcoder2ForCausalLM"], ` + sizes + `, "hidden_act": "gelu"}`, `"hidden_act" = "gelu" is not supported (rlx implements "gelu_pytorch_tanh" only)`},
		{`{"architectures": ["ArceeForCausalLM"], ` + sizes + `, "hidden_act": "silu"}`, `"hidden_act" = "silu" is not supported (rlx implements "relu2" only)`},
		{`{"architectures": ["OlmoeForCausalLM"], ` + sizes + `, "num_experts": 4, "num_experts_per_tok": 2, "clip_qkv": 8}`, `"clip_qkv" = 8 is not supported`},
		{`{"architectures": ["SeedOssForCausalLM"], ` + sizes + `, "mlp_bias": true}`, `"mlp_bias" = true is not supported`},
	} {
		if _, err := specOf(t, tc.config); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.config, err, tc.want)
		}
	}
	if s, err := specOf(t, `{"architectures": ["SeedOssForCausalLM"], `+sizes+`, "attention_out_bias": true}`); err != nil || s.oBias != biasRequired || s.qkvBias != biasRequired {
		t.Errorf("Seed-OSS with attention_out_bias: %v", err)
	}
}

// TestArchitecturesTable: in each table of readers (config.json's
// architectures, GGUF's general.architecture values) every name has one
// reader (a second row for a name would never be reached), and the
// exported list holds every name once, sorted.
func TestArchitecturesTable(t *testing.T) {
	checkNameTable(t, "architectures", architectures(), Architectures())
	checkNameTable(t, "ggufArchitectures", ggufArchitectures(), GGUFArchitectures())
}

func checkNameTable[R any](t *testing.T, table string, rows []named[R], listed []string) {
	t.Helper()
	seen := map[string]bool{}
	for _, r := range rows {
		if len(r.names) == 0 {
			t.Errorf("%s: a row names nothing", table)
		}
		for _, n := range r.names {
			if seen[n] {
				t.Errorf("%s: %s has two readers", table, n)
			}
			seen[n] = true
		}
	}
	if len(listed) != len(seen) || !slices.IsSorted(listed) {
		t.Errorf("%s: the list is %v: want the %d names of the table, sorted", table, listed, len(seen))
	}
	for _, n := range listed {
		if r, ok := lookup(rows, n); !ok || !slices.Contains(r.names, n) {
			t.Errorf("%s: looking up %q finds no row naming it", table, n)
		}
	}
}
