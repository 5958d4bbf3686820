package ref

import (
	"slices"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// TestTopKRouting runs the routing pattern the Qwen3-Next importer builds:
// softmax, topk, renormalised weights, and a gather of the chosen experts'
// rows, with bf16 values rounded and i32 indices left alone.
func TestTopKRouting(t *testing.T) {
	p := compile(t, `func.func @route(%logits: tensor<1x4xf32>, %experts: tensor<4x2xf32>) -> (tensor<1x2xf32>, tensor<1x2xi32>, tensor<1x2x2xf32>, tensor<1x2xbf16>) {
  %p = graph.softmax %logits {axis = -1} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %r:2 = graph.topk %p {k = 2} : (tensor<1x4xf32>) -> (tensor<1x2xf32>, tensor<1x2xi32>)
  %s = graph.reduce %r#0 {axes = array<i64: -1>, keep_dims = true, kind = "sum"} : (tensor<1x2xf32>) -> tensor<1x1xf32>
  %w = graph.div %r#0, %s : (tensor<1x2xf32>, tensor<1x1xf32>) -> tensor<1x2xf32>
  %e = graph.gather %experts, %r#1 {axis = 0} : (tensor<4x2xf32>, tensor<1x2xi32>) -> tensor<1x2x2xf32>
  %h = graph.cast %p : (tensor<1x4xf32>) -> tensor<1x4xbf16>
  %hb:2 = graph.topk %h {k = 2} : (tensor<1x4xbf16>) -> (tensor<1x2xbf16>, tensor<1x2xi32>)
  return %w, %r#1, %e, %hb#0 : tensor<1x2xf32>, tensor<1x2xi32>, tensor<1x2x2xf32>, tensor<1x2xbf16>
}`)
	logits := f32(t, []int{1, 4}, 0.5, 2, -1, 1.5)
	experts := f32(t, []int{4, 2}, 0, 1, 10, 11, 20, 21, 30, 31)
	out, err := p.Run([]*tensor.Tensor{logits, experts}, &TensorWeights{})
	if err != nil {
		t.Fatal(err)
	}
	if got := out[1].Ints(); !slices.Equal(got, []int64{1, 3}) {
		t.Errorf("indices = %v, want [1 3]", got)
	}
	if got := out[2].Floats(); !slices.Equal(got, []float32{10, 11, 30, 31}) {
		t.Errorf("gathered experts = %v", got)
	}
	w := out[0].Floats()
	if d := w[0] + w[1] - 1; d > 1e-6 || d < -1e-6 || !(w[0] > w[1]) {
		t.Errorf("weights = %v, want descending and summing to 1", w)
	}
	if out[3].DType() != tensor.BF16 {
		t.Errorf("bf16 topk values are %v", out[3].Type())
	}
}
