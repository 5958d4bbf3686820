package importer

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// TestQwenVLTextModels: the text models of Qwen2-VL/Qwen2.5-VL and
// Qwen3-VL decode text as Qwen2 and Qwen3 do, M-RoPE being plain rope
// where every section has the same position. The qwen2 fixture written
// as Qwen2_5_VLForConditionalGeneration, in transformers 5's layout
// (text_config with mrope_section, model.language_model. tensors) and as
// first published (the text fields at the top with rope_scaling
// {"type": "mrope"}, the text model under model., the vision tower under
// visual.), and the qwen3 fixture as Qwen3VLForConditionalGeneration
// (interleaved sections), decode to their fixtures' logits bit for bit,
// reading every tensor but the vision tower's; the GGUF forms qwen2vl
// and qwen3vl (rope.dimension_sections, n_deepstack_layers) decode as
// qwen2 and qwen3.
func TestQwenVLTextModels(t *testing.T) {
	textLogits := func(name string) *tensor.Tensor {
		f := loadFixture(t, name)
		m, err := ImportHF(newContext(), f.dir, Options{MaxTokens: 16})
		if err != nil {
			t.Fatal(err)
		}
		defer m.Source.Close()
		return decodeModule(t, m.Module, m.Source, f.Tokens)
	}
	check := func(label, dir string, want *tensor.Tensor, tokens []int, vision string) {
		t.Helper()
		m, err := ImportHF(newContext(), dir, Options{MaxTokens: 16})
		if err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		defer m.Source.Close()
		if got := decodeModule(t, m.Module, m.Source, tokens); !tensor.BitsEqual(got, want) {
			rel, _ := agreement(got, want)
			t.Errorf("%s: %.3g from the text model's logits, want bit-identical", label, rel)
		}
		if !slices.Equal(m.Unused, []string{vision}) {
			t.Errorf("%s: unread tensors %v, want the vision tower's only", label, m.Unused)
		}
	}
	languageModel := func(st *tensor.Safetensors) {
		renamed := map[string]*tensor.Tensor{}
		for name, w := range st.Tensors {
			renamed[strings.Replace(name, "model.", "model.language_model.", 1)] = w
		}
		st.Tensors = renamed
	}
	vlTokens := map[string]any{"image_token_id": 151655, "video_token_id": 151656, "vision_start_token_id": 151652, "vision_end_token_id": 151653}

	q2 := loadFixture(t, "qwen2")
	want2 := textLogits("qwen2")
	dir := t.TempDir()
	writeVisionLanguage(t, dir, "Qwen2_5_VLForConditionalGeneration", "qwen2", map[string]any{
		"rope_parameters": map[string]any{"rope_type": "default", "rope_theta": 1000000.0, "mrope_section": []int{2, 3, 3}}}, vlTokens, languageModel)
	check("Qwen2.5-VL, transformers 5's layout", dir, want2, q2.Tokens, "model.visual.patch_embed.proj.weight")

	// As first published: one config, the text model under model.
	dir = t.TempDir()
	cfg := fixtureConfig(t, "qwen2", map[string]any{"rope_parameters": nil, "rope_theta": 1000000.0,
		"rope_scaling":  map[string]any{"type": "mrope", "mrope_section": []int{2, 3, 3}},
		"vision_config": map[string]any{"depth": 1, "hidden_size": 16}, "vision_token_id": 151654})
	for k, v := range vlTokens {
		cfg[k] = v
	}
	cfg["architectures"] = []string{"Qwen2_5_VLForConditionalGeneration"}
	writeConfig(t, dir, cfg)
	st := readTensors(t, filepath.Join("testdata", "hf", "qwen2"))
	var err error
	if st.Tensors["visual.patch_embed.proj.weight"], err = tensor.FromFloat32(tensor.F32, []int{16, 12}, make([]float32, 16*12)); err != nil {
		t.Fatal(err)
	}
	writeSafetensors(t, filepath.Join(dir, "model.safetensors"), st)
	check("Qwen2.5-VL as first published", dir, want2, q2.Tokens, "visual.patch_embed.proj.weight")

	q3 := loadFixture(t, "qwen3")
	dir = t.TempDir()
	writeVisionLanguage(t, dir, "Qwen3VLForConditionalGeneration", "qwen3", map[string]any{
		"rope_parameters": map[string]any{"rope_type": "default", "rope_theta": 1000000.0, "mrope_section": []int{3, 3, 2}, "mrope_interleaved": true}}, vlTokens, languageModel)
	check("Qwen3-VL", dir, textLogits("qwen3"), q3.Tokens, "model.visual.patch_embed.proj.weight")

	// The GGUF forms: llama.cpp's qwen2vl and qwen3vl text models.
	for _, tc := range []struct{ fixture, from, to string }{{"qwen2", "qwen2", "qwen2vl"}, {"qwen3", "qwen3", "qwen3vl"}} {
		f := loadFixture(t, tc.fixture)
		file := convertToGGUF(t, f.dir, gguf.Q8_0, false)
		want, _ := decodeGGUF(t, editKV(t, file, nil), f.Tokens)
		got, _ := decodeGGUF(t, renameArch(t, file, tc.from, tc.to, map[string]any{
			tc.to + ".rope.dimension_sections": []int32{2, 3, 3, 0}, tc.to + ".n_deepstack_layers": uint32(3)}), f.Tokens)
		if !tensor.BitsEqual(got, want) {
			rel, _ := agreement(got, want)
			t.Errorf("%s GGUF: %.3g from %s's logits, want bit-identical", tc.to, rel, tc.from)
		}
	}
}

// renameArch writes data, a GGUF file of architecture from, as
// architecture to: general.architecture and every from.* key renamed,
// then extra set.
func renameArch(t *testing.T, data []byte, from, to string, extra map[string]any) string {
	t.Helper()
	g, _ := openGGUFData(t, data)
	edits := map[string]any{"general.architecture": to}
	for _, kv := range g.KV {
		if rest, ok := strings.CutPrefix(kv.Key, from+"."); ok {
			edits[kv.Key] = nil
			edits[to+"."+rest] = kv.Value
		}
	}
	for k, v := range extra {
		edits[k] = v
	}
	return editKV(t, data, edits)
}
