package kernels

import (
	"fmt"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// errorf returns an error prefixed with the op name.
func errorf(op, format string, args ...any) error {
	return fmt.Errorf(op+": "+format, args...)
}

// operand names an operand for error messages.
type operand struct {
	role string
	t    *tensor.Tensor
}

// requireFloats checks operands in order with requireFloat, so the first bad
// one is always the one reported.
func requireFloats(op string, operands ...operand) error {
	for _, o := range operands {
		if err := requireFloat(op, o.role, o.t); err != nil {
			return err
		}
	}
	return nil
}

// requireFloat checks that an operand is present and floating-point.
func requireFloat(op, role string, t *tensor.Tensor) error {
	if t == nil {
		return errorf(op, "missing operand %s", role)
	}
	if !t.DType().IsFloat() {
		return errorf(op, "operand %s has type %s; want a floating-point element type", role, t.Type())
	}
	return nil
}

// requireRank checks that an operand has the given rank.
func requireRank(op, role string, t *tensor.Tensor, rank int) error {
	if t.Rank() != rank {
		return errorf(op, "operand %s has type %s; want rank %d", role, t.Type(), rank)
	}
	return nil
}

// requireShape checks that an operand has exactly the given shape.
func requireShape(op, role string, t *tensor.Tensor, shape ...int) error {
	if !tensor.ShapeEqual(t.Shape(), shape) {
		return errorf(op, "operand %s has type %s; want shape %v", role, t.Type(), shape)
	}
	return nil
}

// requireFloatResult checks that the requested result type is floating-point.
func requireFloatResult(op string, out tensor.DType) error {
	if !out.IsFloat() {
		return errorf(op, "result element type %v is not a floating-point type", out)
	}
	return nil
}

// requireResultClass checks that the result type is floating-point exactly
// when the operands are.
func requireResultClass(op string, out tensor.DType, floatOperands bool) error {
	switch {
	case !out.Valid():
		return errorf(op, "invalid result element type %v", out)
	case floatOperands && !out.IsFloat():
		return errorf(op, "result element type %v does not match floating-point operands (use graph.cast)", out)
	case !floatOperands && !out.IsInt():
		return errorf(op, "result element type %v does not match integer operands (use graph.cast)", out)
	}
	return nil
}

// intValues returns the elements of an integer tensor as int64, converting
// the bytes of a ui8 tensor.
func intValues(t *tensor.Tensor) []int64 {
	if t.DType() != tensor.UI8 {
		return t.Ints()
	}
	v := make([]int64, t.Len())
	for i, b := range t.Bytes() {
		v[i] = int64(b)
	}
	return v
}

// newIntResult builds an integer tensor of type dt from values, wrapping each
// into dt's range.
func newIntResult(dt tensor.DType, shape []int, values []int64) *tensor.Tensor {
	r := tensor.Zeros(dt, shape...)
	if dt == tensor.UI8 {
		b := r.Bytes()
		for i, v := range values {
			b[i] = byte(v)
		}
		return r
	}
	dst := r.Ints()
	for i, v := range values {
		dst[i] = tensor.WrapInt(dt, v)
	}
	return r
}

// truthy returns element i of a condition tensor as a boolean: non-zero is
// true (NaN counts as non-zero).
func truthy(t *tensor.Tensor, i int) bool {
	switch {
	case t.DType().IsFloat():
		return t.Floats()[i] != 0
	case t.DType() == tensor.UI8:
		return t.Bytes()[i] != 0
	}
	return t.Ints()[i] != 0
}

// broadcastWalker returns an odometer over the result shape out that tracks
// the element offset of each operand under NumPy broadcasting.
func broadcastWalker(op string, out []int, operands ...*tensor.Tensor) (*tensor.Odometer, error) {
	strides := make([][]int, len(operands))
	for k, t := range operands {
		s, err := tensor.BroadcastStrides(t.Shape(), out)
		if err != nil {
			return nil, errorf(op, "operand #%d: %v", k, err)
		}
		strides[k] = s
	}
	return tensor.NewOdometer(out, strides...), nil
}
