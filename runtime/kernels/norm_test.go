package kernels

import (
	"math"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

func TestRMSNorm(t *testing.T) {
	rng := tensor.NewRNG(7)
	x, g := randF32(rng, -3, 3, 2, 3, 64), randF32(rng, 0.5, 1.5, 64)
	const eps = 1e-5
	got := must(t)(RMSNorm(x, g, NormAttrs{Epsilon: eps}, tensor.F32))
	xv, gv := f64s(x), f64s(g)
	want := make([]float64, len(xv))
	for row := 0; row < 6; row++ {
		var ss float64
		for i := range 64 {
			ss += xv[row*64+i] * xv[row*64+i]
		}
		r := 1 / math.Sqrt(ss/64+eps)
		for i := range 64 {
			want[row*64+i] = xv[row*64+i] * r * gv[i]
		}
	}
	assertClose(t, "rms_norm", got, want, 2e-6, 1e-7)
	if _, err := RMSNorm(x, randF32(rng, 0, 1, 63), NormAttrs{}, tensor.F32); err == nil {
		t.Error("wrong gamma shape succeeded")
	}
}

func TestLayerNorm(t *testing.T) {
	rng := tensor.NewRNG(8)
	// An offset mean checks that the variance is computed around it.
	x, g, b := randF32(rng, 9, 11, 5, 48), randF32(rng, 0.5, 1.5, 48), randF32(rng, -1, 1, 48)
	const eps = 1e-5
	got := must(t)(LayerNorm(x, g, b, NormAttrs{Epsilon: eps}, tensor.F32))
	xv, gv, bv := f64s(x), f64s(g), f64s(b)
	want := make([]float64, len(xv))
	for row := range 5 {
		r := xv[row*48 : (row+1)*48]
		var mean, v float64
		for _, e := range r {
			mean += e / 48
		}
		for _, e := range r {
			v += (e - mean) * (e - mean) / 48 // biased variance
		}
		for i, e := range r {
			want[row*48+i] = (e-mean)/math.Sqrt(v+eps)*gv[i] + bv[i]
		}
	}
	assertClose(t, "layer_norm", got, want, 1e-5, 1e-5)
}

func TestSoftmaxAxes(t *testing.T) {
	rng := tensor.NewRNG(9)
	x := randF32(rng, -5, 5, 3, 4, 5)
	for _, axis := range []int{0, 1, 2, -1, -3} {
		got := must(t)(Softmax(x, SoftmaxAttrs{Axis: axis}, tensor.F32))
		ax := (axis + 3) % 3
		shape := x.Shape()
		want := make([]float64, x.Len())
		for i := range want {
			idx := unravel(i, shape)
			var den float64
			for j := range shape[ax] {
				o := append([]int{}, idx...)
				o[ax] = j
				den += math.Exp(x.Float64(ravel(o, shape)))
			}
			want[i] = math.Exp(x.Float64(i)) / den
		}
		assertClose(t, "softmax", got, want, 1e-6, 1e-9)
	}
	if _, err := Softmax(x, SoftmaxAttrs{Axis: 3}, tensor.F32); err == nil {
		t.Error("axis 3 of a rank-3 tensor succeeded")
	}
}

func TestSoftmaxLargeAndInfinite(t *testing.T) {
	inf := float32(math.Inf(1))
	got := must(t)(Softmax(f32([]int{2, 3}, 1000, 1000, -inf, -inf, -inf, -inf), SoftmaxAttrs{Axis: -1}, tensor.F32)).Floats()
	if got[0] != 0.5 || got[1] != 0.5 || got[2] != 0 {
		t.Errorf("softmax of large values = %v", got[:3])
	}
	for _, v := range got[3:] {
		if !math.IsNaN(float64(v)) {
			t.Errorf("softmax of all −∞ = %v, want NaN (as PyTorch)", got[3:])
		}
	}
}
