package decode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/rlx-compiler/rlx/runtime/gguf"
)

// Sampling is how Generate picks each next token, as transformers'
// generate warps the logits: first each token already in the sequence
// (the prompt's and those generated) penalised by RepetitionPenalty (0 or
// 1: none; a logit below zero multiplied by it, another divided, as
// RepetitionPenaltyLogitsProcessor does); then at temperature 0 the
// arg-max (greedy), else a draw from the softmax of the logits divided
// by the temperature, kept to the TopK most likely tokens (0: all), then
// to the most likely ones whose probabilities reach TopP (0 or 1: all),
// then to those at least MinP times as likely as the most likely (0:
// all), in generate(do_sample=True)'s order (temperature, top-k, top-p,
// min-p). Seed seeds the draws: the same seed, the same tokens.
type Sampling struct {
	Temperature       float64
	TopK              int
	TopP              float64
	MinP              float64
	RepetitionPenalty float64
	Seed              uint64
}

// Check reports a setting out of range.
func (s Sampling) Check() error {
	switch {
	case !(s.Temperature >= 0) || math.IsInf(s.Temperature, 0):
		return fmt.Errorf("the temperature must be 0 (greedy) or positive, got %v", s.Temperature)
	case s.TopK < 0:
		return fmt.Errorf("top-k must be 0 (all tokens) or positive, got %d", s.TopK)
	case !(s.TopP >= 0 && s.TopP <= 1):
		return fmt.Errorf("top-p must be in [0, 1] (0 and 1: all tokens), got %v", s.TopP)
	case !(s.MinP >= 0 && s.MinP <= 1):
		return fmt.Errorf("min-p must be in [0, 1] (0: all tokens), got %v", s.MinP)
	case !(s.RepetitionPenalty >= 0) || math.IsInf(s.RepetitionPenalty, 0):
		return fmt.Errorf("the repetition penalty must be positive (1 or 0: none), got %v", s.RepetitionPenalty)
	}
	return nil
}

// Sampler returns the function that picks each next token from the
// sequence so far and the last step's logits, for Decoder.Pick.
func (s Sampling) Sampler() (func(tokens []int, logits []float32) int, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	if s.Temperature == 0 {
		if !s.penalises() {
			return func(_ []int, logits []float32) int { return ArgMax(logits) }, nil
		}
		return func(tokens []int, logits []float32) int { return ArgMax(s.Penalized(tokens, logits)) }, nil
	}
	rng := rand.New(rand.NewPCG(s.Seed, 0x726c78)) // "rlx"
	return func(tokens []int, logits []float32) int { return s.draw(tokens, logits, rng.Float64()) }, nil
}

// draw picks the token that u, uniform in [0, 1), falls on among the
// kept tokens' probabilities, in token order.
func (s Sampling) draw(tokens []int, logits []float32, u float64) int {
	p := s.Probabilities(tokens, logits)
	acc, last := 0.0, -1
	for i, x := range p {
		if x == 0 {
			continue
		}
		acc += x
		last = i
		if u < acc {
			return i
		}
	}
	if last < 0 {
		return ArgMax(logits) // no token kept: all NaN
	}
	return last // rounding left u just past the sum
}

// penalises says the repetition penalty changes logits (0 and 1 do not).
func (s Sampling) penalises() bool { return s.RepetitionPenalty != 0 && s.RepetitionPenalty != 1 }

// Penalized returns logits with each token of tokens (the sequence so
// far) penalised by RepetitionPenalty, as transformers'
// RepetitionPenaltyLogitsProcessor does (in float32, as torch does on
// f32 logits): once a token, however often it occurs. Tokens outside the
// logits are skipped. Without a penalty it returns logits itself.
func (s Sampling) Penalized(tokens []int, logits []float32) []float32 {
	if !s.penalises() {
		return logits
	}
	out := slices.Clone(logits)
	pen := float32(s.RepetitionPenalty)
	for _, t := range tokens {
		if t < 0 || t >= len(out) || out[t] != logits[t] {
			continue // outside, or already penalised
		}
		if x := logits[t]; x < 0 {
			out[t] = x * pen
		} else {
			out[t] = x / pen
		}
	}
	return out
}

// Probabilities returns the probability Generate draws each token with
// after the sequence tokens: the softmax of the penalised logits /
// Temperature over the tokens TopK, TopP and MinP keep, 0 for the
// others. (Temperature must be positive.)
func (s Sampling) Probabilities(tokens []int, logits []float32) []float64 {
	logits = s.Penalized(tokens, logits)
	n := len(logits)
	z := make([]float64, n)
	keep := make([]bool, n)
	for i, x := range logits {
		z[i] = float64(x) / s.Temperature
		keep[i] = !math.IsNaN(z[i])
	}
	if s.TopK > 0 && s.TopK < n {
		// transformers keeps every token at least as likely as the k-th.
		sorted := slices.Clone(z)
		slices.SortFunc(sorted, func(a, b float64) int { return compareDesc(a, b) })
		kth := sorted[s.TopK-1]
		for i := range z {
			keep[i] = keep[i] && z[i] >= kth
		}
	}
	p := softmax(z, keep)
	if s.TopP > 0 && s.TopP < 1 {
		// From the least likely up, drop tokens while their cumulative
		// probability stays within 1 − TopP; the most likely is kept.
		order := make([]int, 0, n)
		for i := range p {
			if keep[i] {
				order = append(order, i)
			}
		}
		slices.SortStableFunc(order, func(a, b int) int { return compareDesc(p[b], p[a]) })
		cum := 0.0
		for j, i := range order {
			cum += p[i]
			if cum <= 1-s.TopP && j < len(order)-1 {
				keep[i] = false
			}
		}
		p = softmax(z, keep)
	}
	if s.MinP > 0 {
		// Drop the tokens less likely than MinP times the most likely.
		top := slices.Max(p)
		for i := range p {
			keep[i] = keep[i] && p[i] >= s.MinP*top
		}
		p = softmax(z, keep)
	}
	return p
}

// compareDesc orders larger first.
func compareDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// softmax of z over the kept entries (0 elsewhere).
func softmax(z []float64, keep []bool) []float64 {
	m := math.Inf(-1)
	for i, x := range z {
		if keep[i] {
			m = math.Max(m, x)
		}
	}
	p := make([]float64, len(z))
	sum := 0.0
	for i, x := range z {
		if keep[i] && !math.IsInf(m, -1) {
			p[i] = math.Exp(x - m)
			sum += p[i]
		}
	}
	for i := range p {
		if sum > 0 {
			p[i] /= sum
		}
	}
	return p
}

// GenerationConfig reads a checkpoint's generation_config.json (data)
// as transformers' generate reads it when given no sampling arguments:
// the settings it samples with (temperature, top_k and top_p as the file
// gives them or transformers' defaults 1, 50 and 1; min_p where given;
// repetition_penalty, which applies greedy or not) and whether it samples
// (do_sample). Greedy decoding is s with Temperature 0. Seed is left 0.
// A setting that would change generate's picks and that rlx does not
// apply (beam search, no_repeat_ngram_size, typical_p, suppressed or
// forced tokens, a minimum length, ...; unapplied) is an error naming it;
// at its default value it is no setting.
func GenerationConfig(data []byte) (s Sampling, sample bool, err error) {
	if err := checkUnapplied(data); err != nil {
		return Sampling{}, false, err
	}
	var c struct {
		DoSample          *bool    `json:"do_sample"`
		Temperature       *float64 `json:"temperature"`
		TopK              *int     `json:"top_k"`
		TopP              *float64 `json:"top_p"`
		MinP              *float64 `json:"min_p"`
		RepetitionPenalty *float64 `json:"repetition_penalty"`
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return Sampling{}, false, err
	}
	or := func(p *float64, d float64) float64 {
		if p == nil {
			return d
		}
		return *p
	}
	s = Sampling{Temperature: or(c.Temperature, 1), TopK: 50, TopP: or(c.TopP, 1), MinP: or(c.MinP, 0), RepetitionPenalty: or(c.RepetitionPenalty, 1)}
	if c.TopK != nil {
		s.TopK = *c.TopK
	}
	switch {
	case s.RepetitionPenalty <= 0:
		return Sampling{}, false, fmt.Errorf("repetition_penalty must be positive, got %v", s.RepetitionPenalty)
	case s.TopP == 0:
		return Sampling{}, false, errors.New("top_p 0 (one token kept) is not supported: decode greedily")
	}
	if err := s.Check(); err != nil {
		return Sampling{}, false, err
	}
	return s, c.DoSample != nil && *c.DoSample, nil
}

// unapplied are the generation_config.json keys that change which token
// transformers' generate picks and that rlx does not apply, each with
// its values that change nothing (JSON, compact; null for all: absent
// or null is no setting) and what it does. Keys that only end
// generation (max_new_tokens, max_length, stop_strings) or matter to
// beam search alone (length_penalty, early_stopping) are not among
// them: --generate ends rlx's.
var unapplied = []struct {
	key, does string
	none      []string
}{
	{"num_beams", "beam search", []string{"1"}},
	{"num_beam_groups", "group beam search", []string{"1"}},
	{"diversity_penalty", "group beam search's diversity penalty", []string{"0", "0.0"}},
	{"penalty_alpha", "contrastive search", []string{"0", "0.0"}},
	{"dola_layers", "DoLa decoding", nil},
	{"guidance_scale", "classifier-free guidance", []string{"1", "1.0"}},
	{"sequence_bias", "a bias on token sequences", []string{"{}", "[]"}},
	{"encoder_repetition_penalty", "a penalty on the prompt's tokens", []string{"1", "1.0"}},
	{"no_repeat_ngram_size", "banning repeated n-grams", []string{"0"}},
	{"encoder_no_repeat_ngram_size", "banning the prompt's n-grams", []string{"0"}},
	{"bad_words_ids", "banned token sequences", []string{"[]"}},
	{"min_length", "a minimum length (end-of-sequence tokens suppressed before it)", []string{"0"}},
	{"min_new_tokens", "a minimum of new tokens (end-of-sequence tokens suppressed before it)", []string{"0"}},
	{"forced_bos_token_id", "a forced first token", nil},
	{"forced_eos_token_id", "a forced last token", nil},
	{"suppress_tokens", "suppressed tokens", []string{"[]"}},
	{"begin_suppress_tokens", "tokens suppressed at the first step", []string{"[]"}},
	{"exponential_decay_length_penalty", "a growing end-of-sequence bias", nil},
	{"typical_p", "typical sampling", []string{"1", "1.0"}},
	{"epsilon_cutoff", "epsilon sampling", []string{"0", "0.0"}},
	{"eta_cutoff", "eta sampling", []string{"0", "0.0"}},
	{"top_h", "top-H sampling", nil},
	{"watermarking_config", "watermarking", nil},
}

// checkUnapplied returns an error naming the first of unapplied's keys
// that data sets to a value that changes generate's picks.
func checkUnapplied(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	for _, u := range unapplied {
		v, ok := raw[u.key]
		if !ok {
			continue
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, v); err != nil {
			return err
		}
		if c := compact.String(); c != "null" && !slices.Contains(u.none, c) {
			return fmt.Errorf("%s %s (%s) changes what generate picks, and rlx does not apply it", u.key, c, u.does)
		}
	}
	return nil
}

// GGUFSampling reads the sampling settings a GGUF file recommends, its
// general.sampling.* keys (llama.cpp's names, which its converter
// writes from generation_config.json): temp, top_k, top_p, min_p and
// penalty_repeat, read with GenerationConfig's meaning and defaults
// (rlx samples as transformers does: the penalty over the whole
// sequence, the temperature before the filters, where llama.cpp's own
// sampler applies it after them). A GGUF file says nothing of
// do_sample: it samples when temp is given and above 0. ok is false
// when the file has none of these keys; a key rlx would not apply as
// llama.cpp means it (mirostat or xtc on, a penalty over the last
// penalty_last_n tokens only) is an error.
func GGUFSampling(f *gguf.File) (s Sampling, sample, ok bool, err error) {
	const p = "general.sampling."
	// num reads a key, def where it is absent; the first error stays.
	num := func(key string, def float64) float64 {
		if _, present := f.Get(p + key); !present {
			return def
		}
		ok = true
		x, e := f.Float(p + key)
		if err == nil {
			err = e
		}
		return x
	}
	temp, topK, lastN := num("temp", 1), num("top_k", 50), num("penalty_last_n", -1)
	mirostat, xtc := num("mirostat", 0), num("xtc_probability", 0)
	s = Sampling{Temperature: temp, TopK: int(topK), TopP: num("top_p", 1), MinP: num("min_p", 0), RepetitionPenalty: num("penalty_repeat", 1)}
	_, hasTemp := f.Get(p + "temp")
	switch {
	case err != nil:
		return Sampling{}, false, ok, err
	case mirostat != 0:
		return Sampling{}, false, ok, fmt.Errorf("%s: %smirostat %v: rlx does not sample by mirostat", f.Name, p, mirostat)
	case xtc > 0:
		return Sampling{}, false, ok, fmt.Errorf("%s: %sxtc_probability %v: rlx does not apply XTC", f.Name, p, xtc)
	case s.RepetitionPenalty != 1 && lastN != -1:
		return Sampling{}, false, ok, fmt.Errorf("%s: %spenalty_last_n %v: rlx penalises the whole sequence, as transformers does (-1)", f.Name, p, lastN)
	case float64(s.TopK) != topK || s.TopK < 0:
		return Sampling{}, false, ok, fmt.Errorf("%s: %stop_k %v is not a count", f.Name, p, topK)
	case s.RepetitionPenalty <= 0:
		return Sampling{}, false, ok, fmt.Errorf("%s: %spenalty_repeat must be positive, got %v", f.Name, p, s.RepetitionPenalty)
	}
	if err := s.Check(); err != nil {
		return Sampling{}, false, ok, fmt.Errorf("%s: %s%v", f.Name, p, err)
	}
	return s, hasTemp && s.Temperature > 0, ok, nil
}
