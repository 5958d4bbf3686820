package models

import (
	"fmt"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// KimiConfig sizes the Kimi-like stack: Kimi delta attention (KDA, a gated
// delta net with per-channel gates) layers, and every MLAEvery-th layer
// multi-head latent attention (MLA) whose value heads are smaller than its
// query/key heads. Heads is both the KDA and the MLA head count; KVHeads and
// Vocab are unused (MLA has one latent shared by all heads, and the stack
// has no embedding).
type KimiConfig struct {
	Common
	// KDAHeadDim is the delta net's head size N; derived: HeadDim.
	KDAHeadDim int
	// GateRank is the rank of the KDA gate's low-rank projection;
	// derived: KDAHeadDim.
	GateRank int
	// ConvKernel is the causal conv's kernel size (≥ 2).
	ConvKernel int
	// GateLowerBound is the clamp applied to the KDA gate (< 0).
	GateLowerBound float64
	// MLAEvery makes layer i MLA iff (i+1) % MLAEvery == 0.
	MLAEvery int
	// QLoRA and KVLoRA are MLA's query and key/value latent sizes;
	// derived: Hidden/2 and Hidden/4.
	QLoRA, KVLoRA int
	// NoPEDim is the per-head key part projected from the latent
	// (derived: HeadDim); RoPEDim the part shared by all heads (derived:
	// HeadDim/2; left unrotated, as Kimi-K3's NoPE MLA does); VHeadDim the
	// value head size (derived: HeadDim). The query/key head size is
	// NoPEDim + RoPEDim, which must differ from VHeadDim.
	NoPEDim, RoPEDim, VHeadDim int
}

// DefaultKimi returns the toy configuration: 4 layers (3 KDA, then MLA),
// hidden 64, 4 heads, dense f32 projections.
func DefaultKimi() KimiConfig {
	return KimiConfig{
		Common:     Common{Layers: 4, Hidden: 64, Heads: 4, Past: 7},
		ConvKernel: 4, GateLowerBound: -5, MLAEvery: 4,
	}
}

// Resolved returns the configuration with every derived size filled in, or
// an error listing every bad size.
func (c KimiConfig) Resolved() (KimiConfig, error) {
	e := &sizeError{model: "kimi"}
	// The stack has no vocabulary and MLA no KV heads.
	c.KVHeads, c.Vocab = 1, 1
	if !c.Common.resolve(e) {
		return c, e.err()
	}
	derive := func(p *int, v int) {
		if *p == 0 {
			*p = v
		}
	}
	derive(&c.KDAHeadDim, c.HeadDim)
	derive(&c.GateRank, c.KDAHeadDim)
	derive(&c.QLoRA, c.Hidden/2)
	derive(&c.KVLoRA, c.Hidden/4)
	derive(&c.NoPEDim, c.HeadDim)
	derive(&c.RoPEDim, c.HeadDim/2)
	derive(&c.VHeadDim, c.HeadDim)
	if !e.positive([]string{"kda-head-dim", "gate-rank", "mla-every", "q-lora", "kv-lora", "nope-dim", "rope-dim", "v-head-dim"},
		c.KDAHeadDim, c.GateRank, c.MLAEvery, c.QLoRA, c.KVLoRA, c.NoPEDim, c.RoPEDim, c.VHeadDim) {
		return c, e.err()
	}
	if c.ConvKernel < 2 {
		e.add("conv-kernel = %d must be at least 2", c.ConvKernel)
	}
	if !(c.GateLowerBound < 0) {
		e.add("gate-lower-bound = %g must be negative", c.GateLowerBound)
	}
	if c.NoPEDim+c.RoPEDim == c.VHeadDim {
		e.add("nope-dim + rope-dim = %d must differ from v-head-dim = %d (MLA's asymmetric heads)", c.NoPEDim+c.RoPEDim, c.VHeadDim)
	}
	c.checkQuant(e, []projIn{{"hidden", c.Hidden}, {"ffn", c.FFN}, {"heads·kda-head-dim", c.Heads * c.KDAHeadDim},
		{"q-lora", c.QLoRA}, {"kv-lora", c.KVLoRA}, {"heads·v-head-dim", c.Heads * c.VHeadDim}})
	return c, e.err()
}

func (c KimiConfig) mla(layer int) bool { return (layer+1)%c.MLAEvery == 0 }

// Kimi builds the decode step of a Kimi-like KDA + MLA stack (rlx.md §5;
// the structure is drawn in docs/models.md). It is a body without an
// embedding or head: it maps a hidden state to the next.
//
// Inputs: x [1, Hidden]; then per layer in order: KDA layers
// l{i}.conv_state [1, K−1, 3·Heads·N] and l{i}.kda_state [1, Heads, N, N];
// MLA layers l{i}.ckv_cache [1, Past, KVLoRA] and l{i}.krope_cache [1, Past,
// RoPEDim] (MLA caches the latent, not the heads). Outputs: hidden [1,
// Hidden] (after the final norm), then each layer's new states in the same
// order.
func Kimi(ctx *ir.Context, cfg KimiConfig) (*Model, error) {
	c, err := cfg.Resolved()
	if err != nil {
		return nil, err
	}
	return build(ctx, "kimi", c.projection(), func(g *builder) { kimiBody(g, c) })
}

const kimiEps = 1e-6

func kimiBody(g *builder, c KimiConfig) {
	e := int64(c.Hidden)
	x := g.input("x", []int64{1, e}, g.f32, uniformInput(-1, 1))
	for i := range c.Layers {
		p := fmt.Sprintf("l%d.", i)
		if c.mla(i) {
			g.at(p + "mla")
			x = kimiMLA(g, c, x, p)
		} else {
			g.at(p + "kda")
			x = kimiKDA(g, c, x, p)
		}
		g.at(p + "ffn")
		x = g.swiglu(x, p, int64(c.FFN), kimiEps)
	}
	g.at("head")
	g.outputFirst("hidden", g.rmsNorm(x, g.norm("final_norm", e), kimiEps))
}

func kimiKDA(g *builder, c KimiConfig, x *ir.Value, p string) *ir.Value {
	e, heads, n, r := int64(c.Hidden), int64(c.Heads), int64(c.KDAHeadDim), int64(c.GateRank)
	pd := heads * n
	h := g.rmsNorm(x, g.norm(p+"attn_norm", e), kimiEps)
	// One fused input projection, cut into q‖k‖v, the output gate, the
	// gate's low-rank factor and β.
	in := g.linear(h, p+"w_in", 4*pd+r+heads)
	qkv := g.slice(in, 1, 0, 3*pd)
	outGate := g.reshape(g.slice(in, 1, 3*pd, pd), 1, 1, heads, n)
	fa := g.slice(in, 1, 4*pd, r)
	beta := g.reshape(g.sigmoid(g.slice(in, 1, 4*pd+r, heads)), 1, 1, heads)

	conv := g.causalConv(qkv, p, int64(c.ConvKernel))
	q := g.l2normDiv(g.reshape(g.slice(conv, 1, 0, pd), 1, 1, heads, n), kimiEps)
	k := g.l2normDiv(g.reshape(g.slice(conv, 1, pd, pd), 1, 1, heads, n), kimiEps)
	v := g.reshape(g.slice(conv, 1, 2*pd, pd), 1, 1, heads, n)

	// Per-channel gate −exp(A_log)·softplus(f_b(f_a) + dt_bias), clamped
	// to [lower bound, 0].
	aLog := g.param(p+"A_log", []int64{heads, 1}, g.f32, Init{Lo: -1, Hi: 0.5})
	dtBias := g.param(p+"dt_bias", []int64{pd}, g.f32, Init{Lo: -1, Hi: 1})
	f := g.unary(graph.SoftplusName, g.add(g.dense(fa, p+"w_fb", pd), dtBias))
	gate := g.mul(g.reshape(f, 1, 1, heads, n), g.unary(graph.NegName, g.unary(graph.ExpName, aLog)))
	gate = g.max(g.min(gate, g.scalar(0)), g.scalar(c.GateLowerBound))

	state := g.input(p+"kda_state", []int64{1, heads, n, n}, g.f32, uniformInput(-1, 1))
	o, newState := g.gdn(q, k, v, gate, beta, state, true)
	g.output(p+"kda_state", newState)
	o = g.rmsNorm(g.mul(o, g.sigmoid(outGate)), g.norm(p+"o_norm", n), kimiEps)
	return g.add(x, g.linear(g.reshape(o, 1, pd), p+"w_o", e))
}

func kimiMLA(g *builder, c KimiConfig, x *ir.Value, p string) *ir.Value {
	e, heads, past := int64(c.Hidden), int64(c.Heads), int64(c.Past)
	ql, kl := int64(c.QLoRA), int64(c.KVLoRA)
	dn, dr, dv := int64(c.NoPEDim), int64(c.RoPEDim), int64(c.VHeadDim)
	h := g.rmsNorm(x, g.norm(p+"attn_norm", e), kimiEps)
	// Fused down-projection to the query latent, the key/value latent and
	// the shared key part.
	down := g.linear(h, p+"w_down", ql+kl+dr)
	qc := g.rmsNorm(g.slice(down, 1, 0, ql), g.norm(p+"q_norm", ql), kimiEps)
	q := g.reshape(g.linear(qc, p+"w_qb", heads*(dn+dr)), 1, 1, heads, dn+dr)
	ckv := g.concat(1, g.input(p+"ckv_cache", []int64{1, past, kl}, g.f32, uniformInput(-1, 1)),
		g.reshape(g.slice(down, 1, ql, kl), 1, 1, kl))
	krope := g.concat(1, g.input(p+"krope_cache", []int64{1, past, dr}, g.f32, uniformInput(-1, 1)),
		g.reshape(g.slice(down, 1, ql+kl, dr), 1, 1, dr))
	g.output(p+"ckv_cache", ckv)
	g.output(p+"krope_cache", krope)
	// Up-project every cached latent to per-head keys and values.
	kv := g.reshape(g.linear(g.rmsNorm(ckv, g.norm(p+"kv_norm", kl), kimiEps), p+"w_kvb", heads*(dn+dv)), 1, past+1, heads, dn+dv)
	kShared := g.broadcast(g.reshape(krope, 1, past+1, 1, dr), 1, past+1, heads, dr)
	k := g.concat(-1, g.slice(kv, -1, 0, dn), kShared)
	v := g.slice(kv, -1, dn, dv)
	a := g.attention(q, k, v, nil, graph.MaskCausal)
	gate := g.reshape(g.sigmoid(g.linear(h, p+"w_ogate", heads*dv)), 1, 1, heads, dv)
	return g.add(x, g.linear(g.reshape(g.mul(a, gate), 1, heads*dv), p+"w_o", e))
}
