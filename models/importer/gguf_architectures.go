package importer

import (
	"math"
	"slices"

	"github.com/rlx-compiler/rlx/dialect/graph"
)

// ggufArchitecture is a reader of GGUF metadata for the
// general.architecture values it names: it sets a spec's fields from
// the {arch}.* keys and the tensors the file holds, and may rename the
// tensors it reads (m.names).
type ggufArchitecture = named[func(m *ggufMeta, s *spec)]

// ggufArchitectures lists the general.architecture values the importer
// reads, each with its reader: llama.cpp's names for its architectures
// (Mistral's files are "llama").
func ggufArchitectures() []ggufArchitecture {
	return []ggufArchitecture{
		{[]string{"llama"}, (*ggufMeta).readLlama},
		{[]string{"olmo2"}, (*ggufMeta).readOlmo2},
		{[]string{"exaone4"}, (*ggufMeta).readExaone4},
		{[]string{"command-r", "cohere2"}, (*ggufMeta).readCommandR},
		{[]string{"lfm2"}, (*ggufMeta).readLfm2},
		{[]string{"lfm2moe"}, (*ggufMeta).readLfm2MoE},
		{[]string{"starcoder2"}, (*ggufMeta).readStarcoder2},
		{[]string{"phi2"}, (*ggufMeta).readPhi2},
		{[]string{"stablelm"}, (*ggufMeta).readStableLM},
		{[]string{"gptneox"}, (*ggufMeta).readGPTNeoX},
		{[]string{"nemotron"}, (*ggufMeta).readNemotron},
		{[]string{"olmoe"}, (*ggufMeta).readOlmoe},
		{[]string{"seed_oss"}, (*ggufMeta).readSeedOss},
		{[]string{"arcee"}, (*ggufMeta).readArcee},
		{[]string{"ernie4_5"}, (*ggufMeta).readErnie45},
		{[]string{"ernie4_5-moe"}, (*ggufMeta).readErnie45MoE},
		{[]string{"minimax-m2"}, (*ggufMeta).readMiniMaxM2GGUF},
		{[]string{"apertus"}, (*ggufMeta).readApertusGGUF},
		{[]string{"glm4"}, (*ggufMeta).readGlm4},
		{[]string{"granite", "granitemoe"}, (*ggufMeta).readGranite},
		{[]string{"granitehybrid"}, (*ggufMeta).readGraniteHybrid},
		{[]string{"mamba2"}, (*ggufMeta).readMamba2},
		{[]string{"mamba"}, (*ggufMeta).readMamba},
		{[]string{"nemotron_h", "nemotron_h_moe"}, (*ggufMeta).readNemotronHGGUF},
		{[]string{"falcon-h1"}, (*ggufMeta).readFalconH1GGUF},
		{[]string{"jamba"}, (*ggufMeta).readJambaGGUF},
		{[]string{"smollm3"}, (*ggufMeta).readSmolLM3},
		{[]string{"mistral3"}, (*ggufMeta).readMistral3},
		{[]string{"qwen2", "qwen2vl"}, (*ggufMeta).readQwen2},
		{[]string{"qwen2moe"}, (*ggufMeta).readQwen2Moe},
		{[]string{"phi3"}, (*ggufMeta).readPhi3},
		{[]string{"gpt-oss"}, (*ggufMeta).readGptOss},
		{[]string{"glm4moe"}, (*ggufMeta).readGlm4Moe},
		{[]string{"deepseek2"}, (*ggufMeta).readDeepseek2},
		{[]string{"kimi-linear"}, (*ggufMeta).readKimiLinearGGUF},
		{[]string{"llama4"}, (*ggufMeta).readLlama4},
		{[]string{"gemma"}, (*ggufMeta).readGemma},
		{[]string{"gemma2"}, (*ggufMeta).readGemma2},
		{[]string{"gemma3"}, (*ggufMeta).readGemma3},
		{[]string{"qwen3moe", "qwen3vlmoe"}, (*ggufMeta).readQwen3Moe},
		{[]string{"qwen3", "qwen3vl"}, (*ggufMeta).readQwen3},
		{[]string{"qwen35", "qwen35moe", "qwen3next"}, (*ggufMeta).readQwen35},
	}
}

// GGUFArchitectures lists the general.architecture values the importer
// reads, sorted.
func GGUFArchitectures() []string { return namesOf(ggufArchitectures()) }

// readLlama reads llama: convert_hf_to_gguf permutes q and k (and
// their biases) so that rotated pairs are adjacent: llama.cpp's
// "normal" rope, graph.rope's gptj style. llama.cpp adds each
// attention bias the file holds.
func (m *ggufMeta) readLlama(s *spec) {
	s.ropeStyle = graph.RopeGPTJ
	s.qkvBias, s.oBias = biasIfPresent, biasIfPresent
	s.allFull()
	if m.uint("expert_count", 0, false) > 0 {
		// Mixtral: every layer routes. llama.cpp's files from
		// before it stacked the experts (TheBloke's Mixtral GGUFs
		// among them) hold a tensor an expert, blk.N.ffn_gate.E:
		// the weight source stacks those.
		m.readMoE(s, false, true)
		_, stacked := m.src.Info(m.names.of(0, roleExpertGate))
		if _, perExpert := m.src.Info("blk.0.ffn_gate.0.weight"); !stacked && perExpert {
			m.names.layer[roleExpertGate], m.names.layer[roleExpertUp], m.names.layer[roleExpertDown] = "blk.%d.ffn_gate.*.weight", "blk.%d.ffn_up.*.weight", "blk.%d.ffn_down.*.weight"
		}
	}
}

// readOlmo2 reads llama.cpp's olmo2: norms after attention and the MLP
// only (post_attention_norm, post_ffw_norm), q and k normalised over
// their whole projections; neox rope, as the converter leaves q and k
// unpermuted.
func (m *ggufMeta) readOlmo2(s *spec) {
	s.postNorms, s.qkNormWhole = true, true
	s.allFull()
	if m.uint("attention.sliding_window", 0, false) > 0 {
		// OLMo 3 (llama.cpp's olmo2 with a window): every layer but
		// each attention.sliding_window_pattern-th (4) slides, and
		// rotates at rope.freq_base_swa (the global base by default)
		// without the rope's scaling, even where the cache is too
		// short for the window to mask anything.
		s.sliding = slidingEvery(s.layers, m.uint("attention.sliding_window_pattern", 4, false))
		local := m.float("rope.freq_base_swa", s.theta)
		if !(local > 1) || math.IsInf(local, 0) {
			m.fail("%s = %g: rlx needs a finite rope base above 1", m.key("rope.freq_base_swa"), local)
		}
		s.localInvFreq = ropeFrequencies(local, s.rotaryDim)
	}
}

// readExaone4 reads llama.cpp's exaone4: olmo2's norms after attention
// and the MLP, per-head q/k norms, neox rope; only the 64-layer 32B
// slides (its loader fixes every fourth layer global and a window of
// 4096, which attention.sliding_window overrides), and its global
// layers take no rope.
func (m *ggufMeta) readExaone4(s *spec) {
	s.postNorms, s.qkNorm = true, true
	s.allFull()
	if s.layers == 64 {
		s.sliding = slidingEvery(s.layers, 4)
		s.noRope = globalNoPE(s.sliding)
		s.setWindow(m.uint("attention.sliding_window", 4096, false))
	} else {
		s.window = 0 // llama.cpp reads the key but slides nothing
	}
}

// readCommandR reads llama.cpp's command-r and cohere2: LayerNorms
// without a bias (attention.layer_norm_epsilon), attention and the MLP
// in parallel on attn_norm, adjacent-pair rope (the converter does not
// permute), the logits × logit_scale; cohere2's layers slide but each
// fourth (its loader fixes the pattern), the global ones without rope.
func (m *ggufMeta) readCommandR(s *spec) {
	_, s.qkLayerNorm = m.src.Info("blk.0.attn_q_norm.weight") // Command R+'s per-head q/k LayerNorms
	s.layerNorm, s.parallel = true, true
	s.eps = m.float("attention.layer_norm_epsilon", 1e-5)
	s.ropeStyle = graph.RopeGPTJ
	if !m.has("logit_scale") {
		m.fail("missing key %s (llama.cpp's %s loader requires it)", m.key("logit_scale"), m.arch)
	}
	s.logitMul = m.float("logit_scale", 1)
	if !scaleInRange(s.logitMul) || !(s.eps >= 0) || math.IsInf(s.eps, 0) {
		m.fail("%s = %g, %s = %g: rlx needs a scale in [%g, %g] and a finite, non-negative epsilon", m.key("logit_scale"), s.logitMul, m.key("attention.layer_norm_epsilon"), s.eps, scaleMin, scaleMax)
	}
	s.allFull()
	if m.arch == "cohere2" {
		s.sliding = slidingEvery(s.layers, 4)
		s.noRope = globalNoPE(s.sliding)
	}
}

// readLfm2 reads llama.cpp's lfm2: the layers whose
// attention.head_count_kv is 0 are gated short convolutions over
// shortconv.l_cache inputs, the others GQA with per-head q/k norms;
// the final norm is token_embd_norm (the converter's name for it).
func (m *ggufMeta) readLfm2(s *spec) {
	s.qkNorm = true
	s.shortConv = m.uint("shortconv.l_cache", 0, true)
	kv := m.eachLayer("attention.head_count_kv", s.layers, "kv heads", "for a short convolution")
	if m.err != nil {
		return
	}
	s.layerTypes = kindsByKVHeads(kv, shortConvLayer)
	if s.shortConv < 2 {
		m.fail("%s = %d: rlx needs a window of at least 2", m.key("shortconv.l_cache"), s.shortConv)
	}
	m.names.finalNorm = "token_embd_norm.weight"
}

// kindsByKVHeads are the layers' kinds where attention.head_count_kv
// marks them (lfm2, kimi-linear): full attention, or zero where a
// layer has no kv heads.
func kindsByKVHeads(kv []int, zero string) []string {
	kinds := make([]string, len(kv))
	for i, n := range kv {
		kinds[i] = fullAttention
		if n == 0 {
			kinds[i] = zero
		}
	}
	return kinds
}

// readLfm2MoE reads llama.cpp's lfm2moe (LFM2-8B-A1B): lfm2's layers
// (readLfm2), the MLP from leading_dense_block_count on routing over
// expert_count SwiGLU experts of expert_feed_forward_length rows as
// llama.cpp's builder does: σ scores (expert_gating_func 2; another is
// refused), the top expert_used_count of score + exp_probs_b (where the
// file has it) chosen, their scores always renormalised; llama.cpp does
// not scale them, and neither does rlx unless the file carries
// expert_weights_scale.
func (m *ggufMeta) readLfm2MoE(s *spec) {
	m.readLfm2(s)
	dense := m.uint("leading_dense_block_count", 0, false)
	s.routedScale = m.float("expert_weights_scale", 1)
	m.sigmoidGating(true)
	if !m.readExpertSizes(s) {
		return
	}
	if !scaleInRange(s.routedScale) {
		m.fail("%s = %g: rlx needs a scale in [%g, %g]", m.key("expert_weights_scale"), s.routedScale, scaleMin, scaleMax)
		return
	}
	s.sigmoidRouter, s.normTopK, s.routeEps = true, true, 1e-6
	s.moeLayer = make([]bool, s.layers)
	for i := range s.moeLayer {
		s.moeLayer[i] = i >= dense
	}
	m.readSelectBias(s)
}

// readErnie45MoE reads llama.cpp's ernie4_5-moe: ernie4_5's layers
// (readErnie45) whose MLP, in the layers i from
// leading_dense_block_count on with (i+1) mod interleave_moe_layer_step
// = 0, routes over expert_count SwiGLU experts of
// expert_feed_forward_length rows as llama.cpp's builder does: the
// softmax of the router's logits, the top expert_used_count of
// probability + exp_probs_b (where the file has it) chosen, their
// probabilities renormalised (the sum held above f16's least normal,
// as build_moe_ffn), plus expert_shared_count shared experts as one
// MLP of expert_shared_feed_forward_length rows (the converter's
// intermediate_size ÷ num_key_value_heads; the experts' width times
// the count where absent).
func (m *ggufMeta) readErnie45MoE(s *spec) {
	m.readErnie45(s)
	step, dense := m.uint("interleave_moe_layer_step", 1, false), m.uint("leading_dense_block_count", 0, false)
	if !m.readExpertSizes(s) {
		return
	}
	if shared := m.uint("expert_shared_count", 0, false); shared > 0 {
		s.sharedFFN = m.uint("expert_shared_feed_forward_length", s.moeFFN*shared, false)
	}
	if step == 0 {
		m.fail("%s must be positive", m.key("interleave_moe_layer_step"))
	}
	if m.err != nil {
		return
	}
	s.selectSoftmax, s.normTopK, s.normMin, s.sharedUngated = true, true, 0x1p-14, true
	s.moeLayer = make([]bool, s.layers)
	for i := range s.moeLayer {
		s.moeLayer[i] = (i+1)%step == 0 && i >= dense
	}
	m.readSelectBias(s)
}

// readMiniMaxM2GGUF reads llama.cpp's minimax-m2: llama's layout with
// RMSNorms over the whole q and k projections (attn_q_norm,
// attn_k_norm), rope on rope.dimension_count of each head (NeoX pairs,
// q and k unpermuted), and every layer routing over expert_count
// SwiGLU experts of expert_feed_forward_length rows as llama.cpp's
// builder does: σ scores (expert_gating_func 2 where the file says),
// the top expert_used_count of score + exp_probs_b (where the file has
// it) chosen, renormalised, unscaled.
func (m *ggufMeta) readMiniMaxM2GGUF(s *spec) {
	s.qkNormWhole = true
	s.allFull()
	m.sigmoidGating(false)
	if !m.readExpertSizes(s) {
		return
	}
	s.sigmoidRouter, s.normTopK, s.routedScale = true, true, 1
	s.moeLayer = slices.Repeat([]bool{true}, s.layers)
	m.readSelectBias(s)
}

// readApertusGGUF reads llama.cpp's apertus: llama's layout (q and k
// unpermuted, rope on half-rotation pairs) with per-head q/k norms and
// an MLP ffn_down(xIELU(ffn_up(x))), xIELU's α_p, α_n, β and ε the
// global keys xielu.alpha_p, xielu.alpha_n, xielu.beta and xielu.eps
// (the parameters as transformers holds them, α_p and α_n before their
// softplus, as ggml_xielu takes them): an array of one a layer, or one
// value for every layer; β and ε 0.5 and −10⁻⁶ where the file has none.
func (m *ggufMeta) readApertusGGUF(s *spec) {
	s.qkNorm, s.xielu = true, true
	s.allFull()
	s.xieluParams = make([][4]float64, s.layers)
	defaults := map[string]float64{"xielu.beta": 0.5, "xielu.eps": -1e-6} // XIELUActivation's, where a file leaves β or ε out
	for j, k := range []string{"xielu.alpha_p", "xielu.alpha_n", "xielu.beta", "xielu.eps"} {
		vals, ok := []float64(nil), false
		if def, optional := defaults[k]; optional {
			if _, given := m.f.Get(k); !given {
				vals, ok = slices.Repeat([]float64{def}, s.layers), true
			}
		}
		if !ok {
			if vals, ok = m.floatsOrOne(k, s.layers); !ok {
				return
			}
		}
		for i, v := range vals {
			s.xieluParams[i][j] = v
		}
	}
}

// floatsOrOne reads the global key k: an array of n finite floats, one
// a layer, or one finite float for all n; false (the error recorded)
// where it is missing or holds anything else.
func (m *ggufMeta) floatsOrOne(k string, n int) ([]float64, bool) {
	v, ok := m.f.Get(k)
	if !ok {
		m.fail("missing metadata key %s", k)
		return nil, false
	}
	num := func(x any) (float64, bool) {
		switch y := x.(type) {
		case float32:
			return float64(y), !math.IsInf(float64(y), 0) && !math.IsNaN(float64(y))
		case float64:
			return y, !math.IsInf(y, 0) && !math.IsNaN(y)
		}
		return 0, false
	}
	if f, ok := num(v); ok {
		return slices.Repeat([]float64{f}, n), true
	}
	arr, isArr := v.([]any)
	if !isArr || len(arr) != n {
		m.fail("metadata key %s must be one float or an array of %d floats, one a layer", k, n)
		return nil, false
	}
	out := make([]float64, n)
	for i, x := range arr {
		f, ok := num(x)
		if !ok {
			m.fail("metadata key %s holds %v, want finite floats", k, x)
			return nil, false
		}
		out[i] = f
	}
	return out, true
}

// readStarcoder2 reads llama.cpp's starcoder2: LayerNorms with biases
// (attention.layer_norm_epsilon), biases on every projection and on
// ffn_up and ffn_down, gelu without a gate; neox rope.
func (m *ggufMeta) readStarcoder2(s *spec) {
	s.layerNorm, s.normBias, s.plainGelu = true, true, true
	m.readLayerNormEps(s)
	s.qkvBias, s.oBias = biasRequired, biasRequired
	s.allFull()
}

// readPhi2 reads llama.cpp's phi2: a LayerNorm with a bias
// (attention.layer_norm_epsilon) before attention and a gelu MLP
// (ffn_up, ffn_down) run in parallel, biases on every projection and
// on the head (output.bias); attn_qkv [q; k; v] with its bias (the
// files converted from Phi-2's first checkpoints) or separate attn_q,
// attn_k and attn_v; neox rope on rope.dimension_count.
func (m *ggufMeta) readPhi2(s *spec) {
	s.layerNorm, s.normBias, s.parallel, s.plainGelu, s.blocksFirst = true, true, true, true, true
	s.headBias = !s.tied
	m.readLayerNormEps(s)
	s.qkvBias, s.oBias = biasRequired, biasRequired
	_, s.fusedQKV = m.src.Info("blk.0.attn_qkv.weight")
	s.allFull()
}

// readStableLM reads llama.cpp's stablelm: LayerNorms with biases, q,
// k and v biases where the file has them, per-head q/k LayerNorms
// (attn_q_norm, [heads, head dim]) where it has those, attention and
// the MLP in parallel on attn_norm where it has no ffn_norm (StableLM
// 2 12B); neox rope on rope.dimension_count.
func (m *ggufMeta) readStableLM(s *spec) {
	s.layerNorm, s.normBias = true, true
	m.readLayerNormEps(s)
	s.qkvBias = biasIfPresent
	_, s.qkLayerNorm = m.src.Info("blk.0.attn_q_norm.weight")
	_, ffnNorm := m.src.Info("blk.0.ffn_norm.weight")
	s.parallel = !ffnNorm
	s.allFull()
}

// readGPTNeoX reads llama.cpp's gptneox: LayerNorms with biases,
// attn_qkv [q; k; v] (the converter regroups transformers' rows of a
// head at a time) with its bias, biases on the output projection and
// the MLP (gelu, no gate), the two blocks in parallel, each on its own
// norm of x, unless use_parallel_residual is false; neox rope on
// rope.dimension_count. The gelu is erf's, as the model's (llama.cpp's
// ggml_gelu is the tanh approximation).
func (m *ggufMeta) readGPTNeoX(s *spec) {
	s.layerNorm, s.normBias, s.plainGelu, s.erfGelu, s.fusedQKV = true, true, true, true, true
	m.readLayerNormEps(s)
	s.qkvBias, s.oBias = biasRequired, biasRequired
	if v, ok := m.f.Get(m.key("use_parallel_residual")); !ok || v == true {
		s.parallel, s.parallelNorms, s.blocksFirst = true, true, true
	} else if v != false {
		m.fail("%s = %v is not a bool", m.key("use_parallel_residual"), v)
	}
	if s.kvHeads != s.heads {
		m.fail("%s = %d: rlx reads gptneox with as many kv heads as heads (%d)", m.key("attention.head_count_kv"), s.kvHeads, s.heads)
	}
	s.allFull()
}

// readNemotron reads llama.cpp's nemotron: LayerNorms with biases and
// their 1 added by the converter, a relu² MLP of ffn_up and ffn_down,
// attention biases where the file has them; neox rope on
// rope.dimension_count.
func (m *ggufMeta) readNemotron(s *spec) {
	s.layerNorm, s.normBias, s.reluSquared = true, true, true
	m.readLayerNormEps(s)
	s.qkvBias, s.oBias = biasIfPresent, biasIfPresent
	s.allFull()
}

// readOlmoe reads llama.cpp's olmoe: llama's pre-norms (neox rope), q
// and k normalised over their whole projections, every layer routing,
// the chosen weights not renormalised.
func (m *ggufMeta) readOlmoe(s *spec) {
	s.qkNormWhole = true
	s.allFull()
	m.readMoE(s, false, false)
}

// readSeedOss reads llama.cpp's seed_oss: q, k and v biases where the
// file has them, none on the output projection; neox rope.
func (m *ggufMeta) readSeedOss(s *spec) {
	s.qkvBias = biasIfPresent
	s.allFull()
}

// readArcee reads llama.cpp's arcee: llama's layout (q and k permuted
// for its "normal" rope) with a relu² MLP of ffn_up and ffn_down.
func (m *ggufMeta) readArcee(s *spec) {
	s.ropeStyle = graph.RopeGPTJ
	s.qkvBias, s.oBias = biasIfPresent, biasIfPresent
	s.reluSquared = true
	s.allFull()
}

// readErnie45 reads llama.cpp's ernie4_5: llama's layout with
// adjacent-pair rope, which transformers' ERNIE 4.5 has too (the
// converter does not permute); biases where the file has them.
func (m *ggufMeta) readErnie45(s *spec) {
	s.ropeStyle = graph.RopeGPTJ
	s.qkvBias, s.oBias = biasIfPresent, biasIfPresent
	s.allFull()
}

// readGlm4 reads llama.cpp's glm4: attn_norm, post_attention_norm
// after attention, ffn_norm before the MLP and post_ffw_norm after it;
// q, k and v biases where the file has them; ffn_up holding [gate;
// up]; rope on rope.dimension_count dims, pairs adjacent as in
// transformers (the converter does not permute).
func (m *ggufMeta) readGlm4(s *spec) {
	if _, fused := m.src.Info("blk.0.attn_qkv.weight"); fused {
		m.fail("tensor \"blk.0.attn_qkv.weight\": rlx reads glm4's q, k and v as separate tensors (attn_q, attn_k, attn_v), as convert_hf_to_gguf writes GLM-4-0414")
	}
	if m.has("rope.dimension_sections") {
		// llama.cpp turns glm4's rope into M-RoPE (GLM-4.1V's text
		// model), its pairs half a rotation apart.
		m.fail("%s: rlx reads glm4 with its adjacent-pair rope only, not GLM-4.1V's M-RoPE", m.key("rope.dimension_sections"))
	}
	s.sandwich, s.fusedGateUp = true, true
	s.ropeStyle = graph.RopeGPTJ
	s.qkvBias = biasIfPresent // the output projection has none
	s.allFull()
}

// readGranite reads granite and granitemoe: llama.cpp's granite:
// llama's layout (q and k permuted) with IBM's scales, each applied
// only where the file has it (the converter writes the config's
// multipliers). granitemoe: every layer routes (softmax, the chosen
// weights renormalised), with an ungated shared expert where the file
// has expert_shared_feed_forward_length (Granite MoE Shared).
func (m *ggufMeta) readGranite(s *spec) {
	s.ropeStyle = graph.RopeGPTJ
	s.qkvBias, s.oBias = biasIfPresent, biasIfPresent
	s.allFull()
	for _, sc := range []struct {
		key string
		to  *float64
	}{{"embedding_scale", &s.embedScale}, {"attention.scale", &s.attnScale}, {"residual_scale", &s.residualScale}, {"logit_scale", &s.logitScale}} {
		if v := m.float(sc.key, 0); v != 0 {
			if !scaleInRange(v) {
				m.fail("%s = %g: rlx needs a scale in [%g, %g]", m.key(sc.key), v, scaleMin, scaleMax)
			}
			*sc.to = v
		}
	}
	if m.arch == "granitemoe" {
		m.readMoE(s, m.has("expert_shared_feed_forward_length"), true)
		s.sharedUngated = true
	}
}

// readSmolLM3 reads llama.cpp's smollm3: llama's layout (q and k
// permuted for its "normal" rope) without rope in every fourth layer,
// which its loader fixes (n_no_rope_layer_step 4; the file says
// nothing).
func (m *ggufMeta) readSmolLM3(s *spec) {
	s.ropeStyle = graph.RopeGPTJ
	s.qkvBias, s.oBias = biasIfPresent, biasIfPresent
	s.allFull()
	s.noRope = make([]bool, s.layers)
	for i := range s.noRope {
		s.noRope[i] = (i+1)%4 == 0
	}
}

// readMistral3 reads llama.cpp's mistral3 (Ministral 3, Devstral Small
// 2; convert_hf_to_gguf's Ministral3Model, a LlamaModel: q and k
// permuted): llama's layout, and
//   - YaRN's mscale_all_dim as rope.scaling.yarn_log_multiplier (not
//     deepseek2's 0.1·mscale_all_dim): cos and sin × yarnMscale(factor,
//     1) / yarnMscale(factor, mscale_all_dim), as
//     transformers' YaRN with mscale 1 (and, with the key 0 or absent,
//     the default 0.1·ln f + 1, which the ratio also gives);
//   - attention.temperature_scale β: every layer's q after the rope ×
//     1 + β·log(1 + ⌊pos / L⌋), L being attention.temperature_length
//     where the file gives it (the params.json converter's), else YaRN's
//     original context (llama.cpp's n_ctx_orig_yarn: its
//     rope.scaling.original_context_length, else context_length); a file
//     whose two differ is refused.
func (m *ggufMeta) readMistral3(s *spec) {
	m.readLlama(s)
	if f, mul := m.yarn.factor, m.yarn.logMul; f > 0 && mul != 0 {
		s.ropeAttn = m.yarn.attn * yarnMscale(f, 1) / yarnMscale(f, mul)
		if !(s.ropeAttn > 0) || math.IsInf(s.ropeAttn, 0) {
			m.fail("%s = %.7g with rope.scaling.factor %.7g gives cos and sin a factor %.3g: rlx needs a finite positive one", m.key("rope.scaling.yarn_log_multiplier"), mul, f, s.ropeAttn)
		}
		m.yarn.logMul = 0 // taken
	}
	m.qScaled = true
	beta := m.float("attention.temperature_scale", 0)
	length := m.uint("attention.temperature_length", 0, false)
	orig := m.uint("rope.scaling.original_context_length", 0, false)
	if orig == 0 {
		orig = m.uint("context_length", 0, false)
	}
	switch {
	case m.err != nil || beta == 0:
	case !(beta > 0) || !scaleInRange(beta):
		m.fail("%s = %.7g: rlx needs 0 or a scale in [%g, %g]", m.key("attention.temperature_scale"), beta, scaleMin, scaleMax)
	case length > 0 && orig > 0 && length != orig && m.has("rope.scaling.original_context_length"):
		m.fail("%s = %d differs from %s = %d: rlx does not know which length llama.cpp divides positions by", m.key("attention.temperature_length"), length, m.key("rope.scaling.original_context_length"), orig)
	default:
		if length == 0 {
			length = orig
		}
		if length < 1 {
			m.fail("%s needs the positions it divides: %s, else %s or %s", m.key("attention.temperature_scale"), m.key("attention.temperature_length"), m.key("rope.scaling.original_context_length"), m.key("context_length"))
			return
		}
		if length < s.maxTokens {
			s.tempFloor, s.tempScale, s.tempOffset, s.tempAll = length, beta, 0, true
		}
	}
}

// readQwen2 reads qwen2 and qwen2vl: qwen2vl (Qwen2-VL, Qwen2.5-VL) is
// qwen2 with M-RoPE, which rotates text (equal positions in every
// section) as neox rope.
func (m *ggufMeta) readQwen2(s *spec) {
	s.qkvBias = biasRequired
	s.allFull()
}

// readQwen2Moe reads qwen2moe: llama.cpp adds each attention bias the
// file holds.
func (m *ggufMeta) readQwen2Moe(s *spec) {
	s.qkvBias, s.oBias = biasIfPresent, biasIfPresent
	s.allFull()
	m.readMoE(s, true, false)
}

// readPhi3 reads phi3: ffn_up holds [gate; up]; attn_qkv [q; k; v], or
// llama.cpp's separate attn_q, attn_k and attn_v where the file has
// those.
func (m *ggufMeta) readPhi3(s *spec) {
	_, s.fusedQKV = m.src.Info("blk.0.attn_qkv.weight")
	s.fusedGateUp = true
	s.allFull()
}

// readGptOss reads gpt-oss: llama.cpp's gpt-oss (its openai-moe
// builder): q, k, v and output biases, attn_sinks, the even layers
// sliding (attention.sliding_window), neox rope with YaRN's keys
// (ggml's ramp, truncated: transformers' gpt-oss does not truncate, so
// a file's logits differ from its checkpoint's by that); the MoE
// input's norm is post_attention_norm; every layer routes over
// expert_count experts (the router with its bias, softmax over the
// chosen logits) of ffn_gate_exps, ffn_up_exps and ffn_down_exps with
// biases, (up + 1)·g·σ(1.702·g), clamped at 7.
func (m *ggufMeta) readGptOss(s *spec) {
	m.names = ggufNames("post_attention_norm")
	s.oss, s.swigluLimit = true, 7
	s.qkvBias, s.oBias = biasRequired, biasRequired
	s.allFull()
	s.sliding = slidingEvery(s.layers, 2)
	s.experts = m.uint("expert_count", 0, true)
	s.topK = m.uint("expert_used_count", 0, true)
	s.moeFFN = m.uint("expert_feed_forward_length", 0, true)
	s.moeLayer = slices.Repeat([]bool{true}, s.layers)
	if m.err == nil && (s.experts == 0 || s.topK < 1 || s.topK > s.experts || s.moeFFN == 0) {
		m.fail("expert_used_count %d must be in [1, expert_count %d], with a positive expert_feed_forward_length", s.topK, s.experts)
	}
}

// readGlm4Moe reads llama.cpp's glm4moe: block_count counts the
// nextn_predict_layers multi-token-prediction blocks at its end, which
// a decode step does not run; q, k and v biases, per-head q/k norms
// where the file has them, neox rope on rope.dimension_count; from
// leading_dense_block_count on, every layer routes as DeepSeek-V3 does
// (expert_gating_func 2, sigmoid; exp_probs_b the selection bias;
// expert_weights_norm, expert_weights_scale), expert_shared_count
// shared experts as one ungated MLP.
func (m *ggufMeta) readGlm4Moe(s *spec) {
	if !m.dropNextN(s) {
		return
	}
	s.qkvBias = biasRequired
	_, s.qkNorm = m.src.Info("blk.0.attn_q_norm.weight")
	s.allFull()
	m.readSigmoidMoE(s)
}

// readLlama4 reads llama.cpp's llama4 (Llama 4 Scout's and Maverick's
// text model as convert_hf_to_gguf writes it: q and k unpermuted, their
// pairs adjacent as in transformers; the experts split into
// ffn_gate_exps, ffn_up_exps and ffn_down_exps): every
// interleave_moe_layer_step-th layer routes over expert_count experts of
// expert_feed_forward_length rows, the expert_used_count best by
// σ(logit), each chosen expert's input × σ(its logit), plus a shared
// expert of as many rows; the other layers dense (feed_forward_length,
// the config's intermediate_size_mlp). What llama.cpp's loader fixes
// rather than reads, rlx fixes alike: every fourth layer (il + 1 ≡ 0
// mod 4) without rope, its q × the temperature tuning log(⌊(pos + 1) /
// 8192⌋ + 1)·0.1 + 1; the other three chunked, attending within chunks
// of 8192; q and k of the rope layers RMS-normalised (without a weight)
// unless there are 128 experts (Maverick). A file whose
// attention.sliding_window is 0 (llama.cpp's MobileLLM form) is refused.
func (m *ggufMeta) readLlama4(s *spec) {
	s.ropeStyle = graph.RopeGPTJ
	s.qkvBias, s.oBias = biasIfPresent, biasIfPresent
	s.allFull()
	if m.has("attention.sliding_window") && m.uint("attention.sliding_window", 0, false) == 0 {
		m.fail("%s = 0: rlx reads llama4 with llama.cpp's chunked attention (Llama 4), not its MobileLLM form", m.key("attention.sliding_window"))
		return
	}
	s.window = 0 // llama.cpp fixes the chunks at 8192 whatever the key says
	s.experts = m.uint("expert_count", 0, true)
	s.topK = m.uint("expert_used_count", 0, true)
	s.moeFFN = m.uint("expert_feed_forward_length", 0, true)
	step := m.uint("interleave_moe_layer_step", 0, true)
	if m.err != nil {
		return
	}
	if s.experts == 0 || s.topK < 1 || s.topK > s.experts || s.moeFFN == 0 || step == 0 {
		m.fail("expert_used_count %d must be in [1, expert_count %d]; expert_feed_forward_length %d and interleave_moe_layer_step %d must be positive", s.topK, s.experts, s.moeFFN, step)
		return
	}
	s.sharedFFN = s.moeFFN
	s.inputRouted, s.sharedUngated = true, true
	s.qkL2Norm = s.experts != 128
	s.moeLayer, s.noRope, s.chunked = make([]bool, s.layers), make([]bool, s.layers), make([]bool, s.layers)
	for i := range s.layers {
		s.moeLayer[i] = (i+1)%step == 0
		s.noRope[i] = (i+1)%4 == 0
		s.chunked[i] = i%4 < 3
	}
	const chunk, floor = 8192, 8192
	if chunk < s.maxTokens {
		s.chunk = chunk
	}
	if floor <= s.maxTokens {
		s.tempFloor, s.tempScale, s.tempOffset = floor, 0.1, 1
	}
}

// dropNextN leaves out the nextn_predict_layers multi-token-prediction
// blocks that block_count counts at its end (a decode step does not run
// them); false, with the error recorded, where none would be left.
func (m *ggufMeta) dropNextN(s *spec) bool {
	nextn := m.uint("nextn_predict_layers", 0, false)
	if nextn >= s.layers {
		m.fail("%s = %d leaves no layer of %s = %d", m.key("nextn_predict_layers"), nextn, m.key("block_count"), s.layers)
		return false
	}
	s.layers -= nextn
	return true
}

// readDeepseek2 reads llama.cpp's deepseek2 (DeepSeek-V2, V2-Lite,
// V2.5, V3, R1, Kimi K2, Moonlight as convert_hf_to_gguf writes them):
// multi-head latent attention (spec.mla) from attention.kv_lora_rank,
// attention.q_lora_rank (q from attn_q where absent) and
// rope.dimension_count rope dims, in one of two forms. Since 2025 the
// converter writes one kv head of attention.key_length = latent + rope
// and attention.value_length = latent, each head's q·k and v dims as
// attention.key_length_mla and attention.value_length_mla, and
// kv_b_proj split into attn_k_b (each head's k rows transposed) and
// attn_v_b; older files hold attn_kv_b whole, with as many kv heads as
// heads, key_length the q·k dims and value_length the v dims. Rope's
// pairs are adjacent (llama.cpp's "normal" rope, unpermuted). Under YaRN
// llama.cpp leaves cos and sin × rope.scaling.attn_factor only and
// scales the scores by mscale² = (attn_factor · (1 +
// yarn_log_multiplier · ln factor))², the multiplier being 0.1 ·
// mscale_all_dim; the scores × (q·k dims)^−½. The experts
// (readDeepseekMoE) score by softmax (expert_gating_func 1, and files
// from before the key) or sigmoid with exp_probs_b (2). Blocks of
// nextn_predict_layers are left out (dropNextN).
func (m *ggufMeta) readDeepseek2(s *spec) {
	kvLora := m.uint("attention.kv_lora_rank", 0, true)
	la := mla{rope: s.rotaryDim, kvLora: kvLora, qLora: m.uint("attention.q_lora_rank", 0, false)}
	valueDim := m.uint("attention.value_length", s.headDim, false)
	if m.has("attention.key_length_mla") {
		la.nope = m.uint("attention.key_length_mla", 0, true) - la.rope
		la.vDim = m.uint("attention.value_length_mla", 0, true)
		if m.err == nil && (s.kvHeads != 1 || s.headDim != kvLora+la.rope || valueDim != kvLora) {
			m.fail("%s = %d, %s = %d, %s = %d: the split form (with %s) has one kv head of the latent (%d) + rope (%d) dims, its values the latent's",
				m.key("attention.head_count_kv"), s.kvHeads, m.key("attention.key_length"), s.headDim, m.key("attention.value_length"), valueDim,
				m.key("attention.key_length_mla"), kvLora, la.rope)
		}
	} else {
		la.nope, la.vDim = s.headDim-la.rope, valueDim
		if m.err == nil && s.kvHeads != s.heads {
			m.fail("%s = %d: a file without %s has as many kv heads as heads (%d)", m.key("attention.head_count_kv"), s.kvHeads, m.key("attention.key_length_mla"), s.heads)
		}
		// The absorbed attention takes q through each head's k rows
		// transposed, which graph.dequant_matmul does not read.
		if name := m.names.of(0, roleKVB); m.err == nil {
			if i, ok := m.src.Info(name); ok && i.Quant.Valid() {
				m.fail("tensor %q is %s: rlx reads the older form's attn_kv_b in F32, F16 or BF16 only; llama.cpp's converter since 2025 writes attn_k_b and attn_v_b, which rlx reads quantised", name, i)
			}
		}
	}
	if m.err == nil && (la.nope < 1 || la.vDim < 1 || kvLora < 1) {
		m.fail("%s = %d, q·k dims %d (rope %d), v dims %d: rlx needs a latent and nope and v dims", m.key("attention.kv_lora_rank"), kvLora, la.nope+la.rope, la.rope, la.vDim)
	}
	if m.err != nil {
		return
	}
	if !m.dropNextN(s) {
		return
	}
	s.mla, s.headDim, s.kvHeads = la, la.rope, s.heads
	s.ropeStyle = graph.RopeGPTJ
	s.allFull()
	mscale := 1.0
	if m.yarn.factor > 0 {
		s.ropeAttn = m.yarn.attn
		mscale = m.yarn.attn * (1 + m.yarn.logMul*math.Log(m.yarn.factor))
		if !(mscale > 0) || !scaleInRange(mscale*mscale) {
			m.fail("%s = %.7g with rope.scaling.factor %.7g gives the scores a factor mscale² = %.3g: rlx needs mscale > 0, mscale² in [%g, %g]",
				m.key("rope.scaling.yarn_log_multiplier"), m.yarn.logMul, m.yarn.factor, mscale*mscale, scaleMin, scaleMax)
		}
		m.yarn.logMul = 0 // taken
	}
	s.attnScale = mscale * mscale / math.Sqrt(float64(la.nope+la.rope))
	switch g := m.uint("expert_gating_func", 1, false); g {
	case 1:
	case 2:
		s.sigmoidRouter = true
	default:
		m.fail("%s = %d is not supported (rlx implements 1, softmax, and 2, sigmoid)", m.key("expert_gating_func"), g)
	}
	m.readDeepseekMoE(s)
}

// readGemma reads llama.cpp's gemma: norms with their 1 added, the
// embeddings × √n_embd in f32, a gelu-gated MLP, q × 1/√head_dim.
func (m *ggufMeta) readGemma(s *spec) {
	s.geluTanh = true
	s.embedScale = math.Sqrt(float64(s.hidden))
	s.allFull()
}

// readGemma2 reads llama.cpp's gemma2: gemma3's layout without q/k
// norms, the even layers sliding, one rope, scores and logits
// soft-capped (its defaults 50 and 30), q × 1/√head_dim but
// 1/√(n_embd/n_head) for the 46-layer 27B (query_pre_attn_scalar 144).
func (m *ggufMeta) readGemma2(s *spec) {
	s.sandwich, s.geluTanh = true, true
	s.embedScale = math.Sqrt(float64(s.hidden))
	if s.layers == 46 {
		s.attnScale = 1 / math.Sqrt(float64(s.hidden/s.heads))
	}
	s.allFull()
	s.sliding = slidingEvery(s.layers, 2)
	s.attnSoftcap = m.float("attn_logit_softcapping", 50)
	s.finalSoftcap = m.float("final_logit_softcapping", 30)
	if bad := func(c float64) bool { return !(c > 0) || math.IsInf(c, 0) }; bad(s.attnSoftcap) || bad(s.finalSoftcap) {
		m.fail("%s = %g, %s = %g: rlx needs finite positive caps", m.key("attn_logit_softcapping"), s.attnSoftcap, m.key("final_logit_softcapping"), s.finalSoftcap)
	}
}

// readGemma3 reads llama.cpp's gemma3: norms with their 1 added, the
// embeddings × √n_embd in f32, every sixth layer global (the others
// slide, at rope base 10⁴ unscaled), q × 1/√head_dim, but
// 1/√(n_embd/n_head) for the 62-layer 27B (query_pre_attn_scalar 168).
func (m *ggufMeta) readGemma3(s *spec) {
	s.qkNorm, s.sandwich, s.geluTanh = true, true, true
	s.embedScale = math.Sqrt(float64(s.hidden))
	if s.layers == 62 {
		s.attnScale = 1 / math.Sqrt(float64(s.hidden/s.heads))
	}
	s.allFull()
	s.sliding = slidingEvery(s.layers, m.uint("attention.sliding_window_pattern", 6, false))
	local := m.float("rope.freq_base_swa", 10000)
	if !(local > 1) || math.IsInf(local, 0) {
		m.fail("%s = %g: rlx needs a finite rope base above 1", m.key("rope.freq_base_swa"), local)
	}
	s.localInvFreq = ropeFrequencies(local, s.rotaryDim)
}

// readQwen3Moe reads qwen3moe and qwen3vlmoe: every layer routes in
// llama.cpp's qwen3moe; a layer without a router (Qwen3-MoE's
// mlp_only_layers) is read as a dense MLP. qwen3vlmoe (Qwen3-VL-MoE)
// is qwen3moe with qwen3vl's M-RoPE, neox rope on text.
func (m *ggufMeta) readQwen3Moe(s *spec) {
	s.qkNorm = true
	s.allFull()
	m.readMoE(s, false, true)
	for i := range s.moeLayer {
		_, routed := m.src.Info(m.names.of(i, roleRouter))
		s.moeLayer[i] = s.moeLayer[i] && routed
	}
}

// readQwen3 reads qwen3 and qwen3vl: qwen3vl (Qwen3-VL) is qwen3 with
// interleaved M-RoPE, neox rope on text; its n_deepstack_layers
// concern image tokens only. llama.cpp refuses a qwen3 file with
// attention biases (what convert_hf_to_gguf writes of a checkpoint
// with attention_bias); rlx adds them, as transformers does.
func (m *ggufMeta) readQwen3(s *spec) {
	s.qkNorm = true
	s.qkvBias, s.oBias = biasIfPresent, biasIfPresent
	s.allFull()
}

// readQwen35 reads qwen35, qwen35moe and qwen3next: qwen35moe is
// qwen35 (its value heads tiled, β and α apart) with qwen3next's
// experts and shared expert.
func (m *ggufMeta) readQwen35(s *spec) {
	m.names = ggufNames("post_attention_norm")
	s.qkNorm, s.gatedAttention = true, true
	s.convKernel = m.uint("ssm.conv_kernel", 0, true)
	s.gdn = m.uint("ssm.state_size", 0, true)
	s.keyHeads = m.uint("ssm.group_count", 0, true)
	s.valueHeads = m.uint("ssm.time_step_rank", 0, true)
	inner := m.uint("ssm.inner_size", 0, true)
	interval := m.uint("full_attention_interval", 4, false)
	if m.err != nil {
		return
	}
	if s.convKernel < 2 || s.gdn == 0 || s.keyHeads == 0 || s.valueHeads%s.keyHeads != 0 || inner != s.valueHeads*s.gdn || interval == 0 {
		m.fail("ssm sizes conv_kernel %d, state_size %d, group_count %d, time_step_rank %d, inner_size %d, full_attention_interval %d do not describe a gated DeltaNet rlx can build",
			s.convKernel, s.gdn, s.keyHeads, s.valueHeads, inner, interval)
		return
	}
	s.layerTypes = make([]string, s.layers)
	for i := range s.layerTypes {
		s.layerTypes[i] = linearAttention
		if (i+1)%interval == 0 {
			s.layerTypes[i] = fullAttention
		}
	}
	s.vTiled = m.arch != "qwen3next" && s.valueHeads != s.keyHeads
	s.fusedBA = m.arch == "qwen3next"
	if m.arch != "qwen35" {
		m.readMoE(s, true, true)
	}
}
