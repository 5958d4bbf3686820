package importer

import (
	"fmt"
	"math"
	"strings"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// model builds the decode step: embedding, the layers (each a token mixer
// and an MLP with their pre-norms and residuals), the final norm and the
// LM head. Outputs are the logits, then every state in layer order.
func (g *builder) model() {
	s := g.s
	token := g.input("token", []int64{1, 1}, g.i32)
	pos := g.input("pos", []int64{1}, g.i32)

	var at positions
	if s.anyAttention() {
		at = g.positions(pos)
	}

	g.at("embed")
	table := g.embedTable()
	x := g.reshape(g.gather(table, token, 0), 1, s.hidden)
	if elemOf(x) != g.f32 {
		x = g.cast(x, g.f32)
	}
	if s.embedScale != 0 {
		// Gemma: the rows × √hidden, the factor in the table's type
		// (transformers) or in f32 (llama.cpp); Granite's
		// embedding_multiplier in f32.
		f := float64(float32(s.embedScale))
		if s.embedRound {
			f = roundTo(s.embedScale, elemOf(table))
		}
		x = g.mul(x, g.scalar(f))
	}
	x0 := x // Zamba2's hybrid layers read the embedding beside x
	for i := range s.layers {
		p := fmt.Sprintf("l%d.", i)
		if s.layerTypes[i] == zambaHybrid {
			// Zamba2: the shared block's output (through the layer's
			// linear) added to the mixer's input, not to x.
			g.at(p + "hybrid")
			t := g.zambaBlock(i, x, x0, at)
			x = g.add(x, g.mamba2Mixer(i, g.hiddenNorm(g.add(x, t), g.n.of(i, roleAttnNorm))))
			continue
		}
		if s.attention(i) {
			g.at(p + "attn")
			h := x
			if !s.postNorms {
				h = g.hiddenNorm(x, g.n.of(i, roleAttnNorm))
			}
			c, sn, k := at.cos, at.sin, at.keep
			if s.slidingLayer(i) {
				c, sn, k = at.lcos, at.lsin, at.keepLocal
			}
			if s.chunkedLayer(i) {
				k = at.keepChunk
			}
			var a *ir.Value
			switch {
			case s.mla.kvLora > 0:
				a = g.latentAttention(i, h, c, sn, k, at.write)
			case s.parallelSSM:
				// Falcon-H1: attention (its input and output scaled) and
				// the Mamba-2 mixer on the same norm, summed.
				a = g.scaled(g.attention(i, g.scaled(h, s.attnInScale), c, sn, k, at.write), s.attnOutScale)
				a = g.add(g.mamba2Mixer(i, h), a)
			default:
				a = g.attention(i, h, c, sn, k, at.write)
			}
			if s.sandwich || s.postNorms {
				a = g.hiddenNorm(a, g.n.of(i, rolePostAttnNorm))
			}
			if s.parallel {
				// Cohere, Phi-2, StableLM: the MLP reads the same norm of
				// x (GPT-NeoX: its own); x + attention + MLP, in that
				// order, or (Phi-2, GPT-NeoX) attention + MLP, then x.
				g.at(p + "mlp")
				if s.parallelNorms {
					h = g.hiddenNorm(x, g.n.of(i, roleFFNNorm))
				}
				if m := g.denseMLP(i, h); s.blocksFirst {
					x = g.add(g.add(a, m), x)
				} else {
					x = g.add(g.add(x, a), m)
				}
				continue
			}
			x = g.add(x, g.residualScaled(a))
			if s.mixerOnly {
				continue // Nemotron-H: attention is the layer
			}
		} else if s.layerTypes[i] == mlpLayer {
			// Nemotron-H: the MLP or the experts are the layer.
			h := g.hiddenNorm(x, g.n.of(i, roleAttnNorm))
			if s.experts > 0 && s.moeLayer[i] {
				g.at(p + "moe")
				x = g.add(x, g.moe(i, h))
			} else {
				g.at(p + "mlp")
				x = g.add(x, g.denseMLP(i, h))
			}
			continue
		} else if s.layerTypes[i] == mambaLayer {
			g.at(p + "mamba")
			h := g.hiddenNorm(x, g.n.of(i, roleAttnNorm))
			if s.ssmV1 {
				x = g.add(x, g.mambaMixer(i, h))
			} else {
				x = g.add(x, g.residualScaled(g.mamba2Mixer(i, h)))
			}
			if s.mixerOnly {
				continue
			}
		} else if s.layerTypes[i] == shortConvLayer {
			g.at(p + "conv")
			h := g.hiddenNorm(x, g.n.of(i, roleAttnNorm))
			x = g.add(x, g.shortConvBlock(i, h))
		} else {
			g.at(p + "gdn")
			h := g.hiddenNorm(x, g.n.of(i, roleAttnNorm))
			if s.kda {
				x = g.add(x, g.kimiDelta(i, h))
			} else {
				x = g.add(x, g.deltaNet(i, h))
			}
		}
		h := x
		if !s.postNorms {
			h = g.hiddenNorm(x, g.n.of(i, roleFFNNorm))
		}
		if s.experts > 0 && s.moeLayer[i] && s.oss {
			g.at(p + "moe")
			x = g.add(x, g.ossMoE(i, h))
		} else if s.experts > 0 && s.moeLayer[i] {
			g.at(p + "moe")
			x = g.add(x, g.residualScaled(g.moe(i, h)))
		} else {
			g.at(p + "mlp")
			y := g.denseMLP(i, h)
			if s.sandwich || s.postNorms {
				y = g.hiddenNorm(y, g.n.of(i, rolePostFFNNorm))
			}
			x = g.add(x, g.residualScaled(y))
		}
	}
	g.at("head")
	h := g.hiddenNorm(x, g.n.finalNorm)
	var logits *ir.Value
	switch {
	case !s.tied:
		logits = g.linear(h, g.n.head, s.vocab, s.hidden)
	case g.info(g.n.embed).Quant.Valid():
		// The table was bound dequantised for the lookup; the head reads
		// the same f32 values.
		logits = g.reshape(g.matmul(table, g.reshape(h, s.hidden, 1)), 1, s.vocab)
	default:
		logits = g.linear(h, g.n.embed, s.vocab, s.hidden)
	}
	if s.headBias {
		// Phi-2: the head's bias.
		logits = g.add(logits, g.reshape(g.weight(strings.TrimSuffix(g.n.head, ".weight")+".bias", s.vocab), 1, s.vocab))
	}
	if s.finalSoftcap != 0 {
		// Gemma 2: cap·tanh(logits / cap).
		logits = g.mul(g.unary(graph.TanhName, g.div(logits, g.scalar(s.finalSoftcap))), g.scalar(s.finalSoftcap))
	}
	if s.logitScale != 0 {
		// Granite: logits ÷ logits_scaling.
		logits = g.div(logits, g.scalar(s.logitScale))
	}
	if s.logitMul != 0 {
		// Cohere: logits × logit_scale.
		logits = g.mul(logits, g.scalar(s.logitMul))
	}
	g.outs = append([]output{{"logits", logits}}, g.outs...)
}

// positions are what attention layers read of this step's position:
// the rope tables (the sliding layers' own where Gemma 3 gives them),
// the masks of the cache rows to attend to (all up to pos, a sliding
// window's, Llama 4's chunk's) and the row this step writes.
type positions struct {
	cos, sin, lcos, lsin       *ir.Value
	keep, keepLocal, keepChunk *ir.Value
	write                      *ir.Value
}

// positions builds the position tables from pos [1].
func (g *builder) positions(pos *ir.Value) positions {
	s := g.s
	var at positions
	// Rotary tables for this position, as transformers computes them in
	// float32: angle = pos·inv_freq, then cos and sin.
	g.at("rope")
	posf := g.reshape(g.cast(pos, g.f32), 1, 1)
	freqs := func(invFreq []float64) *ir.Value { return g.constF32([]int{1, len(invFreq)}, invFreq...) }
	tables := func(f *ir.Value) (cos, sin *ir.Value) {
		angles := g.mul(posf, f)
		return g.unary(graph.CosName, angles), g.unary(graph.SinName, angles)
	}
	f := freqs(s.invFreq)
	if s.longInvFreq != nil {
		// LongRoPE: from longFrom on, the long factors' frequencies.
		long := freqs(s.longInvFreq)
		useLong := g.cmp(graph.CmpGE, g.reshape(pos, 1, 1), g.constI32([]int{1, 1}, int64(s.longFrom)))
		f = g.sel(useLong, long, f)
	}
	cos, sin := tables(f)
	if s.ropeAttn != 0 && s.ropeAttn != 1 {
		// YaRN's and LongRoPE's attention factor, on cos and sin in f32
		// as transformers applies it.
		a := g.scalar(s.ropeAttn)
		cos, sin = g.mul(cos, a), g.mul(sin, a)
	}
	at.cos, at.sin = cos, sin
	at.lcos, at.lsin = cos, sin
	if s.localInvFreq != nil {
		at.lcos, at.lsin = tables(freqs(s.localInvFreq)) // Gemma 3's sliding layers rotate at their own base
	}

	// The caches hold maxTokens rows; this step writes row pos and attends
	// to rows 0…pos, or under a sliding window of w to pos−w+1…pos.
	g.at("cache")
	iota := make([]int64, s.maxTokens)
	for i := range iota {
		iota[i] = int64(i)
	}
	rows := g.constI32([]int{1, s.maxTokens}, iota...)
	p11 := g.reshape(pos, 1, 1)
	at.keep = g.cmp(graph.CmpLE, rows, p11)
	at.keepLocal = at.keep
	if s.window > 0 {
		// pos − row in [0, w−1] ⟺ max(pos − row, w−1 − (pos − row)) ≤ w−1.
		d := g.op(graph.SubName, nil, p11, rows)
		last := g.constI32([]int{1}, int64(s.window-1))
		at.keepLocal = g.cmp(graph.CmpLE, g.op(graph.MaxName, nil, d, g.op(graph.SubName, nil, last, d)), last)
	}
	at.keepChunk = at.keep
	if s.chunk > 0 {
		// Llama 4's chunked layers: rows start…pos, start = ⌊pos/C⌋·C,
		// i.e. max(row − pos, start − row) ≤ 0.
		c := g.constI32([]int{1}, int64(s.chunk))
		start := g.mul(g.div(p11, c), c)
		far := g.op(graph.MaxName, nil, g.op(graph.SubName, nil, rows, p11), g.op(graph.SubName, nil, start, rows))
		at.keepChunk = g.cmp(graph.CmpLE, far, g.constI32([]int{1}, 0))
	}
	if s.tempFloor > 0 {
		// Llama 4's temperature tuning of the NoPE layers' q (Ministral
		// 3's of every layer's), in f32 as transformers computes it:
		// log(1 + ⌊(pos+offset)/floor⌋)·scale + 1.
		at := pos
		if s.tempOffset != 0 {
			at = g.add(pos, g.constI32([]int{1}, int64(s.tempOffset)))
		}
		n := g.div(at, g.constI32([]int{1}, int64(s.tempFloor)))
		g.qTemp = g.add(g.mul(g.unary(graph.LogName, g.add(g.scalar(1), g.cast(n, g.f32))), g.scalar(s.tempScale)), g.scalar(1))
	}
	at.write = g.reshape(g.cmp(graph.CmpEQ, rows, p11), 1, s.maxTokens, 1, 1)
	return at
}

// wholeNormed is a q or k projection [1, width] RMS-normalised as a
// whole by layer i's weight of role (OLMo 2), or as it is.
func (g *builder) wholeNormed(x *ir.Value, i int, role string, width int) *ir.Value {
	if !g.s.qkNormWhole {
		return x
	}
	return g.rmsNorm(x, g.norm(g.n.of(i, role), width))
}

// residualScaled is a block's output as the residual adds it: × Granite's
// residual_multiplier where the model has one.
func (g *builder) residualScaled(y *ir.Value) *ir.Value {
	if g.s.residualScale == 0 {
		return y
	}
	return g.mul(y, g.scalar(g.s.residualScale))
}

// embedTable is the token embedding [vocab, hidden]: as stored, or f32
// (dequantised by the weight source) when the file quantises it, since a
// row lookup has no quantised form.
func (g *builder) embedTable() *ir.Value {
	name := g.n.embed
	i := g.info(name)
	want := []int{g.s.vocab, g.s.hidden}
	if i.Quant.Valid() {
		if !sameSqueezed(i.Shape, want) {
			g.fail("%s: tensor %q is %s, expected shape %v", i.File, name, i, want)
		}
		return g.paramOf(name, want, g.f32)
	}
	t, _ := g.param(name, want...)
	return t
}

// norm is an RMSNorm weight as the scale γ: w, or 1 + w for the
// zero-centred norms of transformers' Qwen3.5 and Qwen3-Next (llama.cpp
// stores those with the 1 already added).
func (g *builder) norm(name string, d int) *ir.Value {
	w := g.weight(name, d)
	if g.s.zeroCentred {
		w = g.add(g.scalar(1), w)
	}
	return w
}

// shortConvBlock is LFM2's gated short convolution of layer i: in_proj
// gives B, C and x (in that order); B·x enters a causal depthwise conv
// over the last shortConv inputs (the state holds the shortConv − 1
// before this one), C gates its output, out_proj maps it back.
func (g *builder) shortConvBlock(i int, h *ir.Value) *ir.Value {
	s := g.s
	e, kk := s.hidden, s.shortConv
	bcx := g.linear(h, g.n.of(i, roleConvIn), 3*e, e)
	bx := g.mul(g.slice(bcx, 1, 0, e), g.slice(bcx, 1, 2*e, e))
	conv := g.causalConv(i, bx, g.n.of(i, roleShortConv), e, kk)
	return g.linear(g.mul(g.slice(bcx, 1, e, e), conv), g.n.of(i, roleConvOut), e, e)
}

// causalConv is layer i's causal depthwise conv of x [1, c] over its
// last k inputs, [1, c]: out_c = Σ_t window[t][c]·taps[c][t], the taps
// the tensor named taps [c, k]. The state l{i}.conv_state [1, k−1, c]
// holds the k−1 inputs before this one, and is output with x's in.
func (g *builder) causalConv(i int, x *ir.Value, taps string, c, k int) *ir.Value {
	return g.causalConvTaps(i, x, g.weight(taps, c, k), c, k)
}

// causalConvTaps is causalConv with the taps [c, k] given as a value
// (Kimi's three convs' taps, concatenated).
func (g *builder) causalConvTaps(i int, x, taps *ir.Value, c, k int) *ir.Value {
	p := fmt.Sprintf("l%d.", i)
	state := g.input(p+"conv_state", []int64{1, int64(k - 1), int64(c)}, g.f32)
	window := g.concat(1, state, g.reshape(x, 1, 1, c))
	g.output(p+"conv_state", g.slice(window, 1, 1, k-1))
	return g.sum(g.mul(window, g.transpose(taps, 1, 0)), false, 1)
}

// denseMLP is layer i's SwiGLU block, its gate and up projections
// separate or fused (Phi-3's gate_up_proj: the gate's rows, then up's).
func (g *builder) denseMLP(i int, h *ir.Value) *ir.Value {
	s := g.s
	if s.plainGelu {
		// StarCoder2, Phi-2: c_proj(gelu_tanh(c_fc(h))), both with
		// biases; GPT-NeoX's gelu is erf's.
		u := g.biased(g.linear(h, g.n.of(i, roleUp), s.ffn, s.hidden), i, roleUpBias, biasRequired, s.ffn)
		act := graph.GeluTanhName
		if s.erfGelu {
			act = graph.GeluName
		}
		return g.biased(g.linear(g.unary(act, u), g.n.of(i, roleDown), s.hidden, s.ffn), i, roleDownBias, biasRequired, s.hidden)
	}
	if s.reluSquared {
		return g.reluSquaredMLP(h, g.n.of(i, roleUp), g.n.of(i, roleDown), s.ffn)
	}
	if s.xielu {
		return g.linear(g.xielu(i, g.linear(h, g.n.of(i, roleUp), s.ffn, s.hidden)), g.n.of(i, roleDown), s.hidden, s.ffn)
	}
	if s.mlpGateScale != 0 {
		// Falcon-H1: down(act(gate(h)·m₀)·up(h))·m₁.
		gt := g.scaled(g.linear(h, g.n.of(i, roleGate), s.ffn, s.hidden), s.mlpGateScale)
		a := g.mul(g.act(gt), g.linear(h, g.n.of(i, roleUp), s.ffn, s.hidden))
		return g.scaled(g.linear(a, g.n.of(i, roleDown), s.hidden, s.ffn), s.mlpDownScale)
	}
	if !s.fusedGateUp {
		return g.mlp(h, g.n.of(i, roleGate), g.n.of(i, roleUp), g.n.of(i, roleDown), s.ffn)
	}
	gu := g.linear(h, g.n.of(i, roleGateUp), 2*s.ffn, s.hidden)
	a := g.mul(g.act(g.slice(gu, 1, 0, s.ffn)), g.slice(gu, 1, s.ffn, s.ffn))
	return g.linear(a, g.n.of(i, roleDown), s.hidden, s.ffn)
}

// xielu is layer i's xIELU of u (transformers' XIELUActivation): with
// a_p = softplus(α_p) and a_n = β + softplus(α_n), a_p·u² + β·u where u >
// 0, else (exp(min(u, ε)) − 1 − u)·a_n + β·u. β and ε are read where the
// checkpoint holds them (0.5 and −10⁻⁶, XIELUActivation's defaults,
// where it does not).
func (g *builder) xielu(i int, u *ir.Value) *ir.Value {
	param := func(role string, k int, def float64, required bool) *ir.Value {
		if g.s.xieluParams != nil {
			return g.scalar(g.s.xieluParams[i][k]) // llama.cpp's metadata
		}
		if name, ok := g.n.lookup(i, role); ok && (required || g.has(name)) {
			return g.weight(name, 1)
		}
		return g.scalar(def)
	}
	beta, eps := param(roleXIELUBeta, 2, 0.5, false), param(roleXIELUEps, 3, -1e-6, false)
	ap := g.unary(graph.SoftplusName, param(roleXIELUAlphaP, 0, 0, true))
	an := g.add(beta, g.unary(graph.SoftplusName, param(roleXIELUAlphaN, 1, 0, true)))
	bu := g.mul(u, beta)
	pos := g.add(g.mul(g.mul(u, u), ap), bu)
	m := g.op(graph.MinName, nil, u, eps)
	sub := func(a, b *ir.Value) *ir.Value { return g.op(graph.SubName, nil, a, b) }
	neg := g.add(g.mul(sub(sub(g.unary(graph.ExpName, m), g.scalar(1)), u), an), bu)
	return g.sel(g.cmp(graph.CmpGT, u, g.scalar(0)), pos, neg)
}

// scaled is v × f, or v where f is 0 (no multiplier) or 1.
func (g *builder) scaled(v *ir.Value, f float64) *ir.Value {
	if f == 0 || f == 1 {
		return v
	}
	return g.mul(v, g.scalar(f))
}

// reluSquaredMLP is the ungated feed-forward block down(relu(up(h))²)
// of ffn rows (Arcee's, Nemotron-H's and its shared expert).
func (g *builder) reluSquaredMLP(h *ir.Value, up, down string, ffn int) *ir.Value {
	e := shapeInts(h)[1]
	r := g.unary(graph.ReluName, g.linear(h, up, ffn, e))
	return g.linear(g.mul(r, r), down, e, ffn)
}

// mlp is the gated feed-forward block down(act(gate(h))·up(h)), act silu
// (SwiGLU) or Gemma's gelu_tanh.
func (g *builder) mlp(h *ir.Value, gate, up, down string, ffn int) *ir.Value {
	e := g.s.hidden
	a := g.mul(g.act(g.linear(h, gate, ffn, e)), g.linear(h, up, ffn, e))
	return g.linear(a, down, e, ffn)
}

// attention is full attention over the fixed cache: projections (with
// their biases where the architecture has them), per-head q/k norms,
// partial rope, the cache write, GQA attention over rows 0…pos, the
// output gate of the Qwen3.5/Qwen3-Next form, and the output projection.
func (g *builder) attention(i int, h, cos, sin, keep, write *ir.Value) *ir.Value {
	s := g.s
	e, heads, kvh, d := s.hidden, s.heads, s.kvHeads, s.headDim
	var q, k, v, gate *ir.Value
	switch {
	case s.fusedQKV && s.interleavedQKV:
		// GPT-NeoX's query_key_value: q, k and v of head 0, then of
		// head 1, … (kvHeads = heads).
		qkv := g.reshape(g.biased(g.linear(h, g.n.of(i, roleAttnQKV), 3*heads*d, e), i, roleAttnQKVBias, s.qkvBias, 3*heads*d), 1, 1, heads, 3*d)
		q, k, v = g.slice(qkv, 3, 0, d), g.slice(qkv, 3, d, d), g.slice(qkv, 3, 2*d, d)
	case s.fusedQKV:
		// Phi-3's qkv_proj (and llama.cpp's attn_qkv): the rows of q,
		// then k's, then v's, with a bias where the model has them.
		qkv := g.biased(g.linear(h, g.n.of(i, roleAttnQKV), (heads+2*kvh)*d, e), i, roleAttnQKVBias, s.qkvBias, (heads+2*kvh)*d)
		q = g.reshape(g.slice(qkv, 1, 0, heads*d), 1, 1, heads, d)
		k = g.reshape(g.slice(qkv, 1, heads*d, kvh*d), 1, 1, kvh, d)
		v = g.reshape(g.slice(qkv, 1, (heads+kvh)*d, kvh*d), 1, 1, kvh, d)
	case s.gatedAttention:
		// q_proj holds [q ‖ gate] per head (torch.chunk of a [H, 2D] view).
		qg := g.reshape(g.linear(h, g.n.of(i, roleQ), heads*2*d, e), 1, 1, heads, 2*d)
		q = g.slice(qg, 3, 0, d)
		gate = g.reshape(g.slice(qg, 3, d, d), 1, heads*d)
	default:
		q = g.reshape(g.wholeNormed(g.biased(g.linear(h, g.n.of(i, roleQ), heads*d, e), i, roleQBias, s.qkvBias, heads*d), i, roleQNorm, heads*d), 1, 1, heads, d)
	}
	if !s.fusedQKV {
		k = g.reshape(g.wholeNormed(g.biased(g.linear(h, g.n.of(i, roleK), kvh*d, e), i, roleKBias, s.qkvBias, kvh*d), i, roleKNorm, kvh*d), 1, 1, kvh, d)
		v = g.reshape(g.biased(g.linear(h, g.n.of(i, roleV), kvh*d, e), i, roleVBias, s.qkvBias, kvh*d), 1, 1, kvh, d)
	}
	if s.qkNorm {
		q = g.rmsNorm(q, g.norm(g.n.of(i, roleQNorm), d))
		k = g.rmsNorm(k, g.norm(g.n.of(i, roleKNorm), d))
	}
	if s.qkLayerNorm {
		q, k = g.headLayerNorm(q, i, roleQNorm, heads), g.headLayerNorm(k, i, roleKNorm, kvh)
	}
	rotated := s.ropeLayer(i)
	if rotated {
		q, k = g.rope(q, cos, sin), g.rope(k, cos, sin)
		if s.qkL2Norm {
			// Llama 4: q and k over their RMS per head, no weight.
			one := g.broadcast(g.scalar(1), d)
			q, k = g.rmsNorm(q, one), g.rmsNorm(k, one)
		}
	}
	if g.qTemp != nil && (!rotated || s.tempAll) {
		q = g.mul(q, g.reshape(g.qTemp, 1, 1, 1, 1))
	}
	var attrs []ir.NamedAttr
	if s.attnSoftcap != 0 {
		attrs = append(attrs, g.floatAttr("softcap", s.attnSoftcap))
	}
	a, kc := g.attendCached(i, q, k, v, keep, write, attrs...)
	if s.oss {
		a = g.withSinks(i, a, q, kc, keep)
	}
	a = g.reshape(a, 1, heads*d)
	if gate != nil {
		a = g.mul(a, g.sigmoid(gate))
	}
	return g.biased(g.linear(a, g.n.of(i, roleO), e, heads*d), i, roleOBias, s.oBias, e)
}

// attendCached writes this step's k and v [1, 1, kv heads, d] into layer
// i's caches (l{i}.k_cache and l{i}.v_cache, [1, maxTokens, kv heads,
// d], at the row write marks) and attends q to the rows keep marks, at
// the spec's score scale (1/√d where it has none), then attrs.
// It returns the attention's output [1, 1, heads, d] and the k cache.
func (g *builder) attendCached(i int, q, k, v, keep, write *ir.Value, attrs ...ir.NamedAttr) (a, kc *ir.Value) {
	ks := shapeInts(k)
	p := fmt.Sprintf("l%d.", i)
	cache := []int64{1, int64(g.s.maxTokens), int64(ks[2]), int64(ks[3])}
	kc = g.sel(write, k, g.input(p+"k_cache", cache, g.f32))
	vc := g.sel(write, v, g.input(p+"v_cache", cache, g.f32))
	g.output(p+"k_cache", kc)
	g.output(p+"v_cache", vc)
	all := []ir.NamedAttr{g.strAttr("mask", string(graph.MaskCustom))}
	if g.s.attnScale != 0 {
		all = append(all, g.floatAttr("scale", g.s.attnScale))
	}
	return g.op(graph.AttentionName, append(all, attrs...), q, kc, vc, keep), kc
}

// latentNormEps is the epsilon of DeepSeek's q_a_layernorm and
// kv_a_layernorm: transformers builds them without the config's
// rms_norm_eps, so at DeepseekV3RMSNorm's default (Moonlight's
// rms_norm_eps is 1e-5, its latent norms' 1e-6).
const latentNormEps = 1e-6

// latentAttention is DeepSeek's multi-head latent attention (spec.mla),
// absorbed: the cache holds each position's normed latent c and k's rope
// dims kr, [1, maxTokens, 1, kvLora + rope]; a head's scores are
// (W_k,h·c)·q_nope,h + kr·q_rope,h = c·(W_k,hᵀ·q_nope,h) + kr·q_rope,h, so
// attention runs with one kv head, q = [W_k,hᵀ·q_nope,h ‖ q_rope,h] and
// values c, and head h's output is W_v,h times its share of c. W_k,h and
// W_v,h are head h's nope and v rows of kv_b_proj ([heads·(nope + v),
// kvLora]), or llama.cpp's split of it (latentMaps).
func (g *builder) latentAttention(i int, h, cos, sin, keep, write *ir.Value) *ir.Value {
	s, m := g.s, g.s.mla
	e, heads, qd := s.hidden, s.heads, m.nope+m.rope
	var q *ir.Value
	if m.qLora > 0 {
		qa := g.rmsNormEps(g.linear(h, g.n.of(i, roleQA), m.qLora, e), g.weight(g.n.of(i, roleQANorm), m.qLora), latentNormEps)
		q = g.linear(qa, g.n.of(i, roleQB), heads*qd, m.qLora)
	} else {
		q = g.linear(h, g.n.of(i, roleQ), heads*qd, e)
	}
	q = g.reshape(q, 1, 1, heads, qd)
	ckv := g.linear(h, g.n.of(i, roleKVA), m.kvLora+m.rope, e)
	c := g.rmsNormEps(g.slice(ckv, 1, 0, m.kvLora), g.weight(g.n.of(i, roleKVANorm), m.kvLora), latentNormEps)
	kr := g.reshape(g.slice(ckv, 1, m.kvLora, m.rope), 1, 1, 1, m.rope)
	qr := g.slice(q, 3, m.nope, m.rope)
	if s.ropeLayer(i) {
		kr, qr = g.rope(kr, cos, sin), g.rope(qr, cos, sin) // Kimi's layers rotate neither
	}
	kMap, vMap := g.latentMaps(i)
	qc := kMap(g.slice(q, 3, 0, m.nope))
	qAll := g.concat(3, g.reshape(qc, 1, 1, heads, m.kvLora), qr)
	p := fmt.Sprintf("l%d.", i)
	cache := []int64{1, int64(s.maxTokens), 1, int64(m.kvLora + m.rope)}
	kc := g.sel(write, g.concat(3, g.reshape(c, 1, 1, 1, m.kvLora), kr), g.input(p+"latent_cache", cache, g.f32))
	g.output(p+"latent_cache", kc)
	attrs := []ir.NamedAttr{g.strAttr("mask", string(graph.MaskCustom)), g.floatAttr("scale", s.attnScale)}
	a := g.op(graph.AttentionName, attrs, qAll, kc, g.slice(kc, 3, 0, m.kvLora), keep) // [1, 1, heads, kvLora]
	out := vMap(a)
	return g.linear(g.reshape(out, 1, heads*m.vDim), g.n.of(i, roleO), e, heads*m.vDim)
}

// latentMaps returns layer i's maps of each head's part of x: kMap takes
// q's nope dims [1, 1, heads, nope] through W_k,hᵀ to heads·kvLora
// values, vMap the attention's output [1, 1, heads, kvLora] through
// W_v,h to heads·vDim (each in a shape the caller reshapes). They read
// kv_b_proj whole (transformers; llama.cpp's files before 2025), its
// rows a head's nope k rows then its v rows, or llama.cpp's split of it,
// attn_k_b [heads, kvLora, nope] (each head's k rows transposed) and
// attn_v_b [heads, vDim, kvLora] (perHead: quantised or not).
func (g *builder) latentMaps(i int) (kMap, vMap func(x *ir.Value) *ir.Value) {
	m, heads := g.s.mla, g.s.heads
	if kb, ok := g.n.lookup(i, roleKB); ok && g.has(kb) {
		return func(x *ir.Value) *ir.Value { return g.perHead(kb, g.reshape(x, heads, m.nope), m.kvLora, m.nope) },
			func(x *ir.Value) *ir.Value {
				return g.perHead(g.n.of(i, roleVB), g.reshape(x, heads, m.kvLora), m.vDim, m.kvLora)
			}
	}
	wkv := g.reshape(g.weight(g.n.of(i, roleKVB), heads*(m.nope+m.vDim), m.kvLora), heads, m.nope+m.vDim, m.kvLora)
	return func(x *ir.Value) *ir.Value {
			return g.matmul(g.reshape(x, heads, 1, m.nope), g.slice(wkv, 1, 0, m.nope))
		},
		func(x *ir.Value) *ir.Value {
			return g.matmul(g.slice(wkv, 1, m.nope, m.vDim), g.reshape(x, heads, m.kvLora, 1))
		}
}

// perHead applies each head's matrix of the stack name [heads, out, in]
// to that head's row of x [heads, in]: one batched matmul of a float
// stack, or one graph.dequant_matmul a head of a quantised one (each
// head's blocks a whole matrix, as llama.cpp quantises attn_k_b and
// attn_v_b). The result is [heads, out].
func (g *builder) perHead(name string, x *ir.Value, out, in int) *ir.Value {
	heads := g.s.heads
	info := g.info(name)
	if !sameSqueezed(info.Shape, []int{heads, out, in}) {
		g.fail("%s: tensor %q is %s, expected shape [%d, %d, %d]", info.File, name, info, heads, out, in)
	}
	if info.Quant.Valid() {
		per := out * (in / info.Quant.BlockSize()) * info.Quant.BlockBytes()
		blocks := g.reshape(g.quantParam(name, info), heads, per)
		parts := make([]*ir.Value, heads)
		for h := range parts {
			parts[h] = g.dequantMatMul(g.slice(x, 0, h, 1), g.reshape(g.slice(blocks, 0, h, 1), per), g.readAs(info.Quant), out, in)
		}
		return g.concat(0, parts...)
	}
	w := g.weight(name, heads, out, in)
	return g.reshape(g.matmul(w, g.reshape(x, heads, in, 1)), heads, out)
}

// withSinks scales the attention output a [1, 1, heads, d] of layer i
// by gpt-oss's sinks: the softmax over a head's scores and its sink
// logit is the softmax over the scores times 1/(1 + exp(sink − lse)),
// lse the log-sum-exp of the kept scores, so a·σ(lse − sink). The scores
// q·kᵀ (GQA: head h reads kv head h / (heads/kv heads)) are computed
// again here for lse.
func (g *builder) withSinks(i int, a, q, kc, keep *ir.Value) *ir.Value {
	s := g.s
	h, kvh, d, t := s.heads, s.kvHeads, s.headDim, s.maxTokens
	scale := 1 / math.Sqrt(float64(d))
	if s.attnScale != 0 {
		scale = s.attnScale
	}
	qg := g.reshape(q, kvh, h/kvh, d)
	kt := g.transpose(g.reshape(kc, t, kvh, d), 1, 2, 0) // [kv heads, d, t]
	scores := g.mul(g.reshape(g.matmul(qg, kt), h, t), g.scalar(scale))
	masked := g.sel(g.broadcast(keep, h, t), scores, g.broadcast(g.scalar(-1e30), h, t))
	m := g.op(graph.ReduceName, []ir.NamedAttr{g.strAttr("kind", string(graph.ReduceMax)), {Name: "axes", Value: g.ctx.DenseI64Array([]int64{1})},
		{Name: "keep_dims", Value: g.ctx.BoolAttr(true)}}, masked)
	lse := g.add(m, g.unary(graph.LogName, g.sum(g.unary(graph.ExpName, g.op(graph.SubName, nil, masked, m)), true, 1)))
	sinks := g.reshape(g.weight(g.n.of(i, roleSinks), h), h, 1)
	w := g.sigmoid(g.op(graph.SubName, nil, lse, sinks))
	return g.mul(a, g.reshape(w, 1, 1, h, 1))
}

// headLayerNorm is StableLM's per-head LayerNorm of x [1, 1, n, head
// dim] (no bias): each head normalised, then scaled by its own weight,
// the role's tensors (one a head, "*" its index; llama.cpp stacks them
// as one [n, head dim] tensor).
func (g *builder) headLayerNorm(x *ir.Value, i int, role string, n int) *ir.Value {
	d := g.s.headDim
	one, zero := g.broadcast(g.scalar(1), d), g.broadcast(g.scalar(0), d)
	y := g.op(graph.LayerNormName, []ir.NamedAttr{g.floatAttr("epsilon", g.s.eps)}, x, one, zero)
	name := g.n.of(i, role)
	var w *ir.Value
	if strings.Contains(name, "*") {
		rows := make([]*ir.Value, n)
		for h := range rows {
			rows[h] = g.reshape(g.weight(strings.Replace(name, "*", fmt.Sprint(h), 1), d), 1, d)
		}
		w = g.concat(0, rows...)
	} else {
		w = g.weight(name, n, d)
	}
	return g.mul(y, g.reshape(w, 1, 1, n, d))
}

// biased adds layer i's bias of the given role to a projection's output
// y [1, n] as rule says: never, always (a missing tensor is an error), or
// where the checkpoint holds it.
func (g *builder) biased(y *ir.Value, i int, role string, rule biasRule, n int) *ir.Value {
	if rule == noBias {
		return y
	}
	name := g.n.of(i, role)
	switch rule {
	case biasIfPresent:
		if !g.has(name) {
			return y
		}
	}
	return g.add(y, g.weight(name, n))
}

// act is the gated MLP's activation.
func (g *builder) act(x *ir.Value) *ir.Value {
	if g.s.geluTanh && g.s.erfGelu {
		return g.unary(graph.GeluName, x) // Gemma with hidden_act "gelu"
	}
	if g.s.geluTanh {
		return g.unary(graph.GeluTanhName, x)
	}
	return g.silu(x)
}

// roundTo rounds v to the float type elem (f16, bf16 or f32), as torch's
// .to(dtype) does.
func roundTo(v float64, elem ir.Type) float64 {
	d := tensor.F32
	switch elem.String() {
	case "f16":
		d = tensor.F16
	case "bf16":
		d = tensor.BF16
	}
	return float64(tensor.RoundFloat(d, float32(v)))
}
