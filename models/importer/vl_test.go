package importer

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// visionLanguage writes the qwen3_5 fixture as Qwen3.5 publishes its
// models: Qwen3_5ForConditionalGeneration (or the MoE one) with the text
// model's config under text_config (plus textEdits), its tensors under
// model.language_model. (plus extra), tie_word_embeddings at the top, and
// a vision tower's config and one of its tensors.
func visionLanguage(t testing.TB, arch string, textEdits map[string]any, extra func(st *tensor.Safetensors)) string {
	t.Helper()
	dir := t.TempDir()
	writeVisionLanguage(t, dir, arch, "qwen3_5", textEdits, map[string]any{
		"image_token_id": 248056, "video_token_id": 248057, "vision_start_token_id": 248053, "vision_end_token_id": 248054,
	}, func(st *tensor.Safetensors) {
		renamed := map[string]*tensor.Tensor{}
		for name, w := range st.Tensors {
			renamed[strings.Replace(name, "model.", "model.language_model.", 1)] = w
		}
		st.Tensors = renamed
		if extra != nil {
			extra(st)
		}
	})
	return dir
}

// writeVisionLanguage writes fixture base's checkpoint into dir as the
// vision-language architecture arch: base's config, textEdits over it,
// under text_config; top's fields and tie_word_embeddings at the top;
// the tensors as rename leaves them, and one of a vision tower's.
func writeVisionLanguage(t testing.TB, dir, arch, base string, textEdits, top map[string]any, rename func(st *tensor.Safetensors)) {
	t.Helper()
	text := fixtureConfig(t, base, textEdits)
	delete(text, "architectures")
	cfg := map[string]any{
		"architectures": []string{arch}, "model_type": "vision_language", "text_config": text,
		"tie_word_embeddings": text["tie_word_embeddings"], "transformers_version": "5.17.0",
		"vision_config": map[string]any{"depth": 1, "hidden_size": 16, "out_hidden_size": 64},
	}
	for k, v := range top {
		cfg[k] = v
	}
	writeConfig(t, dir, cfg)
	st := readTensors(t, filepath.Join("testdata", "hf", base))
	rename(st)
	vision := "model.visual.patch_embed.proj.weight"
	if strings.HasPrefix(arch, "Gemma") {
		vision = "vision_tower.vision_model.embeddings.patch_embedding.weight"
	}
	var err error
	if st.Tensors[vision], err = tensor.FromFloat32(tensor.F32, []int{16, 12}, make([]float32, 16*12)); err != nil {
		t.Fatal(err)
	}
	writeSafetensors(t, filepath.Join(dir, "model.safetensors"), st)
}

// TestQwen35VisionLanguage: the qwen3_5 fixture in Qwen3.5's published
// form (Qwen3_5ForConditionalGeneration: text_config, model.language_model.
// tensors, a vision tower) decodes to the fixture's logits bit for bit,
// reading every tensor but the vision tower's; its GGUF file (qwen35, as
// llama.cpp writes the text model) decodes as its safetensors. The MoE
// form (Qwen3_5MoeForConditionalGeneration) with one expert of one, that
// expert the fixture's dense MLP, and a shared expert whose down
// projection is zero, gives the fixture's logits too (≤ 1e-6).
func TestQwen35VisionLanguage(t *testing.T) {
	f := loadFixture(t, "qwen3_5")
	plain, err := ImportHF(newContext(), f.dir, Options{MaxTokens: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Source.Close()
	want := decodeModule(t, plain.Module, plain.Source, f.Tokens)

	dir := visionLanguage(t, "Qwen3_5ForConditionalGeneration", nil, nil)
	m, err := ImportHF(newContext(), dir, Options{MaxTokens: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Source.Close()
	if !slices.Equal(m.Unused, []string{"model.visual.patch_embed.proj.weight"}) {
		t.Errorf("unread tensors %v, want the vision tower's only", m.Unused)
	}
	got := decodeModule(t, m.Module, m.Source, f.Tokens)
	if !tensor.BitsEqual(got, want) {
		rel, _ := agreement(got, want)
		t.Errorf("Qwen3_5ForConditionalGeneration: logits %.3g from the fixture's (max |Δ| / max |logit|), want bit-identical", rel)
	}
	checkGGUF(t, dir, "qwen35", f.Tokens, got)

	// The MoE form: every layer's MLP becomes one expert (the fixture's
	// MLP) of one, plus a shared expert that adds nothing.
	moe := visionLanguage(t, "Qwen3_5MoeForConditionalGeneration", map[string]any{"num_experts": 1, "num_experts_per_tok": 1,
		"moe_intermediate_size": 96, "shared_expert_intermediate_size": 8, "norm_topk_prob": true}, func(st *tensor.Safetensors) {
		n := hfNamesOf("Qwen3_5MoeForConditionalGeneration")
		for l := range 4 {
			for role, exp := range map[string]string{roleGate: roleExpertGate, roleUp: roleExpertUp, roleDown: roleExpertDown} {
				st.Tensors[strings.Replace(n.of(l, exp), "*", "0", 1)] = st.Tensors[n.of(l, role)]
				delete(st.Tensors, n.of(l, role))
			}
			for role, shape := range map[string][]int{roleRouter: {1, 64}, roleSharedGate: {8, 64}, roleSharedUp: {8, 64}, roleSharedDown: {64, 8}, roleSharedRouter: {1, 64}} {
				v := make([]float32, shape[0]*shape[1])
				if role != roleSharedDown {
					for i := range v {
						v[i] = 0.01 * float32(i%7)
					}
				}
				if st.Tensors[n.of(l, role)], err = tensor.FromFloat32(tensor.F32, shape, v); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
	mm, err := ImportHF(newContext(), moe, Options{MaxTokens: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer mm.Source.Close()
	moeLogits := decodeModule(t, mm.Module, mm.Source, f.Tokens)
	rel, bad := agreement(moeLogits, want)
	t.Logf("Qwen3_5MoeForConditionalGeneration (one expert, the dense MLP) against the fixture: %.3g", rel)
	if rel > 1e-6 || len(bad) > 0 {
		t.Errorf("Qwen3_5MoeForConditionalGeneration: max |Δ| / max |logit| against the fixture = %.3g (tolerance 1e-6), arg-max differs at %v", rel, bad)
	}
	checkGGUF(t, moe, "qwen35moe", f.Tokens, moeLogits)
}

// TestQwen35MoeGGUF: Qwen3.5-MoE with four experts (top two, renormalised)
// and a gated shared expert, every expert's weights random, decodes from
// its GGUF file (qwen35moe: qwen35's tiled value heads, qwen3next's
// stacked experts) as from its safetensors.
func TestQwen35MoeGGUF(t *testing.T) {
	f := loadFixture(t, "qwen3_5")
	rng := rand.New(rand.NewPCG(3, 5))
	random := func(shape ...int) *tensor.Tensor {
		v := make([]float32, shape[0]*shape[1])
		for i := range v {
			v[i] = float32(0.2 * (2*rng.Float64() - 1))
		}
		tt, err := tensor.FromFloat32(tensor.F32, shape, v)
		if err != nil {
			t.Fatal(err)
		}
		return tt
	}
	dir := visionLanguage(t, "Qwen3_5MoeForConditionalGeneration", map[string]any{"num_experts": 4, "num_experts_per_tok": 2,
		"moe_intermediate_size": 32, "shared_expert_intermediate_size": 8, "norm_topk_prob": true}, func(st *tensor.Safetensors) {
		n := hfNamesOf("Qwen3_5MoeForConditionalGeneration")
		for l := range 4 {
			for _, role := range []string{roleGate, roleUp, roleDown} {
				delete(st.Tensors, n.of(l, role))
			}
			for e := range 4 {
				expert := func(role string) string { return strings.Replace(n.of(l, role), "*", strconv.Itoa(e), 1) }
				st.Tensors[expert(roleExpertGate)] = random(32, 64)
				st.Tensors[expert(roleExpertUp)] = random(32, 64)
				st.Tensors[expert(roleExpertDown)] = random(64, 32)
			}
			for role, shape := range map[string][]int{roleRouter: {4, 64}, roleSharedGate: {8, 64}, roleSharedUp: {8, 64}, roleSharedDown: {64, 8}, roleSharedRouter: {1, 64}} {
				st.Tensors[n.of(l, role)] = random(shape...)
			}
		}
	})
	m, err := ImportHF(newContext(), dir, Options{MaxTokens: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Source.Close()
	checkGGUF(t, dir, "qwen35moe", f.Tokens, decodeModule(t, m.Module, m.Source, f.Tokens))
}

// TestMistral3VisionLanguage: the mistral fixture in Mistral Small 3.1's
// published form (Mistral3ForConditionalGeneration: Mistral's config
// under text_config, a Pixtral tower's fields and a tensor of it), under
// either layout (model.language_model. and lm_head as transformers
// writes since 4.52; language_model.model. and language_model.lm_head as
// first published), decodes bit for bit as the text model, reading every
// tensor but the tower's.
func TestMistral3VisionLanguage(t *testing.T) {
	f := loadFixture(t, "mistral")
	plain, err := ImportHF(newContext(), f.dir, Options{MaxTokens: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Source.Close()
	want := decodeModule(t, plain.Module, plain.Source, f.Tokens)
	for _, layout := range []struct{ prefix, head string }{{"model.language_model.", "lm_head.weight"}, {"language_model.model.", "language_model.lm_head.weight"}} {
		dir := t.TempDir()
		writeVisionLanguage(t, dir, "Mistral3ForConditionalGeneration", "mistral", nil, map[string]any{
			"image_token_index": 10, "multimodal_projector_bias": false, "projector_hidden_act": "gelu",
			"spatial_merge_size": 2, "vision_feature_layer": -1}, func(st *tensor.Safetensors) {
			renamed := map[string]*tensor.Tensor{}
			for name, w := range st.Tensors {
				if name == "lm_head.weight" {
					renamed[layout.head] = w
					continue
				}
				renamed[strings.Replace(name, "model.", layout.prefix, 1)] = w
			}
			st.Tensors = renamed
		})
		m, err := ImportHF(newContext(), dir, Options{MaxTokens: 16})
		if err != nil {
			t.Fatalf("%s: %v", layout.prefix, err)
		}
		if got := decodeModule(t, m.Module, m.Source, f.Tokens); !tensor.BitsEqual(got, want) {
			rel, _ := agreement(got, want)
			t.Errorf("Mistral3ForConditionalGeneration (%s): %.3g from the text model's logits, want bit-identical", layout.prefix, rel)
		}
		if !slices.Equal(m.Unused, []string{"model.visual.patch_embed.proj.weight"}) {
			t.Errorf("%s: unread tensors %v, want the vision tower's only", layout.prefix, m.Unused)
		}
		m.Source.Close()
	}
}
