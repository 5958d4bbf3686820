package importer

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/tensor"
	"github.com/rlx-compiler/rlx/runtime/weights"
)

const mamba2Config = `{"architectures": ["Mamba2ForCausalLM"], "hidden_size": 64, "num_hidden_layers": 2, "vocab_size": 256,
  "num_heads": 8, "head_dim": 16, "n_groups": 2, "state_size": 16, "expand": 2, "conv_kernel": 4,
  "use_conv_bias": true, "use_bias": false, "layer_norm_epsilon": 1e-05, "rms_norm": true, "residual_in_fp32": true,
  "chunk_size": 256, "time_step_rank": 4, "time_step_min": 0.001, "time_step_max": 0.1, "time_step_floor": 0.0001`

// TestMamba2Config reads Mamba2ForCausalLM's fields (Python's
// Infinity in time_step_limit among them), Granite 4.0 H's, and refuses
// what rlx does not build, naming the field.
func TestMamba2Config(t *testing.T) {
	s, err := specOf(t, mamba2Config+`, "time_step_limit": [0.0, Infinity]}`)
	if err != nil {
		t.Fatal(err)
	}
	m := s.stateSpace
	if m.ssmHeads != 8 || m.ssmHeadDim != 16 || m.ssmGroups != 2 || m.ssmState != 16 || m.ssmConv != 4 || !m.ssmConvBias || m.ssmProjBias ||
		m.ssmDTMin != 0 || !math.IsInf(m.ssmDTMax, 1) || !s.mixerOnly || s.anyAttention() || !slices.Equal(s.layerTypes, []string{mambaLayer, mambaLayer}) {
		t.Errorf("Mamba2: %+v, layer types %v", m, s.layerTypes)
	}
	if s, err := specOf(t, mamba2Config+`, "time_step_limit": [0.01, 2.5]}`); err != nil || s.ssmDTMin != 0.01 || s.ssmDTMax != 2.5 {
		t.Errorf("time_step_limit [0.01, 2.5]: %v", err)
	}
	// transformers 5 writes +∞ so.
	if s, err := specOf(t, mamba2Config+`, "time_step_limit": [0.0, {"__float__": "Infinity"}]}`); err != nil || !math.IsInf(s.ssmDTMax, 1) {
		t.Errorf("time_step_limit [0, {__float__: Infinity}]: %v", err)
	}
	granite := `{"architectures": ["GraniteMoeHybridForCausalLM"], "hidden_size": 64, "num_hidden_layers": 2, "vocab_size": 256,
	  "num_attention_heads": 4, "num_key_value_heads": 2, "intermediate_size": 32, "shared_intermediate_size": 48,
	  "num_local_experts": 0, "num_experts_per_tok": 2, "mamba_n_heads": 8, "mamba_d_head": "auto", "mamba_d_state": 16,
	  "layer_types": ["mamba", "attention"]`
	s, err = specOf(t, granite+`, "position_embedding_type": "rope"}`)
	if err != nil {
		t.Fatal(err)
	}
	if s.ssmHeadDim != 16 || s.experts != 0 || s.ffn != 48 || !s.fusedGateUp || s.noRope != nil || s.mixerOnly ||
		!slices.Equal(s.layerTypes, []string{mambaLayer, fullAttention}) {
		t.Errorf("Granite 4.0 dense: head dim %d, experts %d, ffn %d, fused %v, no rope %v, layer types %v", s.ssmHeadDim, s.experts, s.ffn, s.fusedGateUp, s.noRope, s.layerTypes)
	}
	if s, err := specOf(t, granite+`, "num_local_experts": 4, "position_embedding_type": null}`); err != nil || s.experts != 4 || s.moeFFN != 32 ||
		s.sharedFFN != 48 || !slices.Equal(s.noRope, []bool{true, true}) {
		t.Errorf("Granite 4.0 H: %v", err)
	}
	for _, tc := range []struct{ config, want string }{
		{mamba2Config + `, "time_step_limit": [0.0, NaN]}`, `"time_step_limit" = [0.0, "NaN"] is not a pair of numbers`},
		{mamba2Config + `, "time_step_limit": [1.0, 0.5]}`, `"time_step_limit" = [1.0, 0.5]: rlx needs 0 ≤ min < max`},
		{mamba2Config + `, "time_step_limit": 1}`, `"time_step_limit" = 1 is not a pair [min, max]`},
		{mamba2Config + `, "time_step_limit": [0, {"__float__": "NaN"}]}`, `is not a pair of numbers`},
		{mamba2Config + `, "layer_norm_epsilon": -Infinity}`, `"layer_norm_epsilon" = "-Infinity" is not a number`},
		{mamba2Config + `, "num_heads": 6}`, `num_heads = 6 heads of head_dim = 16 do not fill expand × hidden_size = 128`},
		{mamba2Config + `, "n_groups": 3}`, `"n_groups" = 3 does not divide num_heads = 8`},
		{mamba2Config + `, "conv_kernel": 1}`, `"conv_kernel" = 1: rlx needs a window of at least 2`},
		{mamba2Config + `, "rms_norm": false}`, `"rms_norm" = false is not supported`},
		{mamba2Config + `, "hidden_act": "gelu"}`, `"hidden_act" = "gelu" is not supported`},
		{mamba2Config + `, "state_size": 0}`, `must be positive`},
		{granite + `, "layer_types": ["mamba"]}`, `"layer_types" lists 1 layers, but num_hidden_layers = 2`},
		{granite + `, "layer_types": ["mamba", "conv"]}`, `gives layer 1 type "conv", which is not supported for GraniteMoeHybridForCausalLM (rlx implements "attention", "full_attention", "linear_attention", "mamba")`},
		{granite + `, "position_embedding_type": "alibi"}`, `"position_embedding_type" = "alibi" is not supported`},
	} {
		if _, err := specOf(t, tc.config); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.config, err, tc.want)
		}
	}
}

// TestQuotePythonFloats: the bare NaN and ±Infinity Python's json
// writes are quoted outside strings and left alone inside them.
func TestQuotePythonFloats(t *testing.T) {
	for in, want := range map[string]string{
		`[0.0, Infinity]`:                         `[0.0, "Infinity"]`,
		`{"a": -Infinity, "b": NaN}`:              `{"a": "-Infinity", "b": "NaN"}`,
		`{"Infinity": "NaN \" Infinity", "c": 1}`: `{"Infinity": "NaN \" Infinity", "c": 1}`,
		`"\\" NaN`: `"\\" "NaN"`,
		``:         ``,
	} {
		if got := string(quotePythonFloats([]byte(in))); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}

// drawnMamba2 is a Mamba2ForCausalLM checkpoint of mamba2Config's sizes
// (two layers, 8 heads of 16, 2 groups, state 16, window 4) drawn
// seeded, and the values of its tensors.
func drawnMamba2(t testing.TB, extra map[string]any) (dir string, w map[string][]float32) {
	t.Helper()
	cfg := map[string]any{}
	if err := json.Unmarshal([]byte(mamba2Config+`}`), &cfg); err != nil {
		t.Fatal(err)
	}
	maps.Copy(cfg, extra)
	cfg["tie_word_embeddings"] = false
	ts := []drawn{{"backbone.embeddings.weight", 0, 0.5, []int{256, 64}}, {"backbone.norm_f.weight", 1, 0.08, []int{64}},
		{"lm_head.weight", 0, 0.08, []int{256, 64}}}
	for l := range 2 {
		ts = append(ts, drawnMixer(fmt.Sprintf("backbone.layers.%d.", l), "mixer.", 2)...)
		ts = append(ts, drawn{fmt.Sprintf("backbone.layers.%d.norm.weight", l), 1, 0.08, []int{64}})
	}
	return drawValues(t, cfg, ts)
}

// drawnMixer lists a Mamba-2 mixer's tensors under p+m (hidden 64, 8
// heads of 16, groups groups of state 16, window 4), drawn so that the
// state carries from token to token.
func drawnMixer(p, m string, groups int) []drawn {
	cd := 128 + 2*groups*16
	p += m
	return []drawn{{p + "in_proj.weight", 0, 0.08, []int{128 + cd + 8, 64}}, {p + "conv1d.weight", 0, 0.3, []int{cd, 1, 4}},
		{p + "conv1d.bias", 0, 0.08, []int{cd}}, {p + "dt_bias", 1, 0.08, []int{8}}, {p + "A_log", -1, 0.5, []int{8}},
		{p + "D", 0, 0.08, []int{8}}, {p + "norm.weight", 1, 0.08, []int{128}}, {p + "out_proj.weight", 0, 0.08, []int{64, 128}}}
}

// drawValues writes config and tensors drawn as listed (seeded) into a
// new directory, as drawCheckpoint does, and returns their values too.
func drawValues(t testing.TB, config map[string]any, tensors []drawn) (string, map[string][]float32) {
	t.Helper()
	dir := drawCheckpoint(t, config, tensors)
	f, err := os.Open(filepath.Join(dir, "model.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := tensor.ReadSafetensors(f)
	if err != nil {
		t.Fatal(err)
	}
	w := map[string][]float32{}
	for name, v := range st.Tensors {
		w[name] = v.Floats()
	}
	return dir, w
}

// mamba2Reference decodes tokens through drawnMamba2's model in float64,
// written out loop by loop from Mamba2Mixer's decode step (the gated
// norm over each group's 64 channels where grouped): the importer's
// graph checked against an independent computation of the same step.
func mamba2Reference(w map[string][]float32, tokens []int, grouped bool) [][]float64 {
	const e, vocab = 64, 256
	st := [2]*mixerState64{newMixerState64(2), newMixerState64(2)}
	var logits [][]float64
	for _, tok := range tokens {
		x := row64(w["backbone.embeddings.weight"], tok, e)
		for l := range 2 {
			p := fmt.Sprintf("backbone.layers.%d.", l)
			h := rms64(x, 1e-5, w[p+"norm.weight"])
			for i, v := range mixerStep64(w, p+"mixer.", h, st[l], mixerOpts64{grouped: grouped}) {
				x[i] += v
			}
		}
		logits = append(logits, matvec64(w["lm_head.weight"], rms64(x, 1e-5, w["backbone.norm_f.weight"]), vocab))
	}
	return logits
}

// mixerState64 is a Mamba-2 mixer's state between steps in float64: the
// conv's window (the last 3 inputs) and the SSM state [heads][head
// dim][state], at drawnMixer's sizes with groups groups.
type mixerState64 struct {
	groups int
	conv   [][]float64
	ssm    [][][]float64
}

func newMixerState64(groups int) *mixerState64 {
	st := &mixerState64{groups: groups, conv: make([][]float64, 3), ssm: make([][][]float64, 8)}
	for t := range st.conv {
		st.conv[t] = make([]float64, 128+2*groups*16)
	}
	for h := range st.ssm {
		st.ssm[h] = make([][]float64, 16)
		for q := range st.ssm[h] {
			st.ssm[h][q] = make([]float64, 16)
		}
	}
	return st
}

// mixerOpts64 are the mixer's variants: the gated norm over each group
// (grouped), Falcon-H1's: in_proj's z, x, B, C and dt × mup, the norm
// before the gate (normFirst) or no norm (noNorm); Zamba2's dt clamped
// below at dtMin.
type mixerOpts64 struct {
	grouped, normFirst, noNorm bool
	mup                        []float64
	dtMin                      float64
}

// mixerStep64 is one decode step of the Mamba-2 mixer under p (drawnMixer's
// sizes: hidden 64, 8 heads of 16, state 16, window 4) on h, written from
// Mamba2Mixer's (and FalconH1Mixer's) torch_forward: in_proj → z, x‖B‖C,
// dt; the causal conv with its bias and SiLU; dt = softplus(dt +
// dt_bias); h ← h·exp(dt·A) + dt·x⊗B per head (B and C a group's); y =
// h·C + D·x; the gate and the gated RMSNorm (epsilon 1e-5); out_proj.
func mixerStep64(w map[string][]float32, p string, h []float64, st *mixerState64, o mixerOpts64) []float64 {
	const e, nh, hd, ns, kk, inner = 64, 8, 16, 16, 4, 128
	ng := st.groups
	cd := inner + 2*ng*ns
	f := func(name string, i int) float64 { return float64(w[p+name][i]) }
	proj := matvec64(w[p+"in_proj.weight"], h, inner+cd+nh)
	if o.mup != nil {
		for i := range proj {
			switch {
			case i < inner:
				proj[i] *= o.mup[0]
			case i < 2*inner:
				proj[i] *= o.mup[1]
			case i < 2*inner+ng*ns:
				proj[i] *= o.mup[2]
			case i < 2*inner+2*ng*ns:
				proj[i] *= o.mup[3]
			default:
				proj[i] *= o.mup[4]
			}
		}
	}
	xbc := make([]float64, cd)
	for c := range cd {
		v := f("conv1d.bias", c) + f("conv1d.weight", c*kk+kk-1)*proj[inner+c]
		for t := range kk - 1 {
			v += f("conv1d.weight", c*kk+t) * st.conv[t][c]
		}
		xbc[c] = silu64(v)
		for t := range kk - 2 {
			st.conv[t][c] = st.conv[t+1][c]
		}
		st.conv[kk-2][c] = proj[inner+c]
	}
	y := make([]float64, inner)
	for hh := range nh {
		dt := math.Max(math.Log1p(math.Exp(proj[inner+cd+hh]+f("dt_bias", hh))), o.dtMin)
		decay := math.Exp(dt * -math.Exp(f("A_log", hh)))
		g := hh / (nh / ng)
		for q := range hd {
			xv := xbc[hh*hd+q]
			var acc float64
			for n := range ns {
				s := st.ssm[hh][q][n]*decay + dt*xv*xbc[inner+g*ns+n]
				st.ssm[hh][q][n] = s
				acc += s * xbc[inner+ng*ns+g*ns+n]
			}
			y[hh*hd+q] = acc + f("D", hh)*xv
		}
	}
	gate := func() {
		for i := range y {
			y[i] *= silu64(proj[i])
		}
	}
	norm := func() {
		per := inner
		if o.grouped {
			per = inner / ng
		}
		for g := range inner / per {
			copy(y[g*per:(g+1)*per], rms64(y[g*per:(g+1)*per], 1e-5, nil))
		}
		for i := range y {
			y[i] *= f("norm.weight", i)
		}
	}
	switch {
	case o.noNorm:
		gate()
	case o.normFirst:
		norm()
		gate()
	default:
		gate()
		norm()
	}
	return matvec64(w[p+"out_proj.weight"], y, e)
}

// TestMamba2Step decodes a drawn Mamba2ForCausalLM checkpoint through
// the interpreter and compares every step's logits with
// mamba2Reference: the gated norm over the whole width (transformers'
// Mamba2Mixer), and over each group (llama.cpp's, ssmGroupNorm).
func TestMamba2Step(t *testing.T) {
	dir, w := drawnMamba2(t, map[string]any{"time_step_limit": []float64{0, 1e9}})
	tokens := []int{1, 17, 42, 200, 5, 99, 255, 128}
	for _, grouped := range []bool{false, true} {
		m := importMamba2(t, dir, grouped)
		if len(m.Unused) > 0 {
			t.Errorf("unread tensors %v", m.Unused)
		}
		got := decodeModule(t, m.Module, m.Source, tokens).Floats()
		m.Source.Close()
		checkReference(t, fmt.Sprintf("grouped %v", grouped), got, mamba2Reference(w, tokens, grouped))
	}
}

// mamba2Dir is drawnMamba2's checkpoint with dt clamped to [0.05, 0.9].
func mamba2Dir(t testing.TB) string {
	dir, _ := drawnMamba2(t, map[string]any{"time_step_limit": []float64{0.05, 0.9}})
	return dir
}

// graniteHybridConfig is a tiny Granite 4.0 H config: Mamba-2 in layers
// 0 and 2 (one group), attention without rope in 1 and 3, 8 experts of
// 32 rows (top 2) and a shared MLP of 48, Granite's multipliers.
func graniteHybridConfig() map[string]any {
	return map[string]any{
		"architectures": []string{"GraniteMoeHybridForCausalLM"}, "model_type": "granitemoehybrid", "vocab_size": 256, "hidden_size": 64,
		"num_hidden_layers": 4, "num_attention_heads": 4, "num_key_value_heads": 2, "intermediate_size": 32,
		"shared_intermediate_size": 48, "num_local_experts": 8, "num_experts_per_tok": 2, "rms_norm_eps": 1e-6,
		"embedding_multiplier": 2.0, "logits_scaling": 4.0, "residual_multiplier": 0.5, "attention_multiplier": 0.2,
		"layer_types": []string{"mamba", "attention", "mamba", "attention"}, "position_embedding_type": nil,
		"mamba_n_heads": 8, "mamba_d_head": 16, "mamba_n_groups": 1, "mamba_d_state": 16, "mamba_d_conv": 4, "mamba_expand": 2,
		"mamba_chunk_size": 256, "mamba_conv_bias": true, "mamba_proj_bias": false, "tie_word_embeddings": true,
	}
}

// drawnGraniteHybrid draws a checkpoint of graniteHybridConfig.
func drawnGraniteHybrid(t testing.TB) string {
	t.Helper()
	ts := []drawn{{"model.embed_tokens.weight", 0, 0.5, []int{256, 64}}, {"model.norm.weight", 1, 0.08, []int{64}}}
	for l := range 4 {
		p := fmt.Sprintf("model.layers.%d.", l)
		ts = append(ts, drawn{p + "input_layernorm.weight", 1, 0.08, []int{64}}, drawn{p + "post_attention_layernorm.weight", 1, 0.08, []int{64}},
			drawn{p + "block_sparse_moe.router.layer.weight", 0, 0.08, []int{8, 64}},
			drawn{p + "block_sparse_moe.input_linear.weight", 0, 0.08, []int{8, 64, 64}},
			drawn{p + "block_sparse_moe.output_linear.weight", 0, 0.08, []int{8, 64, 32}},
			drawn{p + "shared_mlp.input_linear.weight", 0, 0.08, []int{96, 64}}, drawn{p + "shared_mlp.output_linear.weight", 0, 0.08, []int{64, 48}})
		if l%2 == 0 {
			ts = append(ts, drawnMixer(p, "mamba.", 1)...)
			continue
		}
		ts = append(ts, drawnAttention(p+"self_attn.")...)
	}
	return drawCheckpoint(t, graniteHybridConfig(), ts)
}

// TestGraniteHybridGGUF converts a drawn Granite 4.0 H checkpoint to GGUF
// as llama.cpp's converter does (granitehybrid: the Mamba-2 layers'
// head_count_kv 0, ssm_a = −exp(A_log), the norm by group, the experts'
// and shared MLP's [gate; up] split, no rope) and decodes it: the F32
// file within 1e-5 of the safetensors, Q8_0 within 1e-5 of its
// dequantised weights; a file that asks for rope on part of each head is
// refused.
func TestGraniteHybridGGUF(t *testing.T) {
	dir := drawnGraniteHybrid(t)
	tokens := []int{1, 17, 42, 200, 5, 99, 255, 128}
	checkGGUFForms(t, dir, tokens, decodeAllRead(t, dir, tokens))

	data := convertToGGUF(t, dir, 0, false)
	src, err := weights.Open(editKV(t, data, nil))
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := specFromGGUF(src, 16)
	src.Close()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.layerTypes, []string{mambaLayer, fullAttention, mambaLayer, fullAttention}) || !slices.Equal(s.noRope, []bool{true, true, true, true}) ||
		s.ssmHeadDim != 16 || !s.ssmANeg || !s.ssmGroupNorm || s.experts != 8 || s.sharedFFN != 48 || s.residualScale != 0.5 {
		t.Errorf("granitehybrid spec: layers %v, no rope %v, %+v, experts %d, shared %d", s.layerTypes, s.noRope, s.stateSpace, s.experts, s.sharedFFN)
	}
	_, err = ImportGGUF(newContext(), editKV(t, data, map[string]any{"granitehybrid.rope.scaling.finetuned": true, "granitehybrid.rope.dimension_count": uint32(8)}),
		Options{MaxTokens: 16})
	if err == nil || !strings.Contains(err.Error(), "granitehybrid.rope.dimension_count = 8 of 16: rlx reads granitehybrid's rope over whole heads only") {
		t.Errorf("partial rope: %v", err)
	}
	_, err = ImportGGUF(newContext(), editKV(t, data, map[string]any{"granitehybrid.ssm.group_count": uint32(3)}), Options{MaxTokens: 16})
	if err == nil || !strings.Contains(err.Error(), "do not describe a Mamba-2 mixer") {
		t.Errorf("3 groups of 8 heads: %v", err)
	}
}

// TestMambaGGUF converts drawn Mamba-2 (two groups) and Mamba checkpoints
// to GGUF as llama.cpp's converter does (mamba2, mamba) and decodes them:
// the F32 file within 1e-5 of the safetensors, where llama.cpp computes
// the same (Mamba-2's gated norm by group: against the safetensors
// decoded with ssmGroupNorm), Q8_0 within 1e-5 of its dequantised
// weights.
func TestMambaGGUF(t *testing.T) {
	tokens := []int{1, 17, 42, 200, 5, 99, 255, 128}
	dir, _ := drawnMamba2(t, nil)
	m := importMamba2(t, dir, true)
	want := decodeModule(t, m.Module, m.Source, tokens)
	m.Source.Close()
	checkGGUFForms(t, dir, tokens, want)

	dir = drawnMamba(t)
	m, err := ImportHF(newContext(), dir, Options{MaxTokens: 16})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Unused) > 0 {
		t.Errorf("unread tensors %v", m.Unused)
	}
	want = decodeModule(t, m.Module, m.Source, tokens)
	m.Source.Close()
	checkGGUFForms(t, dir, tokens, want)
}

// drawnMamba draws a MambaForCausalLM checkpoint: hidden 64, two layers
// of 128 channels with a state of 16, dt of rank 4, a window of 4.
func drawnMamba(t testing.TB) string {
	t.Helper()
	dir, _ := drawnMambaValues(t, false)
	return dir
}

// drawnMambaValues is drawnMamba's checkpoint and its tensors' values;
// with norms, each mixer holds Jamba's dt, B and C norm weights too.
func drawnMambaValues(t testing.TB, norms bool) (string, map[string][]float32) {
	t.Helper()
	cfg := map[string]any{"architectures": []string{"MambaForCausalLM"}, "hidden_size": 64, "num_hidden_layers": 2, "vocab_size": 256,
		"state_size": 16, "expand": 2, "intermediate_size": 128, "conv_kernel": 4, "time_step_rank": 4, "use_conv_bias": true,
		"use_bias": false, "layer_norm_epsilon": 1e-5, "tie_word_embeddings": true}
	ts := []drawn{{"backbone.embeddings.weight", 0, 0.5, []int{256, 64}}, {"backbone.norm_f.weight", 1, 0.08, []int{64}}}
	for l := range 2 {
		if norms {
			p := fmt.Sprintf("backbone.layers.%d.mixer.", l)
			ts = append(ts, drawn{p + "dt_layernorm.weight", 1, 0.3, []int{4}}, drawn{p + "b_layernorm.weight", 1, 0.3, []int{16}},
				drawn{p + "c_layernorm.weight", 1, 0.3, []int{16}})
		}
		p := fmt.Sprintf("backbone.layers.%d.", l)
		ts = append(ts, drawn{p + "norm.weight", 1, 0.08, []int{64}}, drawn{p + "mixer.in_proj.weight", 0, 0.08, []int{256, 64}},
			drawn{p + "mixer.conv1d.weight", 0, 0.3, []int{128, 1, 4}}, drawn{p + "mixer.conv1d.bias", 0, 0.08, []int{128}},
			drawn{p + "mixer.x_proj.weight", 0, 0.08, []int{4 + 32, 128}}, drawn{p + "mixer.dt_proj.weight", 0, 0.3, []int{128, 4}},
			drawn{p + "mixer.dt_proj.bias", -1, 0.3, []int{128}}, drawn{p + "mixer.A_log", -1, 0.5, []int{128, 16}},
			drawn{p + "mixer.D", 0, 0.08, []int{128}}, drawn{p + "mixer.out_proj.weight", 0, 0.08, []int{64, 128}})
	}
	return drawValues(t, cfg, ts)
}

// mambaReference decodes tokens through drawnMambaValues' model in
// float64, written out loop by loop from MambaMixer's (and with norms,
// JambaMambaMixer's) decode step.
func mambaReference(w map[string][]float32, tokens []int, norms bool) [][]float64 {
	const e, d, ns, r, kk, vocab = 64, 128, 16, 4, 4, 256
	f := func(name string, i int) float64 { return float64(w[name][i]) }
	matvec := func(name string, x []float64, rows int) []float64 { return matvec64(w[name], x, rows) }
	rms := func(x []float64, eps float64, gamma string) []float64 { return rms64(x, eps, w[gamma]) }
	conv := [2][kk - 1][d]float64{}
	ssm := [2][d][ns]float64{}
	var logits [][]float64
	for _, tok := range tokens {
		x := row64(w["backbone.embeddings.weight"], tok, e)
		for l := range 2 {
			p := fmt.Sprintf("backbone.layers.%d.", l)
			m := p + "mixer."
			proj := matvec(m+"in_proj.weight", rms(x, 1e-5, p+"norm.weight"), 2*d)
			xs := make([]float64, d)
			for c := range d {
				v := f(m+"conv1d.bias", c) + f(m+"conv1d.weight", c*kk+kk-1)*proj[c]
				for t := range kk - 1 {
					v += f(m+"conv1d.weight", c*kk+t) * conv[l][t][c]
				}
				xs[c] = silu64(v)
				for t := range kk - 2 {
					conv[l][t][c] = conv[l][t+1][c]
				}
				conv[l][kk-2][c] = proj[c]
			}
			dbc := matvec(m+"x_proj.weight", xs, r+2*ns)
			dt, b, c := dbc[:r], dbc[r:r+ns], dbc[r+ns:]
			if norms {
				dt, b, c = rms(dt, 1e-5, m+"dt_layernorm.weight"), rms(b, 1e-5, m+"b_layernorm.weight"), rms(c, 1e-5, m+"c_layernorm.weight")
			}
			delta := matvec(m+"dt_proj.weight", dt, d)
			y := make([]float64, d)
			for ch := range d {
				dl := math.Log1p(math.Exp(delta[ch] + f(m+"dt_proj.bias", ch)))
				var acc float64
				for n := range ns {
					s := ssm[l][ch][n]*math.Exp(dl*-math.Exp(f(m+"A_log", ch*ns+n))) + dl*b[n]*xs[ch]
					ssm[l][ch][n] = s
					acc += s * c[n]
				}
				y[ch] = (acc + f(m+"D", ch)*xs[ch]) * silu64(proj[d+ch])
			}
			for i, v := range matvec(m+"out_proj.weight", y, e) {
				x[i] += v
			}
		}
		logits = append(logits, matvec("backbone.embeddings.weight", rms(x, 1e-5, "backbone.norm_f.weight"), vocab))
	}
	return logits
}

// TestMambaStep decodes a drawn MambaForCausalLM checkpoint through the
// interpreter and compares every step's logits with mambaReference:
// as it is, and with Jamba's weighted dt, B and C norms (the spec and
// names of JambaForCausalLM's mixer put on the same checkpoint).
func TestMambaStep(t *testing.T) {
	tokens := []int{1, 17, 42, 200, 5, 99, 255, 128}
	for _, norms := range []bool{false, true} {
		dir, w := drawnMambaValues(t, norms)
		s, src := openSpec(t, dir)
		n := hfNamesFor(s.arch, src)
		if norms {
			s.ssmBCNorm, s.ssmBCW, s.ssmBCEps = true, true, 1e-5
			p := "backbone.layers.%d.mixer."
			n.layer[roleSSMDTNorm], n.layer[roleSSMBNorm], n.layer[roleSSMCNorm] = p+"dt_layernorm.weight", p+"b_layernorm.weight", p+"c_layernorm.weight"
		}
		m, err := finish(newContext(), s, n, src)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Unused) > 0 {
			t.Errorf("unread tensors %v", m.Unused)
		}
		got := decodeModule(t, m.Module, m.Source, tokens).Floats()
		m.Source.Close()
		checkReference(t, fmt.Sprintf("norms %v", norms), got, mambaReference(w, tokens, norms))
	}
}

// importMamba2 imports the Mamba2ForCausalLM checkpoint in dir, its gated
// norm over each group where grouped (as a GGUF file's spec says).
func importMamba2(t *testing.T, dir string, grouped bool) *Model {
	t.Helper()
	s, src := openSpec(t, dir)
	s.ssmGroupNorm = grouped
	m, err := finish(newContext(), s, hfNamesFor(s.arch, src), src)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// drawnNemotronH draws a NemotronHForCausalLM checkpoint as published
// (backbone., hybrid_override_pattern, mamba_-prefixed names): the
// layers M*M- (Mamba-2, attention, Mamba-2, MLP).
func drawnNemotronH(t testing.TB) string { return drawnNemotronHOf(t, "M*M-", 0) }

// drawnNemotronHOf draws a NemotronHForCausalLM checkpoint as published
// of the layers pattern gives: E layers are Nemotron 3's routed experts
// (8 relu² experts of 32 rows, one tensor per expert, in 2 groups, the
// best open, top 2 of σ(logit) + the selection bias, × 2.5; a shared
// expert of 48 rows), in a latent of latent where positive.
func drawnNemotronHOf(t testing.TB, pattern string, latent int) string {
	t.Helper()
	dir, _ := drawnNemotronHValues(t, pattern, latent)
	return dir
}

// drawnNemotronHValues is drawnNemotronHOf with the values drawn.
func drawnNemotronHValues(t testing.TB, pattern string, latent int) (string, map[string][]float32) {
	t.Helper()
	cfg := map[string]any{"architectures": []string{"NemotronHForCausalLM"}, "hidden_size": 64, "num_hidden_layers": len(pattern), "vocab_size": 256,
		"num_attention_heads": 4, "num_key_value_heads": 2, "attention_head_dim": 16, "intermediate_size": 96,
		"hybrid_override_pattern": pattern, "mamba_num_heads": 8, "mamba_head_dim": 16, "n_groups": 2, "ssm_state_size": 16,
		"conv_kernel": 4, "expand": 2, "mamba_hidden_act": "silu", "mlp_hidden_act": "relu2", "use_conv_bias": true, "use_bias": false,
		"mlp_bias": false, "attention_bias": false, "layer_norm_epsilon": 1e-5, "residual_in_fp32": false, "rescale_prenorm_residual": true,
		"mamba_dt_min": 0.001, "mamba_dt_max": 0.1, "mamba_dt_init_floor": 1e-4, "mamba_chunk_size": 256, "tie_word_embeddings": false}
	in := 64
	if strings.Contains(pattern, "E") {
		maps.Copy(cfg, map[string]any{"n_routed_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 32,
			"moe_shared_expert_intermediate_size": 48, "n_shared_experts": 1, "n_group": 2, "topk_group": 1, "norm_topk_prob": true,
			"routed_scaling_factor": 2.5, "moe_shared_expert_overlap": false})
		if latent > 0 {
			cfg["moe_latent_size"], in = latent, latent
		}
	}
	ts := []drawn{{"backbone.embeddings.weight", 0, 0.5, []int{256, 64}}, {"backbone.norm_f.weight", 1, 0.08, []int{64}},
		{"lm_head.weight", 0, 0.08, []int{256, 64}}}
	for l, kind := range pattern {
		p := fmt.Sprintf("backbone.layers.%d.", l)
		ts = append(ts, drawn{p + "norm.weight", 1, 0.08, []int{64}})
		switch kind {
		case 'M':
			ts = append(ts, drawnMixer(p, "mixer.", 2)...)
		case '*':
			ts = append(ts, drawnAttention(p+"mixer.")...)
		case '-':
			ts = append(ts, drawn{p + "mixer.up_proj.weight", 0, 0.08, []int{96, 64}}, drawn{p + "mixer.down_proj.weight", 0, 0.08, []int{64, 96}})
		case 'E':
			m := p + "mixer."
			ts = append(ts, drawn{m + "gate.weight", 0, 0.3, []int{8, 64}}, drawn{m + "gate.e_score_correction_bias", 0, 0.1, []int{8}},
				drawn{m + "shared_experts.up_proj.weight", 0, 0.08, []int{48, 64}}, drawn{m + "shared_experts.down_proj.weight", 0, 0.08, []int{64, 48}})
			for j := range 8 {
				ts = append(ts, drawn{fmt.Sprintf("%sexperts.%d.up_proj.weight", m, j), 0, 0.15, []int{32, in}},
					drawn{fmt.Sprintf("%sexperts.%d.down_proj.weight", m, j), 0, 0.15, []int{in, 32}})
			}
			if latent > 0 {
				ts = append(ts, drawn{m + "fc1_latent_proj.weight", 0, 0.12, []int{latent, 64}}, drawn{m + "fc2_latent_proj.weight", 0, 0.12, []int{64, latent}})
			}
		}
	}
	return drawValues(t, cfg, ts)
}

// TestNemotronHConfig reads a drawn Nemotron-H checkpoint's published
// config (every tensor read; its expert layers: TestNemotronHMoE).
func TestNemotronHConfig(t *testing.T) {
	dir := drawnNemotronH(t)
	s := importedSpec(t, dir)
	if !slices.Equal(s.layerTypes, []string{mambaLayer, fullAttention, mambaLayer, mlpLayer}) || !s.ssmGroupNorm || s.headDim != 16 || s.eps != 1e-5 || !s.reluSquared {
		t.Errorf("Nemotron-H: %v, grouped %v, head dim %d, eps %g", s.layerTypes, s.ssmGroupNorm, s.headDim, s.eps)
	}
}

// TestFalconMambaGGUF: llama.cpp normalises Falcon-Mamba's dt, B and C
// with the layers' epsilon, transformers with mixer_rms_eps; the
// falcon_mamba fixture's weights under a config whose two are equal give
// the same logits from the GGUF file as from the safetensors (the
// fixture itself is in ggufCannot).
func TestFalconMambaGGUF(t *testing.T) {
	f := loadFixture(t, "falcon_mamba")
	config, err := os.ReadFile(filepath.Join(f.dir, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	linkFixture(t, dir, []byte(strings.Replace(string(config), `"mixer_rms_eps": 1e-06`, `"mixer_rms_eps": 1e-05`, 1)), f.dir)
	m, err := ImportHF(newContext(), dir, Options{MaxTokens: 16})
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := specFromConfig(dir, 16); s == nil || s.ssmBCEps != 1e-5 {
		t.Fatal("the config's mixer_rms_eps was not replaced")
	}
	want := decodeModule(t, m.Module, m.Source, f.Tokens)
	m.Source.Close()
	checkGGUFForms(t, dir, f.Tokens, want)
}

// drawnJamba draws a JambaForCausalLM checkpoint as AI21 publishes one
// (per-expert tensors): Mamba mixers with their dt, B and C norms in
// layers 0 and 2, each followed by 8 experts (top 2), attention without
// rope in layers 1 and 3, each followed by a SwiGLU MLP.
func drawnJamba(t testing.TB) string {
	t.Helper()
	cfg := map[string]any{"architectures": []string{"JambaForCausalLM"}, "hidden_size": 64, "num_hidden_layers": 4, "vocab_size": 256,
		"num_attention_heads": 4, "num_key_value_heads": 2, "intermediate_size": 96, "attn_layer_period": 2, "attn_layer_offset": 1,
		"expert_layer_period": 2, "expert_layer_offset": 0, "num_experts": 8, "num_experts_per_tok": 2, "mamba_d_state": 16,
		"mamba_d_conv": 4, "mamba_expand": 2, "mamba_dt_rank": "auto", "mamba_conv_bias": true, "mamba_proj_bias": false,
		"use_mamba_kernels": true, "rms_norm_eps": 1e-6, "tie_word_embeddings": false, "num_logits_to_keep": 1}
	ts := []drawn{{"model.embed_tokens.weight", 0, 0.5, []int{256, 64}}, {"model.final_layernorm.weight", 1, 0.08, []int{64}},
		{"lm_head.weight", 0, 0.08, []int{256, 64}}}
	for l := range 4 {
		p := fmt.Sprintf("model.layers.%d.", l)
		ts = append(ts, drawn{p + "input_layernorm.weight", 1, 0.08, []int{64}}, drawn{p + "pre_ff_layernorm.weight", 1, 0.08, []int{64}})
		if l%2 == 1 {
			ts = append(ts, drawnAttention(p+"self_attn.")...)
			ts = append(ts, drawn{p + "feed_forward.gate_proj.weight", 0, 0.08, []int{96, 64}}, drawn{p + "feed_forward.up_proj.weight", 0, 0.08, []int{96, 64}},
				drawn{p + "feed_forward.down_proj.weight", 0, 0.08, []int{64, 96}})
			continue
		}
		m := p + "mamba."
		ts = append(ts, drawn{m + "in_proj.weight", 0, 0.08, []int{256, 64}}, drawn{m + "conv1d.weight", 0, 0.3, []int{128, 1, 4}},
			drawn{m + "conv1d.bias", 0, 0.08, []int{128}}, drawn{m + "x_proj.weight", 0, 0.08, []int{4 + 32, 128}},
			drawn{m + "dt_proj.weight", 0, 0.3, []int{128, 4}}, drawn{m + "dt_proj.bias", -1, 0.3, []int{128}},
			drawn{m + "A_log", -1, 0.5, []int{128, 16}}, drawn{m + "D", 0, 0.08, []int{128}}, drawn{m + "out_proj.weight", 0, 0.08, []int{64, 128}},
			drawn{m + "dt_layernorm.weight", 1, 0.08, []int{4}}, drawn{m + "b_layernorm.weight", 1, 0.08, []int{16}},
			drawn{m + "c_layernorm.weight", 1, 0.08, []int{16}}, drawn{p + "feed_forward.router.weight", 0, 0.08, []int{8, 64}})
		for e := range 8 {
			x := fmt.Sprintf("%sfeed_forward.experts.%d.", p, e)
			ts = append(ts, drawn{x + "gate_proj.weight", 0, 0.08, []int{96, 64}}, drawn{x + "up_proj.weight", 0, 0.08, []int{96, 64}},
				drawn{x + "down_proj.weight", 0, 0.08, []int{64, 96}})
		}
	}
	return drawCheckpoint(t, cfg, ts)
}

// TestJambaConfig reads a drawn Jamba checkpoint (every tensor read;
// the layer kinds and routed layers from the periods) and refuses a
// period of 0.
func TestJambaConfig(t *testing.T) {
	dir := drawnJamba(t)
	s := importedSpec(t, dir)
	if !slices.Equal(s.layerTypes, []string{mambaLayer, fullAttention, mambaLayer, fullAttention}) || !slices.Equal(s.moeLayer, []bool{true, false, true, false}) ||
		!s.ssmBCW || s.ssmDTRank != 4 || s.normTopK || s.experts != 8 || s.moeFFN != 96 {
		t.Errorf("Jamba: %v, routed %v, %+v", s.layerTypes, s.moeLayer, s.stateSpace)
	}
	data, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := specOf(t, strings.Replace(string(data), `"attn_layer_period": 2`, `"attn_layer_period": 0`, 1)); err == nil || !strings.Contains(err.Error(), `"attn_layer_period" and "expert_layer_period" must be positive`) {
		t.Errorf("a period of 0: %v", err)
	}
}

// drawnAttention lists an attention block's q, k, v and o projections
// under p (hidden 64, 4 heads of 16 on 2 kv heads).
func drawnAttention(p string) []drawn {
	return []drawn{{p + "q_proj.weight", 0, 0.08, []int{64, 64}}, {p + "k_proj.weight", 0, 0.08, []int{32, 64}},
		{p + "v_proj.weight", 0, 0.08, []int{32, 64}}, {p + "o_proj.weight", 0, 0.08, []int{64, 64}}}
}

// importedSpec imports the checkpoint in dir, checks that the module
// reads every tensor, and returns the checkpoint's spec.
func importedSpec(t *testing.T, dir string) *spec {
	t.Helper()
	m, err := ImportHF(newContext(), dir, Options{MaxTokens: 16})
	if err != nil {
		t.Fatal(err)
	}
	m.Source.Close()
	if len(m.Unused) > 0 {
		t.Errorf("unread tensors %v", m.Unused)
	}
	s, err := specFromConfig(dir, 16)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// matvec64 is W·x in float64 for W [rows, len(x)] row-major.
func matvec64(w []float32, x []float64, rows int) []float64 {
	y := make([]float64, rows)
	for r := range y {
		for c, v := range x {
			y[r] += float64(w[r*len(x)+c]) * v
		}
	}
	return y
}

// rms64 is RMSNorm in float64, scaled by gamma where given.
func rms64(x []float64, eps float64, gamma []float32) []float64 {
	var ss float64
	for _, v := range x {
		ss += v * v
	}
	k := 1 / math.Sqrt(ss/float64(len(x))+eps)
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = v * k
		if gamma != nil {
			out[i] *= float64(gamma[i])
		}
	}
	return out
}

func silu64(v float64) float64 { return v / (1 + math.Exp(-v)) }

// row64 is row r of a table of rows of n, in float64.
func row64(table []float32, r, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = float64(table[r*n+i])
	}
	return out
}

// checkReference compares logits got [steps·vocab] with a float64
// reference's rows: at most 1e-4 apart.
func checkReference(t *testing.T, label string, got []float32, want [][]float64) {
	t.Helper()
	var worst float64
	for step, row := range want {
		for j, v := range row {
			worst = math.Max(worst, math.Abs(float64(got[step*len(row)+j])-v))
		}
	}
	t.Logf("%s: max |Δ| %.3g", label, worst)
	if worst > 1e-4 {
		t.Errorf("%s: logits differ from the reference by up to %.3g", label, worst)
	}
}

// openSpec resolves the checkpoint in dir's config.json and opens its
// tensors, for a test to change the spec before finish builds it.
func openSpec(t testing.TB, dir string) (*spec, *weights.Source) {
	t.Helper()
	s, err := specFromConfig(dir, 16)
	if err != nil {
		t.Fatal(err)
	}
	src, err := weights.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s, src
}

// TestJambaGGUF converts a drawn Jamba checkpoint to GGUF as llama.cpp's
// converter does (jamba: the Mamba layers' head_count_kv 0, the experts
// stacked, no period written: a layer routes where it has its router)
// and decodes it: the F32 file within 1e-5 of the safetensors, Q8_0
// within 1e-5 of its dequantised weights.
func TestJambaGGUF(t *testing.T) {
	dir := drawnJamba(t)
	tokens := []int{1, 17, 42, 200, 5, 99, 255, 128}
	checkGGUFForms(t, dir, tokens, decodeAllRead(t, dir, tokens))
}

// decodeAllRead is decodeHF with every tensor read.
func decodeAllRead(t *testing.T, dir string, tokens []int) *tensor.Tensor {
	t.Helper()
	got, unused := decodeHF(t, dir, tokens)
	if len(unused) > 0 {
		t.Errorf("unread tensors %v", unused)
	}
	return got
}

// TestStateSpaceConfigErrors: the state-space readers' refusals of
// config.json fields, each naming the field, that no other test meets.
func TestStateSpaceConfigErrors(t *testing.T) {
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join("testdata", "hf", name, "config.json"))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	mamba, falcon, granite, bamba, nemotron := read("mamba"), read("falcon_mamba"), read("granitemoehybrid"), read("bamba"), read("nemotron_h")
	edit := func(config, old, new string) string {
		if !strings.Contains(config, old) {
			t.Fatalf("the config holds no %q", old)
		}
		return strings.Replace(config, old, new, 1)
	}
	jamba, err := os.ReadFile(filepath.Join(drawnJamba(t), "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ config, want string }{
		{edit(mamba2Config+`}`, `"vocab_size": 256`, `"vocab_size": 0`), "hidden_size, num_hidden_layers and vocab_size must be positive"},
		{edit(mamba2Config+`}`, `"num_hidden_layers": 2`, `"num_hidden_layers": 70000`), `"num_hidden_layers" = 70000 is more layers than rlx reads`},
		{edit(mamba2Config+`}`, `"rms_norm": true`, `"rms_norm": true, "norm_before_gate": true`), `"norm_before_gate" = true is not supported`},
		{edit(mamba, `"state_size": 16`, `"state_size": 0`), "hidden_size, num_hidden_layers, vocab_size, state_size and time_step_rank must be positive"},
		{edit(mamba, `"intermediate_size": 128`, `"intermediate_size": 100`), `"intermediate_size" = 100 is not expand × hidden_size = 128`},
		{edit(mamba, `"conv_kernel": 4`, `"conv_kernel": 1`), `"conv_kernel" = 1: rlx needs a window of at least 2`},
		{edit(mamba, `"hidden_act": "silu"`, `"hidden_act": "gelu"`), `"hidden_act" = "gelu" is not supported`},
		{edit(falcon, `"mixer_rms_eps": 1e-06`, `"mixer_rms_eps": -1`), `"mixer_rms_eps" = -1: rlx needs a non-negative epsilon`},
		{edit(granite, `"layer_types"`, `"x_layer_types"`), `missing field "layer_types"`},
		{edit(granite, `"layer_types": [`, `"layer_types": "mamba", "x": [`), `"layer_types" = "mamba" is not a list of strings`},
		{edit(bamba, `"attn_layer_indices": [`, `"attn_layer_indices": [7, `), `"attn_layer_indices" names layer 7 of 4`},
		{edit(bamba, `"attn_layer_indices": [`, `"attn_layer_indices": "odd", "x": [`), `"attn_layer_indices" = "odd" is not a list of layer indices`},
		{edit(nemotron, `"layers_block_type": [`, `"layers_block_type": "M*M-", "x": [`), `"layers_block_type" = "M*M-" is not a list of strings`},
		{edit(nemotron, `"layers_block_type": [`, `"hybrid_override_pattern": 7, "x": [`), `"hybrid_override_pattern" = 7 is not a string`},
		{edit(nemotron, `"layers_block_type": [`, `"num_hidden_layers": 3, "layers_block_type": [`), "the layer kinds (hybrid_override_pattern or layer_types) list 4 layers, but num_hidden_layers = 3"},
		{edit(nemotron, `"mamba_hidden_act": "silu"`, `"mamba_hidden_act": "gelu"`), `"mamba_hidden_act" = "gelu" is not supported`},
		{edit(string(jamba), `"mamba_d_state": 16`, `"mamba_d_state": 0`), "mamba_d_state, mamba_dt_rank must be positive and mamba_d_conv at least 2"},
	} {
		if _, err := specOf(t, tc.config); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%.80s…: %v, want %q", tc.config, err, tc.want)
		}
	}
}

// TestStateSpaceGGUFErrors: the state-space GGUF readers' refusals of
// metadata, each naming the key.
func TestStateSpaceGGUFErrors(t *testing.T) {
	granite := convertToGGUF(t, drawnGraniteHybrid(t), 0, false)
	mamba := convertToGGUF(t, drawnMamba(t), 0, false)
	mamba2 := convertToGGUF(t, mamba2Dir(t), 0, false)
	nemotron := convertToGGUF(t, drawnNemotronH(t), 0, false)
	jamba := convertToGGUF(t, drawnJamba(t), 0, false)
	for _, tc := range []struct {
		file  []byte
		edits map[string]any
		want  string
	}{
		{granite, map[string]any{"granitehybrid.attention.head_count_kv": []uint32{0, 2}}, "granitehybrid.attention.head_count_kv must list each of the 4 layers' kv heads (0 for a Mamba-2 layer)"},
		{nemotron, map[string]any{"nemotron_h.feed_forward_length": []uint32{0, 96}}, "nemotron_h.feed_forward_length must list each of the 4 layers' MLP widths (0 where it has no MLP)"},
		{nemotron, map[string]any{"nemotron_h.rope.scaling.finetuned": true}, "nemotron_h.rope.scaling.finetuned is true: rlx reads nemotron_h without rope"},
		{jamba, map[string]any{"jamba.attention.head_count_kv": []uint32{0, 2}}, "jamba.attention.head_count_kv must list each of the 4 layers' kv heads (0 for a Mamba layer)"},
		{jamba, map[string]any{"jamba.ssm.time_step_rank": uint32(0)}, "ssm sizes conv_kernel 4, state_size 16, inner_size 128, time_step_rank 0 do not describe a Mamba mixer"},
		{mamba, map[string]any{"mamba.ssm.conv_kernel": uint32(1)}, "ssm sizes conv_kernel 1, state_size 16, inner_size 128, time_step_rank 4 do not describe a Mamba mixer"},
		{mamba, map[string]any{"mamba.embedding_length": uint32(0)}, "embedding_length and block_count must be positive (got 0, 2)"},
		{mamba, map[string]any{"mamba.attention.layer_norm_rms_epsilon": float32(-1)}, "mamba.attention.layer_norm_rms_epsilon = -1: rlx needs a finite, non-negative epsilon"},
		{mamba2, map[string]any{"mamba2.ssm.group_count": uint32(3)}, "ssm sizes conv_kernel 4, state_size 16, group_count 3, time_step_rank 8, inner_size 128 do not describe a Mamba-2 mixer"},
	} {
		if _, err := ggufSpec(t, editKV(t, tc.file, tc.edits)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one containing %q", tc.edits, err, tc.want)
		}
	}
}
