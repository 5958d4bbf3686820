package importer

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// zambaConfig is a tiny Zamba2 config: hidden 64, four layers (mamba,
// hybrid, mamba, hybrid), Mamba-2 mixers of drawnMixer's sizes (8 heads
// of 16, 2 groups of state 16, window 4), shared blocks of 4 heads of
// 32 (x ‖ x₀ is 128 wide) and an MLP of 96 through erf's gelu, adapters
// of rank 8.
func zambaConfig(edits map[string]any) map[string]any {
	c := map[string]any{
		"architectures": []string{"Zamba2ForCausalLM"}, "model_type": "zamba2", "vocab_size": 256, "hidden_size": 64,
		"num_hidden_layers": 4, "layers_block_type": []string{"mamba", "hybrid", "mamba", "hybrid"}, "intermediate_size": 96,
		"num_attention_heads": 4, "num_key_value_heads": 4, "hidden_act": "gelu", "rms_norm_eps": 1e-5,
		"mamba_d_state": 16, "mamba_d_conv": 4, "mamba_expand": 2, "mamba_ngroups": 2, "n_mamba_heads": 8,
		"use_conv_bias": true, "add_bias_linear": false, "time_step_min": 0.001, "time_step_max": 0.1, "time_step_floor": 1e-4,
		"num_mem_blocks": 2, "use_shared_mlp_adapter": true, "use_shared_attention_adapter": true, "adapter_rank": 8,
		"use_mem_rope": true, "rope_theta": 10000.0, "tie_word_embeddings": true, "chunk_size": 256,
	}
	for k, v := range edits {
		c[k] = v
	}
	return c
}

// zambaTensors are zambaConfig's tensors with num_mem_blocks blocks:
// each block's weights under the first hybrid layer running it (as
// transformers saves a tied block) and, with copies, under every hybrid
// layer running it (as Zyphra's checkpoints hold them); each hybrid
// layer's adapters in its block's lists.
func zambaTensors(types []string, blocks int, copies, attnAdapter bool) []drawn {
	ts := []drawn{{"model.embed_tokens.weight", 0, 0.5, []int{256, 64}}, {"model.final_layernorm.weight", 1, 0.08, []int{64}}}
	hybrids := hybridsOf(types)
	for l := range types {
		p := fmt.Sprintf("model.layers.%d.", l)
		j := slices.Index(hybrids, l)
		if j < 0 {
			ts = append(ts, drawn{p + "input_layernorm.weight", 1, 0.08, []int{64}})
			ts = append(ts, drawnMixer(p, "mamba.", 2)...)
			continue
		}
		ts = append(ts, drawn{p + "mamba_decoder.input_layernorm.weight", 1, 0.08, []int{64}}, drawn{p + "linear.weight", 0, 0.08, []int{64, 64}})
		ts = append(ts, drawnMixer(p, "mamba_decoder.mamba.", 2)...)
		holder := hybrids[j%blocks]
		if copies {
			holder = l
		}
		b := fmt.Sprintf("model.layers.%d.shared_transformer.", holder)
		if holder == l {
			ts = append(ts, drawn{b + "input_layernorm.weight", 1, 0.08, []int{128}}, drawn{b + "pre_ff_layernorm.weight", 1, 0.08, []int{64}},
				drawn{b + "self_attn.q_proj.weight", 0, 0.08, []int{128, 128}}, drawn{b + "self_attn.k_proj.weight", 0, 0.08, []int{128, 128}},
				drawn{b + "self_attn.v_proj.weight", 0, 0.08, []int{128, 128}}, drawn{b + "self_attn.o_proj.weight", 0, 0.08, []int{64, 128}},
				drawn{b + "feed_forward.gate_up_proj.weight", 0, 0.08, []int{192, 64}}, drawn{b + "feed_forward.down_proj.weight", 0, 0.08, []int{64, 96}})
		}
		a := fmt.Sprintf("feed_forward.gate_up_proj_adapter_list.%d.", j)
		ts = append(ts, drawn{b + a + "0.weight", 0, 0.1, []int{8, 64}}, drawn{b + a + "1.weight", 0, 0.1, []int{192, 8}})
		if attnAdapter {
			for _, x := range []string{"q", "k", "v"} {
				a := fmt.Sprintf("self_attn.linear_%s_adapter_list.%d.", x, j)
				ts = append(ts, drawn{b + a + "0.weight", 0, 0.1, []int{8, 128}}, drawn{b + a + "1.weight", 0, 0.1, []int{128, 8}})
			}
		}
	}
	return ts
}

// hybridsOf lists the hybrid layers of a layers_block_type.
func hybridsOf(types []string) []int {
	var out []int
	for i, t := range types {
		if t == "hybrid" {
			out = append(out, i)
		}
	}
	return out
}

// TestZamba2 decodes drawn Zamba2 checkpoints through the interpreter and
// compares each step's logits with zambaReference, written in float64
// from transformers' Zamba2HybridLayer, Zamba2AttentionDecoderLayer and
// Zamba2MambaMixer.torch_forward: two shared blocks with attention
// adapters and rope; one block (both hybrid layers running it, their
// adapters apart) without attention adapters or rope, its weights held
// once and held in both layers.
func TestZamba2(t *testing.T) {
	tokens := []int{1, 17, 42, 200, 5, 99, 255, 128}
	four := []string{"mamba", "hybrid", "mamba", "hybrid"}
	six := []string{"mamba", "hybrid", "hybrid", "mamba", "hybrid", "hybrid"}
	for _, c := range []struct {
		label                   string
		types                   []string
		blocks                  int
		copies, adapters, rope  bool
		wantHybrids, wantNoRope []int
	}{
		{"two blocks", four, 2, false, true, true, []int{1, 3}, nil},
		{"one block", four, 1, false, false, false, []int{1, 3}, []int{0, 1, 2, 3}},
		{"one block, copies", four, 1, true, false, false, []int{1, 3}, []int{0, 1, 2, 3}},
		{"two blocks over four hybrid layers", six, 2, false, true, true, []int{1, 2, 4, 5}, nil},
	} {
		cfg := zambaConfig(map[string]any{"num_mem_blocks": c.blocks, "use_shared_attention_adapter": c.adapters, "use_mem_rope": c.rope,
			"layers_block_type": c.types, "num_hidden_layers": len(c.types)})
		dir, w := drawValues(t, cfg, zambaTensors(c.types, c.blocks, c.copies, c.adapters))
		s := importedSpec(t, dir)
		var noRope []int
		for i, n := range s.noRope {
			if n {
				noRope = append(noRope, i)
			}
		}
		if !slices.Equal(s.zambaHybrids(), c.wantHybrids) || !slices.Equal(noRope, c.wantNoRope) || s.headDim != 32 || s.zamba.blocks != c.blocks ||
			math.Abs(s.attnScale-0.25) > 1e-15 || !s.erfGelu || !s.tied || s.ssmDTMin != 0.001 || !s.ssmGroupNorm {
			t.Fatalf("%s: the spec read %+v", c.label, s)
		}
		got := decodeAllRead(t, dir, tokens)
		checkReference(t, c.label, got.Floats(), zambaReference(w, tokens, c.types, c.blocks, c.adapters, c.rope))
	}
}

// zambaReference decodes tokens through zambaConfig's model in float64:
// x₀ = the embedding; a mamba layer x += mixer(RMSNorm(x)); a hybrid
// layer (the j-th) runs block j mod blocks on t = RMSNorm(x ‖ x₀) (128
// wide): q, k, v = W·t (+ the layer's adapter B·(A·t)), rope over the
// 32 dims of each head (half a rotation apart), attention over the
// layer's cache × (32/2)^−½, o_proj; an RMSNorm, gate_up (+ the layer's
// adapter), gelu(gate)·up, down_proj; the layer's linear; then x +=
// mixer(RMSNorm(x + that)). The head is the embedding (tied).
func zambaReference(w map[string][]float32, tokens []int, types []string, blocks int, adapters, rope bool) [][]float64 {
	const e, heads, d, ffn, r, eps = 64, 4, 32, 96, 8, 1e-5
	hybrids := hybridsOf(types)
	st := make([]*mixerState64, len(types))
	for l := range st {
		st[l] = newMixerState64(2)
	}
	keys, vals := map[int][][]float64{}, map[int][][]float64{}
	gelu := func(v float64) float64 { return 0.5 * v * (1 + math.Erf(v/math.Sqrt2)) }
	// shared is block tensor rest of the j-th hybrid layer, wherever
	// zambaTensors put it.
	shared := func(j int, rest string) []float32 {
		for _, l := range []int{hybrids[j], hybrids[j%blocks]} {
			if v, ok := w[fmt.Sprintf("model.layers.%d.shared_transformer.%s", l, rest)]; ok {
				return v
			}
		}
		panic("no tensor " + rest)
	}
	var logits [][]float64
	for pos, tok := range tokens {
		x := row64(w["model.embed_tokens.weight"], tok, e)
		x0 := slices.Clone(x)
		for l := range types {
			p := fmt.Sprintf("model.layers.%d.", l)
			j := slices.Index(hybrids, l)
			if j < 0 {
				for i, v := range mixerStep64(w, p+"mamba.", rms64(x, eps, w[p+"input_layernorm.weight"]), st[l], mixerOpts64{grouped: true, dtMin: 0.001}) {
					x[i] += v
				}
				continue
			}
			tin := rms64(append(slices.Clone(x), x0...), eps, shared(j, "input_layernorm.weight"))
			proj := func(name string, in []float64, rows, width int, list string) []float64 {
				y := matvec64(shared(j, name), in, rows)
				if list != "" {
					a := fmt.Sprintf("%s.%d.", list, j)
					for i, v := range matvec64(shared(j, a+"1.weight"), matvec64(shared(j, a+"0.weight"), in, r), rows) {
						y[i] += v
					}
				}
				return y
			}
			list := func(x string) string {
				if !adapters {
					return ""
				}
				return "self_attn.linear_" + x + "_adapter_list"
			}
			q := proj("self_attn.q_proj.weight", tin, heads*d, 2*e, list("q"))
			k := proj("self_attn.k_proj.weight", tin, heads*d, 2*e, list("k"))
			v := proj("self_attn.v_proj.weight", tin, heads*d, 2*e, list("v"))
			if rope {
				for hh := range heads {
					for i := range d / 2 {
						angle := float64(pos) / math.Pow(10000, float64(2*i)/d)
						c, s := math.Cos(angle), math.Sin(angle)
						for _, u := range [][]float64{q, k} {
							a, b := u[hh*d+i], u[hh*d+i+d/2]
							u[hh*d+i], u[hh*d+i+d/2] = a*c-b*s, b*c+a*s
						}
					}
				}
			}
			keys[l], vals[l] = append(keys[l], k), append(vals[l], v)
			att := make([]float64, heads*d)
			for hh := range heads {
				attendHead64(q[hh*d:(hh+1)*d], keys[l], vals[l], hh*d, hh*d, 1/math.Sqrt(d/2), att[hh*d:(hh+1)*d])
			}
			h := rms64(matvec64(shared(j, "self_attn.o_proj.weight"), att, e), eps, shared(j, "pre_ff_layernorm.weight"))
			gu := proj("feed_forward.gate_up_proj.weight", h, 2*ffn, e, "feed_forward.gate_up_proj_adapter_list")
			m := make([]float64, ffn)
			for i := range m {
				m[i] = gelu(gu[i]) * gu[ffn+i]
			}
			tr := matvec64(w[p+"linear.weight"], matvec64(shared(j, "feed_forward.down_proj.weight"), m, e), e)
			in := slices.Clone(x)
			for i := range in {
				in[i] += tr[i]
			}
			for i, v := range mixerStep64(w, p+"mamba_decoder.mamba.", rms64(in, eps, w[p+"mamba_decoder.input_layernorm.weight"]), st[l], mixerOpts64{grouped: true, dtMin: 0.001}) {
				x[i] += v
			}
		}
		logits = append(logits, matvec64(w["model.embed_tokens.weight"], rms64(x, eps, w["model.final_layernorm.weight"]), 256))
	}
	return logits
}

// TestZamba2Errors: what Zamba2's reader refuses, each naming the field.
func TestZamba2Errors(t *testing.T) {
	for _, c := range []struct {
		edits map[string]any
		want  string
	}{
		{map[string]any{"layers_block_type": []string{"mamba", "hybrid", "mamba"}}, `"layers_block_type"`},
		{map[string]any{"layers_block_type": []string{"mamba", "hybrid", "attention", "hybrid"}}, `"attention"`},
		{map[string]any{"hybrid_layer_ids": []int{1, 2}}, "is not the hybrid layers of layers_block_type, [1 3]"},
		{map[string]any{"add_bias_linear": true}, `field "add_bias_linear" = true is not supported`},
		{map[string]any{"hidden_act": "relu"}, `field "hidden_act" = "relu" is not supported`},
		{map[string]any{"num_mem_blocks": 0}, "num_mem_blocks = 0, adapter_rank = 8: rlx needs them positive"},
		{map[string]any{"num_key_value_heads": 2}, "num_key_value_heads = 2 with use_shared_attention_adapter"},
		{map[string]any{"attention_head_dim": 16}, `field "attention_head_dim" = 16 differs from the 32`},
		{map[string]any{"time_step_min": -1}, `field "time_step_min" = -1: rlx needs a finite, non-negative floor`},
		{map[string]any{"mamba_headdim": 12}, "n_mamba_heads = 8 heads of mamba_headdim = 12 do not fill"},
		{map[string]any{"hidden_size": 0}, "hidden_size and num_attention_heads must be positive"},
	} {
		dir := t.TempDir()
		writeConfig(t, dir, zambaConfig(c.edits))
		if _, err := specFromConfig(dir, 16); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want an error containing %q", c.edits, err, c.want)
		}
	}
}
