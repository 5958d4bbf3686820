package importer

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// Layer kinds of the state-space models: a Mamba or Mamba-2 mixer, and
// Nemotron-H's MLP alone.
const (
	mambaLayer = "mamba"
	mlpLayer   = "mlp"
)

// stateSpace is a state-space model's mixer: Mamba-2's (transformers'
// Mamba2Mixer, BambaMixer and Nemotron-H's: Mamba2ForCausalLM, Granite
// 4.0 H, Bamba, Nemotron-H) or, under ssmV1, Mamba's.
type stateSpace struct {
	ssmHeads, ssmHeadDim int // the heads and their width: the mixer's inner width is their product
	ssmGroups, ssmState  int // B's and C's groups (a group serves heads/groups consecutive heads), the state per head row
	ssmConv              int // the causal conv's window
	ssmConvBias          bool
	ssmProjBias          bool    // in_proj and out_proj add biases
	ssmEps               float64 // the gated RMSNorm's epsilon
	ssmGroupNorm         bool    // the gated RMSNorm over each group's channels (mamba_ssm, llama.cpp) instead of the whole inner width (transformers' Mamba2Mixer and BambaMixer)
	ssmDTMin, ssmDTMax   float64 // time_step_limit: softplus(dt + dt_bias) clamped to [min, max] (0, +Inf: none)
	ssmANeg              bool    // the decay is stored as −exp(A_log) (llama.cpp's ssm_a), not A_log
	mixerOnly            bool    // a layer is one block, its mixer (Mamba, Mamba-2) or, in Nemotron-H, attention or an MLP alone
	// Mamba (the first): a state per channel, dt through a low-rank
	// projection.
	ssmV1     bool
	ssmInner  int     // ssmV1: the inner width (expand × hidden)
	ssmDTRank int     // ssmV1: x_proj's dt rows, dt_proj's input
	ssmBCNorm bool    // Falcon-Mamba, Jamba: dt, B and C RMS-normalised before use
	ssmBCEps  float64 // its epsilon (mixer_rms_eps; Jamba's rms_norm_eps)
	ssmBCW    bool    // Jamba: those norms scale by their weights (dt_layernorm, b_layernorm, c_layernorm)
	// Falcon-H1's.
	ssmInScale, ssmOutScale float64   // the mixer's input and output × these (0: none)
	ssmMup                  []float64 // in_proj's z, x, B, C and dt × these (nil: none)
	ssmNoNorm               bool      // no gated RMSNorm: y·silu(z) alone
	ssmNormFirst            bool      // the gated RMSNorm's norm before the gate: RMSNorm(y)·silu(z)
}

// inner is the mixer's inner width, heads × head width.
func (m *stateSpace) inner() int {
	if m.ssmV1 {
		return m.ssmInner
	}
	return m.ssmHeads * m.ssmHeadDim
}

// convDim is the causal conv's channel count: x, then B and C.
func (m *stateSpace) convDim() int { return m.inner() + 2*m.ssmGroups*m.ssmState }

// ssmKeys names a config's Mamba-2 fields: Mamba2Config's, or the
// mamba_-prefixed ones of the hybrids (Granite 4.0 H, Bamba).
type ssmKeys struct {
	heads, headDim, groups, state, conv, expand, convBias, projBias string
	inner                                                           string // Falcon-H1's mamba_d_ssm: the inner width where given, in expand × hidden's place
}

var (
	mamba2Keys = ssmKeys{"num_heads", "head_dim", "n_groups", "state_size", "conv_kernel", "expand", "use_conv_bias", "use_bias", ""}
	hybridKeys = ssmKeys{"mamba_n_heads", "mamba_d_head", "mamba_n_groups", "mamba_d_state", "mamba_d_conv", "mamba_expand",
		"mamba_conv_bias", "mamba_proj_bias", ""}
)

// readMamba2Mixer reads the Mamba-2 mixer's sizes under keys, checking
// that the heads fill expand × hidden (or k.inner's width) and the
// groups divide the heads;
// eps is the gated norm's epsilon.
func (s *spec) readMamba2Mixer(c *config, k ssmKeys, eps float64) {
	m := &s.stateSpace
	expand := 0.0 // Nemotron-H's inner width is its heads' alone (k.expand "")
	if k.expand != "" {
		expand = c.float(k.expand, 2)
	}
	m.ssmHeads = c.int(k.heads, 0, true)
	inner := expand * float64(s.hidden)
	innerOf := fmt.Sprintf("%s × hidden_size = %g", k.expand, inner)
	if k.inner != "" {
		if n := c.int(k.inner, 0, false); n > 0 {
			inner, innerOf = float64(n), fmt.Sprintf("%s = %d", k.inner, n)
		}
	}
	if v, ok := c.get(k.headDim); ok && string(v) != `"auto"` {
		m.ssmHeadDim = c.int(k.headDim, 0, true)
	} else if m.ssmHeads > 0 && k.expand != "" {
		m.ssmHeadDim = int(inner) / m.ssmHeads // Granite's "auto"
	}
	m.ssmGroups = c.int(k.groups, 1, false)
	m.ssmState = c.int(k.state, 0, true)
	m.ssmConv = c.int(k.conv, 4, false)
	m.ssmConvBias = c.bool(k.convBias, true)
	m.ssmProjBias = c.bool(k.projBias, false)
	m.ssmEps = eps
	m.ssmDTMin, m.ssmDTMax = 0, math.Inf(1)
	if c.err != nil {
		return
	}
	switch {
	case m.ssmHeads == 0 || m.ssmHeadDim == 0 || m.ssmState == 0:
		c.fail("fields %q, %q and %q must be positive", k.heads, k.headDim, k.state)
	case k.expand != "" && float64(m.inner()) != inner:
		c.fail("%s = %d heads of %s = %d do not fill %s", k.heads, m.ssmHeads, k.headDim, m.ssmHeadDim, innerOf)
	case m.ssmGroups == 0 || m.ssmHeads%m.ssmGroups != 0:
		c.fail("field %q = %d does not divide %s = %d", k.groups, m.ssmGroups, k.heads, m.ssmHeads)
	case m.ssmConv < 2:
		c.fail("field %q = %d: rlx needs a window of at least 2", k.conv, m.ssmConv)
	}
}

// readTimeStepLimit reads time_step_limit, [min, max] (Python's json
// writes the default's +∞ as Infinity, which config.json's reader takes
// as the string "Infinity").
func (s *spec) readTimeStepLimit(c *config) {
	v, ok := c.get("time_step_limit")
	if !ok {
		return
	}
	var lim []any
	if err := json.Unmarshal(v, &lim); err != nil || len(lim) != 2 {
		c.fail("field \"time_step_limit\" = %s is not a pair [min, max]", v)
		return
	}
	var b [2]float64
	for i, x := range lim {
		switch x := x.(type) {
		case float64:
			b[i] = x
		case string, map[string]any:
			// Python's json writes +∞ as Infinity; transformers 5 as
			// {"__float__": "Infinity"}.
			if o, ok := x.(map[string]any); ok && len(o) == 1 {
				x = o["__float__"]
			}
			if x != "Infinity" {
				c.fail("field \"time_step_limit\" = %s is not a pair of numbers", v)
				return
			}
			b[i] = math.Inf(1)
		default:
			c.fail("field \"time_step_limit\" = %s is not a pair of numbers", v)
			return
		}
	}
	if !(b[0] >= 0 && b[1] > b[0]) {
		c.fail("field \"time_step_limit\" = %s: rlx needs 0 ≤ min < max", v)
		return
	}
	s.ssmDTMin, s.ssmDTMax = b[0], b[1]
}

// readMixerOnly reads the fields that the Mamba models (every layer an
// RMSNorm and a mixer) share: the sizes, the norms' epsilon, the tied
// head, the conv's activation, the quantisation; and marks the layers
// mixer-only.
func (s *spec) readMixerOnly(c *config) {
	s.hidden = c.int("hidden_size", 0, true)
	s.layers = c.int("num_hidden_layers", 0, true)
	s.vocab = c.int("vocab_size", 0, true)
	s.eps = c.float("layer_norm_epsilon", 1e-5)
	s.tied = c.bool("tie_word_embeddings", true)
	if act := c.str("hidden_act", "silu"); act != "silu" {
		c.fail("field \"hidden_act\" = %q is not supported (rlx implements \"silu\" only)", act)
	}
	c.readQuantization()
	s.mixerOnly = true
}

// readMamba2 reads Mamba2ForCausalLM (Codestral Mamba): every layer an
// RMSNorm and a Mamba-2 mixer, no MLP; the final norm norm_f.
func (s *spec) readMamba2(c *config) {
	s.readMixerOnly(c)
	c.reject("rms_norm", "true")
	c.reject("norm_before_gate", "false")
	for _, f := range []string{"residual_in_fp32", "chunk_size", "time_step_rank", "time_step_min", "time_step_max", "time_step_floor",
		"rescale_prenorm_residual", "layer_types"} {
		c.used[f] = true // the residual in f32 (rlx's always is), the prefill's chunks, training set-up
	}
	if c.err != nil {
		return
	}
	if s.hidden == 0 || s.layers == 0 || s.vocab == 0 {
		c.fail("hidden_size, num_hidden_layers and vocab_size must be positive")
		return
	}
	if s.layers > maxLayers {
		c.fail("field \"num_hidden_layers\" = %d is more layers than rlx reads (%d)", s.layers, maxLayers)
		return
	}
	s.readMamba2Mixer(c, mamba2Keys, s.eps)
	s.readTimeStepLimit(c)
	s.layerTypes = make([]string, s.layers)
	for i := range s.layerTypes {
		s.layerTypes[i] = mambaLayer
	}
}

// readBlockTypes reads a hybrid's per-layer kinds from key (a list of
// strings), mapping each of the config's names to a layer kind.
func (s *spec) readBlockTypes(c *config, key string, kinds map[string]string) {
	v, ok := c.get(key)
	if !ok {
		c.fail("missing field %q", key)
		return
	}
	var names []string
	if err := json.Unmarshal(v, &names); err != nil {
		c.fail("field %q = %s is not a list of strings", key, v)
		return
	}
	if len(names) != s.layers {
		c.fail("field %q lists %d layers, but num_hidden_layers = %d", key, len(names), s.layers)
		return
	}
	s.layerTypes = make([]string, s.layers)
	for i, n := range names {
		kind, ok := kinds[n]
		if !ok {
			var known []string
			for k := range kinds {
				known = append(known, fmt.Sprintf("%q", k))
			}
			slices.Sort(known)
			c.fail("field %q gives layer %d type %q, which is not supported for %s (rlx implements %s)", key, i, n, s.arch, strings.Join(known, ", "))
			return
		}
		s.layerTypes[i] = kind
	}
}

// mamba2Mixer is layer i's Mamba-2 mixer for one token, as
// transformers' Mamba2Mixer.torch_forward decodes with its cache:
// in_proj to the gate z, x‖B‖C and dt; the causal depthwise conv over
// the last ssmConv inputs of x‖B‖C (the state holds the ssmConv − 1
// before this one) with its bias and SiLU; dt = softplus(dt + dt_bias)
// (clamped to time_step_limit), the state h ← h·exp(dt·A) + dt·x⊗B per
// head (A = −exp(A_log); B and C shared by a group's heads), y = h·C +
// D·x; then RMSNorm(y·silu(z)) and out_proj.
func (g *builder) mamba2Mixer(i int, h *ir.Value) *ir.Value {
	s := g.s
	m := &s.stateSpace
	e, nh, hd, ns := s.hidden, m.ssmHeads, m.ssmHeadDim, m.ssmState
	inner, gs, cd := m.inner(), m.ssmGroups*m.ssmState, m.convDim()
	if m.ssmInScale != 0 && m.ssmInScale != 1 {
		h = g.mul(h, g.scalar(m.ssmInScale))
	}
	proj := g.linear(h, g.n.of(i, roleSSMIn), inner+cd+nh, e)
	if m.ssmProjBias {
		proj = g.biased(proj, i, roleSSMInBias, biasRequired, inner+cd+nh)
	}
	if m.ssmMup != nil {
		// Falcon-H1's mup_vector: z, x, B, C and dt each × its multiplier.
		mup := make([]float64, 0, inner+cd+nh)
		for k, n := range []int{inner, inner, gs, gs, nh} {
			mup = append(mup, slices.Repeat([]float64{m.ssmMup[k]}, n)...)
		}
		proj = g.mul(proj, g.constF32([]int{1, len(mup)}, mup...))
	}
	z := g.slice(proj, 1, 0, inner)
	xbc := g.slice(proj, 1, inner, cd)
	dt := g.slice(proj, 1, inner+cd, nh)

	conv := g.causalConv(i, xbc, g.n.of(i, roleConv), cd, m.ssmConv)
	if m.ssmConvBias {
		conv = g.add(conv, g.reshape(g.weight(g.n.of(i, roleConvBias), cd), 1, cd))
	}
	conv = g.silu(conv)
	x := g.reshape(g.slice(conv, 1, 0, inner), nh, hd)
	// B and C [groups, state] → a row per head: head j reads group
	// j / (heads/groups).
	perHead := func(v *ir.Value) *ir.Value {
		r := nh / m.ssmGroups
		return g.reshape(g.broadcast(g.reshape(v, m.ssmGroups, 1, ns), m.ssmGroups, r, ns), nh, 1, ns)
	}
	b := perHead(g.slice(conv, 1, inner, gs))
	c := perHead(g.slice(conv, 1, inner+gs, gs))

	dt = g.unary(graph.SoftplusName, g.add(dt, g.reshape(g.weight(g.n.of(i, roleDT), nh), 1, nh)))
	if m.ssmDTMin > 0 {
		dt = g.op(graph.MaxName, nil, dt, g.scalar(m.ssmDTMin))
	}
	if !math.IsInf(m.ssmDTMax, 1) {
		dt = g.op(graph.MinName, nil, dt, g.scalar(m.ssmDTMax))
	}
	dt = g.reshape(dt, nh, 1)
	a := g.aDecay(i, !m.ssmANeg, nh)
	decay := g.reshape(g.unary(graph.ExpName, g.mul(dt, g.reshape(a, nh, 1))), nh, 1, 1)

	p := fmt.Sprintf("l%d.", i)
	prev := g.reshape(g.input(p+"ssm_state", []int64{1, int64(nh), int64(hd), int64(ns)}, g.f32), nh, hd, ns)
	next := g.add(g.mul(prev, decay), g.mul(g.reshape(g.mul(x, dt), nh, hd, 1), b))
	g.output(p+"ssm_state", g.reshape(next, 1, nh, hd, ns))
	y := g.sum(g.mul(next, c), false, 2)
	y = g.add(y, g.mul(x, g.reshape(g.weight(g.n.of(i, roleD), nh), nh, 1)))

	y = g.reshape(y, 1, inner)
	switch {
	case m.ssmNoNorm:
		y = g.mul(y, g.silu(z))
	case m.ssmNormFirst:
		y = g.mul(g.gatedNorm(i, y), g.silu(z))
	default:
		y = g.gatedNorm(i, g.mul(y, g.silu(z)))
	}
	out := g.linear(y, g.n.of(i, roleOut), e, inner)
	if m.ssmProjBias {
		out = g.biased(out, i, roleSSMOutBias, biasRequired, e)
	}
	if m.ssmOutScale != 0 && m.ssmOutScale != 1 {
		out = g.mul(out, g.scalar(m.ssmOutScale))
	}
	return out
}

// gatedNorm is the Mamba-2 mixer's RMSNorm of y [1, inner] with its
// weight, over the whole width or (ssmGroupNorm) each group's.
func (g *builder) gatedNorm(i int, y *ir.Value) *ir.Value {
	m := &g.s.stateSpace
	inner := m.inner()
	norm, per := g.n.of(i, roleSSMNorm), inner/m.ssmGroups
	if !m.ssmGroupNorm || m.ssmGroups == 1 {
		return g.rmsNormEps(y, g.weight(norm, inner), m.ssmEps)
	}
	// The norm's weight as transformers holds it [inner], or as
	// llama.cpp's converter reshapes it [groups, inner/groups].
	want := []int{inner}
	if sameSqueezed(g.info(norm).Shape, []int{m.ssmGroups, per}) {
		want = []int{m.ssmGroups, per}
	}
	y = g.reshape(g.rmsNormEps(g.reshape(y, m.ssmGroups, per), g.broadcast(g.scalar(1), per), m.ssmEps), 1, inner)
	return g.mul(y, g.reshape(g.weight(norm, want...), 1, inner))
}

// readGraniteHybrid reads what Granite 4.0 H adds to Granite MoE Shared
// (readGranite reads the rest): layer_types' "mamba" and "attention"
// layers, the Mamba-2 mixers' mamba_* fields (their gated norm's
// epsilon rms_norm_eps, as BambaMixer's), and position_embedding_type:
// rope where "rope", none otherwise (Granite 4.0 H's attention has no
// positions).
func (s *spec) readGraniteHybrid(c *config) {
	// transformers 5 saves them as linear_attention and full_attention.
	s.readBlockTypes(c, "layer_types", map[string]string{"mamba": mambaLayer, "attention": fullAttention,
		"linear_attention": mambaLayer, "full_attention": fullAttention})
	s.readMamba2Mixer(c, hybridKeys, s.eps)
	s.readTimeStepLimit(c)
	c.used["mamba_chunk_size"] = true // the prefill's chunks
	switch t := c.str("position_embedding_type", "nope"); t {
	case "rope":
	case "nope":
		s.noRope = make([]bool, s.layers)
		for i := range s.noRope {
			s.noRope[i] = true
		}
	default:
		c.fail("field \"position_embedding_type\" = %q is not supported (rlx implements \"rope\" and none)", t)
	}
}

// readMamba reads MambaForCausalLM and FalconMambaForCausalLM: every
// layer an RMSNorm and a Mamba mixer (no MLP), intermediate_size =
// expand × hidden channels with a state of state_size each, dt of
// time_step_rank ("auto": ⌈hidden/16⌉) rows through dt_proj; Falcon-Mamba
// RMS-normalises dt, B and C (mixer_rms_eps).
func (s *spec) readMamba(c *config) {
	s.readMixerOnly(c)
	for _, f := range []string{"residual_in_fp32", "time_step_scale", "time_step_min", "time_step_max", "time_step_init_scheme",
		"time_step_floor", "rescale_prenorm_residual", "use_mambapy", "use_falcon_mambapy", "use_associative_scan", "layer_types"} {
		c.used[f] = true // the residual in f32 (rlx's always is), training set-up, the prefill's implementation
	}
	m := &s.stateSpace
	m.ssmV1 = true
	m.ssmState = c.int("state_size", 16, false)
	m.ssmConv = c.int("conv_kernel", 4, false)
	m.ssmConvBias = c.bool("use_conv_bias", true)
	m.ssmProjBias = c.bool("use_bias", false)
	expand := c.float("expand", 2)
	m.ssmInner = c.int("intermediate_size", int(expand*float64(s.hidden)), false)
	if v, ok := c.get("time_step_rank"); ok && string(v) != `"auto"` {
		m.ssmDTRank = c.int("time_step_rank", 0, true)
	} else {
		m.ssmDTRank = (s.hidden + 15) / 16
	}
	if s.arch == "FalconMambaForCausalLM" {
		m.ssmBCNorm = true
		m.ssmBCEps = c.float("mixer_rms_eps", 1e-6)
	}
	if c.err != nil {
		return
	}
	switch {
	case s.hidden == 0 || s.layers == 0 || s.vocab == 0 || m.ssmState == 0 || m.ssmDTRank == 0:
		c.fail("hidden_size, num_hidden_layers, vocab_size, state_size and time_step_rank must be positive")
	case s.layers > maxLayers:
		c.fail("field \"num_hidden_layers\" = %d is more layers than rlx reads (%d)", s.layers, maxLayers)
	case float64(m.ssmInner) != expand*float64(s.hidden):
		c.fail("field \"intermediate_size\" = %d is not expand × hidden_size = %g", m.ssmInner, expand*float64(s.hidden))
	case m.ssmConv < 2:
		c.fail("field \"conv_kernel\" = %d: rlx needs a window of at least 2", m.ssmConv)
	case m.ssmBCNorm && !(m.ssmBCEps >= 0):
		c.fail("field \"mixer_rms_eps\" = %g: rlx needs a non-negative epsilon", m.ssmBCEps)
	}
	s.layerTypes = slices.Repeat([]string{mambaLayer}, s.layers)
}

// mambaMixer is layer i's Mamba mixer (the first) for one token, as
// transformers' MambaMixer.slow_forward decodes with its cache: in_proj
// to x and the gate z; the causal depthwise conv of x over the last
// ssmConv inputs with its bias and SiLU; x_proj to dt (low rank), B and
// C (Falcon-Mamba: each RMS-normalised without a weight); dt =
// softplus(dt_proj(dt)); per channel the state h ← h·exp(dt·A) +
// dt·x·B (A = −exp(A_log) [channels, state]); y = h·C + D·x, ·silu(z),
// then out_proj.
func (g *builder) mambaMixer(i int, h *ir.Value) *ir.Value {
	s := g.s
	m := &s.stateSpace
	e, d, ns, r := s.hidden, m.ssmInner, m.ssmState, m.ssmDTRank
	proj := g.linear(h, g.n.of(i, roleSSMIn), 2*d, e)
	if m.ssmProjBias {
		proj = g.biased(proj, i, roleSSMInBias, biasRequired, 2*d)
	}
	x, z := g.slice(proj, 1, 0, d), g.slice(proj, 1, d, d)

	x = g.causalConv(i, x, g.n.of(i, roleConv), d, m.ssmConv)
	if m.ssmConvBias {
		x = g.add(x, g.reshape(g.weight(g.n.of(i, roleConvBias), d), 1, d))
	}
	x = g.silu(x)

	dbc := g.linear(x, g.n.of(i, roleSSMX), r+2*ns, d)
	dt, b, c := g.slice(dbc, 1, 0, r), g.slice(dbc, 1, r, ns), g.slice(dbc, 1, r+ns, ns)
	if m.ssmBCNorm {
		norm := func(v *ir.Value, role string) *ir.Value {
			n := shapeInts(v)[1]
			gamma := g.broadcast(g.scalar(1), n)
			if m.ssmBCW {
				gamma = g.weight(g.n.of(i, role), n)
			}
			return g.rmsNormEps(v, gamma, m.ssmBCEps)
		}
		dt, b, c = norm(dt, roleSSMDTNorm), norm(b, roleSSMBNorm), norm(c, roleSSMCNorm)
	}
	dt = g.add(g.linear(dt, g.n.of(i, roleSSMDT), d, r), g.reshape(g.weight(g.n.of(i, roleDT), d), 1, d))
	dt = g.reshape(g.unary(graph.SoftplusName, dt), d, 1)
	a := g.aDecay(i, !m.ssmANeg, d, ns)
	xs := g.reshape(x, d, 1)
	p := fmt.Sprintf("l%d.", i)
	prev := g.reshape(g.input(p+"ssm_state", []int64{1, int64(d), int64(ns)}, g.f32), d, ns)
	next := g.add(g.mul(prev, g.unary(graph.ExpName, g.mul(a, dt))), g.mul(g.mul(dt, b), xs))
	g.output(p+"ssm_state", g.reshape(next, 1, d, ns))
	y := g.sum(g.mul(next, c), false, 1)
	y = g.add(g.reshape(y, 1, d), g.mul(x, g.reshape(g.weight(g.n.of(i, roleD), d), 1, d)))
	out := g.linear(g.mul(y, g.silu(z)), g.n.of(i, roleOut), e, d)
	if m.ssmProjBias {
		out = g.biased(out, i, roleSSMOutBias, biasRequired, e)
	}
	return out
}

// readBamba reads BambaForCausalLM (IBM's Bamba): Llama's attention
// (rope on half of each head, as BambaConfig fixes it) and MLP in the
// layers attn_layer_indices lists, Mamba-2 mixers (mamba_* fields, the
// gated norm over the whole width with rms_norm_eps) in the others.
func (s *spec) readBamba(c *config) {
	s.readCommon(c, 0.5)
	c.reject("attention_bias", "false")
	c.reject("mlp_bias", "false")
	for _, f := range []string{"mamba_chunk_size", "time_step_min", "time_step_max", "z_loss_coefficient", "num_logits_to_keep"} {
		c.used[f] = true // the prefill's chunks, training set-up
	}
	if c.err != nil {
		return
	}
	attends, given := c.layerSet("attn_layer_indices", s.layers)
	if given && attends == nil {
		return
	}
	s.layerTypes = make([]string, s.layers)
	for i := range s.layerTypes {
		s.layerTypes[i] = mambaLayer
		if attends != nil && attends[i] {
			s.layerTypes[i] = fullAttention
		}
	}
	s.readMamba2Mixer(c, hybridKeys, s.eps)
	s.readTimeStepLimit(c)
}

// readGraniteHybrid reads llama.cpp's granitehybrid, which
// convert_hf_to_gguf writes of Granite 4.0 H and of Bamba alike:
// granite's scales and, where the file has experts, granitemoe's
// (readGranite); the layers whose attention.head_count_kv is 0 are
// Mamba-2 mixers of ssm.inner_size channels in ssm.time_step_rank
// heads, ssm.group_count groups of ssm.state_size, a window of
// ssm.conv_kernel, with llama.cpp's gated norm over each group and the
// decay stored as −exp(A_log) (ssm_a); the others attend, rotating q
// and k only where rope.scaling.finetuned is true (the converter's
// mark: Bamba's layers rotate, Granite 4.0 H's do not). Without
// experts, the MLP is ffn_gate, ffn_up and ffn_down, as wide as
// ffn_gate is (Granite's shared MLP, Bamba's MLP).
func (m *ggufMeta) readGraniteHybrid(s *spec) {
	m.readGranite(s)
	if m.uint("expert_count", 0, false) > 0 {
		m.readMoE(s, m.has("expert_shared_feed_forward_length"), true)
		s.sharedUngated = true
	}
	kv := m.eachLayer("attention.head_count_kv", s.layers, "kv heads", "for a Mamba-2 layer")
	if m.err != nil {
		return
	}
	first := -1
	for i, n := range kv {
		if n == 0 {
			s.layerTypes[i] = mambaLayer
			if first < 0 {
				first = i
			}
		}
	}
	if first >= 0 {
		m.readMamba2Sizes(s, first)
	}
	if v, _ := m.f.Get(m.key("rope.scaling.finetuned")); v != true {
		s.noRope = slices.Repeat([]bool{true}, s.layers)
	} else if s.rotaryDim != s.headDim {
		// The converter permutes q's and k's rows over the whole head
		// for llama.cpp's adjacent pairs, which rotate only the first
		// rope.dimension_count dims: what that computes is not
		// transformers' rope on part of the head (Bamba's), and rlx
		// does not guess it.
		m.fail("%s = %d of %d: rlx reads granitehybrid's rope over whole heads only (the converter's permutation of q and k is over the whole head)",
			m.key("rope.dimension_count"), s.rotaryDim, s.headDim)
	}
	if gate, ok := m.src.Info(m.names.of(0, roleGate)); ok && s.experts == 0 && len(gate.Shape) == 2 {
		s.ffn = gate.Shape[0]
	}
}

// readMamba2Sizes reads a Mamba-2 mixer's ssm.* keys (time_step_rank the
// heads), as llama.cpp computes it: the gated norm over each group, the
// decay stored as −exp(A_log), no clamp of dt; the biases where layer
// first (a Mamba-2 layer) has them.
func (m *ggufMeta) readMamba2Sizes(s *spec, first int) {
	mm := &s.stateSpace
	mm.ssmConv = m.uint("ssm.conv_kernel", 0, true)
	mm.ssmState = m.uint("ssm.state_size", 0, true)
	mm.ssmGroups = m.uint("ssm.group_count", 0, true)
	mm.ssmHeads = m.uint("ssm.time_step_rank", 0, true)
	inner := m.uint("ssm.inner_size", 0, true)
	if m.err != nil {
		return
	}
	if mm.ssmConv < 2 || mm.ssmState == 0 || mm.ssmGroups == 0 || mm.ssmHeads == 0 || mm.ssmHeads%mm.ssmGroups != 0 || inner%mm.ssmHeads != 0 {
		m.fail("ssm sizes conv_kernel %d, state_size %d, group_count %d, time_step_rank %d, inner_size %d do not describe a Mamba-2 mixer rlx can build",
			mm.ssmConv, mm.ssmState, mm.ssmGroups, mm.ssmHeads, inner)
		return
	}
	mm.ssmHeadDim = inner / mm.ssmHeads
	mm.ssmEps, mm.ssmANeg, mm.ssmGroupNorm = s.eps, true, true
	mm.ssmDTMin, mm.ssmDTMax = 0, math.Inf(1)
	_, mm.ssmConvBias = m.src.Info(m.names.of(first, roleConvBias))
	_, mm.ssmProjBias = m.src.Info(m.names.of(first, roleSSMInBias))
}

// readMamba2 reads llama.cpp's mamba2 (Codestral Mamba): every layer
// attn_norm and a Mamba-2 mixer (readMamba2Sizes), no MLP.
func (m *ggufMeta) readMamba2(s *spec) {
	s.layerTypes = slices.Repeat([]string{mambaLayer}, s.layers)
	s.mixerOnly = true
	m.readMamba2Sizes(s, 0)
}

// readMamba reads llama.cpp's mamba (Mamba, Falcon-Mamba): every layer
// attn_norm and a Mamba mixer of ssm.inner_size channels with a state of
// ssm.state_size each, a window of ssm.conv_kernel, dt of
// ssm.time_step_rank rows; under ssm.dt_b_c_rms (Falcon-Mamba) dt, B and
// C RMS-normalised with the layers' epsilon, as llama.cpp does (transformers
// takes mixer_rms_eps).
func (m *ggufMeta) readMamba(s *spec) {
	mm := &s.stateSpace
	mm.ssmV1, s.mixerOnly = true, true
	s.layerTypes = slices.Repeat([]string{mambaLayer}, s.layers)
	if v, ok := m.f.Get(m.key("ssm.dt_b_c_rms")); ok {
		mm.ssmBCNorm, mm.ssmBCEps = v == true, s.eps
	}
	if !m.readMambaSizes(s) {
		return
	}
	_, mm.ssmConvBias = m.src.Info(m.names.of(0, roleConvBias))
	_, mm.ssmProjBias = m.src.Info(m.names.of(0, roleSSMInBias))
}

// nemotronHKinds maps Nemotron-H's layer kinds to rlx's: as published
// (hybrid_override_pattern's M, * and -) and as transformers 5 names
// them (layer_types).
var nemotronHKinds = map[string]string{
	"M": mambaLayer, "mamba": mambaLayer, "linear_attention": mambaLayer,
	"*": fullAttention, "attention": fullAttention, "full_attention": fullAttention,
	"-": mlpLayer, "mlp": mlpLayer,
	"E": mlpLayer, "moe": mlpLayer, // routed experts: moeLayer
}

// readNemotronH reads NemotronHForCausalLM (Nemotron-H, Nemotron Nano 2):
// every layer an RMSNorm (layer_norm_epsilon) and one block by its kind —
// a Mamba-2 mixer (mamba_num_heads heads of mamba_head_dim, n_groups
// groups of ssm_state_size, its gated norm over each group), attention
// without rope, or a relu² MLP (up_proj, down_proj) — as the published
// configs (hybrid_override_pattern, mamba_-prefixed names) and
// transformers 5's (layer_types) give them — or routed experts ("E",
// "moe"; Nemotron 3): DeepSeek-V3's routing (readNemotronHMoE) over
// relu² experts without a gate, run in a latent of moe_latent_size
// where the config gives one, with a relu² shared expert.
func (s *spec) readNemotronH(c *config) {
	for new, old := range map[string]string{"n_groups": "mamba_n_groups", "conv_kernel": "mamba_d_conv", "expand": "mamba_expand",
		"time_step_limit": "mamba_dt_limit", "use_conv_bias": "mamba_conv_bias", "head_dim": "attention_head_dim"} {
		if v, ok := c.raw[old]; ok {
			c.setDefault(new, string(v))
			c.used[old] = true
		}
	}
	var kinds []string
	if v, ok := c.get("hybrid_override_pattern"); ok {
		var pattern string
		if err := json.Unmarshal(v, &pattern); err != nil {
			c.fail("field \"hybrid_override_pattern\" = %s is not a string", v)
			return
		}
		kinds = strings.Split(pattern, "")
	} else {
		for _, key := range []string{"layers_block_type", "layer_types"} { // transformers 5's, and its attribute's name
			if v, ok := c.get(key); ok {
				if err := json.Unmarshal(v, &kinds); err != nil {
					c.fail("field %q = %s is not a list of strings", key, v)
					return
				}
				break
			}
		}
	}
	c.setDefault("num_hidden_layers", fmt.Sprint(len(kinds)))
	c.setDefault("rms_norm_eps", string(orDefault(c.raw["layer_norm_epsilon"], "1e-5")))
	c.used["layer_norm_epsilon"] = true
	if _, ok := c.raw["norm_eps"]; ok && c.float("norm_eps", 0) != c.float("rms_norm_eps", 1e-5) {
		// Nemotron 3's configs repeat the epsilon as norm_eps.
		c.fail("field \"norm_eps\" = %s differs from layer_norm_epsilon = %s: rlx does not know which the norms take", c.raw["norm_eps"], c.raw["rms_norm_eps"])
	}
	s.reluSquared = true
	if v, ok := c.raw["mlp_hidden_act"]; ok {
		c.setDefault("hidden_act", string(v))
		c.used["mlp_hidden_act"] = true
	}
	s.readCommon(c, 1.0)
	s.readAttentionBias(c)
	c.reject("mlp_bias", "false")
	c.reject("mamba_hidden_act", `"silu"`)
	for _, f := range []string{"residual_in_fp32", "rescale_prenorm_residual", "hidden_dropout", "num_logits_to_keep", "use_mamba_kernels",
		"chunk_size", "mamba_chunk_size", "time_step_min", "time_step_max", "time_step_floor", "mamba_dt_min", "mamba_dt_max",
		"mamba_dt_init_floor", "mtp_layers_block_type", "num_nextn_predict_layers", "mamba_ssm_cache_dtype",
		"moe_shared_expert_overlap", "n_shared_experts"} {
		c.used[f] = true // the residual and SSM state in f32 (rlx's always are), training set-up, the prefill's chunks, MTP heads not run, a training overlap, the shared expert's count (its width is the field's)
	}
	if v, ok := c.raw["mamba_proj_bias"]; ok {
		c.setDefault("use_bias", string(v)) // transformers 5's name of the mixer's projection biases
		c.used["mamba_proj_bias"] = true
	}
	c.reject("sliding_window", "null")
	if c.err != nil {
		return
	}
	if len(kinds) != s.layers {
		c.fail("the layer kinds (hybrid_override_pattern or layer_types) list %d layers, but num_hidden_layers = %d", len(kinds), s.layers)
		return
	}
	s.layerTypes = make([]string, s.layers)
	routed := make([]bool, s.layers)
	for i, k := range kinds {
		kind, ok := nemotronHKinds[k]
		if !ok {
			c.fail("layer %d is of kind %q, which is not supported for %s (rlx implements Mamba-2 \"M\", attention \"*\", MLP \"-\" and experts \"E\" layers)", i, k, s.arch)
			return
		}
		s.layerTypes[i] = kind
		routed[i] = k == "E" || k == "moe"
	}
	s.readNemotronHMoE(c, routed)
	if c.err != nil {
		return
	}
	s.mixerOnly = true
	s.noRope = slices.Repeat([]bool{true}, s.layers)
	c.used["expand"] = true // the heads give the inner width
	s.readMamba2Mixer(c, ssmKeys{"mamba_num_heads", "mamba_head_dim", "n_groups", "ssm_state_size", "conv_kernel", "", "use_conv_bias", "use_bias", ""}, s.eps)
	s.ssmGroupNorm = true
	s.readTimeStepLimit(c)
}

// readNemotronHMoE reads Nemotron-H's routed experts, in the layers
// routed marks (none: the fields are not read): n_routed_experts relu²
// experts of moe_intermediate_size rows (up and down, no gate),
// num_experts_per_tok chosen by DeepSeek-V3's routing (sigmoid scores,
// the choice by score + e_score_correction_bias, group-limited by n_group
// and topk_group, renormalised under norm_topk_prob, ×
// routed_scaling_factor), in a latent of moe_latent_size where given
// (fc1_latent_proj before the experts, fc2_latent_proj after their sum),
// and a relu² shared expert of moe_shared_expert_intermediate_size rows
// added to their sum.
func (s *spec) readNemotronHMoE(c *config, routed []bool) {
	if !slices.Contains(routed, true) {
		for _, f := range []string{"moe_intermediate_size", "moe_latent_size", "moe_shared_expert_intermediate_size",
			"n_group", "n_routed_experts", "norm_topk_prob", "num_experts_per_tok", "routed_scaling_factor", "topk_group"} {
			c.used[f] = true // the config class's defaults, which no layer reads
		}
		return
	}
	s.experts, s.topK = c.int("n_routed_experts", 0, true), c.int("num_experts_per_tok", 0, true)
	s.moeFFN, s.sharedFFN = c.int("moe_intermediate_size", 0, true), c.int("moe_shared_expert_intermediate_size", 0, true)
	s.moeLatent = c.int("moe_latent_size", 0, false)
	s.normTopK, s.routedScale = c.bool("norm_topk_prob", true), c.float("routed_scaling_factor", 1)
	s.sigmoidRouter, s.sharedUngated, s.moeLayer = true, true, routed
	groups, open := c.int("n_group", 1, false), c.int("topk_group", 1, false)
	switch {
	case c.err != nil:
	case s.topK < 1 || s.topK > s.experts || s.moeFFN < 1 || s.sharedFFN < 1:
		c.fail("num_experts_per_tok = %d must be in [1, n_routed_experts = %d], and moe_intermediate_size = %d and moe_shared_expert_intermediate_size = %d positive",
			s.topK, s.experts, s.moeFFN, s.sharedFFN)
	case !(s.routedScale > 0) || math.IsInf(s.routedScale, 0):
		c.fail("routed_scaling_factor = %g must be positive and finite", s.routedScale)
	default:
		if bad := s.setGroups("n_group", "topk_group", groups, open, false); bad != "" {
			c.fail("%s", bad)
		}
	}
}

// readNemotronHGGUF reads llama.cpp's nemotron_h (Nemotron-H, Nemotron
// Nano 2) and nemotron_h_moe (Nemotron 3), as convert_hf_to_gguf writes
// them: a layer attends where its attention.head_count_kv is positive,
// is a relu² MLP (ffn_up, ffn_down) or, where it has a router
// (ffn_gate_inp, as llama.cpp's builder tells them), routed experts
// (readNemotronHMoEGGUF) where its feed_forward_length is, and is a
// Mamba-2 mixer otherwise (readMamba2Sizes); no layer rotates (the
// converter marks no rope, rope.scaling.finetuned false).
func (m *ggufMeta) readNemotronHGGUF(s *spec) {
	m.readGranite(s) // llama's layout, any scales the file has
	kv := m.eachLayer("attention.head_count_kv", s.layers, "kv heads", "where it does not attend")
	ff := m.eachLayer("feed_forward_length", s.layers, "MLP widths", "where it has no MLP")
	if m.err != nil {
		return
	}
	first := -1
	routed := make([]bool, s.layers)
	for i := range s.layerTypes {
		switch {
		case kv[i] > 0:
			s.layerTypes[i] = fullAttention
		case ff[i] > 0:
			s.layerTypes[i] = mlpLayer
			_, routed[i] = m.src.Info(m.names.of(i, roleRouter))
		default:
			s.layerTypes[i] = mambaLayer
			if first < 0 {
				first = i
			}
		}
	}
	if v, _ := m.f.Get(m.key("rope.scaling.finetuned")); v == true {
		m.fail("%s is true: rlx reads nemotron_h without rope, as the converter writes it", m.key("rope.scaling.finetuned"))
		return
	}
	s.noRope = slices.Repeat([]bool{true}, s.layers)
	s.reluSquared, s.mixerOnly = true, true
	if first >= 0 {
		m.readMamba2Sizes(s, first)
	}
	if slices.Contains(routed, true) {
		m.readNemotronHMoEGGUF(s, routed)
	}
}

// readNemotronHMoEGGUF reads nemotron_h_moe's routed experts, in the
// layers routed marks: expert_count relu² experts of
// expert_feed_forward_length rows (ffn_up_exps, ffn_down_exps),
// expert_used_count chosen by sigmoid scores (llama.cpp's builder fixes
// the gating; an expert_gating_func other than 2 is refused) plus the
// selection bias (exp_probs_b), group-limited where expert_group_count >
// 1 (readDeepseekMoE's rule), renormalised under expert_weights_norm
// (false when absent, as llama.cpp), × expert_weights_scale (where
// neither 0 nor absent); in a latent of moe_latent_size where the file
// gives one (ffn_latent_down before the experts, ffn_latent_up after);
// and a relu² shared expert of expert_shared_feed_forward_length rows
// (ffn_up_shexp, ffn_down_shexp; expert_shared_count is not read, as
// llama.cpp's builder runs that one).
func (m *ggufMeta) readNemotronHMoEGGUF(s *spec, routed []bool) {
	m.readExpertSizes(s)
	s.sharedFFN = m.uint("expert_shared_feed_forward_length", 0, true)
	s.moeLatent = m.uint("moe_latent_size", 0, false)
	if v, ok := m.f.Get(m.key("expert_weights_norm")); ok {
		s.normTopK = v == true
	}
	if s.routedScale = m.float("expert_weights_scale", 1); s.routedScale == 0 {
		s.routedScale = 1 // llama.cpp scales only by a factor other than 0 and 1
	}
	m.sigmoidGating(false)
	s.sigmoidRouter, s.sharedUngated, s.moeLayer = true, true, routed
	switch {
	case m.err != nil:
	case s.sharedFFN == 0:
		m.fail("%s must be positive", m.key("expert_shared_feed_forward_length"))
	case !(s.routedScale > 0) || math.IsInf(s.routedScale, 0):
		m.fail("%s = %g must be positive and finite", m.key("expert_weights_scale"), s.routedScale)
	default:
		groups, open := m.uint("expert_group_count", 0, false), m.uint("expert_group_used_count", 0, false)
		if groups > 1 {
			if bad := s.setGroups(m.key("expert_group_count"), m.key("expert_group_used_count"), groups, open, false); bad != "" {
				m.fail("%s", bad)
			}
		}
	}
}

// readJamba reads JambaForCausalLM (AI21's Jamba): attention without
// rope in the layers i with i mod attn_layer_period =
// attn_layer_offset, Mamba mixers (mamba_* fields; dt, B and C through
// RMSNorms with weights, rms_norm_eps) in the others, each followed by
// a SwiGLU MLP (feed_forward) or, in the layers i mod
// expert_layer_period = expert_layer_offset, num_experts experts of
// intermediate_size rows (a softmax over all, the top
// num_experts_per_tok, not renormalised); pre_ff_layernorm before
// either, final_layernorm at the end.
func (s *spec) readJamba(c *config) {
	if v, ok := c.raw["intermediate_size"]; ok {
		c.setDefault("moe_intermediate_size", string(v))
	}
	s.readCommon(c, 1.0)
	c.reject("use_mamba_kernels", "false", "true")    // which kernels transformers runs
	c.reject("use_associative_scan", "false", "true") // how transformers 5 scans a prefill; one step is the same
	c.reject("use_mambapy", "false", "true")          // the same, its pure-PyTorch scan
	for _, f := range []string{"num_logits_to_keep", "router_aux_loss_coef", "output_router_logits", "sliding_window", "layers_block_type",
		"layers_num_experts"} {
		c.used[f] = true // training set-up; the layer kinds, derived from the periods below
	}
	s.readMoE(c, false, false)
	attnPeriod, attnOffset := c.int("attn_layer_period", 8, false), c.int("attn_layer_offset", 4, false)
	expertPeriod, expertOffset := c.int("expert_layer_period", 2, false), c.int("expert_layer_offset", 1, false)
	m := &s.stateSpace
	m.ssmV1, m.ssmBCNorm, m.ssmBCW, m.ssmBCEps = true, true, true, s.eps
	m.ssmState = c.int("mamba_d_state", 16, false)
	m.ssmConv = c.int("mamba_d_conv", 4, false)
	m.ssmConvBias = c.bool("mamba_conv_bias", true)
	m.ssmProjBias = c.bool("mamba_proj_bias", false)
	m.ssmInner = c.int("mamba_expand", 2, false) * s.hidden
	if v, ok := c.get("mamba_dt_rank"); ok && string(v) != `"auto"` {
		m.ssmDTRank = c.int("mamba_dt_rank", 0, true)
	} else {
		m.ssmDTRank = (s.hidden + 15) / 16
	}
	if c.err != nil {
		return
	}
	switch {
	case attnPeriod == 0 || expertPeriod == 0:
		c.fail("fields \"attn_layer_period\" and \"expert_layer_period\" must be positive")
		return
	case m.ssmState == 0 || m.ssmDTRank == 0 || m.ssmConv < 2:
		c.fail("mamba_d_state, mamba_dt_rank must be positive and mamba_d_conv at least 2")
		return
	}
	s.layerTypes = make([]string, s.layers)
	s.noRope = slices.Repeat([]bool{true}, s.layers)
	for i := range s.layers {
		s.layerTypes[i] = mambaLayer
		if i%attnPeriod == attnOffset {
			s.layerTypes[i] = fullAttention
		}
		s.moeLayer[i] = s.experts > 1 && i%expertPeriod == expertOffset
	}
}

// readJambaGGUF reads llama.cpp's jamba, as convert_hf_to_gguf writes it:
// a layer attends (without rope) where its attention.head_count_kv is
// positive and is a Mamba mixer otherwise (ssm.inner_size channels with
// a state of ssm.state_size, a window of ssm.conv_kernel, dt of
// ssm.time_step_rank rows normalised by ssm_dt_norm, B and C by ssm_b_norm
// and ssm_c_norm, with the layers' epsilon), and routes over its experts
// (softmax, not renormalised) where the file has its router
// (ffn_gate_inp: the converter writes no period).
func (m *ggufMeta) readJambaGGUF(s *spec) {
	kv := m.eachLayer("attention.head_count_kv", s.layers, "kv heads", "for a Mamba layer")
	mm := &s.stateSpace
	m.readMoE(s, false, false)
	if !m.readMambaSizes(s) {
		return
	}
	mm.ssmV1, mm.ssmBCNorm, mm.ssmBCW, mm.ssmBCEps = true, true, true, s.eps
	s.layerTypes = make([]string, s.layers)
	s.noRope = slices.Repeat([]bool{true}, s.layers)
	first := -1
	for i, n := range kv {
		s.layerTypes[i] = fullAttention
		if n == 0 {
			s.layerTypes[i] = mambaLayer
			if first < 0 {
				first = i
			}
		}
		_, routed := m.src.Info(m.names.of(i, roleRouter))
		s.moeLayer[i] = s.experts > 0 && routed
	}
	if first >= 0 {
		_, mm.ssmConvBias = m.src.Info(m.names.of(first, roleConvBias))
		_, mm.ssmProjBias = m.src.Info(m.names.of(first, roleSSMInBias))
	}
}

// readMambaSizes reads a Mamba mixer's ssm.* keys (time_step_rank the dt
// rank), its decay stored as −exp(A_log); false (the error recorded)
// where they do not describe one.
func (m *ggufMeta) readMambaSizes(s *spec) bool {
	mm := &s.stateSpace
	mm.ssmConv = m.uint("ssm.conv_kernel", 0, true)
	mm.ssmState = m.uint("ssm.state_size", 0, true)
	mm.ssmInner = m.uint("ssm.inner_size", 0, true)
	mm.ssmDTRank = m.uint("ssm.time_step_rank", 0, true)
	if m.err != nil {
		return false
	}
	if mm.ssmConv < 2 || mm.ssmState == 0 || mm.ssmInner == 0 || mm.ssmDTRank == 0 {
		m.fail("ssm sizes conv_kernel %d, state_size %d, inner_size %d, time_step_rank %d do not describe a Mamba mixer rlx can build",
			mm.ssmConv, mm.ssmState, mm.ssmInner, mm.ssmDTRank)
		return false
	}
	mm.ssmANeg = true
	return true
}
