package tensor

import "fmt"

// ShapeEqual reports whether two shapes are identical.
func ShapeEqual(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Strides returns the row-major element strides of shape: the last dimension
// has stride 1 and each earlier one the product of the dimensions after it.
func Strides(shape []int) []int {
	s := make([]int, len(shape))
	n := 1
	for i := len(shape) - 1; i >= 0; i-- {
		s[i] = n
		n *= shape[i]
	}
	return s
}

// BroadcastShapes returns the NumPy broadcast of the given shapes: shapes are
// right-aligned, missing leading dimensions count as 1, and in each position
// the dimensions must be equal or 1 (a 1 stretches to the other size).
func BroadcastShapes(shapes ...[]int) ([]int, error) {
	rank := 0
	for _, s := range shapes {
		rank = max(rank, len(s))
	}
	out := make([]int, rank)
	for i := range out {
		out[i] = 1
	}
	for _, s := range shapes {
		off := rank - len(s)
		for i, d := range s {
			switch o := out[off+i]; {
			case o == d || d == 1:
			case o == 1:
				out[off+i] = d
			default:
				return nil, fmt.Errorf("shapes %v are not broadcast-compatible (dimension %d: %d vs %d)", shapes, off+i, o, d)
			}
		}
	}
	return out, nil
}

// BroadcastStrides returns, for a tensor of shape in broadcast to shape out,
// the element strides to use when walking out's indices: the row-major strides
// of in, right-aligned, with 0 for every stretched or missing dimension. It
// returns an error if in does not broadcast to out.
func BroadcastStrides(in, out []int) ([]int, error) {
	if len(in) > len(out) {
		return nil, fmt.Errorf("shape %v has a higher rank than %v", in, out)
	}
	st := Strides(in)
	res := make([]int, len(out))
	off := len(out) - len(in)
	for i, d := range in {
		switch {
		case d == out[off+i]:
			if d != 1 {
				res[off+i] = st[i]
			}
		case d == 1:
		default:
			return nil, fmt.Errorf("shape %v does not broadcast to %v", in, out)
		}
	}
	return res, nil
}

// NormalizeAxis maps a possibly negative axis (counting from the end) of a
// rank-r tensor to [0, r), or returns an error if it is out of range.
func NormalizeAxis(axis, rank int) (int, error) {
	if axis < -rank || axis >= rank {
		return 0, fmt.Errorf("axis %d is out of range for rank %d", axis, rank)
	}
	if axis < 0 {
		axis += rank
	}
	return axis, nil
}

// Odometer walks the indices of a shape in row-major order while tracking,
// for each of several operands, the flat element offset given by that
// operand's strides (which may contain zeros for broadcasting, or any
// permutation for transposes).
//
//	o := NewOdometer(shape, stridesA, stridesB)
//	for i := 0; i < n; i++ {
//		use(o.Offset(0), o.Offset(1))
//		o.Next()
//	}
type Odometer struct {
	shape   []int
	index   []int
	strides [][]int
	offsets []int
}

// NewOdometer returns an odometer at index zero (all offsets zero). Every
// strides slice must have len(shape) entries.
func NewOdometer(shape []int, strides ...[]int) *Odometer {
	return &Odometer{
		shape:   shape,
		index:   make([]int, len(shape)),
		strides: strides,
		offsets: make([]int, len(strides)),
	}
}

// Offset returns the current flat offset of operand k.
func (o *Odometer) Offset(k int) int { return o.offsets[k] }

// Index returns the current multi-index. It must not be modified.
func (o *Odometer) Index() []int { return o.index }

// Next advances to the next index in row-major order. After the last index it
// wraps around to zero and returns false.
func (o *Odometer) Next() bool {
	for d := len(o.shape) - 1; d >= 0; d-- {
		o.index[d]++
		if o.index[d] < o.shape[d] {
			for k, s := range o.strides {
				o.offsets[k] += s[d]
			}
			return true
		}
		o.index[d] = 0
		for k, s := range o.strides {
			o.offsets[k] -= s[d] * (o.shape[d] - 1)
		}
	}
	return false
}
