package runtimetest

import (
	"math"
	"slices"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/plan"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

func TestNMSE(t *testing.T) {
	f := func(v ...float32) *tensor.Tensor {
		x, err := tensor.FromFloat32(tensor.F32, []int{len(v)}, v)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	for _, tc := range []struct {
		a, b *tensor.Tensor
		want float64
	}{
		{f(1, 2), f(1, 2), 0},
		{f(1, 3), f(1, 2), 0.2},
		{f(0, 0), f(0, 0), 0},
		{f(1, 0), f(0, 0), math.Inf(1)},
	} {
		if got := NMSE(tc.a, tc.b); math.Abs(got-tc.want) > 1e-12 && got != tc.want {
			t.Errorf("NMSE(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestShared(t *testing.T) {
	a := &plan.Step{Outputs: []int{3, 4, 5}}
	b := &plan.Step{Inputs: []int{5, 1, 3, 3}}
	if got := Shared(a, b); !slices.Equal(got, []int{3, 5}) {
		t.Errorf("Shared = %v, want [3 5]", got)
	}
}
