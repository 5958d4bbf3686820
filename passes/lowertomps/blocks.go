package lowertomps

import (
	"math"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/dialect/mps"
	"github.com/rlx-compiler/rlx/ir"
)

// The decompositions. Each computes in f32 (casting f16 and bf16 operands
// up, the result down once at the end) and takes its steps in the order
// and with the roundings of the graph op's kernel
// (docs/runtime-kernels.md), so that on the interpreter most give the
// graph op's bits; where a step cannot match (erf for gelu's erfc, a
// sigmoid rounded before the product in silu), results stay within a few
// ulps.

// lowerRMSNorm is x·rsqrt(Σx²/D + ε)·γ over the last axis.
func lowerRMSNorm(l *builder, op *ir.Operation, _ Options) *ir.Value {
	n, _ := graph.AsRMSNorm(op)
	x := l.f32(op.Operand(0))
	last := int64(rankOf(x) - 1)
	d := float64(shapeOf(x)[last])
	f32 := l.ctx.F32()
	ss := l.reduceSum(l.unary(mps.SquareName, x), last)
	r := l.unary(mps.RsqrtName, l.add(l.div(ss, l.scalar(f32, d)), l.scalar(f32, n.Epsilon())))
	y := l.mul(l.mul(x, r), l.f32(op.Operand(1)))
	return l.cast(y, elemOf(op.Result(0)))
}

// lowerLayerNorm is (x−mean)·rsqrt(var+ε)·γ+β over the last axis, with
// the biased variance of the centred values.
func lowerLayerNorm(l *builder, op *ir.Operation, _ Options) *ir.Value {
	n, _ := graph.AsLayerNorm(op)
	x := l.f32(op.Operand(0))
	last := int64(rankOf(x) - 1)
	f32 := l.ctx.F32()
	dim := l.scalar(f32, float64(shapeOf(x)[last]))
	mean := l.div(l.reduceSum(x, last), dim)
	c := l.sub(x, mean)
	v := l.div(l.reduceSum(l.unary(mps.SquareName, c), last), dim)
	r := l.unary(mps.RsqrtName, l.add(v, l.scalar(f32, n.Epsilon())))
	y := l.add(l.mul(l.mul(c, r), l.f32(op.Operand(1))), l.f32(op.Operand(2)))
	return l.cast(y, elemOf(op.Result(0)))
}

// lowerRope rotates the first R dims of each head of a packed [B, S, H·D]
// input: viewed as [B, S, H, D], the rotated part is split into its pairs
// (halves for neox; even and odd elements, by strided slices, for gptj),
// x1' = x1·c − x2·s and x2' = x2·c + x1·s with cos and sin [S, R/2]
// reshaped to [S, 1, R/2] (MPSGraph left-pads them to [1, S, 1, R/2]),
// and the pairs are put back (concatenated, or interleaved through a
// trailing axis of 2).
func lowerRope(l *builder, op *ir.Operation, _ Options) *ir.Value {
	r, _ := graph.AsRope(op)
	x := l.f32(op.Operand(0))
	xs := shapeOf(x)
	D, R := r.HeadDim(), r.RotaryDim()
	B, S, H := xs[0], xs[1], xs[2]/D
	half := R / 2
	x4 := l.reshape(x, []int64{B, S, H, D})
	rot := x4
	if R < D {
		rot = l.slice(x4, 3, 0, R)
	}
	c := l.reshape(l.f32(op.Operand(1)), []int64{S, 1, half})
	s := l.reshape(l.f32(op.Operand(2)), []int64{S, 1, half})
	var x1, x2 *ir.Value
	if r.Style() == graph.RopeGPTJ {
		strided := func(first int64) *ir.Value {
			return l.prim(mps.StridedSliceName, []*ir.Value{rot}, nil,
				l.i64s("starts", []int64{0, 0, 0, first}), l.i64s("ends", []int64{B, S, H, R}), l.i64s("strides", []int64{1, 1, 1, 2}))
		}
		x1, x2 = strided(0), strided(1)
	} else {
		x1, x2 = l.slice(rot, 3, 0, half), l.slice(rot, 3, half, half)
	}
	y1 := l.sub(l.mul(x1, c), l.mul(x2, s))
	y2 := l.add(l.mul(x2, c), l.mul(x1, s))
	var y *ir.Value
	if r.Style() == graph.RopeGPTJ {
		pair := []int64{B, S, H, half, 1}
		y = l.concat(4, l.reshape(y1, pair), l.reshape(y2, pair))
		if R == D {
			return l.cast(l.reshape(y, xs), elemOf(op.Result(0)))
		}
		y = l.reshape(y, []int64{B, S, H, R})
	} else {
		y = l.concat(3, y1, y2)
	}
	if R < D {
		y = l.concat(3, y, l.slice(x4, 3, R, D-R))
	}
	return l.cast(l.reshape(y, xs), elemOf(op.Result(0)))
}

// lowerAttention writes attention out by hand: q, k, v [B, S, H, D] to
// [B, H, S, D] (kv heads repeated for GQA), scores q·kᵀ, times the scale,
// the softcap c·tanh(s/c), the mask as a select of −∞ on dropped keys,
// softmax over the keys, times v, and back to [B, Sq, H, Dv]. With the
// sdpa option (and no softcap) the middle is MPSGraph's own SDPA with an
// additive 0/−∞ mask.
func lowerAttention(l *builder, op *ir.Operation, opts Options) *ir.Value {
	a, _ := graph.AsAttention(op)
	f32 := l.ctx.F32()
	q, k, v := l.f32(a.Q()), l.f32(a.K()), l.f32(a.V())
	qs, ks := shapeOf(q), shapeOf(k)
	B, Sq, H := qs[0], qs[1], qs[2]
	Sk, Hkv := ks[1], ks[2]
	heads := func(x *ir.Value) *ir.Value {
		if Hkv != H {
			s := shapeOf(x)
			g := H / Hkv
			x = l.reshape(x, []int64{s[0], s[1], Hkv, 1, s[3]})
			x = l.broadcast(x, []int64{s[0], s[1], Hkv, g, s[3]})
			x = l.reshape(x, []int64{s[0], s[1], H, s[3]})
		}
		return x
	}
	qh := l.permute(q, []int64{0, 2, 1, 3})         // [B, H, Sq, D]
	vh := l.permute(heads(v), []int64{0, 2, 1, 3})  // [B, H, Sk, Dv]
	scale := float64(float32(a.Scale()))            // the kernel's float32(1/√D)
	keep, anyKept := attentionKeep(l, a, B, Sq, Sk) // i1, broadcasting to [B, H, Sq, Sk], or nil
	out := func(o *ir.Value) *ir.Value {
		if anyKept != nil {
			// A query that keeps no key gives zeros, as the graph op
			// defines it; the softmax alone would give NaN.
			o = l.prim(mps.SelectName, []*ir.Value{anyKept, o, l.scalar(f32, 0)}, nil)
		}
		return l.cast(l.permute(o, []int64{0, 2, 1, 3}), elemOf(op.Result(0)))
	}
	if opts.SDPA && a.Softcap() == 0 {
		kh := l.permute(heads(k), []int64{0, 2, 1, 3}) // [B, H, Sk, D]
		operands := []*ir.Value{qh, kh, vh}
		if keep != nil {
			operands = append(operands, l.prim(mps.SelectName,
				[]*ir.Value{keep, l.scalar(f32, 0), l.scalar(f32, math.Inf(-1))}, nil))
		}
		return out(l.prim(mps.SDPAName, operands, nil, ir.NamedAttr{Name: "scale", Value: l.ctx.FloatAttr(f32, scale)}))
	}
	kt := l.permute(heads(k), []int64{0, 2, 3, 1}) // [B, H, D, Sk]
	s := l.mul(l.prim(mps.MatMulName, []*ir.Value{qh, kt}, nil), l.scalar(f32, scale))
	if c := a.Softcap(); c != 0 {
		cv := l.scalar(f32, c)
		s = l.mul(l.unary(mps.TanhName, l.div(s, cv)), cv)
	}
	if keep != nil {
		s = l.prim(mps.SelectName, []*ir.Value{keep, s, l.scalar(f32, math.Inf(-1))}, nil)
	}
	p := l.prim(mps.SoftmaxName, []*ir.Value{s}, nil, l.i64("axis", 3))
	return out(l.prim(mps.MatMulName, []*ir.Value{p, vh}, nil)) // [B, H, Sq, Dv]
}

// attentionKeep returns which keys each query keeps, as an i1 tensor that
// broadcasts to the scores [B, H, Sq, Sk], or nil when all are kept:
// causal is a constant [Sq, Sk] (query i at Sk−Sq+i keeps keys j ≤ it);
// a custom mask [B, Sk] keeps keys with a value ≥ 0.5 (floats) or ≠ 0
// (integers), reshaped to [B, 1, 1, Sk]. For a custom mask, anyKept says per
// batch [B, 1, 1, 1] whether any key is kept (causal with Sq ≤ Sk always
// keeps one).
func attentionKeep(l *builder, a graph.Attention, B, Sq, Sk int64) (keep, anyKept *ir.Value) {
	switch a.MaskKind() {
	case graph.MaskCausal:
		vals := make([]int64, Sq*Sk)
		for i := range Sq {
			for j := range Sk {
				if j <= Sk-Sq+i {
					vals[i*Sk+j] = 1
				}
			}
		}
		return l.constant(l.ctx.DenseInts(l.ctx.TensorType([]int64{Sq, Sk}, l.ctx.I1()), vals)), nil
	case graph.MaskCustom:
		m := a.Mask()
		if ir.IsFloat(elemOf(m)) {
			keep = l.binary(mps.GreaterEqualName, m, l.scalar(elemOf(m), 0.5))
		} else {
			keep = l.binary(mps.NotEqualName, m, l.scalar(elemOf(m), 0))
		}
		keep = l.reshape(keep, []int64{B, 1, 1, Sk})
		f32 := l.ctx.F32()
		kept := l.reduceSum(l.cast(keep, f32), 3)
		return keep, l.binary(mps.GreaterName, kept, l.scalar(f32, 0))
	}
	return nil, nil
}
