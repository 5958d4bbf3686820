package conditioning

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/codegen/metal/opsuite"
	"github.com/rlx-compiler/rlx/dialect/builtin"
	"github.com/rlx-compiler/rlx/internal/irtest"
	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// TestPerturb: every f32 element moves by exactly perturbULPs ulps of
// its own binade (1 ± 64·2⁻²³ of a power of two is exact), f16 and bf16
// by one of theirs, in both directions over a few elements; an integer
// tensor comes back as it is.
func TestPerturb(t *testing.T) {
	for _, c := range []struct {
		dt  tensor.DType
		eps float64
	}{{tensor.F32, perturbULPs * 0x1p-23}, {tensor.F16, 0x1p-10}, {tensor.BF16, 0x1p-7}} {
		in := make([]float32, 16)
		for i := range in {
			in[i] = float32(math.Ldexp(1, i-8))
		}
		x, err := tensor.FromFloat32(c.dt, []int{16}, in)
		if err != nil {
			t.Fatal(err)
		}
		p := perturb(x, 5)
		ups := 0
		for i, v := range p.Floats() {
			r := float64(v)/float64(in[i]) - 1
			switch r {
			case c.eps:
				ups++
			case -c.eps:
			default:
				t.Errorf("%v element %d: %g moved to %g (×1%+g), want ×(1 ± %g)", c.dt, i, in[i], v, r, c.eps)
			}
		}
		if ups == 0 || ups == 16 {
			t.Errorf("%v: %d of 16 elements moved up, want both directions", c.dt, ups)
		}
		if x.Floats()[0] != in[0] {
			t.Errorf("%v: perturb changed its input", c.dt)
		}
	}
	ints, err := tensor.FromInt64(tensor.I32, []int{2}, []int64{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if perturb(ints, 1) != ints {
		t.Error("an integer tensor was not returned as it is")
	}
}

// TestPerturbScales: q4_0 blocks' d (the first two bytes of 18) move by
// one f16 ulp, their quants stay, and a zero d stays zero; q4_k moves d
// and dmin; q6_k its d at byte 208 of 210.
func TestPerturbScales(t *testing.T) {
	for _, c := range []struct {
		f       gguf.Format
		k       int
		offsets []int
	}{{gguf.Q4_0, 32, []int{0}}, {gguf.Q4_K, 256, []int{0, 2}}, {gguf.Q6_K, 256, []int{208}}} {
		bb := c.f.BlockBytes()
		b := make([]byte, 3*bb)
		for i := range b {
			b[i] = byte(i*7 + 1)
		}
		for blk := range 3 {
			for _, o := range c.offsets {
				h := uint16(0x3c00) // 1.0
				if blk == 2 {
					h = 0
				}
				binary.LittleEndian.PutUint16(b[blk*bb+o:], h)
			}
		}
		w, err := tensor.FromBytes([]int{len(b)}, b)
		if err != nil {
			t.Fatal(err)
		}
		got := perturbScales(w, &ref.QuantUse{Format: c.f, N: 3, K: c.k}, 9).Bytes()
		scale := map[int]bool{}
		for blk := range 3 {
			for _, o := range c.offsets {
				at := blk*bb + o
				scale[at], scale[at+1] = true, true
				h := binary.LittleEndian.Uint16(got[at:])
				switch {
				case blk == 2 && h != 0:
					t.Errorf("%v block %d: a zero scale moved to %#x", c.f, blk, h)
				case blk < 2 && h != 0x3c01 && h != 0x3bff:
					t.Errorf("%v block %d scale at %d: %#x, want 1.0 moved by one ulp", c.f, blk, o, h)
				}
			}
		}
		for i := range got {
			if !scale[i] && got[i] != b[i] {
				t.Errorf("%v: byte %d, not a scale, changed", c.f, i)
				break
			}
		}
	}
}

// TestNMSE: the GPU driver's rules for NaN and infinity.
func TestNMSE(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for _, c := range []struct {
		a, b []float32
		want float64
	}{
		{[]float32{1, 2}, []float32{1, 2}, 0},
		{[]float32{1, 3}, []float32{1, 2}, 1.0 / 5},
		{[]float32{nan, 2}, []float32{1, 2}, math.Inf(1)},
		{[]float32{1, 2}, []float32{nan, 2}, math.Inf(1)},
		{[]float32{nan, 3}, []float32{nan, 2}, 1.0 / 4},
		{[]float32{inf, 2}, []float32{inf, 2}, 0},
		{[]float32{-inf, 2}, []float32{inf, 2}, math.Inf(1)},
		{[]float32{1, 2}, []float32{inf, 2}, math.Inf(1)},
		{[]float32{0, 0}, []float32{0, 0}, 0},
		{[]float32{0, 1}, []float32{0, 0}, 1},
	} {
		a, _ := tensor.FromFloat32(tensor.F32, []int{2}, c.a)
		b, _ := tensor.FromFloat32(tensor.F32, []int{2}, c.b)
		if got := NMSE(a, b); got != c.want {
			t.Errorf("NMSE(%v, %v) = %g, want %g", c.a, c.b, got, c.want)
		}
	}
}

// TestMoved: x − y of two nearly equal values is ill-conditioned (64 ulps
// of the operands are many of the difference), x + y is not.
func TestMoved(t *testing.T) {
	p := mustCompile(t, `func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %s = graph.sub %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %a = graph.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %s, %a : tensor<4xf32>, tensor<4xf32>
}`)
	x, _ := tensor.FromFloat32(tensor.F32, []int{4}, []float32{1, 2, 3, 4})
	y, _ := tensor.FromFloat32(tensor.F32, []int{4}, []float32{1 + 0x1p-20, 2 + 0x1p-19, 3 + 0x1p-18, 4 + 0x1p-18})
	_, moved := runMoved(t, p, x, y)
	if limit := opsuite.LimitExact; !(moved[0] > limit) || !(moved[1] <= limit) {
		t.Errorf("moved %v: want x − y beyond %g and x + y within it", moved, limit)
	}
}

// TestLimit: a function's limit is its widest-rounding value's.
func TestLimit(t *testing.T) {
	for _, c := range []struct {
		mid  string
		want float64
	}{{"f32", opsuite.LimitExact}, {"f16", opsuite.LimitF16}, {"bf16", opsuite.LimitBF16}} {
		m := irtest.ParseVerify(t, nil, `func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = graph.cast %x : (tensor<4xf32>) -> tensor<4x`+c.mid+`>
  %r = graph.cast %c : (tensor<4x`+c.mid+`>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}`)
		if got := Limit(builtin.Body(m).First()); got != c.want {
			t.Errorf("through %s: limit %g, want %g", c.mid, got, c.want)
		}
	}
}

// TestMovedRunFails: a program that runs on its inputs but not on inputs
// moved by a few ulps (indices cast from floats just under the table's
// size) makes Moved an error that says which run failed and why.
func TestMovedRunFails(t *testing.T) {
	p := mustCompile(t, `func.func @f(%x: tensor<8xf32>, %t: tensor<3x2xf32>) -> tensor<8x2xf32> {
  %i = graph.cast %x : (tensor<8xf32>) -> tensor<8xi32>
  %g = graph.gather %t, %i {axis = 0 : i64} : (tensor<3x2xf32>, tensor<8xi32>) -> tensor<8x2xf32>
  return %g : tensor<8x2xf32>
}`)
	under := math.Float32frombits(math.Float32bits(3) - 32) // 3 − 32 ulps: casts to 2
	xs := make([]float32, 8)
	for i := range xs {
		xs[i] = under
	}
	x, _ := tensor.FromFloat32(tensor.F32, []int{8}, xs)
	tab, _ := tensor.FromFloat32(tensor.F32, []int{3, 2}, []float32{1, 2, 3, 4, 5, 6})
	err := movedErr(t, p, x, tab)
	if err == nil || !strings.Contains(err.Error(), "the perturbed run: ") || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("Moved: %v; want the perturbed run's out-of-range gather", err)
	}
}

// TestMovedConstants: two equal constants times one input cancel
// exactly in the interpreter, so the reciprocal of their difference is
// infinite however the input moves; moving the constants (a kernel's
// fused multiply-add leaves one product's rounding, the random
// functions' g8350) shows the result is not decided, while a result of
// the constants that does not cancel stays within the limit.
func TestMovedConstants(t *testing.T) {
	p := mustCompile(t, `func.func @f(%x: tensor<1xf32>) -> (tensor<1xf32>, tensor<1xf32>) {
  %c = graph.constant dense<[-7.500000e-01, -7.500000e-01]> : tensor<2xf32>
  %p = graph.mul %c, %x : (tensor<2xf32>, tensor<1xf32>) -> tensor<2xf32>
  %a = graph.slice %p {axis = 0 : i64, length = 1 : i64, start = 0 : i64, step = 1 : i64} : (tensor<2xf32>) -> tensor<1xf32>
  %b = graph.slice %p {axis = 0 : i64, length = 1 : i64, start = 1 : i64, step = 1 : i64} : (tensor<2xf32>) -> tensor<1xf32>
  %d = graph.sub %a, %b : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  %r = graph.reciprocal %d : (tensor<1xf32>) -> tensor<1xf32>
  %s = graph.add %a, %b : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  return %r, %s : tensor<1xf32>, tensor<1xf32>
}`)
	x, _ := tensor.FromFloat32(tensor.F32, []int{1}, []float32{0.3})
	want, moved := runMoved(t, p, x)
	if !math.IsInf(want[0].Float64(0), 0) {
		t.Fatalf("the reference's reciprocal is %g, want infinite", want[0].Float64(0))
	}
	if limit := opsuite.LimitExact; !(moved[0] > limit) || !(moved[1] <= limit) {
		t.Errorf("moved %v: want 1/(c₀x − c₁x) beyond %g and c₀x + c₁x within it", moved, limit)
	}
	q, err := withConstantsPerturbed(p, 5)
	if err != nil || q == p {
		t.Fatalf("the constants were not moved: %v", err)
	}
	if r, _ := withConstantsPerturbed(mustCompile(t, `func.func @f(%x: tensor<1xf32>) -> tensor<1xf32> {
  return %x : tensor<1xf32>
}`), 5); r == nil {
		t.Error("a function without constants: nil program")
	}
}

// TestMovedSubnormals: a result that is an f32 subnormal in the
// interpreter (1e-20·1e-20) moves beyond the limit when the ops'
// subnormals are flushed, though moving its inputs by a few ulps barely
// moves it; a normal result beside it stays within.
func TestMovedSubnormals(t *testing.T) {
	p := mustCompile(t, `func.func @f(%x: tensor<1xf32>, %y: tensor<1xf32>) -> (tensor<1xf32>, tensor<1xf32>) {
  %p = graph.mul %x, %y : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  %a = graph.add %x, %y : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  return %p, %a : tensor<1xf32>, tensor<1xf32>
}`)
	x, _ := tensor.FromFloat32(tensor.F32, []int{1}, []float32{1e-20})
	want, moved := runMoved(t, p, x, x)
	if v := math.Abs(want[0].Float64(0)); !(v > 0 && v < 0x1p-126) {
		t.Fatalf("the reference's product is %g, want a subnormal", want[0].Float64(0))
	}
	if limit := opsuite.LimitExact; !(moved[0] > limit) || !(moved[1] <= limit) {
		t.Errorf("moved %v: want the subnormal product beyond %g and the sum within it", moved, limit)
	}
}

// TestMovedFlushedRunFails: Moved reports the run with subnormals
// flushed when it fails (an index that is 0 from a product of 1e-40
// scaled back up, and −1, out of range, once that product is flushed).
func TestMovedFlushedRunFails(t *testing.T) {
	p := mustCompile(t, `func.func @f(%x: tensor<1xf32>, %t: tensor<3x2xf32>) -> tensor<1x2xf32> {
  %c = graph.constant dense<1.000000e+20> : tensor<1xf32>
  %one = graph.constant dense<1.000000e+00> : tensor<1xf32>
  %p = graph.mul %x, %x : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  %q = graph.mul %p, %c : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  %r = graph.mul %q, %c : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  %s = graph.sub %r, %one : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  %i = graph.cast %s : (tensor<1xf32>) -> tensor<1xi32>
  %g = graph.gather %t, %i {axis = 0 : i64} : (tensor<3x2xf32>, tensor<1xi32>) -> tensor<1x2xf32>
  return %g : tensor<1x2xf32>
}`)
	x, _ := tensor.FromFloat32(tensor.F32, []int{1}, []float32{1e-20})
	tab, _ := tensor.FromFloat32(tensor.F32, []int{3, 2}, []float32{1, 2, 3, 4, 5, 6})
	err := movedErr(t, p, x, tab)
	if err == nil || !strings.Contains(err.Error(), "the run with subnormals flushed: ") {
		t.Errorf("Moved: %v; want the flushed run's out-of-range gather", err)
	}
}

// runMoved runs p (no weights) on in and returns its results and Moved's.
func runMoved(t *testing.T, p *ref.Program, in ...*tensor.Tensor) (want []*tensor.Tensor, moved []float64) {
	t.Helper()
	want, moved, err := tryMoved(t, p, in...)
	if err != nil {
		t.Fatal(err)
	}
	return want, moved
}

// movedErr is Moved's error on p (no weights) and in, after a plain run
// that must succeed.
func movedErr(t *testing.T, p *ref.Program, in ...*tensor.Tensor) error {
	t.Helper()
	_, _, err := tryMoved(t, p, in...)
	return err
}

// tryMoved runs p (no weights) on in, which must succeed, and returns its
// results and Moved's.
func tryMoved(t *testing.T, p *ref.Program, in ...*tensor.Tensor) (want []*tensor.Tensor, moved []float64, err error) {
	t.Helper()
	w := &ref.TensorWeights{Tensors: map[string]*tensor.Tensor{}}
	if want, err = p.Run(in, w); err != nil {
		t.Fatalf("the plain run: %v", err)
	}
	moved, err = Moved(p, in, w, want, func(string) uint32 { return 0 })
	return want, moved, err
}

func mustCompile(t *testing.T, src string) *ref.Program {
	t.Helper()
	p, err := ref.Compile(irtest.ParseVerify(t, nil, src), "f")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestMovedOperands: the random functions' g13601. A LayerNorm of rows of
// two values whose γ and β are one tensor computes γ·(n + 1), and for
// the first row n is −1 + 2.3·10⁻⁵; x divided by it is 27657 there: the
// input perturbations move γ's two uses alike and leave it decided,
// but moving the two uses apart (moveOperands: what a kernel's own
// rounding of n does) moves it beyond the f32 limit. With γ and β apart (the second
// result) nothing cancels and it stays decided; the moved operands of
// an exact op (a select) leave it as it is (within Moved, its inputs'
// perturbation moves it a little).
func TestMovedOperands(t *testing.T) {
	p := mustCompile(t, `func.func @f(%x: tensor<2x2xf32>, %g: tensor<2xf32>, %b: tensor<2xf32>, %c: tensor<2x2xi1>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) {
  %n = graph.layer_norm %x, %g, %g {epsilon = 9.99999974E-6 : f32} : (tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  %q = graph.div %x, %n : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = graph.layer_norm %x, %g, %b {epsilon = 9.99999974E-6 : f32} : (tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  %r = graph.div %x, %m : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %s = graph.select %c, %x, %x : (tensor<2x2xi1>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %q, %r, %s : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>
}`)
	x, _ := tensor.FromFloat32(tensor.F32, []int{2, 2}, []float32{-0.5407179, 0.38824856, 0.5007016, -0.59565616})
	g, _ := tensor.FromFloat32(tensor.F32, []int{2}, []float32{-0.8454207, 0.50210786})
	b, _ := tensor.FromFloat32(tensor.F32, []int{2}, []float32{0.3, -0.2})
	c, _ := tensor.FromInt64(tensor.I1, []int{2, 2}, []int64{1, 0, 0, 1})
	w := &ref.TensorWeights{Tensors: map[string]*tensor.Tensor{}}
	in := []*tensor.Tensor{x, g, b, c}
	want, err := p.Run(in, w)
	if err != nil {
		t.Fatal(err)
	}
	limit := opsuite.LimitExact
	// The first sample moves a layer_norm's operands 1 and 2 (γ's two
	// uses) apart.
	got, err := p.RunOperandsMoved(in, w, moveOperands(7, 0))
	if err != nil {
		t.Fatal(err)
	}
	if e := NMSE(got[0], want[0]); !(e > limit) {
		t.Errorf("x / γ·(n + 1) with its operands moved: NMSE %.3g, want beyond %g", e, limit)
	}
	if e := NMSE(got[1], want[1]); !(e <= limit) {
		t.Errorf("x / (γ·n + β) with its operands moved: NMSE %.3g, want within %g", e, limit)
	}
	if e := NMSE(got[2], want[2]); e != 0 {
		t.Errorf("a select with its operands moved: NMSE %.3g, want 0", e)
	}
	_, moved := runMoved(t, p, in...)
	if !(moved[0] > limit) || !(moved[1] <= limit) || !(moved[2] <= limit) {
		t.Errorf("moved %v: want the first beyond %g, the others within it", moved, limit)
	}
}
