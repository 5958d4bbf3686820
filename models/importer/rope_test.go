package importer

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// ropeConfig is a one-layer Llama (head_dim 16: eight frequencies) with
// the given rope_parameters.
func ropeConfig(rope string) string {
	return `{"architectures": ["LlamaForCausalLM"], "hidden_size": 64, "num_hidden_layers": 1, "vocab_size": 8,
	  "num_attention_heads": 4, "intermediate_size": 8, "max_position_embeddings": 512, "rope_parameters": ` + rope + `}`
}

// TestYarnRope: YaRN's frequencies and attention factor, worked out by
// hand from transformers' _compute_yarn_parameters for head_dim 16, base
// 10⁴, factor 4 and an original context of 128: the correction dims are
// 16·ln(128 / (2π·32)) / (2 ln 10⁴) = −0.392 (floored, then clamped to
// 0) and 16·ln(128 / 2π) / (2 ln 10⁴) = 2.618 (ceiled: 3), so frequency
// i keeps a weight 1 − min(i/3, 1) of itself and takes the rest of
// itself / 4; cos and sin × (0.1·ln 4 + 1). Then the same through the
// oracle, with the logits moved.
func TestYarnRope(t *testing.T) {
	yarn := `{"rope_type": "yarn", "rope_theta": 10000.0, "factor": 4.0, "original_max_position_embeddings": 128}`
	for _, config := range []string{ropeConfig(yarn),
		// transformers' older spelling, and factor from the two lengths.
		strings.Replace(ropeConfig(`null`), `"rope_parameters": null`, `"rope_theta": 10000.0, "rope_scaling": {"type": "yarn", "original_max_position_embeddings": 128}`, 1)} {
		s, err := specOf(t, config)
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range s.invFreq {
			base := math.Pow(10000, -float64(2*i)/16)
			ramp := math.Min(float64(i)/3, 1)
			if want := base/4*ramp + base*(1-ramp); math.Abs(f-want) > 1e-15*want {
				t.Errorf("inv_freq[%d] = %g, want %g", i, f, want)
			}
		}
		if want := 0.1*math.Log(4) + 1; math.Abs(s.ropeAttn-want) > 1e-15 {
			t.Errorf("attention factor %g, want %g", s.ropeAttn, want)
		}
	}
	// DeepSeek's form: the ratio of two mscales.
	s, err := specOf(t, ropeConfig(`{"rope_type": "yarn", "rope_theta": 10000.0, "factor": 40, "original_max_position_embeddings": 128, "mscale": 1, "mscale_all_dim": 0.707}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := (0.1*math.Log(40) + 1) / (0.1*0.707*math.Log(40) + 1); math.Abs(s.ropeAttn-want) > 1e-15 {
		t.Errorf("mscale ratio: attention factor %g, want %g", s.ropeAttn, want)
	}
	tokens := loadFixture(t, "llama").Tokens
	var rope map[string]any
	if err := json.Unmarshal([]byte(yarn), &rope); err != nil {
		t.Fatal(err)
	}
	got, _ := importAndCheck(t, variant(t, "llama", "LlamaForCausalLM", map[string]any{"rope_parameters": rope}, nil, 0), tokens)
	plain, _ := importAndCheck(t, variant(t, "llama", "LlamaForCausalLM", map[string]any{"rope_parameters": map[string]any{"rope_type": "default", "rope_theta": 10000.0}}, nil, 0), tokens)
	if rel, _ := agreement(got, plain); rel < 1e-3 {
		t.Errorf("YaRN moves the logits by only %.3g of max |logit|", rel)
	}
}

// TestLongRope: LongRoPE's frequencies (base frequency / short or long
// factor), its attention factor √(1 + ln(512/4) / ln 4), the long factors
// from position original_max_position_embeddings on (a select in the
// module only where the cache reaches past it), and the oracle's logits.
func TestLongRope(t *testing.T) {
	short := []float64{1, 1.1, 1.3, 1.6, 2, 2.5, 3.1, 3.8}
	long := []float64{1, 1.5, 2.2, 3.4, 5, 7.5, 11, 16}
	s, err := specOf(t, ropeConfig(`{"rope_type": "longrope", "rope_theta": 10000.0, "short_factor": [1, 1.1, 1.3, 1.6, 2, 2.5, 3.1, 3.8],
	  "long_factor": [1, 1.5, 2.2, 3.4, 5, 7.5, 11, 16], "original_max_position_embeddings": 4}`))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		base := math.Pow(10000, -float64(2*i)/16)
		if want := base / short[i]; math.Abs(s.invFreq[i]-want) > 1e-15*want {
			t.Errorf("short inv_freq[%d] = %g, want %g", i, s.invFreq[i], want)
		}
		if want := base / long[i]; math.Abs(s.longInvFreq[i]-want) > 1e-15*want {
			t.Errorf("long inv_freq[%d] = %g, want %g", i, s.longInvFreq[i], want)
		}
	}
	if want := math.Sqrt(1 + math.Log(512.0/4)/math.Log(4)); s.longFrom != 4 || math.Abs(s.ropeAttn-want) > 1e-15 {
		t.Errorf("long from %d, attention factor %g; want 4, %g", s.longFrom, s.ropeAttn, want)
	}
	tokens := loadFixture(t, "llama").Tokens
	// As Phi-3.5's config.json spells it: the original context at the
	// top level (the attention factor given, so that the two contexts
	// differ only in their factors).
	edits := func(orig int) map[string]any {
		return mergeEdits(phi3Config, map[string]any{"original_max_position_embeddings": orig,
			"rope_parameters": map[string]any{"rope_type": "longrope", "rope_theta": 10000.0, "short_factor": short, "long_factor": long, "attention_factor": 1.2}})
	}
	// Eight tokens past an original context of 4: the long factors from
	// position 4 on; of 16, the short ones only, and no select.
	longer, m := importAndCheck(t, phi3Variant(t, edits(4)), tokens)
	selects := countOps(m.Module, graph.SelectName)
	shorter, m := importAndCheck(t, phi3Variant(t, edits(16)), tokens)
	if n := countOps(m.Module, graph.SelectName); selects != n+1 {
		t.Errorf("%d selects with an original context of 4, %d with 16 (the cache's rows): want one more, of the long factors", selects, n)
	}
	if rel, _ := agreement(longer, shorter); rel < 1e-3 {
		t.Errorf("the long factors move the logits by only %.3g of max |logit|", rel)
	}
	// Where the tokens stay within the original context, the long
	// factors change nothing: the first four steps agree.
	if d := maxDiffRows(longer, shorter, 4); d != 0 {
		t.Errorf("the first four positions differ by %g with and without the long factors", d)
	}
	// From GGUF, as llama.cpp's converter writes Phi-3's LongRoPE: the
	// two factor tensors, the original context and the attention factor
	// computed from the two lengths (none given here).
	noAttn := edits(4)
	noAttn["rope_parameters"] = map[string]any{"rope_type": "longrope", "rope_theta": 10000.0, "short_factor": short, "long_factor": long}
	dir := phi3Variant(t, noAttn)
	got, _ := importAndCheck(t, dir, tokens)
	checkGGUF(t, dir, "phi3", tokens, got)

	for _, tc := range []struct{ rope, want string }{
		{`{"rope_type": "longrope", "rope_theta": 10000.0, "short_factor": [1, 1], "long_factor": [1, 1, 1, 1, 1, 1, 1, 1], "original_max_position_embeddings": 4}`,
			`rope_type "longrope" needs short_factor, a list of 8 numbers (rotary dim 16 / 2)`},
		{`{"rope_type": "longrope", "rope_theta": 10000.0, "short_factor": [1, 1, 1, 1, 1, 1, 1, 1], "long_factor": [1, 1, 1, 1, 1, 1, 1, 0], "original_max_position_embeddings": 4}`,
			`rope_type "longrope": long_factor[7] = 0; rlx needs finite positive factors`},
		{`{"rope_type": "longrope", "rope_theta": 10000.0, "short_factor": [1, 1, 1, 1, 1, 1, 1, 1], "long_factor": [1, 1, 1, 1, 1, 1, 1, 1], "original_max_position_embeddings": 4.5}`,
			`rope_type "longrope" needs original_max_position_embeddings, a positive integer, got 4.5`},
		{`{"rope_type": "longrope", "rope_theta": 10000.0, "short_factor": [1, 1, 1, 1, 1, 1, 1, 1], "long_factor": [1, 1, 1, 1, 1, 1, 1, 1], "original_max_position_embeddings": 4, "attention_factor": -1}`,
			`rope_type "longrope" needs a finite positive attention_factor, got -1`},
		// ropeOutOfRange on the long table: a divisor near 0.
		{`{"rope_type": "longrope", "rope_theta": 10000.0, "short_factor": [1, 1, 1, 1, 1, 1, 1, 1], "long_factor": [1e-300, 1, 1, 1, 1, 1, 1, 1], "original_max_position_embeddings": 4}`,
			`the long rope frequency 0 is 9.999999999999999e+299 after scaling`},
		{`{"rope_type": "yarn", "rope_theta": 10000.0, "factor": -2, "original_max_position_embeddings": 128}`,
			`rope_type "yarn" needs a finite positive factor and original_max_position_embeddings, got -2 and 128`},
		{`{"rope_type": "yarn", "rope_theta": 10000.0, "factor": 4, "original_max_position_embeddings": 128, "beta_fast": -1}`,
			`rope_type "yarn" needs finite positive attention_factor, beta_fast and beta_slow, got 1.14, -1 and 1`},
		{`{"rope_type": "dynamic", "rope_theta": 10000.0, "factor": 0.5}`,
			`rope_type "dynamic" needs a finite factor of at least 1, got 0.5`},
		{`{"rope_type": "ntk", "rope_theta": 10000.0, "factor": 4}`,
			`has rope_type "ntk", which is not supported (rlx implements "default", "linear", "llama3", "dynamic" within max_position_embeddings, "yarn", "longrope" and Qwen2-VL's "mrope" on text)`},
	} {
		if _, err := specOf(t, ropeConfig(tc.rope)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.rope, err, tc.want)
		}
	}
}

// TestDynamicRope: dynamic NTK scaling keeps the default frequencies
// while the sequence stays within max_position_embeddings (transformers
// 5.17, decoding a tiny Llama one token at a time with max 8: logits
// bit-identical to default rope's for steps 0–7, 1e-5 off from step 8,
// run once on the GPU machine), so a cache of at most that many tokens
// imports as default rope; a larger one is refused, naming the limit.
func TestDynamicRope(t *testing.T) {
	dynamic, err := specOf(t, ropeConfig(`{"rope_type": "dynamic", "rope_theta": 10000.0, "factor": 4}`))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := specOf(t, ropeConfig(`{"rope_type": "default", "rope_theta": 10000.0}`))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(dynamic.invFreq, plain.invFreq) || dynamic.ropeAttn != plain.ropeAttn {
		t.Errorf("dynamic within the context: %v ×%g, default %v ×%g", dynamic.invFreq, dynamic.ropeAttn, plain.invFreq, plain.ropeAttn)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "config.json"), []byte(ropeConfig(`{"rope_type": "dynamic", "rope_theta": 10000.0, "factor": 4}`)), 0o644)
	if _, err := specFromConfig(dir, 513); err == nil || !strings.Contains(err.Error(), `rope_type "dynamic" changes the rope base for sequences past max_position_embeddings 512, which rlx does not follow: import with --max-tokens at most 512 (there the frequencies are the default ones), not 513`) {
		t.Errorf("past the context: %v", err)
	}
	if _, err := specFromConfig(dir, 512); err != nil {
		t.Errorf("at the context: %v", err)
	}
}

// phi3Variant is the llama fixture as a Phi3ForCausalLM checkpoint.
func phi3Variant(t *testing.T, edits map[string]any) string {
	t.Helper()
	return variant(t, "llama", "Phi3ForCausalLM", edits, nil, 0)
}

// maxDiffRows is max |a − b| over the first rows rows of two [steps,
// vocab] logit tensors.
func maxDiffRows(a, b *tensor.Tensor, rows int) float64 {
	n := rows * a.Shape()[len(a.Shape())-1]
	var d float64
	for i, x := range a.Floats()[:n] {
		d = math.Max(d, math.Abs(float64(x)-float64(b.Floats()[i])))
	}
	return d
}

// countOps counts the operations named name in m.
func countOps(m *ir.Operation, name string) int {
	n := 0
	m.Walk(func(op *ir.Operation) {
		if op.Name() == name {
			n++
		}
	})
	return n
}
