package importer

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/rlx-compiler/rlx/dialect/graph"
)

// named pairs a reader with the architecture names it reads: a row of
// the importer's tables of readers (config.json's architectures,
// GGUF's general.architecture values).
type named[R any] struct {
	names []string
	read  R
}

// namesOf lists every name of a table of readers, sorted.
func namesOf[R any](table []named[R]) []string {
	var names []string
	for _, a := range table {
		names = append(names, a.names...)
	}
	slices.Sort(names)
	return names
}

// lookup returns the row of a table of readers that names name.
func lookup[R any](table []named[R], name string) (named[R], bool) {
	for _, a := range table {
		if slices.Contains(a.names, name) {
			return a, true
		}
	}
	return named[R]{}, false
}

// architecture is a reader of config.json for the Hugging Face
// architectures it names: it sets a spec's fields from the config's,
// reading each through c's getters (whatever it leaves unread is
// refused after it).
type architecture = named[func(s *spec, c *config)]

// architectures lists the Hugging Face architectures the importer
// reads, each with its reader.
func architectures() []architecture {
	return []architecture{
		{[]string{"LlamaForCausalLM"}, (*spec).readLlama},
		{[]string{"Olmo2ForCausalLM"}, (*spec).readOlmo2},
		{[]string{"Olmo3ForCausalLM"}, (*spec).readOlmo3},
		{[]string{"Exaone4ForCausalLM"}, (*spec).readExaone4},
		{[]string{"CohereForCausalLM", "Cohere2ForCausalLM"}, (*spec).readCohere},
		{[]string{"Lfm2ForCausalLM"}, (*spec).readLfm2},
		{[]string{"Lfm2MoeForCausalLM"}, (*spec).readLfm2MoE},
		{[]string{"Ernie4_5_MoeForCausalLM"}, (*spec).readErnie45MoE},
		{[]string{"Starcoder2ForCausalLM"}, (*spec).readStarcoder2},
		{[]string{"Glm4MoeForCausalLM"}, (*spec).readGlm4Moe},
		{[]string{"GptOssForCausalLM"}, (*spec).readGptOss},
		{[]string{"PhiForCausalLM"}, (*spec).readPhi},
		{[]string{"StableLmForCausalLM"}, (*spec).readStableLm},
		{[]string{"GPTNeoXForCausalLM"}, (*spec).readGPTNeoX},
		{[]string{"NemotronForCausalLM"}, (*spec).readNemotron},
		{[]string{"OlmoeForCausalLM"}, (*spec).readOlmoe},
		{[]string{"SeedOssForCausalLM"}, (*spec).readSeedOss},
		{[]string{"ArceeForCausalLM"}, (*spec).readArcee},
		{[]string{"Ernie4_5ForCausalLM"}, (*spec).readErnie45},
		{[]string{"Glm4ForCausalLM"}, (*spec).readGlm4},
		{[]string{"GraniteForCausalLM", "GraniteMoeForCausalLM", "GraniteMoeSharedForCausalLM", "GraniteMoeHybridForCausalLM"}, (*spec).readGranite},
		{[]string{"Mamba2ForCausalLM"}, (*spec).readMamba2},
		{[]string{"MambaForCausalLM", "FalconMambaForCausalLM"}, (*spec).readMamba},
		{[]string{"BambaForCausalLM"}, (*spec).readBamba},
		{[]string{"NemotronHForCausalLM"}, (*spec).readNemotronH},
		{[]string{"JambaForCausalLM"}, (*spec).readJamba},
		{[]string{"FalconH1ForCausalLM"}, (*spec).readFalconH1},
		{[]string{"SmolLM3ForCausalLM"}, (*spec).readSmolLM3},
		{[]string{"MistralForCausalLM"}, (*spec).readMistral},
		{[]string{"Mistral3ForConditionalGeneration"}, (*spec).readMistral3},
		{[]string{"Ministral3ForCausalLM"}, (*spec).readMinistral3},
		{[]string{"MixtralForCausalLM"}, (*spec).readMixtral},
		{[]string{"MiniMaxM2ForCausalLM"}, (*spec).readMiniMaxM2},
		{[]string{"ApertusForCausalLM"}, (*spec).readApertus},
		{[]string{"Phi3ForCausalLM"}, (*spec).readPhi3},
		{[]string{"Qwen2ForCausalLM"}, (*spec).readQwen2},
		{[]string{"Qwen2VLForConditionalGeneration", "Qwen2_5_VLForConditionalGeneration"}, (*spec).readQwen2VL},
		{[]string{"Qwen3VLMoeForConditionalGeneration"}, (*spec).readQwen3VLMoe},
		{[]string{"Qwen3VLForConditionalGeneration"}, (*spec).readQwen3VL},
		{[]string{"Qwen3ForCausalLM", "Qwen3MoeForCausalLM"}, (*spec).readQwen3OrMoe},
		{[]string{"Qwen2MoeForCausalLM"}, (*spec).readQwen2Moe},
		{[]string{"Qwen3_5ForCausalLM", "Qwen3NextForCausalLM"}, (*spec).readQwen35},
		{[]string{"Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForConditionalGeneration"}, (*spec).readQwen35VL},
		{[]string{"Llama4ForCausalLM"}, (*spec).readLlama4},
		{[]string{"Llama4ForConditionalGeneration"}, (*spec).readLlama4VL},
		{[]string{"DeepseekV2ForCausalLM"}, (*spec).readDeepseekV2},
		{[]string{"DeepseekV3ForCausalLM"}, (*spec).readDeepseekV3},
		{[]string{"KimiLinearForCausalLM"}, (*spec).readKimiLinear},
		{[]string{"Zamba2ForCausalLM"}, (*spec).readZamba2},
		{[]string{"GemmaForCausalLM"}, (*spec).readGemma1},
		{[]string{"Gemma2ForCausalLM"}, (*spec).readGemma2},
		{[]string{"Gemma3ForCausalLM"}, (*spec).readGemma3},
		{[]string{"Gemma3ForConditionalGeneration"}, (*spec).readGemma3VL},
	}
}

// Architectures lists the Hugging Face architectures the importer reads,
// sorted.
func Architectures() []string { return namesOf(architectures()) }

// readLlama reads LlamaForCausalLM.
func (s *spec) readLlama(c *config) {
	s.readCommon(c, 1.0)
	s.readAttentionBias(c)
	c.reject("mlp_bias", "false")
	c.reject("pretraining_tp", "1")
	s.allFull()
}

// readOlmo2 reads Olmo2ForCausalLM: Llama with RMSNorms after
// attention and after the MLP in place of those before, and q and k
// normalised over their whole projections; no MLP biases, no qkv
// clipping.
func (s *spec) readOlmo2(c *config) {
	s.readCommon(c, 1.0)
	s.readAttentionBias(c)
	s.postNorms, s.qkNormWhole = true, true
	s.allFull()
}

// readOlmo3 reads Olmo3ForCausalLM: OLMo 2 with a sliding window in
// the layers layer_types names sliding_attention (by default all but
// each fourth), at sliding_window (4096 by default); the rope's
// scaling (YaRN) only in the full layers, as transformers 5.17 and
// llama.cpp apply it. transformers 5 keys the rope by layer type:
// taken apart here, before readCommon reads a single rope.
func (s *spec) readOlmo3(c *config) {
	byType := takeRopeByType(c)
	s.readCommon(c, 1.0)
	s.readAttentionBias(c)
	s.postNorms, s.qkNormWhole = true, true
	s.allFull()
	sliding, given := s.slidingTypes(c)
	if c.err != nil {
		return
	}
	s.readOlmo3Rope(c, byType)
	if !given {
		sliding = slidingEvery(s.layers, 4)
	}
	s.sliding = sliding
	s.setWindow(c.int("sliding_window", 4096, false))
}

// readExaone4 reads Exaone4ForCausalLM (EXAONE 4): OLMo 2's norms
// after attention and the MLP only, Qwen3's per-head q/k norms; with a
// sliding_window, the layers layer_types names sliding_attention (by
// default all but each sliding_window_pattern-th, an integer or a
// string of L and G such as "LLLG") attend through it, and the others
// take no rope (transformers: rope where sliding_window is null or the
// layer slides).
func (s *spec) readExaone4(c *config) {
	s.readCommon(c, 1.0)
	c.reject("attention_bias", "false")
	s.postNorms, s.qkNorm = true, true
	s.readExaone4Windows(c)
}

// readCohere reads CohereForCausalLM and Cohere2ForCausalLM: Cohere
// (Command R, Aya Expanse) and Cohere 2 (Command R7B): LayerNorms
// without a bias (layer_norm_eps), attention and the MLP in parallel
// on one norm, rope's pairs adjacent, the logits × logit_scale, a tied
// head by default; under use_qk_norm (Command R+) per-head q/k
// LayerNorms. Cohere 2's sliding layers (layer_types, else all but
// each sliding_window_pattern-th, 4) attend through sliding_window and
// rotate; its global layers take no rope.
func (s *spec) readCohere(c *config) {
	c.setDefault("tie_word_embeddings", "true")
	s.readCommon(c, 1.0)
	s.readLayerNormEps(c, "layer_norm_eps")
	c.reject("attention_bias", "false")
	s.qkLayerNorm = c.bool("use_qk_norm", false) // Command R+: per-head q/k LayerNorms
	s.layerNorm, s.parallel = true, true
	s.ropeStyle = graph.RopeGPTJ
	s.logitMul = c.float("logit_scale", 0.0625)
	if !scaleInRange(s.logitMul) {
		c.fail("field \"logit_scale\" = %g: rlx needs a scale in [%g, %g]", s.logitMul, scaleMin, scaleMax)
	}
	s.allFull()
	if s.arch == "Cohere2ForCausalLM" {
		s.readCohere2Windows(c)
	}
}

// readStarcoder2 reads Starcoder2ForCausalLM (StarCoder2): LayerNorms
// with biases (norm_epsilon), biases on every projection (use_bias,
// true by default), an MLP c_proj(gelu_tanh(c_fc(x))) without a gate,
// Mistral's sliding window; the dropouts run in training only.
func (s *spec) readStarcoder2(c *config) {
	s.layerNorm, s.normBias, s.plainGelu = true, true, true
	s.readCommon(c, 1.0)
	s.readLayerNormEps(c, "norm_epsilon")
	if !c.bool("use_bias", true) {
		c.fail("field \"use_bias\" = false is not supported (rlx reads StarCoder2 with its biases, as it is published)")
	}
	s.qkvBias, s.oBias = biasRequired, biasRequired
	c.used["residual_dropout"], c.used["embedding_dropout"] = true, true
	s.readWindow(c)
	s.allFull()
}

// readGlm4Moe reads Glm4MoeForCausalLM (GLM-4.5): q, k and v biases
// (attention_bias), per-head q/k RMSNorms under use_qk_norm, rope on
// partial_rotary_factor of each head (0.5 by default), its pairs half
// a rotation apart; the first first_k_dense_replace layers dense, the
// others routing over n_routed_experts experts of
// moe_intermediate_size rows as DeepSeek-V3 does (sigmoid scores; the
// top num_experts_per_tok of score + e_score_correction_bias chosen,
// weighted by their scores, renormalised under norm_topk_prob, ×
// routed_scaling_factor), plus n_shared_experts shared experts as one
// ungated MLP. Group-limited routing (topk_group < n_group) is
// refused; the multi-token-prediction layers
// (num_nextn_predict_layers) are left unread.
func (s *spec) readGlm4Moe(c *config) {
	s.readCommon(c, 0.5)
	if c.bool("attention_bias", false) {
		s.qkvBias = biasRequired
	}
	s.qkNorm = c.bool("use_qk_norm", false)
	s.allFull()
	s.readSigmoidMoE(c)
	c.used["num_nextn_predict_layers"] = true
}

// readGptOss reads GptOssForCausalLM (gpt-oss): biases on q, k, v and
// the output projection (attention_bias, true as published), a learned
// sink logit a head in each softmax's denominator (self_attn.sinks),
// the layers sliding (sliding_window) or full as layer_types says,
// YaRN; every layer routing over num_local_experts experts of
// intermediate_size rows: the router with a bias, a softmax over the
// top num_experts_per_tok logits, each expert down((up +
// 1)·g·σ(1.702·g)) + b with g and up from gate_up_proj's interleaved
// columns (plus its bias), g ≤ 7 and |up| ≤ 7 (transformers' constant;
// swiglu_limit must say the same).
func (s *spec) readGptOss(c *config) {
	c.setDefault("attention_bias", "true")
	if v, ok := c.raw["intermediate_size"]; ok {
		c.setDefault("moe_intermediate_size", string(v))
	}
	s.readCommon(c, 1.0)
	s.readAttentionBias(c)
	s.oss, s.swigluLimit = true, 7
	if limit := c.float("swiglu_limit", 7); limit != 7 {
		// GptOssExperts clamps at its own 7.0, not at the config's.
		c.fail("field \"swiglu_limit\" = %g is not supported (transformers' gpt-oss clamps at 7 whatever the field says)", limit)
	}
	s.allFull()
	sliding, given := s.slidingTypes(c)
	if c.err != nil {
		return
	}
	if given {
		s.sliding = sliding
	}
	s.readWindow(c)
	s.readMoE(c, false, true)
	c.reject("norm_topk_prob", "true")
	c.used["router_aux_loss_coef"], c.used["output_router_logits"] = true, true
}

// readPhi reads PhiForCausalLM (Phi-1, 1.5 and 2): one LayerNorm with
// a bias (layer_norm_eps) before attention and a gelu_new MLP (fc1,
// fc2) run in parallel, biases on every projection and on the LM head,
// rope on partial_rotary_factor of each head (0.5 by default); the
// dropouts run in training only.
func (s *spec) readPhi(c *config) {
	s.layerNorm, s.normBias, s.parallel, s.plainGelu, s.headBias = true, true, true, true, true
	s.actName, s.blocksFirst = "gelu_new", true
	s.readCommon(c, 0.5)
	s.readLayerNormEps(c, "layer_norm_eps")
	c.reject("qk_layernorm", "false")
	s.qkvBias, s.oBias = biasRequired, biasRequired
	c.used["resid_pdrop"], c.used["embd_pdrop"] = true, true
	s.allFull()
}

// readStableLm reads StableLmForCausalLM, StableLM 2 (and StableLM 3B
// 4E1T): LayerNorms with biases (layer_norm_eps), a SwiGLU MLP, biases
// on q, k and v under use_qkv_bias, per-head q/k LayerNorms (a weight
// a head, no bias) under qk_layernorm, attention and the MLP in
// parallel on one norm under use_parallel_residual, rope on
// partial_rotary_factor of each head (0.25 by default).
func (s *spec) readStableLm(c *config) {
	s.layerNorm, s.normBias = true, true
	s.readCommon(c, 0.25)
	s.readLayerNormEps(c, "layer_norm_eps")
	if c.bool("use_qkv_bias", false) {
		s.qkvBias = biasRequired
	}
	s.qkLayerNorm = c.bool("qk_layernorm", false)
	s.parallel = c.bool("use_parallel_residual", false)
	c.used["hidden_dropout"] = true
	s.allFull()
}

// readGPTNeoX reads GPTNeoXForCausalLM, GPT-NeoX (Pythia): q, k and v
// fused a head at a time (query_key_value), biases on every projection
// (attention_bias, true by default) and on the MLP's (dense_h_to_4h,
// dense_4h_to_h: an erf gelu, no gate), LayerNorms with biases
// (layer_norm_eps) before attention and before the MLP, the two blocks
// in parallel on x under use_parallel_residual (true by default), rope
// on partial_rotary_factor of each head (the first configs'
// rotary_pct, 0.25 by default; their rotary_emb_base is rope_theta).
func (s *spec) readGPTNeoX(c *config) {
	if v, ok := c.raw["rotary_pct"]; ok {
		c.setDefault("partial_rotary_factor", string(v))
	}
	if v, ok := c.raw["rotary_emb_base"]; ok {
		c.setDefault("rope_theta", string(v))
	}
	c.used["rotary_pct"], c.used["rotary_emb_base"] = true, true
	c.setDefault("hidden_act", `"gelu"`)
	s.layerNorm, s.normBias, s.plainGelu, s.erfGelu = true, true, true, true
	s.fusedQKV, s.interleavedQKV = true, true
	s.readCommon(c, 0.25)
	s.readLayerNormEps(c, "layer_norm_eps")
	if s.kvHeads != s.heads {
		c.fail("num_key_value_heads = %d: GPT-NeoX fuses q, k and v a head at a time, so rlx needs num_attention_heads = %d", s.kvHeads, s.heads)
	}
	if c.bool("attention_bias", true) {
		s.qkvBias, s.oBias = biasRequired, biasRequired
	}
	if c.bool("use_parallel_residual", true) {
		s.parallel, s.parallelNorms, s.blocksFirst = true, true, true
	}
	c.used["hidden_dropout"], c.used["classifier_dropout"] = true, true
	s.allFull()
}

// readNemotron reads NemotronForCausalLM, Nemotron (Nemotron-4,
// Minitron): LayerNorm1P (the weight plus 1, with a bias; norm_eps), a
// relu² MLP without a gate (up_proj, down_proj), attention biases
// under attention_bias, rope on partial_rotary_factor of each head
// (0.5 by default).
func (s *spec) readNemotron(c *config) {
	s.layerNorm, s.normBias, s.zeroCentred, s.reluSquared = true, true, true, true
	s.readCommon(c, 0.5)
	s.readLayerNormEps(c, "norm_eps")
	s.readAttentionBias(c)
	c.reject("mlp_bias", "false")
	s.allFull()
}

// readOlmoe reads OlmoeForCausalLM (OLMoE): Llama's pre-norms with
// OLMo 2's q/k norms over the whole projections, and every layer
// routing over num_experts experts of intermediate_size rows (softmax,
// top num_experts_per_tok, renormalised only under norm_topk_prob,
// false by default).
func (s *spec) readOlmoe(c *config) {
	if v, ok := c.raw["intermediate_size"]; ok {
		c.setDefault("moe_intermediate_size", string(v))
	}
	s.readCommon(c, 1.0)
	s.readAttentionBias(c)
	c.reject("clip_qkv", "null")
	s.qkNormWhole = true
	s.allFull()
	s.readMoE(c, false, false)
}

// readSeedOss reads SeedOssForCausalLM (Seed-OSS): Llama with biases
// on q, k and v (attention_bias, true by default) and on the output
// projection only under attention_out_bias (false by default).
func (s *spec) readSeedOss(c *config) {
	c.setDefault("attention_bias", "true")
	s.readCommon(c, 1.0)
	if c.bool("attention_bias", true) {
		s.qkvBias = biasRequired
	}
	if c.bool("attention_out_bias", false) {
		s.oBias = biasRequired
	}
	c.reject("mlp_bias", "false")
	c.used["residual_dropout"] = true // training only
	c.used["pretraining_tp"] = true   // a config field SeedOssForCausalLM never reads
	s.allFull()
}

// readArcee reads ArceeForCausalLM, Arcee (AFM): Llama whose MLP is
// down(relu(up(x))²), no gate.
func (s *spec) readArcee(c *config) {
	s.reluSquared = true
	s.readCommon(c, 1.0)
	s.readAttentionBias(c)
	c.reject("mlp_bias", "false")
	s.allFull()
}

// readErnie45 reads Ernie4_5ForCausalLM, ERNIE 4.5 (the dense 0.3B):
// Llama with rope's pairs adjacent and use_bias putting a bias on
// every projection (false as published).
func (s *spec) readErnie45(c *config) {
	s.readCommon(c, 1.0)
	s.ropeStyle = graph.RopeGPTJ
	if c.bool("use_bias", false) {
		c.fail("field \"use_bias\" = true is not supported (rlx reads ERNIE 4.5 without biases, as it is published)")
	}
	s.allFull()
}

// readErnie45MoE reads Ernie4_5_MoeForCausalLM (ERNIE-4.5-21B-A3B,
// 300B-A47B): ERNIE 4.5's layers (readErnie45) whose MLP, in the layers
// i with (i+1) mod moe_layer_interval = 0 from moe_layer_start_index to
// moe_layer_end_index (−1: the last), routes over moe_num_experts SwiGLU
// experts of moe_intermediate_size rows: the softmax of the router's
// logits, the top moe_k of probability + moe_statics'
// e_score_correction_bias chosen, weighted by their probabilities over
// max(their sum, moe_norm_min); plus moe_num_shared_experts shared
// experts as one ungated MLP.
func (s *spec) readErnie45MoE(c *config) {
	s.readErnie45(c)
	if c.err != nil {
		return
	}
	for new, old := range map[string]string{"moe_num_experts": "num_experts", "moe_k": "num_experts_per_tok"} {
		if v, ok := c.raw[old]; ok {
			c.setDefault(new, string(v))
			c.used[old] = true
		}
	}
	c.used["router_aux_loss_coef"], c.used["output_router_logits"] = true, true // training
	// The Paddle-side fields of the published configs: training capacity,
	// the aux-free bias (the correction bias is read whenever present),
	// multi-token-prediction layers not run.
	for _, f := range []string{"moe_capacity", "moe_use_aux_free", "num_nextn_predict_layers"} {
		c.used[f] = true
	}
	c.reject("moe_gate", `"topk"`)
	c.reject("use_rmsnorm", "true")
	c.reject("is_quantized", "false")
	s.experts, s.topK = c.int("moe_num_experts", 64, false), c.int("moe_k", 6, false)
	s.moeFFN = c.int("moe_intermediate_size", 1536, false)
	s.sharedFFN, s.sharedUngated = s.moeFFN*c.int("moe_num_shared_experts", 2, false), true
	start, interval := c.int("moe_layer_start_index", 1, false), c.int("moe_layer_interval", 1, false)
	end := s.layers - 1
	if v, ok := c.get("moe_layer_end_index"); ok && string(v) != "-1" {
		end = c.int("moe_layer_end_index", end, false)
	}
	s.normTopK, s.selectSoftmax, s.normMin = true, true, c.float("moe_norm_min", 1e-12)
	s.moeLayer = make([]bool, s.layers)
	for i := range s.moeLayer {
		s.moeLayer[i] = interval > 0 && (i+1)%interval == 0 && i >= start && i <= end
	}
	switch {
	case c.err != nil:
	case s.topK < 1 || s.topK > s.experts || s.moeFFN == 0 || interval == 0:
		c.fail("moe_k = %d must be in [1, moe_num_experts = %d], moe_intermediate_size and moe_layer_interval positive", s.topK, s.experts)
	case !(s.normMin >= 0) || math.IsInf(s.normMin, 0):
		c.fail("field \"moe_norm_min\" = %g: rlx needs a finite, non-negative minimum", s.normMin)
	}
}

// readGlm4 reads Glm4ForCausalLM, GLM-4 (0414): RMSNorms before and
// after attention and the MLP (Gemma's four, under GLM's names),
// biases on q, k and v (attention_bias, true by default) but not the
// output projection, a fused gate_up_proj, and rope on the first
// partial_rotary_factor of each head (0.5 by default) with its pairs
// interleaved.
func (s *spec) readGlm4(c *config) {
	c.setDefault("attention_bias", "true")
	s.readCommon(c, 0.5)
	if c.bool("attention_bias", true) {
		s.qkvBias = biasRequired
	}
	s.sandwich, s.fusedGateUp = true, true
	s.ropeStyle = graph.RopeGPTJ
	s.allFull()
}

// readGranite reads GraniteForCausalLM, GraniteMoeForCausalLM and
// GraniteMoeSharedForCausalLM (Llama with IBM's multipliers): the
// embeddings × embedding_multiplier, scores × attention_multiplier
// (not 1/√head_dim), each block's output × residual_multiplier, the
// logits ÷ logits_scaling (all 1 by default, as GraniteConfig's).
// Granite MoE: every layer routes over num_local_experts experts of
// intermediate_size rows (softmax over the top num_experts_per_tok
// logits, i.e. renormalised); Granite MoE Shared adds an ungated
// expert of shared_intermediate_size rows (none where it is 0).
// GraniteMoeHybridForCausalLM (Granite 4.0) is Granite MoE Shared with
// layer_types of "mamba" (Mamba-2 mixers, mamba_* fields) and
// "attention", rope only where position_embedding_type is "rope", and
// with num_local_experts 0 (the dense models) the shared MLP alone.
func (s *spec) readGranite(c *config) {
	moe := s.arch != "GraniteForCausalLM"
	hybrid := s.arch == "GraniteMoeHybridForCausalLM"
	if hybrid && c.int("num_local_experts", 8, false) == 0 {
		// Granite 4.0's dense models: shared_mlp is the MLP (its
		// input_linear [gate; up]); intermediate_size and the routing
		// fields size experts there are none of.
		moe = false
		c.raw["intermediate_size"] = orDefault(c.raw["shared_intermediate_size"], "1024")
		s.fusedGateUp = true
		c.used["num_experts_per_tok"], c.used["shared_intermediate_size"] = true, true
		c.used["output_router_logits"], c.used["router_aux_loss_coef"] = true, true
	}
	if moe {
		if v, ok := c.raw["intermediate_size"]; ok {
			c.setDefault("moe_intermediate_size", string(v))
		}
		if v, ok := c.raw["shared_intermediate_size"]; ok {
			c.setDefault("shared_expert_intermediate_size", string(v))
		}
		c.used["shared_intermediate_size"] = true
		c.used["output_router_logits"], c.used["router_aux_loss_coef"] = true, true
	}
	s.readCommon(c, 1.0)
	s.readAttentionBias(c)
	c.reject("mlp_bias", "false")
	s.allFull()
	if hybrid {
		s.readGraniteHybrid(c)
	}
	if moe {
		shared := (s.arch == "GraniteMoeSharedForCausalLM" || hybrid) && c.int("shared_expert_intermediate_size", 0, false) > 0
		s.readMoE(c, shared, true)
		c.reject("norm_topk_prob", "true")
		s.sharedUngated = true
	}
	mult := func(key string) float64 {
		v := c.float(key, 1)
		if !scaleInRange(v) {
			c.fail("field %q = %g: rlx needs a multiplier in [%g, %g]", key, v, scaleMin, scaleMax)
		}
		return v
	}
	s.embedScale, s.attnScale = mult("embedding_multiplier"), mult("attention_multiplier")
	s.residualScale, s.logitScale = mult("residual_multiplier"), mult("logits_scaling")
}

// readSmolLM3 reads SmolLM3ForCausalLM: Llama's layout with rope left
// out of the NoPE layers, and its own defaults: rope_theta 2·10⁶, a
// tied head, 4 kv heads.
func (s *spec) readSmolLM3(c *config) {
	useWindow := s.takeUseSlidingWindow(c)
	c.setDefault("rope_theta", "2000000")
	c.setDefault("tie_word_embeddings", "true")
	c.setDefault("num_key_value_heads", "4")
	s.readCommon(c, 1.0)
	s.readAttentionBias(c)
	c.reject("mlp_bias", "false")
	c.used["pretraining_tp"] = true // SmolLM3's MLP has no tensor-parallel slicing
	s.readNoRope(c)
	s.readSmolLM3Windows(c, useWindow)
}

// readMistral3 reads Mistral3ForConditionalGeneration (Mistral Small
// 3.1 and later, Ministral 3 and Devstral Small 2 as published): the
// text model under text_config, Mistral's (model_type "mistral", the
// default) or Ministral 3's ("ministral3"), beside a Pixtral vision
// tower.
func (s *spec) readMistral3(c *config) {
	text := s.readMistral
	if tc := c.object("text_config"); tc != nil && string(tc["model_type"]) == `"ministral3"` {
		text = s.readMinistral3
	}
	s.readVisionLanguage(c, text)
}

// ministral3Rope is Ministral3Config's rope_parameters where a config
// gives none: YaRN ×16 over 16384 positions, cos and sin unscaled
// (mscale = mscale_all_dim), q scaled by β 0.1.
const ministral3Rope = `{"type": "yarn", "rope_theta": 1000000.0, "factor": 16.0, "original_max_position_embeddings": 16384,
	"beta_fast": 32.0, "beta_slow": 1.0, "mscale_all_dim": 1.0, "mscale": 1.0, "llama_4_scaling_beta": 0.1}`

// readMinistral3 reads Ministral 3's text model (Ministral3ForCausalLM,
// or model_type "ministral3" under text_config): Mistral whose q, in
// every layer, is scaled after the rope by Llama 4's
// 1 + llama_4_scaling_beta·log(1 + ⌊pos / original_max_position_embeddings⌋),
// both read from rope_parameters as Ministral3Attention reads them
// (readQScaling). Ministral3Config's defaults: the sizes of the 8B,
// head_dim 128 (hidden_size ÷ heads where null), 8 kv heads (as many as
// the heads where null), rms_norm_eps 1e-5, ministral3Rope.
func (s *spec) readMinistral3(c *config) {
	for k, v := range map[string]string{"vocab_size": "131072", "hidden_size": "4096", "intermediate_size": "14336",
		"num_hidden_layers": "34", "num_attention_heads": "32", "rms_norm_eps": "1e-5", "rope_parameters": ministral3Rope} {
		c.setDefault(k, v)
	}
	defaults(c, map[string]string{"head_dim": "128", "num_key_value_heads": "8"}) // null: derived, as Ministral3Config derives them
	s.tempAll = true
	s.readMistral(c)
}

// readMiniMaxM2 reads MiniMaxM2ForCausalLM (MiniMax-M2, M2.1): Llama's
// layout with RMSNorms over the whole q and k projections (FlexOlmo's,
// use_qk_norm "per_layer"), rope on the first rotary_dim of each head
// (or partial_rotary_factor) with its pairs half a rotation apart, and
// every layer routing over num_local_experts SwiGLU experts of
// intermediate_size rows as DeepSeek-V3 does without groups or scale: σ
// of the router's logits, the top num_experts_per_tok of score +
// e_score_correction_bias chosen, their scores renormalised. The
// published configs' multi-token-prediction modules are not run.
func (s *spec) readMiniMaxM2(c *config) {
	if v, ok := c.raw["rotary_dim"]; ok {
		var rot, head, hidden, heads float64
		if json.Unmarshal(orDefault(c.raw["head_dim"], "0"), &head) != nil || head == 0 {
			// head_dim absent: hidden_size ÷ num_attention_heads, as readCommon takes it.
			if json.Unmarshal(orDefault(c.raw["hidden_size"], "0"), &hidden) == nil && json.Unmarshal(orDefault(c.raw["num_attention_heads"], "0"), &heads) == nil && heads > 0 {
				head = float64(int(hidden) / int(heads))
			}
		}
		if json.Unmarshal(v, &rot) == nil && head > 0 {
			c.setDefault("partial_rotary_factor", fmt.Sprint(rot/head))
		}
		c.used["rotary_dim"] = true
	}
	c.setDefault("rope_theta", "5000000")
	s.readCommon(c, 1.0)
	c.reject("attention_bias", "false")
	c.reject("sliding_window", "null")
	c.reject("use_qk_norm", "true")
	c.reject("qk_norm_type", `"per_layer"`)
	c.reject("scoring_func", `"sigmoid"`)
	c.reject("use_routing_bias", "true")
	c.reject("shared_intermediate_size", "0")
	for _, f := range []string{"use_mtp", "num_mtp_modules", "mtp_transformer_layers", "router_aux_loss_coef", "router_jitter_noise", "output_router_logits"} {
		c.used[f] = true // multi-token prediction not run, training set-up
	}
	if v, ok := c.get("attn_type_list"); ok {
		var kinds []int
		if err := json.Unmarshal(v, &kinds); err != nil || slices.ContainsFunc(kinds, func(k int) bool { return k != 1 }) {
			c.fail("field \"attn_type_list\" lists a layer of another kind than 1: rlx implements full attention (1) in every layer only")
		}
	}
	s.qkNormWhole = true
	s.allFull()
	s.experts, s.topK = c.int("num_local_experts", 256, false), c.int("num_experts_per_tok", 8, false)
	s.moeFFN, s.normTopK, s.routedScale, s.sigmoidRouter = s.ffn, true, 1, true
	s.moeLayer = slices.Repeat([]bool{true}, s.layers)
	if c.err == nil && (s.experts == 0 || s.topK < 1 || s.topK > s.experts) {
		c.fail("num_experts_per_tok = %d must be in [1, num_local_experts = %d]", s.topK, s.experts)
	}
}

// readApertus reads ApertusForCausalLM (Apertus, the Swiss AI
// Initiative's): Llama's layout with per-head q/k RMSNorms, the norms
// named attention_layernorm and feedforward_layernorm, and an MLP
// down(xIELU(up(x))) without a gate, xIELU's α_p, α_n, β and ε each
// layer's (mlp.act_fn). ApertusConfig's defaults: rope_theta 1.2·10⁷
// and, where the config gives no rope, Llama 3's scaling (factor 8 of
// 8192 positions, low and high frequency factors 1 and 4).
func (s *spec) readApertus(c *config) {
	c.setDefault("rope_theta", "12000000")
	_, params := c.raw["rope_parameters"]
	_, scaling := c.raw["rope_scaling"]
	if !params && !scaling {
		c.raw["rope_scaling"] = json.RawMessage(`{"rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 8192, "low_freq_factor": 1.0, "high_freq_factor": 4.0}`)
	}
	c.setDefault("hidden_act", `"xielu"`)
	s.xielu = true
	s.readCommon(c, 1.0)
	s.readAttentionBias(c)
	c.reject("mlp_bias", "false")
	s.qkNorm = true
	s.allFull()
}

// readMixtral reads MixtralForCausalLM: Mistral's attention; every
// layer routes over num_local_experts experts of intermediate_size
// rows, the chosen weights always renormalised; router_jitter_noise
// only runs in training.
func (s *spec) readMixtral(c *config) {
	s.readCommon(c, 1.0)
	c.reject("attention_bias", "false")
	s.readWindow(c)
	s.allFull()
	s.experts = c.int("num_local_experts", 0, true)
	s.topK = c.int("num_experts_per_tok", 0, true)
	s.moeFFN, s.normTopK = s.ffn, true
	c.used["router_jitter_noise"] = true
	s.moeLayer = slices.Repeat([]bool{true}, s.layers)
	if c.err == nil && (s.experts == 0 || s.topK < 1 || s.topK > s.experts) {
		c.fail("num_experts_per_tok = %d must be in [1, num_local_experts = %d]", s.topK, s.experts)
	}
}

// readPhi3 reads Phi3ForCausalLM: Llama with fused qkv_proj and
// gate_up_proj, no biases, and Mistral's sliding window; dropout does
// not run at inference, and original_max_position_embeddings only sets
// longrope's scale (rope types other than default and llama3 are
// refused).
func (s *spec) readPhi3(c *config) {
	s.readCommon(c, 1.0)
	c.reject("attention_bias", "false")
	s.readWindow(c)
	c.used["resid_pdrop"], c.used["embd_pdrop"], c.used["original_max_position_embeddings"] = true, true, true
	s.fusedQKV, s.fusedGateUp = true, true
	s.allFull()
}

// readQwen2VL reads Qwen2VLForConditionalGeneration and
// Qwen2_5_VLForConditionalGeneration (Qwen2-VL and Qwen2.5-VL):
// Qwen2's text model, whose M-RoPE rotates text (equal positions in
// its three sections) as plain rope; its fields under text_config
// (transformers 5) or at the top (as first published).
func (s *spec) readQwen2VL(c *config) {
	s.readVisionLanguageOrTop(c, s.readQwen2)
}

// readQwen3VLMoe reads Qwen3VLMoeForConditionalGeneration
// (Qwen3-VL-MoE): Qwen3-VL's text model with Qwen3-MoE's experts,
// fused: as its published files hold them, [E, in, out] (gate_up_proj
// [E, H, 2I], its halves the gate's and up's; down_proj [E, I, H]), or
// as transformers 5 writes them, [E, out, in] (build reads which from
// down_proj's shape).
func (s *spec) readQwen3VLMoe(c *config) {
	s.readVisionLanguage(c, func(tc *config) {
		s.readQwen3(tc)
		s.readMoE(tc, false, false)
	})
}

// readQwen3VL reads Qwen3VLForConditionalGeneration (Qwen3-VL):
// Qwen3's text model, its interleaved M-RoPE plain rope on text;
// DeepStack adds the vision tower's features only at image tokens.
func (s *spec) readQwen3VL(c *config) {
	s.readVisionLanguage(c, s.readQwen3)
}

// readQwen3OrMoe reads Qwen3ForCausalLM and Qwen3MoeForCausalLM.
func (s *spec) readQwen3OrMoe(c *config) {
	s.readQwen3(c)
	if s.arch == "Qwen3MoeForCausalLM" {
		// Routed experts and no shared expert.
		s.readMoE(c, false, false)
	}
}

// readQwen2Moe reads Qwen2MoeForCausalLM: Qwen2's attention (q, k and
// v biases, unless a qkv_bias field says not) and Qwen3-Next's experts
// with a shared expert.
func (s *spec) readQwen2Moe(c *config) {
	useWindow := s.takeUseSlidingWindow(c)
	s.readCommon(c, 1.0)
	c.reject("attention_bias", "false")
	if c.bool("qkv_bias", true) {
		s.qkvBias = biasRequired
	}
	s.readQwenWindows(c, useWindow)
	s.readMoE(c, true, false)
}

// readQwen35 reads Qwen3_5ForCausalLM and Qwen3NextForCausalLM.
func (s *spec) readQwen35(c *config) {
	s.readHybrid(c, s.arch == "Qwen3NextForCausalLM")
}

// readQwen35VL reads Qwen3_5ForConditionalGeneration and
// Qwen3_5MoeForConditionalGeneration.
func (s *spec) readQwen35VL(c *config) {
	s.readVisionLanguage(c, func(tc *config) { s.readHybrid(tc, s.arch == "Qwen3_5MoeForConditionalGeneration") })
}

// readGemma2 reads Gemma2ForCausalLM.
func (s *spec) readGemma2(c *config) {
	s.readGemma(c, 2)
}

// readGemma3VL reads Gemma3ForConditionalGeneration.
func (s *spec) readGemma3VL(c *config) {
	s.readVisionLanguage(c, s.readGemma3)
}

// readLlama4 reads Llama4ForCausalLM (Llama 4's text model): Llama with
// rope's pairs adjacent; the layers moe_layers names (else every
// interleave_moe_layer_step-th) route over num_local_experts experts of
// intermediate_size rows, the top num_experts_per_tok router logits
// chosen and each chosen expert's input × σ(its logit), plus an ungated
// shared expert of intermediate_size rows; the others are dense MLPs of
// intermediate_size_mlp rows. The NoPE layers (no_rope_layers, else every
// no_rope_layer_interval-th) scale q by the temperature tuning
// (attn_temperature_tuning: × log(1 + ⌊(pos+1)/floor_scale⌋)·attn_scale
// + 1); under use_qk_norm the rope layers divide q and k by their RMS
// per head; the chunked layers (layer_types' chunked_attention, else the
// rope layers) attend within chunks of attention_chunk_size positions.
func (s *spec) readLlama4(c *config) {
	s.readCommon(c, 1.0)
	c.reject("attention_bias", "false")
	c.reject("for_llm_compressor", "false")
	c.used["router_jitter_noise"] = true // training only
	s.ropeStyle = graph.RopeGPTJ
	s.allFull()
	s.moeFFN, s.sharedFFN = s.ffn, s.ffn
	s.ffn = c.int("intermediate_size_mlp", 0, true)
	s.experts = c.int("num_local_experts", 0, true)
	s.topK = c.int("num_experts_per_tok", 1, false)
	s.inputRouted, s.sharedUngated = true, true
	s.readNoRope(c)
	s.qkL2Norm = c.bool("use_qk_norm", true)
	if c.err != nil {
		return
	}
	switch {
	case s.ffn == 0:
		c.fail("field \"intermediate_size_mlp\" must be positive")
	case s.experts == 0 || s.topK < 1 || s.topK > s.experts:
		c.fail("num_experts_per_tok = %d must be in [1, num_local_experts = %d]", s.topK, s.experts)
	}
	s.moeLayer = make([]bool, s.layers)
	if routed, given := c.layerSet("moe_layers", s.layers); given {
		if routed == nil {
			return
		}
		s.moeLayer = routed
		c.used["interleave_moe_layer_step"] = true // moe_layers overrides it
	} else {
		step := c.int("interleave_moe_layer_step", 1, false)
		if step == 0 {
			c.fail("field \"interleave_moe_layer_step\" must be positive")
			return
		}
		for i := range s.moeLayer {
			s.moeLayer[i] = (i+1)%step == 0
		}
	}
	if chunked, given := s.typesOf(c, "chunked_attention"); given {
		s.chunked = chunked
	}
	if chunk := c.int("attention_chunk_size", 8192, false); chunk > 0 && chunk < s.maxTokens {
		s.chunk = chunk
	}
	if s.temperatureTuning(c) {
		floor := c.int("floor_scale", 8192, false)
		scale := c.float("attn_scale", 0.1)
		switch {
		case floor == 0:
			c.fail("field \"floor_scale\" must be positive")
		case !scaleInRange(scale):
			c.fail("field \"attn_scale\" = %g: rlx needs a scale in [%g, %g]", scale, scaleMin, scaleMax)
		case floor <= s.maxTokens:
			// Below floor_scale − 1 the factor is 1: none where the
			// cache ends before it.
			s.tempFloor, s.tempScale, s.tempOffset = floor, scale, 1
		}
	}
}

// temperatureTuning reads Llama 4's attn_temperature_tuning: true or
// false, or (as Llama 4's configs are published) a number, on where it is
// not 0.
func (s *spec) temperatureTuning(c *config) bool {
	c.used["floor_scale"], c.used["attn_scale"] = true, true
	v, ok := c.get("attn_temperature_tuning")
	if !ok {
		return true
	}
	var b bool
	if json.Unmarshal(v, &b) == nil {
		return b
	}
	var n float64
	if err := json.Unmarshal(v, &n); err != nil {
		c.fail("field \"attn_temperature_tuning\" = %s is not true, false or a number", v)
		return false
	}
	return n != 0
}

// readLlama4VL reads Llama4ForConditionalGeneration (Llama 4 as
// published): the text model's fields under text_config.
func (s *spec) readLlama4VL(c *config) { s.readVisionLanguage(c, s.readLlama4) }

// readDeepseekV3 reads DeepseekV3ForCausalLM (DeepSeek-V3 and R1 in
// bf16, Kimi K2, Moonlight): multi-head latent attention (q from q_proj
// where q_lora_rank is null, else through q_a_proj, its norm and
// q_b_proj; kv_a_proj_with_mqa's latent of kv_lora_rank, its norm, and
// kv_b_proj's qk_nope_head_dim k and v_head_dim v rows a head; the
// qk_rope_head_dim rope dims of q and of one k shared by the heads, their
// pairs adjacent under rope_interleave; readLatent), GLM-4.5's experts
// (readSigmoidMoE) with group-limited routing; transformers' defaults
// where a field is absent. The multi-token-prediction layers
// (num_nextn_predict_layers) are left unread.
func (s *spec) readDeepseekV3(c *config) {
	defaults(c, map[string]string{"n_group": "8", "topk_group": "4", "first_k_dense_replace": "3", "n_shared_experts": "1",
		"routed_scaling_factor": "2.5", "norm_topk_prob": "true", "n_routed_experts": "256", "num_experts_per_tok": "8",
		"moe_intermediate_size": "2048"})
	s.readLatent(c, func() {
		if !c.bool("rope_interleave", true) {
			s.ropeStyle = graph.RopeNeoX
		}
		s.readSigmoidMoE(c)
	})
}

// readDeepseekV2 reads DeepseekV2ForCausalLM (DeepSeek-V2, V2-Lite,
// V2.5, DeepSeek-Coder-V2) as transformers 5 does: readDeepseekV3's
// latent attention (readLatent) with rope's pairs adjacent; the layers from first_k_dense_replace on route
// over n_routed_experts experts of moe_intermediate_size rows: a
// softmax over the router's logits (float32), the top
// num_experts_per_tok probabilities (topk_method greedy) or those in the
// topk_group of n_group groups whose best probability is highest
// (group_limited_greedy; the others set to 0), × routed_scaling_factor,
// never renormalised (transformers keeps norm_topk_prob unread), plus
// n_shared_experts shared experts as one ungated MLP.
func (s *spec) readDeepseekV2(c *config) {
	defaults(c, map[string]string{"first_k_dense_replace": "0", "n_shared_experts": "2", "routed_scaling_factor": "1",
		"n_routed_experts": "64", "moe_intermediate_size": "1407", "topk_method": `"greedy"`})
	s.readLatent(c, func() {
		c.used["norm_topk_prob"] = true // transformers' V2 never renormalises
		c.reject("mlp_bias", "false")   // DeepseekV2Config is a LlamaConfig
		c.reject("scoring_func", `"softmax"`)
		method := c.str("topk_method", "greedy")
		s.readDeepseekMoE(c, false)
		switch {
		case c.err != nil:
		case method == "greedy":
			c.used["n_group"], c.used["topk_group"] = true, true
		case method == "group_limited_greedy":
			if bad := s.setGroups("n_group", "topk_group", c.int("n_group", 0, true), c.int("topk_group", 0, true), true); c.err == nil && bad != "" {
				c.fail("%s", bad)
			}
		default:
			c.fail("field \"topk_method\" = %q is not supported (rlx implements \"greedy\" and \"group_limited_greedy\")", method)
		}
	})
}

// defaults gives c's absent fields the values of defs (raw JSON): the
// defaults transformers' config class takes for them.
func defaults(c *config, defs map[string]string) {
	for key, def := range defs {
		if _, ok := c.raw[key]; !ok {
			c.raw[key] = json.RawMessage(def)
		}
	}
}

// readLatent reads DeepSeek's multi-head latent attention (spec.mla),
// its scores × (qk_nope_head_dim + qk_rope_head_dim)^−½ and, under a
// scaled rope with mscale_all_dim, × YaRN's mscale² (V2 and V3 alike:
// transformers 5.17's deepseek_v2 fixture disagrees by 7% without it),
// and the rest of the decoder through readCommon, rope's pairs
// adjacent; readMoE reads the experts (and may change the rope's style).
func (s *spec) readLatent(c *config, readMoE func()) {
	defaults(c, map[string]string{"qk_rope_head_dim": "64", "qk_nope_head_dim": "128", "v_head_dim": "128", "kv_lora_rank": "512"})
	m := mla{rope: c.int("qk_rope_head_dim", 0, true), nope: c.int("qk_nope_head_dim", 0, true), vDim: c.int("v_head_dim", 0, true),
		kvLora: c.int("kv_lora_rank", 0, true), qLora: 1536}
	if _, given := c.raw["q_lora_rank"]; given {
		m.qLora = c.int("q_lora_rank", 0, false) // null: q_proj
	}
	if c.err != nil {
		return
	}
	c.setDefault("head_dim", fmt.Sprint(m.rope)) // transformers rotates head_dim = qk_rope_head_dim dims
	s.readCommon(c, 1.0)
	c.reject("attention_bias", "false")
	c.reject("moe_layer_freq", "1")
	c.used["num_nextn_predict_layers"], c.used["ep_size"], c.used["aux_loss_alpha"], c.used["seq_aux"] = true, true, true, true
	c.used["pretraining_tp"] = true
	s.ropeStyle = graph.RopeGPTJ
	s.allFull()
	readMoE()
	if c.err != nil {
		return
	}
	qd := c.int("qk_head_dim", m.nope+m.rope, false) // transformers 5 writes the sum
	switch {
	case s.headDim != m.rope:
		c.fail("head_dim = %d differs from qk_rope_head_dim = %d", s.headDim, m.rope)
	case qd != m.nope+m.rope:
		c.fail("qk_head_dim = %d is not qk_nope_head_dim + qk_rope_head_dim = %d", qd, m.nope+m.rope)
	case m.nope == 0 || m.vDim == 0 || m.kvLora == 0:
		// (readRope has refused an odd or short qk_rope_head_dim.)
		c.fail("qk_nope_head_dim = %d, v_head_dim = %d, kv_lora_rank = %d: rlx needs them positive", m.nope, m.vDim, m.kvLora)
	}
	s.mla = m
	mult := deepseekMscale(c)
	s.attnScale = mult * mult / math.Sqrt(float64(m.nope+m.rope))
}

// deepseekMscale is DeepSeek's yarn_get_mscale(factor, mscale_all_dim)
// of a rope scaled by factor: 0.1·mscale_all_dim·ln factor + 1 (1 where
// the rope is not scaled, factor ≤ 1 or mscale_all_dim is 0 or absent).
func deepseekMscale(c *config) float64 {
	params := c.object("rope_parameters")
	if params == nil {
		params = c.object("rope_scaling")
	}
	sub := &config{path: c.path + " (rope_parameters)", raw: params, used: map[string]bool{}}
	if kind := sub.str("rope_type", sub.str("type", "default")); params == nil || kind == "default" {
		return 1
	}
	return yarnMscale(sub.float("factor", 0), sub.float("mscale_all_dim", 0))
}
