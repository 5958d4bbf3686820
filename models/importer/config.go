package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/runtime/weights"
)

// config is a parsed config.json whose fields are read through typed
// getters that remember what was read, so that every field left over can
// be refused.
type config struct {
	path string
	raw  map[string]json.RawMessage
	used map[string]bool
	err  error // the first error of a getter
}

// ignoredFields are config.json fields that do not change one decode step
// of a causal LM: generation and training settings, bookkeeping.
var ignoredFields = []string{
	"_name_or_path", "architectures", "model_type", "transformers_version", "torch_dtype", "dtype",
	"use_cache", "bos_token_id", "eos_token_id", "pad_token_id", "initializer_range",
	"attention_dropout", "max_position_embeddings", "output_router_logits", "router_aux_loss_coef",
	"return_dict", "output_attentions", "output_hidden_states", "torchscript", "use_bfloat16",
	"tokenizer_class", "id2label", "label2id", "problem_type", "is_encoder_decoder",
	"tie_encoder_decoder", "chunk_size_feed_forward", "task_specific_params", "prefix",
	"finetuning_task", "decoder_start_token_id", "sep_token_id", "tf_legacy_loss",
	"max_length", "min_length", "do_sample", "early_stopping", "num_beams", "temperature",
	"top_k", "top_p", "repetition_penalty", "length_penalty", "no_repeat_ngram_size",
	"num_return_sequences", "bad_words_ids", "forced_bos_token_id", "forced_eos_token_id",
	"remove_invalid_values", "pruned_heads", "cross_attention_hidden_size", "add_cross_attention",
	"is_decoder", "output_scores", "return_dict_in_generate", "typical_p", "diversity_penalty",
	"num_beam_groups", "encoder_no_repeat_ngram_size", "exponential_decay_length_penalty",
	"suppress_tokens", "begin_suppress_tokens", "_attn_implementation_autoset",
	// The remote-code classes a checkpoint names, which transformers
	// does not load when it has the architecture itself.
	"auto_map",
	// Multi-token-prediction heads: extra tensors (mtp.*) that the causal
	// LM does not run (transformers ignores them on load).
	"mtp_num_hidden_layers", "mtp_use_dedicated_embeddings",
}

func readConfig(dir string) (*config, error) {
	path := filepath.Join(dir, "config.json")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c := &config{path: path, used: map[string]bool{}}
	dec := json.NewDecoder(bytes.NewReader(quotePythonFloats(data)))
	dec.UseNumber()
	if err := dec.Decode(&c.raw); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	for _, f := range ignoredFields {
		c.used[f] = true
	}
	return c, nil
}

// quotePythonFloats quotes the bare NaN, Infinity and -Infinity that
// Python's json writes (transformers' Mamba2Config's time_step_limit
// [0.0, Infinity]) and JSON does not have, outside strings, so that the
// file decodes and a getter meets them as strings ("Infinity"): where a
// number is wanted they are refused as not numbers, by name.
func quotePythonFloats(data []byte) []byte {
	var out []byte
	inString, escaped, last := false, false, 0
	for i := 0; i < len(data); i++ {
		b := data[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
			continue
		}
		if b == '"' {
			inString = true
			continue
		}
		for _, word := range []string{"-Infinity", "Infinity", "NaN"} {
			if bytes.HasPrefix(data[i:], []byte(word)) {
				out = append(append(append(append(out, data[last:i]...), '"'), word...), '"')
				i += len(word) - 1
				last = i + 1
				break
			}
		}
	}
	if out == nil {
		return data
	}
	return append(out, data[last:]...)
}

// fail records the first error.
func (c *config) fail(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("%s: "+format, append([]any{c.path}, args...)...)
	}
}

// get returns the raw value of key, absent when missing or null.
func (c *config) get(key string) (json.RawMessage, bool) {
	c.used[key] = true
	v, ok := c.raw[key]
	if !ok || string(v) == "null" {
		return nil, false
	}
	return v, true
}

func (c *config) int(key string, def int, required bool) int {
	v, ok := c.get(key)
	if !ok {
		if required {
			c.fail("missing field %q", key)
		}
		return def
	}
	var n json.Number
	if err := json.Unmarshal(v, &n); err != nil {
		c.fail("field %q = %s is not a number", key, v)
		return def
	}
	i, err := n.Int64()
	if err != nil || i < 0 {
		c.fail("field %q = %s is not a non-negative integer", key, v)
		return def
	}
	if i > maxSize {
		c.fail("field %q = %s is larger than rlx reads (%d)", key, v, maxSize)
		return def
	}
	return int(i)
}

func (c *config) float(key string, def float64) float64 {
	v, ok := c.get(key)
	if !ok {
		return def
	}
	var n json.Number
	if err := json.Unmarshal(v, &n); err != nil {
		c.fail("field %q = %s is not a number", key, v)
		return def
	}
	f, err := n.Float64()
	if err != nil {
		c.fail("field %q = %s is not a number", key, v)
	}
	return f
}

func (c *config) bool(key string, def bool) bool {
	v, ok := c.get(key)
	if !ok {
		return def
	}
	var b bool
	if err := json.Unmarshal(v, &b); err != nil {
		c.fail("field %q = %s is not true or false", key, v)
	}
	return b
}

func (c *config) str(key, def string) string {
	v, ok := c.get(key)
	if !ok {
		return def
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		c.fail("field %q = %s is not a string", key, v)
	}
	return s
}

// object returns a JSON object field, nil when absent or null.
func (c *config) object(key string) map[string]json.RawMessage {
	v, ok := c.get(key)
	if !ok {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(v, &m); err != nil {
		c.fail("field %q = %s is not an object", key, v)
	}
	return m
}

// setDefault gives key the raw JSON value where the file leaves it out
// or null: an architecture's own default, where it differs from the one
// the getters assume.
func (c *config) setDefault(key, value string) {
	if v, ok := c.raw[key]; !ok || string(v) == "null" {
		c.raw[key] = json.RawMessage(value)
	}
}

// agrees fails when key is present with a value other than want, the
// value the other fields give it (from says how, in the message).
func (c *config) agrees(key string, want int, from string) {
	if got := c.int(key, want, false); got != want && c.err == nil {
		c.fail("field %q = %d differs from the %d %s", key, got, want, from)
	}
}

// reject fails when key is present with a value other than the neutral
// ones, naming the field: it would change the model in a way rlx does not
// implement.
func (c *config) reject(key string, neutral ...string) {
	v, ok := c.get(key)
	if !ok {
		return
	}
	for _, n := range neutral {
		if string(v) == n {
			return
		}
	}
	c.fail("field %q = %s is not supported (rlx implements %s only)", key, v, strings.Join(neutral, " or "))
}

// readQuantization reads quantization_config: none, or transformers'
// fine-grained FP8 (quant_method "fp8", fmt "e4m3" or "float8_e4m3fn", activation_scheme
// "dynamic", weight_block_size [rows, columns]; DeepSeek-V3 and R1 as
// published, Qwen3's -FP8 checkpoints): package weights reads each
// F8_E4M3 matrix with its block scales (weight_scale_inv) as BF16, as
// transformers' dequantize option does where the blocks divide the
// matrices (docs/import.md; its dynamic FP8 activations
// are not taken; modules_to_not_convert needs nothing: those tensors
// are BF16 in the file); or compressed-tensors, GPTQ or AWQ, whose
// schemes package weights reads (weights.CheckQuantization: what it
// refuses, this refuses). Any other method
// or field is refused.
func (c *config) readQuantization() {
	raw := c.object("quantization_config")
	if _, given := c.get("quantization_config"); !given {
		return
	}
	q := &config{path: c.path + " (quantization_config)", raw: raw, used: map[string]bool{}}
	v, _ := c.get("quantization_config")
	if known, err := weights.CheckQuantization(v); raw != nil && known {
		if err != nil {
			c.fail("field \"quantization_config\": %v", err)
		}
		return
	}
	if raw == nil || q.str("quant_method", "") != "fp8" {
		c.fail("field \"quantization_config\" = %s is not supported (rlx reads transformers' fine-grained FP8, quant_method \"fp8\", compressed-tensors, GPTQ and AWQ)", v)
		return
	}
	q.reject("fmt", `"e4m3"`, `"float8_e4m3fn"`) // MiniMax-M2's spells the same format out
	q.reject("activation_scheme", `"dynamic"`)
	q.used["modules_to_not_convert"] = true
	var block []int
	if v, ok := q.get("weight_block_size"); !ok || json.Unmarshal(v, &block) != nil || len(block) != 2 || block[0] < 1 || block[1] < 1 {
		q.fail("field \"weight_block_size\" must give the FP8 blocks' two positive sizes")
	}
	q.leftovers("quantization_config")
	if q.err != nil && c.err == nil {
		c.err = q.err
	}
}

// leftovers fails on the first field nothing read: rlx does not know what
// it changes.
func (c *config) leftovers(arch string) {
	var extra []string
	for k := range c.raw {
		if !c.used[k] {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	if len(extra) > 0 {
		c.fail("field %q is not supported for %s (rlx does not know what it changes)", extra[0], arch)
	}
}

// specFromConfig resolves config.json into a spec.
func specFromConfig(dir string, maxTokens int) (*spec, error) {
	c, err := readConfig(dir)
	if err != nil {
		return nil, err
	}
	var archs []string
	if v, ok := c.get("architectures"); ok {
		if err := json.Unmarshal(v, &archs); err != nil {
			return nil, fmt.Errorf("%s: field \"architectures\" = %s is not a list of strings", c.path, v)
		}
	}
	if len(archs) != 1 {
		return nil, fmt.Errorf("%s: field \"architectures\" = %v names %d architectures, want one of %s", c.path, archs, len(archs), strings.Join(Architectures(), ", "))
	}
	s := &spec{arch: archs[0], maxTokens: maxTokens, ropeStyle: graph.RopeNeoX}
	a, ok := lookup(architectures(), s.arch)
	if !ok {
		return nil, fmt.Errorf("%s: architecture %q is not supported (rlx imports %s)", c.path, s.arch, strings.Join(Architectures(), ", "))
	}
	a.read(s, c)
	c.leftovers(s.arch)
	if c.err != nil {
		return nil, c.err
	}
	if msg := s.ropeOutOfRange(); msg != "" {
		return nil, fmt.Errorf("%s: %s", c.path, msg)
	}
	return s, nil
}

// readCommon reads the decoder's sizes, norms, embeddings and rope.
func (s *spec) readCommon(c *config, defaultRotary float64) {
	s.hidden = c.int("hidden_size", 0, true)
	s.layers = c.int("num_hidden_layers", 0, true)
	if s.layers > maxLayers {
		c.fail("field \"num_hidden_layers\" = %d is more layers than rlx reads (%d)", s.layers, maxLayers)
		return
	}
	s.vocab = c.int("vocab_size", 0, true)
	s.heads = c.int("num_attention_heads", 0, true)
	s.kvHeads = c.int("num_key_value_heads", s.heads, false)
	s.ffn = c.int("intermediate_size", 0, true)
	s.eps = c.float("rms_norm_eps", 1e-6)
	s.tied = c.bool("tie_word_embeddings", false)
	if s.geluTanh {
		c.used["hidden_act"] = true // Gemma reads hidden_activation
	} else if want := s.mlpActivation(); c.str("hidden_act", want) != want {
		c.fail("field \"hidden_act\" = %q is not supported (rlx implements %q only)", c.str("hidden_act", want), want)
	}
	c.readQuantization()
	// Sliding-window attention, which older configs of these families
	// mention even when off.
	c.reject("use_sliding_window", "false")
	c.used["sliding_window"] = true    // read only with use_sliding_window
	c.used["max_window_layers"] = true // likewise
	if c.err != nil {
		return
	}
	switch {
	case s.hidden == 0 || s.layers == 0 || s.vocab == 0 || s.heads == 0 || s.kvHeads == 0 || s.ffn == 0:
		c.fail("hidden_size, num_hidden_layers, vocab_size, num_attention_heads, num_key_value_heads and intermediate_size must be positive")
		return
	case s.heads%s.kvHeads != 0:
		c.fail("num_key_value_heads = %d does not divide num_attention_heads = %d", s.kvHeads, s.heads)
		return
	}
	s.headDim = c.int("head_dim", s.hidden/s.heads, false)
	s.readRope(c, defaultRotary)
}

// readHybrid reads the Qwen3.5 family's text model: gated DeltaNet and
// gated attention layers, `1 + w` norms, a quarter of each head rotated
// by default, and with moe Qwen3-Next's experts.
func (s *spec) readHybrid(c *config, moe bool) {
	s.readCommon(c, 0.25)
	c.reject("attention_bias", "false")
	s.qkNorm, s.gatedAttention, s.zeroCentred = true, true, true
	s.readLayerTypes(c, fullAttention, linearAttention)
	s.readGDN(c)
	if moe {
		s.readMoE(c, true, true)
	}
}

// visionLanguageFields are a vision-language wrapper's own fields that a
// text decode step does not use: the vision tower's config, the image and
// video tokens, Gemma 3's tokens per image, Mistral 3's projector.
var visionLanguageFields = []string{"vision_config", "image_token_id", "video_token_id", "vision_start_token_id", "vision_end_token_id",
	"mm_tokens_per_image", "boi_token_index", "eoi_token_index", "image_token_index",
	// Mistral 3's projector of the vision tower's patches.
	"multimodal_projector_bias", "projector_hidden_act", "spatial_merge_size", "vision_feature_layer",
	// Qwen2-VL's image token as first published.
	"vision_token_id"}

// readMistral reads transformers' Mistral: Llama with a sliding window
// and no biases.
func (s *spec) readMistral(c *config) {
	s.readCommon(c, 1.0)
	c.reject("attention_bias", "false")
	s.readWindow(c)
	s.allFull()
}

// readLfm2 reads LFM2 (Liquid AI): layer_types of "conv" (a gated short
// convolution over conv_L_cache inputs) and "full_attention" (GQA with
// per-head q/k RMSNorms, rope), RMSNorms of norm_eps before each mixer
// and MLP, a SwiGLU MLP whose width block_auto_adjust_ff_dim derives
// from intermediate_size (⅔ of it, × block_ffn_dim_multiplier, rounded
// up to block_multiple_of), a tied head (tie_embedding as first
// published). The fields that only set up training are read and left.
func (s *spec) readLfm2(c *config) {
	if _, ok := c.raw["tie_word_embeddings"]; !ok {
		c.setDefault("tie_word_embeddings", string(orDefault(c.raw["tie_embedding"], "true")))
	}
	c.used["tie_embedding"] = true
	s.readCommon(c, 1.0)
	if c.err != nil {
		return
	}
	s.eps = c.float("norm_eps", c.float("block_norm_eps", 1e-5))
	c.reject("conv_bias", "false")
	c.reject("block_use_swiglu", "true")
	c.reject("use_pos_enc", "true")
	for _, f := range []string{"block_mlp_init_scale", "block_out_init_scale", "block_use_xavier_init", "conv_use_xavier_init",
		"block_dim", "block_ff_dim", "conv_dim", "conv_dim_out", "num_heads", "theta"} {
		c.used[f] = true // training set-up, or a copy of a field read above
	}
	if auto := c.bool("block_auto_adjust_ff_dim", false); auto {
		ff := int(2 * float64(s.ffn) / 3)
		if m := c.float("block_ffn_dim_multiplier", 1); m != 1 {
			ff = int(m * float64(ff))
		}
		multiple := c.int("block_multiple_of", 256, false)
		if multiple == 0 {
			c.fail("field \"block_multiple_of\" must be positive")
			return
		}
		s.ffn = multiple * ((ff + multiple - 1) / multiple)
	} else {
		c.used["block_ffn_dim_multiplier"], c.used["block_multiple_of"] = true, true
	}
	s.shortConv = c.int("conv_L_cache", 3, false)
	if s.shortConv < 2 {
		c.fail("field \"conv_L_cache\" = %d: rlx needs a window of at least 2", s.shortConv)
		return
	}
	s.qkNorm = true
	s.readLayerTypes(c, fullAttention, shortConvLayer)
	if c.err != nil {
		return
	}
	// The first published configs' list of the attention layers, beside
	// layer_types (or in its place).
	if attends, given := c.layerSet("full_attn_idxs", s.layers); given && attends != nil {
		v := c.raw["full_attn_idxs"]
		want := slices.Repeat([]string{shortConvLayer}, s.layers)
		for i, a := range attends {
			if a {
				want[i] = fullAttention
			}
		}
		if _, given := c.raw["layer_types"]; !given {
			s.layerTypes = want
			return
		}
		for i, t := range s.layerTypes {
			if t != want[i] {
				c.fail("field \"full_attn_idxs\" = %s disagrees with layer_types at layer %d (%s)", v, i, t)
				return
			}
		}
	}
}

// layerSet reads key, a list of layer indices, as a flag a layer. given
// is false where the field is absent or null; the flags are nil where it
// is not a list of indices in [0, layers) (the error recorded, naming
// the field).
func (c *config) layerSet(key string, layers int) (set []bool, given bool) {
	v, ok := c.get(key)
	if !ok {
		return nil, false
	}
	var idx []int
	if err := json.Unmarshal(v, &idx); err != nil {
		c.fail("field %q = %s is not a list of layer indices", key, v)
		return nil, true
	}
	set = make([]bool, layers)
	for _, i := range idx {
		if i < 0 || i >= layers {
			c.fail("field %q names layer %d of %d", key, i, layers)
			return nil, true
		}
		set[i] = true
	}
	return set, true
}

// orDefault is v, or def where v is absent.
func orDefault(v json.RawMessage, def string) json.RawMessage {
	if v == nil {
		return json.RawMessage(def)
	}
	return v
}

// readQwen2 reads Qwen2's text model: q, k and v projections always with
// biases, the output projection never (no config field says so).
func (s *spec) readQwen2(c *config) {
	useWindow := s.takeUseSlidingWindow(c)
	s.readCommon(c, 1.0)
	c.reject("attention_bias", "false")
	s.qkvBias = biasRequired
	s.readQwenWindows(c, useWindow)
}

// readQwen3 reads Qwen3's text model: per-head q/k norms, biases under
// attention_bias.
func (s *spec) readQwen3(c *config) {
	useWindow := s.takeUseSlidingWindow(c)
	s.readCommon(c, 1.0)
	s.readAttentionBias(c)
	s.qkNorm = true
	s.readQwenWindows(c, useWindow)
}

// readVisionLanguageOrTop reads a vision-language checkpoint's text model
// from text_config where the config has one (readVisionLanguage), else
// from its top level beside the vision tower's fields (Qwen2-VL's and
// Qwen2.5-VL's configs as first published).
func (s *spec) readVisionLanguageOrTop(c *config, readText func(*config)) {
	if _, ok := c.raw["text_config"]; ok {
		s.readVisionLanguage(c, readText)
		return
	}
	for _, f := range visionLanguageFields {
		c.used[f] = true
	}
	readText(c)
}

// readVisionLanguage reads a vision-language checkpoint's text model (Qwen
// 3.5's published form, Qwen3_5ForConditionalGeneration and the MoE one;
// Gemma3ForConditionalGeneration): its fields under text_config, read by
// readText, tie_word_embeddings at the top where it is given there. The
// weights are under model.language_model. (or Gemma 3's older
// language_model.model.; hfNamesFor); the vision tower's are left unread.
func (s *spec) readVisionLanguage(c *config, readText func(*config)) {
	text := c.object("text_config")
	if c.err != nil {
		return
	}
	if text == nil {
		c.fail("missing field \"text_config\" (%s keeps the text model's fields there)", s.arch)
		return
	}
	tc := &config{path: c.path + " (text_config)", raw: text, used: map[string]bool{}}
	for _, f := range ignoredFields {
		tc.used[f] = true
	}
	readText(tc)
	if _, ok := c.raw["tie_word_embeddings"]; ok {
		top := c.bool("tie_word_embeddings", false)
		if _, inText := text["tie_word_embeddings"]; inText && top != s.tied {
			c.fail("tie_word_embeddings is %v here and %v in text_config", top, s.tied)
		}
		s.tied = top
	}
	for _, f := range visionLanguageFields {
		c.used[f] = true
	}
	tc.leftovers(s.arch + "'s text_config")
	if tc.err != nil && c.err == nil {
		c.err = tc.err
	}
}

func (s *spec) readGemma3(c *config) { s.readGemma(c, 3) }

// softcap reads a Gemma 2 soft-capping field: def where the config
// leaves it out, none where it says null.
func softcap(c *config, key string, def float64) float64 {
	if v, ok := c.raw[key]; ok && string(v) == "null" {
		c.used[key] = true
		return 0
	}
	v := c.float(key, def)
	if !(v > 0) || math.IsInf(v, 0) {
		c.fail("field %q = %g: rlx needs a finite positive cap, or null", key, v)
	}
	return v
}

// readGemma reads Gemma 2's and Gemma 3's text models: Llama's layout
// with `1 + w` norms before and after attention and the MLP, gelu_tanh,
// embeddings × √hidden, scores × query_pre_attn_scalar^−½, and sliding
// layers (layer_types, or all but every sliding_window_pattern-th: every
// second for Gemma 2, every sixth for Gemma 3) that attend through a
// window of sliding_window. Gemma 2 soft-caps its scores
// (attn_logit_softcapping, default 50) and its logits
// (final_logit_softcapping, default 30); Gemma 3 has q/k norms, refuses
// soft-capping, and rotates its sliding layers at their own rope base
// (rope_local_base_freq, or transformers 5's rope_parameters keyed by
// layer type).
// readGemma1 reads Gemma (the first) and CodeGemma as transformers 5
// does: RMSNorms scaling by 1 + w, a gated MLP whose activation is
// hidden_act (gelu_pytorch_tanh by default; "gelu" is erf's, and silu
// gives SwiGLU; the hidden_activation of the first configs, which
// transformers 4 read instead, is left unread), the embeddings × √hidden
// in the table's type, a tied head by default; no window, caps or q/k
// norms, scores × 1/√head_dim.
func (s *spec) readGemma1(c *config) {
	c.setDefault("hidden_act", `"gelu_pytorch_tanh"`)
	if !s.readGatedAct(c) {
		return
	}
	c.used["hidden_activation"] = true
	c.setDefault("tie_word_embeddings", "true")
	s.readCommon(c, 1.0)
	c.reject("attention_bias", "false")
	c.reject("use_bidirectional_attention", "false")
	s.zeroCentred = true
	s.embedScale, s.embedRound = math.Sqrt(float64(s.hidden)), true
	s.allFull()
}

func (s *spec) readGemma(c *config, version int) {
	if act := c.str("hidden_activation", "gelu_pytorch_tanh"); act != "gelu_pytorch_tanh" {
		c.fail("field \"hidden_activation\" = %q is not supported (rlx implements \"gelu_pytorch_tanh\" only)", act)
		return
	}
	s.geluTanh = true
	// transformers 5 keys the rope by layer type: taken apart here, before
	// readCommon reads a single rope.
	var byType map[string]json.RawMessage
	if version == 3 {
		byType = takeRopeByType(c)
	}
	s.readCommon(c, 1.0)
	if c.err != nil {
		return
	}
	if _, ok := c.raw["tie_word_embeddings"]; !ok {
		s.tied = true // Gemma2Config's and Gemma3TextConfig's default
	}
	c.reject("attention_bias", "false")
	globalEvery := 6 // sliding_window_pattern's default
	if version == 2 {
		s.attnSoftcap = softcap(c, "attn_logit_softcapping", 50)
		s.finalSoftcap = softcap(c, "final_logit_softcapping", 30)
		globalEvery = 2
	} else {
		c.reject("final_logit_softcapping")
		c.reject("attn_logit_softcapping")
		s.qkNorm = true
	}
	c.reject("use_bidirectional_attention", "false")
	c.used["cache_implementation"] = true
	s.zeroCentred, s.sandwich = true, true
	s.embedScale, s.embedRound = math.Sqrt(float64(s.hidden)), true
	q := c.float("query_pre_attn_scalar", 256)
	if !(q > 0) || math.IsInf(q, 0) {
		c.fail("field \"query_pre_attn_scalar\" = %g: rlx needs a finite positive scalar", q)
		return
	}
	s.attnScale = 1 / math.Sqrt(q)
	s.allFull()
	sliding, given := s.slidingTypes(c)
	if c.err != nil {
		return
	}
	s.sliding = sliding
	if !given {
		// transformers 5.17 writes Gemma 3's as _sliding_window_pattern
		// (beside layer_types, which rule where given).
		s.sliding = slidingEvery(s.layers, c.int("sliding_window_pattern", c.int("_sliding_window_pattern", globalEvery, false), false))
	}
	c.used["sliding_window_pattern"], c.used["_sliding_window_pattern"] = true, true
	s.setWindow(c.int("sliding_window", 4096, false))
	if version == 2 {
		return // one rope for every layer
	}
	local := c.float("rope_local_base_freq", 10000) // read (and so accepted) in both forms
	if byType != nil {
		s.invFreq = s.ropeOf(c, byType, "full_attention")
		s.localInvFreq = s.ropeOf(c, byType, "sliding_attention")
		return
	}
	if !(local > 1) || math.IsInf(local, 0) {
		c.fail("field \"rope_local_base_freq\" = %g: rlx needs a finite rope base above 1", local)
		return
	}
	s.localInvFreq = ropeFrequencies(local, s.rotaryDim)
}

// ropeOf reads one layer type's entry of rope_parameters keyed by layer
// type: its frequencies, over s's rotary dim.
func (s *spec) ropeOf(c *config, byType map[string]json.RawMessage, layerType string) []float64 {
	t := s.ropeEntry(c, byType, layerType)
	if t == nil {
		return nil
	}
	if c.err == nil && (t.ropeAttn != 0 || t.longInvFreq != nil) {
		c.fail("rope_parameters.%s: rlx reads YaRN and LongRoPE for one rope a model, not per layer type", layerType)
	}
	if layerType == fullAttention {
		s.theta = t.theta
	}
	return t.invFreq
}

// takeRopeByType takes transformers 5's rope_parameters keyed by layer
// type (Gemma 3's, OLMo 3's) out of c, before readCommon reads a single
// rope; nil where the config's rope is not keyed so.
func takeRopeByType(c *config) map[string]json.RawMessage {
	params := c.object("rope_parameters")
	if _, ok := params[fullAttention]; !ok {
		return nil
	}
	delete(c.raw, "rope_parameters")
	return params
}

// ropeEntry reads one layer type's entry of rope_parameters keyed by
// layer type (Gemma 3's, OLMo 3's) as a model's one rope, over s's
// rotary dim: a spec holding only its rope (nil when c has failed).
func (s *spec) ropeEntry(c *config, byType map[string]json.RawMessage, layerType string) *spec {
	for k := range byType {
		if k != fullAttention && k != "sliding_attention" {
			c.fail("field \"rope_parameters\" has an entry for %q (%s has sliding_attention and full_attention)", k, s.arch)
			return nil
		}
	}
	params, ok := byType[layerType]
	if !ok {
		c.fail("field \"rope_parameters\" has no %q entry", layerType)
		return nil
	}
	t := &spec{arch: s.arch, headDim: s.headDim, eps: s.eps, maxTokens: s.maxTokens}
	raw := map[string]json.RawMessage{"rope_parameters": params}
	if v, ok := c.raw["max_position_embeddings"]; ok { // YaRN's original context by default
		raw["max_position_embeddings"] = v
	}
	tc := &config{path: c.path + " (rope_parameters." + layerType + ")", raw: raw, used: map[string]bool{}}
	t.readRope(tc, 1.0)
	if tc.err != nil && c.err == nil {
		c.err = tc.err
	}
	if c.err == nil && t.rotaryDim != s.rotaryDim {
		c.fail("rope_parameters.%s rotates %d dims, the other layers %d", layerType, t.rotaryDim, s.rotaryDim)
	}
	if c.err != nil {
		return nil
	}
	return t
}

// readOlmo3Rope reads OLMo 3's rope as transformers 5.17 applies it: the
// full layers' from rope_parameters.full_attention (or the top-level
// rope_theta and rope_scaling), the sliding layers' from
// rope_parameters.sliding_attention (or rope_theta unscaled), which must
// be plain. byType is rope_parameters where keyed by layer type, taken
// out of c before readCommon read the top-level fields.
func (s *spec) readOlmo3Rope(c *config, byType map[string]json.RawMessage) {
	if byType != nil {
		full := s.ropeEntry(c, byType, fullAttention)
		if full == nil {
			return
		}
		s.theta, s.invFreq, s.ropeAttn = full.theta, full.invFreq, full.ropeAttn
		s.longInvFreq, s.longFrom = full.longInvFreq, full.longFrom
		s.localInvFreq = s.ropeOf(c, byType, "sliding_attention")
		return
	}
	if base := ropeFrequencies(s.theta, s.rotaryDim); s.ropeAttn != 0 || s.longInvFreq != nil || !slices.Equal(base, s.invFreq) {
		s.localInvFreq = base // rope_scaling scales the full layers only
	}
}

// takeUseSlidingWindow reads use_sliding_window for a family that reads
// its windows itself (readQwenWindows), and takes it out of what
// readCommon refuses.
func (s *spec) takeUseSlidingWindow(c *config) bool {
	use := c.bool("use_sliding_window", false)
	delete(c.raw, "use_sliding_window")
	return use
}

// readQwenWindows reads the Qwen family's per-layer sliding windows, as
// transformers' configs resolve them: layer_types, or by default the
// layers from max_window_layers (28) on slide when use_sliding_window;
// a sliding layer attends through sliding_window only when
// use_sliding_window (otherwise transformers drops the window).
func (s *spec) readQwenWindows(c *config, use bool) {
	s.allFull()
	w := 0
	if use {
		if w = c.int("sliding_window", 0, false); w == 0 {
			c.fail("use_sliding_window is true but sliding_window is not a positive integer")
			return
		}
	}
	sliding, given := s.slidingTypes(c)
	if c.err != nil {
		return
	}
	if !given {
		first := c.int("max_window_layers", 28, false)
		sliding = make([]bool, s.layers)
		for i := range sliding {
			sliding[i] = i >= first
		}
	}
	s.sliding = make([]bool, s.layers)
	for i, slides := range sliding {
		s.sliding[i] = w > 0 && slides
	}
	s.setWindow(w)
}

// readNoRope reads SmolLM3's NoPE layers: no_rope_layers, a 1 for each
// layer that rotates q and k and a 0 for one that does not (entries past
// the layers unread), else every no_rope_layer_interval-th layer (4)
// without rope, as SmolLM3Config fills it in.
func (s *spec) readNoRope(c *config) {
	interval := c.int("no_rope_layer_interval", 4, false)
	s.noRope = make([]bool, s.layers)
	if v, ok := c.get("no_rope_layers"); ok {
		var flags []int
		if err := json.Unmarshal(v, &flags); err != nil || len(flags) < s.layers {
			c.fail("field \"no_rope_layers\" = %s is not a list of at least %d 0s and 1s", v, s.layers)
			return
		}
		for i, f := range flags[:s.layers] {
			if f != 0 && f != 1 {
				c.fail("field \"no_rope_layers\" holds %d at layer %d; want 1 (rope) or 0 (none)", f, i)
				return
			}
			s.noRope[i] = f == 0
		}
		return
	}
	if interval == 0 {
		c.fail("field \"no_rope_layer_interval\" must be positive")
		return
	}
	for i := range s.noRope {
		s.noRope[i] = (i+1)%interval == 0
	}
}

// readSmolLM3Windows reads SmolLM3's sliding layers: those layer_types
// names sliding_attention (by default the NoPE layers, when
// use_sliding_window and sliding_window are given) attend through
// sliding_window, and only when use_sliding_window (SmolLM3Attention
// drops the window otherwise).
func (s *spec) readSmolLM3Windows(c *config, use bool) {
	s.allFull()
	w := 0
	if use {
		w = c.int("sliding_window", 0, false)
	}
	sliding, given := s.slidingTypes(c)
	if c.err != nil {
		return
	}
	if !given {
		sliding = slices.Clone(s.noRope)
	}
	s.sliding = make([]bool, s.layers)
	for i, slides := range sliding {
		s.sliding[i] = w > 0 && slides
	}
	s.setWindow(w)
}

// readExaone4Windows reads EXAONE 4's hybrid attention: with a
// sliding_window, the sliding layers of layer_types (else of
// sliding_window_pattern: every layer but each n-th for an integer n, 4
// by default; the layers marked L for a string such as "LLLG", repeated)
// attend through it, and the rest rotate nothing; with none, every layer
// is global and rotates.
func (s *spec) readExaone4Windows(c *config) {
	s.allFull()
	w := c.int("sliding_window", 0, false)
	sliding, given := s.slidingTypes(c)
	pattern, hasPattern := c.get("sliding_window_pattern")
	if c.err != nil {
		return
	}
	if w == 0 {
		return
	}
	if !given {
		var every int
		var marks string
		switch {
		case !hasPattern:
			every = 4
		case json.Unmarshal(pattern, &every) == nil && every > 0:
		case json.Unmarshal(pattern, &marks) == nil && marks != "" && strings.Trim(marks, "LG") == "":
		default:
			c.fail("field \"sliding_window_pattern\" = %s is neither a positive integer nor a string of L (sliding) and G (global)", pattern)
			return
		}
		sliding = make([]bool, s.layers)
		for i := range sliding {
			if marks != "" {
				sliding[i] = marks[i%len(marks)] == 'L'
			} else {
				sliding[i] = (i+1)%every != 0
			}
		}
	}
	s.sliding, s.noRope = sliding, globalNoPE(sliding)
	s.setWindow(w)
}

// readCohere2Windows reads Cohere 2's hybrid attention: the sliding
// layers of layer_types (else all but each sliding_window_pattern-th, 4)
// attend through sliding_window and rotate q and k; the global layers
// rotate nothing (Cohere2Attention rotates only where the layer has a
// window, so with a null sliding_window no layer does).
func (s *spec) readCohere2Windows(c *config) {
	w := c.int("sliding_window", 0, false)
	sliding, given := s.slidingTypes(c)
	if c.err != nil {
		return
	}
	if !given {
		sliding = slidingEvery(s.layers, c.int("sliding_window_pattern", 4, false))
	}
	c.used["sliding_window_pattern"] = true
	s.sliding, s.noRope = sliding, globalNoPE(sliding)
	if w == 0 {
		s.noRope = slices.Repeat([]bool{true}, s.layers) // no window: no layer rotates
	}
	s.setWindow(w)
}

// slidingTypes reads a layer_types of full_attention and
// sliding_attention entries: which layers slide, and whether the field is
// given.
func (s *spec) slidingTypes(c *config) (sliding []bool, given bool) {
	return s.typesOf(c, "sliding_attention")
}

// typesOf reads a layer_types of full_attention and other entries:
// which layers are other, and whether the field is given.
func (s *spec) typesOf(c *config, other string) (is []bool, given bool) {
	v, ok := c.get("layer_types")
	if !ok {
		return nil, false
	}
	var types []string
	if err := json.Unmarshal(v, &types); err != nil || len(types) != s.layers {
		c.fail("field \"layer_types\" = %s is not a list of %d layer types", v, s.layers)
		return nil, true
	}
	is = make([]bool, s.layers)
	for i, t := range types {
		switch t {
		case other:
			is[i] = true
		case fullAttention:
		default:
			c.fail("field \"layer_types\" gives layer %d type %q, which is not supported for %s (rlx implements full_attention, %s)", i, t, s.arch, other)
			return nil, true
		}
	}
	return is, true
}

// readLfm2MoE reads Lfm2MoeForCausalLM (LFM2-8B-A1B): LFM2's layers
// (readLfm2) whose MLP from layer num_dense_layers on routes over
// num_experts SwiGLU experts of moe_intermediate_size rows: σ of the
// router's logits, the top num_experts_per_tok of them (+ expert_bias
// under use_expert_bias, for the choice only), their scores renormalised
// under norm_topk_prob (sum + 1e-6, as Lfm2MoeSparseMoeBlock) and ×
// routed_scaling_factor; no shared expert.
func (s *spec) readLfm2MoE(c *config) {
	s.readLfm2(c)
	if c.err != nil {
		return
	}
	s.experts, s.topK = c.int("num_experts", 0, true), c.int("num_experts_per_tok", 0, true)
	s.moeFFN = c.int("moe_intermediate_size", 0, true)
	dense := c.int("num_dense_layers", 2, false)
	s.normTopK, s.routedScale = c.bool("norm_topk_prob", true), c.float("routed_scaling_factor", 1)
	s.noSelectBias, s.routeEps = !c.bool("use_expert_bias", true), 1e-6
	s.sigmoidRouter = true
	s.moeLayer = make([]bool, s.layers)
	for i := range s.moeLayer {
		s.moeLayer[i] = i >= dense
	}
	switch {
	case c.err != nil:
	case s.topK < 1 || s.topK > s.experts || s.moeFFN == 0:
		c.fail("num_experts_per_tok = %d must be in [1, num_experts = %d], and moe_intermediate_size positive", s.topK, s.experts)
	case !scaleInRange(s.routedScale):
		c.fail("field \"routed_scaling_factor\" = %g: rlx needs a scale in [%g, %g]", s.routedScale, scaleMin, scaleMax)
	}
}

// readSigmoidMoE reads DeepSeek-V3's experts as GLM-4.5 names them:
// n_routed_experts of moe_intermediate_size rows from layer
// first_k_dense_replace on, num_experts_per_tok chosen, n_shared_experts
// shared ones, routed_scaling_factor, norm_topk_prob; with topk_group <
// n_group, group-limited routing.
func (s *spec) readSigmoidMoE(c *config) {
	groups, open := c.int("n_group", 1, false), c.int("topk_group", 1, false)
	c.reject("topk_method", `"noaux_tc"`)
	c.reject("scoring_func", `"sigmoid"`)
	s.sigmoidRouter = true
	s.readDeepseekMoE(c, c.bool("norm_topk_prob", true))
	if c.err == nil {
		if bad := s.setGroups("n_group", "topk_group", groups, open, false); bad != "" {
			c.fail("%s", bad)
		}
	}
}

// readDeepseekMoE reads DeepSeek's experts as readSigmoidMoE names them
// (V3's and V2's alike; the router's scoring is the caller's), the
// chosen weights renormalised under norm.
func (s *spec) readDeepseekMoE(c *config, norm bool) {
	bad := s.setDeepseekMoE(c.int("n_routed_experts", 0, true), c.int("num_experts_per_tok", 0, true), c.int("moe_intermediate_size", 0, true),
		c.int("n_shared_experts", 0, false), c.int("first_k_dense_replace", 0, false), norm, c.float("routed_scaling_factor", 1))
	if c.err == nil && bad != "" {
		c.fail("n_routed_experts, num_experts_per_tok, moe_intermediate_size, routed_scaling_factor: %s", bad)
	}
}

// setGroups takes DeepSeek's group-limited routing: experts chosen only
// from the open of groups groups ranked highest, by their best expert
// (byMax, V2) or their two best (V3, which needs two a group); every
// group open routes over all of them. It returns what is wrong with the
// sizes, or "" (groupsKey and openKey name them in the message).
func (s *spec) setGroups(groupsKey, openKey string, groups, open int, byMax bool) string {
	switch {
	case groups < 1 || open < 1 || open > groups || s.experts%groups != 0:
		return fmt.Sprintf("%s = %d, %s = %d: rlx needs 1 ≤ %[3]s ≤ %[1]s, %[1]s dividing the %[5]d experts", groupsKey, groups, openKey, open, s.experts)
	case open != groups && !byMax && s.experts/groups < 2:
		return fmt.Sprintf("%s = %d of %d experts: group-limited routing ranks a group by its two best experts, so rlx needs at least 2 a group", groupsKey, groups, s.experts)
	case open != groups:
		s.groups, s.openGroups, s.groupByMax = groups, open, byMax
	}
	return ""
}

// setDeepseekMoE sets DeepSeek's experts (GLM-4.5's): experts experts
// of moeFFN rows in every layer from firstDense on, topK chosen,
// weighted by their scores (sigmoid or softmax: the caller's),
// renormalised under norm, × scale; shared experts of moeFFN rows as one
// ungated MLP. It returns what is wrong with the sizes, or "".
func (s *spec) setDeepseekMoE(experts, topK, moeFFN, shared, firstDense int, norm bool, scale float64) string {
	s.experts, s.topK, s.moeFFN, s.sharedFFN = experts, topK, moeFFN, moeFFN*shared
	s.sharedUngated, s.normTopK, s.routedScale = true, norm, scale
	s.moeLayer = make([]bool, s.layers)
	for i := range s.moeLayer {
		s.moeLayer[i] = i >= firstDense
	}
	switch {
	case experts == 0 || topK < 1 || topK > experts || moeFFN == 0:
		return fmt.Sprintf("%d chosen must be in [1, %d experts], of positive rows (%d)", topK, experts, moeFFN)
	case !(scale > 0) || math.IsInf(scale, 0):
		return fmt.Sprintf("the scale %g must be finite and positive", scale)
	}
	return ""
}

// Granite's multipliers and Cohere's logit scale are read within
// [scaleMin, scaleMax] (the published ones lie between 1/128 and 16):
// far outside, the logits or the scores overflow float32 (a granite
// logits_scaling of 3e-44 made every logit −Inf: FuzzImportGGUF).
const scaleMin, scaleMax = 1e-6, 1e6

func scaleInRange(v float64) bool { return v >= scaleMin && v <= scaleMax }

// readLayerNormEps reads the LayerNorms' epsilon from key (1e-5 by
// default): finite and non-negative.
func (s *spec) readLayerNormEps(c *config, key string) {
	s.eps = c.float(key, 1e-5)
	if !(s.eps >= 0) || math.IsInf(s.eps, 0) {
		c.fail("field %q = %g: rlx needs a finite, non-negative epsilon", key, s.eps)
	}
}

// readAttentionBias reads attention_bias (Llama, Qwen3): biases on the
// q, k, v and output projections.
func (s *spec) readAttentionBias(c *config) {
	if c.bool("attention_bias", false) {
		s.qkvBias, s.oBias = biasRequired, biasRequired
	}
}

// readWindow reads Mistral's (and Phi-3's) sliding_window: a key more
// than the window behind the query is masked (transformers: visible when
// pos − row < window). A window at least the cache's length masks
// nothing and is dropped.
func (s *spec) readWindow(c *config) {
	s.setWindow(c.int("sliding_window", 0, false))
}

func (s *spec) allFull() {
	s.layerTypes = make([]string, s.layers)
	for i := range s.layerTypes {
		s.layerTypes[i] = fullAttention
	}
}

// readLayerTypes reads layer_types, or derives them from
// full_attention_interval (transformers' default: every fourth layer full
// attention) when allowed includes linear attention.
func (s *spec) readLayerTypes(c *config, allowed ...string) {
	interval := c.int("full_attention_interval", 4, false)
	v, ok := c.get("layer_types")
	if !ok {
		s.layerTypes = make([]string, s.layers)
		for i := range s.layerTypes {
			s.layerTypes[i] = fullAttention
			if slices.Contains(allowed, linearAttention) && interval > 0 && (i+1)%interval != 0 {
				s.layerTypes[i] = linearAttention
			}
		}
		return
	}
	if err := json.Unmarshal(v, &s.layerTypes); err != nil {
		c.fail("field \"layer_types\" = %s is not a list of strings", v)
		return
	}
	if len(s.layerTypes) != s.layers {
		c.fail("field \"layer_types\" lists %d layers, but num_hidden_layers = %d", len(s.layerTypes), s.layers)
		return
	}
	for i, t := range s.layerTypes {
		if !slices.Contains(allowed, t) {
			c.fail("field \"layer_types\" gives layer %d type %q, which is not supported for %s (rlx implements %s)", i, t, s.arch, strings.Join(allowed, ", "))
			return
		}
	}
}

// readGDN reads the gated DeltaNet's sizes.
func (s *spec) readGDN(c *config) {
	s.convKernel = c.int("linear_conv_kernel_dim", 4, false)
	s.keyHeads = c.int("linear_num_key_heads", 16, false)
	s.valueHeads = c.int("linear_num_value_heads", 32, false)
	kd := c.int("linear_key_head_dim", 128, false)
	vd := c.int("linear_value_head_dim", 128, false)
	switch {
	case c.err != nil:
	case kd != vd:
		c.fail("linear_key_head_dim = %d differs from linear_value_head_dim = %d; graph.gated_delta_net needs equal key and value heads", kd, vd)
	case s.keyHeads == 0 || s.valueHeads%s.keyHeads != 0:
		c.fail("linear_num_key_heads = %d does not divide linear_num_value_heads = %d", s.keyHeads, s.valueHeads)
	case s.convKernel < 1 || kd == 0:
		c.fail("linear_conv_kernel_dim and linear_key_head_dim must be positive")
	}
	s.gdn = kd
}

// readMoE reads the mixture of experts of Qwen2-MoE and Qwen3-Next
// (shared: with a shared expert) and Qwen3-MoE (without); normDefault is
// norm_topk_prob's default in the architecture's transformers config
// (True for Qwen3-Next, False for the MoE classes).
func (s *spec) readMoE(c *config, shared, normDefault bool) {
	// transformers 5.17 writes Qwen3-MoE's count as num_local_experts
	// (run 37d's fixture), older files num_experts.
	s.experts = c.int("num_experts", 0, false)
	if local := c.int("num_local_experts", s.experts, false); s.experts == 0 {
		s.experts = local
	} else if local != s.experts {
		c.fail("num_experts = %d and num_local_experts = %d disagree", s.experts, local)
	}
	s.topK = c.int("num_experts_per_tok", 0, false)
	s.moeFFN = c.int("moe_intermediate_size", 0, false)
	if shared {
		s.sharedFFN = c.int("shared_expert_intermediate_size", 0, false)
	}
	s.normTopK = c.bool("norm_topk_prob", normDefault)
	step := c.int("decoder_sparse_step", 1, false)
	var dense []int
	if v, ok := c.get("mlp_only_layers"); ok {
		if err := json.Unmarshal(v, &dense); err != nil {
			c.fail("field \"mlp_only_layers\" = %s is not a list of layer indexes", v)
			return
		}
	}
	s.moeLayer = make([]bool, s.layers)
	for i := range s.moeLayer {
		s.moeLayer[i] = s.experts > 0 && step > 0 && (i+1)%step == 0 && !slices.Contains(dense, i)
	}
	switch {
	case s.experts > 0 && (s.topK < 1 || s.topK > s.experts || s.moeFFN == 0):
		c.fail("num_experts_per_tok = %d must be in [1, num_experts = %d], and moe_intermediate_size positive", s.topK, s.experts)
	case s.experts > 0 && shared && s.sharedFFN == 0:
		c.fail("shared_expert_intermediate_size must be positive")
	}
}
