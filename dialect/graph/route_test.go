package graph

import (
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/ir"
)

// TestVerifyTopK checks graph.topk's shape rule and its errors.
func TestVerifyTopK(t *testing.T) {
	cases := []verifyCase{
		{"topk", "%p: tensor<1x8xf32>", `%r:2 = graph.topk %p {k = 2} : (tensor<1x8xf32>) -> (tensor<1x2xf32>, tensor<1x2xi32>)`, ""},
		{"topk rank 1 bf16", "%p: tensor<8xbf16>", `%r:2 = graph.topk %p {k = 8} : (tensor<8xbf16>) -> (tensor<8xbf16>, tensor<8xi32>)`, ""},
		{"topk dynamic", "%p: tensor<?x8xf32>", `%r:2 = graph.topk %p {k = 3} : (tensor<?x8xf32>) -> (tensor<?x3xf32>, tensor<?x3xi32>)`, ""},
		{"topk k missing", "%p: tensor<1x8xf32>", `%r:2 = graph.topk %p : (tensor<1x8xf32>) -> (tensor<1x2xf32>, tensor<1x2xi32>)`, "requires attribute 'k'"},
		{"topk k zero", "%p: tensor<1x8xf32>", `%r:2 = graph.topk %p {k = 0} : (tensor<1x8xf32>) -> (tensor<1x0xf32>, tensor<1x0xi32>)`, "attribute 'k' must be at least 1, got 0"},
		{"topk k too large", "%p: tensor<1x8xf32>", `%r:2 = graph.topk %p {k = 9} : (tensor<1x8xf32>) -> (tensor<1x9xf32>, tensor<1x9xi32>)`, "attribute 'k' (9) exceeds the last dim of operand #0 (8)"},
		{"topk scalar", "%p: tensor<f32>", `%r:2 = graph.topk %p {k = 1} : (tensor<f32>) -> (tensor<1xf32>, tensor<1xi32>)`, "operand #0 must have rank at least 1, but has rank 0"},
		{"topk ints", "%p: tensor<1x8xi32>", `%r:2 = graph.topk %p {k = 2} : (tensor<1x8xi32>) -> (tensor<1x2xi32>, tensor<1x2xi32>)`, "operand #0 must have a float element type, got i32"},
		{"topk index type", "%p: tensor<1x8xf32>", `%r:2 = graph.topk %p {k = 2} : (tensor<1x8xf32>) -> (tensor<1x2xf32>, tensor<1x2xi64>)`, "result #1 element type i64 does not match inferred i32"},
		{"topk values shape", "%p: tensor<1x8xf32>", `%r:2 = graph.topk %p {k = 2} : (tensor<1x8xf32>) -> (tensor<1x8xf32>, tensor<1x2xi32>)`, "result #0 shape [1, 8] does not match inferred [1, 2]"},
		{"topk one result", "%p: tensor<1x8xf32>", `%r = graph.topk %p {k = 2} : (tensor<1x8xf32>) -> tensor<1x2xf32>`, "expected 2 results, but found 1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := newContext()
			src := "func.func @f(" + tc.args + ") {\n  " + tc.op + "\n  return\n}\n"
			m, err := asm.ParseString(ctx, "in.mlir", src)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			checkDiag(t, ir.Verify(m), tc.want)
		})
	}
}

// TestTopKView checks the typed view.
func TestTopKView(t *testing.T) {
	ctx := newContext()
	m := parseVerify(t, ctx, `func.func @f(%p: tensor<2x8xf32>) -> tensor<2x3xi32> {
  %r:2 = graph.topk %p {k = 3} : (tensor<2x8xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  return %r#1 : tensor<2x3xi32>
}
`)
	op := firstGraphOp(m)
	v, ok := AsTopK(op)
	if !ok {
		t.Fatalf("AsTopK(%s) failed", op.Name())
	}
	if v.K() != 3 || v.Input() != op.Operand(0) || v.Values() != op.Result(0) || v.Indices() != op.Result(1) {
		t.Errorf("view: k %d, input %v, values %v, indices %v", v.K(), v.Input(), v.Values(), v.Indices())
	}
	if _, ok := AsTopK(nil); ok {
		t.Error("AsTopK(nil) succeeded")
	}
}
