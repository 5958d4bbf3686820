package ref

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/kernels"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

func TestConstants(t *testing.T) {
	for _, c := range []struct{ attr, want string }{
		{`dense<[1.5, -2.0, 3.25]> : tensor<3xf32>`, `tensor<3xf32> [1.5 -2 3.25]`},
		{`dense<[1.0009765625, 65504.0]> : tensor<2xf16>`, `tensor<2xf16> [1.0009765625 65504]`},
		{`dense<[1.0078125, -3.0]> : tensor<2xbf16>`, `tensor<2xbf16> [1.0078125 -3]`},
		{`dense<0.5> : tensor<2x2xf32>`, `tensor<2x2xf32> [0.5 0.5 0.5 0.5]`},
		{`dense<[true, false, true]> : tensor<3xi1>`, `tensor<3xi1> [1 0 1]`},
		{`dense<[-128, 127]> : tensor<2xi8>`, `tensor<2xi8> [-128 127]`},
		{`dense<[-7, 2147483647]> : tensor<2xi32>`, `tensor<2xi32> [-7 2147483647]`},
		{`dense<[-9223372036854775808, 9007199254740993]> : tensor<2xi64>`, `tensor<2xi64> [-9223372036854775808 9007199254740993]`},
		{`dense<[0, 255, 7]> : tensor<3xui8>`, `tensor<3xui8> [0 255 7]`},
		{`dense<-3> : tensor<1x2xi32>`, `tensor<1x2xi32> [-3 -3]`},
		{`dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>`, `tensor<2x2xf32> [1 2 3 4]`},
	} {
		ty := c.attr[strings.LastIndex(c.attr, ": ")+2:]
		p := compile(t, fmt.Sprintf("func.func @f() -> %s {\n  %%c = graph.constant %s\n  return %%c : %s\n}", ty, c.attr, ty))
		got, err := p.Run(nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if s := got[0].String(); s != c.want {
			t.Errorf("%s: got %s, want %s", c.attr, s, c.want)
		}
	}
}

func TestDenseResourceConstant(t *testing.T) {
	p := compile(t, `func.func @f() -> tensor<2xf32> {
  %c = graph.constant dense_resource<blob1> : tensor<2xf32>
  return %c : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F00000040"
    }
  }
#-}`)
	got, err := p.Run(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := got[0].String(); s != "tensor<2xf32> [1 2]" {
		t.Errorf("got %s", s)
	}
}

const paramSrc = `func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %w = graph.param "w" : tensor<3xf32>
  %0 = graph.mul %x, %w : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}`

func TestParamBinding(t *testing.T) {
	p := compile(t, paramSrc)
	x := f32(t, []int{2, 3}, 1, 2, 3, 4, 5, 6)
	w := &TensorWeights{Tensors: map[string]*tensor.Tensor{"w": f32(t, []int{3}, 10, 100, 1000)}, Source: "w.safetensors"}
	got, err := p.Run([]*tensor.Tensor{x}, w)
	if err != nil {
		t.Fatal(err)
	}
	if s := got[0].String(); s != "tensor<2x3xf32> [10 200 3000 40 500 6000]" {
		t.Errorf("got %s", s)
	}
	if ps := p.Params(); len(ps) != 1 || ps[0].Name != "w" || ps[0].Type.String() != "tensor<3xf32>" {
		t.Errorf("Params() = %+v", ps)
	}

	bad := []struct {
		w    Weights
		want string
	}{
		{&TensorWeights{Tensors: map[string]*tensor.Tensor{}, Source: "w.safetensors"},
			`test.mlir:2:8: error: 'graph.param' op no weight named "w" in w.safetensors`},
		{&TensorWeights{Tensors: map[string]*tensor.Tensor{"w": tensor.Zeros(tensor.F16, 3)}},
			`test.mlir:2:8: error: 'graph.param' op weight "w" is tensor<3xf16>, expected tensor<3xf32>`},
		{&TensorWeights{Tensors: map[string]*tensor.Tensor{"w": tensor.Zeros(tensor.F32, 4)}},
			`test.mlir:2:8: error: 'graph.param' op weight "w" is tensor<4xf32>, expected tensor<3xf32>`},
		{nil, `test.mlir:2:8: error: 'graph.param' op no weights to bind "w" to`},
		{wrongWeights{}, `test.mlir:2:8: error: 'graph.param' op weight "w" is tensor<3xi32>, expected tensor<3xf32>`},
	}
	for _, b := range bad {
		_, err := p.Run([]*tensor.Tensor{x}, b.w)
		if err == nil || err.Error() != b.want {
			t.Errorf("got error %v, want %s", err, b.want)
		}
	}
}

// wrongWeights ignores the spec, to check the interpreter's own type check.
type wrongWeights struct{}

func (wrongWeights) Weight(Spec) (*tensor.Tensor, error) { return tensor.Zeros(tensor.I32, 3), nil }

func TestInputErrors(t *testing.T) {
	p := compile(t, paramSrc)
	for _, c := range []struct {
		in   []*tensor.Tensor
		want string
	}{
		{nil, "test.mlir:1:1: error: @f takes 1 arguments, got 0 inputs"},
		{[]*tensor.Tensor{tensor.Zeros(tensor.F32, 3, 2)}, "test.mlir:1:1: error: input #0 is tensor<3x2xf32>, but argument #0 of @f is tensor<2x3xf32>"},
		{[]*tensor.Tensor{tensor.Zeros(tensor.F16, 2, 3)}, "test.mlir:1:1: error: input #0 is tensor<2x3xf16>, but argument #0 of @f is tensor<2x3xf32>"},
		{[]*tensor.Tensor{nil}, "test.mlir:1:1: error: input #0 is missing"},
	} {
		_, err := p.Run(c.in, Seeded(0))
		if err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
}

func TestRunErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{{
		`func.func @f(%t: tensor<3x2xf32>) -> tensor<2x2xf32> {
  %i = graph.constant dense<[1, 3]> : tensor<2xi32>
  %g = graph.gather %t, %i {axis = 0} : (tensor<3x2xf32>, tensor<2xi32>) -> tensor<2x2xf32>
  return %g : tensor<2x2xf32>
}`,
		"test.mlir:3:8: error: 'graph.gather' op index 3 (element 1 of the indices) is out of range for axis 0 of tensor<3x2xf32> (size 3)",
	}, {
		`func.func @f(%a: tensor<2xi32>) -> tensor<2xi32> {
  %z = graph.constant dense<[1, 0]> : tensor<2xi32>
  %d = graph.div %a, %z : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %d : tensor<2xi32>
}`,
		"test.mlir:3:8: error: 'graph.div' op integer division by zero",
	}, {
		// A weight whose bytes do not match the quantised shape.
		`func.func @f(%x: tensor<1x32xf32>) -> tensor<1x2xf32> {
  %w = graph.param "w" : tensor<36xui8>
  %0 = graph.dequant_matmul %x, %w {format = "q8_0", n = 2, k = 32} : (tensor<1x32xf32>, tensor<36xui8>) -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}`,
		`test.mlir:2:8: error: 'graph.param' op cannot generate "w": 36 bytes, but a q8_0 [2, 32] weight needs 68`,
	}} {
		op := parseOpts(t, c.src, false, false)
		p, err := Compile(op, "")
		if err != nil {
			t.Fatal(err)
		}
		in, _ := SeededInputs(1, p)
		_, err = p.Run(in, Seeded(1))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("got %v, want %s", err, c.want)
		}
		if _, ok := err.(*ir.Diagnostic); !ok {
			t.Errorf("error %T is not a diagnostic", err)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{{
		`func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "test.mystery"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}`,
		"test.mlir:2:8: error: 'test.mystery' op is not supported by the reference interpreter",
	}, {
		`func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "test.region"(%x) ({
  ^bb0(%a: tensor<2xf32>, %b: tensor<2xf32>):
    "test.yield"(%a) : (tensor<2xf32>) -> ()
  }) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}`,
		"test.mlir:2:8: error: 'test.region' op is not supported by the reference interpreter (the block arguments of a region op must match its operands one to one)",
	}, {
		`func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @f(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}`,
		"test.mlir:2:8: error: 'func.call' op calls @f recursively; the interpreter does not run recursive functions",
	}, {
		`func.func private @ext(tensor<2xf32>) -> tensor<2xf32>
func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @ext(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}`,
		"test.mlir:1:1: error: 'func.func' op has no body to run",
	}, {
		`func.func @f(%x: tensor<2xf64>) -> tensor<2xf64> {
  return %x : tensor<2xf64>
}`,
		"test.mlir:1:1: error: 'func.func' op argument #0: element type of tensor<2xf64> is not supported",
	}} {
		_, err := Compile(parseOpts(t, c.src, true, true), "f")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
}

func TestEntryFunc(t *testing.T) {
	two := parse(t, `func.func @a() { return }
func.func @b() { return }
func.func private @c() { return }`)
	for _, c := range []struct{ entry, want string }{
		{"", "several public functions (@a, @b): choose the function to run"},
		{"z", "no function named @z (functions: @a, @b, @c)"},
		{"c", ""},
	} {
		_, err := EntryFunc(two, c.entry)
		if got := fmt.Sprint(err); c.want == "" && err != nil || c.want != "" && got != c.want {
			t.Errorf("entry %q: got %v, want %q", c.entry, err, c.want)
		}
	}
	none := parse(t, `func.func private @c() { return }`)
	if _, err := EntryFunc(none, ""); err == nil || !strings.Contains(err.Error(), "no public function") {
		t.Errorf("got %v", err)
	}
}

// callSrc computes the same values three ways: in line, through func.call
// and inside region ops (nested, unregistered, in MLIR's generic form).
const callSrc = `func.func private @ffn(%x: tensor<2x4xf32>, %w: tensor<4x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %0 = graph.matmul %x, %w : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  %1 = graph.silu %0 : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %1, %0 : tensor<2x4xf32>, tensor<2x4xf32>
}
func.func @inline(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %w = graph.param "w" : tensor<4x4xf32>
  %0 = graph.matmul %x, %w : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  %1 = graph.silu %0 : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %2 = graph.add %1, %x : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %2, %0, %x : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}
func.func @call(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %w = graph.param "w" : tensor<4x4xf32>
  %r:2 = func.call @ffn(%x, %w) : (tensor<2x4xf32>, tensor<4x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
  %2 = graph.add %r#0, %x : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %2, %r#1, %x : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}
func.func @region(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %r:3 = "test.subgraph"(%x) ({
  ^bb0(%a: tensor<2x4xf32>):
    %w = graph.param "w" : tensor<4x4xf32>
    %0 = graph.matmul %a, %w : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
    "test.yield"(%0, %a, %a) : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) -> ()
  }) : (tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
  %s = "test.thunk"(%r#1, %r#0) ({
  ^bb0(%b: tensor<2x4xf32>, %c: tensor<2x4xf32>):
    %1 = graph.silu %c : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %t = "test.inner"(%1, %b) ({
    ^bb0(%d: tensor<2x4xf32>, %e: tensor<2x4xf32>):
      %2 = graph.add %d, %e : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
      "test.yield"(%2) : (tensor<2x4xf32>) -> ()
    }) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    "test.yield"(%t) : (tensor<2x4xf32>) -> ()
  }) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %s, %r#0, %r#2 : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}`

func TestCallAndRegionOps(t *testing.T) {
	mod := parseOpts(t, callSrc, true, true)
	var results [][]*tensor.Tensor
	for _, entry := range []string{"inline", "call", "region"} {
		p, err := Compile(mod, entry)
		if err != nil {
			t.Fatal(err)
		}
		in, _ := SeededInputs(3, p)
		out, err := p.Run(in, Seeded(3))
		if err != nil {
			t.Fatalf("%s: %v", entry, err)
		}
		if !tensor.BitsEqual(out[2], in[0]) {
			t.Errorf("%s: a returned argument is not passed through", entry)
		}
		results = append(results, out)
	}
	for i := 1; i < len(results); i++ {
		diffs, err := CompareResults(results[0], results[i])
		if err != nil {
			t.Fatal(err)
		}
		for j, d := range diffs {
			if !d.BitIdentical {
				t.Errorf("entry %d result %d differs from the inline function: %+v", i, j, d)
			}
		}
	}
	diffs, err := Differential(mod, mod, "region", 9)
	if err != nil || !diffs[0].BitIdentical {
		t.Errorf("Differential: %v %+v", err, diffs)
	}
}

func TestErrorInCalleeHasCallNote(t *testing.T) {
	mod := parse(t, `func.func private @g(%t: tensor<3xf32>) -> tensor<1xf32> {
  %i = graph.constant dense<[4]> : tensor<1xi64>
  %0 = graph.gather %t, %i {axis = 0} : (tensor<3xf32>, tensor<1xi64>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}
func.func @f(%t: tensor<3xf32>) -> tensor<1xf32> {
  %0 = func.call @g(%t) : (tensor<3xf32>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}`)
	p, err := Compile(mod, "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Run([]*tensor.Tensor{tensor.Zeros(tensor.F32, 3)}, nil)
	d, ok := err.(*ir.Diagnostic)
	if !ok || len(d.Notes) != 1 || d.Notes[0].Message != "called from here" || ir.FormatLoc(d.Notes[0].Loc) != "test.mlir:7:8" {
		t.Fatalf("got %#v", err)
	}
}

// TestLiveness checks that values are dropped after their last use: a
// long chain keeps only a few tensors alive, whatever its length.
func TestLiveness(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n  %v0 = graph.exp %x : (tensor<4xf32>) -> tensor<4xf32>\n")
	for i := 1; i < 200; i++ {
		// Each step also computes a value nobody reads.
		fmt.Fprintf(&sb, "  %%dead%d = graph.neg %%v%d : (tensor<4xf32>) -> tensor<4xf32>\n", i, i-1)
		fmt.Fprintf(&sb, "  %%v%d = graph.add %%v%d, %%x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n", i, i-1)
	}
	sb.WriteString("  return %v199 : tensor<4xf32>\n}")
	p := compile(t, sb.String())
	if n := p.maxLive(); n > 3 {
		t.Errorf("up to %d values live at once, want ≤ 3", n)
	}
	if p.NumOps() != 399 {
		t.Errorf("NumOps() = %d", p.NumOps())
	}
}

// TestMixedResultTypes runs a multi-result op whose results have different
// element types (the verifier rejects it today, but the kernels' contract
// defines it): the f16 result must be the f32 one rounded once.
func TestMixedResultTypes(t *testing.T) {
	op := parseOpts(t, `func.func @f(%q: tensor<1x2x1x4xf32>, %g: tensor<1x2x1xf32>) -> (tensor<1x2x1x4xf32>, tensor<1x1x4x4xf16>) {
  %0:2 = graph.gated_delta_net %q, %q, %q, %g, %g : (tensor<1x2x1x4xf32>, tensor<1x2x1x4xf32>, tensor<1x2x1x4xf32>, tensor<1x2x1xf32>, tensor<1x2x1xf32>) -> (tensor<1x2x1x4xf32>, tensor<1x1x4x4xf16>)
  return %0#0, %0#1 : tensor<1x2x1x4xf32>, tensor<1x1x4x4xf16>
}`, false, false)
	p, err := Compile(op, "")
	if err != nil {
		t.Fatal(err)
	}
	in, _ := SeededInputs(5, p)
	got, err := p.Run(in, nil)
	if err != nil {
		t.Fatal(err)
	}
	o, s, _ := kernels.GatedDeltaNet(in[0], in[0], in[0], in[1], in[1], nil, kernels.GatedDeltaNetAttrs{}, tensor.F32)
	s16, _ := kernels.Cast(s, tensor.F16)
	if !tensor.BitsEqual(got[0], o) || !tensor.BitsEqual(got[1], s16) {
		t.Errorf("got %v %v, want %v %v", got[0], got[1], o, s16)
	}
}

func TestDynamicShapes(t *testing.T) {
	p := compile(t, `func.func @f(%x: tensor<?x4xf32>) -> tensor<?xf32> {
  %0 = graph.exp %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = graph.reshape %0 : (tensor<?x4xf32>) -> tensor<?xf32>
  return %1 : tensor<?xf32>
}`)
	got, err := p.Run([]*tensor.Tensor{tensor.Zeros(tensor.F32, 3, 4)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := got[0].Type(); s != "tensor<12xf32>" {
		t.Errorf("got %s", s)
	}
	if _, err := SeededInputs(0, p); err == nil {
		t.Error("seeded inputs of a dynamic shape: no error")
	}
	// The IR's static dims are checked at run time.
	q := compile(t, `func.func @f(%x: tensor<?x4xf32>) -> tensor<2x4xf32> {
  %0 = graph.exp %x : (tensor<?x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}`)
	_, err = q.Run([]*tensor.Tensor{tensor.Zeros(tensor.F32, 3, 4)}, nil)
	if err == nil || !strings.Contains(err.Error(), "'graph.exp' op result #0 is tensor<3x4xf32>, but its type is tensor<2x4xf32>") {
		t.Errorf("got %v", err)
	}
}

func TestCompare(t *testing.T) {
	a := f32(t, []int{4}, 1, 0, 2, float32(nan()))
	b := f32(t, []int{4}, 1, float32(negZero()), 2.5, float32(nan()))
	d := Compare(a, b)
	if !d.SameType || d.BitIdentical || d.Count != 2 || d.MaxAbs != 0.5 {
		t.Errorf("got %+v", d)
	}
	c := f32(t, []int{4}, 1, 0, 2, 7)
	if d := Compare(a, c); d.MaxAbs != inf() {
		t.Errorf("NaN against a number: %+v", d)
	}
	if d := Compare(a, tensor.Zeros(tensor.F32, 2, 2)); d.SameType {
		t.Errorf("different shapes: %+v", d)
	}
	big1, _ := tensor.FromInt64(tensor.I64, []int{1}, []int64{1 << 60})
	big2, _ := tensor.FromInt64(tensor.I64, []int{1}, []int64{1<<60 + 1})
	if d := Compare(big1, big2); d.BitIdentical || d.Count != 1 {
		t.Errorf("i64: %+v", d)
	}
}

func TestChecksum(t *testing.T) {
	// FNV-1a 64 of the little-endian bytes: for f32 1.0 that is 00 00 80 3f.
	one := f32(t, []int{1}, 1)
	if got, want := Checksum(one), fnv64a([]byte{0, 0, 0x80, 0x3f}); got != want {
		t.Errorf("Checksum = %x, want %x", got, want)
	}
	h, _ := tensor.FromFloat32(tensor.F16, []int{2}, []float32{1, -2})
	if got, want := Checksum(h), fnv64a([]byte{0, 0x3c, 0, 0xc0}); got != want {
		t.Errorf("f16 Checksum = %x, want %x", got, want)
	}
	i, _ := tensor.FromInt64(tensor.I32, []int{1}, []int64{-2})
	if got, want := Checksum(i), fnv64a([]byte{0xfe, 0xff, 0xff, 0xff}); got != want {
		t.Errorf("i32 Checksum = %x, want %x", got, want)
	}
	big := tensor.Zeros(tensor.F32, 5000)
	if Checksum(big) != fnv64a(make([]byte, 20000)) {
		t.Error("checksum of a large tensor")
	}
}

func fnv64a(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// TestMemory checks what a run needs, and that CheckMemory refuses, at the
// op that crosses the budget, a run that does not fit: a 400 GB param and
// a splat constant of that size used to end in "fatal error: out of
// memory" (the constant while compiling).
func TestMemory(t *testing.T) {
	const src = `func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %w = graph.param "w" : tensor<4xf32>
  %a = graph.add %x, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b = graph.exp %a : (tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}
`
	p := compile(t, src)
	// x (16) + w (16) + a (16) live when a is made; w is dropped after,
	// then b (16) is made while a is still read: 16 + 16 + 16.
	if m := p.Memory(false); m.Peak != 48 || m.Inputs != 16 || m.Resident != 0 {
		t.Errorf("Memory(false) = %+v, want peak 48, inputs 16", m)
	}
	// Resident weights are never dropped: x, w, a and b at the end.
	if m := p.Memory(true); m.Peak != 64 || m.Resident != 16 {
		t.Errorf("Memory(true) = %+v, want peak 64, resident 16", m)
	}
	if err := p.CheckMemory(48, false); err != nil {
		t.Errorf("CheckMemory(48): %v", err)
	}
	err := p.CheckMemory(40, false)
	if err == nil || !strings.Contains(err.Error(), "test.mlir:3:8: error: 'graph.add' op result needs 16 bytes, and the run would hold 48 bytes at this point, over the memory budget of 40 bytes") {
		t.Errorf("CheckMemory(40) = %v", err)
	}
	if err := p.CheckMemory(8, false); err == nil || !strings.Contains(err.Error(), "test.mlir:1:1: error: @main needs 16 bytes for its inputs and resident weights, over the memory budget of 8 bytes") {
		t.Errorf("CheckMemory(8) = %v", err)
	}

	huge := compile(t, `func.func @main() -> tensor<100000000000xf32> {
  %c = graph.constant dense<1.0> : tensor<100000000000xf32>
  %w = graph.param "w" : tensor<100000000000xf32>
  %a = graph.add %c, %w : (tensor<100000000000xf32>, tensor<100000000000xf32>) -> tensor<100000000000xf32>
  return %a : tensor<100000000000xf32>
}
`)
	err = huge.CheckMemory(1<<39, false)
	if err == nil || !strings.Contains(err.Error(), "test.mlir:3:8: error: 'graph.param' op result needs 400000000000 bytes (372.5 GiB), and the run would hold 800000000000 bytes (745.1 GiB) at this point, over the memory budget of 549755813888 bytes (512.0 GiB)") {
		t.Errorf("huge: %v", err)
	}
}
