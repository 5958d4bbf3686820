package importer

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/rlx-compiler/rlx/ir"
)

// zambaHybrid is a Zamba2 hybrid layer's kind: the shared transformer
// block, its per-layer linear, then the layer's Mamba-2 mixer.
const zambaHybrid = "hybrid"

// zamba is what Zamba2 adds to the Mamba-2 hybrids.
type zamba struct {
	blocks      int  // num_mem_blocks: the shared transformer blocks, taken in turn by the hybrid layers
	adapterRank int  // the adapters' rank
	attnAdapter bool // use_shared_attention_adapter: q, k and v each + a low-rank adapter of the layer's
}

// zambaHybrids are the hybrid layers, in order (transformers'
// hybrid_layer_ids).
func (s *spec) zambaHybrids() []int {
	var ids []int
	for i, t := range s.layerTypes {
		if t == zambaHybrid {
			ids = append(ids, i)
		}
	}
	return ids
}

// readZamba2 reads Zamba2ForCausalLM (Zyphra's Zamba2, as transformers
// reads it): the layers layers_block_type calls "mamba" are a Mamba-2
// mixer after an RMSNorm; those it calls "hybrid" first run one of
// num_mem_blocks shared transformer blocks (the hybrid layers take them
// in turn) on RMSNorm(x ‖ x₀), x₀ the token's embedding: attention of
// num_attention_heads heads of 2·hidden_size/num_attention_heads (its
// scores × (head_dim/2)^−½, rope over the whole head under
// use_mem_rope), an RMSNorm, a gated MLP of intermediate_size
// (hidden_act, gelu by default), each hybrid layer adding its own
// low-rank adapter of adapter_rank to the MLP's gate_up_proj (and under
// use_shared_attention_adapter to q, k and v); the block's output
// through the layer's own linear is added to the mixer's input, not to
// the residual: x ← x + mixer(RMSNorm(x + linear(block))). The mixers'
// gated norm is over each of mamba_ngroups groups at 1e-5, softplus(dt +
// dt_bias) clamped below at time_step_min (transformers 5's
// time_step_limit). A tied head by default.
func (s *spec) readZamba2(c *config) {
	c.setDefault("tie_word_embeddings", "true")
	c.setDefault("hidden_act", `"gelu"`)
	if !s.readGatedAct(c) {
		return
	}
	hidden, heads := c.int("hidden_size", 0, true), c.int("num_attention_heads", 0, true)
	if c.err != nil {
		return
	}
	if hidden == 0 || heads == 0 {
		c.fail("hidden_size and num_attention_heads must be positive")
		return
	}
	c.setDefault("intermediate_size", fmt.Sprint(4*hidden))
	// The shared attention reads x ‖ x₀: heads of 2·hidden/heads.
	c.setDefault("head_dim", fmt.Sprint(2*hidden/heads))
	// use_long_context changes only max_position_embeddings in
	// transformers 5 (its 4.x Zamba2Config scaled rope_theta too).
	c.used["use_long_context"] = true
	s.readCommon(c, 1.0)
	if c.err != nil {
		return
	}
	const from = "Zamba2Config derives from hidden_size and num_attention_heads"
	c.agrees("attention_hidden_size", 2*s.hidden, from)
	c.agrees("attention_head_dim", 2*s.hidden/s.heads, from)
	c.agrees("head_dim", 2*s.hidden/s.heads, from)
	c.agrees("kv_channels", s.hidden/s.heads, from)
	c.agrees("num_query_groups", s.heads, from)
	for _, f := range []string{"chunk_size", "use_mem_eff_path", "time_step_max", "time_step_floor", "time_step_limit",
		"num_logits_to_keep", "use_shared_mlp_adapter", "use_mamba_kernels"} {
		// The prefill's chunks and kernels, training set-up; a saved
		// time_step_limit, which transformers 5 sets from time_step_min
		// whatever the file says; the MLP's adapters, which Zamba2MLP
		// builds whatever use_shared_mlp_adapter says.
		c.used[f] = true
	}
	c.reject("add_bias_linear", "false")
	s.readMamba2Mixer(c, ssmKeys{"n_mamba_heads", "mamba_headdim", "mamba_ngroups", "mamba_d_state", "mamba_d_conv", "mamba_expand",
		"use_conv_bias", "add_bias_linear", ""}, 1e-5)
	m := &s.stateSpace
	m.ssmGroupNorm, m.mixerOnly = true, true
	m.ssmDTMin = c.float("time_step_min", 0.001)
	z := &s.zamba
	z.blocks = c.int("num_mem_blocks", 1, false)
	z.adapterRank = c.int("adapter_rank", 128, false)
	z.attnAdapter = c.bool("use_shared_attention_adapter", false)
	s.readZambaLayers(c)
	switch {
	case c.err != nil:
	case !(m.ssmDTMin >= 0) || math.IsInf(m.ssmDTMin, 0):
		c.fail("field \"time_step_min\" = %g: rlx needs a finite, non-negative floor", m.ssmDTMin)
	case z.blocks == 0 || z.adapterRank == 0:
		c.fail("num_mem_blocks = %d, adapter_rank = %d: rlx needs them positive", z.blocks, z.adapterRank)
	case z.attnAdapter && s.kvHeads != s.heads:
		c.fail("num_key_value_heads = %d with use_shared_attention_adapter: the adapters' 2·hidden_size outputs fill every head's k and v (%d heads)", s.kvHeads, s.heads)
	}
}

// readZambaLayers reads layers_block_type ("mamba", transformers 5's
// "linear_attention", or "hybrid" a layer;
// transformers' default pattern of 54 where absent) and checks
// hybrid_layer_ids against it.
func (s *spec) readZambaLayers(c *config) {
	def := append(append([]string{"mamba"}, slices.Repeat(append(slices.Repeat([]string{"mamba"}, 5), "hybrid"), 7)...),
		"mamba", "mamba", "mamba", "mamba", "hybrid", "mamba", "mamba", "mamba", "hybrid", "mamba", "mamba")
	raw, _ := json.Marshal(def)
	c.setDefault("layers_block_type", string(raw))
	// transformers 5 saves the Mamba-2 layers as "linear_attention".
	s.readBlockTypes(c, "layers_block_type", map[string]string{"mamba": mambaLayer, "linear_attention": mambaLayer, "hybrid": zambaHybrid})
	if c.err != nil {
		return
	}
	if v, ok := c.get("hybrid_layer_ids"); ok {
		var ids []int
		if err := json.Unmarshal(v, &ids); err != nil || !slices.Equal(ids, s.zambaHybrids()) {
			c.fail("field \"hybrid_layer_ids\" = %s is not the hybrid layers of layers_block_type, %v", v, s.zambaHybrids())
			return
		}
	}
	if !c.bool("use_mem_rope", false) {
		s.noRope = slices.Repeat([]bool{true}, s.layers)
	}
	s.attnScale = 1 / math.Sqrt(float64(s.headDim)/2)
}

// readGatedAct reads hidden_act, the gated MLP's activation:
// gelu_pytorch_tanh or gelu_new (tanh's gelu), gelu (erf's) or silu; false
// (the error recorded) for another.
func (s *spec) readGatedAct(c *config) bool {
	switch act := c.str("hidden_act", ""); act {
	case "gelu_pytorch_tanh", "gelu_new":
		s.geluTanh = true
	case "gelu":
		s.geluTanh, s.erfGelu = true, true
	case "silu":
	default:
		c.fail("field \"hidden_act\" = %q is not supported (rlx implements \"gelu_pytorch_tanh\", \"gelu_new\", \"gelu\" and \"silu\")", act)
		return false
	}
	return true
}

// zambaNames are transformers' names for Zamba2: the Mamba-2 layers'
// mixers under mamba., the hybrid layers' under mamba_decoder. (their
// alt names), the final norm final_layernorm.
func zambaNames(n *naming) {
	p := "model.layers.%d."
	n.finalNorm = "model.final_layernorm.weight"
	n.mambaUnder(p + "mamba.")
	alt := naming{layer: map[string]string{roleAttnNorm: p + "mamba_decoder.input_layernorm.weight"}}
	alt.mambaUnder(p + "mamba_decoder.mamba.")
	n.alt, n.altKind = alt.layer, zambaHybrid
}

// zambaBlock is hybrid layer i's shared transformer block and linear on
// x and the embedding x0 ([1, hidden] each): what the layer adds to its
// mixer's input. The block is the (j mod num_mem_blocks)-th for the
// layer's place j among the hybrid layers; its weights are read where
// the checkpoint holds them (zambaShared), its adapters' j-th.
func (g *builder) zambaBlock(i int, x, x0 *ir.Value, at positions) *ir.Value {
	s, z := g.s, &g.s.zamba
	e, heads, kvh, d, r := s.hidden, s.heads, s.kvHeads, s.headDim, z.adapterRank
	hybrids := s.zambaHybrids()
	j := slices.Index(hybrids, i)
	name := func(rest string) string { return g.zambaShared(hybrids, j, rest) }
	adapted := func(y, in *ir.Value, list string, out, width int) *ir.Value {
		a := fmt.Sprintf("%s.%d.", list, j)
		return g.add(y, g.linear(g.linear(in, name(a+"0.weight"), r, width), name(a+"1.weight"), out, r))
	}
	t := g.rmsNorm(g.concat(1, x, x0), g.weight(name("input_layernorm.weight"), 2*e))
	q := g.linear(t, name("self_attn.q_proj.weight"), heads*d, 2*e)
	k := g.linear(t, name("self_attn.k_proj.weight"), kvh*d, 2*e)
	v := g.linear(t, name("self_attn.v_proj.weight"), kvh*d, 2*e)
	if z.attnAdapter {
		q = adapted(q, t, "self_attn.linear_q_adapter_list", 2*e, 2*e)
		k = adapted(k, t, "self_attn.linear_k_adapter_list", 2*e, 2*e)
		v = adapted(v, t, "self_attn.linear_v_adapter_list", 2*e, 2*e)
	}
	q, k, v = g.reshape(q, 1, 1, heads, d), g.reshape(k, 1, 1, kvh, d), g.reshape(v, 1, 1, kvh, d)
	if s.ropeLayer(i) {
		q, k = g.rope(q, at.cos, at.sin), g.rope(k, at.cos, at.sin)
	}
	a, _ := g.attendCached(i, q, k, v, at.keep, at.write)
	a = g.linear(g.reshape(a, 1, heads*d), name("self_attn.o_proj.weight"), e, heads*d)

	h := g.rmsNorm(a, g.weight(name("pre_ff_layernorm.weight"), e))
	gu := adapted(g.linear(h, name("feed_forward.gate_up_proj.weight"), 2*s.ffn, e), h, "feed_forward.gate_up_proj_adapter_list", 2*s.ffn, e)
	y := g.mul(g.act(g.slice(gu, 1, 0, s.ffn)), g.slice(gu, 1, s.ffn, s.ffn))
	y = g.linear(y, name("feed_forward.down_proj.weight"), e, s.ffn)
	return g.linear(y, fmt.Sprintf("model.layers.%d.linear.weight", i), e, e)
}

// zambaShared is the name of a tensor of the shared block the j-th of
// the hybrid layers runs (rest under shared_transformer.): the layer's own
// copy where the checkpoint holds one, else that of the first hybrid
// layer running the same block (transformers saves a tied block once;
// published checkpoints hold a copy in every hybrid layer).
func (g *builder) zambaShared(hybrids []int, j int, rest string) string {
	at := func(layer int) string { return fmt.Sprintf("model.layers.%d.shared_transformer.%s", layer, rest) }
	if own := at(hybrids[j]); g.has(own) {
		return own
	}
	for k := j % g.s.zamba.blocks; k < j; k += g.s.zamba.blocks {
		if g.has(at(hybrids[k])) {
			return at(hybrids[k])
		}
	}
	return at(hybrids[j]) // missing: info names it
}
