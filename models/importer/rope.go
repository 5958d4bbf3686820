package importer

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
	"github.com/rlx-compiler/rlx/runtime/weights"
)

// Rope: the frequencies, the scalings that reshape them (YaRN, LongRoPE),
// read from a config.json or GGUF metadata, and the range they must keep.

// ropeFrequencies are rope's rotaryDim/2 inverse frequencies at base
// theta: 1/θ^(2i/rotaryDim).
func ropeFrequencies(theta float64, rotaryDim int) []float64 {
	f := make([]float64, rotaryDim/2)
	for i := range f {
		f[i] = 1 / math.Pow(theta, float64(2*i)/float64(rotaryDim))
	}
	return f
}

// yarn is YaRN's parameters, as transformers' rope_parameters and
// llama.cpp's rope.scaling keys give them.
type yarn struct {
	factor     float64 // frequencies interpolated: f / factor
	orig       float64 // the original context, in which the corrections count rotations
	attn       float64 // the factor on cos and sin
	fast, slow float64 // rotations that bound the ramp (beta_fast, beta_slow)
	ext        float64 // the ramp's weight (llama.cpp's ext_factor; transformers' is 1)
	truncate   bool    // the correction dims floored and ceiled
	ggml       bool    // ggml's ramp, whose width is at least 0.001, for an inverted one too
}

// setYarn blends each of s's frequencies between itself (extrapolation)
// and itself / factor (interpolation) by a linear ramp over the dims
// between the corrections for y.fast and y.slow rotations in the
// original context, weighted by y.ext, and takes y.attn as the factor on
// cos and sin: transformers' _compute_yarn_parameters, and ggml's
// rope_yarn with its rope_yarn_corr_dims. The two differ only where
// clamping inverts the corrections (a ramp of width ≤ 0): transformers
// widens a zero width to 0.001, ggml any width below it.
func (s *spec) setYarn(y yarn) {
	dim := float64(s.rotaryDim)
	correction := func(rotations float64) float64 {
		return dim * math.Log(y.orig/(rotations*2*math.Pi)) / (2 * math.Log(s.theta))
	}
	low, high := correction(y.fast), correction(y.slow)
	if y.truncate {
		low, high = math.Floor(low), math.Ceil(high)
	}
	low, high = max(low, 0), min(high, dim-1)
	width := high - low
	switch {
	case y.ggml:
		width = max(width, 0.001)
	case width == 0:
		width = 0.001
	}
	for i, f := range s.invFreq {
		// extrapolation's weight: 1 − the ramp, which rises from the
		// low correction dim to the high one.
		ramp := min(max((float64(i)-low)/width, 0), 1)
		// the share of f / factor: the ramp itself where ext is 1
		// (transformers' case; 1 − (1 − ramp) would round differently)
		share := ramp
		if y.ext != 1 {
			share = 1 - (1-ramp)*y.ext
		}
		s.invFreq[i] = f/y.factor*share + f*(1-share)
	}
	s.ropeAttn = y.attn
}

// setLongRope divides s's unscaled frequencies by LongRoPE's short
// factors, and, where the cache reaches past the original context orig,
// keeps them divided by the long factors for the positions from orig on;
// attn is the factor on cos and sin. The safetensors and GGUF readers
// share it.
func (s *spec) setLongRope(short, long []float64, orig int, attn float64) {
	base := s.invFreq
	s.invFreq = make([]float64, len(base))
	for i, f := range base {
		s.invFreq[i] = f / short[i]
	}
	if orig < s.maxTokens {
		s.longInvFreq, s.longFrom = make([]float64, len(base)), orig
		for i, f := range base {
			s.longInvFreq[i] = f / long[i]
		}
	}
	s.ropeAttn = attn
}

// ropeOutOfRange says which rope frequency, after every scaling, would
// make an angle (position × frequency, in the module's f32) or a factor
// on cos and sin that is not a finite float32: a scaling factor near 0
// (or a subnormal one) divides the frequencies past float32's range.
func (s *spec) ropeOutOfRange() string {
	for _, table := range []struct {
		name string
		f    []float64
	}{{"", s.invFreq}, {"long ", s.longInvFreq}, {"sliding layers' ", s.localInvFreq}} {
		for i, f := range table.f {
			if !(f >= 0) || f*float64(max(s.maxTokens, 1)) > math.MaxFloat32 {
				return fmt.Sprintf("the %srope frequency %d is %g after scaling: rlx needs position × frequency finite in float32 up to position %d (is the scaling factor near 0?)", table.name, i, f, s.maxTokens)
			}
		}
	}
	// q and k both take the factor, scores its square: real models use 1
	// to about 2.5 (YaRN's 0.1·ln factor + 1, LongRoPE's
	// √(1 + ln s / ln original)); 64 (scores × 4096) is far past any.
	if s.ropeAttn != 0 && !(s.ropeAttn > 0 && s.ropeAttn <= 64) {
		return fmt.Sprintf("the factor on rope's cos and sin is %g: rlx takes one in (0, 64] (scores take its square)", s.ropeAttn)
	}
	return ""
}

// readRope reads rope_parameters (transformers 5) or the older top-level
// rope_theta, rope_scaling and partial_rotary_factor.
func (s *spec) readRope(c *config, defaultRotary float64) {
	params := c.object("rope_parameters")
	legacy := params == nil
	if legacy {
		params = c.object("rope_scaling")
		if params == nil {
			params = map[string]json.RawMessage{}
		}
	}
	topTheta := c.float("rope_theta", 10000)
	topFactor := c.float("partial_rotary_factor", defaultRotary)
	sub := &config{path: c.path + " (rope_parameters)", raw: params, used: map[string]bool{}}
	theta := sub.float("rope_theta", topTheta)
	rotary := sub.float("partial_rotary_factor", topFactor)
	kind := sub.str("rope_type", sub.str("type", "default"))
	// Text positions are equal in Qwen3.5's three M-RoPE sections, so its
	// sections and interleaving leave text rope unchanged.
	sub.used["mrope_section"], sub.used["mrope_interleaved"] = true, true
	s.theta = theta
	if msg := s.badNumbers("rope_theta", "rms_norm_eps"); msg != "" {
		c.fail("%s", msg)
		return
	}
	s.rotaryDim = int(float64(s.headDim) * rotary)
	if s.rotaryDim < 2 || s.rotaryDim%2 != 0 || s.rotaryDim > s.headDim {
		c.fail("partial_rotary_factor %g gives a rotary dim of %d for head_dim %d; rlx needs an even dim in [2, head_dim]", rotary, s.rotaryDim, s.headDim)
		return
	}
	s.invFreq = ropeFrequencies(theta, s.rotaryDim)
	switch kind {
	case "default":
	case "linear":
		// transformers' _compute_linear_scaling_rope_parameters: positions
		// divided by factor, i.e. every frequency.
		factor := sub.float("factor", 0)
		if !(factor > 0) || math.IsInf(factor, 0) {
			c.fail("rope_type \"linear\" needs a finite positive factor, got %g", factor)
			return
		}
		for i := range s.invFreq {
			s.invFreq[i] /= factor
		}
	case "llama3":
		factor := sub.float("factor", 0)
		low := sub.float("low_freq_factor", 0)
		high := sub.float("high_freq_factor", 0)
		orig := sub.float("original_max_position_embeddings", 0)
		if factor <= 0 || low <= 0 || high < low || orig <= 0 {
			c.fail("rope_type \"llama3\" needs positive factor, low_freq_factor ≤ high_freq_factor and original_max_position_embeddings")
			return
		}
		// transformers' _compute_llama3_parameters: long wavelengths are
		// divided by factor, short ones kept, the band between blended
		// (none where low_freq_factor = high_freq_factor, as Llama 4's).
		lowWave, highWave := orig/low, orig/high
		for i, f := range s.invFreq {
			wave := 2 * math.Pi / f
			switch {
			case wave < highWave:
			case wave > lowWave:
				s.invFreq[i] = f / factor
			case high == low:
				// On the one boundary transformers' blend is 0/0.
				c.fail("rope_type \"llama3\": frequency %d's wavelength is original_max_position_embeddings / low_freq_factor, where low_freq_factor = high_freq_factor leaves no blend", i)
				return
			default:
				smooth := (orig/wave - low) / (high - low)
				s.invFreq[i] = (1-smooth)*f/factor + smooth*f
			}
		}
	case "dynamic":
		// transformers' _compute_dynamic_ntk_parameters with
		// dynamic_rope_update: the base grows only once the sequence
		// passes max_position_embeddings (to base·(factor·len/max −
		// factor + 1)^(d/(d−2))); up to there, so at every step of a
		// decode within it, the frequencies are the default ones.
		factor := sub.float("factor", 0)
		maxPos := c.float("max_position_embeddings", 0)
		switch {
		case !(factor >= 1) || math.IsInf(factor, 0):
			c.fail("rope_type \"dynamic\" needs a finite factor of at least 1, got %g", factor)
			return
		case !(maxPos >= 1):
			c.fail("rope_type \"dynamic\" needs max_position_embeddings, past which it changes the rope base")
			return
		case float64(s.maxTokens) > maxPos:
			c.fail("rope_type \"dynamic\" changes the rope base for sequences past max_position_embeddings %g, which rlx does not follow: import with --max-tokens at most %g (there the frequencies are the default ones), not %d", maxPos, maxPos, s.maxTokens)
			return
		}
	case "mrope":
		// Qwen2-VL's M-RoPE as first published (rope_scaling type
		// "mrope"): text has equal positions in its three sections, so
		// it rotates as the default rope.
	case "yarn":
		s.readYarn(c, sub)
	case "longrope":
		s.readLongRope(c, sub)
	default:
		name := "rope_parameters"
		if legacy {
			name = "rope_scaling"
		}
		c.fail("field %q has rope_type %q, which is not supported (rlx implements \"default\", \"linear\", \"llama3\", \"dynamic\" within max_position_embeddings, \"yarn\", \"longrope\" and Qwen2-VL's \"mrope\" on text)", name, kind)
		return
	}
	if s.tempAll {
		s.readQScaling(c, sub)
	}
	sub.leftovers("rope_type " + kind)
	if sub.err != nil && c.err == nil {
		c.err = sub.err
	}
}

// readQScaling reads Ministral 3's scaling of q from rope_parameters
// (sub): llama_4_scaling_beta β and original_max_position_embeddings L,
// both required (Ministral3Attention reads them at every step), q × 1 +
// β·log(1 + ⌊pos / L⌋) in every layer after the rope; built only where
// the cache reaches L, below which the factor is 1. rope_parameters'
// max_position_embeddings restates the config's (transformers leaves it
// unread, ignore_keys_at_rope_validation).
func (s *spec) readQScaling(c, sub *config) {
	sub.used["max_position_embeddings"] = true
	_, hasBeta := sub.get("llama_4_scaling_beta")
	_, hasOrig := sub.get("original_max_position_embeddings")
	if !hasBeta || !hasOrig {
		c.fail("rope_parameters must give llama_4_scaling_beta and original_max_position_embeddings (Ministral 3 scales q by 1 + β·log(1 + ⌊pos / original⌋))")
		return
	}
	beta := sub.float("llama_4_scaling_beta", 0)
	orig := sub.int("original_max_position_embeddings", 0, true)
	switch {
	case sub.err != nil:
	case !(beta >= 0) || beta != 0 && !scaleInRange(beta):
		c.fail("llama_4_scaling_beta = %g in rope_parameters: rlx needs 0 or a scale in [%g, %g]", beta, scaleMin, scaleMax)
	case orig < 1:
		c.fail("original_max_position_embeddings = %d in rope_parameters: rlx needs a positive length to divide positions by", orig)
	case beta != 0 && orig < s.maxTokens:
		s.tempFloor, s.tempScale, s.tempOffset = orig, beta, 0
	}
}

// originalContext is original_max_position_embeddings: in the rope
// parameters (transformers 5), else at the config's top level (Phi-3's
// older form), else max_position_embeddings.
func originalContext(c, sub *config) float64 {
	return sub.float("original_max_position_embeddings", c.float("original_max_position_embeddings", c.float("max_position_embeddings", 0)))
}

// yarnMscale is YaRN's magnitude correction for a rope scaled by
// scale, transformers' get_mscale (DeepSeek's yarn_get_mscale): 0.1·m·ln
// scale + 1, and 1 where scale ≤ 1.
func yarnMscale(scale, m float64) float64 {
	if scale <= 1 {
		return 1
	}
	return 0.1*m*math.Log(scale) + 1
}

// readYarn reads YaRN (transformers' _compute_yarn_parameters): each
// frequency blended between itself and itself / factor by a linear ramp
// over the dims between the corrections for beta_fast and beta_slow
// rotations in original_max_position_embeddings, and cos and sin scaled
// by attention_factor (default 0.1·ln factor + 1, or DeepSeek's ratio
// of mscale and mscale_all_dim).
func (s *spec) readYarn(c, sub *config) {
	orig := originalContext(c, sub)
	factor := sub.float("factor", 0)
	if _, given := sub.get("factor"); !given && orig > 0 {
		factor = c.float("max_position_embeddings", 0) / orig
	}
	if !(factor > 0) || math.IsInf(factor, 0) || !(orig > 0) || math.IsInf(orig, 0) {
		c.fail("rope_type \"yarn\" needs a finite positive factor and original_max_position_embeddings, got %g and %g", factor, orig)
		return
	}
	attn := sub.float("attention_factor", 0)
	if _, given := sub.get("attention_factor"); !given {
		m, all := sub.float("mscale", 0), sub.float("mscale_all_dim", 0)
		if m != 0 && all != 0 {
			attn = yarnMscale(factor, m) / yarnMscale(factor, all)
		} else {
			attn = yarnMscale(factor, 1)
		}
	}
	fast, slow := sub.float("beta_fast", 0), sub.float("beta_slow", 0)
	if fast == 0 {
		fast = 32
	}
	if slow == 0 {
		slow = 1
	}
	truncate := sub.bool("truncate", true)
	if !(attn > 0) || math.IsInf(attn, 0) || !(fast > 0) || !(slow > 0) || math.IsInf(fast, 0) || math.IsInf(slow, 0) {
		c.fail("rope_type \"yarn\" needs finite positive attention_factor, beta_fast and beta_slow, got %.3g, %g and %g", attn, fast, slow)
		return
	}
	s.setYarn(yarn{factor: factor, orig: orig, attn: attn, fast: fast, slow: slow, ext: 1, truncate: truncate})
}

// readLongRope reads LongRoPE (transformers' _compute_longrope_parameters
// and its dynamic update): frequency i divided by short_factor[i] while
// the sequence is at most original_max_position_embeddings long, by
// long_factor[i] beyond, and cos and sin scaled by attention_factor
// (default √(1 + ln factor / ln original), factor = max_position_embeddings
// / original). A decode step's sequence is pos + 1 long, so positions
// from original on rotate at the long factors, as transformers' decoding
// one token at a time does (its cache keeps earlier keys as rotated;
// a prompt longer than original, run as one pass, takes the long
// factors at every position there).
func (s *spec) readLongRope(c, sub *config) {
	orig := originalContext(c, sub)
	factors := func(key string) []float64 {
		v, ok := sub.get(key)
		var f []float64
		if !ok || json.Unmarshal(v, &f) != nil || len(f) != len(s.invFreq) {
			c.fail("rope_type \"longrope\" needs %s, a list of %d numbers (rotary dim %d / 2)", key, len(s.invFreq), s.rotaryDim)
			return nil
		}
		for i, x := range f {
			if !(x > 0) || math.IsInf(x, 0) {
				c.fail("rope_type \"longrope\": %s[%d] = %g; rlx needs finite positive factors", key, i, x)
				return nil
			}
		}
		return f
	}
	short, long := factors("short_factor"), factors("long_factor")
	if c.err != nil {
		return
	}
	if !(orig >= 1) || math.IsInf(orig, 0) || orig != math.Trunc(orig) {
		c.fail("rope_type \"longrope\" needs original_max_position_embeddings, a positive integer, got %g", orig)
		return
	}
	factor := sub.float("factor", 0)
	if _, given := sub.get("factor"); !given {
		factor = c.float("max_position_embeddings", 0) / orig
	}
	attn := sub.float("attention_factor", 0)
	if _, given := sub.get("attention_factor"); !given {
		attn = 1
		if factor > 1 {
			attn = math.Sqrt(1 + math.Log(factor)/math.Log(orig))
		}
	}
	if !(attn > 0) || math.IsInf(attn, 0) {
		c.fail("rope_type \"longrope\" needs a finite positive attention_factor, got %g", attn)
		return
	}
	s.setLongRope(short, long, int(orig), attn)
}

// readYarn reads YaRN as llama.cpp's converter writes it:
// rope.scaling.factor, the original context
// (rope.scaling.original_context_length, else context_length, as
// llama.cpp's n_ctx_orig_yarn), and the yarn_* keys where the file has
// them (convert_hf_to_gguf writes them from the config's beta_fast,
// beta_slow, attention_factor and extrapolation_factor), else llama.cpp's
// defaults: beta_fast 32, beta_slow 1, ext_factor 1, and on cos and sin
// 0.1·ln factor + 1 (1 where ext_factor is 0), times
// rope.scaling.attn_factor (default 1). The ramp is ggml's
// (spec.setYarn). Where llama.cpp departs from the file, rlx follows the
// file, as transformers follows the config: its loaders for llama, qwen2
// and qwen3 read none of the yarn_* keys, and its context setup replaces
// yarn_attn_factor wherever ext_factor is not 0. The factor,
// rope.scaling.attn_factor and yarn_log_multiplier are kept in m.yarn
// for deepseek2's reader (specFromGGUF refuses a multiplier no reader
// took).
func (m *ggufMeta) readYarn(s *spec) error {
	factor := m.float("rope.scaling.factor", 0)
	orig := m.uint("rope.scaling.original_context_length", 0, false)
	if orig == 0 {
		orig = m.uint("context_length", 0, false)
	}
	y := yarn{
		factor: factor, orig: float64(orig),
		fast: m.float("rope.scaling.yarn_beta_fast", 32), slow: m.float("rope.scaling.yarn_beta_slow", 1),
		ext: m.float("rope.scaling.yarn_ext_factor", 1), truncate: true, ggml: true,
	}
	attn := m.float("rope.scaling.attn_factor", 1)
	yarnAttn := 1.0
	if y.ext != 0 {
		yarnAttn = yarnMscale(factor, 1)
	}
	yarnAttn = m.float("rope.scaling.yarn_attn_factor", yarnAttn)
	logMul := m.float("rope.scaling.yarn_log_multiplier", 0)
	if m.err != nil {
		return m.err
	}
	positive := func(x float64) bool { return x > 0 && !math.IsInf(x, 1) } // NaN is not
	switch {
	case !positive(factor):
		return fmt.Errorf("%s = %g: YaRN needs a finite positive factor", m.key("rope.scaling.factor"), factor)
	case orig < 1:
		return fmt.Errorf("YaRN needs the original context: %s (else %s) is missing or 0",
			m.key("rope.scaling.original_context_length"), m.key("context_length"))
	case !positive(y.fast) || !positive(y.slow):
		return fmt.Errorf("%s = %g, %s = %g: YaRN needs finite positive rotation counts",
			m.key("rope.scaling.yarn_beta_fast"), y.fast, m.key("rope.scaling.yarn_beta_slow"), y.slow)
	case !(y.ext >= 0) || math.IsInf(y.ext, 1):
		return fmt.Errorf("%s = %g: YaRN needs a finite weight ≥ 0", m.key("rope.scaling.yarn_ext_factor"), y.ext)
	case !positive(attn) || !positive(yarnAttn):
		return fmt.Errorf("%s = %g, %s = %g: YaRN needs finite positive factors on cos and sin",
			m.key("rope.scaling.attn_factor"), attn, m.key("rope.scaling.yarn_attn_factor"), yarnAttn)
	}
	y.attn = attn * yarnAttn
	s.setYarn(y)
	m.yarn.factor, m.yarn.attn, m.yarn.logMul = factor, attn, logMul
	return nil
}

// readLongRope reads LongRoPE as llama.cpp's converter stores Phi-3's
// (Phi3MiniModel): the short and long divisors of each frequency as the
// tensors rope_factors_short and rope_factors_long, the original context
// and the factor on cos and sin as keys. The long divisors apply from
// the original context's position on, as for safetensors (spec's
// readLongRope); llama.cpp takes them at every position once its
// context is longer than the original one.
func (m *ggufMeta) readLongRope(s *spec, src *weights.Source) error {
	_, hasShort := src.Info("rope_factors_short.weight")
	_, hasLong := src.Info("rope_factors_long.weight")
	if !hasShort && !hasLong {
		return nil
	}
	if !hasShort || !hasLong {
		return fmt.Errorf("LongRoPE needs both tensors rope_factors_short and rope_factors_long; the file has one")
	}
	factors := func(name string) ([]float64, error) {
		t, err := src.Weight(ref.Spec{Name: name, Type: ref.TensorType{DType: tensor.F32, Shape: []int{len(s.invFreq)}}})
		if err != nil {
			return nil, fmt.Errorf("tensor %q: %v", name, err)
		}
		f := make([]float64, t.Len())
		for i, d := range t.Floats() {
			if !(d > 0) || math.IsInf(float64(d), 0) {
				return nil, fmt.Errorf("tensor %q holds %g at %d; rlx needs finite positive divisors", name, d, i)
			}
			f[i] = float64(d)
		}
		return f, nil
	}
	short, err := factors("rope_factors_short.weight")
	if err != nil {
		return err
	}
	long, err := factors("rope_factors_long.weight")
	if err != nil {
		return err
	}
	orig := m.uint("rope.scaling.original_context_length", 0, true)
	attn := m.float("rope.scaling.attn_factor", 1)
	if m.err != nil {
		return m.err
	}
	if orig < 1 || !(attn > 0) || math.IsInf(attn, 0) {
		return fmt.Errorf("%s = %d, %s = %g: LongRoPE needs a positive original context and a finite positive factor",
			m.key("rope.scaling.original_context_length"), orig, m.key("rope.scaling.attn_factor"), attn)
	}
	s.setLongRope(short, long, orig, attn)
	return nil
}
