package importer

import (
	"encoding/json"
	"math"
	"slices"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// readKimiLinear reads KimiLinearForCausalLM (Moonshot's Kimi Linear, as
// published with its remote code, configuration_kimi.py and
// modeling_kimi.py): the layers linear_attn_config's kda_layers names
// (1-based, as published) are Kimi delta attention (spec.kda: num_heads
// heads of head_dim, convs of short_conv_kernel_size), those
// full_attn_layers names DeepSeek's multi-head latent attention without
// rope (mla_use_nope: the qk_rope_head_dim dims of q and of the shared k
// pass unrotated; the scores × (qk_nope_head_dim + qk_rope_head_dim)^−½,
// the latent's norm at 1e-6 as KimiRMSNorm's default); from
// first_k_dense_replace on, every moe_layer_freq-th layer routes over
// num_experts experts of moe_intermediate_size rows as KimiMoEGate does
// (DeepSeek-V3's routing: σ scores, chosen by score +
// e_score_correction_bias within the topk_group of num_expert_group
// groups, weighted by score, renormalised (+1e-20) under moe_renormalize
// where more than one is chosen, × routed_scaling_factor) beside
// num_shared_experts ungated shared ones; the other layers a SwiGLU MLP of
// intermediate_size.
func (s *spec) readKimiLinear(c *config) {
	s.readCommon(c, 1.0)
	c.used["model_max_length"], c.used["num_nextn_predict_layers"] = true, true
	if c.err != nil {
		return
	}
	if s.kvHeads != s.heads {
		c.fail("num_key_value_heads = %d differs from num_attention_heads = %d: Kimi's latent attention expands k and v to every head", s.kvHeads, s.heads)
		return
	}
	s.readKDA(c)
	s.readKimiLatent(c)
	s.readKimiMoE(c)
	s.readKimiDerived(c)
}

// readKimiDerived checks what transformers 5's KimiLinearConfig writes
// beside Moonshot's fields when it saves a checkpoint: layer_types and
// mlp_layer_types, linear_attn_config's sizes again as linear_*, and
// qk_head_dim, each as the other fields give it; pretraining_tp 1 and
// attention_bias false.
func (s *spec) readKimiDerived(c *config) {
	c.reject("pretraining_tp", "1")
	c.reject("attention_bias", "false")
	if c.err != nil {
		return
	}
	mlp := make([]string, s.layers)
	for i := range mlp {
		mlp[i] = "dense"
		if s.experts > 0 && s.moeLayer[i] {
			mlp[i] = "sparse"
		}
	}
	for _, f := range []struct {
		key  string
		want []string
	}{{"layer_types", s.layerTypes}, {"mlp_layer_types", mlp}} {
		v, ok := c.get(f.key)
		if !ok {
			continue
		}
		var got []string
		if err := json.Unmarshal(v, &got); err != nil || !slices.Equal(got, f.want) {
			c.fail("field %q = %s is not %q, as the other fields give the layers", f.key, v, f.want)
			return
		}
	}
	const from = "the other fields give"
	c.agrees("linear_conv_kernel_dim", s.convKernel, from)
	c.agrees("linear_head_dim", s.gdn, from)
	c.agrees("linear_num_heads", s.valueHeads, from)
	c.agrees("qk_head_dim", s.mla.nope+s.mla.rope, from)
}

// readKDA reads linear_attn_config: the layers of each kind and the
// delta attention's sizes. Every layer must be named once, by kda_layers
// or by full_attn_layers.
func (s *spec) readKDA(c *config) {
	raw := c.object("linear_attn_config")
	if c.err != nil {
		return
	}
	if raw == nil {
		c.fail("missing field \"linear_attn_config\" (Kimi Linear lists its delta attention layers there)")
		return
	}
	la := &config{path: c.path + " (linear_attn_config)", raw: raw, used: map[string]bool{}}
	kda := la.layerList("kda_layers", s.layers)
	full := la.layerList("full_attn_layers", s.layers)
	s.valueHeads = la.int("num_heads", 0, true)
	s.gdn = la.int("head_dim", 0, true)
	s.convKernel = la.int("short_conv_kernel_size", 0, true)
	la.leftovers("Kimi Linear's linear_attn_config")
	if la.err != nil {
		c.err = la.err
		return
	}
	if s.valueHeads == 0 || s.gdn == 0 || s.convKernel == 0 {
		c.fail("linear_attn_config: num_heads, head_dim and short_conv_kernel_size must be positive")
		return
	}
	s.keyHeads, s.kda, s.aIsLog = s.valueHeads, true, true
	s.layerTypes = make([]string, s.layers)
	for i := range s.layerTypes {
		inKDA, inFull := slices.Contains(kda, i+1), slices.Contains(full, i+1)
		switch {
		case inKDA == inFull:
			c.fail("linear_attn_config: layer %d (1-based) must be in exactly one of kda_layers and full_attn_layers", i+1)
			return
		case inKDA:
			s.layerTypes[i] = linearAttention
		default:
			s.layerTypes[i] = fullAttention
		}
	}
}

// layerList reads key as a list of 1-based layer numbers in [1, layers].
func (c *config) layerList(key string, layers int) []int {
	v, ok := c.get(key)
	if !ok {
		c.fail("missing field %q", key)
		return nil
	}
	var list []int
	if err := json.Unmarshal(v, &list); err != nil {
		c.fail("field %q = %s is not a list of layer numbers", key, v)
		return nil
	}
	for _, n := range list {
		if n < 1 || n > layers {
			c.fail("field %q names layer %d; the layers are numbered 1 to %d", key, n, layers)
			return nil
		}
	}
	return list
}

// readKimiLatent reads Kimi's latent attention: DeepSeek's (spec.mla)
// with q from q_proj (q_lora_rank null, as published) or its LoRA, and no
// rope in any layer.
func (s *spec) readKimiLatent(c *config) {
	if !c.bool("mla_use_nope", false) {
		c.fail("field \"mla_use_nope\" is not true: Kimi Linear's latent attention is implemented without rope only (modeling_kimi.py asserts it)")
		return
	}
	m := mla{rope: c.int("qk_rope_head_dim", 0, true), nope: c.int("qk_nope_head_dim", 0, true), vDim: c.int("v_head_dim", 0, true),
		kvLora: c.int("kv_lora_rank", 0, true), qLora: c.int("q_lora_rank", 0, false)}
	if c.err != nil {
		return
	}
	if m.nope == 0 || m.vDim == 0 || m.kvLora == 0 {
		c.fail("qk_nope_head_dim = %d, v_head_dim = %d, kv_lora_rank = %d: rlx needs them positive", m.nope, m.vDim, m.kvLora)
		return
	}
	s.mla = m
	s.noRope = slices.Repeat([]bool{true}, s.layers)
	s.attnScale = 1 / math.Sqrt(float64(m.nope+m.rope))
}

// readKimiMoE reads KimiMoEGate's routing and the layers it runs in.
func (s *spec) readKimiMoE(c *config) {
	experts := c.int("num_experts", 0, false)
	c.reject("moe_router_activation_func", `"sigmoid"`)
	c.used["use_grouped_topk"] = true // KimiMoEGate groups whatever it says
	groups, open := c.int("num_expert_group", 1, false), c.int("topk_group", 1, false)
	freq := c.int("moe_layer_freq", 1, false)
	if experts == 0 {
		// No experts: every layer's MLP is dense.
		for _, f := range []string{"num_experts_per_token", "num_shared_experts", "moe_intermediate_size", "routed_scaling_factor",
			"moe_renormalize", "first_k_dense_replace"} {
			c.used[f] = true
		}
		return
	}
	topK := c.int("num_experts_per_token", 0, true)
	bad := s.setDeepseekMoE(experts, topK, c.int("moe_intermediate_size", 0, true), c.int("num_shared_experts", 0, false),
		c.int("first_k_dense_replace", 0, false), c.bool("moe_renormalize", true) && topK > 1, c.float("routed_scaling_factor", 1))
	switch {
	case c.err != nil:
		return
	case bad != "":
		c.fail("num_experts, num_experts_per_token, moe_intermediate_size, routed_scaling_factor: %s", bad)
		return
	case freq == 0:
		c.fail("field \"moe_layer_freq\" must be positive")
		return
	}
	s.sigmoidRouter = true
	for i := range s.moeLayer {
		s.moeLayer[i] = s.moeLayer[i] && i%freq == 0
	}
	if bad := s.setGroups("num_expert_group", "topk_group", groups, open, false); bad != "" {
		c.fail("%s", bad)
	}
}

// kimiNames are Moonshot's names for Kimi Linear: Llama's norms and MLP,
// the delta attention's and the latent attention's projections under
// self_attn., the experts under block_sparse_moe (w1 the gate, w3 up,
// w2 down; the router gate with its e_score_correction_bias).
func kimiNames(n naming) {
	p := "model.layers.%d.self_attn."
	n.layer[roleKVA], n.layer[roleKVANorm], n.layer[roleKVB] = p+"kv_a_proj_with_mqa.weight", p+"kv_a_layernorm.weight", p+"kv_b_proj.weight"
	n.layer[roleQA], n.layer[roleQANorm], n.layer[roleQB] = p+"q_a_proj.weight", p+"q_a_layernorm.weight", p+"q_b_proj.weight"
	n.layer[roleConvQ], n.layer[roleConvK], n.layer[roleConvV] = p+"q_conv1d.weight", p+"k_conv1d.weight", p+"v_conv1d.weight"
	n.layer[roleA], n.layer[roleDT], n.layer[roleBeta] = p+"A_log", p+"dt_bias", p+"b_proj.weight"
	n.layer[roleDecayDown], n.layer[roleDecayUp] = p+"f_a_proj.weight", p+"f_b_proj.weight"
	n.layer[roleOutGateDown], n.layer[roleOutGateUp] = p+"g_a_proj.weight", p+"g_b_proj.weight"
	n.layer[roleSSMNorm], n.layer[roleOut] = p+"o_norm.weight", p+"o_proj.weight"
	m := "model.layers.%d.block_sparse_moe."
	n.layer[roleRouter], n.layer[roleRouterSelect] = m+"gate.weight", m+"gate.e_score_correction_bias"
	n.layer[roleExpertGate], n.layer[roleExpertUp], n.layer[roleExpertDown] = m+"experts.*.w1.weight", m+"experts.*.w3.weight", m+"experts.*.w2.weight"
	n.layer[roleSharedGate], n.layer[roleSharedUp] = m+"shared_experts.gate_proj.weight", m+"shared_experts.up_proj.weight"
	n.layer[roleSharedDown] = m + "shared_experts.down_proj.weight"
}

// kimiDelta is a Kimi delta attention layer (modeling_kimi.py's
// KimiDeltaAttention) for one token: q, k and v projections, each through
// its own causal depthwise conv with SiLU (their windows side by side in
// one state, q's channels, k's, then v's), l2-normalised q and k, a decay
// a key channel g = −exp(A_log)·softplus(f_b(f_a(h)) + dt_bias) (A_log a
// head's, dt_bias a channel's: fla's kda gate) and β = σ(b(h)), the delta
// rule with a gate a channel (graph.gated_delta_net's gate_per_channel),
// and each head's output RMS-normalised (o_norm) × σ(g_b(g_a(h))) before
// the output projection.
func (g *builder) kimiDelta(i int, h *ir.Value) *ir.Value {
	s := g.s
	e, heads, n := s.hidden, s.valueHeads, s.gdn
	d := heads * n
	proj := g.concat(1, g.linear(h, g.n.of(i, roleQ), d, e), g.linear(h, g.n.of(i, roleK), d, e), g.linear(h, g.n.of(i, roleV), d, e))
	taps := g.concat(0, g.weight(g.n.of(i, roleConvQ), d, s.convKernel), g.weight(g.n.of(i, roleConvK), d, s.convKernel),
		g.weight(g.n.of(i, roleConvV), d, s.convKernel))
	conv := g.silu(g.causalConvTaps(i, proj, taps, 3*d, s.convKernel))
	q := g.l2norm(g.reshape(g.slice(conv, 1, 0, d), 1, 1, heads, n))
	k := g.l2norm(g.reshape(g.slice(conv, 1, d, d), 1, 1, heads, n))
	v := g.reshape(g.slice(conv, 1, 2*d, d), 1, 1, heads, n)

	f := g.linear(g.linear(h, g.n.of(i, roleDecayDown), n, e), g.n.of(i, roleDecayUp), d, n)
	f = g.unary(graph.SoftplusName, g.add(f, g.reshape(g.weight(g.n.of(i, roleDT), d), 1, d)))
	gate := g.mul(g.reshape(f, 1, 1, heads, n), g.reshape(g.aDecay(i, s.aIsLog, heads, 1), 1, 1, heads, 1))
	beta := g.reshape(g.sigmoid(g.linear(h, g.n.of(i, roleBeta), heads, e)), 1, 1, heads)

	og := g.linear(g.linear(h, g.n.of(i, roleOutGateDown), n, e), g.n.of(i, roleOutGateUp), d, n)
	o := g.mul(g.rmsNorm(g.deltaRule(i, q, k, v, gate, beta, true), g.weight(g.n.of(i, roleSSMNorm), n)), g.sigmoid(g.reshape(og, 1, 1, heads, n)))
	return g.linear(g.reshape(o, 1, d), g.n.of(i, roleOut), e, d)
}

// readKimiLinearGGUF reads llama.cpp's kimi-linear as convert_hf_to_gguf
// writes Kimi Linear: the layers whose attention.head_count_kv is 0 are
// Kimi delta attention (attention.head_count heads of kda.head_dim, convs
// of ssm.conv_kernel; ssm_a = −exp(A_log), ssm_dt.bias the decay's bias,
// ssm_f_a/ssm_f_b, ssm_beta, ssm_g_a/ssm_g_b, ssm_norm), the others
// latent attention in deepseek2's split form (one kv head of
// attention.key_length = latent + rope, attention.key_length_mla and
// attention.value_length_mla a head's dims, attn_k_b and attn_v_b;
// value_length is the config's head_dim, unused), without rope; from
// leading_dense_block_count on, the experts as llama.cpp's builder runs
// them: σ scores (expert_gating_func 2 where the file says), the top
// expert_used_count of score + exp_probs_b chosen, always renormalised,
// × expert_weights_scale, beside expert_shared_count shared experts.
// rlx keeps the model's own epsilons where llama.cpp's builder takes
// the file's RMS epsilon instead (the latent's norm, 1e-6; q's and k's
// l2 norms, rsqrt(Σx² + 1e-6)).
func (m *ggufMeta) readKimiLinearGGUF(s *spec) {
	kv := m.eachLayer("attention.head_count_kv", s.layers, "kv heads", "for a delta attention layer")
	s.gdn = m.uint("kda.head_dim", 0, true)
	s.convKernel = m.uint("ssm.conv_kernel", 0, true)
	kvLora := m.uint("attention.kv_lora_rank", 0, true)
	la := mla{rope: s.rotaryDim, kvLora: kvLora, qLora: m.uint("attention.q_lora_rank", 0, false)}
	la.nope = m.uint("attention.key_length_mla", 0, true) - la.rope
	la.vDim = m.uint("attention.value_length_mla", 0, true)
	if m.err != nil {
		return
	}
	switch {
	case s.gdn == 0 || s.convKernel < 2:
		m.fail("%s = %d, %s = %d: rlx needs a head size and a window of at least 2", m.key("kda.head_dim"), s.gdn, m.key("ssm.conv_kernel"), s.convKernel)
	case kvLora == 0 || la.nope < 1 || la.vDim < 1 || s.headDim != kvLora+la.rope:
		m.fail("%s = %d, q·k dims %d (rope %d), v dims %d, %s = %d: rlx needs a latent, nope and v dims, and one kv head of the latent and rope dims",
			m.key("attention.kv_lora_rank"), kvLora, la.nope+la.rope, la.rope, la.vDim, m.key("attention.key_length"), s.headDim)
	case m.yarn.factor > 0:
		m.fail("%s: kimi-linear's attention takes no rope, so rlx refuses its scaling", m.key("rope.scaling.type"))
	}
	if m.err != nil {
		return
	}
	s.layerTypes = kindsByKVHeads(kv, linearAttention)
	s.keyHeads, s.valueHeads, s.kda = s.heads, s.heads, true
	s.mla, s.headDim, s.kvHeads = la, la.rope, s.heads
	s.noRope = slices.Repeat([]bool{true}, s.layers)
	s.attnScale = 1 / math.Sqrt(float64(la.nope+la.rope))
	p := "blk.%d."
	n := m.names.layer
	n[roleConvQ], n[roleConvK], n[roleConvV] = p+"ssm_conv1d_q.weight", p+"ssm_conv1d_k.weight", p+"ssm_conv1d_v.weight"
	n[roleDecayDown], n[roleDecayUp] = p+"ssm_f_a.weight", p+"ssm_f_b.weight"
	n[roleOutGateDown], n[roleOutGateUp] = p+"ssm_g_a.weight", p+"ssm_g_b.weight"
	n[roleOut] = p + "attn_output.weight"
	m.sigmoidGating(false)
	m.readDeepseekMoE(s)
	s.sigmoidRouter, s.normTopK = true, true
	m.readSelectBias(s)
}
