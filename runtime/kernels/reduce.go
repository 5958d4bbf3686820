package kernels

import (
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// ReduceKind names a graph.reduce kind.
type ReduceKind string

// The reduction kinds.
const (
	ReduceSum  ReduceKind = "sum"
	ReduceMean ReduceKind = "mean"
	ReduceMax  ReduceKind = "max"
	ReduceMin  ReduceKind = "min"
	ReduceProd ReduceKind = "prod"
)

// ReduceAttrs are the attributes of graph.reduce.
type ReduceAttrs struct {
	Kind     ReduceKind
	Axes     []int // may be negative; must be distinct
	KeepDims bool
}

// Reduce reduces x over Axes. The result drops the reduced axes, or keeps
// them with size 1 when KeepDims is set; an empty Axes is the identity.
//
// For each result element the reduced elements are visited in row-major
// order of the reduced axes (increasing axis, last axis fastest) and folded
// in float32 one step at a time: sum from +0 by addition, prod from 1 by
// multiplication, max and min with NaN propagation (as graph.max and
// graph.min), and mean = sum/count. Integer operands fold exactly in int64
// and wrap to the integer result type; mean of integers is an error. max and
// min over an empty axis are an error; sum gives 0, prod 1 and mean NaN.
func Reduce(x *tensor.Tensor, attrs ReduceAttrs, out tensor.DType) (*tensor.Tensor, error) {
	const name = "graph.reduce"
	if x == nil {
		return nil, errorf(name, "missing operand")
	}
	float := x.DType().IsFloat()
	if err := requireResultClass(name, out, float); err != nil {
		return nil, err
	}
	switch attrs.Kind {
	case ReduceSum, ReduceMax, ReduceMin, ReduceProd:
	case ReduceMean:
		if !float {
			return nil, errorf(name, "mean of integer operand %s is not defined (cast to a float type first)", x.Type())
		}
	default:
		return nil, errorf(name, "unknown kind %q (want sum, mean, max, min or prod)", attrs.Kind)
	}
	shape := x.Shape()
	reduced := make([]bool, len(shape))
	for _, a := range attrs.Axes {
		ax, err := tensor.NormalizeAxis(a, len(shape))
		if err != nil {
			return nil, errorf(name, "%v", err)
		}
		if reduced[ax] {
			return nil, errorf(name, "axis %d appears twice in axes %v", ax, attrs.Axes)
		}
		reduced[ax] = true
	}
	strides := tensor.Strides(shape)
	var outShape, keptDims, keptStrides, redDims, redStrides []int
	for i, d := range shape {
		if reduced[i] {
			redDims, redStrides = append(redDims, d), append(redStrides, strides[i])
			if attrs.KeepDims {
				outShape = append(outShape, 1)
			}
			continue
		}
		outShape = append(outShape, d)
		keptDims, keptStrides = append(keptDims, d), append(keptStrides, strides[i])
	}
	count := tensor.NumElements(redDims)
	nOut := tensor.NumElements(keptDims)
	if count == 0 && nOut > 0 && (attrs.Kind == ReduceMax || attrs.Kind == ReduceMin) {
		return nil, errorf(name, "%s over an empty axis of %s", attrs.Kind, x.Type())
	}
	outer := tensor.NewOdometer(keptDims, keptStrides)
	inner := tensor.NewOdometer(redDims, redStrides)
	if !float {
		step := map[ReduceKind]func(a, b int64) int64{
			ReduceSum:  func(a, b int64) int64 { return a + b },
			ReduceProd: func(a, b int64) int64 { return a * b },
			ReduceMax:  func(a, b int64) int64 { return max(a, b) },
			ReduceMin:  func(a, b int64) int64 { return min(a, b) },
		}[attrs.Kind]
		vals := make([]int64, nOut)
		fold(vals, intValues(x), outer, inner, count, attrs.Kind, step)
		return newIntResult(out, outShape, vals), nil
	}
	step := map[ReduceKind]func(a, b float32) float32{
		ReduceSum:  func(a, b float32) float32 { return a + b },
		ReduceMean: func(a, b float32) float32 { return a + b },
		ReduceProd: func(a, b float32) float32 { return a * b },
		ReduceMax:  maximum,
		ReduceMin:  minimum,
	}[attrs.Kind]
	r := tensor.Zeros(out, outShape...)
	y := r.Floats()
	fold(y, x.Floats(), outer, inner, count, attrs.Kind, step)
	if attrs.Kind == ReduceMean {
		for j := range y {
			y[j] /= float32(count) // 0/0 is NaN for an empty axis
		}
	}
	tensor.RoundSlice(out, y)
	return r, nil
}

// fold computes dst[j] for each result element j: starting from the
// identity of kind (0 for sum and mean, 1 for prod, the first reduced
// element for max and min), it applies step to every reduced element in the
// inner odometer's order.
func fold[T float32 | int64](dst, src []T, outer, inner *tensor.Odometer, count int, kind ReduceKind, step func(a, b T) T) {
	for j := range dst {
		base := outer.Offset(0)
		outer.Next()
		var acc T
		switch kind {
		case ReduceProd:
			acc = 1
		case ReduceMax, ReduceMin:
			acc = src[base] // count > 0 was checked
		}
		for range count {
			acc = step(acc, src[base+inner.Offset(0)])
			inner.Next()
		}
		dst[j] = acc
	}
}
