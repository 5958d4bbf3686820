package sim_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/dialect/builtin"
	"github.com/rlx-compiler/rlx/internal/irtest"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// TestJudge: TestRandomGraphs' judgement of a function beyond wholeTol.
// x − y of nearly equal values is ill-conditioned and x + y is not: a
// miss in x + y is an error naming the result, a miss in x − y sends the
// function op by op, and results within the limit pass.
func TestJudge(t *testing.T) {
	m := irtest.ParseVerify(t, nil, `func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %s = graph.sub %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %a = graph.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %s, %a : tensor<4xf32>, tensor<4xf32>
}`)
	f := builtin.Body(m).First()
	po, err := ref.CompileFunc(f)
	if err != nil {
		t.Fatal(err)
	}
	x, _ := tensor.FromFloat32(tensor.F32, []int{4}, []float32{1, 2, 3, 4})
	y, _ := tensor.FromFloat32(tensor.F32, []int{4}, []float32{1 + 0x1p-20, 2 + 0x1p-19, 3 + 0x1p-18, 4 + 0x1p-18})
	in := []*tensor.Tensor{x, y}
	w := &ref.TensorWeights{Tensors: map[string]*tensor.Tensor{}}
	want, err := po.Run(in, w)
	if err != nil {
		t.Fatal(err)
	}
	// off returns want with result r's elements scaled by s.
	off := func(r int, s float32) []*tensor.Tensor {
		got := slices.Clone(want)
		got[r] = want[r].Clone()
		for i := range got[r].Floats() {
			got[r].Floats()[i] *= s
		}
		return got
	}
	for _, c := range []struct {
		name    string
		got     []*tensor.Tensor
		ill     []int
		errWant string
	}{
		{"exact", want, nil, ""},
		{"within the limit", off(1, 1+1e-5), nil, ""},
		{"well-conditioned miss", off(1, 1+1e-3), nil, "result #1 "},
		{"ill-conditioned miss", off(0, 2), []int{0}, ""},
	} {
		ill, err := judge(f, po, in, w, c.got, want)
		if !slices.Equal(ill, c.ill) {
			t.Errorf("%s: ill-conditioned %v, want %v", c.name, ill, c.ill)
		}
		switch {
		case c.errWant == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.errWant != "" && (err == nil || !strings.Contains(err.Error(), c.errWant)):
			t.Errorf("%s: error %v, want one naming %q", c.name, err, c.errWant)
		}
	}
}
