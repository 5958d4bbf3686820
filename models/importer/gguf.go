package importer

import (
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
	"github.com/rlx-compiler/rlx/runtime/weights"
)

// GGUFArchitectures lists the general.architecture values the importer
// reads: llama.cpp's names for its architectures (Mistral's files are
// "llama").
func GGUFArchitectures() []string {
	return []string{"gemma2", "gemma3", "llama", "phi3", "qwen2", "qwen2moe", "qwen3", "qwen3moe", "qwen35", "qwen35moe", "qwen3next", "smollm3", "granite", "olmo2", "glm4", "exaone4", "ernie4_5", "command-r", "cohere2", "qwen2vl", "qwen3vl", "lfm2", "olmoe", "seed_oss", "arcee", "starcoder2", "phi2", "stablelm", "gptneox", "nemotron", "granitemoe", "gemma", "glm4moe", "qwen3vlmoe", "gpt-oss"}
}

// ggufKeys are the {arch}.* metadata keys the importer reads or knows to
// leave the decode step unchanged; any other {arch}.* key is refused.
var ggufKeys = []string{
	"context_length", "embedding_length", "block_count", "feed_forward_length", "vocab_size",
	"attention.head_count", "attention.head_count_kv", "attention.key_length", "attention.value_length",
	"attention.layer_norm_rms_epsilon", "attention.layer_norm_epsilon", "rope.freq_base", "rope.dimension_count", "rope.dimension_sections",
	"expert_count", "expert_used_count", "expert_feed_forward_length", "expert_shared_feed_forward_length",
	"expert_weights_norm", "expert_gating_func",
	"ssm.conv_kernel", "ssm.state_size", "ssm.group_count", "ssm.time_step_rank", "ssm.inner_size",
	"full_attention_interval", "rope.scaling.type", "rope.scaling.factor",
	"attention.sliding_window",             // a mask of the cache's rows where shorter than the cache
	"attention.sliding_window_pattern",     // gemma3, olmo2: every n-th layer global (llama.cpp's defaults 6, 4)
	"rope.freq_base_swa",                   // gemma3, olmo2: the sliding layers' rope base (defaults 10⁴, rope.freq_base)
	"rope.scaling.original_context_length", // phi3: LongRoPE's original context; YaRN's
	"rope.scaling.attn_factor",             // phi3: LongRoPE's factor on cos and sin; YaRN's, times its own
	"rope.scaling.yarn_beta_fast",          // YaRN's ramp (default 32)
	"rope.scaling.yarn_beta_slow",          // YaRN's ramp (default 1)
	"rope.scaling.yarn_ext_factor",         // YaRN's ramp's weight (default 1)
	"rope.scaling.yarn_attn_factor",        // YaRN's factor on cos and sin where ext_factor is 0
	"rope.scaling.yarn_log_multiplier",     // DeepSeek's YaRN (refused unless 0)
	"rope.scaling.finetuned",               // informational
	"attn_logit_softcapping",               // gemma2: scores → cap·tanh(scores/cap) (default 50)
	"final_logit_softcapping",              // gemma2: logits → cap·tanh(logits/cap) (default 30)
	"embedding_scale",                      // granite: the embeddings × this (none when absent)
	"residual_scale",                       // granite: each block's output × this
	"attention.scale",                      // granite: scores × this (1/√head_dim when absent)
	"logit_scale",                          // granite: the logits ÷ this; command-r, cohere2: × this
	"n_deepstack_layers",                   // qwen3vl, qwen3vlmoe: the vision tower's features added to early layers at image tokens
	"shortconv.l_cache",                    // lfm2: the short convolution's window
	"use_parallel_residual",                // gptneox: the two blocks in parallel (true when absent)
	"expert_shared_count",                  // glm4moe: shared experts, one MLP of this many times expert_feed_forward_length
	"leading_dense_block_count",            // glm4moe: the first blocks dense
	"expert_weights_scale",                 // glm4moe: the chosen weights × this
	"nextn_predict_layers",                 // glm4moe: multi-token-prediction blocks at the end of block_count, not run
}

// ImportGGUF imports a llama.cpp GGUF file. Its tensors are read as
// llama.cpp's converter wrote them: Llama's q and k rows (and their
// biases) permuted for adjacent-pair rope, norms of the
// Qwen3.5/Qwen3-Next families with 1 already added, ssm_a = −exp(A_log),
// Qwen3.5's value heads in tiled order; quantised weights (q4_0, q8_0,
// q4_k, q6_k) stay quantised and run through graph.dequant_matmul.
func ImportGGUF(ctx *ir.Context, path string, opts Options) (*Model, error) {
	mt, err := opts.maxTokens()
	if err != nil {
		return nil, err
	}
	if head, ok := gguf.Sniff(path); !ok {
		if _, err := os.Stat(path); err != nil {
			return nil, err
		}
		what := "the file is empty"
		if len(head) > 0 {
			what = fmt.Sprintf("it starts %q, not GGUF's magic \"GGUF\"", head)
		}
		return nil, fmt.Errorf("%s: neither a checkpoint directory (config.json and safetensors files) nor a GGUF file (%s)", path, what)
	}
	src, err := weights.Open(path)
	if err != nil {
		return nil, err
	}
	s, n, err := specFromGGUF(src, mt)
	if err != nil {
		src.Close()
		return nil, err
	}
	s.q6Columns = opts.Q6KColumns
	return finish(ctx, s, n, src)
}

// ggufMeta reads metadata with the file's name in every error.
type ggufMeta struct {
	f    *gguf.File
	arch string
	err  error
}

func (m *ggufMeta) fail(format string, args ...any) {
	if m.err == nil {
		m.err = fmt.Errorf("%s: "+format, append([]any{m.f.Name}, args...)...)
	}
}

func (m *ggufMeta) key(k string) string { return m.arch + "." + k }

func (m *ggufMeta) has(k string) bool {
	_, ok := m.f.Get(m.key(k))
	return ok
}

func (m *ggufMeta) uint(k string, def int, required bool) int {
	if !m.has(k) {
		if required {
			m.fail("missing metadata key %s", m.key(k))
		}
		return def
	}
	v, err := m.f.Uint(m.key(k))
	if err != nil {
		if m.err == nil {
			m.err = err
		}
		return def
	}
	if v > maxSize {
		m.fail("metadata key %s = %d is larger than rlx reads (%d)", m.key(k), v, maxSize)
		return def
	}
	return int(v)
}

// uintOrMax reads a per-layer key that may be a scalar or an array (one
// value per layer, 0 for recurrent layers): the largest value.
func (m *ggufMeta) uintOrMax(k string, def int) int {
	v, ok := m.f.Get(m.key(k))
	if !ok {
		return def
	}
	if _, isArr := v.([]any); !isArr {
		return m.uint(k, def, false)
	}
	vals, ok := m.perLayer(k)
	if !ok {
		return def
	}
	best := 0
	for _, n := range vals {
		best = max(best, n)
	}
	return best
}

// perLayer reads a key holding an array of integers, one a layer, each
// in [0, maxSize]; false (the first error recorded) where it is missing,
// not such an array, or holds another value.
func (m *ggufMeta) perLayer(k string) ([]int, bool) {
	v, _ := m.f.Get(m.key(k))
	arr, isArr := v.([]any)
	if !isArr {
		m.fail("metadata key %s is not an array of integers, one a layer", m.key(k))
		return nil, false
	}
	vals := make([]int, len(arr))
	for i, x := range arr {
		var n float64
		switch y := x.(type) {
		case uint32:
			n = float64(y)
		case int32:
			n = float64(y)
		case uint64:
			n = float64(y)
		default:
			m.fail("metadata key %s holds %T values, want integers", m.key(k), x)
			return nil, false
		}
		if n < 0 || n > maxSize {
			m.fail("metadata key %s holds %g, want an integer in [0, %d]", m.key(k), n, maxSize)
			return nil, false
		}
		vals[i] = int(n)
	}
	return vals, true
}

func (m *ggufMeta) float(k string, def float64) float64 {
	if !m.has(k) {
		return def
	}
	v, err := m.f.Float(m.key(k))
	if err != nil && m.err == nil {
		m.err = err
	}
	return v
}

// readSigmoidMoE reads glm4moe's experts: expert_count experts of
// expert_feed_forward_length rows from leading_dense_block_count on,
// expert_used_count chosen by sigmoid scores (expert_gating_func 2) plus
// the selection bias, renormalised under expert_weights_norm (false when
// absent, as llama.cpp), × expert_weights_scale (1 when absent), and
// expert_shared_count shared experts.
func (m *ggufMeta) readSigmoidMoE(s *spec) {
	norm := false
	if v, ok := m.f.Get(m.key("expert_weights_norm")); ok {
		norm = v == true
	}
	if g := m.uint("expert_gating_func", 0, true); g != 2 {
		m.fail("%s = %d is not supported for %s (rlx implements 2, sigmoid)", m.key("expert_gating_func"), g, m.arch)
	}
	bad := s.setSigmoidMoE(m.uint("expert_count", 0, true), m.uint("expert_used_count", 0, true), m.uint("expert_feed_forward_length", 0, true),
		m.uint("expert_shared_count", 0, false), m.uint("leading_dense_block_count", 0, false), norm, m.float("expert_weights_scale", 1))
	if bad != "" {
		m.fail("expert_count, expert_used_count, expert_feed_forward_length, expert_weights_scale: %s", bad)
	}
}

// readLayerNormEps reads the LayerNorms' epsilon
// (attention.layer_norm_epsilon, 1e-5 where absent): finite and
// non-negative.
func (m *ggufMeta) readLayerNormEps(s *spec) {
	s.eps = m.float("attention.layer_norm_epsilon", 1e-5)
	if !(s.eps >= 0) || math.IsInf(s.eps, 0) {
		m.fail("%s = %g: rlx needs a finite, non-negative epsilon", m.key("attention.layer_norm_epsilon"), s.eps)
	}
}

// readMoE reads the experts of every layer (llama.cpp's qwen2moe and
// qwen3next with a shared expert, qwen3moe and llama's Mixtral without):
// softmax gating, the chosen weights renormalised as expert_weights_norm
// says, or as llama.cpp's builder of the architecture does without it
// (norm: all but qwen2moe).
func (m *ggufMeta) readMoE(s *spec, shared, norm bool) {
	s.experts = m.uint("expert_count", 0, false)
	s.topK = m.uint("expert_used_count", 0, false)
	s.moeFFN = m.uint("expert_feed_forward_length", s.ffn, false) // llama's experts (Mixtral): feed_forward_length
	if shared {
		s.sharedFFN = m.uint("expert_shared_feed_forward_length", 0, false)
	}
	s.normTopK = norm
	if v, ok := m.f.Get(m.key("expert_weights_norm")); ok {
		s.normTopK = v == true
	}
	if g := m.uint("expert_gating_func", 1, false); g != 1 {
		m.fail("%s = %d is not supported (rlx implements 1, softmax)", m.key("expert_gating_func"), g)
	}
	s.moeLayer = slices.Repeat([]bool{s.experts > 0}, s.layers)
	if s.experts > 0 && (s.topK < 1 || s.topK > s.experts || s.moeFFN == 0 || (shared && s.sharedFFN == 0)) {
		m.fail("expert_used_count %d must be in [1, expert_count %d], with positive expert feed-forward lengths", s.topK, s.experts)
	}
}

func specFromGGUF(src *weights.Source, maxTokens int) (*spec, naming, error) {
	f := src.GGUF
	arch, err := f.String("general.architecture")
	if err != nil {
		return nil, naming{}, err
	}
	if !slices.Contains(GGUFArchitectures(), arch) {
		return nil, naming{}, fmt.Errorf("%s: general.architecture %q is not supported (rlx imports %s)", f.Name, arch, strings.Join(GGUFArchitectures(), ", "))
	}
	m := &ggufMeta{f: f, arch: arch}
	var unknown []string
	for _, kv := range f.KV {
		if k, ok := strings.CutPrefix(kv.Key, arch+"."); ok && !slices.Contains(ggufKeys, k) {
			unknown = append(unknown, kv.Key)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, naming{}, fmt.Errorf("%s: metadata key %s is not supported (rlx does not know what it changes)", f.Name, unknown[0])
	}
	s := &spec{arch: arch, maxTokens: maxTokens, ropeStyle: graph.RopeNeoX}
	s.hidden = m.uint("embedding_length", 0, true)
	s.layers = m.uint("block_count", 0, true)
	if s.layers > maxLayers {
		m.fail("metadata key %s = %d is more layers than rlx reads (%d)", m.key("block_count"), s.layers, maxLayers)
	}
	s.heads = m.uint("attention.head_count", 0, true)
	s.kvHeads = m.uintOrMax("attention.head_count_kv", s.heads)
	s.ffn = m.uintOrMax("feed_forward_length", 0)
	s.eps = m.float("attention.layer_norm_rms_epsilon", 1e-6)
	if m.err != nil {
		return nil, naming{}, m.err
	}
	if s.hidden == 0 || s.layers == 0 || s.heads == 0 || s.kvHeads == 0 || s.heads%s.kvHeads != 0 {
		return nil, naming{}, fmt.Errorf("%s: embedding_length, block_count and head counts must be positive, head_count a multiple of head_count_kv (got %d, %d, %d, %d)", f.Name, s.hidden, s.layers, s.heads, s.kvHeads)
	}
	s.headDim = m.uint("attention.key_length", s.hidden/s.heads, false)
	if vl := m.uint("attention.value_length", s.headDim, false); vl != s.headDim {
		m.fail("%s = %d differs from %s = %d; rlx needs equal key and value heads", m.key("attention.value_length"), vl, m.key("attention.key_length"), s.headDim)
	}
	s.setWindow(m.uint("attention.sliding_window", 0, false)) // phi3's, gemma2's, gemma3's; llama.cpp's llama files carry none
	scaling, _ := f.String(m.key("rope.scaling.type"))
	switch scaling {
	case "", "none", "linear", "yarn":
	case "longrope":
		// convert_hf_to_gguf's TextModel names it; the factors are
		// Phi-3's tensors (readLongRope).
		if _, ok := src.Info("rope_factors_long.weight"); !ok {
			m.fail("%s = %q needs the tensors rope_factors_short and rope_factors_long", m.key("rope.scaling.type"), scaling)
		}
	default:
		m.fail("%s = %q is not supported (rlx implements none, linear, yarn and longrope, and Llama 3's rope_freqs)", m.key("rope.scaling.type"), scaling)
	}
	embed, ok := src.Info("token_embd.weight")
	if !ok || len(embed.Shape) != 2 {
		return nil, naming{}, fmt.Errorf("%s: missing tensor \"token_embd.weight\" (or it is not a matrix)", f.Name)
	}
	s.vocab = embed.Shape[0]
	_, hasHead := src.Info("output.weight")
	s.tied = !hasHead

	theta := m.float("rope.freq_base", 10000)
	s.theta = theta
	if msg := s.badNumbers(m.key("rope.freq_base"), m.key("attention.layer_norm_rms_epsilon")); msg != "" {
		return nil, naming{}, fmt.Errorf("%s: %s", f.Name, msg)
	}
	s.rotaryDim = m.uint("rope.dimension_count", s.headDim, false)
	if m.err != nil {
		return nil, naming{}, m.err
	}
	if s.rotaryDim < 2 || s.rotaryDim%2 != 0 || s.rotaryDim > s.headDim {
		return nil, naming{}, fmt.Errorf("%s: %s = %d; rlx needs an even rotary dim in [2, %d]", f.Name, m.key("rope.dimension_count"), s.rotaryDim, s.headDim)
	}
	s.invFreq = ropeFrequencies(theta, s.rotaryDim)
	if scaling == "linear" {
		// Positions divided by the factor: every frequency.
		factor := m.float("rope.scaling.factor", 0)
		if !(factor > 0) || math.IsInf(factor, 0) {
			return nil, naming{}, fmt.Errorf("%s: %s = %g: linear rope scaling needs a finite positive factor", f.Name, m.key("rope.scaling.factor"), factor)
		}
		for i := range s.invFreq {
			s.invFreq[i] /= factor
		}
	}
	if scaling == "yarn" {
		if err := m.readYarn(s); err != nil {
			return nil, naming{}, fmt.Errorf("%s: %v", f.Name, err)
		}
	}
	if err := m.readLongRope(s, src); err != nil {
		return nil, naming{}, fmt.Errorf("%s: %v", f.Name, err)
	}
	// Llama 3's rope scaling, as llama.cpp stores it: one divisor per
	// frequency (rope_freqs.weight).
	if _, ok := src.Info("rope_freqs.weight"); ok {
		t, err := src.Weight(ref.Spec{Name: "rope_freqs.weight", Type: ref.TensorType{DType: tensor.F32, Shape: []int{len(s.invFreq)}}})
		if err != nil {
			return nil, naming{}, fmt.Errorf("%s: tensor \"rope_freqs.weight\": %v", f.Name, err)
		}
		for i, d := range t.Floats() {
			if !(d > 0) || math.IsInf(float64(d), 0) {
				return nil, naming{}, fmt.Errorf("%s: tensor \"rope_freqs.weight\" holds %g at %d; rlx needs finite positive divisors", f.Name, d, i)
			}
			s.invFreq[i] /= float64(d)
		}
	}

	n := ggufNames("ffn_norm")
	switch arch {
	case "llama":
		// convert_hf_to_gguf permutes q and k (and their biases) so that
		// rotated pairs are adjacent: llama.cpp's "normal" rope,
		// graph.rope's gptj style. llama.cpp adds each attention bias the
		// file holds.
		s.ropeStyle = graph.RopeGPTJ
		s.qkvBias, s.oBias = biasIfPresent, biasIfPresent
		s.allFull()
		if m.uint("expert_count", 0, false) > 0 {
			// Mixtral: every layer routes. llama.cpp's files from
			// before it stacked the experts (TheBloke's Mixtral GGUFs
			// among them) hold a tensor an expert, blk.N.ffn_gate.E:
			// the weight source stacks those.
			m.readMoE(s, false, true)
			_, stacked := src.Info(n.of(0, roleExpertGate))
			if _, perExpert := src.Info("blk.0.ffn_gate.0.weight"); !stacked && perExpert {
				n.layer[roleExpertGate], n.layer[roleExpertUp], n.layer[roleExpertDown] = "blk.%d.ffn_gate.*.weight", "blk.%d.ffn_up.*.weight", "blk.%d.ffn_down.*.weight"
			}
		}
	case "olmo2":
		// llama.cpp's olmo2: norms after attention and the MLP only
		// (post_attention_norm, post_ffw_norm), q and k normalised over
		// their whole projections; neox rope, as the converter leaves q
		// and k unpermuted.
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
	case "exaone4":
		// llama.cpp's exaone4: olmo2's norms after attention and the MLP,
		// per-head q/k norms, neox rope; only the 64-layer 32B slides
		// (its loader fixes every fourth layer global and a window of
		// 4096, which attention.sliding_window overrides), and its global
		// layers take no rope.
		s.postNorms, s.qkNorm = true, true
		s.allFull()
		if s.layers == 64 {
			s.sliding = slidingEvery(s.layers, 4)
			s.noRope = globalNoPE(s.sliding)
			s.setWindow(m.uint("attention.sliding_window", 4096, false))
		} else {
			s.window = 0 // llama.cpp reads the key but slides nothing
		}
	case "command-r", "cohere2":
		// llama.cpp's command-r and cohere2: LayerNorms without a bias
		// (attention.layer_norm_epsilon), attention and the MLP in
		// parallel on attn_norm, adjacent-pair rope (the converter does
		// not permute), the logits × logit_scale; cohere2's layers slide
		// but each fourth (its loader fixes the pattern), the global ones
		// without rope.
		_, s.qkLayerNorm = src.Info("blk.0.attn_q_norm.weight") // Command R+'s per-head q/k LayerNorms
		s.layerNorm, s.parallel = true, true
		s.eps = m.float("attention.layer_norm_epsilon", 1e-5)
		s.ropeStyle = graph.RopeGPTJ
		if !m.has("logit_scale") {
			m.fail("missing key %s (llama.cpp's %s loader requires it)", m.key("logit_scale"), arch)
		}
		s.logitMul = m.float("logit_scale", 1)
		if !scaleInRange(s.logitMul) || !(s.eps >= 0) || math.IsInf(s.eps, 0) {
			m.fail("%s = %g, %s = %g: rlx needs a scale in [%g, %g] and a finite, non-negative epsilon", m.key("logit_scale"), s.logitMul, m.key("attention.layer_norm_epsilon"), s.eps, scaleMin, scaleMax)
		}
		s.allFull()
		if arch == "cohere2" {
			s.sliding = slidingEvery(s.layers, 4)
			s.noRope = globalNoPE(s.sliding)
		}
	case "lfm2":
		// llama.cpp's lfm2: the layers whose attention.head_count_kv is
		// 0 are gated short convolutions over shortconv.l_cache inputs,
		// the others GQA with per-head q/k norms; the final norm is
		// token_embd_norm (the converter's name for it).
		s.qkNorm = true
		s.shortConv = m.uint("shortconv.l_cache", 0, true)
		kv, ok := m.perLayer("attention.head_count_kv")
		if ok && len(kv) != s.layers {
			m.fail("%s must list each of the %d layers' kv heads (0 for a short convolution)", m.key("attention.head_count_kv"), s.layers)
		}
		if m.err != nil {
			break
		}
		s.layerTypes = make([]string, s.layers)
		for i, n := range kv {
			s.layerTypes[i] = fullAttention
			if n == 0 {
				s.layerTypes[i] = shortConvLayer
			}
		}
		if s.shortConv < 2 {
			m.fail("%s = %d: rlx needs a window of at least 2", m.key("shortconv.l_cache"), s.shortConv)
		}
		n.finalNorm = "token_embd_norm.weight"
	case "starcoder2":
		// llama.cpp's starcoder2: LayerNorms with biases
		// (attention.layer_norm_epsilon), biases on every projection and
		// on ffn_up and ffn_down, gelu without a gate; neox rope.
		s.layerNorm, s.normBias, s.plainGelu = true, true, true
		m.readLayerNormEps(s)
		s.qkvBias, s.oBias = biasRequired, biasRequired
		s.allFull()
	case "phi2":
		// llama.cpp's phi2: a LayerNorm with a bias
		// (attention.layer_norm_epsilon) before attention and a gelu MLP
		// (ffn_up, ffn_down) run in parallel, biases on every projection
		// and on the head (output.bias); attn_qkv [q; k; v] with its bias
		// (the files converted from Phi-2's first checkpoints) or
		// separate attn_q, attn_k and attn_v; neox rope on
		// rope.dimension_count.
		s.layerNorm, s.normBias, s.parallel, s.plainGelu, s.blocksFirst = true, true, true, true, true
		s.headBias = !s.tied
		m.readLayerNormEps(s)
		s.qkvBias, s.oBias = biasRequired, biasRequired
		_, s.fusedQKV = src.Info("blk.0.attn_qkv.weight")
		s.allFull()
	case "stablelm":
		// llama.cpp's stablelm: LayerNorms with biases, q, k and v
		// biases where the file has them, per-head q/k LayerNorms
		// (attn_q_norm, [heads, head dim]) where it has those, attention
		// and the MLP in parallel on attn_norm where it has no ffn_norm
		// (StableLM 2 12B); neox rope on rope.dimension_count.
		s.layerNorm, s.normBias = true, true
		m.readLayerNormEps(s)
		s.qkvBias = biasIfPresent
		_, s.qkLayerNorm = src.Info("blk.0.attn_q_norm.weight")
		_, ffnNorm := src.Info("blk.0.ffn_norm.weight")
		s.parallel = !ffnNorm
		s.allFull()
	case "gptneox":
		// llama.cpp's gptneox: LayerNorms with biases, attn_qkv [q; k;
		// v] (the converter regroups transformers' rows of a head at a
		// time) with its bias, biases on the output projection and the
		// MLP (gelu, no gate), the two blocks in parallel, each on its
		// own norm of x, unless use_parallel_residual is false; neox rope
		// on rope.dimension_count. The gelu is erf's, as the model's
		// (llama.cpp's ggml_gelu is the tanh approximation).
		s.layerNorm, s.normBias, s.plainGelu, s.erfGelu, s.fusedQKV = true, true, true, true, true
		m.readLayerNormEps(s)
		s.qkvBias, s.oBias = biasRequired, biasRequired
		if v, ok := f.Get(m.key("use_parallel_residual")); !ok || v == true {
			s.parallel, s.parallelNorms, s.blocksFirst = true, true, true
		} else if v != false {
			m.fail("%s = %v is not a bool", m.key("use_parallel_residual"), v)
		}
		if s.kvHeads != s.heads {
			m.fail("%s = %d: rlx reads gptneox with as many kv heads as heads (%d)", m.key("attention.head_count_kv"), s.kvHeads, s.heads)
		}
		s.allFull()
	case "nemotron":
		// llama.cpp's nemotron: LayerNorms with biases and their 1
		// added by the converter, a relu² MLP of ffn_up and ffn_down,
		// attention biases where the file has them; neox rope on
		// rope.dimension_count.
		s.layerNorm, s.normBias, s.reluSquared = true, true, true
		m.readLayerNormEps(s)
		s.qkvBias, s.oBias = biasIfPresent, biasIfPresent
		s.allFull()
	case "olmoe":
		// llama.cpp's olmoe: llama's pre-norms (neox rope), q and k
		// normalised over their whole projections, every layer routing,
		// the chosen weights not renormalised.
		s.qkNormWhole = true
		s.allFull()
		m.readMoE(s, false, false)
	case "seed_oss":
		// llama.cpp's seed_oss: q, k and v biases where the file has
		// them, none on the output projection; neox rope.
		s.qkvBias = biasIfPresent
		s.allFull()
	case "arcee":
		// llama.cpp's arcee: llama's layout (q and k permuted for its
		// "normal" rope) with a relu² MLP of ffn_up and ffn_down.
		s.ropeStyle = graph.RopeGPTJ
		s.qkvBias, s.oBias = biasIfPresent, biasIfPresent
		s.reluSquared = true
		s.allFull()
	case "ernie4_5":
		// llama.cpp's ernie4_5: llama's layout with adjacent-pair rope,
		// which transformers' ERNIE 4.5 has too (the converter does not
		// permute); biases where the file has them.
		s.ropeStyle = graph.RopeGPTJ
		s.qkvBias, s.oBias = biasIfPresent, biasIfPresent
		s.allFull()
	case "glm4":
		// llama.cpp's glm4: attn_norm, post_attention_norm after
		// attention, ffn_norm before the MLP and post_ffw_norm after it;
		// q, k and v biases where the file has them; ffn_up holding
		// [gate; up]; rope on
		// rope.dimension_count dims, pairs adjacent as in transformers
		// (the converter does not permute).
		if _, fused := src.Info("blk.0.attn_qkv.weight"); fused {
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
	case "granite", "granitemoe":
		// llama.cpp's granite: llama's layout (q and k permuted) with
		// IBM's scales, each applied only where the file has it (the
		// converter writes the config's multipliers). granitemoe: every
		// layer routes (softmax, the chosen weights renormalised), with
		// an ungated shared expert where the file has
		// expert_shared_feed_forward_length (Granite MoE Shared).
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
		if arch == "granitemoe" {
			m.readMoE(s, m.has("expert_shared_feed_forward_length"), true)
			s.sharedUngated = true
		}
	case "smollm3":
		// llama.cpp's smollm3: llama's layout (q and k permuted for its
		// "normal" rope) without rope in every fourth layer, which its
		// loader fixes (n_no_rope_layer_step 4; the file says nothing).
		s.ropeStyle = graph.RopeGPTJ
		s.qkvBias, s.oBias = biasIfPresent, biasIfPresent
		s.allFull()
		s.noRope = make([]bool, s.layers)
		for i := range s.noRope {
			s.noRope[i] = (i+1)%4 == 0
		}
	case "qwen2", "qwen2vl":
		// qwen2vl (Qwen2-VL, Qwen2.5-VL) is qwen2 with M-RoPE, which
		// rotates text (equal positions in every section) as neox rope.
		s.qkvBias = biasRequired
		s.allFull()
	case "qwen2moe":
		// llama.cpp adds each attention bias the file holds.
		s.qkvBias, s.oBias = biasIfPresent, biasIfPresent
		s.allFull()
		m.readMoE(s, true, false)
	case "phi3":
		// ffn_up holds [gate; up]; attn_qkv [q; k; v], or llama.cpp's
		// separate attn_q, attn_k and attn_v where the file has those.
		_, s.fusedQKV = src.Info("blk.0.attn_qkv.weight")
		s.fusedGateUp = true
		s.allFull()
	case "gpt-oss":
		// llama.cpp's gpt-oss (its openai-moe builder): q, k, v and output
		// biases, attn_sinks, the even layers sliding
		// (attention.sliding_window), neox rope with YaRN's keys (ggml's
		// ramp, truncated: transformers' gpt-oss does not truncate, so a
		// file's logits differ from its checkpoint's by that); the MoE
		// input's norm is post_attention_norm; every layer routes over
		// expert_count experts (the router with its bias, softmax over the
		// chosen logits) of ffn_gate_exps, ffn_up_exps and ffn_down_exps
		// with biases, (up + 1)·g·σ(1.702·g), clamped at 7.
		n = ggufNames("post_attention_norm")
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
	case "glm4moe":
		// llama.cpp's glm4moe: block_count counts the
		// nextn_predict_layers multi-token-prediction blocks at its end,
		// which a decode step does not run; q, k and v biases, per-head
		// q/k norms where the file has them, neox rope on
		// rope.dimension_count; from leading_dense_block_count on, every
		// layer routes as DeepSeek-V3 does (expert_gating_func 2,
		// sigmoid; exp_probs_b the selection bias; expert_weights_norm,
		// expert_weights_scale), expert_shared_count shared experts as
		// one ungated MLP.
		nextn := m.uint("nextn_predict_layers", 0, false)
		if nextn >= s.layers {
			m.fail("%s = %d leaves no layer of %s = %d", m.key("nextn_predict_layers"), nextn, m.key("block_count"), s.layers)
			break
		}
		s.layers -= nextn
		s.qkvBias = biasRequired
		_, s.qkNorm = src.Info("blk.0.attn_q_norm.weight")
		s.allFull()
		m.readSigmoidMoE(s)
	case "gemma":
		// llama.cpp's gemma: norms with their 1 added, the embeddings ×
		// √n_embd in f32, a gelu-gated MLP, q × 1/√head_dim.
		s.geluTanh = true
		s.embedScale = math.Sqrt(float64(s.hidden))
		s.allFull()
	case "gemma2":
		// llama.cpp's gemma2: gemma3's layout without q/k norms, the even
		// layers sliding, one rope, scores and logits soft-capped (its
		// defaults 50 and 30), q × 1/√head_dim but 1/√(n_embd/n_head)
		// for the 46-layer 27B (query_pre_attn_scalar 144).
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
	case "gemma3":
		// llama.cpp's gemma3: norms with their 1 added, the embeddings ×
		// √n_embd in f32, every sixth layer global (the others slide, at
		// rope base 10⁴ unscaled), q × 1/√head_dim, but 1/√(n_embd/n_head)
		// for the 62-layer 27B (query_pre_attn_scalar 168).
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
	case "qwen3moe", "qwen3vlmoe":
		// Every layer routes in llama.cpp's qwen3moe; a layer without a
		// router (Qwen3-MoE's mlp_only_layers) is read as a dense MLP.
		// qwen3vlmoe (Qwen3-VL-MoE) is qwen3moe with qwen3vl's M-RoPE,
		// neox rope on text.
		s.qkNorm = true
		s.allFull()
		m.readMoE(s, false, true)
		for i := range s.moeLayer {
			_, routed := src.Info(n.of(i, roleRouter))
			s.moeLayer[i] = s.moeLayer[i] && routed
		}
	case "qwen3", "qwen3vl":
		// qwen3vl (Qwen3-VL) is qwen3 with interleaved M-RoPE, neox rope
		// on text; its n_deepstack_layers concern image tokens only.
		// llama.cpp refuses a qwen3 file with attention biases (what
		// convert_hf_to_gguf writes of a checkpoint with attention_bias);
		// rlx adds them, as transformers does.
		s.qkNorm = true
		s.qkvBias, s.oBias = biasIfPresent, biasIfPresent
		s.allFull()
	case "qwen35", "qwen35moe", "qwen3next":
		// qwen35moe is qwen35 (its value heads tiled, β and α apart)
		// with qwen3next's experts and shared expert.
		n = ggufNames("post_attention_norm")
		s.qkNorm, s.gatedAttention = true, true
		s.convKernel = m.uint("ssm.conv_kernel", 0, true)
		s.gdn = m.uint("ssm.state_size", 0, true)
		s.keyHeads = m.uint("ssm.group_count", 0, true)
		s.valueHeads = m.uint("ssm.time_step_rank", 0, true)
		inner := m.uint("ssm.inner_size", 0, true)
		interval := m.uint("full_attention_interval", 4, false)
		if m.err != nil {
			return nil, naming{}, m.err
		}
		if s.convKernel < 2 || s.gdn == 0 || s.keyHeads == 0 || s.valueHeads%s.keyHeads != 0 || inner != s.valueHeads*s.gdn || interval == 0 {
			return nil, naming{}, fmt.Errorf("%s: ssm sizes conv_kernel %d, state_size %d, group_count %d, time_step_rank %d, inner_size %d, full_attention_interval %d do not describe a gated DeltaNet rlx can build",
				f.Name, s.convKernel, s.gdn, s.keyHeads, s.valueHeads, inner, interval)
		}
		s.layerTypes = make([]string, s.layers)
		for i := range s.layerTypes {
			s.layerTypes[i] = linearAttention
			if (i+1)%interval == 0 {
				s.layerTypes[i] = fullAttention
			}
		}
		s.vTiled = arch != "qwen3next" && s.valueHeads != s.keyHeads
		s.fusedBA = arch == "qwen3next"
		if arch != "qwen35" {
			m.readMoE(s, true, true)
		}
	}
	if m.err != nil {
		return nil, naming{}, m.err
	}
	if msg := s.ropeOutOfRange(); msg != "" {
		return nil, naming{}, fmt.Errorf("%s: %s", f.Name, msg)
	}
	return s, n, nil
}
