package importer

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/ref"
)

// This file converts a Hugging Face checkpoint to GGUF the way llama.cpp's
// convert_hf_to_gguf.py does (conversion/llama.py, conversion/qwen.py;
// names from gguf-py's TENSOR_NAMES), for the GGUF tests: Llama's (and
// Mistral's) q/k row permutation, their biases' too, and rope_freqs, Qwen3-Next's split of in_proj_qkvz and its
// stacked experts, the `1 + w` norms folded, ssm_a = −exp(A_log), the
// conv taps squeezed, Qwen3.5's value heads reordered to tiled order. With
// a format, matrices whose rows are whole blocks are quantised (as
// llama.cpp keeps the router, the β/α projections, the conv taps and 1-D
// tensors in F32).

var ggufArch = map[string]string{
	"LlamaForCausalLM": "llama", "MistralForCausalLM": "llama", "Phi3ForCausalLM": "phi3", "Qwen2ForCausalLM": "qwen2", "Qwen3ForCausalLM": "qwen3",
	"Qwen3MoeForCausalLM": "qwen3moe", "Gemma2ForCausalLM": "gemma2", "Gemma3ForCausalLM": "gemma3", "MixtralForCausalLM": "llama", "Qwen2MoeForCausalLM": "qwen2moe",
	"Qwen3_5ForCausalLM": "qwen35", "Qwen3NextForCausalLM": "qwen3next", "Qwen3_5ForConditionalGeneration": "qwen35",
	"Qwen3_5MoeForConditionalGeneration": "qwen35moe", "SmolLM3ForCausalLM": "smollm3",
	"GraniteForCausalLM": "granite", "Olmo2ForCausalLM": "olmo2", "Olmo3ForCausalLM": "olmo2", "Glm4ForCausalLM": "glm4",
	"Exaone4ForCausalLM": "exaone4", "Ernie4_5ForCausalLM": "ernie4_5", "CohereForCausalLM": "command-r", "Cohere2ForCausalLM": "cohere2",
	"Lfm2ForCausalLM": "lfm2", "OlmoeForCausalLM": "olmoe", "SeedOssForCausalLM": "seed_oss", "ArceeForCausalLM": "arcee", "Starcoder2ForCausalLM": "starcoder2", "PhiForCausalLM": "phi2", "StableLmForCausalLM": "stablelm",
	"GPTNeoXForCausalLM": "gptneox", "NemotronForCausalLM": "nemotron",
	"GraniteMoeForCausalLM": "granitemoe", "GraniteMoeSharedForCausalLM": "granitemoe", "GemmaForCausalLM": "gemma",
	"Glm4MoeForCausalLM": "glm4moe", "Qwen2_5_VLForConditionalGeneration": "qwen2vl", "Qwen3VLForConditionalGeneration": "qwen3vl",
	"Qwen3VLMoeForConditionalGeneration": "qwen3vlmoe", "GptOssForCausalLM": "gpt-oss",
	"DeepseekV2ForCausalLM": "deepseek2", "DeepseekV3ForCausalLM": "deepseek2", "KimiLinearForCausalLM": "kimi-linear",
	"Llama4ForCausalLM": "llama4", "Llama4ForConditionalGeneration": "llama4",
	"GraniteMoeHybridForCausalLM": "granitehybrid", "BambaForCausalLM": "granitehybrid",
	"Mamba2ForCausalLM": "mamba2", "MambaForCausalLM": "mamba", "FalconMambaForCausalLM": "mamba",
	"NemotronHForCausalLM": "nemotron_h", "JambaForCausalLM": "jamba", "FalconH1ForCausalLM": "falcon-h1",
	"Lfm2MoeForCausalLM": "lfm2moe", "Ernie4_5_MoeForCausalLM": "ernie4_5-moe",
	"MiniMaxM2ForCausalLM": "minimax-m2", "ApertusForCausalLM": "apertus", "Ministral3ForCausalLM": "mistral3",
}

// ropeScaling is the part of a config's rope parameters the converter
// writes into GGUF.
type ropeScaling struct {
	RopeType    string    `json:"rope_type"`
	Type        string    `json:"type"`
	Factor      float64   `json:"factor"`
	ShortFactor []float32 `json:"short_factor"`
	LongFactor  []float32 `json:"long_factor"`
	// YaRN's (the optional ones written only where the config has them)
	Original        float64  `json:"original_max_position_embeddings"`
	BetaFast        *float64 `json:"beta_fast"`
	BetaSlow        *float64 `json:"beta_slow"`
	AttentionFactor *float64 `json:"attention_factor"`
	MscaleAllDim    *float64 `json:"mscale_all_dim"`       // DeepSeek's, Ministral 3's
	Llama4Beta      *float64 `json:"llama_4_scaling_beta"` // Ministral 3's scaling of q
}

// configRope returns the checkpoint's rope parameters (rope_parameters,
// or the older rope_scaling) if its config asks for the rope type kind.
func configRope(t testing.TB, dir, kind string) (ropeScaling, bool) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	var byType map[string]json.RawMessage // OLMo 3's: the full layers' rope, as the file's rope keys
	if json.Unmarshal(raw["rope_parameters"], &byType) == nil && byType["full_attention"] != nil {
		raw["rope_parameters"] = byType["full_attention"]
	}
	for _, key := range []string{"rope_parameters", "rope_scaling"} {
		var p ropeScaling
		if json.Unmarshal(raw[key], &p) == nil && (p.RopeType == kind || p.Type == kind) {
			return p, true
		}
	}
	return ropeScaling{}, false
}

// permutesRope: llama.cpp's LlamaModel (and MistralModel, its subclass)
// permutes q and k for adjacent-pair rope.
func permutesRope(arch string) bool {
	return ggufArch[arch] == "llama" || ggufArch[arch] == "smollm3" || ggufArch[arch] == "mistral3" || ggufArch[arch] == "granite" || ggufArch[arch] == "granitemoe" || ggufArch[arch] == "arcee" ||
		ggufArch[arch] == "granitehybrid" || ggufArch[arch] == "nemotron_h"
}

// converted is one tensor of the GGUF being written.
type converted struct {
	name  string
	shape []int
	data  []float32
	quant bool // may be quantised
}

// convertToGGUF writes the checkpoint in dir as GGUF; format 0 writes F32.
// With dequantised, the tensors format would quantise are written as F32
// holding their dequantised values: the same numbers, without the
// quantised path.
func convertToGGUF(t testing.TB, dir string, format gguf.Format, dequantised bool) []byte {
	t.Helper()
	s, src := openSpec(t, dir)
	defer src.Close()
	if s.experts > 0 && !s.oss {
		s.expertsInOut = publishedExperts(s, hfNamesFor(s.arch, src), src) // as build takes it
	}
	arch := ggufArch[s.arch]
	if arch == "nemotron_h" && s.experts > 0 {
		arch = "nemotron_h_moe" // NemotronHModel.__init__: a config with num_experts_per_tok
	}
	cfg, err := readConfig(dir) // the fields the converter reads beside the spec's
	if err != nil {
		t.Fatal(err)
	}
	var w gguf.Writer
	key := func(k string) string { return arch + "." + k }
	w.Add("general.architecture", arch)
	w.Add(key("context_length"), uint32(512))
	w.Add(key("embedding_length"), uint32(s.hidden))
	nextn := 0 // glm4moe: Glm4MoeModel counts the multi-token-prediction blocks
	if arch == "glm4moe" {
		nextn = cfg.int("num_nextn_predict_layers", 0, false)
	}
	w.Add(key("block_count"), uint32(s.layers+nextn))
	if arch == "nemotron_h" || arch == "nemotron_h_moe" {
		// NemotronHModel.set_gguf_parameters: the MLP layers' width, 0
		// for the others; with experts, moe_intermediate_size in the
		// expert layers (an MLP layer's 0, which llama.cpp cannot load:
		// the tests' MoE checkpoints have none).
		ff := make([]uint32, s.layers)
		for i, lt := range s.layerTypes {
			switch {
			case lt == mlpLayer && s.experts > 0 && s.moeLayer[i]:
				ff[i] = uint32(s.moeFFN)
			case lt == mlpLayer && s.experts > 0:
				t.Fatalf("%s: layer %d is an MLP, which the converter writes as a Mamba-2 layer in nemotron_h_moe", dir, i)
			case lt == mlpLayer:
				ff[i] = uint32(s.ffn)
			}
		}
		w.Add(key("feed_forward_length"), ff)
	} else {
		w.Add(key("feed_forward_length"), uint32(s.ffn))
	}
	w.Add(key("vocab_size"), uint32(s.vocab))
	w.Add(key("attention.head_count"), uint32(s.heads))
	if s.shortConv > 0 || arch == "granitehybrid" || arch == "nemotron_h" || arch == "nemotron_h_moe" || arch == "jamba" || arch == "kimi-linear" {
		// LFM2Model.set_gguf_parameters (GraniteHybridModel's alike):
		// kv heads a layer, 0 for the short convolutions (the Mamba-2
		// layers), and their window; KimiLinearModel's 1 for the latent
		// attention (its one kv head), 0 for the delta attention.
		kv := make([]uint32, s.layers)
		for i, lt := range s.layerTypes {
			switch {
			case lt == fullAttention && arch == "kimi-linear":
				kv[i] = 1
			case lt == fullAttention:
				kv[i] = uint32(s.kvHeads)
			}
		}
		w.Add(key("attention.head_count_kv"), kv)
		if s.shortConv > 0 {
			w.Add(key("shortconv.l_cache"), uint32(s.shortConv))
		}
	} else if s.mla.kvLora == 0 {
		w.Add(key("attention.head_count_kv"), uint32(s.kvHeads))
	}
	if m := s.mla; m.kvLora > 0 {
		// DeepseekV2Model.set_gguf_parameters: one kv head of the latent
		// and the rope dims, the heads' own dims as the *_mla keys.
		// KimiLinearModel's: value_length the config's head_dim
		// (TextModel's, which it leaves), the kv heads a layer (above).
		if arch == "kimi-linear" {
			w.Add(key("attention.value_length"), uint32(s.headDim))
			w.Add(key("ssm.conv_kernel"), uint32(s.convKernel))
			w.Add(key("kda.head_dim"), uint32(s.gdn))
		} else {
			w.Add(key("attention.head_count_kv"), uint32(1))
			w.Add(key("attention.value_length"), uint32(m.kvLora))
		}
		w.Add(key("attention.key_length"), uint32(m.kvLora+m.rope))
		w.Add(key("attention.key_length_mla"), uint32(m.nope+m.rope))
		w.Add(key("attention.value_length_mla"), uint32(m.vDim))
		w.Add(key("attention.kv_lora_rank"), uint32(m.kvLora))
		if m.qLora > 0 {
			w.Add(key("attention.q_lora_rank"), uint32(m.qLora))
		}
	} else {
		w.Add(key("attention.key_length"), uint32(s.headDim))
		w.Add(key("attention.value_length"), uint32(s.headDim))
	}
	w.Add(key("attention.layer_norm_rms_epsilon"), float32(s.eps))
	w.Add(key("rope.freq_base"), float32(s.theta))
	if arch == "kimi-linear" {
		w.Add(key("rope.dimension_count"), uint32(s.mla.rope)) // KimiLinearModel: qk_rope_head_dim (unrotated)
	} else {
		w.Add(key("rope.dimension_count"), uint32(s.rotaryDim))
	}
	if s.arch == "Gemma3ForCausalLM" || s.arch == "Gemma2ForCausalLM" {
		// Gemma3Model.set_gguf_parameters: the window; llama.cpp takes
		// the pattern (6), the sliding layers' rope base (10⁴) and the
		// score scale from the model, not the file. Gemma2Model's also
		// the two soft-caps.
		w.Add(key("attention.sliding_window"), uint32(cfg.int("sliding_window", 0, false)))
		if s.arch == "Gemma2ForCausalLM" {
			w.Add(key("attn_logit_softcapping"), float32(s.attnSoftcap))
			w.Add(key("final_logit_softcapping"), float32(s.finalSoftcap))
		}
	}
	var out []converted
	if s.arch == "Phi3ForCausalLM" {
		// Phi3MiniModel.set_gguf_parameters and its LongRoPE tensors.
		orig := cfg.int("original_max_position_embeddings", 512, false)
		w.Add(key("rope.scaling.original_context_length"), uint32(orig))
		w.Add(key("attention.sliding_window"), uint32(cfg.int("sliding_window", 0, false)))
		if p, ok := configRope(t, dir, "longrope"); ok {
			attn := 1.0
			if scale := float64(cfg.int("max_position_embeddings", 0, false)) / float64(orig); scale > 1 {
				attn = math.Sqrt(1 + math.Log(scale)/math.Log(float64(orig)))
			}
			w.Add(key("rope.scaling.attn_factor"), float32(attn))
			out = append(out, converted{name: "rope_factors_long.weight", shape: []int{len(p.LongFactor)}, data: p.LongFactor},
				converted{name: "rope_factors_short.weight", shape: []int{len(p.ShortFactor)}, data: p.ShortFactor})
		}
	}
	if s.layerNorm {
		// CommandR2Model's, Cohere2Model's and StarCoder2Model's
		// set_gguf_parameters: the LayerNorm's epsilon, the logit scale
		// (and Cohere 2's window, below).
		w.Add(key("attention.layer_norm_epsilon"), float32(s.eps))
		if s.logitMul != 0 {
			w.Add(key("logit_scale"), float32(s.logitMul))
		}
	}
	if arch == "gptneox" {
		// GPTNeoXModel.set_gguf_parameters.
		w.Add(key("use_parallel_residual"), s.parallel)
	}
	if s.arch == "Olmo3ForCausalLM" || s.arch == "Exaone4ForCausalLM" || s.arch == "Cohere2ForCausalLM" || arch == "gpt-oss" {
		// Olmo2Model's, Exaone4Model's and GptOssModel's
		// set_gguf_parameters: the window (llama.cpp's loaders fix the
		// pattern: every fourth layer global, gpt-oss's every second).
		w.Add(key("attention.sliding_window"), uint32(cfg.int("sliding_window", 0, false)))
	}
	if arch == "granitehybrid" || arch == "mamba2" || arch == "nemotron_h" || arch == "nemotron_h_moe" || arch == "falcon-h1" {
		// Mamba2Model.set_gguf_parameters (GraniteHybridModel's too): the
		// Mamba-2 sizes (time_step_rank the heads); granitehybrid's rope
		// only for Bamba (or a model without Mamba-2 layers).
		w.Add(key("ssm.conv_kernel"), uint32(s.ssmConv))
		w.Add(key("ssm.state_size"), uint32(s.ssmState))
		w.Add(key("ssm.group_count"), uint32(s.ssmGroups))
		w.Add(key("ssm.inner_size"), uint32(s.inner()))
		w.Add(key("ssm.time_step_rank"), uint32(s.ssmHeads))
		if arch != "mamba2" && arch != "falcon-h1" {
			w.Add(key("rope.scaling.finetuned"), s.arch == "BambaForCausalLM" || !slices.Contains(s.layerTypes, mambaLayer))
		}
	}
	if arch == "mamba" || arch == "jamba" {
		// MambaModel.set_gguf_parameters: time_step_rank the dt rank;
		// FalconMambaModel's dt_b_c_rms.
		w.Add(key("ssm.conv_kernel"), uint32(s.ssmConv))
		w.Add(key("ssm.state_size"), uint32(s.ssmState))
		w.Add(key("ssm.inner_size"), uint32(s.ssmInner))
		w.Add(key("ssm.time_step_rank"), uint32(s.ssmDTRank))
		if s.ssmBCNorm {
			w.Add(key("ssm.dt_b_c_rms"), true)
		}
	}
	if arch == "granite" || arch == "granitemoe" || arch == "granitehybrid" {
		// GraniteModel.set_gguf_parameters: each multiplier as a scale.
		w.Add(key("embedding_scale"), float32(s.embedScale))
		w.Add(key("attention.scale"), float32(s.attnScale))
		w.Add(key("residual_scale"), float32(s.residualScale))
		w.Add(key("logit_scale"), float32(s.logitScale))
	}
	if s.keyHeads > 0 && !s.kda {
		interval := 0
		for i, lt := range s.layerTypes {
			if lt == fullAttention {
				interval = i + 1
				break
			}
		}
		for i, lt := range s.layerTypes {
			if (lt == fullAttention) != ((i+1)%interval == 0) {
				t.Fatalf("%s: layer_types %v have no full_attention_interval", dir, s.layerTypes)
			}
		}
		w.Add(key("full_attention_interval"), uint32(interval))
		w.Add(key("ssm.conv_kernel"), uint32(s.convKernel))
		w.Add(key("ssm.state_size"), uint32(s.gdn))
		w.Add(key("ssm.group_count"), uint32(s.keyHeads))
		w.Add(key("ssm.time_step_rank"), uint32(s.valueHeads))
		w.Add(key("ssm.inner_size"), uint32(s.valueHeads*s.gdn))
	}
	if s.experts > 0 {
		w.Add(key("expert_count"), uint32(s.experts))
		w.Add(key("expert_used_count"), uint32(s.topK))
		if arch != "llama" && arch != "jamba" { // llama.cpp's Mixtral and Jamba: feed_forward_length
			w.Add(key("expert_feed_forward_length"), uint32(s.moeFFN))
		}
		// TextModel.set_gguf_parameters: the groups wherever the config
		// has them (GLM-4.5's n_group 1 and topk_group 1 too).
		for k, field := range map[string]string{"expert_group_count": "n_group", "expert_group_used_count": "topk_group"} {
			if n := cfg.int(field, 0, false); n > 0 {
				w.Add(key(k), uint32(n))
			}
		}
		switch {
		case arch == "glm4moe":
			// Glm4MoeModel.set_gguf_parameters.
			w.Add(key("expert_shared_count"), uint32(cfg.int("n_shared_experts", 0, false)))
			w.Add(key("leading_dense_block_count"), uint32(cfg.int("first_k_dense_replace", 0, false)))
			w.Add(key("expert_gating_func"), uint32(2))
			w.Add(key("expert_weights_scale"), float32(s.routedScale))
			w.Add(key("expert_weights_norm"), s.normTopK)
			w.Add(key("nextn_predict_layers"), uint32(nextn))
		case arch == "deepseek2":
			// DeepseekV2Model.set_gguf_parameters and TextModel's: the
			// scale where the config has one, the norm only where true,
			// the gating where the config has scoring_func (the published
			// V3 configs say "sigmoid"; transformers 5 saves none, so V3
			// stands for it here), the groups where it has them.
			w.Add(key("expert_shared_count"), uint32(cfg.int("n_shared_experts", 0, false)))
			w.Add(key("leading_dense_block_count"), uint32(cfg.int("first_k_dense_replace", 0, false)))
			if _, ok := cfg.get("routed_scaling_factor"); ok {
				w.Add(key("expert_weights_scale"), float32(cfg.float("routed_scaling_factor", 1)))
			}
			if cfg.bool("norm_topk_prob", false) {
				w.Add(key("expert_weights_norm"), true)
			}
			switch scoring := cfg.str("scoring_func", map[bool]string{true: "sigmoid"}[s.arch == "DeepseekV3ForCausalLM"]); scoring {
			case "sigmoid":
				w.Add(key("expert_gating_func"), uint32(2))
			case "softmax":
				w.Add(key("expert_gating_func"), uint32(1))
			}
		case arch == "llama4":
			// Llama4Model.set_gguf_parameters: the step (its loader reads
			// no list of routing layers); the shared expert is as wide as
			// the routed ones.
			text := cfg
			if raw := cfg.object("text_config"); raw != nil {
				text = &config{path: cfg.path, raw: raw, used: map[string]bool{}}
			}
			step := text.int("interleave_moe_layer_step", 1, false)
			for i, routed := range s.moeLayer {
				if routed != ((i+1)%step == 0) {
					t.Fatalf("%s: the routing layers %v are not every interleave_moe_layer_step = %d", dir, s.moeLayer, step)
				}
			}
			w.Add(key("interleave_moe_layer_step"), uint32(step))
		case arch == "ernie4_5-moe":
			// Ernie4_5MoeModel.set_gguf_parameters: the shared experts'
			// width as intermediate_size ÷ num_key_value_heads.
			w.Add(key("interleave_moe_layer_step"), uint32(cfg.int("moe_layer_interval", 1, false)))
			w.Add(key("leading_dense_block_count"), uint32(cfg.int("moe_layer_start_index", 1, false)))
			if shared := cfg.int("moe_num_shared_experts", 0, false); shared > 0 {
				w.Add(key("expert_shared_count"), uint32(shared))
				w.Add(key("expert_shared_feed_forward_length"), uint32(s.ffn/s.kvHeads))
			}
		case arch == "kimi-linear":
			// KimiLinearModel.set_gguf_parameters (no gating function,
			// no norm: its builder renormalises σ scores always).
			w.Add(key("expert_shared_count"), uint32(cfg.int("num_shared_experts", 0, false)))
			w.Add(key("leading_dense_block_count"), uint32(cfg.int("first_k_dense_replace", 0, false)))
			w.Add(key("expert_weights_scale"), float32(s.routedScale))
		case arch == "minimax-m2":
			// MiniMaxM2Model.set_gguf_parameters (its first form also the
			// gating; rope.dimension_count, rotary_dim, is written above).
			w.Add(key("expert_gating_func"), uint32(2))
		case arch == "lfm2moe":
			// LFM2MoeModel.set_gguf_parameters.
			w.Add(key("leading_dense_block_count"), uint32(cfg.int("num_dense_layers", 2, false)))
			w.Add(key("expert_gating_func"), uint32(2))
		case arch == "nemotron_h_moe":
			// NemotronHModel.set_gguf_parameters (its expert_group_count
			// overwrites TextModel's, with the same value).
			w.Add(key("expert_shared_feed_forward_length"), uint32(s.sharedFFN))
			w.Add(key("expert_shared_count"), uint32(cfg.int("n_shared_experts", 0, true)))
			w.Add(key("expert_weights_norm"), s.normTopK)
			w.Add(key("expert_weights_scale"), float32(s.routedScale))
			if s.moeLatent > 0 {
				w.Add(key("moe_latent_size"), uint32(s.moeLatent))
			}
		case s.sharedFFN > 0:
			w.Add(key("expert_shared_feed_forward_length"), uint32(s.sharedFFN))
		}
	}
	if p, ok := configRope(t, dir, "yarn"); ok {
		// TextModel.set_gguf_parameters: YaRN's factor and original
		// context, and its optional parameters as yarn_* keys.
		w.Add(key("rope.scaling.type"), "yarn")
		w.Add(key("rope.scaling.factor"), float32(p.Factor))
		w.Add(key("rope.scaling.original_context_length"), uint32(p.Original))
		for k, v := range map[string]*float64{"yarn_beta_fast": p.BetaFast, "yarn_beta_slow": p.BetaSlow, "yarn_attn_factor": p.AttentionFactor} {
			if v != nil {
				w.Add(key("rope.scaling."+k), float32(*v))
			}
		}
		if arch == "deepseek2" && p.MscaleAllDim != nil {
			// [TAG_DEEPSEEK2_YARN_LOG_MUL_FIX]: 0.1·mscale_all_dim.
			w.Add(key("rope.scaling.yarn_log_multiplier"), float32(0.1**p.MscaleAllDim))
		}
		if arch == "mistral3" {
			// Mistral3Model's Ministral3Model: mscale_all_dim itself,
			// and llama_4_scaling_beta (both required, as it reads them).
			if p.MscaleAllDim == nil || p.Llama4Beta == nil {
				t.Fatalf("%s: a ministral3 rope_parameters without mscale_all_dim or llama_4_scaling_beta: the converter fails on it", dir)
			}
			w.Add(key("rope.scaling.yarn_log_multiplier"), float32(*p.MscaleAllDim))
			w.Add(key("attention.temperature_scale"), float32(*p.Llama4Beta))
		}
	} else if p, ok := configRope(t, dir, "linear"); ok {
		// LlamaModel.set_gguf_parameters: linear scaling as two keys.
		w.Add(key("rope.scaling.type"), "linear")
		w.Add(key("rope.scaling.factor"), float32(p.Factor))
	} else if permutesRope(s.arch) || arch == "llama4" || arch == "apertus" { // (ApertusModel is LlamaModel's without its permutation)
		// rope_freqs: the divisor of each frequency (llama3 scaling).
		factors := make([]float32, len(s.invFreq))
		scaled := false
		for i, f := range s.invFreq {
			base := 1 / math.Pow(s.theta, float64(2*i)/float64(s.rotaryDim))
			factors[i] = float32(base / f)
			scaled = scaled || factors[i] != 1
		}
		if scaled {
			out = append(out, converted{name: "rope_freqs.weight", shape: []int{len(factors)}, data: factors})
		}
	}
	experts := map[string][][]float32{}
	xielu := map[string][]float32{} // ApertusModel.modify_tensors: each layer's xIELU parameters as global arrays
	for _, name := range src.Names() {
		info, _ := src.Info(name)
		tt, err := src.Weight(ref.Spec{Name: name, Type: ref.TensorType{DType: info.DType, Shape: info.Shape}})
		if err != nil {
			t.Fatal(err)
		}
		if m := xieluName.FindStringSubmatch(name); m != nil && arch == "apertus" {
			l, _ := strconv.Atoi(m[1])
			vals := xielu["xielu."+m[2]]
			for len(vals) <= l {
				vals = append(vals, 0)
			}
			vals[l] = tt.Floats()[0]
			xielu["xielu."+m[2]] = vals
			continue
		}
		out = append(out, convertTensor(t, s, name, info.Shape, tt.Floats(), experts)...)
	}
	for _, k := range sortedKeys(xielu) {
		w.Add(k, xielu[k])
	}
	for _, name := range sortedKeys(experts) {
		parts := experts[name]
		var data []float32
		for _, p := range parts {
			data = append(data, p...)
		}
		if m := regexp.MustCompile(`^model\.layers\.(\d+)\.self_attn\.([qk])_norm$`).FindStringSubmatch(name); m != nil {
			out = append(out, converted{name: "blk." + m[1] + ".attn_" + m[2] + "_norm.weight", shape: []int{len(parts), s.headDim}, data: data})
			continue
		}
		m := regexp.MustCompile(`^model\.layers\.(\d+)\.mlp\.experts\.(\w+)_proj\.weight$`).FindStringSubmatch(name)
		n, k := s.moeFFN, s.hidden
		if s.moeLatent > 0 {
			k = s.moeLatent // Nemotron 3's experts, in the latent
		}
		if m[2] == "down" {
			n, k = k, n
		}
		out = append(out, converted{name: "blk." + m[1] + ".ffn_" + m[2] + "_exps.weight", shape: []int{len(parts), n, k}, data: data, quant: true})
	}
	for _, c := range out {
		typ, raw := gguf.TypeF32, f32bytes(c.data)
		if format.Valid() && c.quant && c.shape[len(c.shape)-1]%format.BlockSize() == 0 {
			k := c.shape[len(c.shape)-1]
			q, err := gguf.Quantize(format, c.data, len(c.data)/k, k)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			typ, raw = gguf.TypeOf(format), q
			if dequantised {
				d, _ := gguf.Dequantize(format, q, len(c.data)/k, k)
				typ, raw = gguf.TypeF32, f32bytes(d)
			}
		}
		if err := w.AddTensor(c.name, typ, c.shape, raw); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// foldFalconH1 is FalconH1Model.modify_tensors' folding of the µP
// multipliers into the weights, by the checks of the tensor's name it
// makes in turn; in_proj's rows of z, x, B, C and dt each by its own.
func foldFalconH1(s *spec, name string, v []float32) []float32 {
	key := 1.0
	if s.attnScale != 0 {
		key = s.attnScale * math.Sqrt(float64(s.headDim))
	}
	mul := func(f float64) []float32 {
		out := make([]float32, len(v))
		for i, x := range v {
			out[i] = float32(float64(x) * f)
		}
		return out
	}
	or1 := func(f float64) float64 {
		if f == 0 {
			return 1
		}
		return f
	}
	switch {
	case strings.Contains(name, "down_proj"):
		return mul(or1(s.mlpDownScale))
	case strings.Contains(name, "gate_proj"):
		return mul(or1(s.mlpGateScale))
	case strings.Contains(name, "k_proj"):
		return mul(key * or1(s.attnInScale))
	case strings.Contains(name, "q_proj"), strings.Contains(name, "v_proj"):
		return mul(or1(s.attnInScale))
	case strings.Contains(name, "o_proj"):
		return mul(or1(s.attnOutScale))
	case strings.Contains(name, "out_proj"):
		return mul(or1(s.ssmOutScale))
	case strings.Contains(name, "in_proj"):
		out := mul(or1(s.ssmInScale))
		inner, gs, cols := s.inner(), s.ssmGroups*s.ssmState, s.hidden
		for r := range len(out) / cols {
			k := 4
			switch {
			case r < inner:
				k = 0
			case r < 2*inner:
				k = 1
			case r < 2*inner+gs:
				k = 2
			case r < 2*inner+2*gs:
				k = 3
			}
			if s.ssmMup != nil {
				for c := range cols {
					out[r*cols+c] = float32(float64(out[r*cols+c]) * s.ssmMup[k])
				}
			}
		}
		return out
	case strings.Contains(name, "lm_head"):
		return mul(or1(s.logitMul))
	case strings.Contains(name, "embed_tokens"):
		return mul(or1(s.embedScale))
	}
	return v
}

var mixtralNames = strings.NewReplacer("block_sparse_moe.gate.weight", "mlp.gate.weight")

var layerName = regexp.MustCompile(`^model\.layers\.(\d+)\.(.+)$`)

// xieluName is an Apertus layer's xIELU parameter.
var xieluName = regexp.MustCompile(`^model\.layers\.(\d+)\.mlp\.act_fn\.(\w+)$`)

// hfToGGUF names per-layer tensors; "" drops one (handled elsewhere).
var hfToGGUF = map[string]string{
	"input_layernorm.weight":  "attn_norm.weight",
	"self_attn.q_proj.weight": "attn_q.weight", "self_attn.k_proj.weight": "attn_k.weight",
	"self_attn.v_proj.weight": "attn_v.weight", "self_attn.o_proj.weight": "attn_output.weight",
	"self_attn.qkv_proj.weight": "attn_qkv.weight", "mlp.gate_up_proj.weight": "ffn_up.weight",
	"self_attn.q_proj.bias": "attn_q.bias", "self_attn.k_proj.bias": "attn_k.bias",
	"self_attn.v_proj.bias": "attn_v.bias", "self_attn.o_proj.bias": "attn_output.bias",
	"self_attn.q_norm.weight": "attn_q_norm.weight", "self_attn.k_norm.weight": "attn_k_norm.weight",
	"mlp.gate_proj.weight": "ffn_gate.weight", "mlp.up_proj.weight": "ffn_up.weight", "mlp.down_proj.weight": "ffn_down.weight",
	"linear_attn.in_proj_qkv.weight": "attn_qkv.weight", "linear_attn.in_proj_z.weight": "attn_gate.weight",
	"linear_attn.in_proj_b.weight": "ssm_beta.weight", "linear_attn.in_proj_a.weight": "ssm_alpha.weight",
	"linear_attn.in_proj_ba.weight": "ssm_ba.weight",
	"linear_attn.A_log":             "ssm_a", "linear_attn.dt_bias": "ssm_dt.bias", "linear_attn.conv1d.weight": "ssm_conv1d.weight",
	"linear_attn.norm.weight": "ssm_norm.weight", "linear_attn.out_proj.weight": "ssm_out.weight",
	"mlp.gate.weight": "ffn_gate_inp.weight", "mlp.shared_expert_gate.weight": "ffn_gate_inp_shexp.weight",
	"mlp.shared_expert.gate_proj.weight": "ffn_gate_shexp.weight", "mlp.shared_expert.up_proj.weight": "ffn_up_shexp.weight",
	"mlp.shared_expert.down_proj.weight": "ffn_down_shexp.weight",
	// GLM-4.5's.
	"mlp.shared_experts.gate_proj.weight": "ffn_gate_shexp.weight", "mlp.shared_experts.up_proj.weight": "ffn_up_shexp.weight",
	"mlp.shared_experts.down_proj.weight": "ffn_down_shexp.weight", "mlp.gate.e_score_correction_bias": "exp_probs_b.bias",
	"mlp.moe_statics.e_score_correction_bias":  "exp_probs_b.bias", // ERNIE 4.5's
	"block_sparse_moe.e_score_correction_bias": "exp_probs_b.bias", // MiniMax-M2's
	// Kimi Linear's delta attention and its experts' router bias and
	// shared experts.
	"self_attn.f_a_proj.weight": "ssm_f_a.weight", "self_attn.f_b_proj.weight": "ssm_f_b.weight",
	"self_attn.g_a_proj.weight": "ssm_g_a.weight", "self_attn.g_b_proj.weight": "ssm_g_b.weight",
	"self_attn.b_proj.weight": "ssm_beta.weight", "self_attn.o_norm.weight": "ssm_norm.weight",
	"block_sparse_moe.gate.e_score_correction_bias":    "exp_probs_b.bias",
	"block_sparse_moe.shared_experts.gate_proj.weight": "ffn_gate_shexp.weight", "block_sparse_moe.shared_experts.up_proj.weight": "ffn_up_shexp.weight",
	"block_sparse_moe.shared_experts.down_proj.weight": "ffn_down_shexp.weight",
	// Phi-2's, GPT-NeoX's.
	"self_attn.dense.weight": "attn_output.weight", "self_attn.dense.bias": "attn_output.bias",
	"mlp.fc1.weight": "ffn_up.weight", "mlp.fc1.bias": "ffn_up.bias", "mlp.fc2.weight": "ffn_down.weight", "mlp.fc2.bias": "ffn_down.bias",
	"attention.query_key_value.weight": "attn_qkv.weight", "attention.query_key_value.bias": "attn_qkv.bias",
	"attention.dense.weight": "attn_output.weight", "attention.dense.bias": "attn_output.bias",
	"mlp.dense_h_to_4h.weight": "ffn_up.weight", "mlp.dense_h_to_4h.bias": "ffn_up.bias",
	"mlp.dense_4h_to_h.weight": "ffn_down.weight", "mlp.dense_4h_to_h.bias": "ffn_down.bias",
	// gpt-oss's.
	"self_attn.sinks": "attn_sinks.weight", "mlp.router.weight": "ffn_gate_inp.weight", "mlp.router.bias": "ffn_gate_inp.bias",
	// Granite MoE's.
	"block_sparse_moe.router.layer.weight": "ffn_gate_inp.weight", "block_sparse_moe.output_linear.weight": "ffn_down_exps.weight",
	"shared_mlp.output_linear.weight": "ffn_down_shexp.weight",
	// StarCoder2's.
	"input_layernorm.bias": "attn_norm.bias", "mlp.c_fc.weight": "ffn_up.weight", "mlp.c_fc.bias": "ffn_up.bias",
	"mlp.c_proj.weight": "ffn_down.weight", "mlp.c_proj.bias": "ffn_down.bias",
	// LFM2's.
	"operator_norm.weight": "attn_norm.weight", "ffn_norm.weight": "ffn_norm.weight", "feed_forward.expert_bias": "exp_probs_b.bias",
	"feed_forward.w1.weight": "ffn_gate.weight", "feed_forward.w3.weight": "ffn_up.weight", "feed_forward.w2.weight": "ffn_down.weight",
	"self_attn.out_proj.weight": "attn_output.weight", "self_attn.q_layernorm.weight": "attn_q_norm.weight", "self_attn.k_layernorm.weight": "attn_k_norm.weight",
	"conv.in_proj.weight": "shortconv.in_proj.weight", "conv.conv.weight": "shortconv.conv.weight", "conv.out_proj.weight": "shortconv.out_proj.weight",
	// Apertus's (its xIELU parameters go to metadata: convertToGGUF).
	"attention_layernorm.weight": "attn_norm.weight", "feedforward_layernorm.weight": "ffn_norm.weight",
	// Mamba-2's (Granite 4.0 H's, Bamba's; A_log, D, the conv's taps and the norm: convertTensor).
	"mamba.in_proj.weight": "ssm_in.weight", "mamba.conv1d.bias": "ssm_conv1d.bias", "mamba.dt_bias": "ssm_dt.bias",
	"mamba.out_proj.weight": "ssm_out.weight", "norm.weight": "attn_norm.weight",
	"mamba.x_proj.weight": "ssm_x.weight", "mamba.dt_layernorm.weight": "ssm_dt_norm.weight",
	"mamba.b_layernorm.weight": "ssm_b_norm.weight", "mamba.c_layernorm.weight": "ssm_c_norm.weight",
	// Nemotron-H's experts (NemotronHModel.modify_tensors; the experts'
	// tensors: convertTensor).
	"mamba.gate.weight": "ffn_gate_inp.weight", "mamba.gate.e_score_correction_bias": "exp_probs_b.bias",
	"mamba.shared_experts.up_proj.weight": "ffn_up_shexp.weight", "mamba.shared_experts.down_proj.weight": "ffn_down_shexp.weight",
	"mamba.fc1_latent_proj.weight": "ffn_latent_down.weight", "mamba.fc2_latent_proj.weight": "ffn_latent_up.weight",
	// Nemotron-H's attention and MLP mixers (mixer. renamed mamba.).
	"mamba.q_proj.weight": "attn_q.weight", "mamba.k_proj.weight": "attn_k.weight", "mamba.v_proj.weight": "attn_v.weight",
	"mamba.o_proj.weight": "attn_output.weight", "mamba.up_proj.weight": "ffn_up.weight", "mamba.down_proj.weight": "ffn_down.weight", "mamba.dt_proj.weight": "ssm_dt.weight", "mamba.dt_proj.bias": "ssm_dt.bias",
	// Bamba's.
	"pre_ff_layernorm.weight": "ffn_norm.weight", "feed_forward.gate_proj.weight": "ffn_gate.weight",
	"feed_forward.up_proj.weight": "ffn_up.weight", "feed_forward.down_proj.weight": "ffn_down.weight",
	// DeepSeek's latent attention (kv_b_proj: convertTensor).
	"self_attn.q_a_proj.weight": "attn_q_a.weight", "self_attn.q_a_layernorm.weight": "attn_q_a_norm.weight",
	"self_attn.q_b_proj.weight": "attn_q_b.weight", "self_attn.kv_a_proj_with_mqa.weight": "attn_kv_a_mqa.weight",
	"self_attn.kv_a_layernorm.weight": "attn_kv_a_norm.weight",
}

// keptF32 are the GGUF tensors llama.cpp does not quantise.
var keptF32 = map[string]bool{
	"ssm_beta.weight": true, "ssm_alpha.weight": true, "ssm_ba.weight": true, "ffn_gate_inp.weight": true,
	"ffn_gate_inp_shexp.weight": true, "ssm_conv1d.weight": true, "exp_probs_b.bias": true,
}

func convertTensor(t testing.TB, s *spec, name string, shape []int, v []float32, experts map[string][][]float32) []converted {
	// A vision-language checkpoint: the text model's tensors as a causal
	// LM's; the vision tower goes to llama.cpp's separate mmproj file.
	if strings.HasPrefix(name, "model.visual.") || strings.HasPrefix(name, "visual.") ||
		strings.HasPrefix(name, "vision_model.") || strings.HasPrefix(name, "multi_modal_projector.") {
		return nil
	}
	name = strings.Replace(name, "model.language_model.", "model.", 1)
	name = strings.Replace(name, "language_model.model.", "model.", 1) // Llama 4's as published
	name = strings.Replace(name, "language_model.lm_head.", "lm_head.", 1)
	name = strings.Replace(name, "gpt_neox.layers.", "model.layers.", 1)
	// Mamba's and Mamba-2's: the layers under backbone., the mixer as
	// the hybrids' mamba.
	name = strings.Replace(name, "backbone.layers.", "model.layers.", 1)
	name = strings.Replace(name, ".mixer.", ".mamba.", 1)
	if ggufArch[s.arch] == "falcon-h1" {
		v = foldFalconH1(s, name, v)
	}
	switch name {
	case "model.embed_tokens.weight", "gpt_neox.embed_in.weight", "backbone.embeddings.weight":
		return []converted{{"token_embd.weight", shape, v, true}}
	case "lm_head.weight", "embed_out.weight":
		return []converted{{"output.weight", shape, v, true}}
	case "lm_head.bias": // Phi-2's
		return []converted{{"output.bias", shape, v, false}}
	case "model.norm.weight", "model.final_layernorm.weight", "gpt_neox.final_layer_norm.weight", "backbone.norm_f.weight":
		return []converted{{"output_norm.weight", shape, plusOne(s, v), false}}
	case "model.norm.bias", "model.final_layernorm.bias", "gpt_neox.final_layer_norm.bias":
		return []converted{{"output_norm.bias", shape, v, false}}
	case "model.embedding_norm.weight": // LFM2's final norm, under the converter's name
		return []converted{{"token_embd_norm.weight", shape, v, false}}
	}
	m := layerName.FindStringSubmatch(name)
	if m == nil {
		t.Fatalf("no GGUF name for %s", name)
	}
	layer, rest := m[1], m[2]
	// Llama 4's feed_forward under the names the others' mlp has.
	if r, ok := strings.CutPrefix(rest, "feed_forward."); ok && (ggufArch[s.arch] == "llama4" || ggufArch[s.arch] == "jamba" || ggufArch[s.arch] == "falcon-h1") {
		rest = "mlp." + r
	}
	// LFM2-MoE's routed feed_forward as Mixtral's (its experts' w1, w3,
	// w2 alike), the router as Qwen's.
	if r, ok := strings.CutPrefix(rest, "feed_forward."); ok && ggufArch[s.arch] == "lfm2moe" {
		switch {
		case strings.HasPrefix(r, "experts.") && strings.HasSuffix(r, ".weight"):
			rest = "block_sparse_moe." + r
		case strings.HasPrefix(r, "experts."):
			rest = "mlp." + r // transformers 5's fused tables
		case r == "gate.weight":
			rest = "mlp.gate.weight"
		}
	}
	// Mixtral's block_sparse_moe as Qwen's names: gate the router, w1 the
	// experts' gate, w3 up, w2 down (convert_hf_to_gguf stacks them alike).
	rest = mixtralNames.Replace(rest)
	if e := regexp.MustCompile(`^block_sparse_moe\.experts\.(\d+)\.w([123])\.weight$`).FindStringSubmatch(rest); e != nil {
		rest = "mlp.experts." + e[1] + "." + map[string]string{"1": "gate", "2": "down", "3": "up"}[e[2]] + "_proj.weight"
	}
	switch rest {
	case "mamba.experts.up_proj", "mamba.experts.down_proj":
		// Nemotron-H's experts as transformers 5 saves them: [E, I, in]
		// and [E, in, I], the converter's stacks already.
		return []converted{{"blk." + layer + ".ffn_" + strings.TrimSuffix(strings.TrimPrefix(rest, "mamba.experts."), "_proj") + "_exps.weight", shape, v, true}}
	}
	if r, ok := strings.CutPrefix(rest, "mamba.experts."); ok {
		rest = "mlp.experts." + r // Nemotron-H's experts as published: stacked as the others'
	}
	if regexp.MustCompile(`^mlp\.experts\.\d+\.`).MatchString(rest) {
		e, _ := strconv.Atoi(regexp.MustCompile(`\d+`).FindString(rest[len("mlp.experts."):]))
		stack := "model.layers." + layer + ".mlp.experts." + regexp.MustCompile(`^mlp\.experts\.\d+\.`).ReplaceAllString(rest, "")
		for len(experts[stack]) <= e {
			experts[stack] = append(experts[stack], nil)
		}
		experts[stack][e] = v
		return nil
	}
	if e := regexp.MustCompile(`^self_attn\.([qk])_layernorm\.norms\.(\d+)\.weight$`).FindStringSubmatch(rest); e != nil {
		// StableLMModel stacks the per-head norms into one [heads,
		// head dim] tensor (as the experts, below).
		h, _ := strconv.Atoi(e[2])
		stack := "model.layers." + layer + ".self_attn." + e[1] + "_norm"
		for len(experts[stack]) <= h {
			experts[stack] = append(experts[stack], nil)
		}
		experts[stack][h] = v
		return nil
	}
	blk := "blk." + layer + "."
	hk, hv, n := s.keyHeads, s.valueHeads, s.gdn
	r, kd := 0, hk*n
	if hk > 0 {
		r = hv / hk
	}
	tiled := (ggufArch[s.arch] == "qwen35" || ggufArch[s.arch] == "qwen35moe") && r > 1
	switch rest {
	case "linear_attn.in_proj_qkvz.weight":
		// [q, k, v, z] per key head → attn_qkv (q of all heads, k, v) and
		// attn_gate (z).
		in := shape[1]
		group := 2*n + 2*r*n
		var q, k, vv, z []float32
		for g := range hk {
			row := func(off, cnt int) []float32 { return v[(g*group+off)*in : (g*group+off+cnt)*in] }
			q = append(q, row(0, n)...)
			k = append(k, row(n, n)...)
			vv = append(vv, row(2*n, r*n)...)
			z = append(z, row(2*n+r*n, r*n)...)
		}
		qkv := append(append(q, k...), vv...)
		return []converted{
			{blk + "attn_qkv.weight", []int{2*kd + hv*n, in}, qkv, true},
			{blk + "attn_gate.weight", []int{hv * n, in}, z, true},
		}
	case "self_attn.q_proj.weight", "self_attn.k_proj.weight", "self_attn.q_proj.bias", "self_attn.k_proj.bias",
		"mamba.q_proj.weight", "mamba.k_proj.weight": // Nemotron-H's mixer (renamed above)
		if permutesRope(s.arch) {
			heads := s.heads
			if strings.Contains(rest, ".k_proj.") {
				heads = s.kvHeads
			}
			in := 1 // a bias: one column
			if len(shape) == 2 {
				in = shape[1]
			}
			v = permuteRope(v, heads, in)
		}
	case "mlp.experts.gate_up_proj", "mlp.experts.down_proj", "mlp.experts.gate_up_proj_bias", "mlp.experts.down_proj_bias":
		if s.oss {
			return ossExperts(blk, rest, shape, v)
		}
		// transformers 5's fused experts (Qwen3-VL-MoE's fixture): [E,
		// 2I, H], the gate's rows then up's, and [E, H, I], stacked as
		// the converter stacks per-expert tensors; Llama 4's as
		// published, [E, H, 2I] and [E, I, H], transposed first.
		if s.expertsInOut && !strings.HasSuffix(rest, "_bias") {
			v = transposeLast(v, shape[0], shape[1], shape[2])
			shape = []int{shape[0], shape[2], shape[1]}
		}
		e, rows, in := shape[0], shape[1], shape[2]
		if rest == "mlp.experts.down_proj" {
			return []converted{{blk + "ffn_down_exps.weight", shape, v, true}}
		}
		var gate, up []float32
		for x := range e {
			m := v[x*rows*in : (x+1)*rows*in]
			gate, up = append(gate, m[:rows/2*in]...), append(up, m[rows/2*in:]...)
		}
		return []converted{{blk + "ffn_gate_exps.weight", []int{e, rows / 2, in}, gate, true}, {blk + "ffn_up_exps.weight", []int{e, rows / 2, in}, up, true}}
	case "block_sparse_moe.input_linear.weight", "shared_mlp.input_linear.weight":
		// GraniteMoeModel.modify_tensors: the [gate; up] rows of each
		// expert (or of the shared one) split in two.
		sh := strings.HasPrefix(rest, "shared_mlp.")
		e, rows := shape[0], shape[1]
		if sh {
			e, rows = 1, shape[0]
		}
		in, half := shape[len(shape)-1], rows/2
		var gate, up []float32
		for x := range e {
			m := v[x*rows*in : (x+1)*rows*in]
			gate, up = append(gate, m[:half*in]...), append(up, m[half*in:]...)
		}
		if sh && s.experts == 0 {
			// Granite 4.0's dense models: the shared MLP is the MLP.
			return []converted{{blk + "ffn_gate.weight", []int{half, in}, gate, true}, {blk + "ffn_up.weight", []int{half, in}, up, true}}
		}
		if sh {
			return []converted{{blk + "ffn_gate_shexp.weight", []int{half, in}, gate, true}, {blk + "ffn_up_shexp.weight", []int{half, in}, up, true}}
		}
		return []converted{{blk + "ffn_gate_exps.weight", []int{e, half, in}, gate, true}, {blk + "ffn_up_exps.weight", []int{e, half, in}, up, true}}
	case "attention.query_key_value.weight", "attention.query_key_value.bias":
		// GPTNeoXModel.modify_tensors: a head's q, k and v rows in turn
		// become all q rows, then k's, then v's.
		in := 1
		if len(shape) == 2 {
			in = shape[1]
		}
		d := s.headDim * in
		out := make([]float32, 0, len(v))
		for part := range 3 {
			for h := range s.heads {
				out = append(out, v[(3*h+part)*d:(3*h+part+1)*d]...)
			}
		}
		v = out
	case "self_attn.kv_b_proj.weight":
		// DeepseekV2Model.modify_tensors: each head's nope k rows
		// transposed ([heads, latent, nope]) and its v rows apart.
		m, lat := s.mla, shape[1]
		var kb, vb []float32
		for h := range s.heads {
			rows := v[h*(m.nope+m.vDim)*lat : (h+1)*(m.nope+m.vDim)*lat]
			for c := range lat {
				for r := range m.nope {
					kb = append(kb, rows[r*lat+c])
				}
			}
			vb = append(vb, rows[m.nope*lat:]...)
		}
		return []converted{{blk + "attn_k_b.weight", []int{s.heads, lat, m.nope}, kb, true}, {blk + "attn_v_b.weight", []int{s.heads, m.vDim, lat}, vb, true}}
	case "shared_mlp.output_linear.weight":
		if s.experts == 0 {
			return []converted{{blk + "ffn_down.weight", shape, v, true}}
		}
	case "mamba.A_log":
		// Mamba2Model.modify_tensors: −exp(A_log) and D as [heads, 1],
		// the conv's taps squeezed, the gated norm's weight by group.
		a := make([]float32, len(v))
		for i, x := range v {
			a[i] = float32(-math.Exp(float64(x)))
		}
		if s.ssmV1 { // Mamba's A [channels, state] as it is
			return []converted{{blk + "ssm_a", shape, a, false}}
		}
		return []converted{{blk + "ssm_a", []int{len(v), 1}, a, false}}
	case "mamba.D":
		if s.ssmV1 {
			return []converted{{blk + "ssm_d", shape, v, false}}
		}
		return []converted{{blk + "ssm_d", []int{len(v), 1}, v, false}}
	case "mamba.conv1d.weight":
		return []converted{{blk + "ssm_conv1d.weight", []int{shape[0], shape[2]}, v, false}}
	case "mamba.norm.weight":
		return []converted{{blk + "ssm_norm.weight", []int{s.ssmGroups, len(v) / s.ssmGroups}, v, false}}
	case "self_attn.q_conv1d.weight", "self_attn.k_conv1d.weight", "self_attn.v_conv1d.weight":
		// KimiLinearModel.modify_tensors: [1, channels, 1, taps].
		return []converted{{blk + "ssm_conv1d_" + rest[len("self_attn."):len("self_attn.")+1] + ".weight", []int{1, shape[0], 1, shape[2]}, v, false}}
	case "self_attn.A_log":
		a := make([]float32, len(v))
		for i, x := range v {
			a[i] = float32(-math.Exp(float64(x)))
		}
		return []converted{{blk + "ssm_a", shape, a, false}}
	case "self_attn.dt_bias": // renamed dt_proj.bias
		return []converted{{blk + "ssm_dt.bias", shape, v, false}}
	case "linear_attn.A_log":
		a := make([]float32, len(v))
		for i, x := range v {
			a[i] = float32(-math.Exp(float64(x)))
		}
		v = a
	}
	if tiled {
		switch rest {
		case "linear_attn.in_proj_qkv.weight":
			in := shape[1]
			v = append(v[:2*kd*in:2*kd*in], tileRows(v[2*kd*in:], hk, r, n*in)...)
		case "linear_attn.in_proj_z.weight":
			v = tileRows(v, hk, r, n*shape[1])
		case "linear_attn.in_proj_a.weight", "linear_attn.in_proj_b.weight":
			v = tileRows(v, hk, r, shape[1])
		case "linear_attn.A_log", "linear_attn.dt_bias":
			v = tileRows(v, hk, r, 1)
		case "linear_attn.conv1d.weight":
			k := shape[2]
			v = append(v[:2*kd*k:2*kd*k], tileRows(v[2*kd*k:], hk, r, n*k)...)
		case "linear_attn.out_proj.weight":
			out := make([]float32, 0, len(v))
			for row := range shape[0] {
				out = append(out, tileRows(v[row*shape[1]:(row+1)*shape[1]], hk, r, n)...)
			}
			v = out
		}
	}
	gname, ok := hfToGGUF[rest]
	switch {
	case s.oss && rest == "post_attention_layernorm.weight": // gpt-oss: the MoE's input norm
		gname, ok = "post_attention_norm.weight", true
	case s.arch == "Glm4ForCausalLM": // GLM's four norms under its own names
		gname, ok = map[string]string{"post_self_attn_layernorm.weight": "post_attention_norm.weight",
			"post_attention_layernorm.weight": "ffn_norm.weight", "post_mlp_layernorm.weight": "post_ffw_norm.weight"}[rest]
		if !ok {
			gname, ok = hfToGGUF[rest]
		}
	case s.sandwich || s.postNorms: // Gemma's four norms, OLMo 2's two
		gname, ok = map[string]string{"post_attention_layernorm.weight": "post_attention_norm.weight",
			"pre_feedforward_layernorm.weight": "ffn_norm.weight", "post_feedforward_layernorm.weight": "post_ffw_norm.weight"}[rest]
		if !ok {
			gname, ok = hfToGGUF[rest]
		}
	case rest == "post_attention_layernorm.bias":
		gname, ok = "ffn_norm.bias", true
	case rest == "post_attention_layernorm.weight":
		gname, ok = "ffn_norm.weight", true
		if s.keyHeads > 0 && !s.kda {
			gname, ok = "post_attention_norm.weight", true
		}
	}
	if !ok {
		t.Fatalf("no GGUF name for %s", name)
	}
	if s.zeroCentred && rest != "linear_attn.norm.weight" && (regexp.MustCompile(`norm\.weight$`).MatchString(rest)) {
		v = plusOne(s, v)
	}
	if rest == "linear_attn.conv1d.weight" || rest == "conv.conv.weight" {
		shape = []int{shape[0], shape[2]}
	}
	return []converted{{blk + gname, shape, v, len(shape) >= 2 && !keptF32[gname]}}
}

// ossExperts is GptOssModel.modify_tensors on gpt-oss's experts (not in
// MXFP4): gate_up_proj [E, H, 2I] transposed and its interleaved rows
// split into ffn_gate_exps and ffn_up_exps [E, I, H], its bias likewise;
// down_proj [E, I, H] transposed to ffn_down_exps [E, H, I].
func ossExperts(blk, rest string, shape []int, v []float32) []converted {
	e := shape[0]
	switch rest {
	case "mlp.experts.gate_up_proj_bias":
		two := shape[1]
		var gate, up []float32
		for i := range e * two / 2 {
			gate, up = append(gate, v[2*i]), append(up, v[2*i+1])
		}
		return []converted{{blk + "ffn_gate_exps.bias", []int{e, two / 2}, gate, false}, {blk + "ffn_up_exps.bias", []int{e, two / 2}, up, false}}
	case "mlp.experts.down_proj_bias":
		return []converted{{blk + "ffn_down_exps.bias", shape, v, false}}
	}
	in, out := shape[1], shape[2]
	t := make([]float32, len(v)) // [E, out, in]
	for x := range e {
		for r := range in {
			for c := range out {
				t[(x*out+c)*in+r] = v[(x*in+r)*out+c]
			}
		}
	}
	if rest == "mlp.experts.down_proj" {
		return []converted{{blk + "ffn_down_exps.weight", []int{e, out, in}, t, true}}
	}
	var gate, up []float32
	for x := range e {
		for c := range out {
			row := t[(x*out+c)*in : (x*out+c+1)*in]
			if c%2 == 0 {
				gate = append(gate, row...)
			} else {
				up = append(up, row...)
			}
		}
	}
	return []converted{{blk + "ffn_gate_exps.weight", []int{e, out / 2, in}, gate, true}, {blk + "ffn_up_exps.weight", []int{e, out / 2, in}, up, true}}
}

// plusOne folds the zero-centred norms' 1 into the weight.
func plusOne(s *spec, v []float32) []float32 {
	if !s.zeroCentred {
		return v
	}
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = 1 + x
	}
	return out
}

// permuteRope is LlamaModel.permute: in each head's rows [0, D/2) and
// [D/2, D), row j of the first half and row j of the second become rows
// 2j and 2j+1.
func permuteRope(v []float32, heads, in int) []float32 {
	rows := len(v) / in
	d := rows / heads
	out := make([]float32, len(v))
	for h := range heads {
		for half := range 2 {
			for j := range d / 2 {
				src := h*d + half*(d/2) + j
				dst := h*d + 2*j + half
				copy(out[dst*in:(dst+1)*in], v[src*in:(src+1)*in])
			}
		}
	}
	return out
}

// tileRows reorders value heads from grouped (key head k's r heads
// together) to tiled order: block (k, j) of size unit moves to (j, k).
func tileRows(v []float32, hk, r, unit int) []float32 {
	out := make([]float32, len(v))
	for k := range hk {
		for j := range r {
			copy(out[(j*hk+k)*unit:(j*hk+k+1)*unit], v[(k*r+j)*unit:(k*r+j+1)*unit])
		}
	}
	return out
}

func f32bytes(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// writeGGUF converts the fixture to a GGUF file under t.TempDir().
func writeGGUF(t testing.TB, f *fixture, format gguf.Format, dequantised bool) string {
	t.Helper()
	label := "f32"
	if format.Valid() {
		label = format.String()
	}
	if dequantised {
		label += "-dequantised"
	}
	path := filepath.Join(t.TempDir(), fmt.Sprintf("%s-%s.gguf", f.name, label))
	if err := os.WriteFile(path, convertToGGUF(t, f.dir, format, dequantised), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
