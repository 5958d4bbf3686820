package importer

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// TestNemotronHMoE decodes drawn Nemotron-H checkpoints whose layers are
// all routed experts ("EE"), as published (one tensor per expert) and in
// a latent of 24 (Nemotron 3 Super's form), through the interpreter and
// compares each step's logits with nemotronMoEReference, written in
// float64 from NemotronHMoE (DeepSeek-V3's routing, relu² experts without
// a gate, the latent's projections, the relu² shared expert). The same
// weights as transformers 5 saves them (experts.up_proj [E, I, in],
// experts.down_proj [E, in, I]) decode bit for bit as the per-expert form.
func TestNemotronHMoE(t *testing.T) {
	tokens := []int{1, 17, 42, 200, 5, 99, 255, 128}
	for _, latent := range []int{0, 24} {
		dir, w := drawnNemotronHValues(t, "EE", latent)
		s := importedSpec(t, dir)
		if !slices.Equal(s.moeLayer, []bool{true, true}) || s.experts != 8 || s.topK != 2 || s.groups != 2 || s.openGroups != 1 ||
			s.moeLatent != latent || s.sharedFFN != 48 || s.routedScale != 2.5 || !s.normTopK || !s.sigmoidRouter {
			t.Fatalf("latent %d: the spec read %+v", latent, s)
		}
		got := decodeAllRead(t, dir, tokens)
		checkReference(t, fmt.Sprintf("latent %d", latent), got.Floats(), nemotronMoEReference(w, tokens, 2, latent))

		// transformers 5's fused tables, under model. instead of backbone.
		st := readTensors(t, dir)
		in := 64
		if latent > 0 {
			in = latent
		}
		for l := range 2 {
			p := fmt.Sprintf("backbone.layers.%d.mixer.experts.", l)
			for _, role := range []struct {
				name       string
				rows, cols int
			}{{"up_proj", 32, in}, {"down_proj", in, 32}} {
				var parts []string
				for e := range 8 {
					parts = append(parts, fmt.Sprintf("%s%d.%s.weight", p, e, role.name))
				}
				stack(t, st, p+role.name, []int{8, role.rows, role.cols}, parts...)
			}
		}
		fused := &tensor.Safetensors{Tensors: map[string]*tensor.Tensor{"lm_head.weight": st.Tensors["lm_head.weight"]}}
		for name, v := range st.Tensors {
			if name != "lm_head.weight" {
				fused.Tensors["model."+strings.TrimPrefix(name, "backbone.")] = v
			}
		}
		writeSafetensors(t, filepath.Join(dir, "model.safetensors"), fused)
		if again := decodeAllRead(t, dir, tokens); !tensor.BitsEqual(again, got) {
			t.Errorf("latent %d: the fused experts decode otherwise than the per-expert ones", latent)
		}
	}
}

// nemotronMoEReference decodes tokens through drawnNemotronHValues'
// model of layers routed-expert layers ("E…E"; no state, so each token
// alone) in float64: x = embeddings[token]; per layer x += the shared
// expert's down(relu(up(h))²) + the routed experts' weighted sum of h =
// RMSNorm(x); the logits lm_head · RMSNorm(x). The routing is
// DeepseekV3MoE's route_tokens_to_experts: scores σ(gate·h), the choice
// scores + e_score_correction_bias, the 8 experts in 2 groups ranked by
// their two best choices, the best group open (the other's choices 0),
// the top 2 chosen, weighted by their scores renormalised (+1e-20) × 2.5.
func nemotronMoEReference(w map[string][]float32, tokens []int, layers, latent int) [][]float64 {
	const e, ne, k, ffn, shared, eps = 64, 8, 2, 32, 48, 1e-5
	relu2 := func(v []float64) []float64 {
		out := make([]float64, len(v))
		for i, x := range v {
			out[i] = math.Max(x, 0) * math.Max(x, 0)
		}
		return out
	}
	var out [][]float64
	for _, tok := range tokens {
		x := row64(w["backbone.embeddings.weight"], tok, e)
		for l := range layers {
			p := fmt.Sprintf("backbone.layers.%d.mixer.", l)
			h := rms64(x, eps, w[fmt.Sprintf("backbone.layers.%d.norm.weight", l)])
			// NemotronHTopkRouter's routing, as the oracle's sigmoidRoute
			// computes it, on a spec written here.
			route := &spec{experts: ne, topK: k, normTopK: true, routedScale: 2.5, groups: 2, openGroups: 1}
			chosen, wts := sigmoidRoute(route, matvec64(w[p+"gate.weight"], h, ne), row64(w[p+"gate.e_score_correction_bias"], 0, ne))
			xin := h
			if latent > 0 {
				xin = matvec64(w[p+"fc1_latent_proj.weight"], h, latent)
			}
			y := make([]float64, len(xin))
			for c, j := range chosen {
				a := relu2(matvec64(w[fmt.Sprintf("%sexperts.%d.up_proj.weight", p, j)], xin, ffn))
				d := matvec64(w[fmt.Sprintf("%sexperts.%d.down_proj.weight", p, j)], a, len(xin))
				for i := range y {
					y[i] += d[i] * wts[c]
				}
			}
			if latent > 0 {
				y = matvec64(w[p+"fc2_latent_proj.weight"], y, e)
			}
			sh := matvec64(w[p+"shared_experts.down_proj.weight"], relu2(matvec64(w[p+"shared_experts.up_proj.weight"], h, shared)), e)
			for i := range x {
				x[i] += y[i] + sh[i]
			}
		}
		out = append(out, matvec64(w["lm_head.weight"], rms64(x, eps, w["backbone.norm_f.weight"]), 256))
	}
	return out
}

// TestNemotronHMoEGGUF: drawn Nemotron 3 checkpoints (experts in layers
// 1 and 3 of ME*E; in a latent of 24 in layers 0 and 3 of E*ME) converted
// to nemotron_h_moe as convert_hf_to_gguf writes them decode as the
// safetensors do (F32 within 1e-5; Q8_0 within 1e-5 of its dequantised
// weights).
func TestNemotronHMoEGGUF(t *testing.T) {
	tokens := []int{1, 17, 42, 200, 5, 99, 255, 128}
	for _, tc := range []struct {
		pattern string
		latent  int
	}{{"ME*E", 0}, {"E*ME", 24}} {
		t.Run(tc.pattern, func(t *testing.T) {
			dir := drawnNemotronHOf(t, tc.pattern, tc.latent)
			checkGGUFForms(t, dir, tokens, decodeAllRead(t, dir, tokens))
		})
	}
}

// TestNemotronHMoEErrors: the refusals of Nemotron-H's expert fields, in
// config.json and in a nemotron_h_moe file, each naming the field.
func TestNemotronHMoEErrors(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(drawnNemotronHOf(t, "ME*E", 0), "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	config := string(data)
	edit := func(old, new string) string {
		if !strings.Contains(config, old) {
			t.Fatalf("the config holds no %q", old)
		}
		return strings.Replace(config, old, new, 1)
	}
	for _, tc := range []struct{ config, want string }{
		{edit(`"hybrid_override_pattern": "ME*E"`, `"hybrid_override_pattern": "MX*E"`), `layer 1 is of kind "X", which is not supported`},
		{edit(`"n_routed_experts": 8`, `"x_n_routed_experts": 8`), `missing field "n_routed_experts"`},
		{edit(`"num_experts_per_tok": 2`, `"num_experts_per_tok": 9`), "num_experts_per_tok = 9 must be in [1, n_routed_experts = 8]"},
		{edit(`"moe_shared_expert_intermediate_size": 48`, `"moe_shared_expert_intermediate_size": 0`), "moe_shared_expert_intermediate_size = 0 positive"},
		{edit(`"routed_scaling_factor": 2.5`, `"routed_scaling_factor": -1`), "routed_scaling_factor = -1 must be positive and finite"},
		{edit(`"n_group": 2`, `"n_group": 3`), "n_group = 3, topk_group = 1: rlx needs 1 ≤ topk_group ≤ n_group, n_group dividing the 8 experts"},
	} {
		if _, err := specOf(t, tc.config); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("want an error containing %q, got %v", tc.want, err)
		}
	}
	file := convertToGGUF(t, drawnNemotronHOf(t, "ME*E", 0), 0, false)
	refusesGGUF(t, file, []ggufRefusal{
		{map[string]any{"nemotron_h_moe.expert_gating_func": uint32(1)}, "nemotron_h_moe.expert_gating_func = 1 is not supported for nemotron_h_moe"},
		{map[string]any{"nemotron_h_moe.expert_used_count": uint32(0)}, "nemotron_h_moe.expert_used_count = 0 must be in [1, nemotron_h_moe.expert_count = 8]"},
		{map[string]any{"nemotron_h_moe.expert_weights_scale": float32(math.Inf(1))}, "nemotron_h_moe.expert_weights_scale = +Inf must be positive and finite"},
		{map[string]any{"nemotron_h_moe.expert_group_used_count": uint32(0)}, "rlx needs 1 ≤ nemotron_h_moe.expert_group_used_count"},
	})
}

// nemotron3NanoConfig is NVIDIA-Nemotron-3-Nano-30B-A3B's config.json as
// published (its fields as a public copy gives them).
const nemotron3NanoConfig = `{
  "architectures": ["NemotronHForCausalLM"], "attention_bias": false, "attention_dropout": 0.0, "bos_token_id": 1, "chunk_size": 128,
  "conv_kernel": 4, "eos_token_id": 2, "expand": 2, "head_dim": 128, "hidden_dropout": 0.0, "hidden_size": 2688,
  "hybrid_override_pattern": "MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME", "initializer_range": 0.02,
  "intermediate_size": 1856, "layer_norm_epsilon": 1e-05, "mamba_head_dim": 64, "mamba_hidden_act": "silu", "mamba_num_heads": 64,
  "mamba_proj_bias": false, "mamba_ssm_cache_dtype": "float32", "max_position_embeddings": 262144, "mlp_bias": false,
  "mlp_hidden_act": "relu2", "model_type": "nemotron_h", "moe_intermediate_size": 1856, "moe_shared_expert_intermediate_size": 3712,
  "n_group": 1, "n_groups": 8, "n_routed_experts": 128, "n_shared_experts": 1, "norm_eps": 1e-05, "norm_topk_prob": true,
  "num_attention_heads": 32, "num_experts_per_tok": 6, "num_hidden_layers": 52, "num_key_value_heads": 2, "num_logits_to_keep": 1,
  "pad_token_id": 0, "partial_rotary_factor": 1.0, "rescale_prenorm_residual": true, "residual_in_fp32": false, "rope_theta": 10000,
  "routed_scaling_factor": 2.5, "sliding_window": null, "ssm_state_size": 128, "tie_word_embeddings": false, "time_step_floor": 0.0001,
  "time_step_max": 0.1, "time_step_min": 0.001, "topk_group": 1, "torch_dtype": "bfloat16", "transformers_version": "4.55.4",
  "use_bias": false, "use_cache": true, "use_conv_bias": true, "use_mamba_kernels": true, "vocab_size": 131072}`

// TestNemotron3NanoConfig reads the published Nemotron 3 Nano config:
// 23 Mamba-2, 23 expert and 6 attention layers, 128 experts (top 6) of
// 1856 rows, a shared expert of 3712, × 2.5, every group open; its
// norm_eps must repeat layer_norm_epsilon.
func TestNemotron3NanoConfig(t *testing.T) {
	s, err := specOf(t, nemotron3NanoConfig)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for i, k := range s.layerTypes {
		if s.moeLayer[i] {
			k = "moe"
		}
		kinds[k]++
	}
	if kinds[mambaLayer] != 23 || kinds["moe"] != 23 || kinds[fullAttention] != 6 || s.experts != 128 || s.topK != 6 || s.moeFFN != 1856 ||
		s.sharedFFN != 3712 || s.routedScale != 2.5 || s.openGroups != 0 || s.moeLatent != 0 || s.headDim != 128 || s.ssmGroups != 8 || s.inner() != 4096 {
		t.Errorf("spec: kinds %v, %+v", kinds, s)
	}
	if _, err := specOf(t, strings.Replace(nemotron3NanoConfig, `"norm_eps": 1e-05`, `"norm_eps": 1e-06`, 1)); err == nil ||
		!strings.Contains(err.Error(), `"norm_eps" = 1e-06 differs from layer_norm_epsilon`) {
		t.Errorf("a norm_eps of its own: %v", err)
	}
}
