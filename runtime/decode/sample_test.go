package decode

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/ref"
)

// TestProbabilities: temperature, top-k (ties with the k-th kept) and
// top-p (from the least likely up, dropped while the cumulative stays
// within 1 − p) as transformers' warpers apply them.
func TestProbabilities(t *testing.T) {
	logits := []float32{float32(math.Log(0.5)), float32(math.Log(0.3)), float32(math.Log(0.2))}
	for _, tc := range []struct {
		s    Sampling
		want []float64
	}{
		{Sampling{Temperature: 1}, []float64{0.5, 0.3, 0.2}},
		{Sampling{Temperature: 1, TopP: 1}, []float64{0.5, 0.3, 0.2}},
		{Sampling{Temperature: 1, TopK: 2}, []float64{0.625, 0.375, 0}},
		{Sampling{Temperature: 1, TopP: 0.6}, []float64{0.625, 0.375, 0}},
		{Sampling{Temperature: 1, TopP: 0.45}, []float64{1, 0, 0}},
		{Sampling{Temperature: 1, TopK: 2, TopP: 0.55}, []float64{1, 0, 0}},
		{Sampling{Temperature: 1e-9}, []float64{1, 0, 0}},
	} {
		p := tc.s.Probabilities(nil, logits)
		for i := range p {
			if math.Abs(p[i]-tc.want[i]) > 1e-7 {
				t.Errorf("%+v: %v, want %v", tc.s, p, tc.want)
				break
			}
		}
	}
	// At temperature 2 the probabilities flatten: ∝ √0.5, √0.3, √0.2.
	p := Sampling{Temperature: 2}.Probabilities(nil, logits)
	sum := math.Sqrt(0.5) + math.Sqrt(0.3) + math.Sqrt(0.2)
	if math.Abs(p[0]-math.Sqrt(0.5)/sum) > 1e-7 {
		t.Errorf("temperature 2: %v", p)
	}
	// Ties with the k-th are kept, as transformers keeps them.
	if p := (Sampling{Temperature: 1, TopK: 1}).Probabilities(nil, []float32{1, 1, 0}); p[0] != 0.5 || p[1] != 0.5 {
		t.Errorf("tie at top-k 1: %v", p)
	}
}

// TestPenaltyAndMinP: a repeated token's logit divided by the penalty
// when positive and multiplied when negative, once however often it
// occurs; min-p keeps the tokens at least min-p times as likely as the
// most likely.
func TestPenaltyAndMinP(t *testing.T) {
	logits := []float32{2, -1, 0.5, 3}
	got := Sampling{RepetitionPenalty: 2}.Penalized([]int{0, 1, 0, 0, 7, -1}, logits)
	if !slices.Equal(got, []float32{1, -2, 0.5, 3}) {
		t.Errorf("penalised: %v", got)
	}
	if !slices.Equal(logits, []float32{2, -1, 0.5, 3}) {
		t.Errorf("the logits were changed: %v", logits)
	}
	if pick, _ := (Sampling{RepetitionPenalty: 2}).Sampler(); pick([]int{3}, logits) != 0 {
		t.Error("greedy with a penalty did not move off the repeated token")
	}
	if pick, _ := (Sampling{RepetitionPenalty: 1}).Sampler(); pick([]int{3}, logits) != 3 {
		t.Error("a penalty of 1 changed the greedy pick")
	}
	probs := []float32{float32(math.Log(0.5)), float32(math.Log(0.3)), float32(math.Log(0.15)), float32(math.Log(0.05))}
	for _, tc := range []struct {
		minP float64
		want []float64
	}{
		{0, []float64{0.5, 0.3, 0.15, 0.05}},
		{0.25, []float64{0.5 / 0.95, 0.3 / 0.95, 0.15 / 0.95, 0}},
		{0.5, []float64{0.625, 0.375, 0, 0}},
		{1, []float64{1, 0, 0, 0}},
	} {
		p := Sampling{Temperature: 1, MinP: tc.minP}.Probabilities(nil, probs)
		for i := range p {
			if math.Abs(p[i]-tc.want[i]) > 1e-7 {
				t.Errorf("min-p %v: %v, want %v", tc.minP, p, tc.want)
				break
			}
		}
	}
}

// TestSampler draws with the probabilities (100,000 draws within 0.01),
// the same seed giving the same draws; temperature 0 is the arg-max.
func TestSampler(t *testing.T) {
	logits := []float32{float32(math.Log(0.5)), float32(math.Log(0.3)), float32(math.Log(0.2))}
	draws := func(s Sampling, n int) []int {
		pick, err := s.Sampler()
		if err != nil {
			t.Fatal(err)
		}
		out := make([]int, n)
		for i := range out {
			out[i] = pick(nil, logits)
		}
		return out
	}
	const n = 100000
	d := draws(Sampling{Temperature: 1, Seed: 3}, n)
	count := make([]float64, 3)
	for _, x := range d {
		count[x]++
	}
	for i, want := range []float64{0.5, 0.3, 0.2} {
		if math.Abs(count[i]/n-want) > 0.01 {
			t.Errorf("token %d drawn %.4f of the time, want %v", i, count[i]/n, want)
		}
	}
	if !slices.Equal(draws(Sampling{Temperature: 1, Seed: 3}, 50), d[:50]) {
		t.Error("the same seed drew other tokens")
	}
	if slices.Equal(draws(Sampling{Temperature: 1, Seed: 4}, 50), d[:50]) {
		t.Error("another seed drew the same 50 tokens")
	}
	for _, x := range draws(Sampling{Temperature: 0.7, TopK: 1, Seed: 1}, 100) {
		if x != 0 {
			t.Fatalf("top-k 1 drew %d", x)
		}
	}
	if pick, _ := (Sampling{}).Sampler(); pick(nil, []float32{0, 2, 1}) != 1 {
		t.Error("temperature 0 is not the arg-max")
	}
	nan := float32(math.NaN())
	if pick, _ := (Sampling{Temperature: 1}).Sampler(); pick(nil, []float32{nan, nan}) != 0 {
		t.Error("all NaN")
	}
	for _, tc := range []struct {
		s    Sampling
		want string
	}{
		{Sampling{Temperature: -1}, "the temperature must be 0 (greedy) or positive, got -1"},
		{Sampling{Temperature: math.Inf(1)}, "the temperature must be 0 (greedy) or positive, got +Inf"},
		{Sampling{Temperature: 1, TopK: -2}, "top-k must be 0 (all tokens) or positive, got -2"},
		{Sampling{Temperature: 1, TopP: 1.5}, "top-p must be in [0, 1] (0 and 1: all tokens), got 1.5"},
		{Sampling{Temperature: 1, MinP: -0.1}, "min-p must be in [0, 1] (0: all tokens), got -0.1"},
		{Sampling{RepetitionPenalty: -1}, "the repetition penalty must be positive (1 or 0: none), got -1"},
		{Sampling{RepetitionPenalty: math.NaN()}, "the repetition penalty must be positive (1 or 0: none), got NaN"},
	} {
		if _, err := tc.s.Sampler(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.s, err, tc.want)
		}
	}
}

// TestGenerateSampled: Generate picks with d.Pick; a seed repeats the
// sequence.
func TestGenerateSampled(t *testing.T) {
	d, err := New(program(t, chooser))
	if err != nil {
		t.Fatal(err)
	}
	gen := func(seed uint64) []int {
		pick, err := Sampling{Temperature: 5, Seed: seed}.Sampler()
		if err != nil {
			t.Fatal(err)
		}
		d.Pick = pick
		tokens, _, err := d.Generate([]int{2}, 4, &ref.TensorWeights{})
		if err != nil {
			t.Fatal(err)
		}
		return tokens
	}
	a := gen(1)
	if len(a) != 5 || !slices.Equal(gen(1), a) {
		t.Errorf("seed 1: %v, then %v", a, gen(1))
	}
	differs := false
	for seed := uint64(2); seed < 20 && !differs; seed++ {
		differs = !slices.Equal(gen(seed), a)
	}
	if !differs {
		t.Error("nineteen seeds generated the same tokens at temperature 5")
	}
}

// TestTransformersWarpers compares Probabilities with transformers'
// TemperatureLogitsWarper, TopKLogitsWarper and TopPLogitsWarper applied
// in generate's order and a softmax (testdata/warpers.json,
// tools/hf-fixtures/warpers.py on the GPU machine: 200 cases of 64 random
// logits over four temperatures, five top-k and five top-p settings).
func TestTransformersWarpers(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "warpers.json"))
	if err != nil {
		t.Fatal(err)
	}
	var w struct {
		Cases []struct {
			Logits      []float32 `json:"logits"`
			Temperature float64   `json:"temperature"`
			TopK        int       `json:"top_k"`
			TopP        float64   `json:"top_p"`
			Probs       []float64 `json:"probs"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		t.Fatal(err)
	}
	if len(w.Cases) != 200 {
		t.Fatalf("%d cases", len(w.Cases))
	}
	bad := 0
	for _, c := range w.Cases {
		p := Sampling{Temperature: c.Temperature, TopK: c.TopK, TopP: c.TopP}.Probabilities(nil, c.Logits)
		if i := firstDiff(p, c.Probs); i >= 0 {
			if bad++; bad <= 3 {
				t.Errorf("T %v, k %d, p %v: token %d %v, transformers %v", c.Temperature, c.TopK, c.TopP, i, p[i], c.Probs[i])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d cases differ", bad, len(w.Cases))
	}
}

// genStep is one step of a generate fixture: the sequence so far, the
// model's raw logits, the probabilities generate drew the next token
// from, and the token it drew.
type genStep struct {
	Tokens []int     `json:"tokens"`
	Logits []float32 `json:"logits"`
	Probs  []float64 `json:"probs"`
	Next   int       `json:"next"`
}

// firstDiff returns the first token whose probability in p is not
// transformers' in want (off by more than 1e-6, or kept where it is
// dropped or the reverse), or -1.
func firstDiff(p, want []float64) int {
	for i := range p {
		if math.Abs(p[i]-want[i]) > 1e-6 || (p[i] == 0) != (want[i] == 0) {
			return i
		}
	}
	return -1
}

// TestTransformersGenerate compares Probabilities, step by step, with
// the distribution transformers' generate drew each token from
// (testdata/sampling.json, tools/hf-fixtures/sampling.py on the GPU
// machine): a tiny random Llama generating 10 tokens under 60 sampling
// settings (temperature, top-k, top-p, min-p and a repetition penalty
// over the whole sequence, prompt included) and 10 greedy ones with a
// repetition penalty, whose pick must be the arg-max of the penalised
// logits.
func TestTransformersGenerate(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "sampling.json"))
	if err != nil {
		t.Fatal(err)
	}
	var w struct {
		Cases []struct {
			Settings struct {
				DoSample          bool     `json:"do_sample"`
				Temperature       float64  `json:"temperature"`
				TopK              int      `json:"top_k"`
				TopP              float64  `json:"top_p"`
				MinP              *float64 `json:"min_p"`
				RepetitionPenalty float64  `json:"repetition_penalty"`
			} `json:"settings"`
			Steps []genStep `json:"steps"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		t.Fatal(err)
	}
	if len(w.Cases) != 70 {
		t.Fatalf("%d cases", len(w.Cases))
	}
	bad, steps, kept := 0, 0, 0
	for n, c := range w.Cases {
		st := c.Settings
		s := Sampling{Temperature: st.Temperature, TopK: st.TopK, TopP: st.TopP, RepetitionPenalty: st.RepetitionPenalty}
		if st.MinP != nil {
			s.MinP = *st.MinP
		}
		if !st.DoSample {
			s = Sampling{Temperature: 1, RepetitionPenalty: st.RepetitionPenalty}
		}
		for j, step := range c.Steps {
			steps++
			p := s.Probabilities(step.Tokens, step.Logits)
			if i := firstDiff(p, step.Probs); i >= 0 {
				if bad++; bad <= 3 {
					t.Errorf("case %d %+v, step %d: token %d %v, transformers %v", n, st, j, i, p[i], step.Probs[i])
				}
			}
			for _, x := range p {
				if x > 0 {
					kept++
				}
			}
			if p[step.Next] == 0 {
				t.Errorf("case %d step %d: transformers drew %d, which rlx never draws", n, j, step.Next)
			}
			if !st.DoSample {
				greedy, err := (Sampling{RepetitionPenalty: st.RepetitionPenalty}).Sampler()
				if err != nil {
					t.Fatal(err)
				}
				if got := greedy(step.Tokens, step.Logits); got != step.Next {
					t.Errorf("greedy case %d step %d: %d, transformers %d", n, j, got, step.Next)
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d steps differ", bad, steps)
	}
	t.Logf("%d steps, %.1f tokens kept a step of 48", steps, float64(kept)/float64(steps))
}

// TestGenerationConfig: the Sampling GenerationConfig reads from a
// generation_config.json gives the distributions transformers' generate
// drew each token from when it had only that file to go by
// (testdata/genconfig.json, tools/hf-fixtures/genconfig.py on the GPU
// machine: Qwen3's and Llama 3's settings, min-p with a repetition
// penalty, greedy with one, do_sample alone; a tiny random Llama of 96
// tokens, three prompts each), top_k's default of 50 among them.
func TestGenerationConfig(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "genconfig.json"))
	if err != nil {
		t.Fatal(err)
	}
	var w struct {
		Cases []struct {
			Name   string    `json:"name"`
			Config string    `json:"generation_config"`
			Steps  []genStep `json:"steps"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		t.Fatal(err)
	}
	steps := 0
	for _, c := range w.Cases {
		s, sample, err := GenerationConfig([]byte(c.Config))
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		greedy := !sample
		if greedy {
			// The scores generate took the arg-max of: only the penalty.
			s = Sampling{Temperature: 1, RepetitionPenalty: s.RepetitionPenalty}
		}
		for j, step := range c.Steps {
			steps++
			p := s.Probabilities(step.Tokens, step.Logits)
			if i := firstDiff(p, step.Probs); i >= 0 {
				t.Errorf("%s step %d: token %d %v, transformers %v", c.Name, j, i, p[i], step.Probs[i])
			}
			if greedy && ArgMax(s.Penalized(step.Tokens, step.Logits)) != step.Next {
				t.Errorf("%s step %d: greedy pick differs from transformers' %d", c.Name, j, step.Next)
			}
		}
	}
	if len(w.Cases) != 15 || steps < 80 {
		t.Errorf("%d cases, %d steps", len(w.Cases), steps)
	}
	for _, tc := range []struct{ config, want string }{
		{`{"do_sample": true, "top_p": 2}`, "top-p must be in [0, 1]"},
		{`{"do_sample": true, "top_p": 0}`, "top_p 0 (one token kept) is not supported"},
		{`{"repetition_penalty": -1}`, "repetition_penalty must be positive, got -1"},
		{`{"repetition_penalty": 0}`, "repetition_penalty must be positive, got 0"},
		{`[`, "unexpected end of JSON input"},
		{`{"num_beams": 4}`, "num_beams 4 (beam search) changes what generate picks, and rlx does not apply it"},
		{`{"do_sample": true, "typical_p": 0.9}`, "typical_p 0.9 (typical sampling) changes"},
		{`{"suppress_tokens": [1, 2]}`, "suppress_tokens [1,2] (suppressed tokens) changes"},
		{`{"min_new_tokens": 3}`, "min_new_tokens 3 (a minimum of new tokens"},
		{`{"no_repeat_ngram_size": 3}`, "no_repeat_ngram_size 3 (banning repeated n-grams)"},
	} {
		if _, _, err := GenerationConfig([]byte(tc.config)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.config, err, tc.want)
		}
	}
	// Those keys at their defaults (as older transformers wrote every
	// key) are no settings.
	if _, _, err := GenerationConfig([]byte(`{"num_beams": 1, "no_repeat_ngram_size": 0, "typical_p": 1.0, "min_length": 0, "bad_words_ids": null,
	  "suppress_tokens": [], "epsilon_cutoff": 0.0, "encoder_repetition_penalty": 1.0, "length_penalty": 2.0, "max_new_tokens": 9}`)); err != nil {
		t.Errorf("defaults: %v", err)
	}
	// A greedy file's sampling settings are still read (for a temperature
	// given beside it).
	if s, sample, err := GenerationConfig([]byte(`{"do_sample": false, "temperature": 0.7, "top_k": 5}`)); err != nil || sample || s != (Sampling{Temperature: 0.7, TopK: 5, TopP: 1, RepetitionPenalty: 1}) {
		t.Errorf("greedy: %+v, %v, %v", s, sample, err)
	}
}

// TestGGUFSampling reads general.sampling.* as GenerationConfig reads
// generation_config.json (Qwen3's settings as llama.cpp's converter
// writes them give the Sampling of Qwen3's generation_config.json), and
// refuses what rlx would apply otherwise than llama.cpp means.
func TestGGUFSampling(t *testing.T) {
	file := func(kv map[string]any) *gguf.File {
		var w gguf.Writer
		w.Add("general.architecture", "llama")
		for k, v := range kv {
			w.Add(k, v)
		}
		f, err := w.File("m.gguf")
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	const p = "general.sampling."
	s, sample, ok, err := GGUFSampling(file(map[string]any{p + "temp": float32(0.6), p + "top_k": int32(20), p + "top_p": float32(0.95)}))
	want, _, _ := GenerationConfig([]byte(`{"do_sample": true, "temperature": 0.6, "top_k": 20, "top_p": 0.95}`))
	if err != nil || !ok || !sample || math.Abs(s.Temperature-0.6) > 1e-7 || math.Abs(s.TopP-0.95) > 1e-7 || s.TopK != want.TopK || s.MinP != 0 || s.RepetitionPenalty != 1 {
		t.Errorf("Qwen3's: %+v %v %v %v, want %+v", s, sample, ok, err, want)
	}
	if _, sample, ok, err := GGUFSampling(file(map[string]any{p + "penalty_repeat": float32(1.1), p + "penalty_last_n": int32(-1)})); err != nil || !ok || sample {
		t.Errorf("a penalty alone: sample %v, ok %v, %v", sample, ok, err)
	}
	if _, _, ok, err := GGUFSampling(file(nil)); ok || err != nil {
		t.Errorf("no keys: ok %v, %v", ok, err)
	}
	if s, sample, _, _ := GGUFSampling(file(map[string]any{p + "temp": float32(0)})); sample || s.Temperature != 0 {
		t.Errorf("temp 0: sample %v, %+v", sample, s)
	}
	for _, tc := range []struct {
		kv   map[string]any
		want string
	}{
		{map[string]any{p + "mirostat": int32(2)}, "mirostat 2: rlx does not sample by mirostat"},
		{map[string]any{p + "xtc_probability": float32(0.5)}, "xtc_probability 0.5: rlx does not apply XTC"},
		{map[string]any{p + "penalty_repeat": float32(1.1), p + "penalty_last_n": int32(64)}, "penalty_last_n 64: rlx penalises the whole sequence"},
		{map[string]any{p + "top_k": float32(2.5)}, "top_k 2.5 is not a count"},
		{map[string]any{p + "top_p": float32(2)}, "top-p must be in [0, 1]"},
		{map[string]any{p + "temp": "hot"}, `general.sampling.temp is hot (string), want a number`},
	} {
		if _, _, _, err := GGUFSampling(file(tc.kv)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.kv, err, tc.want)
		}
	}
}
