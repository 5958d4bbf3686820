package kernels

import (
	"math"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// unaryRefs are the spec formulas in float64 with the math package, written
// as plainly as possible (naive forms, so the test ranges avoid the regions
// where they cancel).
var unaryRefs = map[UnaryOp]func(float64) float64{
	Neg:        func(x float64) float64 { return -x },
	Abs:        math.Abs,
	Exp:        math.Exp,
	Log:        math.Log,
	Sqrt:       math.Sqrt,
	Rsqrt:      func(x float64) float64 { return 1 / math.Sqrt(x) },
	Reciprocal: func(x float64) float64 { return 1 / x },
	Sigmoid:    func(x float64) float64 { return 1 / (1 + math.Exp(-x)) },
	Tanh:       math.Tanh,
	Sin:        math.Sin,
	Cos:        math.Cos,
	Relu:       func(x float64) float64 { return math.Max(x, 0) },
	Softplus:   func(x float64) float64 { return math.Log(1 + math.Exp(x)) },
	Silu:       func(x float64) float64 { return x / (1 + math.Exp(-x)) },
	Gelu:       func(x float64) float64 { return 0.5 * x * (1 + math.Erf(x/math.Sqrt2)) },
	GeluTanh: func(x float64) float64 {
		return 0.5 * x * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(x+0.044715*x*x*x)))
	},
}

func TestUnaryAgainstFloat64(t *testing.T) {
	rng := tensor.NewRNG(1)
	x := randF32(rng, -4, 4, 3, 1000)
	pos := randF32(rng, 1e-3, 50, 1000)
	for op := range unaryRefs {
		in := x
		if op == Log || op == Sqrt || op == Rsqrt {
			in = pos
		}
		got := must(t)(Unary(op, in, tensor.F32))
		want := make([]float64, in.Len())
		for i, v := range f64s(in) {
			want[i] = unaryRefs[op](v)
		}
		// One float32 ulp (plus slack for the naive references).
		assertClose(t, string(op), got, want, 3e-7, 1e-30)
	}
}

func TestUnarySpecialValues(t *testing.T) {
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	negZero := float32(math.Copysign(0, -1))
	tests := []struct {
		op       UnaryOp
		in, want float32
	}{
		{Exp, -inf, 0}, {Exp, 89, inf}, {Exp, -104, 0}, {Log, 0, -inf}, {Log, -1, nan},
		{Sqrt, -1, nan}, {Rsqrt, 0, inf}, {Reciprocal, negZero, -inf},
		{Sigmoid, -200, 0}, {Sigmoid, 200, 1}, {Tanh, 30, 1}, {Tanh, -30, -1},
		{Relu, negZero, 0}, {Relu, nan, nan}, {Relu, -3, 0},
		{Softplus, 100, 100}, {Softplus, -100, 3.720076e-44}, {Softplus, 0, float32(math.Ln2)},
		{Silu, -200, negZero}, {Gelu, -10, -7.619853e-23}, {Gelu, 10, 10}, {GeluTanh, -20, negZero}, {GeluTanh, 20, 20},
		{Sin, inf, nan}, {Cos, 0, 1}, {Neg, 0, negZero}, {Abs, negZero, 0},
	}
	for _, tc := range tests {
		got := must(t)(Unary(tc.op, f32([]int{1}, tc.in), tensor.F32)).Floats()[0]
		same := math.Float32bits(got) == math.Float32bits(tc.want) || (got != got && tc.want != tc.want)
		if !same && !(tc.want != 0 && math.Abs(float64(got-tc.want)) <= 1e-6*math.Abs(float64(tc.want))) {
			t.Errorf("%s(%g) = %g, want %g", tc.op, tc.in, got, tc.want)
		}
	}
	// gelu for very negative inputs keeps its tiny value (no cancellation).
	g := must(t)(Unary(Gelu, f32([]int{1}, -6), tensor.F32)).Floats()[0]
	if want := -6 * 0.5 * math.Erfc(6/math.Sqrt2); math.Abs(float64(g)-want) > 1e-6*math.Abs(want) {
		t.Errorf("gelu(-6) = %g, want %g", g, want)
	}
}

func TestUnaryRoundsToResultType(t *testing.T) {
	x := f32([]int{3}, 0.1, 1, 2)
	for _, dt := range []tensor.DType{tensor.F16, tensor.BF16} {
		got := must(t)(Unary(Exp, x, dt))
		for i, v := range got.Floats() {
			want := tensor.RoundFloat(dt, float32(math.Exp(float64(x.Floats()[i]))))
			if v != want {
				t.Errorf("exp %v element %d = %g, want %g", dt, i, v, want)
			}
		}
	}
}

func TestUnaryIntegers(t *testing.T) {
	x := ints(tensor.I8, []int{4}, -128, -3, 0, 5)
	neg := must(t)(Unary(Neg, x, tensor.I8)).Ints()
	if want := []int64{-128, 3, 0, -5}; !equalInts(neg, want) {
		t.Errorf("neg i8 = %v, want %v", neg, want)
	}
	relu := must(t)(Unary(Relu, x, tensor.I8)).Ints()
	if want := []int64{0, 0, 0, 5}; !equalInts(relu, want) {
		t.Errorf("relu i8 = %v, want %v", relu, want)
	}
	if _, err := Unary(Exp, x, tensor.I8); err == nil || !strings.Contains(err.Error(), "graph.exp") {
		t.Errorf("exp of i8: %v", err)
	}
	if _, err := Unary(Exp, f32([]int{1}, 1), tensor.I32); err == nil {
		t.Error("float exp into i32 succeeded")
	}
	if _, err := Unary("erf", x, tensor.I8); err == nil {
		t.Error("unknown op succeeded")
	}
}

func equalInts(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// broadcastRef computes op over the broadcast of a and b by explicit
// index arithmetic (independent of the odometer in the kernel).
func broadcastRef(a, b *tensor.Tensor, f func(x, y float64) float64) ([]int, []float64) {
	shape, _ := tensor.BroadcastShapes(a.Shape(), b.Shape())
	n := tensor.NumElements(shape)
	out := make([]float64, n)
	pick := func(t *tensor.Tensor, idx []int) float64 {
		off := len(idx) - t.Rank()
		sub := make([]int, t.Rank())
		for d := range sub {
			if t.Shape()[d] != 1 {
				sub[d] = idx[off+d]
			}
		}
		return t.Float64(ravel(sub, t.Shape()))
	}
	for i := range out {
		idx := unravel(i, shape)
		out[i] = f(pick(a, idx), pick(b, idx))
	}
	return shape, out
}

func TestBinaryBroadcasting(t *testing.T) {
	cases := []struct{ a, b []int }{
		{[]int{2, 3}, []int{2, 3}},
		{[]int{2, 3}, []int{1}},          // scalar-like
		{[]int{1}, []int{2, 3}},          // scalar-like on the left
		{[]int{2, 3}, []int{}},           // rank 0
		{[]int{3}, []int{2, 4, 3}},       // rank mismatch
		{[]int{2, 1, 3}, []int{1, 4, 1}}, // middle size-1 dims on both sides
		{[]int{4, 1, 3}, []int{5, 1}},
		{[]int{2, 1, 1, 3}, []int{2, 5, 1}},
	}
	refs := map[BinaryOp]func(x, y float64) float64{
		Add: func(x, y float64) float64 { return x + y },
		Sub: func(x, y float64) float64 { return x - y },
		Mul: func(x, y float64) float64 { return x * y },
		Div: func(x, y float64) float64 { return x / y },
		Max: math.Max,
		Min: math.Min,
		Pow: math.Pow,
	}
	rng := tensor.NewRNG(2)
	for _, c := range cases {
		a, b := randF32(rng, 0.5, 2, c.a...), randF32(rng, -2, 2, c.b...)
		for op := range refs {
			got := must(t)(Binary(op, a, b, tensor.F32))
			shape, want := broadcastRef(a, b, refs[op])
			if !tensor.ShapeEqual(got.Shape(), shape) {
				t.Fatalf("%s %v %v: shape %v, want %v", op, c.a, c.b, got.Shape(), shape)
			}
			// add/sub/mul/div/max/min are single float32 roundings of the exact value.
			assertClose(t, string(op), got, want, 1.2e-7, 0)
		}
	}
	if _, err := Binary(Add, randF32(rng, 0, 1, 2, 3), randF32(rng, 0, 1, 3, 2), tensor.F32); err == nil {
		t.Error("incompatible shapes succeeded")
	}
	if _, err := Binary(Add, randF32(rng, 0, 1, 2), ints(tensor.I32, []int{2}, 1, 2), tensor.F32); err == nil {
		t.Error("float + int succeeded")
	}
}

func TestBinaryFloatEdgeCases(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	negZero := float32(math.Copysign(0, -1))
	tests := []struct {
		op         BinaryOp
		a, b, want float32
	}{
		{Max, nan, 1, nan}, {Max, 1, nan, nan}, {Min, nan, 1, nan},
		{Max, negZero, 0, 0}, {Max, 0, negZero, 0}, {Min, 0, negZero, negZero}, {Min, negZero, 0, negZero},
		{Div, 1, 0, inf}, {Div, 0, 0, nan}, {Pow, -2, 3, -8}, {Pow, -2, 0.5, nan}, {Pow, 0, -1, inf},
		{Pow, 2, 0.5, float32(math.Sqrt2)}, {Add, inf, -inf, nan},
	}
	for _, tc := range tests {
		got := must(t)(Binary(tc.op, f32([]int{1}, tc.a), f32([]int{1}, tc.b), tensor.F32)).Floats()[0]
		if math.Float32bits(got) != math.Float32bits(tc.want) && !(got != got && tc.want != tc.want) {
			t.Errorf("%s(%g, %g) = %g, want %g", tc.op, tc.a, tc.b, got, tc.want)
		}
	}
}

func TestBinaryIntegers(t *testing.T) {
	a := ints(tensor.I32, []int{4}, -7, 7, math.MaxInt32, 3)
	b := ints(tensor.I32, []int{4}, 2, -2, 1, 4)
	check := func(op BinaryOp, want ...int64) {
		t.Helper()
		got := must(t)(Binary(op, a, b, tensor.I32)).Ints()
		if !equalInts(got, want) {
			t.Errorf("%s = %v, want %v", op, got, want)
		}
	}
	check(Div, -3, -3, math.MaxInt32, 0) // truncation toward zero
	check(Add, -5, 5, math.MinInt32, 7)  // wraps
	if got := must(t)(Binary(Pow, a, ints(tensor.I32, []int{1}, 3), tensor.I32)).Ints(); !equalInts(got, []int64{-343, 343, math.MaxInt32, 27}) {
		t.Errorf("pow = %v", got)
	}
	if _, err := Binary(Pow, a, b, tensor.I32); err == nil || !strings.Contains(err.Error(), "negative exponent") {
		t.Errorf("negative integer power: %v", err)
	}
	big := ints(tensor.I64, []int{2}, 1<<53+1, -(1 << 62))
	sum := must(t)(Binary(Add, big, ints(tensor.I64, []int{1}, 1), tensor.I64)).Ints()
	if sum[0] != 1<<53+2 || sum[1] != -(1<<62)+1 {
		t.Errorf("i64 add lost precision: %v", sum)
	}
	if _, err := Binary(Div, a, ints(tensor.I32, []int{1}, 0), tensor.I32); err == nil || !strings.Contains(err.Error(), "division by zero") {
		t.Errorf("division by zero: %v", err)
	}
}

func TestCmp(t *testing.T) {
	nan := float32(math.NaN())
	a := f32([]int{4}, 1, 2, nan, 3)
	b := f32([]int{1}, 2)
	want := map[Predicate][]int64{
		Eq: {0, 1, 0, 0}, Ne: {1, 0, 1, 1}, Lt: {1, 0, 0, 0},
		Le: {1, 1, 0, 0}, Gt: {0, 0, 0, 1}, Ge: {0, 1, 0, 1},
	}
	for p, w := range want {
		got := must(t)(Cmp(a, b, CmpAttrs{Predicate: p}))
		if got.DType() != tensor.I1 || !equalInts(got.Ints(), w) {
			t.Errorf("%s = %v, want %v", p, got.Ints(), w)
		}
	}
	// i64 values that collide in float64 still compare exactly.
	x := ints(tensor.I64, []int{1}, 1<<53+1)
	y := ints(tensor.I64, []int{1}, 1<<53)
	if got := must(t)(Cmp(x, y, CmpAttrs{Predicate: Gt})).Ints()[0]; got != 1 {
		t.Error("2^53+1 > 2^53 is false")
	}
	if _, err := Cmp(a, b, CmpAttrs{Predicate: "lte"}); err == nil {
		t.Error("unknown predicate succeeded")
	}
}

func TestSelectBroadcasts(t *testing.T) {
	c := ints(tensor.I1, []int{2, 1}, 1, 0)
	a := f32([]int{3}, 1, 2, 3)
	b := f32([]int{1}, -1)
	got := must(t)(Select(c, a, b, tensor.F32))
	want := []float64{1, 2, 3, -1, -1, -1}
	if !tensor.ShapeEqual(got.Shape(), []int{2, 3}) {
		t.Fatalf("shape %v", got.Shape())
	}
	assertClose(t, "select", got, want, 0, 0)
	fc := f32([]int{3}, 0, float32(math.NaN()), 2)
	gi := must(t)(Select(fc, ints(tensor.I32, []int{3}, 1, 2, 3), ints(tensor.I32, []int{3}, 7, 8, 9), tensor.I32))
	if !equalInts(gi.Ints(), []int64{7, 2, 3}) {
		t.Errorf("select with a float condition = %v", gi.Ints())
	}
}

func TestCast(t *testing.T) {
	x := f32([]int{8}, 2.7, -2.7, float32(math.NaN()), 1e20, -1e20, 0.5, 65520, 1.00048828125)
	i32 := must(t)(Cast(x, tensor.I32)).Ints()
	if want := []int64{2, -2, 0, math.MaxInt32, math.MinInt32, 0, 65520, 1}; !equalInts(i32, want) {
		t.Errorf("f32 -> i32 = %v, want %v", i32, want)
	}
	i1 := must(t)(Cast(x, tensor.I1)).Ints()
	if want := []int64{1, 1, 1, 1, 1, 1, 1, 1}; !equalInts(i1, want) {
		t.Errorf("f32 -> i1 = %v", i1)
	}
	h := must(t)(Cast(x, tensor.F16)).Floats()
	if h[6] != float32(math.Inf(1)) || h[7] != 1 || h[0] != 2.69921875 { // 1+2^-11 ties to even
		t.Errorf("f32 -> f16 = %v", h)
	}
	u := must(t)(Cast(ints(tensor.I64, []int{3}, 300, -1, 1<<40+7), tensor.UI8)).Bytes()
	if u[0] != 44 || u[1] != 255 || u[2] != 7 {
		t.Errorf("i64 -> ui8 = %v", u)
	}
	n := must(t)(Cast(ints(tensor.I64, []int{2}, 1<<24+1, -3), tensor.F32)).Floats()
	if n[0] != 1<<24 || n[1] != -3 {
		t.Errorf("i64 -> f32 = %v", n)
	}
	w := must(t)(Cast(ints(tensor.I64, []int{1}, 1<<33+5), tensor.I32)).Ints()
	if w[0] != 5 {
		t.Errorf("i64 -> i32 wrap = %v", w)
	}
}
