package ir

import (
	"math"
	"testing"
)

func TestShapeElements(t *testing.T) {
	const big = 1 << 62
	tests := []struct {
		dims []int64
		n    int64
		ok   bool
	}{
		{nil, 1, true},
		{[]int64{2, 3, 4}, 24, true},
		{[]int64{2, Dynamic, 4}, -1, true},
		{[]int64{0, big, big}, 0, true},
		{[]int64{Dynamic, 0}, -1, true},
		// 4611686018427387905 x 4 is 2^64+4, which wraps to 4 in int64.
		{[]int64{4611686018427387905, 4}, -1, false},
		{[]int64{4294967296, 4294967296}, -1, false},
		{[]int64{Dynamic, big, 4}, -1, false},
		{[]int64{math.MaxInt64}, math.MaxInt64, true},
		{[]int64{-2}, -1, false},
	}
	for _, tt := range tests {
		n, ok := ShapeElements(tt.dims)
		if n != tt.n || ok != tt.ok {
			t.Errorf("ShapeElements(%v) = %d, %v; want %d, %v", tt.dims, n, ok, tt.n, tt.ok)
		}
	}
	if _, ok := MulSize(math.MaxInt64/2+1, 2); ok {
		t.Error("MulSize overflowed silently")
	}
	if n, ok := MulSize(1<<40, 4); !ok || n != 1<<42 {
		t.Errorf("MulSize(2^40, 4) = %d, %v", n, ok)
	}
	if n := SaturatingAdd(5, 7); n != 12 {
		t.Errorf("SaturatingAdd(5, 7) = %d", n)
	}
	if n := SaturatingAdd(math.MaxInt64-1, 2); n != math.MaxInt64 {
		t.Errorf("SaturatingAdd(2^63-2, 2) = %d, want 2^63-1", n)
	}
}
