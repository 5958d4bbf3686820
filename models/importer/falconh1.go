package importer

import (
	"encoding/json"
	"math"
	"slices"
)

// readFalconH1 reads FalconH1ForCausalLM (TII's Falcon-H1): every layer
// attention (Llama's, with rope) and a Mamba-2 mixer side by side on the
// same RMSNorm of x, their outputs summed into x, then a SwiGLU MLP
// (feed_forward) after pre_ff_layernorm; the mixer's inner width
// mamba_d_ssm (mamba_expand × hidden_size where null), its heads
// mamba_n_heads of mamba_d_head ("auto": the width ÷ the heads), its
// gated RMSNorm by mamba_n_groups groups where mamba_rms_norm (after the
// gate unless mamba_norm_before_gate), else y·silu(z) alone. Its µP
// multipliers: embedding_multiplier, lm_head_multiplier,
// attention_in_multiplier and attention_out_multiplier (the attention's
// input and output), key_multiplier (k, so the scores: folded into their
// scale), ssm_in_multiplier and ssm_out_multiplier (the mixer's input and
// output), ssm_multipliers (z, x, B, C and dt of in_proj's output:
// transformers' mup_vector) and mlp_multipliers (the gate's output and
// the MLP's).
func (s *spec) readFalconH1(c *config) {
	s.readCommon(c, 1.0)
	c.reject("attention_bias", "false")
	c.reject("mlp_bias", "false")
	c.reject("projectors_bias", "false")
	c.reject("mamba_proj_bias", "false")
	c.reject("rope_traditional", "false")
	c.reject("mamba_use_mlp", "true")
	c.reject("attn_layer_indices", "null") // every layer attends
	for _, f := range []string{"mamba_chunk_size", "time_step_min", "time_step_max", "num_logits_to_keep", "mlp_expansion_factor"} {
		c.used[f] = true // the prefill's chunks, training set-up, the MLP's width given by intermediate_size
	}
	s.allFull()
	s.parallelSSM = true
	s.readMamba2Mixer(c, ssmKeys{"mamba_n_heads", "mamba_d_head", "mamba_n_groups", "mamba_d_state", "mamba_d_conv", "mamba_expand",
		"mamba_conv_bias", "mamba_proj_bias", "mamba_d_ssm"}, s.eps)
	s.readTimeStepLimit(c)
	m := &s.stateSpace
	m.ssmNoNorm = !c.bool("mamba_rms_norm", false)
	m.ssmNormFirst = c.bool("mamba_norm_before_gate", true)
	m.ssmGroupNorm = true
	mult := func(key string) float64 {
		v := c.float(key, 1)
		if c.err == nil && !scaleInRange(v) {
			c.fail("field %q = %g: rlx needs a multiplier in [%g, %g]", key, v, scaleMin, scaleMax)
		}
		return v
	}
	s.embedScale, s.logitMul = mult("embedding_multiplier"), mult("lm_head_multiplier")
	s.attnInScale, s.attnOutScale = mult("attention_in_multiplier"), mult("attention_out_multiplier")
	m.ssmInScale, m.ssmOutScale = mult("ssm_in_multiplier"), mult("ssm_out_multiplier")
	if k := mult("key_multiplier"); k != 1 {
		s.attnScale = k / math.Sqrt(float64(s.headDim))
	}
	list := func(key string, n int) []float64 {
		v, ok := c.get(key)
		if !ok {
			return nil
		}
		var out []float64
		if err := json.Unmarshal(v, &out); err != nil || len(out) != n || slices.ContainsFunc(out, func(f float64) bool { return !scaleInRange(f) }) {
			c.fail("field %q = %s is not a list of %d multipliers in [%g, %g]", key, v, n, scaleMin, scaleMax)
			return nil
		}
		return out
	}
	m.ssmMup = list("ssm_multipliers", 5)
	if mlp := list("mlp_multipliers", 2); mlp != nil {
		s.mlpGateScale, s.mlpDownScale = mlp[0], mlp[1]
	}
}

// readFalconH1GGUF reads llama.cpp's falcon-h1 as convert_hf_to_gguf
// writes Falcon-H1: every layer attn_norm, then attention (rope on
// half-rotation pairs, q and k as transformers holds them) and a Mamba-2
// mixer (readMamba2Sizes) side by side, summed, then ffn_norm and a
// SwiGLU MLP. The converter folds every µP multiplier into the weights
// (and mamba_norm_before_gate into nothing: llama.cpp's mixer gates
// before its norm), so the file has none; the mixer's gated norm by group
// where the file has ssm_norm, none otherwise.
func (m *ggufMeta) readFalconH1GGUF(s *spec) {
	s.allFull()
	s.parallelSSM = true
	m.readMamba2Sizes(s, 0)
	_, norm := m.src.Info(m.names.of(0, roleSSMNorm))
	s.ssmNoNorm = !norm
}
