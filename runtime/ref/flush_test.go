package ref

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// TestRunFlushed: an op's f32 subnormal is a signed zero before the next
// op reads it (so 1e-20·1e-20·1e30 is 1e-10 in Run and 0 in
// RunFlushed, and −1e-20·1e-20 is −0), normal values (2·2⁻¹²⁷) and the
// inputs (2⁻¹²⁷ among them) stay as they are.
func TestRunFlushed(t *testing.T) {
	p := compile(t, `func.func @f(%x: tensor<3xf32>, %y: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %c = graph.constant dense<1.000000e+30> : tensor<3xf32>
  %p = graph.mul %x, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %s = graph.mul %p, %c : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %p, %s : tensor<3xf32>, tensor<3xf32>
}`)
	x, _ := tensor.FromFloat32(tensor.F32, []int{3}, []float32{1e-20, -1e-20, 2})
	y, _ := tensor.FromFloat32(tensor.F32, []int{3}, []float32{1e-20, 1e-20, 0x1p-127})
	in := []*tensor.Tensor{x, y}
	plain, err := p.Run(in, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v := plain[1].Floats()[0]; !(math.Abs(float64(v)-1e-10) < 1e-15) {
		t.Fatalf("Run: 1e-20·1e-20·1e30 = %g, want 1e-10", v)
	}
	flushed, err := p.RunFlushed(in, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []float32{0, float32(math.Copysign(0, -1)), 0x1p-126}
	for i, v := range flushed[0].Floats() {
		if v != want[i] || math.Signbit(float64(v)) != math.Signbit(float64(want[i])) {
			t.Errorf("RunFlushed: product #%d = %g, want %g", i, v, want[i])
		}
	}
	if v := flushed[1].Floats()[0]; v != 0 {
		t.Errorf("RunFlushed: 1e-20·1e-20·1e30 = %g, want 0", v)
	}
	if y.Floats()[2] != 0x1p-127 || x.Floats()[0] != 1e-20 {
		t.Errorf("RunFlushed changed its inputs: x %v, y %v", x.Floats(), y.Floats())
	}
}

// TestRunOperandsMoved: the hook sees each use of a value apart (x read
// twice by one mul, as operands 0 and 1) and what it returns is what
// the op reads; the inputs are left as they are; a hook that returns
// another type is an error located at the op.
func TestRunOperandsMoved(t *testing.T) {
	p := compile(t, `func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %s = graph.mul %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %s : tensor<2xf32>
}`)
	x, _ := tensor.FromFloat32(tensor.F32, []int{2}, []float32{3, 4})
	var seen []string
	got, err := p.RunOperandsMoved([]*tensor.Tensor{x}, nil, func(op *ir.Operation, i int, t *tensor.Tensor) *tensor.Tensor {
		seen = append(seen, fmt.Sprintf("%s#%d", op.Name(), i))
		if i == 1 {
			two, _ := tensor.FromFloat32(tensor.F32, []int{2}, []float32{2, 2})
			return two
		}
		return t
	})
	if err != nil {
		t.Fatal(err)
	}
	if s := strings.Join(seen, " "); s != "graph.mul#0 graph.mul#1" || !slices.Equal(got[0].Floats(), []float32{6, 8}) || x.Floats()[1] != 4 {
		t.Errorf("hook saw %q, result %v, x %v; want both uses, [6 8], x unchanged", s, got[0].Floats(), x.Floats())
	}
	_, err = p.RunOperandsMoved([]*tensor.Tensor{x}, nil, func(op *ir.Operation, i int, t *tensor.Tensor) *tensor.Tensor {
		short, _ := tensor.FromFloat32(tensor.F32, []int{1}, []float32{1})
		return short
	})
	if err == nil || !strings.Contains(err.Error(), "operand #0 moved to tensor<1xf32>, not its type tensor<2xf32>") {
		t.Errorf("a hook of another type: %v", err)
	}
}
