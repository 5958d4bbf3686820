package importer

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/tensor"
	"github.com/rlx-compiler/rlx/runtime/weights"
)

// TestGGUFYarn: a YaRN GGUF file decodes as its transformers checkpoint
// does where the converter writes the optional parameters as yarn_* keys
// (beta_fast, beta_slow, attention_factor), and those keys move the
// logits. On the fixture's file (factor 4 over 128, rotary dim 16, base
// 10⁴: the ramp rises from dim 0 to dim 3) the spec takes ggml's
// ext_factor, which transformers lacks, as the ramp's weight (0: every
// frequency interpolated, cos and sin × yarn_attn_factor, default 1),
// rope.scaling.attn_factor on top of the default 0.1·ln 4 + 1,
// context_length where original_context_length is missing (llama.cpp's
// n_ctx_orig_yarn), and ggml's ramp where clamping inverts it
// (transformers' would interpolate every frequency; ggml's extrapolates
// them all).
func TestGGUFYarn(t *testing.T) {
	fx := loadFixture(t, "qwen2_yarn")
	tokens := fx.Tokens
	decode := func(path string) *tensor.Tensor {
		t.Helper()
		logits, _ := decodeGGUF(t, path, tokens)
		return logits
	}
	rope := map[string]any{"rope_type": "yarn", "rope_theta": 10000.0, "factor": 4.0, "original_max_position_embeddings": 128,
		"beta_fast": 2.0, "beta_slow": 0.25, "attention_factor": 1.3}
	dir := variant(t, "qwen2_yarn", "Qwen2ForCausalLM", map[string]any{"rope_parameters": rope}, nil, 0)
	want, _ := importAndCheck(t, dir, tokens)
	base, _ := importAndCheck(t, fx.dir, tokens)
	if rel, _ := agreement(base, want); rel < 1e-3 {
		t.Fatalf("beta_fast, beta_slow and attention_factor move transformers' logits by only %.3g", rel)
	}
	file := convertToGGUF(t, dir, 0, false)
	got := decode(editKV(t, file, nil))
	if rel, bad := agreement(got, want); rel > 1e-5 || len(bad) > 0 {
		t.Errorf("GGUF with yarn_* keys against safetensors: %.3g of max |logit| (tolerance 1e-5), arg-max differs at %v", rel, bad)
	}
	for _, k := range []string{"yarn_beta_fast", "yarn_beta_slow", "yarn_attn_factor"} {
		without := decode(editKV(t, file, map[string]any{"qwen2.rope.scaling." + k: nil}))
		if rel, _ := agreement(without, want); rel < 1e-3 {
			t.Errorf("the file without rope.scaling.%s decodes within %.3g of the one with it: the key is not read", k, rel)
		}
	}

	plain := convertToGGUF(t, fx.dir, 0, false)
	ramp := func(i int) float64 { return math.Min(float64(i)/3, 1) }
	freq := func(theta float64, i int) float64 { return math.Pow(theta, -float64(2*i)/16) }
	ln4 := 0.1*math.Log(4) + 1
	for _, tc := range []struct {
		name  string
		edits map[string]any
		share func(i int) float64 // of f / factor
		attn  float64
		theta float64 // the rope base (0: the file's 10⁴)
	}{
		{"defaults", nil, ramp, ln4, 0},
		{"ext_factor 0", map[string]any{"qwen2.rope.scaling.yarn_ext_factor": float32(0)}, func(int) float64 { return 1 }, 1, 0},
		{"ext_factor 0, yarn_attn_factor 1.25", map[string]any{"qwen2.rope.scaling.yarn_ext_factor": float32(0), "qwen2.rope.scaling.yarn_attn_factor": float32(1.25)},
			func(int) float64 { return 1 }, 1.25, 0},
		{"ext_factor 0.5", map[string]any{"qwen2.rope.scaling.yarn_ext_factor": float32(0.5)}, func(i int) float64 { return 1 - (1-ramp(i))*0.5 }, ln4, 0},
		{"attn_factor 2", map[string]any{"qwen2.rope.scaling.attn_factor": float32(2)}, ramp, 2 * ln4, 0},
		{"context_length for the original", map[string]any{"qwen2.rope.scaling.original_context_length": nil, "qwen2.context_length": uint32(128)}, ramp, ln4, 0},
		{"inverted ramp", map[string]any{"qwen2.rope.freq_base": float32(100), "qwen2.rope.scaling.original_context_length": uint32(4000000)},
			func(int) float64 { return 0 }, ln4, 100},
	} {
		s, err := ggufSpec(t, editKV(t, plain, tc.edits))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		theta := cmp.Or(tc.theta, 10000)
		for i, f := range s.invFreq {
			b := freq(theta, i)
			want := b/4*tc.share(i) + b*(1-tc.share(i))
			if math.Abs(f-want) > 1e-7*want { // the file's f32 base
				t.Errorf("%s: inv_freq[%d] = %g, want %g", tc.name, i, f, want)
			}
		}
		if math.Abs(s.ropeAttn-tc.attn) > 1e-7 {
			t.Errorf("%s: attention factor %g, want %g", tc.name, s.ropeAttn, tc.attn)
		}
	}

	// The same guard on a config's scaling.
	if _, err := specOf(t, ropeConfig(`{"rope_type": "linear", "rope_theta": 10000.0, "factor": 1e-300}`)); err == nil || !strings.Contains(err.Error(), "the rope frequency 0 is") {
		t.Errorf("linear factor 1e-300: error %v, want one naming the rope frequency", err)
	}
	for _, tc := range []struct {
		edits map[string]any
		want  string
	}{
		{map[string]any{"qwen2.rope.scaling.factor": nil}, "qwen2.rope.scaling.factor = 0"},
		{map[string]any{"qwen2.rope.scaling.factor": float32(math.Inf(1))}, "YaRN needs a finite positive factor"},
		{map[string]any{"qwen2.rope.scaling.original_context_length": nil, "qwen2.context_length": nil},
			"YaRN needs the original context: qwen2.rope.scaling.original_context_length (else qwen2.context_length) is missing or 0"},
		{map[string]any{"qwen2.rope.scaling.yarn_beta_fast": float32(0)}, "qwen2.rope.scaling.yarn_beta_fast = 0"},
		{map[string]any{"qwen2.rope.scaling.yarn_beta_slow": float32(math.NaN())}, "finite positive rotation counts"},
		{map[string]any{"qwen2.rope.scaling.yarn_ext_factor": float32(-1)}, "qwen2.rope.scaling.yarn_ext_factor = -1"},
		{map[string]any{"qwen2.rope.scaling.attn_factor": float32(0)}, "finite positive factors on cos and sin"},
		{map[string]any{"qwen2.rope.scaling.yarn_attn_factor": float32(-2)}, "qwen2.rope.scaling.yarn_attn_factor = -2"},
		{map[string]any{"qwen2.rope.scaling.yarn_log_multiplier": float32(0.1)}, "YaRN's mscale_all_dim in deepseek2 and mistral3 files only"},
		{map[string]any{"qwen2.attention.temperature_scale": float32(0.1)}, "qwen2.attention.temperature_scale = 0.1: rlx reads the scaling of q by position (Ministral 3's) in mistral3 files only"},
		// a subnormal factor (the fuzzer's): frequencies past float32
		{map[string]any{"qwen2.rope.scaling.factor": float32(3e-44)}, "the rope frequency 1 is 3.58"},
		{map[string]any{"qwen2.rope.scaling.attn_factor": float32(1e30)}, "the factor on rope's cos and sin is 1.1386"},
		{map[string]any{"qwen2.rope.scaling.yarn_beta_fast": "32"}, "qwen2.rope.scaling.yarn_beta_fast"},
		{map[string]any{"qwen2.rope.scaling.type": "su"}, `qwen2.rope.scaling.type = "su" is not supported`},
		{map[string]any{"qwen2.rope.scaling.type": "longrope"}, `qwen2.rope.scaling.type = "longrope" needs the tensors rope_factors_short and rope_factors_long`},
	} {
		_, err := ggufSpec(t, editKV(t, plain, tc.edits))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one containing %q", tc.edits, err, tc.want)
		}
	}
}

// ggufSpec reads the spec of the GGUF file at path.
func ggufSpec(t *testing.T, path string) (*spec, error) {
	t.Helper()
	src, err := weights.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	s, _, err := specFromGGUF(src, 16)
	return s, err
}

// TestGGUFLongRopeType: convert_hf_to_gguf's TextModel names LongRoPE in
// rope.scaling.type; a file that does reads as one that does not (the
// factors are its tensors).
func TestGGUFLongRopeType(t *testing.T) {
	file := convertToGGUF(t, loadFixture(t, "phi3_longrope_long").dir, 0, false)
	plain, err := ggufSpec(t, editKV(t, file, nil))
	if err != nil {
		t.Fatal(err)
	}
	named, err := ggufSpec(t, editKV(t, file, map[string]any{"phi3.rope.scaling.type": "longrope"}))
	if err != nil {
		t.Fatal(err)
	}
	if plain.longInvFreq == nil || !slices.Equal(named.invFreq, plain.invFreq) || !slices.Equal(named.longInvFreq, plain.longInvFreq) || named.ropeAttn != plain.ropeAttn {
		t.Errorf("rope.scaling.type longrope: frequencies %v, %v (×%g), want %v, %v (×%g)", named.invFreq, named.longInvFreq, named.ropeAttn, plain.invFreq, plain.longInvFreq, plain.ropeAttn)
	}
}

// ggufRefusal is an edit of a GGUF file's metadata (editKV's: nil
// deletes a key) and what the error refusing it must contain.
type ggufRefusal struct {
	edits map[string]any
	want  string
}

// refusesGGUF checks that each edit of file's metadata is refused, the
// error containing its want.
func refusesGGUF(t *testing.T, file []byte, cases []ggufRefusal) {
	t.Helper()
	for _, tc := range cases {
		if _, err := ggufSpec(t, editKV(t, file, tc.edits)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one containing %q", tc.edits, err, tc.want)
		}
	}
}
