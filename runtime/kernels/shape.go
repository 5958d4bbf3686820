package kernels

import (
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// Reshape returns x with a new shape holding the same elements in row-major
// order; the element counts must match. At most one dimension may be −1,
// which is inferred. The result shares x's storage (tensors are immutable).
func Reshape(x *tensor.Tensor, shape []int) (*tensor.Tensor, error) {
	const name = "graph.reshape"
	if x == nil {
		return nil, errorf(name, "missing operand")
	}
	shape = append([]int{}, shape...)
	infer, known := -1, 1
	for i, d := range shape {
		switch {
		case d == -1 && infer < 0:
			infer = i
		case d < 0:
			return nil, errorf(name, "invalid result shape %v", shape)
		default:
			known *= d
		}
	}
	if infer >= 0 {
		if known == 0 || x.Len()%known != 0 {
			return nil, errorf(name, "cannot infer the -1 in %v for %s", shape, x.Type())
		}
		shape[infer] = x.Len() / known
	}
	if n := tensor.NumElements(shape); n != x.Len() {
		return nil, errorf(name, "%s has %d elements, result shape %v has %d", x.Type(), x.Len(), shape, n)
	}
	return x.Reshaped(shape)
}

// stridedCopy returns a tensor of x's type and the given shape whose element
// at each index comes from x at base + Σ index·strides.
func stridedCopy(x *tensor.Tensor, shape []int, base int, strides []int) *tensor.Tensor {
	r := tensor.Zeros(x.DType(), shape...)
	switch {
	case x.DType().IsFloat():
		copyStrided(r.Floats(), x.Floats(), shape, base, strides)
	case x.DType() == tensor.UI8:
		copyStrided(r.Bytes(), x.Bytes(), shape, base, strides)
	default:
		copyStrided(r.Ints(), x.Ints(), shape, base, strides)
	}
	return r
}

func copyStrided[T any](dst, src []T, shape []int, base int, strides []int) {
	o := tensor.NewOdometer(shape, strides)
	for i := range dst {
		dst[i] = src[base+o.Offset(0)]
		o.Next()
	}
}

// Broadcast returns x broadcast to shape by NumPy rules (right-aligned;
// size-1 and missing dimensions stretch).
func Broadcast(x *tensor.Tensor, shape []int) (*tensor.Tensor, error) {
	const name = "graph.broadcast"
	if x == nil {
		return nil, errorf(name, "missing operand")
	}
	if tensor.NumElements(shape) < 0 {
		return nil, errorf(name, "invalid result shape %v", shape)
	}
	st, err := tensor.BroadcastStrides(x.Shape(), shape)
	if err != nil {
		return nil, errorf(name, "%v", err)
	}
	return stridedCopy(x, shape, 0, st), nil
}

// TransposeAttrs are the attributes of graph.transpose.
type TransposeAttrs struct {
	// Permutation lists, for each result axis, the operand axis it takes
	// (entries may be negative).
	Permutation []int
}

// Transpose permutes the axes of x: result axis i is operand axis
// Permutation[i].
func Transpose(x *tensor.Tensor, attrs TransposeAttrs) (*tensor.Tensor, error) {
	const name = "graph.transpose"
	if x == nil {
		return nil, errorf(name, "missing operand")
	}
	rank := x.Rank()
	if len(attrs.Permutation) != rank {
		return nil, errorf(name, "permutation %v has %d entries for %s", attrs.Permutation, len(attrs.Permutation), x.Type())
	}
	st := tensor.Strides(x.Shape())
	seen := make([]bool, rank)
	shape, strides := make([]int, rank), make([]int, rank)
	for i, p := range attrs.Permutation {
		ax, err := tensor.NormalizeAxis(p, rank)
		if err != nil || seen[ax] {
			return nil, errorf(name, "%v is not a permutation of the axes of %s", attrs.Permutation, x.Type())
		}
		seen[ax] = true
		shape[i], strides[i] = x.Shape()[ax], st[ax]
	}
	return stridedCopy(x, shape, 0, strides), nil
}

// SliceAttrs are the attributes of graph.slice.
type SliceAttrs struct {
	Axis   int // may be negative
	Start  int // 0 ≤ Start
	Length int // ≥ 0
	Step   int // ≥ 1; 0 means 1
}

// Slice takes Length elements along Axis starting at Start, every Step-th:
// indices Start, Start+Step, ..., Start+(Length−1)·Step, which must all lie
// inside the axis (0 ≤ Start ≤ size; a negative Start is an error, not an
// offset from the end).
func Slice(x *tensor.Tensor, attrs SliceAttrs) (*tensor.Tensor, error) {
	const name = "graph.slice"
	if x == nil {
		return nil, errorf(name, "missing operand")
	}
	axis, err := tensor.NormalizeAxis(attrs.Axis, x.Rank())
	if err != nil {
		return nil, errorf(name, "%v", err)
	}
	step := attrs.Step
	if step == 0 {
		step = 1
	}
	dim := x.Shape()[axis]
	switch {
	case step < 1:
		return nil, errorf(name, "step %d must be ≥ 1", step)
	case attrs.Length < 0:
		return nil, errorf(name, "length %d must be ≥ 0", attrs.Length)
	case attrs.Start < 0 || attrs.Start > dim:
		return nil, errorf(name, "start %d is outside axis %d of %s (size %d)", attrs.Start, axis, x.Type(), dim)
	case attrs.Length > 0 && attrs.Start+(attrs.Length-1)*step >= dim:
		return nil, errorf(name, "start %d, length %d, step %d reach index %d of axis %d of %s (size %d)",
			attrs.Start, attrs.Length, step, attrs.Start+(attrs.Length-1)*step, axis, x.Type(), dim)
	}
	shape := append([]int{}, x.Shape()...)
	shape[axis] = attrs.Length
	strides := tensor.Strides(x.Shape())
	base := attrs.Start * strides[axis]
	strides[axis] *= step
	return stridedCopy(x, shape, base, strides), nil
}

// ConcatAttrs are the attributes of graph.concat.
type ConcatAttrs struct {
	Axis int // may be negative
}

// Concat joins xs along Axis. All operands need the same element type and
// rank, and the same dimensions except along Axis.
func Concat(xs []*tensor.Tensor, attrs ConcatAttrs) (*tensor.Tensor, error) {
	const name = "graph.concat"
	if len(xs) == 0 || xs[0] == nil {
		return nil, errorf(name, "needs at least one operand")
	}
	first := xs[0]
	axis, err := tensor.NormalizeAxis(attrs.Axis, first.Rank())
	if err != nil {
		return nil, errorf(name, "%v", err)
	}
	shape := append([]int{}, first.Shape()...)
	shape[axis] = 0
	for k, x := range xs {
		if x == nil || x.Rank() != first.Rank() || x.DType() != first.DType() {
			return nil, errorf(name, "operand #%d does not match operand #0 (%s) in rank or element type", k, first.Type())
		}
		for i, d := range x.Shape() {
			if i != axis && d != first.Shape()[i] {
				return nil, errorf(name, "operand #%d has type %s; dimension %d differs from operand #0 (%s)", k, x.Type(), i, first.Type())
			}
		}
		shape[axis] += x.Shape()[axis]
	}
	r := tensor.Zeros(first.DType(), shape...)
	outer := tensor.NumElements(shape[:axis])
	inner := tensor.NumElements(shape[axis+1:])
	at := 0
	for _, x := range xs {
		chunk := x.Shape()[axis] * inner
		for o := range outer {
			copyRun(r, o*shape[axis]*inner+at, x, o*chunk, chunk)
		}
		at += chunk
	}
	return r, nil
}

// storageClass groups element types by how tensor stores them.
func storageClass(d tensor.DType) int {
	switch {
	case d.IsFloat():
		return 0
	case d == tensor.UI8:
		return 1
	}
	return 2
}

// copyRun copies n consecutive elements of src at so into dst at do; both
// tensors have the same storage class.
func copyRun(dst *tensor.Tensor, do int, src *tensor.Tensor, so, n int) {
	switch storageClass(src.DType()) {
	case 0:
		copy(dst.Floats()[do:do+n], src.Floats()[so:so+n])
	case 1:
		copy(dst.Bytes()[do:do+n], src.Bytes()[so:so+n])
	default:
		copy(dst.Ints()[do:do+n], src.Ints()[so:so+n])
	}
}

// GatherAttrs are the attributes of graph.gather.
type GatherAttrs struct {
	Axis int // may be negative
}

// Gather picks slices of table along Axis by indices (i32 or i64, any
// shape): the result shape is table[:Axis] ++ indices ++ table[Axis+1:].
// Every index must lie in [0, table.shape[Axis]); any other value, negative
// ones included, is an error and nothing is read.
func Gather(table, indices *tensor.Tensor, attrs GatherAttrs) (*tensor.Tensor, error) {
	const name = "graph.gather"
	if table == nil || indices == nil {
		return nil, errorf(name, "missing operand")
	}
	if d := indices.DType(); d != tensor.I32 && d != tensor.I64 {
		return nil, errorf(name, "indices have type %s; want i32 or i64 elements", indices.Type())
	}
	axis, err := tensor.NormalizeAxis(attrs.Axis, table.Rank())
	if err != nil {
		return nil, errorf(name, "%v", err)
	}
	ts := table.Shape()
	dim := ts[axis]
	idx := indices.Ints()
	for i, v := range idx {
		if v < 0 || v >= int64(dim) {
			return nil, errorf(name, "index %d (element %d of the indices) is out of range for axis %d of %s (size %d)", v, i, axis, table.Type(), dim)
		}
	}
	shape := append(append(append([]int{}, ts[:axis]...), indices.Shape()...), ts[axis+1:]...)
	r := tensor.Zeros(table.DType(), shape...)
	outer := tensor.NumElements(ts[:axis])
	inner := tensor.NumElements(ts[axis+1:])
	for o := range outer {
		for i, v := range idx {
			copyRun(r, (o*len(idx)+i)*inner, table, (o*dim+int(v))*inner, inner)
		}
	}
	return r, nil
}
