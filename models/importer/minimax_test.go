package importer

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// miniMaxM2Config is a tiny MiniMax-M2 config in its published form: 8
// experts of 32 rows (top 2) in every layer, rope on 8 of each head's 16
// dims, whole-projection q/k norms, the multi-token-prediction fields.
func miniMaxM2Config() map[string]any {
	return map[string]any{
		"architectures": []string{"MiniMaxM2ForCausalLM"}, "model_type": "minimax_m2", "vocab_size": 256, "hidden_size": 64,
		"intermediate_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16,
		"max_position_embeddings": 512, "rms_norm_eps": 1e-6, "hidden_act": "silu", "tie_word_embeddings": false,
		"num_local_experts": 8, "num_experts_per_tok": 2, "rope_theta": 5000000, "rotary_dim": 8, "attn_type_list": []int{1, 1},
		"qk_norm_type": "per_layer", "use_qk_norm": true, "scoring_func": "sigmoid", "use_routing_bias": true,
		"shared_intermediate_size": 0, "use_mtp": true, "num_mtp_modules": 3, "mtp_transformer_layers": 1,
		"router_aux_loss_coef": 0.001, "router_jitter_noise": 0.0,
	}
}

// miniMaxM2Tensors are miniMaxM2Config's tensors as published (Mixtral's
// block_sparse_moe, one tensor per expert, the selection bias beside the
// router).
func miniMaxM2Tensors() []drawn {
	ts := []drawn{{"model.embed_tokens.weight", 0, 0.08, []int{256, 64}}, {"lm_head.weight", 0, 0.08, []int{256, 64}},
		{"model.norm.weight", 1, 0.08, []int{64}}}
	for l := range 2 {
		p := fmt.Sprintf("model.layers.%d.", l)
		ts = append(ts, drawn{p + "input_layernorm.weight", 1, 0.08, []int{64}}, drawn{p + "post_attention_layernorm.weight", 1, 0.08, []int{64}},
			drawn{p + "self_attn.q_norm.weight", 1, 0.08, []int{64}}, drawn{p + "self_attn.k_norm.weight", 1, 0.08, []int{32}})
		ts = append(ts, drawnAttention(p+"self_attn.")...)
		m := p + "block_sparse_moe."
		ts = append(ts, drawn{m + "gate.weight", 0, 0.5, []int{8, 64}}, drawn{m + "e_score_correction_bias", 0, 0.1, []int{8}})
		for e := range 8 {
			q := fmt.Sprintf("%sexperts.%d.", m, e)
			ts = append(ts, drawn{q + "w1.weight", 0, 0.15, []int{32, 64}}, drawn{q + "w3.weight", 0, 0.15, []int{32, 64}},
				drawn{q + "w2.weight", 0, 0.15, []int{64, 32}})
		}
	}
	return ts
}

// TestMiniMaxM2: a drawn MiniMax-M2 checkpoint decodes as the oracle does
// (whole-projection q/k norms, rope on rotary_dim of each head, σ routing
// chosen by score + e_score_correction_bias, renormalised, unscaled),
// reading every tensor; the spec's fields, which the oracle takes from
// it, are asserted apart; its GGUF form decodes the same (F32; Q8_0 as
// its dequantised weights); the same weights under transformers 5's
// names decode bit for bit alike; a layer of linear attention is
// refused.
func TestMiniMaxM2(t *testing.T) {
	dir := drawCheckpoint(t, miniMaxM2Config(), miniMaxM2Tensors())
	base, _ := importAndCheck(t, dir, lnTokens)
	s, err := specFromConfig(dir, 16)
	if err != nil {
		t.Fatal(err)
	}
	if s.rotaryDim != 8 || !s.qkNormWhole || !s.sigmoidRouter || s.noSelectBias || !s.normTopK || s.routedScale != 1 || s.moeFFN != 32 ||
		s.theta != 5e6 || !slices.Equal(s.moeLayer, []bool{true, true}) {
		t.Errorf("spec: %+v", s)
	}
	// Its GGUF form (minimax-m2: the experts stacked, exp_probs_b,
	// rope.dimension_count the rotary dims).
	checkGGUFForms(t, dir, lnTokens, base)
	// The same weights as transformers 5 saves them: mlp.gate, its
	// e_score_correction_bias, the experts fused ([E, 2I, H] gate rows
	// then up's, [E, H, I]).
	want, _ := decodeHF(t, dir, lnTokens)
	st := readTensors(t, dir)
	for l := range 2 {
		p := fmt.Sprintf("model.layers.%d.", l)
		var gateUp, down []string
		for e := range 8 {
			q := fmt.Sprintf("%sblock_sparse_moe.experts.%d.", p, e)
			gateUp, down = append(gateUp, q+"w1.weight", q+"w3.weight"), append(down, q+"w2.weight")
		}
		stack(t, st, p+"mlp.experts.gate_up_proj", []int{8, 64, 64}, gateUp...)
		stack(t, st, p+"mlp.experts.down_proj", []int{8, 64, 32}, down...)
		for _, r := range []string{"gate.weight", "e_score_correction_bias"} {
			st.Tensors[p+"mlp."+r] = st.Tensors[p+"block_sparse_moe."+r]
			delete(st.Tensors, p+"block_sparse_moe."+r)
		}
	}
	writeSafetensors(t, filepath.Join(dir, "model.safetensors"), st)
	if got := decodeAllRead(t, dir, lnTokens); !tensor.BitsEqual(got, want) {
		t.Errorf("transformers 5's names and fused experts decode otherwise than the published form")
	}
	// Without head_dim, rotary_dim is a part of hidden_size ÷ heads.
	noHead := miniMaxM2Config()
	delete(noHead, "head_dim")
	if s, err := specFromConfig(drawCheckpoint(t, noHead, nil), 16); err != nil {
		t.Errorf("without head_dim: %v", err)
	} else if s.rotaryDim != 8 || s.headDim != 16 {
		t.Errorf("without head_dim: rotary %d of %d, want 8 of 16", s.rotaryDim, s.headDim)
	}
	linear := miniMaxM2Config()
	linear["attn_type_list"] = []int{0, 1}
	if _, err := specFromConfig(drawCheckpoint(t, linear, nil), 16); err == nil || !strings.Contains(err.Error(), `rlx implements full attention (1) in every layer only`) {
		t.Errorf("linear attention: %v", err)
	}
}

// miniMaxM25Config is MiniMax-M2.5's config.json as a public copy gives it
// (its FP8 quantization_config taken out), attn_type_list built below.
const miniMaxM25Config = `{"architectures": ["MiniMaxM2ForCausalLM"], "attn_type_list": ATTN,
  "auto_map": {"AutoConfig": "configuration_minimax_m2.MiniMaxM2Config", "AutoModelForCausalLM": "modeling_minimax_m2.MiniMaxM2ForCausalLM"},
  "head_dim": 128, "hidden_act": "silu", "hidden_size": 3072, "intermediate_size": 1536, "max_position_embeddings": 196608,
  "model_type": "minimax_m2", "mtp_transformer_layers": 1, "num_attention_heads": 48, "num_experts_per_tok": 8, "num_hidden_layers": 62,
  "num_key_value_heads": 8, "num_local_experts": 256, "num_mtp_modules": 3, "qk_norm_type": "per_layer", "rms_norm_eps": 1e-06,
  "rope_theta": 5000000, "rotary_dim": 64, "scoring_func": "sigmoid", "shared_intermediate_size": 0, "tie_word_embeddings": false,
  "transformers_version": "4.46.1", "use_cache": true, "use_mtp": true, "use_qk_norm": true, "use_routing_bias": true,
  "vocab_size": 200064, "torch_dtype": "bfloat16"}`

// TestMiniMaxM25Config reads MiniMax-M2.5's published config: 62 layers
// of 48 heads (8 kv) of 128, rope on 64 of them, 256 experts (top 8) of
// 1536 rows.
func TestMiniMaxM25Config(t *testing.T) {
	attn := "[" + strings.TrimSuffix(strings.Repeat("1, ", 62), ", ") + "]"
	s, err := specOf(t, strings.Replace(miniMaxM25Config, "ATTN", attn, 1))
	if err != nil {
		t.Fatal(err)
	}
	// As published, in FP8 blocks of 128 (fmt spelled float8_e4m3fn).
	fp8 := strings.Replace(strings.Replace(miniMaxM25Config, "ATTN", attn, 1), `"vocab_size": 200064`, `"vocab_size": 200064,
	  "quantization_config": {"activation_scheme": "dynamic", "fmt": "float8_e4m3fn", "quant_method": "fp8", "weight_block_size": [128, 128],
	  "modules_to_not_convert": ["gate", "e_score_correction_bias", "lm_head"]}`, 1)
	if _, err := specOf(t, fp8); err != nil {
		t.Errorf("the FP8 config: %v", err)
	}
	if s.layers != 62 || s.heads != 48 || s.kvHeads != 8 || s.headDim != 128 || s.rotaryDim != 64 || s.experts != 256 || s.topK != 8 ||
		s.moeFFN != 1536 || s.theta != 5e6 || s.eps != 1e-6 {
		t.Errorf("spec: %+v", s)
	}
}
