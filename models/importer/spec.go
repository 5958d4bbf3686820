package importer

import (
	"fmt"
	"math"
	"slices"

	"github.com/rlx-compiler/rlx/dialect/graph"
)

// Layer kinds, as Hugging Face's layer_types names them.
const (
	fullAttention   = "full_attention"
	linearAttention = "linear_attention"
	shortConvLayer  = "conv" // LFM2's gated short convolution
)

// Bounds on what a config.json or GGUF metadata may ask for, checked as
// each field is read, before anything is allocated from it: a size
// beyond maxSize, or a layer count beyond maxLayers, is refused as not
// describing a model (the largest checkpoints have vocabularies of a few
// hundred thousand and a few hundred layers).
const (
	maxSize   = 1 << 24
	maxLayers = 1 << 16
)

// spec is a model resolved from a config.json or GGUF metadata: every size
// and every choice the graph depends on, independent of where the tensors
// come from (names says that).
type spec struct {
	arch string // the checkpoint's architecture name, for messages

	hidden, layers, vocab   int
	heads, kvHeads, headDim int
	ffn                     int
	eps                     float64
	tied                    bool
	layerTypes              []string // per layer: fullAttention, linearAttention, shortConvLayer or mambaLayer
	qkNorm                  bool     // per-head RMSNorm of q and k (Qwen3 and later)
	gatedAttention          bool     // q_proj holds [q ‖ gate] per head; output · sigmoid(gate)
	zeroCentred             bool     // norms scale by 1 + w (Qwen3.5, Qwen3-Next in HF form)
	rotaryDim               int
	theta                   float64   // rope base
	invFreq                 []float64 // rotaryDim/2 inverse frequencies
	longInvFreq             []float64 // LongRoPE: the frequencies of positions from longFrom on (nil: none)
	longFrom                int       // LongRoPE: original_max_position_embeddings
	ropeAttn                float64   // YaRN's and LongRoPE's factor on cos and sin (0: none)
	ropeStyle               graph.RopeStyle

	qkvBias, oBias        biasRule // biases of the q, k, v and of the output projection
	fusedQKV, fusedGateUp bool     // Phi-3's qkv_proj and gate_up_proj

	convKernel                 int  // gated DeltaNet
	keyHeads, valueHeads, gdn  int  // H_k, H_v, head size N (key = value size)
	vTiled                     bool // value heads in llama.cpp's tiled order
	aIsLog                     bool // the decay parameter is A_log (HF), not −exp(A_log) (GGUF)
	fusedQKVZ                  bool // Qwen3-Next's in_proj_qkvz (HF); else separate qkv and z
	fusedBA                    bool // Qwen3-Next's fused β/α projection; else separate
	kda                        bool // Kimi Linear: the linear-attention layers are Kimi delta attention (kimiDelta)
	experts, topK              int  // mixture of experts (0: none)
	moeFFN, sharedFFN          int  // sharedFFN 0: no shared expert
	normTopK                   bool
	sharedUngated              bool    // Granite MoE: the shared expert's output added as it is (no sigmoid gate)
	moeLatent                  int     // Nemotron 3: the routed experts run in a latent of this width (fc1_latent_proj, fc2_latent_proj; 0: none)
	parallelSSM                bool    // Falcon-H1: every layer's attention and Mamba-2 mixer side by side on one norm, summed
	attnInScale, attnOutScale  float64 // Falcon-H1: the attention's input and output × these (0: none)
	mlpGateScale, mlpDownScale float64 // Falcon-H1: the MLP's gate output before its activation, and its output, × these (0: none)
	expertsInOut               bool    // the fused experts are [E, in, out] (gate_up_proj [E, H, 2I], down_proj [E, I, H]: Qwen3-VL-MoE and Llama 4 as published); set by build from the tensors
	sigmoidRouter              bool    // GLM-4.5 (DeepSeek-V3's routing): sigmoid scores, chosen by score + a selection bias, weighted by score
	routedScale                float64 // sigmoidRouter: the chosen weights × this (routed_scaling_factor)
	noSelectBias               bool    // sigmoidRouter, selectSoftmax: no selection bias (LFM2-MoE without use_expert_bias; a GGUF file without exp_probs_b)
	selectSoftmax              bool    // ERNIE 4.5: the softmax's top k of probability + a selection bias chosen, weighted by probability / max(Σ, normMin)
	normMin                    float64 // selectSoftmax: the renormalisation's least divisor (moe_norm_min)
	routeEps                   float64 // sigmoidRouter: the renormalisation's epsilon (0: DeepSeek-V3's 1e-20; LFM2-MoE's 1e-6)
	groups, openGroups         int     // DeepSeek's group-limited routing: experts chosen only from the openGroups of groups equal groups ranked highest (V3: by their two best choice scores' sum), the others' scores set to 0 (0: none)
	groupByMax                 bool    // DeepSeek-V2's group_limited_greedy: a group ranks by its best probability
	oss                        bool    // gpt-oss: attention sinks, a router bias, experts of interleaved gate/up [E, H, 2I] with biases and a clamped swiglu
	swigluLimit                float64 // gpt-oss: the clamp of the experts' gate (above) and up (both sides)
	moeLayer                   []bool  // per layer: routed experts instead of a dense MLP
	maxTokens                  int
	window                     int          // the sliding layers' window (0: none, or one covering the cache); setWindow
	sliding                    []bool       // per layer: attends through the window (and Gemma's local rope); nil: every layer
	noRope                     []bool       // per layer: no rope (SmolLM3's NoPE layers); nil: rope in every layer
	postNorms                  bool         // OLMo 2: RMSNorm after attention and after the MLP only (no norm before them)
	qkNormWhole                bool         // OLMo 2: q and k RMSNorms over the whole projection, before the heads split
	layerNorm                  bool         // Cohere: the hidden norms are LayerNorms (mean subtracted) without a bias
	parallel                   bool         // Cohere: attention and the MLP read one norm of x, both added to it
	logitMul                   float64      // Cohere: logits × this (logit_scale); 0: none
	shortConv                  int          // LFM2: the short convolution's window (conv_L_cache)
	reluSquared                bool         // Arcee: the MLP is down(relu(up(x))²), no gate
	xielu                      bool         // Apertus: the MLP is down(xIELU(up(x))), no gate, xIELU's parameters each layer's
	xieluParams                [][4]float64 // Apertus in GGUF: each layer's xIELU α_p, α_n, β, ε from the metadata (nil: the checkpoint's tensors)
	normBias                   bool         // StarCoder2: the LayerNorms add a bias (the weight's name with .bias)
	plainGelu                  bool         // StarCoder2: the MLP is down(gelu_tanh(up(x) + b) ) + b, no gate
	erfGelu                    bool         // GPT-NeoX: plainGelu's gelu is erf's, not tanh's
	actName                    string       // the config's hidden_act where it is not mlpActivation's usual name (Phi's gelu_new)
	headBias                   bool         // Phi-2: the LM head adds a bias (the head's name with .bias)
	parallelNorms              bool         // GPT-NeoX: parallel, but the MLP reads its own norm of x (roleFFNNorm)
	blocksFirst                bool         // Phi-2, GPT-NeoX: the parallel blocks' outputs are added together, then to x
	interleavedQKV             bool         // GPT-NeoX: the fused q/k/v rows are [q_h; k_h; v_h] per head (HF), not [q; k; v]
	qkLayerNorm                bool         // StableLM, Command R+: per-head q/k LayerNorms without a bias, a weight per head ([heads, head_dim])
	q6Columns                  bool         // Options.Q6KColumns
	gemma
	llama4
	mla
	stateSpace
	zamba zamba
}

// badNumbers says what is wrong with the spec's real-valued fields, or ""
// when they describe a model: a rope base above 1 (1/base^(2i/d) is then a
// finite frequency in (0, 1]) and a non-negative norm epsilon, both
// finite. The names are those of the file's fields.
func (s *spec) badNumbers(theta, eps string) string {
	switch {
	case !(s.theta > 1) || math.IsInf(s.theta, 0):
		return fmt.Sprintf("%s = %g: rlx needs a finite rope base above 1", theta, s.theta)
	case !(s.eps >= 0) || math.IsInf(s.eps, 0):
		return fmt.Sprintf("%s = %g: rlx needs a finite, non-negative epsilon", eps, s.eps)
	}
	return ""
}

// gemma is what Gemma 3 adds to the Llama layout.
type gemma struct {
	localInvFreq []float64 // the sliding layers' rope frequencies (rope_local_base_freq)
	embedScale   float64   // input embeddings × this (√hidden); 0: none
	embedRound   bool      // the factor rounded to the table's type first (transformers; llama.cpp scales in f32)
	sandwich     bool      // norms after attention and after the MLP, and a pre-MLP norm
	geluTanh     bool      // the MLP's activation: gelu_tanh instead of silu
	attnScale    float64   // attention scores × this (query_pre_attn_scalar^−½); 0: 1/√head_dim
	attnSoftcap  float64   // Gemma 2: scores → cap·tanh(scores/cap); 0: none
	finalSoftcap float64   // Gemma 2: logits → cap·tanh(logits/cap); 0: none
	// Granite's multipliers (with embedScale and attnScale above).
	residualScale float64 // each block's output × this before the residual add; 0: none
	logitScale    float64 // logits ÷ this; 0: none
}

// llama4 is what Llama 4 adds to the Llama layout.
type llama4 struct {
	qkL2Norm bool // the rope layers' q and k divided by their RMS per head (no weight), after the rope
	// chunk: the chunked layers (chunked, nil: every rope layer) attend
	// to the positions of their own chunk of this many, up to pos; 0
	// where a chunk covers the cache.
	chunk   int
	chunked []bool
	// tempFloor: the NoPE layers' q × (log(1 + ⌊(pos+tempOffset)/
	// tempFloor⌋)·tempScale + 1), the temperature tuning (Llama 4's,
	// tempOffset 1); 0: none. tempAll: every layer's q, after the rope
	// (Ministral 3's llama_4_scaling_beta, tempOffset 0).
	tempFloor  int
	tempScale  float64
	tempOffset int
	tempAll    bool
	// inputRouted: each chosen expert's input is h × σ(its router
	// logit), the experts' outputs summed unweighted (the shared expert
	// is sharedUngated).
	inputRouted bool
}

// mla is DeepSeek's multi-head latent attention: q from h (or through a
// rank-qLora LoRA with its RMSNorm), and from a latent of kvLora (its
// RMSNorm) each head's k (nope dims) and v (vDim), the rope dims of k
// one for all heads. The cache holds the latent and k's rope dims;
// attention runs on them with q's nope dims taken through each head's
// k map (kv_b_proj's k rows), and each head's output through its v map.
type mla struct {
	kvLora, qLora    int
	nope, rope, vDim int
}

// chunkedLayer reports whether layer i attends within its chunk.
func (s *spec) chunkedLayer(i int) bool {
	return s.chunk > 0 && (s.chunked == nil && s.ropeLayer(i) || s.chunked != nil && s.chunked[i])
}

// slidingEvery is Gemma's pattern of sliding layers: every layer but each
// globalEvery-th (none slides where globalEvery is 0).
func slidingEvery(layers, globalEvery int) []bool {
	sliding := make([]bool, layers)
	for i := range sliding {
		sliding[i] = globalEvery > 0 && (i+1)%globalEvery != 0
	}
	return sliding
}

// globalNoPE is the NoPE layers of a model whose global layers take no
// rope (EXAONE 4's, Cohere 2's): every layer that does not slide.
func globalNoPE(sliding []bool) []bool {
	noRope := make([]bool, len(sliding))
	for i, slides := range sliding {
		noRope[i] = !slides
	}
	return noRope
}

// mlpActivation is the config's hidden_act the MLP the spec builds
// computes: StarCoder2's gate-less gelu_pytorch_tanh, Arcee's relu²,
// else SwiGLU's silu (Gemma's is read from hidden_activation).
func (s *spec) mlpActivation() string {
	switch {
	case s.actName != "":
		return s.actName
	case s.plainGelu && s.erfGelu:
		return "gelu"
	case s.plainGelu:
		return "gelu_pytorch_tanh"
	case s.reluSquared:
		return "relu2"
	case s.xielu:
		return "xielu"
	}
	return "silu"
}

// setWindow takes a sliding window of w tokens; one at least the cache's
// length masks nothing and is dropped.
func (s *spec) setWindow(w int) {
	if w > 0 && w < s.maxTokens {
		s.window = w
	}
}

// slidingLayer reports whether layer i attends through the sliding
// window and its local rope.
func (s *spec) slidingLayer(i int) bool {
	return s.sliding == nil || s.sliding[i]
}

// biasRule says whether a projection adds a bias.
type biasRule int

const (
	noBias        biasRule = iota
	biasRequired           // the checkpoint must hold it (transformers' Qwen2, attention_bias)
	biasIfPresent          // added where the checkpoint holds it (llama.cpp's llama)
)

func (s *spec) attention(layer int) bool { return s.layerTypes[layer] == fullAttention }

// anyAttention says whether some layer attends (Mamba2ForCausalLM's do
// not: no rope tables, no cache).
func (s *spec) anyAttention() bool {
	return slices.Contains(s.layerTypes, fullAttention) || slices.Contains(s.layerTypes, zambaHybrid)
}

// ropeLayer says whether an attention layer rotates q and k.
func (s *spec) ropeLayer(i int) bool { return s.noRope == nil || !s.noRope[i] }

// convDim is the channel count of the DeltaNet's causal conv: q, k and v.
func (s *spec) convDim() int { return 2*s.keyHeads*s.gdn + s.valueHeads*s.gdn }
