package ref

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"

	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// RunModule compiles function entry of module ("" picks the only public
// function, see EntryFunc) and runs it once on inputs with weights w.
// A nil inputs slice means seeded inputs from seed 0 (SeededInputs); a nil
// w means Seeded(0).
func RunModule(module *ir.Operation, entry string, inputs []*tensor.Tensor, w Weights) ([]*tensor.Tensor, error) {
	p, err := Compile(module, entry)
	if err != nil {
		return nil, err
	}
	if inputs == nil && len(p.args) > 0 {
		if inputs, err = SeededInputs(0, p); err != nil {
			return nil, err
		}
	}
	if w == nil {
		w = Seeded(0)
	}
	return p.Run(inputs, w)
}

// Checksum is the FNV-1a 64-bit hash of t's elements in row-major order,
// each in its little-endian file encoding (the bytes a .npy or safetensors
// file holds): f32, i32 4 bytes; f16, bf16 2 bytes (their bit patterns);
// i64 8 bytes; i1, i8, ui8 1 byte. Two tensors of the same type have equal
// checksums when their bits are equal (and, but for collisions, only then).
func Checksum(t *tensor.Tensor) uint64 {
	h := fnv.New64a()
	var buf [4096]byte
	b := buf[:0]
	flush := func(need int) {
		if len(b)+need > len(buf) {
			h.Write(b)
			b = buf[:0]
		}
	}
	le := binary.LittleEndian
	n := t.Len()
	switch dt := t.DType(); dt {
	case tensor.F32, tensor.F16, tensor.BF16:
		for _, v := range t.Floats() {
			flush(4)
			switch dt {
			case tensor.F32:
				b = le.AppendUint32(b, math.Float32bits(v))
			case tensor.F16:
				b = le.AppendUint16(b, tensor.F16Bits(v))
			default:
				b = le.AppendUint16(b, tensor.BF16Bits(v))
			}
		}
	case tensor.UI8:
		h.Write(t.Bytes())
	default:
		size := dt.ByteSize()
		for _, v := range t.Ints()[:n] {
			flush(8)
			switch size {
			case 1:
				b = append(b, byte(v))
			case 4:
				b = le.AppendUint32(b, uint32(v))
			default:
				b = le.AppendUint64(b, uint64(v))
			}
		}
	}
	h.Write(b)
	return h.Sum64()
}

// Diff compares two results.
type Diff struct {
	// SameType is false when the element types or shapes differ; the other
	// fields are then zero.
	SameType bool
	// BitIdentical reports equal bits in every element.
	BitIdentical bool
	// MaxAbs is the largest |a−b| over the elements, computed in float64
	// (exact for every element type). Two NaNs count as equal; a NaN
	// against a number, or infinities of different signs, count as +Inf.
	MaxAbs float64
	// Count is the number of elements whose bits differ.
	Count int
}

// Compare compares two tensors element by element.
func Compare(a, b *tensor.Tensor) Diff {
	if a.DType() != b.DType() || !tensor.ShapeEqual(a.Shape(), b.Shape()) {
		return Diff{}
	}
	d := Diff{SameType: true}
	fa, fb := a.Floats(), b.Floats()
	for i := range a.Len() {
		var x, y float64
		var same bool
		switch {
		case fa != nil:
			same = math.Float32bits(fa[i]) == math.Float32bits(fb[i])
			x, y = float64(fa[i]), float64(fb[i])
		case a.Ints() != nil:
			ia, ib := a.Ints()[i], b.Ints()[i]
			same = ia == ib
			x, y = float64(ia), float64(ib)
		default:
			same = a.Bytes()[i] == b.Bytes()[i]
			x, y = a.Float64(i), b.Float64(i)
		}
		if same {
			continue
		}
		d.Count++
		var diff float64
		switch {
		case math.IsNaN(x) && math.IsNaN(y):
		case math.IsNaN(x) || math.IsNaN(y) || x == y:
			// x == y with different bits: ±0, whose difference is 0.
			if x != y {
				diff = math.Inf(1)
			}
		default:
			diff = math.Abs(x - y)
			if math.IsNaN(diff) { // ∞ − ∞ of the same sign cannot differ in bits
				diff = math.Inf(1)
			}
		}
		d.MaxAbs = max(d.MaxAbs, diff)
	}
	d.BitIdentical = d.Count == 0
	return d
}

// CompareResults compares two result lists position by position; it is an
// error when their lengths differ.
func CompareResults(a, b []*tensor.Tensor) ([]Diff, error) {
	if len(a) != len(b) {
		return nil, fmt.Errorf("%d results against %d", len(a), len(b))
	}
	out := make([]Diff, len(a))
	for i := range a {
		out[i] = Compare(a[i], b[i])
	}
	return out, nil
}

// Differential runs two functions (entry in modules a and b, "" for the
// only public one) on the same seeded inputs and weights and compares their
// results: the check that a transformation preserves semantics bit for bit.
// The functions must have the same signature. Weights are generated once
// (Materialize) from the union of both programs' params.
func Differential(a, b *ir.Operation, entry string, seed uint64) ([]Diff, error) {
	pa, err := Compile(a, entry)
	if err != nil {
		return nil, err
	}
	pb, err := Compile(b, entry)
	if err != nil {
		return nil, err
	}
	inputs, err := SeededInputs(seed, pa, pb)
	if err != nil {
		return nil, err
	}
	w, err := Materialize(Seeded(seed), pa, pb)
	if err != nil {
		return nil, err
	}
	ra, err := pa.Run(inputs, w)
	if err != nil {
		return nil, err
	}
	rb, err := pb.Run(inputs, w)
	if err != nil {
		return nil, err
	}
	return CompareResults(ra, rb)
}
