package ref

import (
	"fmt"

	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// TensorType is the run-time view of an IR tensor type: an element type and
// a shape whose dynamic dims are -1.
type TensorType struct {
	DType tensor.DType
	Shape []int
}

// String returns the MLIR spelling, with `?` for dynamic dims.
func (t TensorType) String() string {
	s := "tensor<"
	for _, d := range t.Shape {
		if d < 0 {
			s += "?x"
		} else {
			s += fmt.Sprint(d) + "x"
		}
	}
	return s + t.DType.String() + ">"
}

// Static reports whether every dim is known.
func (t TensorType) Static() bool {
	for _, d := range t.Shape {
		if d < 0 {
			return false
		}
	}
	return true
}

// Matches reports whether x has t's element type and a shape that agrees
// with t's in rank and in every static dim.
func (t TensorType) Matches(x *tensor.Tensor) bool {
	if x.DType() != t.DType || x.Rank() != len(t.Shape) {
		return false
	}
	for i, d := range x.Shape() {
		if t.Shape[i] >= 0 && t.Shape[i] != d {
			return false
		}
	}
	return true
}

// tensorType converts an IR type; it fails for anything but a ranked tensor
// of one of the graph dialect's element types.
func tensorType(t ir.Type) (TensorType, error) {
	rt, ok := t.(*ir.RankedTensorType)
	if !ok {
		return TensorType{}, fmt.Errorf("type %v is not a ranked tensor", t)
	}
	dt, err := tensor.ParseDType(rt.Elem.String())
	if err != nil {
		return TensorType{}, fmt.Errorf("element type of %v is not supported (want f32, f16, bf16, i32, i64, i1, i8 or ui8)", t)
	}
	shape := make([]int, len(rt.Shape))
	for i, d := range rt.Shape {
		if d == ir.Dynamic {
			shape[i] = -1
		} else {
			shape[i] = int(d)
		}
	}
	return TensorType{DType: dt, Shape: shape}, nil
}
