package importer

import (
	"fmt"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// deltaNet is a gated DeltaNet layer (transformers' Qwen3_5GatedDeltaNet
// and Qwen3NextGatedDeltaNet) for one token: the input projections, the
// causal depthwise conv over the last K inputs with SiLU, l2-normalised q
// and k repeated up to the value heads, the decay g = −exp(A_log)·
// softplus(α + dt_bias) and β = sigmoid(b), the delta-rule scan, and the
// gated RMSNorm (its weight plain, not 1 + w) before the output
// projection.
func (g *builder) deltaNet(i int, h *ir.Value) *ir.Value {
	s := g.s
	e, hk, hv, n := s.hidden, s.keyHeads, s.valueHeads, s.gdn
	r, kd, vd, c := hv/hk, hk*n, hv*n, s.convDim()
	var mixed, z, b, a *ir.Value
	if s.fusedQKVZ {
		// Qwen3-Next: per key head [q (N), k (N), v (r·N), z (r·N)]; the
		// conv runs over q of all heads, then k, then v.
		w := g.reshape(g.linear(h, g.n.of(i, roleQKVZ), hk*(2*n+2*r*n), e), 1, hk, 2*n+2*r*n)
		q := g.reshape(g.slice(w, 2, 0, n), 1, kd)
		k := g.reshape(g.slice(w, 2, n, n), 1, kd)
		v := g.reshape(g.slice(w, 2, 2*n, r*n), 1, vd)
		mixed = g.concat(1, q, k, v)
		z = g.reshape(g.slice(w, 2, 2*n+r*n, r*n), 1, 1, hv, n)
	} else {
		mixed = g.linear(h, g.n.of(i, roleQKV), c, e)
		z = g.reshape(g.linear(h, g.n.of(i, roleZ), vd, e), 1, 1, hv, n)
	}
	if s.fusedBA {
		// Per key head [β (r), α (r)].
		ba := g.reshape(g.linear(h, g.n.of(i, roleBA), 2*hv, e), 1, hk, 2*r)
		b = g.reshape(g.slice(ba, 2, 0, r), 1, hv)
		a = g.reshape(g.slice(ba, 2, r, r), 1, hv)
	} else {
		b = g.linear(h, g.n.of(i, roleBeta), hv, e)
		a = g.linear(h, g.n.of(i, roleAlpha), hv, e)
	}

	conv := g.silu(g.causalConv(i, mixed, g.n.of(i, roleConv), c, s.convKernel))

	q := g.l2norm(g.reshape(g.slice(conv, 1, 0, kd), 1, 1, hk, n))
	k := g.l2norm(g.reshape(g.slice(conv, 1, kd, kd), 1, 1, hk, n))
	v := g.reshape(g.slice(conv, 1, 2*kd, vd), 1, 1, hv, n)
	if r > 1 {
		q, k = g.repeatHeads(q, r), g.repeatHeads(k, r)
	}
	beta := g.reshape(g.sigmoid(b), 1, 1, hv)
	gate := g.mul(g.aDecay(i, s.aIsLog, hv), g.unary(graph.SoftplusName, g.add(a, g.weight(g.n.of(i, roleDT), hv))))
	gate = g.reshape(gate, 1, 1, hv)
	o := g.mul(g.rmsNorm(g.deltaRule(i, q, k, v, gate, beta, false), g.weight(g.n.of(i, roleSSMNorm), n)), g.silu(z))
	return g.linear(g.reshape(o, 1, vd), g.n.of(i, roleOut), e, vd)
}

// deltaRule runs graph.gated_delta_net for layer i on q, k, v [1, 1,
// heads, n], the decay gate (a head's, or with perChannel a key
// channel's) and β, its state l{i}.ssm_state [1, heads, n, n] an input
// and an output. It returns the output [1, 1, heads, n].
func (g *builder) deltaRule(i int, q, k, v, gate, beta *ir.Value, perChannel bool) *ir.Value {
	heads, n := shapeInts(v)[2], shapeInts(v)[3]
	var attrs []ir.NamedAttr
	if perChannel {
		attrs = append(attrs, ir.NamedAttr{Name: "gate_per_channel", Value: g.ctx.BoolAttr(true)})
	}
	ssm := g.input(fmt.Sprintf("l%d.ssm_state", i), []int64{1, int64(heads), int64(n), int64(n)}, g.f32)
	op := g.create(graph.GatedDeltaNetName, []*ir.Value{q, k, v, gate, beta, ssm}, nil, attrs...)
	g.output(fmt.Sprintf("l%d.ssm_state", i), op.Result(1))
	return op.Result(0)
}

// aDecay is layer i's A as the state's decay rate, −exp(A_log), in
// shape: from the checkpoint's A_log where log, else as llama.cpp's
// converter stores it (ssm_a = −exp(A_log)).
func (g *builder) aDecay(i int, log bool, shape ...int) *ir.Value {
	a := g.weight(g.n.of(i, roleA), shape...)
	if log {
		a = g.unary(graph.NegName, g.unary(graph.ExpName, a))
	}
	return a
}

// l2norm normalises the last axis as transformers' l2norm does:
// x·rsqrt(Σx² + 1e-6).
func (g *builder) l2norm(x *ir.Value) *ir.Value {
	ss := g.sum(g.mul(x, x), true, -1)
	return g.mul(x, g.unary(graph.RsqrtName, g.add(ss, g.scalar(1e-6))))
}

// repeatHeads repeats the H_k q/k heads [1, 1, H_k, N] up to H_v = r·H_k:
// value head j reads key head j/r (transformers' repeat_interleave), or
// j mod H_k when the value heads are in llama.cpp's tiled order.
func (g *builder) repeatHeads(x *ir.Value, r int) *ir.Value {
	s := shapeInts(x)
	hk, n := s[2], s[3]
	if g.s.vTiled {
		return g.reshape(g.broadcast(g.reshape(x, 1, 1, 1, hk, n), 1, 1, r, hk, n), 1, 1, r*hk, n)
	}
	return g.reshape(g.broadcast(g.reshape(x, 1, 1, hk, 1, n), 1, 1, hk, r, n), 1, 1, hk*r, n)
}
