package kernels

import (
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

func TestTopK(t *testing.T) {
	nan := float32(math.NaN())
	for _, tc := range []struct {
		name    string
		x       []float32
		shape   []int
		k       int
		values  []float32
		indices []int64
	}{
		{"descending", []float32{0.1, 0.7, 0.2, 0.5}, []int{1, 4}, 2, []float32{0.7, 0.5}, []int64{1, 3}},
		{"ties keep index order", []float32{0.3, 0.9, 0.3, 0.9, 0.3}, []int{5}, 4, []float32{0.9, 0.9, 0.3, 0.3}, []int64{1, 3, 0, 2}},
		{"rows", []float32{1, 2, 3, 6, 5, 4}, []int{2, 3}, 1, []float32{3, 6}, []int64{2, 0}},
		{"nan first", []float32{1, nan, 3, nan}, []int{4}, 3, []float32{nan, nan, 3}, []int64{1, 3, 2}},
		{"negative and zeros", []float32{-1, float32(math.Copysign(0, -1)), 0, -2}, []int{4}, 4, []float32{float32(math.Copysign(0, -1)), 0, -1, -2}, []int64{1, 2, 0, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, i, err := TopK(f32(tc.shape, tc.x...), TopKAttrs{K: tc.k}, tensor.F32)
			if err != nil {
				t.Fatal(err)
			}
			want := f32(append(slices.Clone(tc.shape[:len(tc.shape)-1]), tc.k), tc.values...)
			if !tensor.BitsEqual(v, want) {
				t.Errorf("values = %v, want %v", v, want)
			}
			if i.DType() != tensor.I32 || !slices.Equal(i.Ints(), tc.indices) {
				t.Errorf("indices = %v, want %v", i, tc.indices)
			}
		})
	}
}

// TestTopKMatchesSort checks the selection against a stable sort on random
// rows with many ties (values from a small set).
func TestTopKMatchesSort(t *testing.T) {
	rng := tensor.NewRNG(7)
	x, err := rng.Ints(tensor.I32, []int{16, 24}, 0, 6)
	if err != nil {
		t.Fatal(err)
	}
	xf := make([]float32, x.Len())
	for i, v := range x.Ints() {
		xf[i] = float32(v) / 4
	}
	v, idx, err := TopK(f32([]int{16, 24}, xf...), TopKAttrs{K: 5}, tensor.F32)
	if err != nil {
		t.Fatal(err)
	}
	for r := range 16 {
		order := make([]int, 24)
		for i := range order {
			order[i] = i
		}
		row := xf[r*24 : (r+1)*24]
		sort.SliceStable(order, func(a, b int) bool { return row[order[a]] > row[order[b]] })
		for j := range 5 {
			if got := idx.Ints()[r*5+j]; got != int64(order[j]) || v.Floats()[r*5+j] != row[order[j]] {
				t.Fatalf("row %d, rank %d: index %d value %g, want %d %g", r, j, got, v.Floats()[r*5+j], order[j], row[order[j]])
			}
		}
	}
}

func TestTopKErrors(t *testing.T) {
	x := f32([]int{1, 4}, 1, 2, 3, 4)
	for _, tc := range []struct {
		x    *tensor.Tensor
		k    int
		dt   tensor.DType
		want string
	}{
		{x, 0, tensor.F32, "graph.topk: k = 0 is outside [1, 4]"},
		{x, 5, tensor.F32, "graph.topk: k = 5 is outside [1, 4]"},
		{x, 2, tensor.I32, "result element type i32 is not a floating-point type"},
		{ints(tensor.I32, []int{4}, 1, 2, 3, 4), 1, tensor.F32, "operand x has type tensor<4xi32>; want a floating-point element type"},
		{f32(nil, 1), 1, tensor.F32, "want rank at least 1"},
		{nil, 1, tensor.F32, "missing operand x"},
	} {
		_, _, err := TopK(tc.x, TopKAttrs{K: tc.k}, tc.dt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("TopK(k=%d, %v) error = %v, want %q", tc.k, tc.dt, err, tc.want)
		}
	}
}
