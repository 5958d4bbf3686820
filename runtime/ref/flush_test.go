package ref

import (
	"math"
	"testing"

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
