package mpsregions

import (
	"math"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

func f32s(t *testing.T, v ...float32) *tensor.Tensor {
	t.Helper()
	x, err := tensor.FromFloat32(tensor.F32, []int{len(v)}, v)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestRelError: NaNs of any sign and payload are equal (C's inf·0 and
// Go's differ in sign), a NaN or an infinity against anything else is
// +Inf, and the rest is max |a − b| over max |b|.
func TestRelError(t *testing.T) {
	negNaN := math.Float32frombits(0xFFC00000)
	posNaN := math.Float32frombits(0x7FC00001)
	inf := float32(math.Inf(1))
	for _, c := range []struct {
		name string
		a, b []float32
		want float64
	}{
		{"equal", []float32{1, 2}, []float32{1, 2}, 0},
		{"signed zeros", []float32{0}, []float32{float32(math.Copysign(0, -1))}, 0},
		{"NaN payloads", []float32{negNaN, 1}, []float32{posNaN, 1}, 0},
		{"NaN against a number", []float32{negNaN, 1}, []float32{0.5, 1}, math.Inf(1)},
		{"infinity against a number", []float32{inf, 1}, []float32{2, 1}, math.Inf(1)},
		{"equal infinities", []float32{inf, 1}, []float32{inf, 1}, 0},
		{"relative to the largest", []float32{1.5, 4}, []float32{1, 4}, 0.125},
		{"all zeros", []float32{1e-30}, []float32{0}, math.Inf(1)},
	} {
		if got := RelError(f32s(t, c.a...), f32s(t, c.b...)); got != c.want {
			t.Errorf("%s: RelError %g, want %g", c.name, got, c.want)
		}
	}
}
