package importer

import (
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// falconH1Variant is one drawn Falcon-H1: its Mamba-2 groups and gated
// norm (none, after the gate, or before it).
type falconH1Variant struct {
	groups             int
	rmsNorm, normFirst bool
}

// falconH1Multipliers are the drawn checkpoints' µP multipliers, each
// away from 1 as the published configs' are.
var falconH1Multipliers = map[string]any{"embedding_multiplier": 1.3, "lm_head_multiplier": 0.8, "mlp_multipliers": []float64{0.9, 1.1},
	"key_multiplier": 0.7, "attention_in_multiplier": 1.2, "attention_out_multiplier": 0.6,
	"ssm_multipliers": []float64{0.5, 0.8, 1.2, 0.9, 1.1}, "ssm_in_multiplier": 1.1, "ssm_out_multiplier": 0.9}

// drawnFalconH1 draws a FalconH1ForCausalLM checkpoint of two layers
// (attention of 4 heads of 16 over 2 kv heads, with rope; a Mamba-2
// mixer of 8 heads of 16, state 16, window 4; a SwiGLU MLP of 96) with
// falconH1Multipliers and returns it with its values.
func drawnFalconH1(t testing.TB, v falconH1Variant) (string, map[string][]float32) {
	t.Helper()
	cfg := map[string]any{"architectures": []string{"FalconH1ForCausalLM"}, "model_type": "falcon_h1", "hidden_size": 64,
		"num_hidden_layers": 2, "vocab_size": 256, "num_attention_heads": 4, "num_key_value_heads": 2, "intermediate_size": 96,
		"rms_norm_eps": 1e-5, "rope_theta": 10000.0, "max_position_embeddings": 512, "hidden_act": "silu", "tie_word_embeddings": false,
		"mamba_d_ssm": 128, "mamba_n_heads": 8, "mamba_d_head": "auto", "mamba_n_groups": v.groups, "mamba_d_state": 16,
		"mamba_d_conv": 4, "mamba_expand": 2, "mamba_chunk_size": 256, "mamba_conv_bias": true, "mamba_proj_bias": false,
		"mamba_rms_norm": v.rmsNorm, "mamba_norm_before_gate": v.normFirst, "mamba_use_mlp": true, "projectors_bias": false,
		"attention_bias": false, "mlp_bias": false, "mlp_expansion_factor": 8, "rope_traditional": false,
		"time_step_limit": []any{0.0, "Infinity"}, "time_step_min": 0.001, "time_step_max": 0.1}
	maps.Copy(cfg, falconH1Multipliers)
	ts := []drawn{{"model.embed_tokens.weight", 0, 0.5, []int{256, 64}}, {"model.final_layernorm.weight", 1, 0.08, []int{64}},
		{"lm_head.weight", 0, 0.08, []int{256, 64}}}
	for l := range 2 {
		p := fmt.Sprintf("model.layers.%d.", l)
		ts = append(ts, drawn{p + "input_layernorm.weight", 1, 0.08, []int{64}}, drawn{p + "pre_ff_layernorm.weight", 1, 0.08, []int{64}},
			drawn{p + "feed_forward.gate_proj.weight", 0, 0.08, []int{96, 64}}, drawn{p + "feed_forward.up_proj.weight", 0, 0.08, []int{96, 64}},
			drawn{p + "feed_forward.down_proj.weight", 0, 0.08, []int{64, 96}})
		ts = append(ts, drawnAttention(p+"self_attn.")...)
		for _, d := range drawnMixer(p, "mamba.", v.groups) {
			if v.rmsNorm || d.name != p+"mamba.norm.weight" {
				ts = append(ts, d)
			}
		}
	}
	return drawValues(t, cfg, ts)
}

// falconH1Reference decodes tokens through drawnFalconH1's model in
// float64, written from FalconH1DecoderLayer: x = embeddings[token]·m;
// per layer h = RMSNorm(x), x += mixer(h·ssm_in)·ssm_out +
// attention(h·attention_in)·attention_out (k × key_multiplier, rope on
// half-rotation pairs, GQA over the cache), then x += down(silu(gate(h')·
// m₀)·up(h'))·m₁ for h' = RMSNorm(x); the logits lm_head(RMSNorm(x)) ×
// lm_head_multiplier.
func falconH1Reference(w map[string][]float32, tokens []int, v falconH1Variant) [][]float64 {
	const e, heads, kvh, d, ffn, vocab, eps = 64, 4, 2, 16, 96, 256, 1e-5
	scale := func(x []float64, f float64) []float64 {
		out := make([]float64, len(x))
		for i := range x {
			out[i] = x[i] * f
		}
		return out
	}
	mixers := [2]*mixerState64{newMixerState64(v.groups), newMixerState64(v.groups)}
	opts := mixerOpts64{grouped: true, normFirst: v.normFirst, noNorm: !v.rmsNorm, mup: []float64{0.5, 0.8, 1.2, 0.9, 1.1}}
	var keys, vals [2][][]float64
	rope := func(x []float64, n, pos int) {
		for h := range n {
			for i := range d / 2 {
				angle := float64(float32(pos) * float32(math.Pow(10000, -float64(2*i)/d)))
				c, s := math.Cos(angle), math.Sin(angle)
				a, b := x[h*d+i], x[h*d+i+d/2]
				x[h*d+i], x[h*d+i+d/2] = a*c-b*s, b*c+a*s
			}
		}
	}
	var logits [][]float64
	for pos, tok := range tokens {
		x := scale(row64(w["model.embed_tokens.weight"], tok, e), 1.3)
		for l := range 2 {
			p := fmt.Sprintf("model.layers.%d.", l)
			h := rms64(x, eps, w[p+"input_layernorm.weight"])
			m := scale(mixerStep64(w, p+"mamba.", scale(h, 1.1), mixers[l], opts), 0.9)
			ha := scale(h, 1.2)
			q := matvec64(w[p+"self_attn.q_proj.weight"], ha, heads*d)
			k := scale(matvec64(w[p+"self_attn.k_proj.weight"], ha, kvh*d), 0.7)
			rope(q, heads, pos)
			rope(k, kvh, pos)
			keys[l] = append(keys[l], k)
			vals[l] = append(vals[l], matvec64(w[p+"self_attn.v_proj.weight"], ha, kvh*d))
			out := make([]float64, heads*d)
			for hh := range heads {
				g := hh / (heads / kvh)
				scores := make([]float64, pos+1)
				var sum float64
				for j := range scores {
					for i := range d {
						scores[j] += q[hh*d+i] * keys[l][j][g*d+i] / math.Sqrt(d)
					}
				}
				best := slices.Max(scores)
				for j := range scores {
					scores[j] = math.Exp(scores[j] - best)
					sum += scores[j]
				}
				for j, pr := range scores {
					for i := range d {
						out[hh*d+i] += pr / sum * vals[l][j][g*d+i]
					}
				}
			}
			a := scale(matvec64(w[p+"self_attn.o_proj.weight"], out, e), 0.6)
			for i := range x {
				x[i] += m[i] + a[i]
			}
			h = rms64(x, eps, w[p+"pre_ff_layernorm.weight"])
			gate, up := matvec64(w[p+"feed_forward.gate_proj.weight"], h, ffn), matvec64(w[p+"feed_forward.up_proj.weight"], h, ffn)
			for i := range gate {
				gate[i] = silu64(gate[i]*0.9) * up[i]
			}
			for i, y := range matvec64(w[p+"feed_forward.down_proj.weight"], gate, e) {
				x[i] += y * 1.1
			}
		}
		logits = append(logits, scale(matvec64(w["lm_head.weight"], rms64(x, eps, w["model.final_layernorm.weight"]), vocab), 0.8))
	}
	return logits
}

// TestFalconH1Step decodes drawn Falcon-H1 checkpoints (the mixer's
// gated norm absent, after the gate over 2 groups, before it over one)
// through the interpreter and compares each step's logits with
// falconH1Reference; every tensor is read.
func TestFalconH1Step(t *testing.T) {
	tokens := []int{1, 17, 42, 200, 5, 99, 255, 128}
	for _, v := range []falconH1Variant{{1, false, false}, {2, true, false}, {1, true, true}} {
		dir, w := drawnFalconH1(t, v)
		checkReference(t, fmt.Sprintf("%+v", v), decodeAllRead(t, dir, tokens).Floats(), falconH1Reference(w, tokens, v))
	}
}

// TestFalconH1Errors: the refusals of Falcon-H1's config fields, each
// naming the field.
func TestFalconH1Errors(t *testing.T) {
	dir, _ := drawnFalconH1(t, falconH1Variant{1, false, false})
	data, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	edit := func(old, new string) string {
		if !strings.Contains(string(data), old) {
			t.Fatalf("the config holds no %q", old)
		}
		return strings.Replace(string(data), old, new, 1)
	}
	for _, tc := range []struct{ config, want string }{
		{edit(`"mamba_d_head": "auto"`, `"mamba_d_head": 15`), "mamba_n_heads = 8 heads of mamba_d_head = 15 do not fill mamba_d_ssm = 128"},
		{edit(`"ssm_multipliers": [`, `"ssm_multipliers": [1, 2], "x": [`), `"ssm_multipliers" = [1, 2] is not a list of 5 multipliers`},
		{edit(`"mlp_multipliers": [`, `"mlp_multipliers": [1, 0], "x": [`), `"mlp_multipliers" = [1, 0] is not a list of 2 multipliers`},
		{edit(`"projectors_bias": false`, `"projectors_bias": true`), `"projectors_bias" = true is not supported`},
		{edit(`"mamba_use_mlp": true`, `"mamba_use_mlp": false`), `"mamba_use_mlp" = false is not supported`},
		{edit(`"embedding_multiplier": 1.3`, `"embedding_multiplier": 0`), `"embedding_multiplier" = 0: rlx needs a multiplier in`},
		{edit(`"mamba_n_groups": 1`, `"mamba_n_groups": 3`), `"mamba_n_groups" = 3 does not divide mamba_n_heads = 8`},
	} {
		if _, err := specOf(t, tc.config); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("want an error containing %q, got %v", tc.want, err)
		}
	}
}

// TestFalconH1GGUF: drawn Falcon-H1 checkpoints converted to falcon-h1 as
// convert_hf_to_gguf writes them (every multiplier folded into the
// weights) decode as the safetensors do (F32 within 1e-5; Q8_0 within
// 1e-5 of its dequantised weights). llama.cpp's mixer gates before its
// norm, so a checkpoint that norms first is not among them.
func TestFalconH1GGUF(t *testing.T) {
	tokens := []int{1, 17, 42, 200, 5, 99, 255, 128}
	for _, v := range []falconH1Variant{{1, false, false}, {2, true, false}} {
		t.Run(fmt.Sprintf("groups %d norm %v", v.groups, v.rmsNorm), func(t *testing.T) {
			dir, _ := drawnFalconH1(t, v)
			checkGGUFForms(t, dir, tokens, decodeAllRead(t, dir, tokens))
		})
	}
}

// falconH10_5BConfig is Falcon-H1-0.5B's config.json as a public copy gives
// it, with its mamba_d_ssm.
const falconH10_5BConfig = `{"architectures": ["FalconH1ForCausalLM"], "attention_bias": false, "attention_dropout": 0.0,
  "attention_in_multiplier": 1.0, "attention_out_multiplier": 0.9375, "attn_layer_indices": null,
  "embedding_multiplier": 5.656854249492381, "head_dim": 64, "hidden_act": "silu", "hidden_size": 1024, "initializer_range": 0.02,
  "intermediate_size": 2048, "key_multiplier": 0.39062499999999994, "lm_head_multiplier": 0.0390625, "mamba_chunk_size": 128,
  "mamba_conv_bias": true, "mamba_d_conv": 4, "mamba_d_head": 64, "mamba_d_ssm": 1536, "mamba_d_state": 128, "mamba_expand": 2,
  "mamba_n_groups": 1, "mamba_n_heads": 24, "mamba_norm_before_gate": false, "mamba_proj_bias": false, "mamba_rms_norm": false,
  "mamba_use_mlp": true, "max_position_embeddings": 16384, "mlp_bias": false, "mlp_multipliers": [0.8838834764831844, 0.5859375],
  "model_type": "falcon_h1", "num_attention_heads": 8, "num_hidden_layers": 36, "num_key_value_heads": 2, "projectors_bias": false,
  "rms_norm_eps": 1e-5, "rope_scaling": null, "rope_theta": 100000000000.0, "ssm_in_multiplier": 1.25,
  "ssm_multipliers": [0.3535533905932738, 0.25, 0.3535533905932738, 0.5, 0.3535533905932738],
  "ssm_out_multiplier": 0.23570226039551587, "tie_word_embeddings": false, "torch_dtype": "bfloat16", "vocab_size": 32784}`

// TestFalconH1PublishedConfig reads Falcon-H1-0.5B's config: 24 Mamba-2
// heads of 64 (1536 wide, not mamba_expand × hidden), state 128, no
// gated norm, attention of 8 heads of 64 with the key multiplier folded
// into the score scale, the multipliers as given.
func TestFalconH1PublishedConfig(t *testing.T) {
	s, err := specOf(t, falconH10_5BConfig)
	if err != nil {
		t.Fatal(err)
	}
	if s.inner() != 1536 || s.ssmState != 128 || !s.ssmNoNorm || s.headDim != 64 || s.kvHeads != 2 || !s.parallelSSM ||
		math.Abs(s.attnScale-0.39062499999999994/8) > 1e-15 || s.embedScale != 5.656854249492381 || s.logitMul != 0.0390625 ||
		s.mlpGateScale != 0.8838834764831844 || s.ssmMup[1] != 0.25 || s.theta != 1e11 {
		t.Errorf("spec: %+v", s)
	}
}
