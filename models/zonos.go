package models

import (
	"fmt"
	"math"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// ZonosConfig sizes the Zonos-like GQA decoder: a prefix conditioner, then
// layers of fused-QKV attention and a GELU-gated MLP, then per-codebook
// logits with classifier-free guidance.
type ZonosConfig struct {
	Common
	// Batch is 1, or 2 for a classifier-free-guidance pair (conditional,
	// unconditional) whose logits are mixed with CFGScale.
	Batch int
	// RotaryDim is the rotated part of each head (gptj pairs, even, ≤
	// HeadDim); derived: HeadDim.
	RotaryDim int
	// Codebooks is the number of audio codebooks: the token input holds
	// one code per codebook, their embeddings are summed, and the head
	// predicts every codebook.
	Codebooks int
	// CondLen is the length of the conditioning memory (precomputed
	// cross-attention keys and values); CondQueries is the number of
	// learned queries that attend to it.
	CondLen, CondQueries int
	// FourierDim is the size of the Fourier features of the speaking-rate
	// condition (even).
	FourierDim int
	// CFGScale is the guidance scale used when Batch is 2.
	CFGScale float64
}

// DefaultZonos returns the toy configuration: 2 layers, hidden 64, 4 heads
// of 16 with 2 KV heads, a CFG batch of 2, 9 codebooks of 64 codes, f16
// projection weights.
func DefaultZonos() ZonosConfig {
	return ZonosConfig{
		Common: Common{Layers: 2, Hidden: 64, Heads: 4, KVHeads: 2, Past: 7, Vocab: 64, DType: "f16"},
		Batch:  2, Codebooks: 9, CondLen: 8, CondQueries: 4, FourierDim: 16, CFGScale: 2,
	}
}

// Resolved returns the configuration with every derived size filled in, or
// an error listing every bad size.
func (c ZonosConfig) Resolved() (ZonosConfig, error) {
	e := &sizeError{model: "zonos"}
	if !c.Common.resolve(e) {
		return c, e.err()
	}
	if c.RotaryDim == 0 {
		c.RotaryDim = c.HeadDim
	}
	if !e.positive([]string{"codebooks", "cond-len", "cond-queries", "fourier-dim"}, c.Codebooks, c.CondLen, c.CondQueries, c.FourierDim) {
		return c, e.err()
	}
	if c.Batch != 1 && c.Batch != 2 {
		e.add("batch = %d must be 1, or 2 for classifier-free guidance", c.Batch)
	}
	if c.RotaryDim < 2 || c.RotaryDim%2 != 0 || c.RotaryDim > c.HeadDim {
		e.add("rotary-dim = %d must be even and in [2, head-dim = %d]", c.RotaryDim, c.HeadDim)
	}
	if c.FourierDim%2 != 0 {
		e.add("fourier-dim = %d must be even", c.FourierDim)
	}
	c.checkQuant(e, []projIn{{"hidden", c.Hidden}, {"ffn", c.FFN}, {"heads·head-dim", c.Heads * c.HeadDim}})
	return c, e.err()
}

// Zonos builds the decode step of a Zonos-like TTS decoder (rlx.md §5;
// the structure is drawn in docs/models.md).
//
// Inputs: codes [B, Codebooks] i32; pos [1] i32 (the decoded position, for
// the in-graph rotary tables); mask [B, Past+1] f32 (1 keeps a key); rate
// [B, 1] f32 (the speaking-rate condition); cond_k and cond_v [B, KVHeads,
// CondLen, HeadDim] (the conditioning memory, HF layout); temperature [1]
// f32; then per layer l{i}.k_cache and l{i}.v_cache [B, KVHeads, Past,
// HeadDim] (HF layout). Outputs: logprobs [1, Codebooks, Vocab] (guided when
// B = 2, else [B, …]), then each layer's new caches [B, KVHeads, Past+1,
// HeadDim].
func Zonos(ctx *ir.Context, cfg ZonosConfig) (*Model, error) {
	c, err := cfg.Resolved()
	if err != nil {
		return nil, err
	}
	return build(ctx, "zonos", c.projection(), func(g *builder) { zonosBody(g, c) })
}

const zonosEps = 1e-5

func zonosBody(g *builder, c ZonosConfig) {
	b, e, cb, v := int64(c.Batch), int64(c.Hidden), int64(c.Codebooks), int64(c.Vocab)
	hd, kvh, past := int64(c.HeadDim), int64(c.KVHeads), int64(c.Past)
	codes := g.input("codes", []int64{b, cb}, g.i32, intInput(0, v))
	pos := g.input("pos", []int64{1}, g.i32, intInput(0, past+1))
	mask := g.input("mask", []int64{b, past + 1}, g.f32, InputGen{Kind: InputMask})
	rate := g.input("rate", []int64{b, 1}, g.f32, uniformInput(0, 1))
	condK := g.input("cond_k", []int64{b, kvh, int64(c.CondLen), hd}, g.f32, uniformInput(-1, 1))
	condV := g.input("cond_v", []int64{b, kvh, int64(c.CondLen), hd}, g.f32, uniformInput(-1, 1))
	temp := g.input("temperature", []int64{1}, g.f32, uniformInput(0.5, 1.5))

	// Sum of the codebook embeddings: code j of codebook i is row i·V + j
	// of one table.
	g.at("embed")
	offsets := make([]int64, cb)
	for i := range offsets {
		offsets[i] = int64(i) * v
	}
	table := g.param("embed", []int64{cb * v, e}, g.f32, Init{Lo: -0.5, Hi: 0.5})
	idx := g.add(codes, g.constI32([]int64{cb}, offsets...))
	x := g.reduce(g.gather(table, idx, 0), graph.ReduceSum, false, 1)
	g.at("cond")
	x = g.add(x, zonosConditioning(g, c, rate, condK, condV))

	// Rotary tables for the decoded position: angle_i = pos·θ^(−2i/R).
	g.at("rope")
	half := int64(c.RotaryDim / 2)
	invFreq := make([]float64, half)
	for i := range invFreq {
		invFreq[i] = math.Pow(10000, -2*float64(i)/float64(c.RotaryDim))
	}
	angle := g.mul(g.reshape(g.cast(pos, g.f32), 1, 1), g.constF32([]int64{half}, invFreq...))
	cos, sin := g.unary(graph.CosName, angle), g.unary(graph.SinName, angle)

	for i := range c.Layers {
		p := fmt.Sprintf("l%d.", i)
		g.at(p + "attn")
		x = zonosAttention(g, c, x, p, cos, sin, mask)
		g.at(p + "mlp")
		x = zonosMLP(g, c, x, p)
	}

	g.at("head")
	h := g.layerNorm(x, g.norm("final_norm.weight", e), g.param("final_norm.bias", []int64{e}, g.f32, Init{Lo: -0.1, Hi: 0.1}), zonosEps)
	logits := g.reshape(g.linear(h, "head", cb*v), b, cb, v)
	if b == 2 {
		cond := g.slice(logits, 0, 0, 1)
		uncond := g.slice(logits, 0, 1, 1)
		logits = g.add(uncond, g.mul(g.scalar(c.CFGScale), g.sub(cond, uncond)))
	}
	logits = g.mul(logits, g.unary(graph.ReciprocalName, temp))
	g.outputFirst("logprobs", g.unary(graph.LogName, g.softmax(logits, -1)))
}

// zonosConditioning computes the prefix conditioning added to the token
// embedding: Fourier features of the speaking rate through a ReLU
// projection, plus a learned-query resampler over the conditioning memory
// (fully leaf-materialised attention: the queries are a param, the keys
// and values function arguments behind transposes) whose pooled output goes
// through a GELU(tanh) MLP and a tanh gate (Flamingo-style).
func zonosConditioning(g *builder, c ZonosConfig, rate, condK, condV *ir.Value) *ir.Value {
	b, e, heads, hd := int64(c.Batch), int64(c.Hidden), int64(c.Heads), int64(c.HeadDim)
	nq, f := int64(c.CondQueries), int64(c.FourierDim)
	fw := g.param("cond.fourier_w", []int64{f / 2}, g.f32, Init{Lo: -1, Hi: 1})
	phase := g.mul(g.mul(rate, fw), g.scalar(2*math.Pi))
	feats := g.concat(-1, g.unary(graph.CosName, phase), g.unary(graph.SinName, phase))
	rateEmb := g.unary(graph.ReluName, g.dense(feats, "cond.rate_proj", e))

	queries := g.reshape(g.param("cond.query", []int64{b, nq, heads * hd}, g.f32, Init{Lo: -1, Hi: 1}), b, nq, heads, hd)
	k := g.transpose(condK, 0, 2, 1, 3)
	v := g.transpose(condV, 0, 2, 1, 3)
	pooled := g.reduce(g.reshape(g.attention(queries, k, v, nil, graph.MaskNone), b, nq, heads*hd), graph.ReduceMean, false, 1)
	res := g.dense(g.unary(graph.GeluTanhName, g.dense(pooled, "cond.resampler_in", e)), "cond.resampler_out", e)
	gate := g.unary(graph.TanhName, g.param("cond.gate", []int64{e}, g.f32, Init{Lo: -1, Hi: 1}))
	return g.add(rateEmb, g.mul(gate, res))
}

func zonosAttention(g *builder, c ZonosConfig, x *ir.Value, p string, cos, sin, mask *ir.Value) *ir.Value {
	b, e, heads, kvh, hd, past := int64(c.Batch), int64(c.Hidden), int64(c.Heads), int64(c.KVHeads), int64(c.HeadDim), int64(c.Past)
	h := g.layerNorm(x, g.norm(p+"norm1.weight", e), g.param(p+"norm1.bias", []int64{e}, g.f32, Init{Lo: -0.1, Hi: 0.1}), zonosEps)
	qkv := g.linear(h, p+"w_qkv", (heads+2*kvh)*hd)
	// gptj RoPE on the packed [B, S, H·D] layout, then split the heads.
	q := g.rope(g.reshape(g.slice(qkv, 1, 0, heads*hd), b, 1, heads*hd), cos, sin, hd, int64(c.RotaryDim), graph.RopeGPTJ)
	k := g.rope(g.reshape(g.slice(qkv, 1, heads*hd, kvh*hd), b, 1, kvh*hd), cos, sin, hd, int64(c.RotaryDim), graph.RopeGPTJ)
	v := g.reshape(g.slice(qkv, 1, (heads+kvh)*hd, kvh*hd), b, 1, kvh, hd)
	q, k = g.reshape(q, b, 1, heads, hd), g.reshape(k, b, 1, kvh, hd)
	// The caches are [B, Hkv, S, D]; attention reads [B, S, Hkv, D].
	cache := []int64{b, kvh, past, hd}
	kc := g.concat(1, g.transpose(g.input(p+"k_cache", cache, g.f32, uniformInput(-1, 1)), 0, 2, 1, 3), k)
	vc := g.concat(1, g.transpose(g.input(p+"v_cache", cache, g.f32, uniformInput(-1, 1)), 0, 2, 1, 3), v)
	g.output(p+"k_cache", g.transpose(kc, 0, 2, 1, 3))
	g.output(p+"v_cache", g.transpose(vc, 0, 2, 1, 3))
	a := g.reshape(g.attention(q, kc, vc, mask, graph.MaskCustom), b, heads*hd)
	return g.add(x, g.linear(a, p+"w_o", e))
}

// zonosMLP is the GELU-gated MLP: fc1 to [y ‖ gate], y·gelu(gate), fc2.
// With half-precision weights the fc2 input is scaled into [−1, 1] by its
// per-row absolute maximum before the cast and scaled back after, so the
// f16 product cannot overflow.
func zonosMLP(g *builder, c ZonosConfig, x *ir.Value, p string) *ir.Value {
	e, f := int64(c.Hidden), int64(c.FFN)
	h := g.layerNorm(x, g.norm(p+"norm2.weight", e), g.param(p+"norm2.bias", []int64{e}, g.f32, Init{Lo: -0.1, Hi: 0.1}), zonosEps)
	fc1 := g.linear(h, p+"fc1", 2*f)
	m := g.mul(g.slice(fc1, -1, 0, f), g.unary(graph.GeluName, g.slice(fc1, -1, f, f)))
	if g.proj.half == "" {
		return g.add(x, g.linear(m, p+"fc2", e))
	}
	amax := g.reduce(g.unary(graph.AbsName, m), graph.ReduceMax, true, -1)
	inv := g.unary(graph.ReciprocalName, g.max(amax, g.scalar(1)))
	return g.add(x, g.div(g.linear(g.mul(m, inv), p+"fc2", e), inv))
}
