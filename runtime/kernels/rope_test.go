package kernels

import (
	"fmt"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

func ropeRef(x, cos, sin *tensor.Tensor, B, S, H, D, R int, style RopeStyle) []float64 {
	out := f64s(x)
	for b := range B {
		for s := range S {
			for h := range H {
				base := ((b*S+s)*H + h) * D
				for p := range R / 2 {
					i1, i2 := base+p, base+p+R/2
					if style == RopeGPTJ {
						i1, i2 = base+2*p, base+2*p+1
					}
					c, n := cos.Float64(s*R/2+p), sin.Float64(s*R/2+p)
					x1, x2 := x.Float64(i1), x.Float64(i2)
					out[i1] = x1*c - x2*n
					out[i2] = x2*c + x1*n
				}
			}
		}
	}
	return out
}

func TestRope(t *testing.T) {
	const B, S, H, D = 2, 3, 4, 16
	rng := tensor.NewRNG(11)
	x := randF32(rng, -2, 2, B, S, H, D)
	for _, R := range []int{D, 8, 0} {
		cos, sin := randF32(rng, -1, 1, S, R/2), randF32(rng, -1, 1, S, R/2)
		for _, style := range []RopeStyle{RopeNeoX, RopeGPTJ} {
			name := fmt.Sprintf("%s R=%d", style, R)
			attrs := RopeAttrs{HeadDim: D, RotaryDim: R, Style: style}
			got := must(t)(Rope(x, cos, sin, attrs, tensor.F32))
			assertClose(t, name, got, ropeRef(x, cos, sin, B, S, H, D, R, style), 1e-6, 1e-6)
			// Dimensions ≥ R are copied bit for bit.
			for i, v := range got.Floats() {
				if i%D >= R && v != x.Floats()[i] {
					t.Fatalf("%s: pass-through element %d changed", name, i)
				}
			}
			// The packed [B, S, H·D] layout gives the same bits.
			packed := must(t)(Reshape(x, []int{B, S, H * D}))
			got3 := must(t)(Rope(packed, cos, sin, attrs, tensor.F32))
			if !tensor.BitsEqual(must(t)(Reshape(got3, x.Shape())), got) {
				t.Errorf("%s: rank-3 and rank-4 results differ", name)
			}
		}
	}
	bad := []RopeAttrs{
		{HeadDim: D, RotaryDim: 7, Style: RopeNeoX},
		{HeadDim: D, RotaryDim: 18, Style: RopeNeoX},
		{HeadDim: 5, RotaryDim: 4, Style: RopeNeoX},
		{HeadDim: D, RotaryDim: 8, Style: "llama"},
	}
	cos := randF32(rng, -1, 1, S, 4)
	for _, a := range bad {
		if _, err := Rope(x, cos, cos, a, tensor.F32); err == nil {
			t.Errorf("%+v succeeded", a)
		}
	}
	if _, err := Rope(x, randF32(rng, -1, 1, S+1, 4), cos, RopeAttrs{HeadDim: D, RotaryDim: 8, Style: RopeNeoX}, tensor.F32); err == nil {
		t.Error("cos with the wrong number of rows succeeded")
	}
}
