package importer

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// gemma3Config turns the qwen3 fixture's config into a Gemma 3 one, as
// Gemma 3's published files spell it: layers 0 and 2 sliding (a pattern
// of 2) with a window of 3 and rope base 10⁴, layers 1 and 3 global with
// base 10⁶ and linear scaling by 2, scores × 24^−½ (head_dim is 16).
var gemma3Config = map[string]any{"model_type": "gemma3_text", "hidden_act": nil, "hidden_activation": "gelu_pytorch_tanh",
	"layer_types": nil, "max_window_layers": nil, "use_sliding_window": nil, "rope_parameters": nil,
	"rope_theta": 1e6, "rope_scaling": map[string]any{"rope_type": "linear", "factor": 2.0}, "rope_local_base_freq": 10000.0,
	"query_pre_attn_scalar": 24, "sliding_window": 3, "sliding_window_pattern": 2, "final_logit_softcapping": nil,
	"attn_logit_softcapping": nil, "cache_implementation": "hybrid"}

// gemma3Tensors renames the qwen3 fixture's tensors to Gemma 3's layout:
// its pre-MLP norm (Llama's post_attention_layernorm) becomes
// pre_feedforward_layernorm, and every layer gains a norm after
// attention and after the MLP (`1 + w`, w uniform in ±0.2).
func gemma3Tensors(t testing.TB, st *tensor.Safetensors, layers, hidden int, prefix string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(9, 2))
	norm := func() *tensor.Tensor {
		v := make([]float32, hidden)
		for i := range v {
			v[i] = float32(0.4*rng.Float64() - 0.2)
		}
		w, err := tensor.FromFloat32(tensor.F32, []int{hidden}, v)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	for l := range layers {
		p := prefix + "layers." + fmt.Sprint(l) + "."
		st.Tensors[p+"pre_feedforward_layernorm.weight"] = st.Tensors[p+"post_attention_layernorm.weight"]
		st.Tensors[p+"post_attention_layernorm.weight"] = norm()
		st.Tensors[p+"post_feedforward_layernorm.weight"] = norm()
	}
}

// gemmaCheckpoint is the fixture base as a Gemma checkpoint of arch: its
// config edited, its tensors in Gemma's layout (gemma3Tensors).
func gemmaCheckpoint(t testing.TB, base, arch string, edits map[string]any) string {
	t.Helper()
	dir := variant(t, base, arch, edits, nil, 0)
	st := readTensors(t, dir)
	gemma3Tensors(t, st, 4, 64, "model.")
	writeSafetensors(t, filepath.Join(dir, "model.safetensors"), st)
	return dir
}

// TestGemma3GGUF: a Gemma 3 checkpoint as llama.cpp can hold it (every
// sixth layer global, query_pre_attn_scalar the head size: what llama.cpp
// assumes outside the 27B) converted to GGUF as convert_hf_to_gguf does
// (norms with 1 added, post_attention_norm, ffn_norm, post_ffw_norm, the
// window as gemma3.attention.sliding_window, the global rope's linear
// scaling as rope.scaling.*) decodes as its safetensors.
func TestGemma3GGUF(t *testing.T) {
	tokens := loadFixture(t, "qwen3").Tokens
	dir := gemmaCheckpoint(t, "qwen3", "Gemma3ForCausalLM", mergeEdits(gemma3Config, map[string]any{"query_pre_attn_scalar": 16, "sliding_window_pattern": 6}))
	got, _ := importAndCheck(t, dir, tokens)
	checkGGUF(t, dir, "gemma3", tokens, got)

	// gemma3.rope.freq_base_swa, the sliding layers' base: 10⁶ in the
	// file decodes as rope_local_base_freq 10⁶ in config.json; 1 is an
	// error naming the key.
	local := gemmaCheckpoint(t, "qwen3", "Gemma3ForCausalLM", mergeEdits(gemma3Config, map[string]any{"query_pre_attn_scalar": 16, "sliding_window_pattern": 6, "rope_local_base_freq": 1e6}))
	want, _ := importAndCheck(t, local, tokens)
	if rel, _ := agreement(want, got); rel < 1e-3 {
		t.Errorf("a local rope base of 10⁶ moves the logits by only %.3g of max |logit|", rel)
	}
	for _, tc := range []struct {
		base float32
		err  string
	}{{1e6, ""}, {1, "gemma3.rope.freq_base_swa = 1: rlx needs a finite rope base above 1"}} {
		path := withKV(t, convertToGGUF(t, dir, 0, false), "gemma3.rope.freq_base_swa", tc.base)
		m, err := ImportGGUF(newContext(), path, Options{MaxTokens: 16})
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("freq_base_swa %g: error %v, want %q", tc.base, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := agreement(decodeModule(t, m.Module, m.Source, tokens), want)
		m.Source.Close()
		if rel > 1e-5 {
			t.Errorf("freq_base_swa 10⁶: %.3g from the safetensors with rope_local_base_freq 10⁶ (tolerance 1e-5)", rel)
		}
	}
}

// withKV writes data, a GGUF file, with the pair key replaced (or
// added) by value; editKV with more than one.
func withKV(t *testing.T, data []byte, key string, value any) string {
	t.Helper()
	return editKV(t, data, map[string]any{key: value})
}

// editKV writes data, a GGUF file, with each pair in edits replaced (or
// added) by its value, and taken out where the value is nil.
func editKV(t *testing.T, data []byte, edits map[string]any) string {
	t.Helper()
	return rewriteGGUF(t, data, edits, nil)
}

// openGGUFData writes data, a GGUF file, into a new test directory and
// opens it (closed when the test ends); it returns the file and the
// directory.
func openGGUFData(t *testing.T, data []byte) (*gguf.File, string) {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(dir, "in.gguf")
	if err := os.WriteFile(src, data, 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := gguf.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return g, dir
}

// rewriteGGUF writes data, a GGUF file, with the pairs edited as editKV
// does and each tensor written by add (as it is where add is nil); it
// returns the new file's path.
func rewriteGGUF(t *testing.T, data []byte, edits map[string]any, add func(w *gguf.Writer, name string, info *gguf.TensorInfo, b []byte)) string {
	t.Helper()
	g, dir := openGGUFData(t, data)
	var w gguf.Writer
	for _, kv := range g.KV {
		if _, edited := edits[kv.Key]; !edited {
			w.Add(kv.Key, kv.Value)
		}
	}
	for _, key := range slices.Sorted(maps.Keys(edits)) {
		if edits[key] != nil {
			w.Add(key, edits[key])
		}
	}
	for _, name := range g.Names() {
		info, _ := g.Tensor(name)
		b, err := g.TensorData(info)
		if err != nil {
			t.Fatal(err)
		}
		if add != nil {
			add(&w, name, info, b)
		} else if err := w.AddTensor(name, info.Type, info.Shape(), b); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "out.gguf")
	if err := w.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestGemma3: a Gemma3ForCausalLM checkpoint (the qwen3 fixture's tensors
// in Gemma 3's layout, gemma3Config) decodes within 1e-5 of the float64
// oracle, and hybrid-split keeps its logits bit for bit; the same
// model with transformers 5's rope_parameters keyed by layer type imports
// to the same module; a layer's sliding window, its own rope base, the
// score scale and the norms after attention each move the logits (so
// none is a no-op). Its vision-language form (Gemma3ForConditionalGeneration,
// text_config), under either tensor prefix (language_model.model. as first
// published, model.language_model. as transformers writes since 4.52),
// decodes bit for bit as the text model.
func TestGemma3(t *testing.T) {
	tokens := loadFixture(t, "qwen3").Tokens
	write := func(edits map[string]any) string { return gemmaCheckpoint(t, "qwen3", "Gemma3ForCausalLM", edits) }
	dir := write(gemma3Config)
	got, m := importAndCheck(t, dir, tokens)

	byType := mergeEdits(gemma3Config, map[string]any{"rope_theta": nil, "rope_scaling": nil, "rope_local_base_freq": nil,
		"rope_parameters": map[string]any{
			"full_attention":    map[string]any{"rope_type": "linear", "rope_theta": 1e6, "factor": 2.0},
			"sliding_attention": map[string]any{"rope_type": "default", "rope_theta": 10000.0}}})
	m2, err := ImportHF(newContext(), write(byType), Options{MaxTokens: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer m2.Source.Close()
	if ir.Sprint(m2.Module, ir.PrintOptions{}) != ir.Sprint(m.Module, ir.PrintOptions{}) {
		t.Errorf("rope_parameters keyed by layer type import to another module than rope_theta, rope_scaling and rope_local_base_freq")
	}

	for what, edits := range map[string]map[string]any{
		"no window":                 {"sliding_window": 4096},
		"one rope base":             {"rope_local_base_freq": 1e6},
		"the default score scale":   {"query_pre_attn_scalar": 16},
		"every layer global":        {"sliding_window_pattern": 1},
		"a longer sliding window":   {"sliding_window": 5},
		"no scaling of global rope": {"rope_scaling": nil},
	} {
		other, _ := importAndCheck(t, write(mergeEdits(gemma3Config, edits)), tokens)
		if rel, _ := agreement(other, got); rel < 1e-3 {
			t.Errorf("%s moves the logits by only %.3g of max |logit|", what, rel)
		}
	}

	for _, prefix := range []string{"language_model.model.", "model.language_model."} {
		vl := t.TempDir()
		text := mergeEdits(gemma3Config, nil)
		writeVisionLanguage(t, vl, "Gemma3ForConditionalGeneration", "qwen3", text, map[string]any{
			"mm_tokens_per_image": 256, "boi_token_index": 255999, "eoi_token_index": 256000, "image_token_index": 262144},
			func(st *tensor.Safetensors) {
				renamed := map[string]*tensor.Tensor{}
				for name, w := range st.Tensors {
					renamed[strings.Replace(name, "model.", prefix, 1)] = w
				}
				st.Tensors = renamed
				gemma3Tensors(t, st, 4, 64, prefix)
			})
		v, err := ImportHF(newContext(), vl, Options{MaxTokens: 16})
		if err != nil {
			t.Fatalf("%s: %v", prefix, err)
		}
		if vgot := decodeModule(t, v.Module, v.Source, tokens); !tensor.BitsEqual(vgot, got) {
			rel, _ := agreement(vgot, got)
			t.Errorf("Gemma3ForConditionalGeneration (%s): %.3g from the text model's logits, want bit-identical", prefix, rel)
		}
		if len(v.Unused) != 1 || !strings.Contains(v.Unused[0], "vision") {
			t.Errorf("%s: unread tensors %v, want the vision tower's only", prefix, v.Unused)
		}
		v.Source.Close()
	}
}

// gemma2Config turns the llama fixture's config into a Gemma 2 one, as
// Gemma 2's published files spell it (hidden_act beside
// hidden_activation, one rope_theta), with a window of 3 on the even
// layers and soft-caps small enough to bite on these tiny scores (the
// published 50 and 30 are the defaults).
var gemma2Config = map[string]any{"model_type": "gemma2", "hidden_act": "gelu_pytorch_tanh", "hidden_activation": "gelu_pytorch_tanh",
	"mlp_bias": nil, "pretraining_tp": nil, "rope_parameters": nil, "rope_theta": 10000.0,
	"query_pre_attn_scalar": 24, "sliding_window": 3, "attn_logit_softcapping": 0.5, "final_logit_softcapping": 1.5,
	"cache_implementation": "hybrid"}

// TestGemma2: a Gemma2ForCausalLM checkpoint (the llama fixture's tensors
// in Gemma's layout) decodes within 1e-5 of the float64 oracle, and
// hybrid-split keeps its logits bit for bit; each soft-cap, the window
// and the score scale move the logits; a null soft-cap turns it off and
// a missing one takes Gemma 2's default; the GGUF form (llama.cpp's
// gemma2: the caps as keys, the even layers sliding) decodes as the
// safetensors.
func TestGemma2(t *testing.T) {
	tokens := loadFixture(t, "llama").Tokens
	write := func(edits map[string]any) string { return gemmaCheckpoint(t, "llama", "Gemma2ForCausalLM", edits) }
	dir := write(gemma2Config)
	got, m := importAndCheck(t, dir, tokens)
	if n := countOps(m.Module, graph.TanhName); n != 1 {
		t.Errorf("%d graph.tanh ops, want 1 (the logits' cap)", n)
	}
	for what, edits := range map[string]map[string]any{
		"no attention soft-cap": {"attn_logit_softcapping": 1e6},
		"no logit soft-cap":     {"final_logit_softcapping": 1e6},
		"no window":             {"sliding_window": 4096},
		"the default scale":     {"query_pre_attn_scalar": 16},
	} {
		other, _ := importAndCheck(t, write(mergeEdits(gemma2Config, edits)), tokens)
		if rel, _ := agreement(other, got); rel < 1e-3 {
			t.Errorf("%s moves the logits by only %.3g of max |logit|", what, rel)
		}
	}
	// GGUF: llama.cpp's score scale is 1/√head_dim outside the 27B.
	dir = write(mergeEdits(gemma2Config, map[string]any{"query_pre_attn_scalar": 16}))
	got, _ = importAndCheck(t, dir, tokens)
	checkGGUF(t, dir, "gemma2", tokens, got)

	const base = `{"architectures": ["Gemma2ForCausalLM"], ` + gemmaFields
	for _, tc := range []struct {
		config         string
		attn, final    float64
		slidingLayers0 bool
	}{
		{base + `}`, 50, 30, true},
		{base + `, "attn_logit_softcapping": null, "final_logit_softcapping": null}`, 0, 0, true},
		{base + `, "final_logit_softcapping": 12.5, "layer_types": ["full_attention"]}`, 50, 12.5, false},
	} {
		s, err := specOf(t, tc.config)
		if err != nil {
			t.Fatal(err)
		}
		if s.attnSoftcap != tc.attn || s.finalSoftcap != tc.final || s.sliding[0] != tc.slidingLayers0 || s.qkNorm || s.localInvFreq != nil {
			t.Errorf("%s: caps %g, %g, layer 0 sliding %v, q/k norms %v, local rope %v; want %g, %g, %v, none, none",
				tc.config, s.attnSoftcap, s.finalSoftcap, s.sliding[0], s.qkNorm, s.localInvFreq != nil, tc.attn, tc.final, tc.slidingLayers0)
		}
	}
	if _, err := specOf(t, base+`, "attn_logit_softcapping": -1}`); err == nil || !strings.Contains(err.Error(), `field "attn_logit_softcapping" = -1: rlx needs a finite positive cap, or null`) {
		t.Errorf("a negative cap: error %v", err)
	}
	// The GGUF form's caps are checked too.
	path := withKV(t, convertToGGUF(t, dir, 0, false), "gemma2.final_logit_softcapping", float32(0))
	if _, err := ImportGGUF(newContext(), path, Options{MaxTokens: 16}); err == nil ||
		!strings.Contains(err.Error(), "gemma2.attn_logit_softcapping = 0.5, gemma2.final_logit_softcapping = 0: rlx needs finite positive caps") {
		t.Errorf("a GGUF cap of 0: error %v", err)
	}
}

// TestGemma1: a drawn Gemma (the first) checkpoint with the first
// configs' spelling (hidden_activation beside hidden_act, which
// transformers 5 reads) decodes as the oracle does, reading every tensor,
// with hidden_act gelu_pytorch_tanh, gelu (erf's) and silu; its GGUF form
// (llama.cpp's gemma: the norms' 1 added, always tanh's gelu) the same in
// F32 and, against its dequantised weights, in Q8_0 where hidden_act is
// tanh's; erf's gelu moves the logits; hidden_act relu is refused.
func TestGemma1(t *testing.T) {
	m := layerNormModel{
		arch: "GemmaForCausalLM", modelType: "gemma", prefix: "model.layers.",
		fields: map[string]any{"num_key_value_heads": 1, "head_dim": 32, "rms_norm_eps": 1e-6, "hidden_act": "gelu_pytorch_tanh",
			"hidden_activation": "gelu_pytorch_tanh", "attention_bias": false, "tie_word_embeddings": true, "use_bidirectional_attention": nil,
			"rope_parameters": map[string]any{"rope_type": "default", "rope_theta": 1e4}},
		top: []drawn{{"model.embed_tokens.weight", 0, 0.08, []int{lnVocab, lnHidden}}, {"model.norm.weight", 0, 0.08, []int{lnHidden}}},
		tensors: func(p string) []drawn {
			return concatDrawn([]drawn{{p + "input_layernorm.weight", 0, 0.08, []int{lnHidden}}, {p + "post_attention_layernorm.weight", 0, 0.08, []int{lnHidden}}},
				linearOf(p+"self_attn.q_proj", lnHeads*32, lnHidden, false), linearOf(p+"self_attn.k_proj", 32, lnHidden, false),
				linearOf(p+"self_attn.v_proj", 32, lnHidden, false), linearOf(p+"self_attn.o_proj", lnHidden, lnHeads*32, false),
				linearOf(p+"mlp.gate_proj", lnFFN, lnHidden, false), linearOf(p+"mlp.up_proj", lnFFN, lnHidden, false),
				linearOf(p+"mlp.down_proj", lnHidden, lnFFN, false))
		},
	}
	dir := m.draw(t)
	want, _ := importAndCheck(t, dir, lnTokens)
	checkGGUFForms(t, dir, lnTokens, want)
	m.fields["hidden_act"] = "gelu"
	erf, _ := importAndCheck(t, m.draw(t), lnTokens)
	if rel, _ := agreement(erf, want); rel < 1e-5 {
		t.Errorf("erf's gelu moves the logits by only %.3g", rel)
	}
	m.fields["hidden_act"] = "silu"
	importAndCheck(t, m.draw(t), lnTokens)
	m.fields["hidden_act"] = "relu"
	if _, err := specFromConfig(m.draw(t), 16); err == nil || !strings.Contains(err.Error(), `"hidden_act" = "relu" is not supported`) {
		t.Errorf("hidden_act relu: %v", err)
	}
}
