package kernels

import (
	"math"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// Cast converts every element of x to the element type to:
//
//   - float → float rounds to nearest even (f32 → f16/bf16);
//   - float → integer truncates toward zero and saturates at the type's
//     bounds, with NaN → 0; float → i1 is x ≠ 0 (so NaN → 1);
//   - integer → float converts to the nearest float32 (ties to even), then
//     rounds to f16/bf16;
//   - integer → integer wraps two's-complement style (i64 → i32 keeps the
//     low 32 bits), and any → i1 is x ≠ 0.
func Cast(x *tensor.Tensor, to tensor.DType) (*tensor.Tensor, error) {
	const name = "graph.cast"
	if x == nil {
		return nil, errorf(name, "missing operand")
	}
	if !to.Valid() {
		return nil, errorf(name, "invalid result element type %v", to)
	}
	shape := x.Shape()
	from := x.DType()
	switch {
	case from.IsFloat() && to.IsFloat():
		r := tensor.Zeros(to, shape...)
		copy(r.Floats(), x.Floats())
		tensor.RoundSlice(to, r.Floats())
		return r, nil
	case from.IsFloat():
		src := x.Floats()
		vals := make([]int64, len(src))
		for i, v := range src {
			vals[i] = floatToInt(to, v)
		}
		return newIntResult(to, shape, vals), nil
	case to.IsFloat():
		r := tensor.Zeros(to, shape...)
		dst := r.Floats()
		for i, v := range intValues(x) {
			dst[i] = tensor.RoundFloat(to, float32(v))
		}
		return r, nil
	}
	return newIntResult(to, shape, intValues(x)), nil
}

// floatToInt truncates toward zero and saturates to the range of dt.
func floatToInt(dt tensor.DType, v float32) int64 {
	if dt == tensor.I1 {
		if v != 0 {
			return 1
		}
		return 0
	}
	if v != v {
		return 0
	}
	lo, hi := dt.IntRange()
	t := math.Trunc(float64(v))
	switch {
	case t <= float64(lo):
		return lo
	case t >= float64(hi):
		return hi
	}
	return int64(t)
}
