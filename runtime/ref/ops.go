package ref

import (
	"fmt"
	"strings"
	"sync"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/kernels"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// build returns the kernel call of one graph op with its attributes
// decoded once, here, so a run does no attribute lookups. inT and outT are
// the operand and result types.
func build(op *ir.Operation, inT, outT []TensorType) (execFn, error) {
	name, ok := strings.CutPrefix(op.Name(), "graph.")
	if !ok {
		return nil, ir.OpError(op, "is not supported by the reference interpreter")
	}
	if len(outT) == 0 {
		return nil, ir.OpError(op, "has no result to compute")
	}
	if f := kernels.UnaryFunc(kernels.UnaryOp(name)); f != nil {
		k, dt := kernels.UnaryOp(name), outT[0].DType
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.Unary(k, in[0], dt) }), nil
	}
	if f := kernels.BinaryFunc(kernels.BinaryOp(name)); f != nil {
		k, dt := kernels.BinaryOp(name), outT[0].DType
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.Binary(k, in[0], in[1], dt) }), nil
	}
	dt := outT[0].DType
	switch op.Name() {
	case graph.ConstantName:
		// The value is checked here but materialised when the constant
		// first runs, so that compiling allocates nothing and a run can be
		// refused (Program.Memory) before a huge splat is expanded.
		c, _ := graph.AsConstant(op)
		if _, _, _, err := constantData(op.Context(), c.Value(), outT[0]); err != nil {
			return nil, err
		}
		var once sync.Once
		var t *tensor.Tensor
		var err error
		return func(_ *env, _, out []*tensor.Tensor) error {
			once.Do(func() { t, err = constantTensor(op.Context(), c.Value(), outT[0]) })
			out[0] = t
			return err
		}, nil
	case graph.CmpName:
		c, _ := graph.AsCmp(op)
		a := kernels.CmpAttrs{Predicate: kernels.Predicate(c.Predicate())}
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.Cmp(in[0], in[1], a) }), nil
	case graph.SelectName:
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.Select(in[0], in[1], in[2], dt) }), nil
	case graph.CastName:
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.Cast(in[0], dt) }), nil
	case graph.MatMulName:
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.MatMul(in[0], in[1], dt) }), nil
	case graph.RMSNormName:
		v, _ := graph.AsRMSNorm(op)
		a := kernels.NormAttrs{Epsilon: float32(v.Epsilon())}
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.RMSNorm(in[0], in[1], a, dt) }), nil
	case graph.LayerNormName:
		v, _ := graph.AsLayerNorm(op)
		a := kernels.NormAttrs{Epsilon: float32(v.Epsilon())}
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) {
			return kernels.LayerNorm(in[0], in[1], in[2], a, dt)
		}), nil
	case graph.SoftmaxName:
		v, _ := graph.AsSoftmax(op)
		a := kernels.SoftmaxAttrs{Axis: v.Axis()}
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.Softmax(in[0], a, dt) }), nil
	case graph.ReduceName:
		v, _ := graph.AsReduce(op)
		a := kernels.ReduceAttrs{Kind: kernels.ReduceKind(v.Kind()), Axes: v.Axes(), KeepDims: v.KeepDims()}
		if a.Axes == nil {
			a.Axes = []int{}
		}
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.Reduce(in[0], a, dt) }), nil
	case graph.ReshapeName:
		shape, err := targetShape(outT[0], true)
		if err != nil {
			return nil, err
		}
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.Reshape(in[0], shape) }), nil
	case graph.BroadcastName:
		shape, err := targetShape(outT[0], false)
		if err != nil {
			return nil, err
		}
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.Broadcast(in[0], shape) }), nil
	case graph.TransposeName:
		v, _ := graph.AsTranspose(op)
		a := kernels.TransposeAttrs{Permutation: ints(v.Permutation())}
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.Transpose(in[0], a) }), nil
	case graph.SliceName:
		v, _ := graph.AsSlice(op)
		a := kernels.SliceAttrs{Axis: v.Axis(), Start: int(v.Start()), Length: int(v.Length()), Step: int(v.Step())}
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.Slice(in[0], a) }), nil
	case graph.ConcatName:
		v, _ := graph.AsConcat(op)
		a := kernels.ConcatAttrs{Axis: v.Axis()}
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) {
			// The kernel keeps no reference to the slice, so the scratch
			// operand slice can be passed as is.
			return kernels.Concat(in, a)
		}), nil
	case graph.GatherName:
		v, _ := graph.AsGather(op)
		a := kernels.GatherAttrs{Axis: v.Axis()}
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.Gather(in[0], in[1], a) }), nil
	case graph.RopeName:
		v, _ := graph.AsRope(op)
		a := kernels.RopeAttrs{HeadDim: int(v.HeadDim()), RotaryDim: int(v.RotaryDim()), Style: kernels.RopeStyle(v.Style())}
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) { return kernels.Rope(in[0], in[1], in[2], a, dt) }), nil
	case graph.AttentionName:
		v, _ := graph.AsAttention(op)
		a := kernels.AttentionAttrs{Mask: kernels.MaskKind(v.MaskKind()), Window: int(v.Window()), Softcap: float32(v.Softcap())}
		if s, ok := op.Attr("scale").(*ir.FloatAttr); ok {
			a.Scale = float32(s.Float())
		}
		return one(func(in []*tensor.Tensor) (*tensor.Tensor, error) {
			return kernels.Attention(in[0], in[1], in[2], opt(in, 3), a, dt)
		}), nil
	case graph.GatedDeltaNetName:
		v, _ := graph.AsGatedDeltaNet(op)
		a := kernels.GatedDeltaNetAttrs{GatePerChannel: v.GatePerChannel()}
		return multi(outT, func(in, out []*tensor.Tensor, dt tensor.DType) (err error) {
			out[0], out[1], err = kernels.GatedDeltaNet(in[0], in[1], in[2], in[3], in[4], opt(in, 5), a, dt)
			return err
		}), nil
	case graph.LSTMName:
		return multi(outT, func(in, out []*tensor.Tensor, dt tensor.DType) (err error) {
			out[0], out[1], out[2], err = kernels.LSTM(in[0], in[1], in[2], in[3], opt(in, 4), opt(in, 5), dt)
			return err
		}), nil
	case graph.TopKName:
		v, _ := graph.AsTopK(op)
		a := kernels.TopKAttrs{K: int(v.K())}
		// The indices are always i32; only the values take the result's type.
		return func(_ *env, in, out []*tensor.Tensor) (err error) {
			out[0], out[1], err = kernels.TopK(in[0], a, dt)
			return err
		}, nil
	case graph.DequantMatMulName:
		v, _ := graph.AsDequantMatMul(op)
		f, err := gguf.ParseFormat(string(v.Format()))
		if err != nil {
			return nil, err
		}
		a := kernels.DequantMatMulAttrs{Format: f, N: int(v.N()), K: int(v.K())}
		return func(_ *env, in, out []*tensor.Tensor) error {
			r, err := kernels.DequantMatMul(in[0], in[1], a)
			if err == nil && dt != tensor.F32 {
				r, err = kernels.Cast(r, dt)
			}
			out[0] = r
			return err
		}, nil
	}
	return nil, ir.OpError(op, "is not supported by the reference interpreter")
}

// one adapts a single-result kernel call.
func one(f func(in []*tensor.Tensor) (*tensor.Tensor, error)) execFn {
	return func(_ *env, in, out []*tensor.Tensor) (err error) {
		out[0], err = f(in)
		return err
	}
}

// multi adapts a multi-result kernel, which takes one element type for all
// its results: the common type when the results agree, else f32 and a
// cast of each result (rounding once from float32 gives the same bits as
// rounding inside the kernel).
func multi(outT []TensorType, f func(in, out []*tensor.Tensor, dt tensor.DType) error) execFn {
	dt, same := outT[0].DType, true
	for _, t := range outT {
		same = same && t.DType == dt
	}
	if same {
		return func(_ *env, in, out []*tensor.Tensor) error { return f(in, out, dt) }
	}
	return func(_ *env, in, out []*tensor.Tensor) error {
		if err := f(in, out, tensor.F32); err != nil {
			return err
		}
		for i, t := range outT {
			if t.DType == tensor.F32 {
				continue
			}
			r, err := kernels.Cast(out[i], t.DType)
			if err != nil {
				return err
			}
			out[i] = r
		}
		return nil
	}
}

// opt returns optional operand i, or nil when absent.
func opt(in []*tensor.Tensor, i int) *tensor.Tensor {
	if i < len(in) {
		return in[i]
	}
	return nil
}

func ints(v []int64) []int {
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(x)
	}
	return out
}

// targetShape returns the shape a reshape or broadcast produces, from its
// result type. A reshape may leave one dim dynamic (the kernel infers it).
func targetShape(t TensorType, allowOne bool) ([]int, error) {
	dyn := 0
	for _, d := range t.Shape {
		if d < 0 {
			dyn++
		}
	}
	if dyn > 1 || dyn == 1 && !allowOne {
		return nil, fmt.Errorf("result type %v has too many dynamic dims to run", t)
	}
	return t.Shape, nil
}
