package mps_test

import (
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/dialect/mps"
	"github.com/rlx-compiler/rlx/internal/irtest"
	"github.com/rlx-compiler/rlx/ir"
)

// region wraps body (ops reading %a: tensor<2x8xf32> and %i:
// tensor<3xi32>, ending in mps.yield of one tensor<…> ty) in a function.
func region(body, ty string) string {
	return `func.func @f(%x: tensor<2x8xf32>, %j: tensor<3xi32>) -> ` + ty + ` {
  %0 = mps.subgraph @f_mps0(%x, %j) : (tensor<2x8xf32>, tensor<3xi32>) -> ` + ty + ` {
  ^bb0(%a: tensor<2x8xf32>, %i: tensor<3xi32>):
` + body + `
  }
  return %0 : ` + ty + `
}
`
}

// TestPrimitivesRoundTrip: every kind of primitive prints in its custom
// form and reads back to the same text, in custom and generic form.
func TestPrimitivesRoundTrip(t *testing.T) {
	src := region(`    %w = mps.placeholder "l0.w" : tensor<8xf32>
    %c = mps.constant dense<5.000000e-01> : tensor<f32>
    %1 = mps.add %a, %w : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    %2 = mps.mul %1, %c : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
    %3 = mps.reduce_sum %2 {axes = array<i64: -1>} : (tensor<2x8xf32>) -> tensor<2x1xf32>
    %4 = mps.slice %2 {dimension = 1 : i64, length = 2 : i64, start = -4 : i64} : (tensor<2x8xf32>) -> tensor<2x2xf32>
    %5 = mps.strided_slice %2 {ends = array<i64: 2, 8>, starts = array<i64: 0, 1>, strides = array<i64: 1, 3>} : (tensor<2x8xf32>) -> tensor<2x3xf32>
    %6 = mps.gather %2, %i {axis = 1 : i64, batch_dimensions = 0 : i64} : (tensor<2x8xf32>, tensor<3xi32>) -> tensor<2x3xf32>
    %7 = mps.greater %5, %c : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
    %8 = mps.select %7, %5, %6 : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %9 = mps.permute %8 {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %10 = mps.transpose %9 {dimension = 0 : i64, with_dimension = 1 : i64} : (tensor<3x2xf32>) -> tensor<2x3xf32>
    %11 = mps.concat %10, %4, %3 {dimension = -1 : i64} : (tensor<2x3xf32>, tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x6xf32>
    %12 = mps.reshape %11 : (tensor<2x6xf32>) -> tensor<3x4xf32>
    %13 = mps.broadcast %12 : (tensor<3x4xf32>) -> tensor<2x3x4xf32>
    %14 = mps.cast %13 : (tensor<2x3x4xf32>) -> tensor<2x3x4xf16>
    mps.yield %14 : tensor<2x3x4xf16>`, "tensor<2x3x4xf16>")
	m := irtest.Parse(t, nil, src)
	if err := ir.Verify(m); err != nil {
		t.Fatal(err)
	}
	for _, generic := range []bool{false, true} {
		text := ir.Sprint(m, ir.PrintOptions{Generic: generic})
		back := irtest.Parse(t, nil, text)
		if err := ir.Verify(back); err != nil {
			t.Fatalf("generic %v: %v\n%s", generic, err, text)
		}
		if again := ir.Sprint(back, ir.PrintOptions{Generic: generic}); again != text {
			t.Errorf("generic %v: does not print back the same:\n%s\n---\n%s", generic, text, again)
		}
	}
	if !mps.IsPrimitive(firstIn(m, mps.StridedSliceName)) {
		t.Error("mps.strided_slice is not a primitive")
	}
}

func firstIn(m *ir.Operation, name string) *ir.Operation {
	var found *ir.Operation
	m.Walk(func(op *ir.Operation) {
		if found == nil && op.Name() == name {
			found = op
		}
	})
	return found
}

// TestPrimitivesVerify: each rule of the primitives' verifier, in its
// words.
func TestPrimitivesVerify(t *testing.T) {
	cases := []struct{ body, ty, want string }{
		{"%1 = mps.add %a, %a : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x4xf32>\n    mps.yield %1 : tensor<2x4xf32>", "tensor<2x4xf32>",
			"'mps.add' op result type 'tensor<2x4xf32>' does not match the inferred 'tensor<2x8xf32>'"},
		{"%1 = mps.add %a, %i : (tensor<2x8xf32>, tensor<3xi32>) -> tensor<2x8xf32>\n    mps.yield %1 : tensor<2x8xf32>", "tensor<2x8xf32>",
			"'mps.add' op operand #1 has element type i32, but operand #0 has f32 (MPSGraph does not mix element types)"},
		{"%1 = mps.reduce_sum %a {axes = array<i64: 2>} : (tensor<2x8xf32>) -> tensor<2x8xf32>\n    mps.yield %1 : tensor<2x8xf32>", "tensor<2x8xf32>",
			"'mps.reduce_sum' op axis 2 is out of range for rank 2 (expected -2 to 1)"},
		{"%1 = mps.softmax %a : (tensor<2x8xf32>) -> tensor<2x8xf32>\n    mps.yield %1 : tensor<2x8xf32>", "tensor<2x8xf32>",
			"'mps.softmax' op requires attribute 'axis'"},
		{"%1 = mps.slice %a {dimension = 1 : i64, start = 6 : i64, length = 4 : i64} : (tensor<2x8xf32>) -> tensor<2x4xf32>\n    mps.yield %1 : tensor<2x4xf32>", "tensor<2x4xf32>",
			"'mps.slice' op length 4 from 6 leaves dimension 1 of size 8"},
		{"%1 = mps.matmul %a, %a : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>\n    mps.yield %1 : tensor<2x8xf32>", "tensor<2x8xf32>",
			"'mps.matmul' op operand #1 has 2 rows, but operand #0 has 8 columns"},
		{"%1 = mps.exp %i : (tensor<3xi32>) -> tensor<3xi32>\n    mps.yield %1 : tensor<3xi32>", "tensor<3xi32>",
			"'mps.exp' op operand #0 has element type i32, expected a float"},
		{"%1 = mps.reshape %a : (tensor<2x8xf32>) -> tensor<3x5xf32>\n    mps.yield %1 : tensor<3x5xf32>", "tensor<3x5xf32>",
			"'mps.reshape' op result shape [3, 5] has 15 elements, the operand [2, 8] has 16"},
		{"%1 = mps.gather %a, %a {axis = 1 : i64, batch_dimensions = 0 : i64} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x2x8xf32>\n    mps.yield %1 : tensor<2x2x8xf32>", "tensor<2x2x8xf32>",
			"'mps.gather' op operand #1 (the indices) has element type f32, expected i32"},
		{"%1 = mps.broadcast %a : (tensor<2x8xf32>) -> tensor<4x8xf32>\n    mps.yield %1 : tensor<4x8xf32>", "tensor<4x8xf32>",
			"'mps.broadcast' op operand shape [2, 8] does not broadcast to [4, 8]"},
	}
	for _, c := range cases {
		err := ir.Verify(irtest.Parse(t, nil, region("    "+c.body, c.ty)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("want %q, got %v", c.want, err)
		}
	}
}
