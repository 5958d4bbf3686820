package kernels

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// reduceRef reduces by scanning every input element and adding it to the
// result element it belongs to (a different traversal from the kernel's).
func reduceRef(x *tensor.Tensor, axes []int, keep bool, kind ReduceKind) ([]int, []float64) {
	shape := x.Shape()
	red := make([]bool, len(shape))
	for _, a := range axes {
		red[(a+len(shape))%len(shape)] = true
	}
	var outShape, full []int
	for d, n := range shape {
		switch {
		case !red[d]:
			outShape, full = append(outShape, n), append(full, n)
		case keep:
			outShape, full = append(outShape, 1), append(full, 1)
		default:
			full = append(full, 1)
		}
	}
	n := tensor.NumElements(outShape)
	acc := make([]float64, n)
	count := make([]int, n)
	for i := range acc {
		switch kind {
		case ReduceProd:
			acc[i] = 1
		case ReduceMax:
			acc[i] = math.Inf(-1)
		case ReduceMin:
			acc[i] = math.Inf(1)
		}
	}
	for i := range x.Len() {
		idx := unravel(i, shape)
		for d := range idx {
			if red[d] {
				idx[d] = 0
			}
		}
		j := ravel(idx, full)
		v := x.Float64(i)
		count[j]++
		switch kind {
		case ReduceSum, ReduceMean:
			acc[j] += v
		case ReduceProd:
			acc[j] *= v
		case ReduceMax:
			acc[j] = math.Max(acc[j], v)
		case ReduceMin:
			acc[j] = math.Min(acc[j], v)
		}
	}
	if kind == ReduceMean {
		for j := range acc {
			acc[j] /= float64(count[j])
		}
	}
	return outShape, acc
}

func TestReduce(t *testing.T) {
	rng := tensor.NewRNG(10)
	x := randF32(rng, 0.5, 1.5, 2, 3, 4, 5)
	axesCases := [][]int{{0}, {3}, {-1}, {1, 2}, {0, 3}, {0, 1, 2, 3}, {2, 0}, {}}
	for _, kind := range []ReduceKind{ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd} {
		for _, axes := range axesCases {
			for _, keep := range []bool{false, true} {
				got := must(t)(Reduce(x, ReduceAttrs{Kind: kind, Axes: axes, KeepDims: keep}, tensor.F32))
				shape, want := reduceRef(x, axes, keep, kind)
				if len(axes) == 0 {
					shape = x.Shape()
				}
				if !slices.Equal(got.Shape(), shape) {
					t.Fatalf("%s %v keep=%v: shape %v, want %v", kind, axes, keep, got.Shape(), shape)
				}
				assertClose(t, string(kind), got, want, 2e-6, 0)
			}
		}
	}
}

func TestReduceOrderIsRowMajor(t *testing.T) {
	// Folding [[1, ε], [ε, ε]] (ε = 2^-24) in row-major order starts from 1,
	// so each ε is lost to rounding (ties to even); any order that adds the
	// ε values first gives 1 + 2^-23 instead.
	eps := float32(math.Ldexp(1, -24))
	x := f32([]int{2, 2}, 1, eps, eps, eps)
	got := must(t)(Reduce(x, ReduceAttrs{Kind: ReduceSum, Axes: []int{0, 1}}, tensor.F32)).Floats()[0]
	want := ((float32(1) + eps) + eps) + eps
	if got != want {
		t.Errorf("sum = %v, want the row-major fold %v", got, want)
	}
}

func TestReduceIntegersAndErrors(t *testing.T) {
	x := ints(tensor.I64, []int{2, 3}, 1<<53, 1, 1, -5, 7, 2)
	sum := must(t)(Reduce(x, ReduceAttrs{Kind: ReduceSum, Axes: []int{1}}, tensor.I64)).Ints()
	if sum[0] != 1<<53+2 || sum[1] != 4 {
		t.Errorf("i64 sum = %v", sum)
	}
	mx := must(t)(Reduce(x, ReduceAttrs{Kind: ReduceMax, Axes: []int{0}, KeepDims: true}, tensor.I64))
	if !slices.Equal(mx.Shape(), []int{1, 3}) || !equalInts(mx.Ints(), []int64{1 << 53, 7, 2}) {
		t.Errorf("i64 max = %v %v", mx.Shape(), mx.Ints())
	}
	nan := float32(math.NaN())
	if got := must(t)(Reduce(f32([]int{3}, 1, nan, 2), ReduceAttrs{Kind: ReduceMax, Axes: []int{0}}, tensor.F32)).Floats()[0]; got == got {
		t.Errorf("max with a NaN = %g, want NaN", got)
	}
	tests := []struct {
		x     *tensor.Tensor
		attrs ReduceAttrs
		want  string
	}{
		{x, ReduceAttrs{Kind: ReduceMean, Axes: []int{0}}, "mean of integer"},
		{x, ReduceAttrs{Kind: ReduceSum, Axes: []int{1, -1}}, "appears twice"},
		{x, ReduceAttrs{Kind: ReduceSum, Axes: []int{2}}, "out of range"},
		{x, ReduceAttrs{Kind: "argmax", Axes: []int{0}}, "unknown kind"},
		{tensor.Zeros(tensor.F32, 2, 0), ReduceAttrs{Kind: ReduceMax, Axes: []int{1}}, "empty axis"},
	}
	for _, tc := range tests {
		_, err := Reduce(tc.x, tc.attrs, tc.x.DType())
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want an error containing %q", tc.attrs, err, tc.want)
		}
	}
	empty := must(t)(Reduce(tensor.Zeros(tensor.F32, 2, 0), ReduceAttrs{Kind: ReduceProd, Axes: []int{1}}, tensor.F32))
	if empty.Floats()[0] != 1 {
		t.Errorf("prod over an empty axis = %v", empty)
	}
}
