package mpsgraph_test

import (
	"testing"

	"github.com/rlx-compiler/rlx/internal/irtest"
	"github.com/rlx-compiler/rlx/target/mpsgraph"
)

// TestTopKStaysNative checks graph.topk's row: native, with its reason.
func TestTopKStaysNative(t *testing.T) {
	m := irtest.ParseVerify(t, newContext(), `func.func @f(%p: tensor<1x8xf32>) {
  %r:2 = graph.topk %p {k = 2} : (tensor<1x8xf32>) -> (tensor<1x2xf32>, tensor<1x2xi32>)
  return
}
`)
	ok, why := mpsgraph.New(mpsgraph.Config{BF16: true}).Capable(lastGraphOp(m))
	if ok || why != "graph.topk: MPSGraph's topK leaves the order of equal values unspecified, and a routed model must pick the reference's experts exactly" {
		t.Errorf("Capable = %v, %q", ok, why)
	}
}
