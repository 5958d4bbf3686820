package importer

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
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
	m := s.mamba2
	if m.ssmHeads != 8 || m.ssmHeadDim != 16 || m.ssmGroups != 2 || m.ssmState != 16 || m.ssmConv != 4 || !m.ssmConvBias || m.ssmProjBias ||
		m.ssmDTMin != 0 || !math.IsInf(m.ssmDTMax, 1) || !s.mixerOnly || s.anyAttention() || !slices.Equal(s.layerTypes, []string{mambaLayer, mambaLayer}) {
		t.Errorf("Mamba2: %+v, layer types %v", m, s.layerTypes)
	}
	if s, err := specOf(t, mamba2Config+`, "time_step_limit": [0.01, 2.5]}`); err != nil || s.ssmDTMin != 0.01 || s.ssmDTMax != 2.5 {
		t.Errorf("time_step_limit [0.01, 2.5]: %v", err)
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
		{mamba2Config + `, "layer_norm_epsilon": -Infinity}`, `"layer_norm_epsilon" = "-Infinity" is not a number`},
		{mamba2Config + `, "num_heads": 6}`, `num_heads = 6 heads of head_dim = 16 do not fill expand × hidden_size = 128`},
		{mamba2Config + `, "n_groups": 3}`, `"n_groups" = 3 does not divide num_heads = 8`},
		{mamba2Config + `, "conv_kernel": 1}`, `"conv_kernel" = 1: rlx needs a window of at least 2`},
		{mamba2Config + `, "rms_norm": false}`, `"rms_norm" = false is not supported`},
		{mamba2Config + `, "hidden_act": "gelu"}`, `"hidden_act" = "gelu" is not supported`},
		{mamba2Config + `, "state_size": 0}`, `must be positive`},
		{granite + `, "layer_types": ["mamba"]}`, `"layer_types" lists 1 layers, but num_hidden_layers = 2`},
		{granite + `, "layer_types": ["mamba", "conv"]}`, `gives layer 1 type "conv", which is not supported for GraniteMoeHybridForCausalLM (rlx implements "attention", "mamba")`},
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
	dir = t.TempDir()
	writeConfig(t, dir, cfg)
	rng := rand.New(rand.NewPCG(70, 1))
	st := &tensor.Safetensors{Tensors: map[string]*tensor.Tensor{}}
	w = map[string][]float32{}
	add := func(name string, base, std float64, shape ...int) {
		v := make([]float32, 1)
		for _, d := range shape {
			v = make([]float32, len(v)*d)
		}
		for i := range v {
			v[i] = float32(base + std*rng.NormFloat64())
		}
		var err error
		if st.Tensors[name], err = tensor.FromFloat32(tensor.F32, shape, v); err != nil {
			t.Fatal(err)
		}
		w[name] = v
	}
	add("backbone.embeddings.weight", 0, 0.5, 256, 64)
	add("backbone.norm_f.weight", 1, 0.08, 64)
	add("lm_head.weight", 0, 0.08, 256, 64)
	for l := range 2 {
		p := fmt.Sprintf("backbone.layers.%d.", l)
		add(p+"norm.weight", 1, 0.08, 64)
		add(p+"mixer.in_proj.weight", 0, 0.08, 128+192+8, 64)
		add(p+"mixer.conv1d.weight", 0, 0.3, 192, 1, 4)
		add(p+"mixer.conv1d.bias", 0, 0.08, 192)
		add(p+"mixer.dt_bias", 1, 0.08, 8)
		add(p+"mixer.A_log", -1, 0.5, 8)
		add(p+"mixer.D", 0, 0.08, 8)
		add(p+"mixer.norm.weight", 1, 0.08, 128)
		add(p+"mixer.out_proj.weight", 0, 0.08, 64, 128)
	}
	writeSafetensors(t, filepath.Join(dir, "model.safetensors"), st)
	return dir, w
}

// mamba2Reference decodes tokens through drawnMamba2's model in float64,
// written out loop by loop from Mamba2Mixer's decode step (the gated
// norm over each group's 64 channels where grouped): the importer's
// graph checked against an independent computation of the same step.
func mamba2Reference(w map[string][]float32, tokens []int, grouped bool) [][]float64 {
	const e, nh, hd, ng, ns, kk, vocab = 64, 8, 16, 2, 16, 4, 256
	const inner, cd = nh * hd, nh*hd + 2*ng*ns
	f := func(name string, i int) float64 { return float64(w[name][i]) }
	matvec := func(name string, x []float64, rows int) []float64 {
		y := make([]float64, rows)
		for r := range y {
			for c, v := range x {
				y[r] += f(name, r*len(x)+c) * v
			}
		}
		return y
	}
	rms := func(x []float64, eps float64) []float64 {
		var ss float64
		for _, v := range x {
			ss += v * v
		}
		k := 1 / math.Sqrt(ss/float64(len(x))+eps)
		out := make([]float64, len(x))
		for i, v := range x {
			out[i] = v * k
		}
		return out
	}
	silu := func(v float64) float64 { return v / (1 + math.Exp(-v)) }
	conv := [2][kk - 1][cd]float64{}
	ssm := [2][nh][hd][ns]float64{}
	var logits [][]float64
	for _, tok := range tokens {
		x := make([]float64, e)
		for i := range x {
			x[i] = f("backbone.embeddings.weight", tok*e+i)
		}
		for l := range 2 {
			p := fmt.Sprintf("backbone.layers.%d.", l)
			h := rms(x, 1e-5)
			for i := range h {
				h[i] *= f(p+"norm.weight", i)
			}
			proj := matvec(p+"mixer.in_proj.weight", h, inner+cd+nh)
			xbc := make([]float64, cd)
			for c := range cd {
				v := f(p+"mixer.conv1d.bias", c) + f(p+"mixer.conv1d.weight", c*kk+kk-1)*proj[inner+c]
				for t := range kk - 1 {
					v += f(p+"mixer.conv1d.weight", c*kk+t) * conv[l][t][c]
				}
				xbc[c] = silu(v)
				for t := range kk - 2 {
					conv[l][t][c] = conv[l][t+1][c]
				}
				conv[l][kk-2][c] = proj[inner+c]
			}
			y := make([]float64, inner)
			for hh := range nh {
				dt := proj[inner+cd+hh] + f(p+"mixer.dt_bias", hh)
				dt = math.Log1p(math.Exp(dt))
				decay := math.Exp(dt * -math.Exp(f(p+"mixer.A_log", hh)))
				g := hh / (nh / ng)
				for q := range hd {
					xv := xbc[hh*hd+q]
					var acc float64
					for n := range ns {
						s := ssm[l][hh][q][n]*decay + dt*xv*xbc[inner+g*ns+n]
						ssm[l][hh][q][n] = s
						acc += s * xbc[inner+ng*ns+g*ns+n]
					}
					y[hh*hd+q] = (acc + f(p+"mixer.D", hh)*xv) * silu(proj[hh*hd+q])
				}
			}
			if grouped {
				per := inner / ng
				for g := range ng {
					copy(y[g*per:(g+1)*per], rms(y[g*per:(g+1)*per], 1e-5))
				}
			} else {
				y = rms(y, 1e-5)
			}
			for i := range y {
				y[i] *= f(p+"mixer.norm.weight", i)
			}
			for i, v := range matvec(p+"mixer.out_proj.weight", y, e) {
				x[i] += v
			}
		}
		h := rms(x, 1e-5)
		for i := range h {
			h[i] *= f("backbone.norm_f.weight", i)
		}
		logits = append(logits, matvec("lm_head.weight", h, vocab))
	}
	return logits
}

// TestMamba2Step decodes a drawn Mamba2ForCausalLM checkpoint through
// the interpreter and compares every step's logits with
// mamba2Reference: the gated norm over the whole width (transformers'
// Mamba2Mixer), and over each group (llama.cpp's, ssmGroupNorm).
func TestMamba2Step(t *testing.T) {
	dir, w := drawnMamba2(t, map[string]any{"time_step_limit": []float64{0, 1e9}})
	tokens := []int{1, 17, 42, 200, 5, 99, 255, 128}
	for _, grouped := range []bool{false, true} {
		m, err := ImportHF(newContext(), dir, Options{MaxTokens: 16})
		if err != nil {
			t.Fatal(err)
		}
		if grouped {
			// Rebuilt with the grouped norm, as a GGUF file's spec says.
			m.Source.Close()
			s, err := specFromConfig(dir, 16)
			if err != nil {
				t.Fatal(err)
			}
			s.ssmGroupNorm = true
			src, err := weights.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			if m, err = finish(newContext(), s, hfNamesFor(s.arch, src), src); err != nil {
				t.Fatal(err)
			}
		}
		if len(m.Unused) > 0 {
			t.Errorf("unread tensors %v", m.Unused)
		}
		got := decodeModule(t, m.Module, m.Source, tokens).Floats()
		m.Source.Close()
		var worst float64
		for s, row := range mamba2Reference(w, tokens, grouped) {
			for j, v := range row {
				worst = math.Max(worst, math.Abs(float64(got[s*256+j])-v))
			}
		}
		t.Logf("grouped %v: max |Δ| %.3g", grouped, worst)
		if worst > 1e-4 {
			t.Errorf("grouped %v: logits differ from the reference by up to %.3g", grouped, worst)
		}
	}
}

// mamba2Dir is drawnMamba2's checkpoint with dt clamped to [0.05, 0.9].
func mamba2Dir(t testing.TB) string {
	dir, _ := drawnMamba2(t, map[string]any{"time_step_limit": []float64{0.05, 0.9}})
	return dir
}
