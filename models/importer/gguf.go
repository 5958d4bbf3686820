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

// ggufKeys are the {arch}.* metadata keys the importer reads or knows to
// leave the decode step unchanged; any other {arch}.* key is refused.
var ggufKeys = []string{
	"context_length", "embedding_length", "block_count", "feed_forward_length", "vocab_size",
	"attention.head_count", "attention.head_count_kv", "attention.key_length", "attention.value_length",
	"attention.layer_norm_rms_epsilon", "attention.layer_norm_epsilon", "rope.freq_base", "rope.dimension_count", "rope.dimension_sections",
	"expert_count", "expert_used_count", "expert_feed_forward_length", "expert_shared_feed_forward_length",
	"expert_weights_norm", "expert_gating_func",
	"ssm.conv_kernel", "ssm.state_size", "ssm.group_count", "ssm.time_step_rank", "ssm.inner_size",
	"ssm.dt_b_c_rms", // mamba: Falcon-Mamba's norms of dt, B and C
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
	"rope.scaling.yarn_log_multiplier",     // deepseek2: 0.1·mscale_all_dim; mistral3: mscale_all_dim (refused elsewhere unless 0)
	"rope.scaling.finetuned",               // informational
	"attention.temperature_scale",          // mistral3: Ministral 3's llama_4_scaling_beta (refused elsewhere unless 0)
	"attention.temperature_length",         // mistral3: the positions it divides (default YaRN's original context)
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
	"expert_group_count",                   // deepseek2, glm4moe: group-limited routing's groups (none where ≤ 1)
	"expert_group_used_count",              // and the open ones
	"attention.q_lora_rank",                // deepseek2: q's LoRA (q from attn_q where absent)
	"attention.kv_lora_rank",               // deepseek2: the latent
	"attention.key_length_mla",             // deepseek2: a head's q·k dims (nope + rope) in the split form
	"attention.value_length_mla",           // deepseek2: a head's v dims in the split form
	"interleave_moe_layer_step",            // llama4: every n-th layer routes
	"moe_latent_size",                      // nemotron_h_moe: the routed experts' latent width
	"kda.head_dim",                         // kimi-linear: the delta attention's head size
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
	// src holds the file's tensors (readers look for those that are
	// optional) and names their names, which an architecture's reader
	// may change.
	src   *weights.Source
	names naming
	// yarn is what readYarn read of the file's YaRN beside the ramp: its
	// factor (0 without YaRN), rope.scaling.attn_factor, and
	// yarn_log_multiplier, which a reader that takes it sets to 0.
	yarn struct{ factor, attn, logMul float64 }
	// qScaled: a reader took attention.temperature_scale.
	qScaled bool
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

// eachLayer reads k, an array of one integer a layer (perLayer) with an
// entry for each of the spec's layers; nil (the first error recorded,
// naming what the entries count and what a 0 means) otherwise.
func (m *ggufMeta) eachLayer(k string, layers int, what, zero string) []int {
	vals, ok := m.perLayer(k)
	if ok && len(vals) != layers {
		m.fail("%s must list each of the %d layers' %s (0 %s)", m.key(k), layers, what, zero)
		return nil
	}
	return vals
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
// expert_shared_count shared experts; group-limited routing
// (readDeepseekMoE).
func (m *ggufMeta) readSigmoidMoE(s *spec) {
	m.sigmoidGating(true)
	s.sigmoidRouter = true
	m.readDeepseekMoE(s)
}

// readDeepseekMoE reads the experts of glm4moe and deepseek2 (their
// scoring the caller's): expert_count experts of
// expert_feed_forward_length rows from leading_dense_block_count on,
// expert_used_count chosen, renormalised under expert_weights_norm
// (false when absent, as llama.cpp), × expert_weights_scale (1 when
// absent), and expert_shared_count shared experts; with more than one of
// expert_group_count groups, only the expert_group_used_count groups
// whose two best scores sum highest are open (llama.cpp's
// build_moe_ffn, for softmax and sigmoid scores alike).
func (m *ggufMeta) readDeepseekMoE(s *spec) {
	norm := false
	if v, ok := m.f.Get(m.key("expert_weights_norm")); ok {
		norm = v == true
	}
	bad := s.setDeepseekMoE(m.uint("expert_count", 0, true), m.uint("expert_used_count", 0, true), m.uint("expert_feed_forward_length", 0, true),
		m.uint("expert_shared_count", 0, false), m.uint("leading_dense_block_count", 0, false), norm, m.float("expert_weights_scale", 1))
	if m.err == nil && bad != "" {
		m.fail("expert_count, expert_used_count, expert_feed_forward_length, expert_weights_scale: %s", bad)
	}
	groups, open := m.uint("expert_group_count", 0, false), m.uint("expert_group_used_count", 0, false)
	if m.err == nil && groups > 1 {
		if bad := s.setGroups(m.key("expert_group_count"), m.key("expert_group_used_count"), groups, open, false); bad != "" {
			m.fail("%s", bad)
		}
	}
}

// sigmoidGating refuses an expert_gating_func other than 2, sigmoid
// (required: the key must be there; else absent means sigmoid, as the
// builders of nemotron_h_moe and minimax-m2 fix it).
func (m *ggufMeta) sigmoidGating(required bool) {
	if g := m.uint("expert_gating_func", 2, required); g != 2 && m.err == nil {
		m.fail("%s = %d is not supported for %s (rlx implements 2, sigmoid)", m.key("expert_gating_func"), g, m.arch)
	}
}

// readExpertSizes reads expert_count, expert_used_count and
// expert_feed_forward_length (each required) into s; false (the error
// recorded) where they do not describe experts rlx can build.
func (m *ggufMeta) readExpertSizes(s *spec) bool {
	s.experts, s.topK = m.uint("expert_count", 0, true), m.uint("expert_used_count", 0, true)
	s.moeFFN = m.uint("expert_feed_forward_length", 0, true)
	if m.err == nil && (s.topK < 1 || s.topK > s.experts || s.moeFFN == 0) {
		m.fail("%s = %d must be in [1, %s = %d], with a positive %s", m.key("expert_used_count"), s.topK, m.key("expert_count"), s.experts,
			m.key("expert_feed_forward_length"))
	}
	return m.err == nil
}

// readSelectBias takes noSelectBias from the first routed layer: the
// file's routers choose with exp_probs_b where it has one.
func (m *ggufMeta) readSelectBias(s *spec) {
	if first := slices.Index(s.moeLayer, true); first >= 0 {
		_, bias := m.src.Info(m.names.of(first, roleRouterSelect))
		s.noSelectBias = !bias
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
	a, ok := lookup(ggufArchitectures(), arch)
	if !ok {
		return nil, naming{}, fmt.Errorf("%s: general.architecture %q is not supported (rlx imports %s)", f.Name, arch, strings.Join(GGUFArchitectures(), ", "))
	}
	m := &ggufMeta{f: f, arch: arch, src: src}
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
	// mamba and mamba2: every layer a mixer, no attention (head_count 0).
	mixerOnly := arch == "mamba" || arch == "mamba2"
	if !mixerOnly {
		s.heads = m.uint("attention.head_count", 0, true)
		s.kvHeads = m.uintOrMax("attention.head_count_kv", s.heads)
	}
	s.ffn = m.uintOrMax("feed_forward_length", 0)
	s.eps = m.float("attention.layer_norm_rms_epsilon", 1e-6)
	if m.err != nil {
		return nil, naming{}, m.err
	}
	switch {
	case mixerOnly && (s.hidden == 0 || s.layers == 0):
		return nil, naming{}, fmt.Errorf("%s: embedding_length and block_count must be positive (got %d, %d)", f.Name, s.hidden, s.layers)
	case mixerOnly && (!(s.eps >= 0) || math.IsInf(s.eps, 0)):
		return nil, naming{}, fmt.Errorf("%s: %s = %g: rlx needs a finite, non-negative epsilon", f.Name, m.key("attention.layer_norm_rms_epsilon"), s.eps)
	case !mixerOnly && (s.hidden == 0 || s.layers == 0 || s.heads == 0 || s.kvHeads == 0 || s.heads%s.kvHeads != 0):
		return nil, naming{}, fmt.Errorf("%s: embedding_length, block_count and head counts must be positive, head_count a multiple of head_count_kv (got %d, %d, %d, %d)", f.Name, s.hidden, s.layers, s.heads, s.kvHeads)
	}
	valueDim := 0
	if !mixerOnly {
		s.headDim = m.uint("attention.key_length", s.hidden/s.heads, false)
		valueDim = m.uint("attention.value_length", s.headDim, false)
		s.setWindow(m.uint("attention.sliding_window", 0, false)) // phi3's, gemma2's, gemma3's; llama.cpp's llama files carry none
	}
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

	if !mixerOnly {
		if err := m.readRopeTables(s, src, scaling); err != nil {
			return nil, naming{}, fmt.Errorf("%s: %v", f.Name, err)
		}
	}

	m.names = ggufNames("ffn_norm")
	keyDim := s.headDim
	a.read(m, s)
	switch {
	case m.err != nil:
	case s.mla.kvLora == 0 && valueDim != keyDim:
		// (deepseek2's latent attention reads its own.)
		m.fail("%s = %d differs from %s = %d; rlx needs equal key and value heads", m.key("attention.value_length"), valueDim, m.key("attention.key_length"), keyDim)
	case m.yarn.logMul != 0:
		m.fail("%s = %.7g: rlx reads YaRN's mscale_all_dim in deepseek2 and mistral3 files only", m.key("rope.scaling.yarn_log_multiplier"), m.yarn.logMul)
	case !m.qScaled && m.float("attention.temperature_scale", 0) != 0:
		m.fail("%s = %.7g: rlx reads the scaling of q by position (Ministral 3's) in mistral3 files only", m.key("attention.temperature_scale"), m.float("attention.temperature_scale", 0))
	}
	if m.err != nil {
		return nil, naming{}, m.err
	}
	if msg := s.ropeOutOfRange(); msg != "" {
		return nil, naming{}, fmt.Errorf("%s: %s", f.Name, msg)
	}
	return s, m.names, nil
}

// readRopeTables reads rope.freq_base and rope.dimension_count into the
// spec's frequencies, scaled as rope.scaling.type says (linear, YaRN,
// LongRoPE's tensors) and by Llama 3's rope_freqs where the file has it.
func (m *ggufMeta) readRopeTables(s *spec, src *weights.Source, scaling string) error {
	theta := m.float("rope.freq_base", 10000)
	s.theta = theta
	if msg := s.badNumbers(m.key("rope.freq_base"), m.key("attention.layer_norm_rms_epsilon")); msg != "" {
		return fmt.Errorf("%s", msg)
	}
	s.rotaryDim = m.uint("rope.dimension_count", s.headDim, false)
	if m.err != nil {
		return m.err
	}
	if s.rotaryDim < 2 || s.rotaryDim%2 != 0 || s.rotaryDim > s.headDim {
		return fmt.Errorf("%s = %d; rlx needs an even rotary dim in [2, %d]", m.key("rope.dimension_count"), s.rotaryDim, s.headDim)
	}
	s.invFreq = ropeFrequencies(theta, s.rotaryDim)
	if scaling == "linear" {
		// Positions divided by the factor: every frequency.
		factor := m.float("rope.scaling.factor", 0)
		if !(factor > 0) || math.IsInf(factor, 0) {
			return fmt.Errorf("%s = %g: linear rope scaling needs a finite positive factor", m.key("rope.scaling.factor"), factor)
		}
		for i := range s.invFreq {
			s.invFreq[i] /= factor
		}
	}
	if scaling == "yarn" {
		if err := m.readYarn(s); err != nil {
			return err
		}
	}
	if err := m.readLongRope(s, src); err != nil {
		return err
	}
	// Llama 3's rope scaling, as llama.cpp stores it: one divisor per
	// frequency (rope_freqs.weight).
	if _, ok := src.Info("rope_freqs.weight"); ok {
		t, err := src.Weight(ref.Spec{Name: "rope_freqs.weight", Type: ref.TensorType{DType: tensor.F32, Shape: []int{len(s.invFreq)}}})
		if err != nil {
			return fmt.Errorf("tensor \"rope_freqs.weight\": %v", err)
		}
		for i, d := range t.Floats() {
			if !(d > 0) || math.IsInf(float64(d), 0) {
				return fmt.Errorf("tensor \"rope_freqs.weight\" holds %g at %d; rlx needs finite positive divisors", d, i)
			}
			s.invFreq[i] /= float64(d)
		}
	}

	return nil
}
