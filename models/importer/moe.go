package importer

import (
	"slices"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/weights"
)

// moe is Qwen3-Next's and Qwen3-MoE's sparse MoE block for one token: the
// router's softmax over experts (float32 in transformers), graph.topk,
// the chosen weights renormalised to sum to 1 (norm_topk_prob), the chosen
// experts' SwiGLU MLPs on gathered weights, their weighted sum, and
// Qwen3-Next's shared expert scaled by sigmoid(shared_expert_gate(h))
// (Granite MoE's unscaled). Llama 4 (inputRouted) scales each chosen
// expert's input instead, and sums their outputs unweighted. Nemotron-H's
// experts (reluSquared) are down(relu(up(x))²), run in a latent of
// moeLatent where the model has one, its shared expert too.
func (g *builder) moe(i int, h *ir.Value) *ir.Value {
	s := g.s
	e, ne, k := s.hidden, s.experts, s.topK
	var vals, idx *ir.Value
	x := h // the experts' input, [1, e] or a row per chosen expert
	switch {
	case s.inputRouted:
		// Llama 4: the top k of the router's logits chosen, each chosen
		// expert's input × σ(its logit), the outputs summed with weight 1.
		top := g.create(graph.TopKName, []*ir.Value{g.linear(h, g.n.of(i, roleRouter), ne, e)}, nil, g.intAttr("k", int64(k)))
		idx = g.reshape(top.Result(1), k)
		x = g.mul(g.broadcast(h, k, e), g.reshape(g.sigmoid(top.Result(0)), k, 1))
	case s.sigmoidRouter:
		vals, idx = g.biasRoute(i, g.sigmoid(g.linear(h, g.n.of(i, roleRouter), ne, e)))
	case s.selectSoftmax:
		vals, idx = g.biasRoute(i, g.op(graph.SoftmaxName, []ir.NamedAttr{g.intAttr("axis", -1)}, g.linear(h, g.n.of(i, roleRouter), ne, e)))
	default:
		probs := g.op(graph.SoftmaxName, []ir.NamedAttr{g.intAttr("axis", -1)}, g.linear(h, g.n.of(i, roleRouter), ne, e))
		if s.openGroups > 0 {
			probs = g.groupLimited(probs) // DeepSeek-V2's group_limited_greedy
		}
		top := g.create(graph.TopKName, []*ir.Value{probs}, nil, g.intAttr("k", int64(k)))
		vals, idx = top.Result(0), g.reshape(top.Result(1), k)
		if s.normTopK {
			vals = g.div(vals, g.sum(vals, true, -1))
		}
		if s.routedScale != 0 && s.routedScale != 1 {
			vals = g.mul(vals, g.scalar(s.routedScale)) // DeepSeek-V2's routed_scaling_factor
		}
	}
	var gate, up, y *ir.Value
	switch fused, ok := g.n.lookup(i, roleExpertGateUpFused); {
	case s.reluSquared:
		// Nemotron-H: relu²(up) and down, no gate, in the latent where
		// the model has one (fc1_latent_proj; fc2_latent_proj below).
		in := e
		if s.moeLatent > 0 {
			in = s.moeLatent
			x = g.linear(x, g.n.of(i, roleLatentIn), in, e)
		}
		upRole, downRole := roleExpertUp, roleExpertDown
		if fused, ok := g.n.lookup(i, roleExpertUpFused); ok && g.has(fused) {
			upRole, downRole = roleExpertUpFused, roleExpertDownFused
		}
		r := g.unary(graph.ReluName, g.experts(i, upRole, x, idx, s.moeFFN, in))
		y = g.experts(i, downRole, g.mul(r, r), idx, in, s.moeFFN)
	case ok && g.has(fused):
		// transformers 5's fused experts: one [E, 2I, H] table for gate and
		// up (torch.chunk of each expert's output), one [E, H, I] for down.
		both := g.expertsNamed(fused, x, idx, 2*s.moeFFN, e)
		gate, up = g.slice(both, 1, 0, s.moeFFN), g.slice(both, 1, s.moeFFN, s.moeFFN)
		y = g.expertsNamed(g.n.of(i, roleExpertDownFused), g.mul(g.silu(gate), up), idx, e, s.moeFFN)
	default:
		gate = g.experts(i, roleExpertGate, x, idx, s.moeFFN, e)
		up = g.experts(i, roleExpertUp, x, idx, s.moeFFN, e)
		y = g.experts(i, roleExpertDown, g.mul(g.silu(gate), up), idx, e, s.moeFFN)
	}
	if vals != nil {
		y = g.mul(y, g.reshape(vals, k, 1))
	}
	routed := g.reshape(g.sum(y, false, 0), 1, shapeInts(y)[1])
	if s.moeLatent > 0 {
		routed = g.linear(routed, g.n.of(i, roleLatentOut), e, s.moeLatent)
	}
	if s.sharedFFN == 0 {
		return routed
	}
	var shared *ir.Value
	switch fused, ok := g.n.lookup(i, roleSharedGateUp); {
	case s.reluSquared:
		shared = g.reluSquaredMLP(h, g.n.of(i, roleSharedUp), g.n.of(i, roleSharedDown), s.sharedFFN)
	case ok && g.has(fused):
		// Granite MoE's shared_mlp: input_linear's rows the gate's, then up's.
		gu := g.linear(h, fused, 2*s.sharedFFN, e)
		a := g.mul(g.silu(g.slice(gu, 1, 0, s.sharedFFN)), g.slice(gu, 1, s.sharedFFN, s.sharedFFN))
		shared = g.linear(a, g.n.of(i, roleSharedDown), e, s.sharedFFN)
	default:
		shared = g.mlp(h, g.n.of(i, roleSharedGate), g.n.of(i, roleSharedUp), g.n.of(i, roleSharedDown), s.sharedFFN)
	}
	if s.sharedUngated {
		return g.add(routed, shared)
	}
	sg := g.sigmoid(g.linear(h, g.n.of(i, roleSharedRouter), 1, e))
	return g.add(routed, g.mul(shared, sg))
}

// biasRoute chooses among the router's scores [1, experts] as
// DeepSeek-V3 does (GLM-4.5, LFM2-MoE, Nemotron 3, MiniMax-M2: σ scores)
// and ERNIE 4.5 (selectSoftmax: softmax probabilities): the top k of
// score + the selection bias (none under noSelectBias; group-limited
// where openGroups), weighted by their scores, renormalised under
// normTopK (by their sum + 1e-20 as transformers, or routeEps; ERNIE's by
// max(sum, normMin)), σ's × routedScale. It returns the weights [1, k]
// and the chosen experts [k].
func (g *builder) biasRoute(i int, scores *ir.Value) (vals, idx *ir.Value) {
	s := g.s
	ne, k := s.experts, s.topK
	choice := scores
	if !s.noSelectBias {
		choice = g.add(scores, g.reshape(g.weight(g.n.of(i, roleRouterSelect), ne), 1, ne))
	}
	if s.openGroups > 0 {
		choice = g.groupLimited(choice)
	}
	top := g.create(graph.TopKName, []*ir.Value{choice}, nil, g.intAttr("k", int64(k)))
	idx = g.reshape(top.Result(1), k)
	vals = g.reshape(g.gather(g.reshape(scores, ne), idx, 0), 1, k)
	if s.selectSoftmax {
		return g.div(vals, g.op(graph.MaxName, nil, g.sum(vals, true, -1), g.scalar(s.normMin))), idx
	}
	if s.normTopK {
		eps := s.routeEps
		if eps == 0 {
			eps = 1e-20
		}
		vals = g.div(vals, g.add(g.sum(vals, true, -1), g.scalar(eps)))
	}
	return g.mul(vals, g.scalar(s.routedScale)), idx
}

// groupLimited is DeepSeek's group-limited routing of scores [1,
// experts]: the experts in s.groups equal groups, each group ranked by
// the sum of its two best scores (V3) or by its best (V2, groupByMax);
// the scores outside the s.openGroups best groups set to 0 (not −∞, as
// transformers' masked_fill). A group tied with the last open one opens
// too (transformers' topk opens exactly openGroups).
func (g *builder) groupLimited(scores *ir.Value) *ir.Value {
	s := g.s
	per := s.experts / s.groups
	byGroup := g.reshape(scores, s.groups, per)
	best := 2
	if s.groupByMax {
		best = 1
	}
	top := g.create(graph.TopKName, []*ir.Value{byGroup}, nil, g.intAttr("k", int64(best))).Result(0)
	rank := g.reshape(g.sum(top, false, 1), 1, s.groups)
	open := g.create(graph.TopKName, []*ir.Value{rank}, nil, g.intAttr("k", int64(s.openGroups))).Result(0)
	isOpen := g.cmp(graph.CmpGE, g.reshape(rank, s.groups, 1), g.slice(open, 1, s.openGroups-1, 1))
	return g.reshape(g.sel(isOpen, byGroup, g.scalar(0)), 1, s.experts)
}

// experts applies the chosen experts' projection role ([experts, out, in])
// to x: x [1, in] for every expert, or [K, in] one row per chosen expert.
// Only the K chosen experts' weights are read (graph.gather on the stack);
// a quantised stack runs one graph.dequant_matmul per chosen expert (each
// expert's blocks a whole matrix, so a q6_k stack read as q6_k_c16 is
// rearranged expert by expert: ref.QuantUse.Stacked). The result is
// [K, out].
func (g *builder) experts(i int, role string, x, idx *ir.Value, out, in int) *ir.Value {
	return g.expertsNamed(g.n.of(i, role), x, idx, out, in)
}

// expertsNamed is experts on the [experts, out, in] table name: a `*`
// stack of per-expert tensors, or one tensor holding every expert.
func (g *builder) expertsNamed(name string, x, idx *ir.Value, out, in int) *ir.Value {
	s := g.s
	info := g.info(name)
	want := []int{s.experts, out, in}
	if s.expertsInOut {
		want = []int{s.experts, in, out}
	}
	if !sameSqueezed(info.Shape, want) {
		g.fail("%s: tensor %q is %s, expected shape %v", info.File, name, info, want)
	}
	rows := shapeInts(x)[0]
	if info.Quant.Valid() {
		per := out * (in / info.Quant.BlockSize()) * info.Quant.BlockBytes()
		chosen := g.gather(g.reshape(g.quantParam(name, info), s.experts, per), idx, 0)
		parts := make([]*ir.Value, s.topK)
		for j := range parts {
			xj := x
			if rows > 1 {
				xj = g.slice(x, 0, j, 1)
			}
			parts[j] = g.dequantMatMul(xj, g.reshape(g.slice(chosen, 0, j, 1), per), g.readAs(info.Quant), out, in)
		}
		return g.concat(0, parts...)
	}
	if s.expertsInOut {
		// Qwen3-VL-MoE's and Llama 4's fused tables as published, [E, in, out].
		w, _ := g.param(name, s.experts, in, out)
		if rows == 1 {
			x = g.broadcast(x, s.topK, in)
		}
		return g.reshape(g.matmul(g.reshape(x, s.topK, 1, in), g.gather(w, idx, 0)), s.topK, out)
	}
	w, _ := g.param(name, want...)
	if !slices.Equal(shapeInts(w), want) {
		w = g.reshape(w, want...)
	}
	chosen := g.gather(w, idx, 0) // [K, out, in]
	return g.reshape(g.matmul(chosen, g.reshape(x, rows, in, 1)), s.topK, out)
}

// ossMoE is gpt-oss's experts block for one token: the router's logits
// (with its bias), graph.topk of them, a softmax over the k chosen, and
// each chosen expert's down((up + 1)·g·σ(1.702·g)) + b, where gate_up
// [E, H, 2I] (rows the input's, its columns gate and up interleaved)
// gives g (clamped above at swiglu_limit) and up (clamped to
// ±swiglu_limit) with its bias, and down_proj is [E, I, H] (or both
// [E, out, in] in MXFP4 blocks); their weighted sum.
func (g *builder) ossMoE(i int, h *ir.Value) *ir.Value {
	s := g.s
	e, ne, k, f := s.hidden, s.experts, s.topK, s.moeFFN
	logits := g.add(g.linear(h, g.n.of(i, roleRouter), ne, e), g.reshape(g.weight(g.n.of(i, roleRouterBias), ne), 1, ne))
	top := g.create(graph.TopKName, []*ir.Value{logits}, nil, g.intAttr("k", int64(k)))
	vals := g.op(graph.SoftmaxName, []ir.NamedAttr{g.intAttr("axis", -1)}, top.Result(0))
	idx := g.reshape(top.Result(1), k)
	// proj applies the k chosen experts' matrices of role to x [k, in]:
	// [E, in, out] as transformers' parameters hold them, or [E, out, in]
	// in MXFP4 blocks as the published checkpoints' pairs are (the weight
	// source lays them out as GGUF's: Info.Type weights.TypeMXFP4), read
	// in place by graph.dequant_matmul. bias is their [out] biases.
	proj := func(role string, x *ir.Value, in, out int) *ir.Value {
		name := g.n.of(i, role)
		if g.info(name).Type == weights.TypeMXFP4 {
			return g.expertsNamed(name, x, idx, out, in)
		}
		w, _ := g.param(name, ne, in, out)
		return g.reshape(g.matmul(g.reshape(x, k, 1, in), g.gather(w, idx, 0)), k, out)
	}
	bias := func(role string, cols int) *ir.Value {
		b, _ := g.param(g.n.of(i, role), ne, cols)
		if b = g.gather(b, idx, 0); elemOf(b) != g.f32 {
			b = g.cast(b, g.f32)
		}
		return b
	}
	var gate, up, y *ir.Value
	if fused, ok := g.n.lookup(i, roleExpertGateUpFused); ok && g.has(fused) {
		gu := g.add(proj(roleExpertGateUpFused, g.broadcast(h, k, e), e, 2*f), bias(roleExpertGateUpBias, 2*f))
		pairs := g.reshape(gu, k, f, 2)
		gate = g.reshape(g.slice(pairs, 2, 0, 1), k, f)
		up = g.reshape(g.slice(pairs, 2, 1, 1), k, f)
	} else {
		// llama.cpp's: the gate's and up's [E, I, H] apart, each with its
		// bias (quantised or decoded like any expert stack).
		gate = g.add(g.experts(i, roleExpertGate, h, idx, f, e), bias(roleExpertGateBias, f))
		up = g.add(g.experts(i, roleExpertUp, h, idx, f, e), bias(roleExpertUpBias, f))
	}
	limit := g.scalar(s.swigluLimit)
	gate = g.op(graph.MinName, nil, gate, limit)
	up = g.op(graph.MaxName, nil, g.op(graph.MinName, nil, up, limit), g.scalar(-s.swigluLimit))
	glu := g.mul(gate, g.sigmoid(g.mul(gate, g.scalar(1.702))))
	act := g.mul(g.add(up, g.scalar(1)), glu)
	if down, ok := g.n.lookup(i, roleExpertDownFused); ok && g.has(down) {
		y = g.add(proj(roleExpertDownFused, act, f, e), bias(roleExpertDownBias, e))
	} else {
		y = g.add(g.experts(i, roleExpertDown, act, idx, e, f), bias(roleExpertDownBias, e))
	}
	return g.reshape(g.sum(g.mul(y, g.reshape(vals, k, 1)), false, 0), 1, e)
}

// publishedExperts says whether a checkpoint's fused experts are in the
// layout of Qwen3-VL-MoE's and Llama 4's published files, [E, in, out]
// (down_proj [E, I, H]), rather than transformers 5's [E, out, in]
// (down_proj [E, H, I], as its save_pretrained writes them): read from
// the first routed layer's down_proj; where I = H the two cannot be told
// apart and transformers 5's is taken.
func publishedExperts(s *spec, n naming, src *weights.Source) bool {
	first := slices.Index(s.moeLayer, true)
	if first < 0 || s.moeFFN == s.hidden {
		return false
	}
	name, ok := n.lookup(first, roleExpertDownFused)
	info, found := src.Info(name)
	return ok && found && sameSqueezed(info.Shape, []int{s.experts, s.moeFFN, s.hidden})
}
