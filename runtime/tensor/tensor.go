package tensor

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Tensor is a dense row-major tensor with a static shape.
//
// Exactly one storage slice is in use, chosen by the element type: Floats for
// f32, f16 and bf16; Ints for i1, i8, i32 and i64; Bytes for ui8. Tensors are
// treated as immutable once built (see the package documentation).
type Tensor struct {
	dtype  DType
	shape  []int
	floats []float32
	ints   []int64
	bytes  []byte
}

// NumElements returns the number of elements of a tensor of the given shape
// (1 for the rank-0 shape), or -1 if a dimension is negative or the product
// overflows an int.
func NumElements(shape []int) int {
	n := 1
	for _, d := range shape {
		if d < 0 {
			return -1
		}
		if d != 0 && n > math.MaxInt/d {
			return -1
		}
		n *= d
	}
	return n
}

// Zeros returns a tensor of element type dt and the given shape filled with
// zeros. It panics if dt is invalid or a dimension is negative: those are
// programming errors, unlike the data errors the constructors below report.
func Zeros(dt DType, shape ...int) *Tensor {
	n := NumElements(shape)
	if !dt.Valid() || n < 0 {
		panic(fmt.Sprintf("tensor.Zeros: invalid type %v or shape %v", dt, shape))
	}
	t := &Tensor{dtype: dt, shape: append([]int{}, shape...)}
	switch {
	case dt.IsFloat():
		t.floats = make([]float32, n)
	case dt == UI8:
		t.bytes = make([]byte, n)
	default:
		t.ints = make([]int64, n)
	}
	return t
}

func checkShape(dt DType, shape []int, n int) error {
	if !dt.Valid() {
		return fmt.Errorf("invalid element type %v", dt)
	}
	want := NumElements(shape)
	if want < 0 {
		return fmt.Errorf("invalid shape %v", shape)
	}
	if want != n {
		return fmt.Errorf("shape %v has %d elements, data has %d", shape, want, n)
	}
	return nil
}

// FromFloat32 returns a tensor of the floating-point type dt holding data
// (used as storage, not copied). Elements are rounded in place to dt, so an
// f16 or bf16 tensor holds exactly representable values.
func FromFloat32(dt DType, shape []int, data []float32) (*Tensor, error) {
	if !dt.IsFloat() {
		return nil, fmt.Errorf("FromFloat32: element type %v is not a floating-point type", dt)
	}
	if err := checkShape(dt, shape, len(data)); err != nil {
		return nil, err
	}
	RoundSlice(dt, data)
	return &Tensor{dtype: dt, shape: append([]int{}, shape...), floats: data}, nil
}

// FromInt64 returns a tensor of the integer type dt (i1, i8, i32 or i64)
// holding data (used as storage, not copied). A value outside the range of dt
// is an error; ui8 tensors are built with FromBytes.
func FromInt64(dt DType, shape []int, data []int64) (*Tensor, error) {
	if !dt.IsInt() || dt == UI8 {
		return nil, fmt.Errorf("FromInt64: element type %v is not i1, i8, i32 or i64", dt)
	}
	if err := checkShape(dt, shape, len(data)); err != nil {
		return nil, err
	}
	lo, hi := dt.IntRange()
	for i, v := range data {
		if v < lo || v > hi {
			return nil, fmt.Errorf("FromInt64: element %d = %d is out of range for %v", i, v, dt)
		}
	}
	return &Tensor{dtype: dt, shape: append([]int{}, shape...), ints: data}, nil
}

// FromBytes returns a ui8 tensor holding data (used as storage, not copied).
func FromBytes(shape []int, data []byte) (*Tensor, error) {
	if err := checkShape(UI8, shape, len(data)); err != nil {
		return nil, err
	}
	return &Tensor{dtype: UI8, shape: append([]int{}, shape...), bytes: data}, nil
}

// DType returns the element type.
func (t *Tensor) DType() DType { return t.dtype }

// Shape returns the dimensions. The slice belongs to the tensor and must not
// be modified.
func (t *Tensor) Shape() []int { return t.shape }

// Rank returns the number of dimensions.
func (t *Tensor) Rank() int { return len(t.shape) }

// Len returns the number of elements.
func (t *Tensor) Len() int {
	switch {
	case t.dtype.IsFloat():
		return len(t.floats)
	case t.dtype == UI8:
		return len(t.bytes)
	}
	return len(t.ints)
}

// Floats returns the storage of a floating-point tensor, or nil for other
// types. Kernels fill their freshly allocated results through it; a caller
// writing f16 or bf16 tensors must keep the values representable (RoundSlice).
func (t *Tensor) Floats() []float32 { return t.floats }

// Ints returns the storage of an i1, i8, i32 or i64 tensor, or nil for other
// types. Values written through it must stay in the type's range (WrapInt).
func (t *Tensor) Ints() []int64 { return t.ints }

// Bytes returns the storage of a ui8 tensor, or nil for other types.
func (t *Tensor) Bytes() []byte { return t.bytes }

// Float64 returns element i (in row-major order) converted to float64,
// whatever the element type.
func (t *Tensor) Float64(i int) float64 {
	switch {
	case t.dtype.IsFloat():
		return float64(t.floats[i])
	case t.dtype == UI8:
		return float64(t.bytes[i])
	}
	return float64(t.ints[i])
}

// Clone returns a deep copy of t.
func (t *Tensor) Clone() *Tensor {
	return &Tensor{
		dtype:  t.dtype,
		shape:  append([]int{}, t.shape...),
		floats: append([]float32(nil), t.floats...),
		ints:   append([]int64(nil), t.ints...),
		bytes:  append([]byte(nil), t.bytes...),
	}
}

// Reshaped returns a tensor with the same element type and elements (shared,
// not copied) and a new shape with the same number of elements.
func (t *Tensor) Reshaped(shape []int) (*Tensor, error) {
	if err := checkShape(t.dtype, shape, t.Len()); err != nil {
		return nil, fmt.Errorf("reshape %s: %v", t.Type(), err)
	}
	u := *t
	u.shape = append([]int{}, shape...)
	return &u, nil
}

// Type returns the MLIR spelling of the tensor's type, e.g. "tensor<2x3xf32>".
func (t *Tensor) Type() string { return TypeString(t.dtype, t.shape) }

// TypeString returns the MLIR spelling of a ranked tensor type.
func TypeString(dt DType, shape []int) string {
	var b strings.Builder
	b.WriteString("tensor<")
	for _, d := range shape {
		b.WriteString(strconv.Itoa(d))
		b.WriteByte('x')
	}
	b.WriteString(dt.String())
	b.WriteByte('>')
	return b.String()
}

// String returns the type followed by up to eight elements, for debugging.
func (t *Tensor) String() string {
	var b strings.Builder
	b.WriteString(t.Type())
	b.WriteString(" [")
	n := t.Len()
	for i := 0; i < n && i < 8; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		if t.ints != nil {
			b.WriteString(strconv.FormatInt(t.ints[i], 10))
		} else {
			b.WriteString(strconv.FormatFloat(t.Float64(i), 'g', -1, 64))
		}
	}
	if n > 8 {
		b.WriteString(" ...")
	}
	b.WriteByte(']')
	return b.String()
}

// BitsEqual reports whether a and b have the same type, shape and element
// bits (so NaNs with equal encodings are equal and 0 differs from -0).
func BitsEqual(a, b *Tensor) bool {
	if a.dtype != b.dtype || !ShapeEqual(a.shape, b.shape) {
		return false
	}
	for i, x := range a.floats {
		if math.Float32bits(x) != math.Float32bits(b.floats[i]) {
			return false
		}
	}
	for i, x := range a.ints {
		if x != b.ints[i] {
			return false
		}
	}
	return string(a.bytes) == string(b.bytes)
}
