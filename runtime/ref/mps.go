package ref

import (
	"github.com/rlx-compiler/rlx/dialect/mps"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/kernels"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// The mps dialect's primitives run with MPSGraph's semantics (see
// docs/dialects/mps.md), each as one or a few kernel calls: MPSGraph's
// broadcasting is NumPy's, which the kernels implement; a reduction keeps
// its reduced axes; a slice start may count from the end. Where MPSGraph
// leaves a behaviour to the hardware (an out-of-range gather index, an
// integer division by zero) the interpreter reports an error, as for the
// graph ops.

// mpsUnary maps unary primitives to their kernels.
var mpsUnary = map[string]kernels.UnaryOp{
	mps.NegName: kernels.Neg, mps.AbsName: kernels.Abs, mps.ExpName: kernels.Exp, mps.LogName: kernels.Log,
	mps.SqrtName: kernels.Sqrt, mps.RsqrtName: kernels.Rsqrt, mps.ReciprocalName: kernels.Reciprocal,
	mps.SquareName: kernels.Square, mps.SigmoidName: kernels.Sigmoid, mps.TanhName: kernels.Tanh,
	mps.SinName: kernels.Sin, mps.CosName: kernels.Cos, mps.ReluName: kernels.Relu, mps.ErfName: kernels.Erf,
}

// mpsBinary maps binary primitives to their kernels. max and min map to
// the NaN-propagating MPSGraph methods, which is what the kernels do.
var mpsBinary = map[string]kernels.BinaryOp{
	mps.AddName: kernels.Add, mps.SubName: kernels.Sub, mps.MulName: kernels.Mul, mps.DivName: kernels.Div,
	mps.MaxName: kernels.Max, mps.MinName: kernels.Min, mps.PowName: kernels.Pow,
}

var mpsCompare = map[string]kernels.Predicate{
	mps.EqualName: kernels.Eq, mps.NotEqualName: kernels.Ne, mps.LessName: kernels.Lt,
	mps.LessEqualName: kernels.Le, mps.GreaterName: kernels.Gt, mps.GreaterEqualName: kernels.Ge,
}

var mpsReduce = map[string]kernels.ReduceKind{
	mps.ReduceSumName: kernels.ReduceSum, mps.ReduceMaxName: kernels.ReduceMax, mps.ReduceMinName: kernels.ReduceMin,
	mps.ReduceProdName: kernels.ReduceProd, mps.MeanName: kernels.ReduceMean,
}

func attrI64(op *ir.Operation, name string) int {
	if a, ok := op.Attr(name).(*ir.IntegerAttr); ok {
		return int(a.Value)
	}
	return 0
}

func attrInts(op *ir.Operation, name string) []int {
	a, ok := op.Attr(name).(*ir.DenseArrayAttr)
	if !ok {
		return []int{}
	}
	return ints(a.Ints)
}

// buildMPS returns the kernel call of one primitive of the mps dialect.
func buildMPS(op *ir.Operation, inT, outT []TensorType) (execFn, error) {
	name, dt := op.Name(), outT[0].DType
	if k, ok := mpsUnary[name]; ok {
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.Unary(k, in[0], dt) }), nil
	}
	if k, ok := mpsBinary[name]; ok {
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.Binary(k, in[0], in[1], dt) }), nil
	}
	if p, ok := mpsCompare[name]; ok {
		a := kernels.CmpAttrs{Predicate: p}
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.Cmp(in[0], in[1], a) }), nil
	}
	if k, ok := mpsReduce[name]; ok {
		a := kernels.ReduceAttrs{Kind: k, Axes: attrInts(op, "axes"), KeepDims: true}
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.Reduce(in[0], a, dt) }), nil
	}
	switch name {
	case mps.ConstantName:
		t, err := constantTensor(op.Context(), op.Attr("value"), outT[0])
		if err != nil {
			return nil, err
		}
		return func(_ *env, _, out []*tensor.Tensor) error { out[0] = t; return nil }, nil
	case mps.SelectName:
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.Select(in[0], in[1], in[2], dt) }), nil
	case mps.SoftmaxName:
		a := kernels.SoftmaxAttrs{Axis: attrI64(op, "axis")}
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.Softmax(in[0], a, dt) }), nil
	case mps.MatMulName:
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.MatMul(in[0], in[1], dt) }), nil
	case mps.ReshapeName:
		shape := outT[0].Shape
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.Reshape(in[0], shape) }), nil
	case mps.BroadcastName:
		shape := outT[0].Shape
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.Broadcast(in[0], shape) }), nil
	case mps.TransposeName:
		perm := make([]int, len(inT[0].Shape))
		for i := range perm {
			perm[i] = i
		}
		a, b := attrI64(op, "dimension"), attrI64(op, "with_dimension")
		if a < 0 || a >= len(perm) || b < 0 || b >= len(perm) {
			return nil, ir.OpError(op, "dimensions %d and %d are out of range", a, b)
		}
		perm[a], perm[b] = perm[b], perm[a]
		t := kernels.TransposeAttrs{Permutation: perm}
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.Transpose(in[0], t) }), nil
	case mps.PermuteName:
		t := kernels.TransposeAttrs{Permutation: attrInts(op, "permutation")}
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.Transpose(in[0], t) }), nil
	case mps.SliceName:
		ax, start := attrI64(op, "dimension"), attrI64(op, "start")
		if ax < 0 || ax >= len(inT[0].Shape) {
			return nil, ir.OpError(op, "dimension %d is out of range", ax)
		}
		if start < 0 {
			// MPSGraph counts a negative start from the end of the axis.
			start += inT[0].Shape[ax]
		}
		a := kernels.SliceAttrs{Axis: ax, Start: start, Length: attrI64(op, "length"), Step: 1}
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.Slice(in[0], a) }), nil
	case mps.StridedSliceName:
		return stridedSlice(op, inT[0])
	case mps.ConcatName:
		a := kernels.ConcatAttrs{Axis: attrI64(op, "dimension")}
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.Concat(in, a) }), nil
	case mps.GatherName:
		a := kernels.GatherAttrs{Axis: attrI64(op, "axis")}
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.Gather(in[0], in[1], a) }), nil
	case mps.CastName:
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.Cast(in[0], dt) }), nil
	case mps.SDPAName:
		scale := float32(0)
		if f, ok := op.Attr("scale").(*ir.FloatAttr); ok {
			scale = float32(f.Float())
		}
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return sdpa(in, scale, dt) }), nil
	}
	return nil, ir.OpError(op, "is not supported by the reference interpreter")
}

// stridedSlice runs MPSGraph's strided slice as one kernel slice per axis
// that it narrows.
func stridedSlice(op *ir.Operation, in TensorType) (execFn, error) {
	starts, ends, strides := attrInts(op, "starts"), attrInts(op, "ends"), attrInts(op, "strides")
	if len(starts) != len(in.Shape) || len(ends) != len(in.Shape) || len(strides) != len(in.Shape) {
		return nil, ir.OpError(op, "needs one start, end and stride per axis")
	}
	var steps []kernels.SliceAttrs
	for i, d := range in.Shape {
		first, n := mps.StridedSliceBounds(int64(d), int64(starts[i]), int64(ends[i]), int64(strides[i]))
		if first == 0 && n == int64(d) && strides[i] == 1 {
			continue
		}
		steps = append(steps, kernels.SliceAttrs{Axis: i, Start: int(first), Length: int(n), Step: strides[i]})
	}
	return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) {
		x := in[0]
		for _, s := range steps {
			var err error
			if x, err = kernels.Slice(x, s); err != nil {
				return nil, err
			}
		}
		return x, nil
	}), nil
}

// sdpa computes softmax(q·kᵀ·scale + mask)·v over [B, H, S, D] operands in
// float32, each step one kernel, and rounds the result to dt.
func sdpa(in []*tensor.Tensor, scale float32, dt tensor.DType) (*tensor.Tensor, error) {
	q, k, v := in[0], in[1], in[2]
	kt, err := kernels.Transpose(k, kernels.TransposeAttrs{Permutation: []int{0, 1, 3, 2}})
	if err != nil {
		return nil, err
	}
	s, err := kernels.MatMul(q, kt, tensor.F32)
	if err != nil {
		return nil, err
	}
	sc, err := tensor.FromFloat32(tensor.F32, nil, []float32{scale})
	if err != nil {
		return nil, err
	}
	if s, err = kernels.Binary(kernels.Mul, s, sc, tensor.F32); err != nil {
		return nil, err
	}
	if len(in) > 3 {
		if s, err = kernels.Binary(kernels.Add, s, in[3], tensor.F32); err != nil {
			return nil, err
		}
	}
	if s, err = kernels.Softmax(s, kernels.SoftmaxAttrs{Axis: -1}, tensor.F32); err != nil {
		return nil, err
	}
	return kernels.MatMul(s, v, dt)
}
