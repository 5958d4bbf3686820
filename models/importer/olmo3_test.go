package importer

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// TestOlmo3Windows: OLMo 3 is OLMo 2 with sliding layers. On the olmo2
// fixture's weights, Olmo3ForCausalLM with sliding_window 3 (layers 0-2
// slide, 3 is global) decodes as the oracle does and differs from OLMo 2
// (the window bites within the eight tokens); its GGUF form, llama.cpp's
// olmo2 with attention.sliding_window, decodes the same; and the GGUF
// keys set the pattern (attention.sliding_window_pattern, default 4) and
// the sliding layers' rope: rope.freq_base_swa (default the global base),
// without the YaRN scaling the global layers take.
func TestOlmo3Windows(t *testing.T) {
	fx := loadFixture(t, "olmo2")
	tokens := fx.Tokens
	dir := variant(t, "olmo2", "Olmo3ForCausalLM", map[string]any{"sliding_window": 3}, nil, 0)
	want, _ := importAndCheck(t, dir, tokens)
	base, _ := importAndCheck(t, fx.dir, tokens)
	if rel, _ := agreement(base, want); rel < 1e-3 {
		t.Fatalf("the window moves the logits by only %.3g", rel)
	}
	file := convertToGGUF(t, dir, 0, false)
	got, _ := decodeGGUF(t, editKV(t, file, nil), tokens)
	if rel, bad := agreement(got, want); rel > 1e-5 || len(bad) > 0 {
		t.Errorf("olmo2 GGUF with a window against Olmo3ForCausalLM's safetensors: %.3g (tolerance 1e-5), arg-max differs at %v", rel, bad)
	}

	freqs := func(theta float64) []float64 { return ropeFrequencies(theta, 16) }
	near := func(a, b []float64) bool { // to the file's f32 base
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if math.Abs(a[i]-b[i]) > 1e-7*b[i] {
				return false
			}
		}
		return true
	}
	for _, tc := range []struct {
		name    string
		edits   map[string]any
		sliding []bool
		local   []float64 // the sliding layers' frequencies (nil: no sliding layers)
	}{
		{"no window: OLMo 2", map[string]any{"olmo2.attention.sliding_window": nil}, nil, nil},
		{"window 3", nil, []bool{true, true, true, false}, freqs(500000)},
		{"pattern 2", map[string]any{"olmo2.attention.sliding_window_pattern": uint32(2)}, []bool{true, false, true, false}, freqs(500000)},
		{"freq_base_swa", map[string]any{"olmo2.rope.freq_base_swa": float32(10000)}, []bool{true, true, true, false}, freqs(10000)},
		{"YaRN on the global layers only", map[string]any{"olmo2.rope.scaling.type": "yarn", "olmo2.rope.scaling.factor": float32(4),
			"olmo2.rope.scaling.original_context_length": uint32(128)}, []bool{true, true, true, false}, freqs(500000)},
	} {
		s, err := ggufSpec(t, editKV(t, file, tc.edits))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !slices.Equal(s.sliding, tc.sliding) || !near(s.localInvFreq, tc.local) {
			t.Errorf("%s: sliding %v, local frequencies %v; want %v, %v", tc.name, s.sliding, s.localInvFreq, tc.sliding, tc.local)
		}
	}
	if s, err := ggufSpec(t, editKV(t, file, map[string]any{"olmo2.rope.scaling.type": "yarn", "olmo2.rope.scaling.factor": float32(4),
		"olmo2.rope.scaling.original_context_length": uint32(128)})); err != nil || s.ropeAttn == 0 || near(s.invFreq, freqs(500000)) {
		t.Errorf("YaRN: %v; the global layers' frequencies %v are not scaled or their factor %g is missing", err, s.invFreq, s.ropeAttn)
	}
}

// TestStop61GGUFErrors: the GGUF files stop 61's readers refuse, each
// with the key that says why: GLM-4.1V's M-RoPE sections, a command-r
// file without logit_scale, an lfm2 file whose kv heads are one number
// (no layer is then a convolution) or list too few layers, and a short
// convolution's window under 2.
func TestStop61GGUFErrors(t *testing.T) {
	glm4 := convertToGGUF(t, loadFixture(t, "glm4").dir, 0, false)
	cohere := convertToGGUF(t, loadFixture(t, "cohere").dir, 0, false)
	lfm2 := convertToGGUF(t, loadFixture(t, "lfm2").dir, 0, false)
	for _, tc := range []struct {
		file  []byte
		edits map[string]any
		want  string
	}{
		{glm4, map[string]any{"glm4.rope.dimension_sections": []int32{2, 3, 3, 0}}, "glm4.rope.dimension_sections: rlx reads glm4 with its adjacent-pair rope only"},
		{cohere, map[string]any{"command-r.logit_scale": nil}, "missing key command-r.logit_scale"},
		{cohere, map[string]any{"command-r.logit_scale": float32(0)}, "command-r.logit_scale = 0"},
		{lfm2, map[string]any{"lfm2.attention.head_count_kv": uint32(2)}, "lfm2.attention.head_count_kv is not an array of integers, one a layer"},
		{lfm2, map[string]any{"lfm2.attention.head_count_kv": []uint32{0, 2}}, "lfm2.attention.head_count_kv must list each of the 4 layers' kv heads"},
		{lfm2, map[string]any{"lfm2.shortconv.l_cache": uint32(1)}, "lfm2.shortconv.l_cache = 1: rlx needs a window of at least 2"},
	} {
		if _, err := ggufSpec(t, editKV(t, tc.file, tc.edits)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one containing %q", tc.edits, err, tc.want)
		}
	}
}
