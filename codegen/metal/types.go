package metal

import (
	"fmt"
	"math"

	"github.com/rlx-compiler/rlx/ir"
)

// elem is a tensor element type as kernels store it.
type elem uint8

const (
	elemInvalid elem = iota
	elemF32
	elemF16
	elemBF16
	elemI32
	elemI64
	elemI1
	elemI8
	elemUI8
)

// info returns the graph dialect's spelling (also the manifest's), the
// MSL storage type and the size in bytes. i1 is one byte holding 0 or 1,
// as the runtime's tensors store it.
func (e elem) info() (name, msl string, size int) {
	switch e {
	case elemF32:
		return "f32", "float", 4
	case elemF16:
		return "f16", "half", 2
	case elemBF16:
		return "bf16", "bfloat", 2
	case elemI32:
		return "i32", "int", 4
	case elemI64:
		return "i64", "long", 8
	case elemI1:
		return "i1", "uchar", 1
	case elemI8:
		return "i8", "char", 1
	case elemUI8:
		return "ui8", "uchar", 1
	}
	return "?", "?", 0
}

func (e elem) String() string { n, _, _ := e.info(); return n }
func (e elem) msl() string    { _, m, _ := e.info(); return m }
func (e elem) size() int      { _, _, s := e.info(); return s }
func (e elem) isFloat() bool  { return e == elemF32 || e == elemF16 || e == elemBF16 }
func (e elem) isInt() bool    { return e >= elemI32 }

// hasVec4 reports whether the type has four-wide vectors in the
// harness's shims (f32 and f16; bf16 is read element by element).
func (e elem) hasVec4() bool { return e == elemF32 || e == elemF16 }

// compute is the type a kernel computes in: float for every float type,
// long for every integer type (exact, wrapped on store as the reference
// does).
func (e elem) compute() string {
	if e.isFloat() {
		return "float"
	}
	return "long"
}

// elemOf returns the element type of a ranked tensor type.
func elemOf(t ir.Type) elem {
	rt, ok := t.(*ir.RankedTensorType)
	if !ok {
		return elemInvalid
	}
	switch et := rt.Elem.(type) {
	case *ir.FloatType:
		switch et.Name() {
		case "f32":
			return elemF32
		case "f16":
			return elemF16
		case "bf16":
			return elemBF16
		}
	case *ir.IntegerType:
		switch {
		case et.Width == 1 && et.IsSignless():
			return elemI1
		case et.Width == 8 && et.Signedness == ir.Unsigned:
			return elemUI8
		case et.Width == 8 && et.IsSignless():
			return elemI8
		case et.Width == 32 && et.IsSignless():
			return elemI32
		case et.Width == 64 && et.IsSignless():
			return elemI64
		}
	}
	return elemInvalid
}

// tensorInfo is what a kernel needs to know of a value's type.
type tensorInfo struct {
	elem  elem
	shape []int64
	n     int64 // elements
}

func (t tensorInfo) bytes() int64 { return t.n * int64(t.elem.size()) }
func (t tensorInfo) rank() int    { return len(t.shape) }

// dim returns dimension i, counting from the end when i < 0.
func (t tensorInfo) dim(i int) int64 {
	if i < 0 {
		i += len(t.shape)
	}
	return t.shape[i]
}

// infoOf describes v's type; it fails for a type the kernels cannot store:
// not a ranked tensor, a dynamic dim, another element type, or more
// elements than an int64 counts. (How many a kernel may index is
// checkElements'.)
func infoOf(v *ir.Value) (tensorInfo, error) {
	rt, ok := v.Type().(*ir.RankedTensorType)
	if !ok {
		return tensorInfo{}, fmt.Errorf("type %v is not a ranked tensor", v.Type())
	}
	e := elemOf(rt)
	if e == elemInvalid {
		return tensorInfo{}, fmt.Errorf("element type of %v has no Metal storage type", rt)
	}
	n := int64(1)
	for _, d := range rt.Shape {
		if d == ir.Dynamic {
			return tensorInfo{}, fmt.Errorf("type %v has a dynamic dim (Metal kernels are specialised to static shapes)", rt)
		}
		if d != 0 && n > math.MaxInt64/d {
			return tensorInfo{}, fmt.Errorf("type %v has more elements than an int64 counts", rt)
		}
		n *= d
	}
	return tensorInfo{elem: e, shape: rt.Shape, n: n}, nil
}

// checkElements fails for a value of more than MaxElements elements, which
// a kernel's 32-bit indices cannot reach. A stack of experts read in place
// is exempt (it is never passed here): its kernels step to a matrix in 64
// bits and index within it (expertBase).
func checkElements(v *ir.Value) error {
	t, err := infoOf(v)
	if err != nil {
		return err
	}
	if t.n > MaxElements {
		return fmt.Errorf("type %v has %d elements, more than %d (the Metal kernels index buffers with 32-bit integers)", v.Type(), t.n, int64(MaxElements))
	}
	return nil
}

// strides returns row-major strides of shape.
func strides(shape []int64) []int64 {
	s := make([]int64, len(shape))
	acc := int64(1)
	for i := len(shape) - 1; i >= 0; i-- {
		s[i] = acc
		acc *= shape[i]
	}
	return s
}

func product(dims []int64) int64 {
	n := int64(1)
	for _, d := range dims {
		n *= d
	}
	return n
}
