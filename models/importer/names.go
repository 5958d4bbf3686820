package importer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rlx-compiler/rlx/runtime/weights"
)

// Tensor roles: what a weight is for, independent of how a checkpoint
// names it.
const (
	roleAttnNorm = "attn_norm"
	roleFFNNorm  = "ffn_norm"
	// Gemma's norms after attention and after the MLP.
	rolePostAttnNorm = "post_attn_norm"
	rolePostFFNNorm  = "post_ffn_norm"
	roleQ            = "q"
	roleK            = "k"
	roleV            = "v"
	roleO            = "o"
	roleQBias        = "q_bias"
	roleKBias        = "k_bias"
	roleVBias        = "v_bias"
	roleOBias        = "o_bias"
	roleQNorm        = "q_norm"
	roleKNorm        = "k_norm"
	roleGate         = "gate"
	roleUp           = "up"
	roleAttnQKV      = "attn_qkv"      // Phi-3's fused [q; k; v] rows
	roleAttnQKVBias  = "attn_qkv_bias" // GPT-NeoX's and Phi-2's (GGUF) fused q/k/v bias
	roleGateUp       = "gate_up"       // Phi-3's fused [gate; up] rows
	roleDown         = "down"
	// Gated DeltaNet.
	roleQKV     = "qkv"  // q, k and v of all heads, concatenated
	roleZ       = "z"    // the output gate
	roleBeta    = "beta" // β's projection
	roleAlpha   = "alpha"
	roleQKVZ    = "qkvz" // Qwen3-Next's fused [q, k, v, z] per key head
	roleBA      = "ba"   // Qwen3-Next's fused [β, α] per key head
	roleA       = "A"    // A_log, or llama.cpp's ssm_a = −exp(A_log)
	roleDT      = "dt_bias"
	roleConv    = "conv"
	roleSSMNorm = "ssm_norm"
	roleOut     = "out"
	// Kimi delta attention's (with roleQ, roleK, roleV, roleA, roleDT,
	// roleBeta, roleSSMNorm and roleOut).
	roleConvQ       = "conv_q" // the q, k and v convs' taps, apart
	roleConvK       = "conv_k"
	roleConvV       = "conv_v"
	roleDecayDown   = "decay_down" // f_a_proj and f_b_proj: the decay's low-rank projection
	roleDecayUp     = "decay_up"
	roleOutGateDown = "out_gate_down" // g_a_proj and g_b_proj: the output gate's
	roleOutGateUp   = "out_gate_up"
	// Mamba-2's (with roleConv, roleA, roleDT, roleSSMNorm, roleOut).
	roleSSMIn      = "ssm_in" // [z; x; B; C; dt] rows
	roleSSMInBias  = "ssm_in_bias"
	roleSSMOutBias = "ssm_out_bias"
	roleConvBias   = "conv_bias"
	roleD          = "D"           // the skip's per-head factor
	roleSSMX       = "ssm_x"       // Mamba's x_proj: [dt; B; C] rows
	roleSSMDT      = "ssm_dt"      // Mamba's dt_proj (roleDT its bias)
	roleSSMDTNorm  = "ssm_dt_norm" // Jamba's norms of dt, B and C
	roleSSMBNorm   = "ssm_b_norm"
	roleSSMCNorm   = "ssm_c_norm"
	// Mixture of experts.
	roleRouter     = "router"
	roleExpertGate = "exp_gate"
	roleExpertUp   = "exp_up"
	roleExpertDown = "exp_down"
	// transformers 5's fused experts: gate_up_proj [E, 2I, H] (the gate's
	// rows, then up's) and down_proj [E, H, I].
	roleExpertGateUpFused = "exp_gate_up_fused"
	roleExpertDownFused   = "exp_down_fused"
	roleExpertUpFused     = "exp_up_fused" // Nemotron-H's ungated experts: up_proj [E, I, H], down_proj [E, H, I]
	roleLatentIn          = "latent_in"    // Nemotron 3's latent experts: fc1_latent_proj before them
	roleLatentOut         = "latent_out"   // and fc2_latent_proj after their sum
	// Apertus's xIELU, each layer's: α_p, α_n (before their softplus), β, ε.
	roleXIELUAlphaP  = "xielu_alpha_p"
	roleXIELUAlphaN  = "xielu_alpha_n"
	roleXIELUBeta    = "xielu_beta"
	roleXIELUEps     = "xielu_eps"
	roleSharedGate   = "sh_gate"
	roleSharedUp     = "sh_up"
	roleSharedDown   = "sh_down"
	roleSharedRouter = "sh_router"
	roleSharedGateUp = "sh_gate_up"    // Granite MoE's shared_mlp.input_linear: [gate; up] rows
	roleRouterSelect = "router_select" // GLM-4.5's e_score_correction_bias: added to the scores for the choice only
	// gpt-oss's.
	roleSinks            = "sinks"       // a logit a head in the softmax's denominator
	roleRouterBias       = "router_bias" // the router's bias
	roleExpertGateUpBias = "exp_gate_up_bias"
	roleExpertDownBias   = "exp_down_bias"
	roleExpertGateBias   = "exp_gate_bias" // llama.cpp's gpt-oss: the gate's and up's biases apart
	roleExpertUpBias     = "exp_up_bias"
	// DeepSeek's multi-head latent attention.
	roleQA      = "q_a"      // q's LoRA down
	roleQANorm  = "q_a_norm" // its RMSNorm
	roleQB      = "q_b"      // q's LoRA up
	roleKVA     = "kv_a"     // the latent and k's rope dims
	roleKVANorm = "kv_a_norm"
	roleKVB     = "kv_b" // each head's k (nope) and v rows from the latent
	roleKB      = "k_b"  // llama.cpp's split of kv_b: each head's k rows transposed, [heads, latent, nope]
	roleVB      = "v_b"  // and its v rows, [heads, v, latent]
	// LFM2's gated short convolution.
	roleConvIn    = "conv_in"    // [B; C; x] rows
	roleShortConv = "short_conv" // the depthwise taps
	roleConvOut   = "conv_out"
	// StarCoder2's MLP biases.
	roleUpBias   = "up_bias"
	roleDownBias = "down_bias"
)

// naming maps roles to a checkpoint's tensor names.
type naming struct {
	embed, finalNorm, head string
	layer                  map[string]string // role → format with one %d, the layer
	// alt names the roles it holds otherwise in the layers of kind
	// altKind (Zamba2's hybrid layers hold their mixer under
	// mamba_decoder.); kinds are the model's layer kinds (build sets
	// them).
	alt     map[string]string
	altKind string
	kinds   []string
}

func (n naming) of(layer int, role string) string {
	name, ok := n.lookup(layer, role)
	if !ok {
		panic(fmt.Sprintf("importer: no tensor name for role %q", role))
	}
	return name
}

// lookup is the tensor name of role in layer, if the naming has one.
func (n naming) lookup(layer int, role string) (string, bool) {
	if layer < len(n.kinds) && n.altKind != "" && n.kinds[layer] == n.altKind {
		if f, ok := n.alt[role]; ok {
			return strings.Replace(f, "%d", fmt.Sprint(layer), 1), true
		}
	}
	f, ok := n.layer[role]
	return strings.Replace(f, "%d", fmt.Sprint(layer), 1), ok
}

// hfNames are transformers' names.
func hfNames() naming {
	p := "model.layers.%d."
	return naming{
		embed: "model.embed_tokens.weight", finalNorm: "model.norm.weight", head: "lm_head.weight",
		layer: map[string]string{
			roleAttnNorm: p + "input_layernorm.weight", roleFFNNorm: p + "post_attention_layernorm.weight",
			roleQ: p + "self_attn.q_proj.weight", roleK: p + "self_attn.k_proj.weight",
			roleV: p + "self_attn.v_proj.weight", roleO: p + "self_attn.o_proj.weight",
			roleQBias: p + "self_attn.q_proj.bias", roleKBias: p + "self_attn.k_proj.bias",
			roleVBias: p + "self_attn.v_proj.bias", roleOBias: p + "self_attn.o_proj.bias",
			roleQNorm: p + "self_attn.q_norm.weight", roleKNorm: p + "self_attn.k_norm.weight",
			roleGate: p + "mlp.gate_proj.weight", roleUp: p + "mlp.up_proj.weight", roleDown: p + "mlp.down_proj.weight",
			roleAttnQKV: p + "self_attn.qkv_proj.weight", roleGateUp: p + "mlp.gate_up_proj.weight",
			roleQKV: p + "linear_attn.in_proj_qkv.weight", roleZ: p + "linear_attn.in_proj_z.weight",
			roleBeta: p + "linear_attn.in_proj_b.weight", roleAlpha: p + "linear_attn.in_proj_a.weight",
			roleQKVZ: p + "linear_attn.in_proj_qkvz.weight", roleBA: p + "linear_attn.in_proj_ba.weight",
			roleA: p + "linear_attn.A_log", roleDT: p + "linear_attn.dt_bias", roleConv: p + "linear_attn.conv1d.weight",
			roleSSMNorm: p + "linear_attn.norm.weight", roleOut: p + "linear_attn.out_proj.weight",
			roleRouter:     p + "mlp.gate.weight",
			roleExpertGate: p + "mlp.experts.*.gate_proj.weight", roleExpertUp: p + "mlp.experts.*.up_proj.weight",
			roleExpertDown:        p + "mlp.experts.*.down_proj.weight",
			roleExpertGateUpFused: p + "mlp.experts.gate_up_proj", roleExpertDownFused: p + "mlp.experts.down_proj",
			roleSharedGate: p + "mlp.shared_expert.gate_proj.weight", roleSharedUp: p + "mlp.shared_expert.up_proj.weight",
			roleSharedDown: p + "mlp.shared_expert.down_proj.weight", roleSharedRouter: p + "mlp.shared_expert_gate.weight",
		},
	}
}

// hfNamesOf are transformers' names for arch: hfNames, but for Gemma 2's and 3's
// four norms a layer, Mixtral's experts (block_sparse_moe, w1 the gate, w3
// up, w2 down), and the vision-language models (Qwen3.5's, Gemma 3's),
// whose text model is model.language_model.
func hfNamesOf(arch string) naming {
	n := hfNames()
	if strings.HasPrefix(arch, "Gemma") && arch != "GemmaForCausalLM" {
		// input_layernorm, post_attention_layernorm, then
		// pre_feedforward_layernorm and post_feedforward_layernorm.
		p := "model.layers.%d."
		n.layer[roleFFNNorm] = p + "pre_feedforward_layernorm.weight"
		n.layer[rolePostAttnNorm] = p + "post_attention_layernorm.weight"
		n.layer[rolePostFFNNorm] = p + "post_feedforward_layernorm.weight"
	}
	if arch == "Olmo2ForCausalLM" || arch == "Olmo3ForCausalLM" || arch == "Exaone4ForCausalLM" {
		// Only norms after attention and after the MLP.
		p := "model.layers.%d."
		n.layer[rolePostAttnNorm] = p + "post_attention_layernorm.weight"
		n.layer[rolePostFFNNorm] = p + "post_feedforward_layernorm.weight"
		delete(n.layer, roleAttnNorm)
		delete(n.layer, roleFFNNorm)
	}
	if arch == "Lfm2ForCausalLM" || arch == "Lfm2MoeForCausalLM" {
		// operator_norm before the mixer, ffn_norm before the MLP
		// (feed_forward: w1 the gate, w3 up, w2 down), the final norm
		// embedding_norm.
		p := "model.layers.%d."
		n.finalNorm = "model.embedding_norm.weight"
		n.layer[roleAttnNorm] = p + "operator_norm.weight"
		n.layer[roleFFNNorm] = p + "ffn_norm.weight"
		n.layer[roleGate], n.layer[roleUp], n.layer[roleDown] = p+"feed_forward.w1.weight", p+"feed_forward.w3.weight", p+"feed_forward.w2.weight"
		n.layer[roleO] = p + "self_attn.out_proj.weight"
		n.layer[roleQNorm], n.layer[roleKNorm] = p+"self_attn.q_layernorm.weight", p+"self_attn.k_layernorm.weight"
		n.layer[roleConvIn], n.layer[roleShortConv], n.layer[roleConvOut] = p+"conv.in_proj.weight", p+"conv.conv.weight", p+"conv.out_proj.weight"
		// LFM2-MoE's routed layers: the router, its expert_bias, the
		// experts per expert (w1 the gate, w3 up, w2 down) as published
		// or fused as transformers 5 saves them.
		f := p + "feed_forward."
		n.layer[roleRouter], n.layer[roleRouterSelect] = f+"gate.weight", f+"expert_bias"
		n.layer[roleExpertGate], n.layer[roleExpertUp], n.layer[roleExpertDown] = f+"experts.*.w1.weight", f+"experts.*.w3.weight", f+"experts.*.w2.weight"
		n.layer[roleExpertGateUpFused], n.layer[roleExpertDownFused] = f+"experts.gate_up_proj", f+"experts.down_proj"
	}
	if arch == "ApertusForCausalLM" {
		// Its norms' names, the MLP's xIELU parameters.
		p := "model.layers.%d."
		n.layer[roleAttnNorm], n.layer[roleFFNNorm] = p+"attention_layernorm.weight", p+"feedforward_layernorm.weight"
		a := p + "mlp.act_fn."
		n.layer[roleXIELUAlphaP], n.layer[roleXIELUAlphaN], n.layer[roleXIELUBeta], n.layer[roleXIELUEps] = a+"alpha_p", a+"alpha_n", a+"beta", a+"eps"
	}
	if arch == "Starcoder2ForCausalLM" {
		// mlp.c_fc (up) and mlp.c_proj (down), with biases.
		p := "model.layers.%d."
		n.layer[roleUp], n.layer[roleDown] = p+"mlp.c_fc.weight", p+"mlp.c_proj.weight"
		n.layer[roleUpBias], n.layer[roleDownBias] = p+"mlp.c_fc.bias", p+"mlp.c_proj.bias"
	}
	if arch == "PhiForCausalLM" {
		// self_attn.dense the output projection, mlp.fc1 and mlp.fc2,
		// model.final_layernorm; every one with a bias, the head too.
		p := "model.layers.%d."
		n.finalNorm = "model.final_layernorm.weight"
		n.layer[roleO], n.layer[roleOBias] = p+"self_attn.dense.weight", p+"self_attn.dense.bias"
		n.layer[roleUp], n.layer[roleDown] = p+"mlp.fc1.weight", p+"mlp.fc2.weight"
		n.layer[roleUpBias], n.layer[roleDownBias] = p+"mlp.fc1.bias", p+"mlp.fc2.bias"
	}
	if arch == "StableLmForCausalLM" {
		// The per-head q/k LayerNorms, one module a head.
		p := "model.layers.%d."
		n.layer[roleQNorm], n.layer[roleKNorm] = p+"self_attn.q_layernorm.norms.*.weight", p+"self_attn.k_layernorm.norms.*.weight"
	}
	if arch == "GPTNeoXForCausalLM" {
		// gpt_neox.: embed_in, the layers' attention.query_key_value
		// and attention.dense, mlp.dense_h_to_4h and dense_4h_to_h,
		// final_layer_norm; the head embed_out.
		p := "gpt_neox.layers.%d."
		n = n.rebase("model.", "gpt_neox.", "embed_out.weight")
		n.embed, n.finalNorm = "gpt_neox.embed_in.weight", "gpt_neox.final_layer_norm.weight"
		n.layer[roleAttnQKV], n.layer[roleAttnQKVBias] = p+"attention.query_key_value.weight", p+"attention.query_key_value.bias"
		n.layer[roleO], n.layer[roleOBias] = p+"attention.dense.weight", p+"attention.dense.bias"
		n.layer[roleUp], n.layer[roleDown] = p+"mlp.dense_h_to_4h.weight", p+"mlp.dense_4h_to_h.weight"
		n.layer[roleUpBias], n.layer[roleDownBias] = p+"mlp.dense_h_to_4h.bias", p+"mlp.dense_4h_to_h.bias"
	}
	if arch == "Glm4ForCausalLM" {
		// input_layernorm, post_self_attn_layernorm after attention,
		// post_attention_layernorm before the MLP (as Llama's), and
		// post_mlp_layernorm after it.
		p := "model.layers.%d."
		n.layer[rolePostAttnNorm] = p + "post_self_attn_layernorm.weight"
		n.layer[rolePostFFNNorm] = p + "post_mlp_layernorm.weight"
	}
	if arch == "Gemma3ForConditionalGeneration" || arch == "Mistral3ForConditionalGeneration" ||
		strings.HasPrefix(arch, "Qwen") && strings.HasSuffix(arch, "ForConditionalGeneration") {
		n = n.rebase("model.", "model.language_model.", n.head)
	}
	if arch == "GraniteMoeForCausalLM" || arch == "GraniteMoeSharedForCausalLM" || arch == "GraniteMoeHybridForCausalLM" {
		// block_sparse_moe: input_linear [E, 2I, H] (the gate's rows,
		// then up's), output_linear [E, H, I], router.layer; the shared
		// expert's shared_mlp.input_linear [2S, H] and output_linear.
		p := "model.layers.%d."
		n.layer[roleRouter] = p + "block_sparse_moe.router.layer.weight"
		n.layer[roleExpertGateUpFused] = p + "block_sparse_moe.input_linear.weight"
		n.layer[roleExpertDownFused] = p + "block_sparse_moe.output_linear.weight"
		n.layer[roleSharedGateUp] = p + "shared_mlp.input_linear.weight"
		n.layer[roleSharedDown] = p + "shared_mlp.output_linear.weight"
	}
	if arch == "GraniteMoeHybridForCausalLM" {
		// The Mamba-2 mixers under mamba.; the dense models' MLP is
		// shared_mlp (input_linear [gate; up]).
		n.mambaUnder("model.layers.%d.mamba.")
		p := "model.layers.%d."
		n.layer[roleGateUp], n.layer[roleDown] = p+"shared_mlp.input_linear.weight", p+"shared_mlp.output_linear.weight"
	}
	if arch == "BambaForCausalLM" {
		// mamba., pre_ff_layernorm before feed_forward, the final norm
		// final_layernorm.
		n.mambaUnder("model.layers.%d.mamba.")
		p := "model.layers.%d."
		n.finalNorm = "model.final_layernorm.weight"
		n.layer[roleFFNNorm] = p + "pre_ff_layernorm.weight"
		n.layer[roleGate], n.layer[roleUp], n.layer[roleDown] = p+"feed_forward.gate_proj.weight", p+"feed_forward.up_proj.weight", p+"feed_forward.down_proj.weight"
	}
	if arch == "NemotronHForCausalLM" {
		// As transformers 5 saves it: model.embeddings, each layer's
		// norm and mixer (a Mamba-2 mixer, attention or an MLP),
		// model.norm_f (the published files' backbone.: hfNamesFor).
		p := "model.layers.%d."
		n = naming{embed: "model.embeddings.weight", finalNorm: "model.norm_f.weight", head: "lm_head.weight",
			layer: map[string]string{roleAttnNorm: p + "norm.weight",
				roleQ: p + "mixer.q_proj.weight", roleK: p + "mixer.k_proj.weight", roleV: p + "mixer.v_proj.weight", roleO: p + "mixer.o_proj.weight",
				roleQBias: p + "mixer.q_proj.bias", roleKBias: p + "mixer.k_proj.bias", roleVBias: p + "mixer.v_proj.bias", roleOBias: p + "mixer.o_proj.bias",
				roleUp: p + "mixer.up_proj.weight", roleDown: p + "mixer.down_proj.weight",
				// The experts layers (E): the router with its selection
				// bias, the experts per expert (as published) or fused
				// (transformers 5), the shared expert, the latent's
				// projections.
				roleRouter: p + "mixer.gate.weight", roleRouterSelect: p + "mixer.gate.e_score_correction_bias",
				roleExpertUp: p + "mixer.experts.*.up_proj.weight", roleExpertDown: p + "mixer.experts.*.down_proj.weight",
				roleExpertUpFused: p + "mixer.experts.up_proj", roleExpertDownFused: p + "mixer.experts.down_proj",
				roleSharedUp: p + "mixer.shared_experts.up_proj.weight", roleSharedDown: p + "mixer.shared_experts.down_proj.weight",
				roleLatentIn: p + "mixer.fc1_latent_proj.weight", roleLatentOut: p + "mixer.fc2_latent_proj.weight"}}
		n.mambaUnder(p + "mixer.")
	}
	if arch == "JambaForCausalLM" || arch == "FalconH1ForCausalLM" {
		// mamba. (Mamba's: x_proj, dt_proj with its bias, and the norms
		// of dt, B and C; Falcon-H1's Mamba-2), pre_ff_layernorm before
		// feed_forward: an MLP or router and experts (per expert, or
		// fused as transformers 5 saves them); the final norm
		// final_layernorm.
		p := "model.layers.%d."
		n.mambaUnder(p + "mamba.")
		n.finalNorm = "model.final_layernorm.weight"
		n.layer[roleFFNNorm] = p + "pre_ff_layernorm.weight"
		f := p + "feed_forward."
		n.layer[roleGate], n.layer[roleUp], n.layer[roleDown] = f+"gate_proj.weight", f+"up_proj.weight", f+"down_proj.weight"
	}
	if arch == "JambaForCausalLM" {
		p := "model.layers.%d."
		n.layer[roleDT] = p + "mamba.dt_proj.bias"
		n.layer[roleSSMDTNorm], n.layer[roleSSMBNorm], n.layer[roleSSMCNorm] = p+"mamba.dt_layernorm.weight", p+"mamba.b_layernorm.weight", p+"mamba.c_layernorm.weight"
		f := p + "feed_forward."
		n.layer[roleRouter] = f + "router.weight"
		n.layer[roleExpertGate], n.layer[roleExpertUp], n.layer[roleExpertDown] = f+"experts.*.gate_proj.weight", f+"experts.*.up_proj.weight", f+"experts.*.down_proj.weight"
		n.layer[roleExpertGateUpFused], n.layer[roleExpertDownFused] = f+"experts.gate_up_proj", f+"experts.down_proj"
	}
	if arch == "Mamba2ForCausalLM" || arch == "MambaForCausalLM" || arch == "FalconMambaForCausalLM" {
		// backbone.: embeddings, each layer's norm and mixer, norm_f.
		n = naming{embed: "backbone.embeddings.weight", finalNorm: "backbone.norm_f.weight", head: "lm_head.weight",
			layer: map[string]string{roleAttnNorm: "backbone.layers.%d.norm.weight"}}
		n.mambaUnder("backbone.layers.%d.mixer.")
		if arch != "Mamba2ForCausalLM" {
			n.layer[roleDT] = "backbone.layers.%d.mixer.dt_proj.bias"
		}
	}
	if arch == "DeepseekV2ForCausalLM" || arch == "DeepseekV3ForCausalLM" {
		// Multi-head latent attention's projections.
		p := "model.layers.%d.self_attn."
		n.layer[roleQA], n.layer[roleQANorm], n.layer[roleQB] = p+"q_a_proj.weight", p+"q_a_layernorm.weight", p+"q_b_proj.weight"
		n.layer[roleKVA], n.layer[roleKVANorm], n.layer[roleKVB] = p+"kv_a_proj_with_mqa.weight", p+"kv_a_layernorm.weight", p+"kv_b_proj.weight"
	}
	if arch == "KimiLinearForCausalLM" {
		kimiNames(n)
	}
	if arch == "Zamba2ForCausalLM" {
		zambaNames(&n)
	}
	if arch == "Ernie4_5_MoeForCausalLM" {
		// The selection bias under mlp.moe_statics ([1, E]), the shared
		// experts under mlp.shared_experts.
		p := "model.layers.%d."
		n.layer[roleRouterSelect] = p + "mlp.moe_statics.e_score_correction_bias"
		n.layer[roleSharedGate], n.layer[roleSharedUp] = p+"mlp.shared_experts.gate_proj.weight", p+"mlp.shared_experts.up_proj.weight"
		n.layer[roleSharedDown] = p + "mlp.shared_experts.down_proj.weight"
	}
	if arch == "Glm4MoeForCausalLM" || arch == "DeepseekV2ForCausalLM" || arch == "DeepseekV3ForCausalLM" {
		// mlp.gate (the router) with its e_score_correction_bias, the
		// shared expert under mlp.shared_experts.
		p := "model.layers.%d."
		n.layer[roleRouterSelect] = p + "mlp.gate.e_score_correction_bias"
		n.layer[roleSharedGate], n.layer[roleSharedUp] = p+"mlp.shared_experts.gate_proj.weight", p+"mlp.shared_experts.up_proj.weight"
		n.layer[roleSharedDown] = p + "mlp.shared_experts.down_proj.weight"
	}
	if arch == "GptOssForCausalLM" {
		// mlp.router (with a bias); mlp.experts' gate_up_proj [E, H, 2I]
		// and down_proj [E, I, H] (in, out: transposed from the other
		// fused experts), each with a bias; self_attn.sinks.
		p := "model.layers.%d."
		n.layer[roleRouter], n.layer[roleRouterBias] = p+"mlp.router.weight", p+"mlp.router.bias"
		n.layer[roleExpertGateUpBias], n.layer[roleExpertDownBias] = p+"mlp.experts.gate_up_proj_bias", p+"mlp.experts.down_proj_bias"
		n.layer[roleSinks] = p + "self_attn.sinks"
	}
	if strings.HasPrefix(arch, "Llama4") {
		// feed_forward: the dense MLP's projections, or router,
		// experts.gate_up_proj and down_proj (fused) and shared_expert.
		p := "model.layers.%d.feed_forward."
		n.layer[roleGate], n.layer[roleUp], n.layer[roleDown] = p+"gate_proj.weight", p+"up_proj.weight", p+"down_proj.weight"
		n.layer[roleRouter] = p + "router.weight"
		n.layer[roleExpertGateUpFused], n.layer[roleExpertDownFused] = p+"experts.gate_up_proj", p+"experts.down_proj"
		n.layer[roleSharedGate], n.layer[roleSharedUp] = p+"shared_expert.gate_proj.weight", p+"shared_expert.up_proj.weight"
		n.layer[roleSharedDown] = p + "shared_expert.down_proj.weight"
		if arch == "Llama4ForConditionalGeneration" {
			n = n.rebase("model.", "model.language_model.", n.head)
		}
	}
	if arch == "MiniMaxM2ForCausalLM" {
		// As published, Mixtral's block_sparse_moe with the selection
		// bias beside the router (hfNamesFor: transformers 5's mlp.).
		p := "model.layers.%d.block_sparse_moe."
		n.layer[roleRouterSelect] = p + "e_score_correction_bias"
	}
	if arch == "MixtralForCausalLM" || arch == "MiniMaxM2ForCausalLM" {
		p := "model.layers.%d.block_sparse_moe."
		n.layer[roleRouter] = p + "gate.weight"
		n.layer[roleExpertGate] = p + "experts.*.w1.weight"
		n.layer[roleExpertUp] = p + "experts.*.w3.weight"
		n.layer[roleExpertDown] = p + "experts.*.w2.weight"
	}
	return n
}

// mambaUnder names a Mamba-2 mixer's tensors under prefix (with the
// layer's %d), as transformers' Mamba2Mixer and BambaMixer hold them.
func (n naming) mambaUnder(p string) {
	n.layer[roleSSMIn], n.layer[roleSSMInBias] = p+"in_proj.weight", p+"in_proj.bias"
	n.layer[roleConv], n.layer[roleConvBias] = p+"conv1d.weight", p+"conv1d.bias"
	n.layer[roleDT], n.layer[roleA], n.layer[roleD] = p+"dt_bias", p+"A_log", p+"D"
	n.layer[roleSSMNorm] = p + "norm.weight"
	n.layer[roleOut], n.layer[roleSSMOutBias] = p+"out_proj.weight", p+"out_proj.bias"
	n.layer[roleSSMX], n.layer[roleSSMDT] = p+"x_proj.weight", p+"dt_proj.weight" // Mamba's (dt_bias is Mamba-2's)
}

// rebase moves the names under prefix from to prefix to (and the head to
// head).
func (n naming) rebase(from, to, head string) naming {
	out := naming{embed: strings.Replace(n.embed, from, to, 1), finalNorm: strings.Replace(n.finalNorm, from, to, 1), head: head,
		layer: map[string]string{}}
	for role, f := range n.layer {
		out.layer[role] = strings.Replace(f, from, to, 1)
	}
	return out
}

// hfNamesFor are arch's names in the checkpoint src: hfNamesOf, but for
// Gemma 3's, Mistral 3's and Llama 4's vision-language checkpoints as first
// published, whose text model is language_model.model. and head
// language_model.lm_head (transformers since 4.52 writes
// model.language_model. and lm_head).
func hfNamesFor(arch string, src *weights.Source) naming {
	n := hfNamesOf(arch)
	if _, ok := src.Info("language_model.model.embed_tokens.weight"); ok && (arch == "Gemma3ForConditionalGeneration" || arch == "Mistral3ForConditionalGeneration" ||
		arch == "Llama4ForConditionalGeneration") {
		n = n.rebase("model.language_model.", "language_model.model.", "language_model.lm_head.weight")
	}
	if _, ok := src.Info("model.layers.0.mlp.gate.weight"); ok && arch == "MiniMaxM2ForCausalLM" {
		// transformers 5's: the router and its selection bias under mlp.,
		// the experts fused (hfNames' mlp.experts tables).
		p := "model.layers.%d.mlp."
		n.layer[roleRouter], n.layer[roleRouterSelect] = p+"gate.weight", p+"e_score_correction_bias"
	}
	if arch == "KimiLinearForCausalLM" && slices.ContainsFunc(src.Names(), func(name string) bool {
		return strings.HasSuffix(name, ".block_sparse_moe.gate_proj.weight")
	}) {
		// As transformers 5 saves it: the dense layers' MLP under
		// block_sparse_moe too (its mapping renames every mlp).
		p := "model.layers.%d.block_sparse_moe."
		n.layer[roleGate], n.layer[roleUp], n.layer[roleDown] = p+"gate_proj.weight", p+"up_proj.weight", p+"down_proj.weight"
	}
	if _, ok := src.Info("backbone.embeddings.weight"); ok && arch == "NemotronHForCausalLM" {
		n = n.rebase("model.", "backbone.", n.head) // as published
	}
	if _, ok := src.Info("model.embed_tokens.weight"); ok && (arch == "Qwen2VLForConditionalGeneration" || arch == "Qwen2_5_VLForConditionalGeneration") {
		// As first published: the text model under model., the vision
		// tower under visual.
		n = n.rebase("model.language_model.", "model.", n.head)
	}
	return n
}

// ggufNames are llama.cpp's names (gguf-py's TENSOR_NAMES), Gemma's norms
// after attention and the MLP among them. ffnNorm is
// "ffn_norm" for llama, qwen2 and qwen3, "post_attention_norm" for the hybrids.
func ggufNames(ffnNorm string) naming {
	p := "blk.%d."
	return naming{
		embed: "token_embd.weight", finalNorm: "output_norm.weight", head: "output.weight",
		layer: map[string]string{
			roleAttnNorm: p + "attn_norm.weight", roleFFNNorm: p + ffnNorm + ".weight",
			rolePostAttnNorm: p + "post_attention_norm.weight", rolePostFFNNorm: p + "post_ffw_norm.weight",
			roleQ: p + "attn_q.weight", roleK: p + "attn_k.weight", roleV: p + "attn_v.weight", roleO: p + "attn_output.weight",
			roleQBias: p + "attn_q.bias", roleKBias: p + "attn_k.bias", roleVBias: p + "attn_v.bias", roleOBias: p + "attn_output.bias",
			roleQNorm: p + "attn_q_norm.weight", roleKNorm: p + "attn_k_norm.weight",
			roleGate: p + "ffn_gate.weight", roleUp: p + "ffn_up.weight", roleDown: p + "ffn_down.weight",
			roleAttnQKV: p + "attn_qkv.weight", roleAttnQKVBias: p + "attn_qkv.bias", roleGateUp: p + "ffn_up.weight", // phi3's ffn_up holds [gate; up]
			roleQKV: p + "attn_qkv.weight", roleZ: p + "attn_gate.weight",
			roleBeta: p + "ssm_beta.weight", roleAlpha: p + "ssm_alpha.weight", roleBA: p + "ssm_ba.weight",
			roleA: p + "ssm_a", roleDT: p + "ssm_dt.bias", roleConv: p + "ssm_conv1d.weight",
			roleSSMNorm: p + "ssm_norm.weight", roleOut: p + "ssm_out.weight",
			roleSSMIn: p + "ssm_in.weight", roleSSMInBias: p + "ssm_in.bias", roleSSMOutBias: p + "ssm_out.bias",
			roleConvBias: p + "ssm_conv1d.bias", roleD: p + "ssm_d", roleSSMX: p + "ssm_x.weight", roleSSMDT: p + "ssm_dt.weight",
			roleSSMDTNorm: p + "ssm_dt_norm.weight", roleSSMBNorm: p + "ssm_b_norm.weight", roleSSMCNorm: p + "ssm_c_norm.weight",
			roleRouter:     p + "ffn_gate_inp.weight",
			roleExpertGate: p + "ffn_gate_exps.weight", roleExpertUp: p + "ffn_up_exps.weight", roleExpertDown: p + "ffn_down_exps.weight",
			roleSharedGate: p + "ffn_gate_shexp.weight", roleSharedUp: p + "ffn_up_shexp.weight",
			roleSharedDown: p + "ffn_down_shexp.weight", roleSharedRouter: p + "ffn_gate_inp_shexp.weight",
			roleConvIn: p + "shortconv.in_proj.weight", roleShortConv: p + "shortconv.conv.weight", roleConvOut: p + "shortconv.out_proj.weight",
			roleUpBias: p + "ffn_up.bias", roleDownBias: p + "ffn_down.bias",
			roleRouterSelect: p + "exp_probs_b.bias",
			roleLatentIn:     p + "ffn_latent_down.weight", roleLatentOut: p + "ffn_latent_up.weight", // nemotron_h_moe's latent experts
			// deepseek2's latent attention.
			roleQA: p + "attn_q_a.weight", roleQANorm: p + "attn_q_a_norm.weight", roleQB: p + "attn_q_b.weight",
			roleKVA: p + "attn_kv_a_mqa.weight", roleKVANorm: p + "attn_kv_a_norm.weight", roleKVB: p + "attn_kv_b.weight",
			roleKB: p + "attn_k_b.weight", roleVB: p + "attn_v_b.weight",
			// gpt-oss's.
			roleSinks: p + "attn_sinks.weight", roleRouterBias: p + "ffn_gate_inp.bias", roleExpertGateBias: p + "ffn_gate_exps.bias",
			roleExpertUpBias: p + "ffn_up_exps.bias", roleExpertDownBias: p + "ffn_down_exps.bias",
		},
	}
}
