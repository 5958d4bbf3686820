package kernels

import (
	"slices"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// iota32 returns an f32 tensor holding 0, 1, 2, ... in row-major order, so
// every element names its own source position.
func iota32(shape ...int) *tensor.Tensor {
	t := tensor.Zeros(tensor.F32, shape...)
	for i := range t.Floats() {
		t.Floats()[i] = float32(i)
	}
	return t
}

func TestReshape(t *testing.T) {
	x := iota32(2, 3, 4)
	r := must(t)(Reshape(x, []int{4, -1}))
	if !slices.Equal(r.Shape(), []int{4, 6}) || r.Floats()[23] != 23 {
		t.Errorf("reshape = %v", r)
	}
	if _, err := Reshape(x, []int{5, 5}); err == nil || !strings.Contains(err.Error(), "graph.reshape") {
		t.Errorf("bad reshape: %v", err)
	}
	if _, err := Reshape(x, []int{-1, -1}); err == nil {
		t.Error("two -1 dims succeeded")
	}
}

func TestBroadcastOp(t *testing.T) {
	x := iota32(3, 1)
	r := must(t)(Broadcast(x, []int{2, 3, 4}))
	for i, v := range r.Floats() {
		idx := unravel(i, r.Shape())
		if v != float32(idx[1]) {
			t.Fatalf("element %v = %v, want %v", idx, v, idx[1])
		}
	}
	if _, err := Broadcast(x, []int{2, 4}); err == nil {
		t.Error("broadcast [3,1] to [2,4] succeeded")
	}
}

func TestTranspose(t *testing.T) {
	x := iota32(2, 3, 4)
	perm := []int{2, 0, -2}
	r := must(t)(Transpose(x, TransposeAttrs{Permutation: perm}))
	if !slices.Equal(r.Shape(), []int{4, 2, 3}) {
		t.Fatalf("shape %v", r.Shape())
	}
	for i, v := range r.Floats() {
		o := unravel(i, r.Shape())
		src := []int{o[1], o[2], o[0]} // result axis j is source axis perm[j]
		if v != float32(ravel(src, x.Shape())) {
			t.Fatalf("element %v = %v", o, v)
		}
	}
	for _, bad := range [][]int{{0, 1}, {0, 0, 1}, {0, 1, 3}} {
		if _, err := Transpose(x, TransposeAttrs{Permutation: bad}); err == nil {
			t.Errorf("permutation %v succeeded", bad)
		}
	}
	// Integer and ui8 tensors move too.
	u, _ := tensor.FromBytes([]int{2, 2}, []byte{1, 2, 3, 4})
	if got := must(t)(Transpose(u, TransposeAttrs{Permutation: []int{1, 0}})).Bytes(); !slices.Equal(got, []byte{1, 3, 2, 4}) {
		t.Errorf("ui8 transpose = %v", got)
	}
}

func TestSlice(t *testing.T) {
	x := iota32(3, 10)
	r := must(t)(Slice(x, SliceAttrs{Axis: -1, Start: 1, Length: 3, Step: 4}))
	for row := range 3 {
		for j := range 3 {
			if v := r.Floats()[row*3+j]; v != float32(row*10+1+4*j) {
				t.Errorf("slice[%d, %d] = %v, want %v", row, j, v, row*10+1+4*j)
			}
		}
	}
	tests := []SliceAttrs{
		{Axis: 1, Start: 1, Length: 4, Step: 3}, // reaches index 10
		{Axis: 1, Start: -1, Length: 1},
		{Axis: 1, Start: 0, Length: 2, Step: -1},
		{Axis: 2, Start: 0, Length: 1},
	}
	for _, a := range tests {
		if _, err := Slice(x, a); err == nil {
			t.Errorf("slice %+v succeeded", a)
		}
	}
	if e := must(t)(Slice(x, SliceAttrs{Axis: 0, Start: 3, Length: 0})); e.Len() != 0 {
		t.Errorf("empty slice = %v", e)
	}
}

func TestConcat(t *testing.T) {
	a, b, c := iota32(2, 1, 3), iota32(2, 2, 3), iota32(2, 3, 3)
	r := must(t)(Concat([]*tensor.Tensor{a, b, c}, ConcatAttrs{Axis: -2}))
	if !slices.Equal(r.Shape(), []int{2, 6, 3}) {
		t.Fatalf("shape %v", r.Shape())
	}
	for i, v := range r.Floats() {
		idx := unravel(i, r.Shape())
		var src *tensor.Tensor
		switch j := idx[1]; {
		case j < 1:
			src = a
		case j < 3:
			src, idx[1] = b, j-1
		default:
			src, idx[1] = c, j-3
		}
		if v != src.Floats()[ravel(idx, src.Shape())] {
			t.Fatalf("element %d = %v", i, v)
		}
	}
	if _, err := Concat([]*tensor.Tensor{a, iota32(3, 1, 3)}, ConcatAttrs{Axis: 1}); err == nil {
		t.Error("mismatched concat succeeded")
	}
	if _, err := Concat([]*tensor.Tensor{a, ints(tensor.I32, []int{2, 1, 3}, 1, 2, 3, 4, 5, 6)}, ConcatAttrs{Axis: 1}); err == nil {
		t.Error("mixed-type concat succeeded")
	}
}

func TestGather(t *testing.T) {
	table := iota32(3, 4, 2)
	idx := ints(tensor.I64, []int{2, 2}, 3, 0, 1, 3)
	r := must(t)(Gather(table, idx, GatherAttrs{Axis: -2}))
	if !slices.Equal(r.Shape(), []int{3, 2, 2, 2}) {
		t.Fatalf("shape %v", r.Shape())
	}
	for i, v := range r.Floats() {
		o := unravel(i, r.Shape())
		row := idx.Ints()[o[1]*2+o[2]]
		if want := float32(ravel([]int{o[0], int(row), o[3]}, table.Shape())); v != want {
			t.Fatalf("element %v = %v, want %v", o, v, want)
		}
	}
	emb := ints(tensor.I32, []int{3, 2}, 10, 11, 20, 21, 30, 31)
	got := must(t)(Gather(emb, ints(tensor.I32, []int{1, 1}, 2), GatherAttrs{Axis: 0}))
	if !slices.Equal(got.Shape(), []int{1, 1, 2}) || !equalInts(got.Ints(), []int64{30, 31}) {
		t.Errorf("embedding gather = %v %v", got.Shape(), got.Ints())
	}
	for _, bad := range []int64{4, -1} {
		_, err := Gather(table, ints(tensor.I64, []int{2}, 0, bad), GatherAttrs{Axis: 1})
		if err == nil || !strings.Contains(err.Error(), "out of range") {
			t.Errorf("index %d: %v", bad, err)
		}
	}
	if _, err := Gather(table, f32([]int{1}, 0), GatherAttrs{Axis: 0}); err == nil {
		t.Error("float indices succeeded")
	}
}
