package importer

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
	"github.com/rlx-compiler/rlx/runtime/weights"
)

// variant writes fixture base's checkpoint to a temporary directory as
// architecture arch, its config.json edited (a nil value deletes the
// field), with a bias of every layer's projections of the given roles:
// uniform in ±scale, drawn from a fixed seed (scale 0 writes zeros). For
// Phi3ForCausalLM the q, k and v projections become one qkv_proj and gate
// and up one gate_up_proj, as Phi-3 stores them.
func variant(t testing.TB, base, arch string, edits map[string]any, roles []string, scale float64) string {
	t.Helper()
	from := fixtureWeights(t, base) // a variant fixture's tensors are its weights_from's
	cfg := fixtureConfig(t, base, edits)
	cfg["architectures"] = []string{arch}
	dir := t.TempDir()
	writeConfig(t, dir, cfg)
	s, err := specFromConfig(dir, 1) // the sizes only (a one-token cache: any sliding window covers it)
	if err != nil {
		t.Fatal(err)
	}
	st := readTensors(t, from)
	if arch == "Phi3ForCausalLM" {
		for l := range s.layers {
			fuse(t, st, hfNames().of(l, roleAttnQKV), hfNames().of(l, roleQ), hfNames().of(l, roleK), hfNames().of(l, roleV))
			fuse(t, st, hfNames().of(l, roleGateUp), hfNames().of(l, roleGate), hfNames().of(l, roleUp))
		}
	}
	rng := rand.New(rand.NewPCG(7, 11))
	size := map[string]int{roleQBias: s.heads * s.headDim, roleKBias: s.kvHeads * s.headDim, roleVBias: s.kvHeads * s.headDim, roleOBias: s.hidden}
	for l := range s.layers {
		for _, role := range roles {
			b := make([]float32, size[role])
			for i := range b {
				b[i] = float32(scale * (2*rng.Float64() - 1))
			}
			if st.Tensors[hfNames().of(l, role)], err = tensor.FromFloat32(tensor.F32, []int{len(b)}, b); err != nil {
				t.Fatal(err)
			}
		}
	}
	writeSafetensors(t, filepath.Join(dir, "model.safetensors"), st)
	return dir
}

// fixtureConfig is fixture base's config.json with edits over it (a nil
// value deletes the field).
func fixtureConfig(t testing.TB, base string, edits map[string]any) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "hf", base, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := json.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	for k, v := range edits {
		if v == nil {
			delete(cfg, k)
		} else {
			cfg[k] = v
		}
	}
	return cfg
}

// writeConfig writes cfg as dir's config.json.
func writeConfig(t testing.TB, dir string, cfg map[string]any) {
	t.Helper()
	data, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// readTensors reads every tensor of the checkpoint in dir, as stored.
func readTensors(t testing.TB, dir string) *tensor.Safetensors {
	t.Helper()
	src, err := weights.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	st := &tensor.Safetensors{Tensors: map[string]*tensor.Tensor{}}
	for _, name := range src.Names() {
		info, _ := src.Info(name)
		if st.Tensors[name], err = src.Weight(ref.Spec{Name: name, Type: ref.TensorType{DType: info.DType, Shape: info.Shape}}); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// fuse replaces the matrices parts by one, to, of their rows in order.
func fuse(t testing.TB, st *tensor.Safetensors, to string, parts ...string) {
	t.Helper()
	stack(t, st, to, nil, parts...)
}

// stack replaces the tensors parts by one, to, of their values in order,
// of shape (nil: the parts' rows stacked, [rows, the parts' columns]),
// as transformers 5 stacks per-expert matrices into one table.
func stack(t testing.TB, st *tensor.Safetensors, to string, shape []int, parts ...string) {
	t.Helper()
	var vals []float32
	cols := 0
	for _, p := range parts {
		m := st.Tensors[p]
		vals = append(vals, m.Floats()...)
		cols = m.Shape()[len(m.Shape())-1]
		delete(st.Tensors, p)
	}
	if shape == nil {
		shape = []int{len(vals) / cols, cols}
	}
	var err error
	if st.Tensors[to], err = tensor.FromFloat32(tensor.F32, shape, vals); err != nil {
		t.Fatal(err)
	}
}

func writeSafetensors(t testing.TB, path string, st *tensor.Safetensors) {
	t.Helper()
	var buf bytes.Buffer
	if err := tensor.WriteSafetensors(&buf, st); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

var (
	// phi3Config turns the llama fixture's config into a Phi-3 one (rope
	// default, a window covering the tests' 16-token caches).
	phi3Config = map[string]any{"mlp_bias": nil, "pretraining_tp": nil, "model_type": "phi3",
		"rope_parameters": map[string]any{"rope_type": "default", "rope_theta": 10000.0},
		"resid_pdrop":     0.0, "embd_pdrop": 0.0, "original_max_position_embeddings": 512, "sliding_window": 16}
	qkvBiases = []string{roleQBias, roleKBias, roleVBias}
	allBiases = []string{roleQBias, roleKBias, roleVBias, roleOBias}
	// qwen2Config turns the llama fixture's config into a Qwen2 one, as
	// Qwen2.5's files spell it (the sliding window off).
	qwen2Config = map[string]any{
		"attention_bias": nil, "mlp_bias": nil, "pretraining_tp": nil, "model_type": "qwen2",
		"use_sliding_window": false, "sliding_window": 4096, "max_window_layers": 28,
		"rope_parameters": map[string]any{"rope_type": "default", "rope_theta": 1e6},
	}
)

// TestAttentionBiases imports checkpoints whose attention projections
// have biases (Qwen2's q, k and v; Llama's and Qwen3's four under
// attention_bias), from safetensors and from GGUF files converted as
// llama.cpp converts them, and decodes the fixture's tokens: the logits
// agree with the float64 oracle's (≤ 1e-5 of max |logit|), which are
// more than 1% away from the same checkpoint's with zero biases, so a
// bias left out fails the test. The GGUF files give the safetensors
// import's logits (F32: ≤ 1e-5; Q8_0: what an F32 file of its
// dequantised weights gives, ≤ 1e-5; the biases stay F32).
func TestAttentionBiases(t *testing.T) {
	for _, tc := range []struct {
		name, base, arch string
		edits            map[string]any
		roles            []string
		ggufArch         string
	}{
		{"qwen2", "llama", "Qwen2ForCausalLM", qwen2Config, qkvBiases, "qwen2"},
		{"llama", "llama", "LlamaForCausalLM", map[string]any{"attention_bias": true}, allBiases, "llama"},
		{"qwen3", "qwen3", "Qwen3ForCausalLM", map[string]any{"attention_bias": true}, allBiases, "qwen3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tokens := loadFixture(t, tc.base).Tokens
			dir := variant(t, tc.base, tc.arch, tc.edits, tc.roles, 0.5)
			want := oracle(t, dir, tokens)
			zero := oracle(t, variant(t, tc.base, tc.arch, tc.edits, tc.roles, 0), tokens)
			zt, err := tensor.FromFloat32(tensor.F32, []int{len(zero), len(zero[0])}, flatten(zero))
			if err != nil {
				t.Fatal(err)
			}
			moved := oracleAgreement(zt, want)
			t.Logf("%s: zero biases move the oracle's logits by %.3g of max |logit|", tc.arch, moved)
			if moved < 0.01 {
				t.Fatalf("zero biases move the oracle's logits by only %.3g of max |logit|: the test would not see a bias left out", moved)
			}
			got, _ := importAndCheck(t, dir, tokens)
			checkGGUF(t, dir, tc.ggufArch, tokens, got)
		})
	}
}

// checkGGUF converts the checkpoint in dir to GGUF as llama.cpp would and
// decodes tokens from it: the file's architecture is arch, it reads every
// tensor, an F32 file gives the safetensors logits want (≤ 1e-5 of max
// |logit|, the same arg-max), and a Q8_0 file what an F32 file of its
// dequantised weights gives (≤ 1e-5).
func checkGGUF(t *testing.T, dir, arch string, tokens []int, want *tensor.Tensor) {
	t.Helper()
	run := func(format gguf.Format, dequantised bool) *tensor.Tensor {
		path := filepath.Join(t.TempDir(), arch+".gguf")
		if err := os.WriteFile(path, convertToGGUF(t, dir, format, dequantised), 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := ImportGGUF(newContext(), path, Options{MaxTokens: 16})
		if err != nil {
			t.Fatal(err)
		}
		defer m.Source.Close()
		if m.Arch != arch || len(m.Unused) > 0 {
			t.Errorf("GGUF: arch %q (want %q), unread tensors %v", m.Arch, arch, m.Unused)
		}
		return decodeModule(t, m.Module, m.Source, tokens)
	}
	rel, bad := agreement(run(0, false), want)
	t.Logf("%s F32 GGUF against safetensors: %.3g", arch, rel)
	if rel > 1e-5 || len(bad) > 0 {
		t.Errorf("%s F32 GGUF: max |Δ| / max |logit| against safetensors = %.3g (tolerance 1e-5), arg-max differs at %v", arch, rel, bad)
	}
	rel, _ = agreement(run(gguf.Q8_0, false), run(gguf.Q8_0, true))
	t.Logf("%s Q8_0 GGUF against F32 of its dequantised weights: %.3g", arch, rel)
	if rel > 1e-5 {
		t.Errorf("%s Q8_0 GGUF: max |Δ| / max |logit| against its dequantised F32 file = %.3g (tolerance 1e-5)", arch, rel)
	}
}

// mergeEdits returns a's edits with b's over them.
func mergeEdits(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

func flatten(rows [][]float64) []float32 {
	var out []float32
	for _, r := range rows {
		for _, v := range r {
			out = append(out, float32(v))
		}
	}
	return out
}

// TestMistral: a MistralForCausalLM checkpoint is Llama's graph (the
// llama fixture's tensors under a Mistral config import to the same
// module, printed) when its sliding window covers the cache; a window of
// 3 masks the rows behind it (the logits move, and agree with the
// oracle's); its GGUF file (llama.cpp writes Mistral as "llama") imports
// as Llama's.
func TestMistral(t *testing.T) {
	edits := func(window any) map[string]any {
		return map[string]any{"mlp_bias": nil, "pretraining_tp": nil, "model_type": "mistral", "sliding_window": window}
	}
	llama, err := ImportHF(newContext(), filepath.Join("testdata", "hf", "llama"), Options{MaxTokens: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer llama.Source.Close()
	for _, window := range []any{nil, 16, 4096} {
		dir := variant(t, "llama", "MistralForCausalLM", edits(window), nil, 0)
		m, err := ImportHF(newContext(), dir, Options{MaxTokens: 16})
		if err != nil {
			t.Fatalf("sliding_window %v: %v", window, err)
		}
		got, want := ir.Sprint(m.Module, ir.PrintOptions{}), ir.Sprint(llama.Module, ir.PrintOptions{})
		m.Source.Close()
		if got != want {
			t.Errorf("sliding_window %v: the Mistral module differs from Llama's", window)
		}
	}
	windowed, _ := importAndCheck(t, variant(t, "llama", "MistralForCausalLM", edits(3), nil, 0), loadFixture(t, "llama").Tokens)
	if rel, _ := agreement(windowed, decodeModule(t, llama.Module, llama.Source, loadFixture(t, "llama").Tokens)); rel < 0.01 {
		t.Errorf("a window of 3 moves the logits by only %.3g of max |logit|", rel)
	}
	dir := variant(t, "llama", "MistralForCausalLM", edits(nil), nil, 0)
	path := filepath.Join(t.TempDir(), "mistral.gguf")
	if err := os.WriteFile(path, convertToGGUF(t, dir, 0, false), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := ImportGGUF(newContext(), path, Options{MaxTokens: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Source.Close()
	tokens := loadFixture(t, "llama").Tokens
	if rel, bad := agreement(decodeModule(t, g.Module, g.Source, tokens), decodeModule(t, llama.Module, llama.Source, tokens)); g.Arch != "llama" || rel > 1e-5 || len(bad) > 0 {
		t.Errorf("Mistral's GGUF (arch %q): max |Δ| / max |logit| against the Llama fixture = %.3g (tolerance 1e-5), arg-max differs at %v", g.Arch, rel, bad)
	}
}

// TestBiasErrors: a bias the architecture requires and the checkpoint
// lacks, and a bias of the wrong shape, are errors naming the tensor, from
// safetensors and from GGUF.
func TestBiasErrors(t *testing.T) {
	// Qwen2 without v biases: transformers' Qwen2 and llama.cpp's qwen2
	// both need them.
	dir := variant(t, "llama", "Qwen2ForCausalLM", qwen2Config, []string{roleQBias, roleKBias}, 0.5)
	_, err := ImportHF(newContext(), dir, Options{MaxTokens: 16})
	if want := `missing tensor "model.layers.0.self_attn.v_proj.bias" (Qwen2ForCausalLM needs it)`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Qwen2 without v biases: error %v, want one containing %q", err, want)
	}
	path := filepath.Join(t.TempDir(), "qwen2.gguf")
	if err := os.WriteFile(path, convertToGGUF(t, dir, 0, false), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ImportGGUF(newContext(), path, Options{MaxTokens: 16})
	if want := `missing tensor "blk.0.attn_v.bias" (qwen2 needs it)`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("qwen2 GGUF without v biases: error %v, want one containing %q", err, want)
	}

	// Llama's q bias one short: refused where llama.cpp adds what it finds.
	dir = variant(t, "llama", "LlamaForCausalLM", map[string]any{"attention_bias": true}, allBiases, 0.5)
	st := filepath.Join(dir, "model.safetensors")
	ts := readSafetensorsFile(t, dir)
	name := "model.layers.1.self_attn.q_proj.bias"
	if ts.Tensors[name], err = tensor.FromFloat32(tensor.F32, []int{63}, make([]float32, 63)); err != nil {
		t.Fatal(err)
	}
	writeSafetensors(t, st, ts)
	_, err = ImportHF(newContext(), dir, Options{MaxTokens: 16})
	if want := `tensor "model.layers.1.self_attn.q_proj.bias" is F32 [63], expected shape [64]`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a q bias of 63: error %v, want one containing %q", err, want)
	}
}

// TestPhi3: a Phi3ForCausalLM checkpoint (the llama fixture's tensors with
// q, k and v fused into qkv_proj and gate and up into gate_up_proj, rope
// default) decodes to the logits of the same tensors unfused under a
// Llama config, bit for bit, and within 1e-5 of the float64 oracle; its
// GGUF file (phi3: attn_qkv, ffn_up holding [gate; up]) decodes as its
// safetensors, in F32 and in Q8_0 (against its dequantised F32 file);
// hybrid-split keeps its logits bit for bit. A sliding window shorter
// than the tokens masks the rows behind it, from config.json and from
// GGUF metadata alike.
func TestPhi3(t *testing.T) {
	tokens := loadFixture(t, "llama").Tokens
	phi3 := phi3Config
	dir := variant(t, "llama", "Phi3ForCausalLM", phi3, nil, 0)
	llama := variant(t, "llama", "LlamaForCausalLM", map[string]any{"rope_parameters": phi3Config["rope_parameters"]}, nil, 0)
	got, _ := importAndCheck(t, dir, tokens)
	l, err := ImportHF(newContext(), llama, Options{MaxTokens: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Source.Close()
	if want := decodeModule(t, l.Module, l.Source, tokens); !tensor.BitsEqual(got, want) {
		rel, _ := agreement(got, want)
		t.Errorf("Phi-3's logits differ from Llama's on the same tensors: max |Δ| / max |logit| = %.3g", rel)
	}
	checkGGUF(t, dir, "phi3", tokens, got)

	// A window of 3 masks rows at the later positions: the logits move
	// (so the mask is not a no-op), agree with the oracle's, and the GGUF
	// file's attention.sliding_window gives the same.
	dir = variant(t, "llama", "Phi3ForCausalLM", mergeEdits(phi3, map[string]any{"sliding_window": 3}), nil, 0)
	windowed, _ := importAndCheck(t, dir, tokens)
	if rel, _ := agreement(windowed, got); rel < 0.01 {
		t.Errorf("a window of 3 moves the logits by only %.3g of max |logit|", rel)
	}
	checkGGUF(t, dir, "phi3", tokens, windowed)
}

// TestQwenWindows: Qwen's per-layer sliding windows as transformers'
// configs resolve them. With use_sliding_window, sliding_window 3 and
// max_window_layers 2, layers 2 and 3 slide: the logits move and stay
// within 1e-5 of the oracle; the same layers named by layer_types give
// the same module; without use_sliding_window a sliding_attention layer
// attends over everything (transformers drops the window), the module
// of the plain config.
func TestQwenWindows(t *testing.T) {
	tokens := loadFixture(t, "qwen3").Tokens
	printed := func(dir string) string {
		m, err := ImportHF(newContext(), dir, Options{MaxTokens: 16})
		if err != nil {
			t.Fatal(err)
		}
		defer m.Source.Close()
		return ir.Sprint(m.Module, ir.PrintOptions{})
	}
	byDepth := variant(t, "qwen3", "Qwen3ForCausalLM", map[string]any{"use_sliding_window": true, "sliding_window": 3,
		"max_window_layers": 2, "layer_types": nil}, nil, 0)
	got, _ := importAndCheck(t, byDepth, tokens)
	plain, _ := importAndCheck(t, variant(t, "qwen3", "Qwen3ForCausalLM", nil, nil, 0), tokens)
	if rel, _ := agreement(got, plain); rel < 1e-3 {
		t.Errorf("windows of 3 on layers 2 and 3 move the logits by only %.3g of max |logit|", rel)
	}
	types := []string{"full_attention", "full_attention", "sliding_attention", "sliding_attention"}
	byTypes := variant(t, "qwen3", "Qwen3ForCausalLM", map[string]any{"use_sliding_window": true, "sliding_window": 3,
		"layer_types": types}, nil, 0)
	if printed(byTypes) != printed(byDepth) {
		t.Errorf("layer_types naming layers 2 and 3 import to another module than max_window_layers 2")
	}
	unused := variant(t, "qwen3", "Qwen3ForCausalLM", map[string]any{"use_sliding_window": false, "sliding_window": 3,
		"layer_types": types}, nil, 0)
	if printed(unused) != printed(filepath.Join("testdata", "hf", "qwen3")) {
		t.Errorf("sliding_attention layers without use_sliding_window import to another module than the plain config's")
	}
}
