package kernels

import (
	"math"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// randF32 returns an f32 tensor of uniform values in [lo, hi].
func randF32(rng *tensor.RNG, lo, hi float32, shape ...int) *tensor.Tensor {
	t, err := rng.Uniform(tensor.F32, shape, lo, hi)
	if err != nil {
		panic(err)
	}
	return t
}

// f32 builds an f32 tensor from literal values.
func f32(shape []int, v ...float32) *tensor.Tensor {
	t, err := tensor.FromFloat32(tensor.F32, shape, v)
	if err != nil {
		panic(err)
	}
	return t
}

// ints builds an integer tensor from literal values.
func ints(dt tensor.DType, shape []int, v ...int64) *tensor.Tensor {
	t, err := tensor.FromInt64(dt, shape, v)
	if err != nil {
		panic(err)
	}
	return t
}

// f64s returns the elements of a floating-point tensor as float64.
func f64s(t *tensor.Tensor) []float64 {
	v := make([]float64, t.Len())
	for i := range v {
		v[i] = t.Float64(i)
	}
	return v
}

// assertClose checks got against a float64 reference: each element must be
// within atol + rtol·|want|, and the NaN/infinity pattern must match.
func assertClose(t *testing.T, what string, got *tensor.Tensor, want []float64, rtol, atol float64) {
	t.Helper()
	if got.Len() != len(want) {
		t.Fatalf("%s: %d elements, want %d", what, got.Len(), len(want))
	}
	bad := 0
	for i, w := range want {
		g := got.Float64(i)
		ok := g == w || (math.IsNaN(g) && math.IsNaN(w)) ||
			(!math.IsInf(w, 0) && math.Abs(g-w) <= atol+rtol*math.Abs(w))
		if !ok {
			if bad < 5 {
				t.Errorf("%s: element %d = %g, want %g", what, i, g, w)
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d elements differ", what, bad, len(want))
	}
}

// must returns a function that unwraps a kernel's result, failing the test
// on error: must(t)(MatMul(a, b, tensor.F32)).
func must(t *testing.T) func(*tensor.Tensor, error) *tensor.Tensor {
	return func(r *tensor.Tensor, err error) *tensor.Tensor {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
}

// unravel returns the multi-index of flat element i of shape.
func unravel(i int, shape []int) []int {
	idx := make([]int, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		if shape[d] > 0 {
			idx[d] = i % shape[d]
			i /= shape[d]
		}
	}
	return idx
}

// ravel returns the flat index of idx in shape.
func ravel(idx, shape []int) int {
	i := 0
	for d, v := range idx {
		i = i*shape[d] + v
	}
	return i
}

// nmse returns Σ(got−want)²/Σwant², the metric of ggml's test-backend-ops.
func nmse(got *tensor.Tensor, want []float64) float64 {
	var num, den float64
	for i, w := range want {
		d := got.Float64(i) - w
		num += d * d
		den += w * w
	}
	return num / den
}
