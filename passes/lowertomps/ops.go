package lowertomps

import (
	"math"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/dialect/mps"
	"github.com/rlx-compiler/rlx/ir"
)

// The one-to-one rules: leaves, element-wise ops and data movement, each
// one primitive with the same semantics on the types the capability table
// admits. The interpreter gives these the graph op's bits exactly.

func lowerParam(l *builder, op *ir.Operation, _ Options) *ir.Value {
	p, _ := graph.AsParam(op)
	return l.prim(mps.PlaceholderName, nil, op.Result(0).Type(),
		ir.NamedAttr{Name: "name", Value: l.ctx.StringAttr(p.Name())})
}

func lowerConstant(l *builder, op *ir.Operation, _ Options) *ir.Value {
	return l.constant(op.Attr("value"))
}

func oneToOne(name string) rule {
	return func(l *builder, op *ir.Operation, _ Options) *ir.Value {
		return l.prim(name, op.Operands(), nil)
	}
}

func lowerCast(l *builder, op *ir.Operation, _ Options) *ir.Value {
	return l.prim(mps.CastName, op.Operands(), op.Result(0).Type())
}

func lowerReshape(l *builder, op *ir.Operation, _ Options) *ir.Value {
	return l.prim(mps.ReshapeName, op.Operands(), op.Result(0).Type())
}

func lowerBroadcast(l *builder, op *ir.Operation, _ Options) *ir.Value {
	return l.prim(mps.BroadcastName, op.Operands(), op.Result(0).Type())
}

// lowerMatMul casts an f16 or bf16 operand to f32 when the other is f32
// (graph.matmul allows the mix, MPSGraph does not): the cast is exact, so
// the product keeps its bits.
func lowerMatMul(l *builder, op *ir.Operation, _ Options) *ir.Value {
	a, b := op.Operand(0), op.Operand(1)
	if elemOf(a) != elemOf(b) {
		a, b = l.f32(a), l.f32(b)
	}
	return l.prim(mps.MatMulName, []*ir.Value{a, b}, nil)
}

func lowerTranspose(l *builder, op *ir.Operation, _ Options) *ir.Value {
	t, _ := graph.AsTranspose(op)
	perm := t.Permutation()
	r := int64(len(perm))
	norm := make([]int64, len(perm))
	for i, p := range perm {
		if p < 0 {
			p += r
		}
		norm[i] = p
	}
	return l.permute(op.Operand(0), norm)
}

func lowerConcat(l *builder, op *ir.Operation, _ Options) *ir.Value {
	c, _ := graph.AsConcat(op)
	return l.concat(int64(c.Axis()), op.Operands()...)
}

func lowerGather(l *builder, op *ir.Operation, _ Options) *ir.Value {
	g, _ := graph.AsGather(op)
	return l.prim(mps.GatherName, op.Operands(), nil, l.i64("axis", int64(g.Axis())), l.i64("batch_dimensions", 0))
}

func lowerSlice(l *builder, op *ir.Operation, _ Options) *ir.Value {
	s, _ := graph.AsSlice(op)
	return l.slice(op.Operand(0), int64(s.Axis()), s.Start(), s.Length())
}

func lowerSoftmax(l *builder, op *ir.Operation, _ Options) *ir.Value {
	s, _ := graph.AsSoftmax(op)
	return l.prim(mps.SoftmaxName, op.Operands(), nil, l.i64("axis", int64(s.Axis())))
}

// lowerReduce maps sum, max, min and prod to their reductions; mean is a
// sum divided by the count (MPSGraph's own mean failed in RLX's fused
// normalisation, reference/rlx.md §2), computed in f32 and rounded once.
// MPSGraph's reductions keep the reduced axes, so without keep_dims a
// reshape drops them; a reduction over no axes is a reshape alone.
func lowerReduce(l *builder, op *ir.Operation, _ Options) *ir.Value {
	r, _ := graph.AsReduce(op)
	x := op.Operand(0)
	res := op.Result(0).Type().(*ir.RankedTensorType)
	axes := r.Axes()
	if len(axes) == 0 {
		return l.reshape(x, res.Shape)
	}
	ax := make([]int64, len(axes))
	count := int64(1)
	for i, a := range axes {
		ax[i] = int64(a)
		count *= shapeOf(x)[a]
	}
	var y *ir.Value
	switch r.Kind() {
	case graph.ReduceSum:
		y = l.reduceSum(x, ax...)
	case graph.ReduceMax:
		y = l.prim(mps.ReduceMaxName, []*ir.Value{x}, nil, l.i64s("axes", ax))
	case graph.ReduceMin:
		y = l.prim(mps.ReduceMinName, []*ir.Value{x}, nil, l.i64s("axes", ax))
	case graph.ReduceProd:
		y = l.prim(mps.ReduceProdName, []*ir.Value{x}, nil, l.i64s("axes", ax))
	case graph.ReduceMean:
		s := l.reduceSum(l.f32(x), ax...)
		y = l.cast(l.div(s, l.scalar(l.ctx.F32(), float64(count))), res.Elem)
	default:
		panic(lowerBug{errUnknown("reduce kind", string(r.Kind()))})
	}
	if !r.KeepDims() {
		y = l.reshape(y, res.Shape)
	}
	return y
}

// lowerSilu is x·sigmoid(x).
func lowerSilu(l *builder, op *ir.Operation, _ Options) *ir.Value {
	x := op.Operand(0)
	xf := l.f32(x)
	return l.cast(l.mul(xf, l.unary(mps.SigmoidName, xf)), elemOf(x))
}

// lowerGelu is 0.5·x·(1+erf(x·(1/√2))).
func lowerGelu(l *builder, op *ir.Operation, _ Options) *ir.Value {
	x := op.Operand(0)
	xf := l.f32(x)
	f32 := l.ctx.F32()
	e := l.unary(mps.ErfName, l.mul(xf, l.scalar(f32, 1/math.Sqrt2)))
	y := l.mul(l.mul(xf, l.add(e, l.scalar(f32, 1))), l.scalar(f32, 0.5))
	return l.cast(y, elemOf(x))
}

// lowerGeluTanh is 0.5·x·(1+tanh(√(2/π)·(x+0.044715·x³))).
func lowerGeluTanh(l *builder, op *ir.Operation, _ Options) *ir.Value {
	x := op.Operand(0)
	xf := l.f32(x)
	f32 := l.ctx.F32()
	x3 := l.mul(l.mul(xf, xf), xf)
	inner := l.add(xf, l.mul(x3, l.scalar(f32, 0.044715)))
	t := l.unary(mps.TanhName, l.mul(inner, l.scalar(f32, math.Sqrt(2/math.Pi))))
	y := l.mul(l.mul(xf, l.add(t, l.scalar(f32, 1))), l.scalar(f32, 0.5))
	return l.cast(y, elemOf(x))
}

type errUnknownT struct{ what, v string }

func (e errUnknownT) Error() string { return "unknown " + e.what + " \"" + e.v + "\"" }

func errUnknown(what, v string) error { return errUnknownT{what, v} }
