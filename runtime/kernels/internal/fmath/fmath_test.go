package fmath

import (
	"math"
	"runtime"
	"testing"
)

// ulps returns the distance between a and b in units in the last place.
func ulps(a, b float64) float64 {
	if a == b || (math.IsNaN(a) && math.IsNaN(b)) {
		return 0
	}
	if math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return math.Inf(1)
	}
	u := math.Abs(math.Nextafter(b, math.Inf(1)) - b)
	return math.Abs(a-b) / u
}

// TestAgainstMath compares each function with the math package over a sweep
// of arguments; both are accurate to about an ulp.
func TestAgainstMath(t *testing.T) {
	fns := []struct {
		name  string
		got   func(float64) float64
		want  func(float64) float64
		lo    float64
		hi    float64
		limit float64
	}{
		{"Exp", Exp, math.Exp, -750, 709, 2}, // amd64 math.Exp overflows early, near 709.4
		{"Log", Log, math.Log, 1e-300, 1e300, 2},
		{"Log1p", Log1p, math.Log1p, -0.999, 1e6, 4},
		{"Expm1", Expm1, math.Expm1, -40, 40, 4},
		{"Tanh", Tanh, math.Tanh, -30, 30, 4},
		{"Erf", Erf, math.Erf, -7, 7, 4},
		{"Erfc", Erfc, math.Erfc, -7, 27, 4},
		{"Sin", Sin, math.Sin, -1e4, 1e4, 2},
		{"Cos", Cos, math.Cos, -1e4, 1e4, 2},
	}
	for _, fn := range fns {
		for i := 0; i <= 20000; i++ {
			var x float64
			if fn.name == "Log" {
				x = math.Exp(math.Log(fn.lo) + (math.Log(fn.hi)-math.Log(fn.lo))*float64(i)/20000)
			} else {
				x = fn.lo + (fn.hi-fn.lo)*float64(i)/20000
			}
			for _, v := range []float64{x, x * 1e-9, x * 1e-300} {
				g, w := fn.got(v), fn.want(v)
				if v != 0 && math.Abs(v) < 0x1p-1022 || w != 0 && math.Abs(w) < 1e-300 {
					continue // amd64 math.Log is wrong for subnormals
				}
				limit := fn.limit
				if runtime.GOARCH == "s390x" {
					limit *= 64 // s390x's math package is assembly, tens of ulps off
				}
				if d := ulps(g, w); d > limit {
					t.Fatalf("%s(%g) = %g, math gives %g (%g ulps)", fn.name, v, g, w, d)
				}
			}
		}
	}
	for _, x := range []float64{1e10, 1e22, 1e300, 3e38} {
		if d := ulps(Sin(x), math.Sin(x)); d > 2 {
			t.Errorf("Sin(%g) = %g, want %g", x, Sin(x), math.Sin(x))
		}
		if d := ulps(Cos(x), math.Cos(x)); d > 2 {
			t.Errorf("Cos(%g) = %g, want %g", x, Cos(x), math.Cos(x))
		}
	}
}

func TestPow(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	tests := [][3]float64{
		{2, 10, 1024}, {2, -1, 0.5}, {-2, 3, -8}, {-2, 2, 4}, {-2, 0.5, nan},
		{0, -1, inf}, {0, 2, 0}, {math.Copysign(0, -1), -3, -inf}, {1, nan, 1}, {nan, 0, 1},
		{0.5, inf, 0}, {2, inf, inf}, {-1, inf, 1}, {inf, -1, 0}, {-inf, 3, -inf}, {-inf, 2, inf},
		{9, 0.5, 3}, {10, -2, 0.01},
	}
	for _, tc := range tests {
		got := Pow(tc[0], tc[1])
		if ulps(got, tc[2]) > 4 {
			t.Errorf("Pow(%g, %g) = %g, want %g", tc[0], tc[1], got, tc[2])
		}
	}
	for i := 1; i < 2000; i++ {
		x, y := float64(i)/97, float64(i%37)/7-2.5
		if d := ulps(Pow(x, y), math.Pow(x, y)); d > 64 {
			t.Fatalf("Pow(%g, %g) = %g, want %g", x, y, Pow(x, y), math.Pow(x, y))
		}
	}
}
