package models

import (
	"fmt"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// Qwen35Config sizes the Qwen3.5-like hybrid decoder: gated-delta-net
// (linear attention) layers, and every FullAttentionEvery-th layer full
// attention.
type Qwen35Config struct {
	Common
	// RotaryDim is the rotated part of each attention head (partial RoPE,
	// even, ≤ HeadDim); derived: HeadDim/4, Qwen3.5's factor 0.25.
	RotaryDim int
	// GDNHeads and GDNKeyHeads are the value heads H_v and the q/k heads
	// H_k of the gated delta net (H_k divides H_v); derived: Heads and
	// KVHeads.
	GDNHeads, GDNKeyHeads int
	// GDNHeadDim is the delta net's head size N (its state is N×N);
	// derived: HeadDim.
	GDNHeadDim int
	// ConvKernel is the causal conv's kernel size (≥ 2).
	ConvKernel int
	// FullAttentionEvery makes layer i full attention iff
	// (i+1) % FullAttentionEvery == 0.
	FullAttentionEvery int
}

// DefaultQwen35 returns the toy configuration: 4 layers (the third is full
// attention), hidden 64, 4 heads of 16 with 2 KV heads, q8_0 projections.
func DefaultQwen35() Qwen35Config {
	return Qwen35Config{
		Common:     Common{Layers: 4, Hidden: 64, Heads: 4, KVHeads: 2, Past: 7, Vocab: 256, Quant: graph.Q8_0},
		ConvKernel: 4, FullAttentionEvery: 3,
	}
}

// Resolved returns the configuration with every derived size filled in, or
// an error listing every bad size.
func (c Qwen35Config) Resolved() (Qwen35Config, error) {
	e := &sizeError{model: "qwen35"}
	if !c.Common.resolve(e) {
		return c, e.err()
	}
	if c.RotaryDim == 0 {
		c.RotaryDim = c.HeadDim / 4
	}
	if c.GDNHeads == 0 {
		c.GDNHeads = c.Heads
	}
	if c.GDNKeyHeads == 0 {
		c.GDNKeyHeads = c.KVHeads
	}
	if c.GDNHeadDim == 0 {
		c.GDNHeadDim = c.HeadDim
	}
	if !e.positive([]string{"gdn-heads", "gdn-key-heads", "gdn-head-dim", "full-attn-every"},
		c.GDNHeads, c.GDNKeyHeads, c.GDNHeadDim, c.FullAttentionEvery) {
		return c, e.err()
	}
	if c.RotaryDim < 2 || c.RotaryDim%2 != 0 || c.RotaryDim > c.HeadDim {
		e.add("rotary-dim = %d must be even and in [2, head-dim = %d]", c.RotaryDim, c.HeadDim)
	}
	if c.GDNHeads%c.GDNKeyHeads != 0 {
		e.add("gdn-key-heads = %d does not divide gdn-heads = %d", c.GDNKeyHeads, c.GDNHeads)
	}
	if c.ConvKernel < 2 {
		e.add("conv-kernel = %d must be at least 2", c.ConvKernel)
	}
	c.checkQuant(e, []projIn{{"hidden", c.Hidden}, {"ffn", c.FFN}, {"heads·head-dim", c.Heads * c.HeadDim}, {"gdn-heads·gdn-head-dim", c.GDNHeads * c.GDNHeadDim}})
	return c, e.err()
}

func (c Qwen35Config) fullAttention(layer int) bool { return (layer+1)%c.FullAttentionEvery == 0 }

// Qwen35 builds the decode step of a Qwen3.5-like model (rlx.md §5; the
// structure is drawn in docs/models.md).
//
// Inputs: token [1,1] i32; then, when some layer is full attention, pos
// [1] i32 (the number of valid cache rows), cos and sin [1, RotaryDim/2];
// then per layer in order: GDN layers l{i}.conv_state [1, K−1, C] and
// l{i}.ssm_state [1, H_v, N, N]; attention layers l{i}.k_cache and
// l{i}.v_cache [1, Past, KVHeads, HeadDim]. Outputs: logits [1, Vocab]
// (tied embedding), then each layer's new states in the same order (the
// caches grow by one row).
func Qwen35(ctx *ir.Context, cfg Qwen35Config) (*Model, error) {
	c, err := cfg.Resolved()
	if err != nil {
		return nil, err
	}
	return build(ctx, "qwen35", c.projection(), func(g *builder) { qwen35Body(g, c) })
}

const qwenEps = 1e-6

func qwen35Body(g *builder, c Qwen35Config) {
	e, past := int64(c.Hidden), int64(c.Past)
	hasAttn := c.Layers >= c.FullAttentionEvery
	token := g.input("token", []int64{1, 1}, g.i32, intInput(0, int64(c.Vocab)))
	var cos, sin, mask *ir.Value
	if hasAttn {
		pos := g.input("pos", []int64{1}, g.i32, intInput(0, past+1))
		half := int64(c.RotaryDim / 2)
		cos = g.input("cos", []int64{1, half}, g.f32, uniformInput(-1, 1))
		sin = g.input("sin", []int64{1, half}, g.f32, uniformInput(-1, 1))
		g.at("mask")
		mask = cacheMask(g, pos, past)
	}
	g.at("embed")
	embed := g.param("embed", []int64{int64(c.Vocab), e}, g.f32, Init{Lo: -0.5, Hi: 0.5})
	x := g.reshape(g.gather(embed, token, 0), 1, e)
	for i := range c.Layers {
		p := fmt.Sprintf("l%d.", i)
		if c.fullAttention(i) {
			g.at(p + "attn")
			x = qwenAttention(g, c, x, p, cos, sin, mask)
		} else {
			g.at(p + "gdn")
			x = qwenGDN(g, c, x, p)
		}
		g.at(p + "ffn")
		x = g.swiglu(x, p, int64(c.FFN), qwenEps)
	}
	g.at("head")
	h := g.rmsNorm(x, g.norm("final_norm", e), qwenEps)
	logits := g.matmul(h, g.transpose(embed, 1, 0))
	g.outputFirst("logits", logits)
}

// cacheMask builds the [1, past+1] keep-mask of a padded KV cache: cache
// row j is valid iff j < pos, and the new token (row past) always is.
func cacheMask(g *builder, pos *ir.Value, past int64) *ir.Value {
	iota := make([]int64, past+1)
	last := make([]float64, past+1)
	for j := range iota {
		iota[j] = int64(j)
	}
	last[past] = 1
	valid := g.cmp(graph.CmpLT, g.constI32([]int64{1, past + 1}, iota...), g.reshape(pos, 1, 1))
	return g.sel(valid, g.scalar(1), g.constF32([]int64{1, past + 1}, last...))
}

func qwenGDN(g *builder, c Qwen35Config, x *ir.Value, p string) *ir.Value {
	e, n := int64(c.Hidden), int64(c.GDNHeadDim)
	hv, hk := int64(c.GDNHeads), int64(c.GDNKeyHeads)
	kd, vd := hk*n, hv*n
	h := g.rmsNorm(x, g.norm(p+"attn_norm", e), qwenEps)
	qkv := g.linear(h, p+"w_qkv", 2*kd+vd)
	z := g.linear(h, p+"w_z", vd)
	beta := g.reshape(g.sigmoid(g.dense(h, p+"w_beta", hv)), 1, 1, hv)
	// g = −exp(A_log)·softplus(α + dt_bias): a per-head decay in (−∞, 0).
	aLog := g.param(p+"A_log", []int64{hv}, g.f32, Init{Lo: -1, Hi: 0.5})
	dtBias := g.param(p+"dt_bias", []int64{hv}, g.f32, Init{Lo: -1, Hi: 1})
	alpha := g.add(g.dense(h, p+"w_alpha", hv), dtBias)
	gate := g.mul(g.unary(graph.NegName, g.unary(graph.ExpName, aLog)), g.unary(graph.SoftplusName, alpha))
	gate = g.reshape(gate, 1, 1, hv)

	conv := g.causalConv(qkv, p, int64(c.ConvKernel))
	q := g.l2normRsqrt(g.reshape(g.slice(conv, 1, 0, kd), 1, 1, hk, n), qwenEps)
	k := g.l2normRsqrt(g.reshape(g.slice(conv, 1, kd, kd), 1, 1, hk, n), qwenEps)
	v := g.reshape(g.slice(conv, 1, 2*kd, vd), 1, 1, hv, n)
	if hv != hk {
		// repeat_interleave of the q/k heads up to H_v.
		r := hv / hk
		q = g.reshape(g.broadcast(g.reshape(q, 1, 1, hk, 1, n), 1, 1, hk, r, n), 1, 1, hv, n)
		k = g.reshape(g.broadcast(g.reshape(k, 1, 1, hk, 1, n), 1, 1, hk, r, n), 1, 1, hv, n)
	}
	state := g.input(p+"ssm_state", []int64{1, hv, n, n}, g.f32, uniformInput(-1, 1))
	o, newState := g.gdn(q, k, v, gate, beta, state, false)
	g.output(p+"ssm_state", newState)
	// Gated output norm: rms_norm(o)·silu(z), per head.
	o = g.mul(g.rmsNorm(o, g.norm(p+"ssm_norm", n), qwenEps), g.silu(g.reshape(z, 1, 1, hv, n)))
	return g.add(x, g.linear(g.reshape(o, 1, vd), p+"w_o", e))
}

func qwenAttention(g *builder, c Qwen35Config, x *ir.Value, p string, cos, sin, mask *ir.Value) *ir.Value {
	e, hd, heads, kvh, past := int64(c.Hidden), int64(c.HeadDim), int64(c.Heads), int64(c.KVHeads), int64(c.Past)
	h := g.rmsNorm(x, g.norm(p+"attn_norm", e), qwenEps)
	qg := g.reshape(g.linear(h, p+"w_qg", heads*2*hd), 1, 1, heads, 2*hd)
	q := g.slice(qg, -1, 0, hd)
	gate := g.slice(qg, -1, hd, hd)
	k := g.reshape(g.linear(h, p+"w_k", kvh*hd), 1, 1, kvh, hd)
	v := g.reshape(g.linear(h, p+"w_v", kvh*hd), 1, 1, kvh, hd)
	q = g.rmsNorm(q, g.norm(p+"q_norm", hd), qwenEps)
	k = g.rmsNorm(k, g.norm(p+"k_norm", hd), qwenEps)
	q = g.rope(q, cos, sin, hd, int64(c.RotaryDim), graph.RopeNeoX)
	k = g.rope(k, cos, sin, hd, int64(c.RotaryDim), graph.RopeNeoX)
	cache := []int64{1, past, kvh, hd}
	kc := g.concat(1, g.input(p+"k_cache", cache, g.f32, uniformInput(-1, 1)), k)
	vc := g.concat(1, g.input(p+"v_cache", cache, g.f32, uniformInput(-1, 1)), v)
	g.output(p+"k_cache", kc)
	g.output(p+"v_cache", vc)
	a := g.mul(g.attention(q, kc, vc, mask, graph.MaskCustom), g.sigmoid(gate))
	return g.add(x, g.linear(g.reshape(a, 1, heads*hd), p+"w_o", e))
}
