package graph

import (
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/ir"
)

// verifyCase is one op in a function with the given arguments; want is a
// substring of the expected verifier error, or "" when the op is valid.
type verifyCase struct {
	name, args, op, want string
}

func TestVerify(t *testing.T) {
	const (
		f4   = "tensor<4xf32>"
		x164 = "tensor<1x64xf32>"
	)
	cases := []verifyCase{
		// Rules common to every op.
		{"operand count", "%a: tensor<4xf32>", `%0 = graph.add %a : (tensor<4xf32>) -> tensor<4xf32>`, "'graph.add' op expected 2 operands, but found 1"},
		{"variadic count", "", `%0 = "graph.concat"() {axis = 0} : () -> tensor<4xf32>`, "expected at least 1 operand, but found 0"},
		{"result count", "%a: tensor<4xf32>", `%0:2 = graph.exp %a : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)`, "expected 1 result, but found 2"},
		{"operand element type", "%a: tensor<4xf64>", `%0 = graph.exp %a : (tensor<4xf64>) -> tensor<4xf64>`, "operand #0 must be a ranked tensor of f32, f16, bf16, i32, i64, i1, i8 or ui8 values, but got 'tensor<4xf64>'"},
		{"signed int", "%a: tensor<4xsi32>", `%0 = graph.neg %a : (tensor<4xsi32>) -> tensor<4xsi32>`, "operand #0 must be a ranked tensor"},
		{"unranked", "%a: tensor<*xf32>", `%0 = graph.exp %a : (tensor<*xf32>) -> tensor<4xf32>`, "but got 'tensor<*xf32>'"},
		{"result type", "%a: tensor<4xf32>", `%0 = graph.exp %a : (tensor<4xf32>) -> i32`, "result #0 must be a ranked tensor of f32, f16, bf16, i32, i64, i1, i8 or ui8 values, but got 'i32'"},
		{"missing attribute", "%a: tensor<2x8xf32>", `%0 = graph.softmax %a : (tensor<2x8xf32>) -> tensor<2x8xf32>`, "requires attribute 'axis'"},
		{"i64 attribute kind", "%a: tensor<2x8xf32>", `%0 = graph.softmax %a {axis = 1 : i32} : (tensor<2x8xf32>) -> tensor<2x8xf32>`, "attribute 'axis' failed to satisfy constraint: 64-bit signless integer attribute, got 1 : i32"},
		{"f32 attribute kind", "%a: tensor<1x64xf32>, %w: tensor<64xf32>", `%0 = graph.rms_norm %a, %w {epsilon = 1.0e-06} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>`, "attribute 'epsilon' failed to satisfy constraint: 32-bit float attribute"},
		{"enum value", "%a: tensor<4xf32>, %b: tensor<4xf32>", `%0 = graph.cmp %a, %b {predicate = "lte"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>`, `attribute 'predicate' must be one of "eq", "ne", "lt", "le", "gt", "ge", got "lte"`},
		{"enum kind", "%a: tensor<4xf32>, %b: tensor<4xf32>", `%0 = graph.cmp %a, %b {predicate = 1} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>`, "attribute 'predicate' failed to satisfy constraint: string attribute"},
		{"bool attribute kind", "%a: tensor<2x8xf32>", `%0 = graph.reduce %a {axes = array<i64: 1>, keep_dims = 1, kind = "sum"} : (tensor<2x8xf32>) -> tensor<2xf32>`, "attribute 'keep_dims' failed to satisfy constraint: bool attribute"},
		{"array attribute kind", "%a: tensor<2x8xf32>", `%0 = graph.transpose %a {permutation = [1, 0]} : (tensor<2x8xf32>) -> tensor<8x2xf32>`, "attribute 'permutation' failed to satisfy constraint: i64 dense array attribute"},
		{"result shape", "%a: tensor<1x64xf32>, %b: tensor<64x64xf32>", `%0 = graph.matmul %a, %b : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x32xf32>`, "'graph.matmul' op result shape [1, 32] does not match inferred [1, 64]"},
		{"result rank", "%a: tensor<4xf32>", `%0 = graph.exp %a : (tensor<4xf32>) -> tensor<1x4xf32>`, "result shape [1, 4] does not match inferred [4]"},
		{"result element type", "%a: tensor<4xf32>, %b: tensor<4xf32>", `%0 = graph.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf16>`, "result element type f16 does not match inferred f32"},
		{"no regions", "%a: tensor<4xf32>", `%0 = "graph.exp"(%a) ({
  }) : (tensor<4xf32>) -> tensor<4xf32>`, "'graph.exp' op requires zero regions"},
		{"dynamic result", "%a: tensor<4xf32>", `%0 = graph.exp %a : (tensor<4xf32>) -> tensor<?xf32>`, ""},
		{"dynamic operand", "%a: tensor<?x64xf32>", `%0 = graph.exp %a : (tensor<?x64xf32>) -> tensor<3x64xf32>`, ""},

		// Element-wise.
		{"unary float only", "%a: tensor<4xi32>", `%0 = graph.exp %a : (tensor<4xi32>) -> tensor<4xi32>`, "operand #0 must have a float element type, got i32"},
		{"unary numeric", "%a: tensor<4xi1>", `%0 = graph.neg %a : (tensor<4xi1>) -> tensor<4xi1>`, "operand #0 must have a numeric element type, got i1"},
		{"unary int", "%a: tensor<4xi32>", `%0 = graph.relu %a : (tensor<4xi32>) -> tensor<4xi32>`, ""},
		{"every element type", "%a: tensor<4xui8>", `%0 = graph.abs %a : (tensor<4xui8>) -> tensor<4xui8>`, ""},
		{"bf16", "%a: tensor<4xbf16>", `%0 = graph.gelu_tanh %a : (tensor<4xbf16>) -> tensor<4xbf16>`, ""},
		{"broadcast", "%a: tensor<2x3xf32>, %b: tensor<4x3xf32>", `%0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>`, "operand #1 has shape [4, 3], expected a shape that broadcasts with [2, 3]"},
		{"broadcast both ways", "%a: tensor<2x1x3xf32>, %b: tensor<4x1xf32>", `%0 = graph.mul %a, %b : (tensor<2x1x3xf32>, tensor<4x1xf32>) -> tensor<2x4x3xf32>`, ""},
		{"broadcast dynamic", "%a: tensor<?x64xf32>, %b: tensor<1x64xf32>", `%0 = graph.sub %a, %b : (tensor<?x64xf32>, tensor<1x64xf32>) -> tensor<?x64xf32>`, ""},
		{"broadcast dynamic refined", "%a: tensor<?x64xf32>, %b: tensor<5x64xf32>", `%0 = graph.sub %a, %b : (tensor<?x64xf32>, tensor<5x64xf32>) -> tensor<6x64xf32>`, "result shape [6, 64] does not match inferred [5, 64]"},
		{"binary element types", "%a: tensor<4xf32>, %b: tensor<4xf16>", `%0 = graph.div %a, %b : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>`, "operand #1 has element type f16, expected f32 (the element type of operand #0)"},
		{"pow float only", "%a: tensor<4xi32>, %b: tensor<4xi32>", `%0 = graph.pow %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>`, "must have a float element type"},
		{"binary i1", "%a: tensor<4xi1>, %b: tensor<4xi1>", `%0 = graph.add %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>`, "must have a numeric element type, got i1"},
		{"cmp result i1", "%a: tensor<4xf32>, %b: tensor<4xf32>", `%0 = graph.cmp %a, %b {predicate = "eq"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>`, "result element type f32 does not match inferred i1"},
		{"cmp broadcast", "%a: tensor<4xi32>, %b: tensor<2x1xi32>", `%0 = graph.cmp %a, %b {predicate = "ge"} : (tensor<4xi32>, tensor<2x1xi32>) -> tensor<2x4xi1>`, ""},
		{"cmp element types", "%a: tensor<4xf32>, %b: tensor<4xi32>", `%0 = graph.cmp %a, %b {predicate = "eq"} : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xi1>`, "operand #1 has element type i32, expected f32"},
		{"select condition", "%c: tensor<4xf32>, %a: tensor<4xf32>, %b: tensor<4xf32>", `%0 = graph.select %c, %a, %b : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>`, "operand #0 must have element type i1, got f32"},
		{"select values", "%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf16>", `%0 = graph.select %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>`, "operand #2 has element type f16, expected f32 (the element type of operand #1)"},
		{"select broadcast", "%c: tensor<3xi1>, %a: tensor<4xf32>, %b: tensor<4xf32>", `%0 = graph.select %c, %a, %b : (tensor<3xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>`, "operand #1 has shape [4], expected a shape that broadcasts with [3]"},
		{"cast shape", "%a: tensor<4xf32>", `%0 = graph.cast %a : (tensor<4xf32>) -> tensor<8xi32>`, "result shape [8] does not match inferred [4]"},
		{"cast any types", "%a: tensor<4xi64>", `%0 = graph.cast %a : (tensor<4xi64>) -> tensor<4xi1>`, ""},

		// matmul.
		{"matmul contraction", "%a: tensor<1x64xf32>, %b: tensor<32x64xf32>", `%0 = graph.matmul %a, %b : (tensor<1x64xf32>, tensor<32x64xf32>) -> tensor<1x64xf32>`, "'graph.matmul' op operand #1 has shape [32, 64], expected [64, 64] (its rows must equal the columns of operand #0)"},
		{"matmul rank", "%a: tensor<64xf32>, %b: tensor<64x8xf32>", `%0 = graph.matmul %a, %b : (tensor<64xf32>, tensor<64x8xf32>) -> tensor<8xf32>`, "operand #0 has shape [64], expected rank at least 2"},
		{"matmul batch", "%a: tensor<2x1x64xf32>, %b: tensor<3x64x8xf32>", `%0 = graph.matmul %a, %b : (tensor<2x1x64xf32>, tensor<3x64x8xf32>) -> tensor<2x1x8xf32>`, "operand #1 has shape [3, 64, 8], expected batch dims that broadcast with [2]"},
		{"matmul batch broadcast", "%a: tensor<2x1x4x8xf32>, %b: tensor<3x8x5xf32>", `%0 = graph.matmul %a, %b : (tensor<2x1x4x8xf32>, tensor<3x8x5xf32>) -> tensor<2x3x4x5xf32>`, ""},
		{"matmul mixed precision", "%a: tensor<1x64xf32>, %b: tensor<64x8xbf16>", `%0 = graph.matmul %a, %b : (tensor<1x64xf32>, tensor<64x8xbf16>) -> tensor<1x8xf32>`, ""},
		{"matmul mixed types", "%a: tensor<1x64xf16>, %b: tensor<64x8xbf16>", `%0 = graph.matmul %a, %b : (tensor<1x64xf16>, tensor<64x8xbf16>) -> tensor<1x8xf16>`, "operand #1 has element type bf16, expected f16 (or f16/bf16 against f32)"},
		{"matmul i1", "%a: tensor<2x2xi1>, %b: tensor<2x2xi1>", `%0 = graph.matmul %a, %b : (tensor<2x2xi1>, tensor<2x2xi1>) -> tensor<2x2xi1>`, "must have a numeric element type"},
		{"matmul dynamic", "%a: tensor<?x64xf32>, %b: tensor<?x8xf32>", `%0 = graph.matmul %a, %b : (tensor<?x64xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>`, ""},

		// Normalisation.
		{"rms_norm gamma", "%a: tensor<1x64xf32>, %w: tensor<32xf32>", `%0 = graph.rms_norm %a, %w {epsilon = 1.0e-06 : f32} : (tensor<1x64xf32>, tensor<32xf32>) -> tensor<1x64xf32>`, "operand #1 has shape [32], expected [64] (the last dim of operand #0)"},
		{"rms_norm epsilon", "%a: tensor<1x64xf32>, %w: tensor<64xf32>", `%0 = graph.rms_norm %a, %w : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>`, "requires attribute 'epsilon'"},
		{"rms_norm float", "%a: tensor<1x64xi32>, %w: tensor<64xi32>", `%0 = graph.rms_norm %a, %w {epsilon = 1.0e-06 : f32} : (tensor<1x64xi32>, tensor<64xi32>) -> tensor<1x64xi32>`, "operand #0 must have a float element type, got i32"},
		{"rms_norm rank", "%a: tensor<f32>, %w: tensor<1xf32>", `%0 = graph.rms_norm %a, %w {epsilon = 1.0e-06 : f32} : (tensor<f32>, tensor<1xf32>) -> tensor<f32>`, "operand #0 has shape [], expected rank at least 1"},
		{"layer_norm beta", "%a: tensor<1x64xf32>, %g: tensor<64xf32>, %b: tensor<1x64xf32>", `%0 = graph.layer_norm %a, %g, %b {epsilon = 1.0e-05 : f32} : (tensor<1x64xf32>, tensor<64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>`, "operand #2 has shape [1, 64], expected [64]"},
		{"layer_norm result", "%a: tensor<1x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>", `%0 = graph.layer_norm %a, %g, %b {epsilon = 1.0e-05 : f32} : (tensor<1x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>`, "result shape [64] does not match inferred [1, 64]"},
		{"softmax axis", "%a: tensor<2x8xf32>", `%0 = graph.softmax %a {axis = 2} : (tensor<2x8xf32>) -> tensor<2x8xf32>`, "attribute 'axis' (2) is out of range for operand #0 of rank 2"},
		{"softmax negative axis", "%a: tensor<2x8xf32>", `%0 = graph.softmax %a {axis = -3} : (tensor<2x8xf32>) -> tensor<2x8xf32>`, "attribute 'axis' (-3) is out of range"},
		{"softmax float", "%a: tensor<2x8xi32>", `%0 = graph.softmax %a {axis = 0} : (tensor<2x8xi32>) -> tensor<2x8xi32>`, "must have a float element type"},

		// reduce.
		{"reduce keep_dims", "%a: tensor<2x8x4xf32>", `%0 = graph.reduce %a {axes = array<i64: 1, -1>, keep_dims = true, kind = "max"} : (tensor<2x8x4xf32>) -> tensor<2x1x1xf32>`, ""},
		{"reduce drop dims", "%a: tensor<2x8xf32>", `%0 = graph.reduce %a {axes = array<i64: 1>, kind = "sum"} : (tensor<2x8xf32>) -> tensor<2x1xf32>`, "result shape [2, 1] does not match inferred [2]"},
		{"reduce all", "%a: tensor<2x8xi32>", `%0 = graph.reduce %a {axes = array<i64: 0, 1>, kind = "prod"} : (tensor<2x8xi32>) -> tensor<i32>`, ""},
		{"reduce duplicate axis", "%a: tensor<2x8xf32>", `%0 = graph.reduce %a {axes = array<i64: 1, -1>, kind = "sum"} : (tensor<2x8xf32>) -> tensor<2xf32>`, "attribute 'axes' names axis 1 more than once"},
		{"reduce axis range", "%a: tensor<2x8xf32>", `%0 = graph.reduce %a {axes = array<i64: 2>, kind = "sum"} : (tensor<2x8xf32>) -> tensor<2xf32>`, "attribute 'axes' has axis 2, out of range for operand #0 of rank 2"},
		{"reduce mean float", "%a: tensor<2x8xi32>", `%0 = graph.reduce %a {axes = array<i64: 1>, kind = "mean"} : (tensor<2x8xi32>) -> tensor<2xi32>`, "must have a float element type"},
		{"reduce kind", "%a: tensor<2x8xf32>", `%0 = graph.reduce %a {axes = array<i64: 1>, kind = "avg"} : (tensor<2x8xf32>) -> tensor<2xf32>`, `attribute 'kind' must be one of "sum", "mean", "max", "min", "prod", got "avg"`},
		{"reduce axes required", "%a: tensor<2x8xf32>", `%0 = graph.reduce %a {kind = "sum"} : (tensor<2x8xf32>) -> tensor<2xf32>`, "requires attribute 'axes'"},

		// Data movement.
		{"reshape count", "%a: tensor<1x64xf32>", `%0 = graph.reshape %a : (tensor<1x64xf32>) -> tensor<3x4xf32>`, "result shape [3, 4] has 12 elements, but operand #0 (shape [1, 64]) has 64"},
		{"reshape element type", "%a: tensor<1x64xf32>", `%0 = graph.reshape %a : (tensor<1x64xf32>) -> tensor<64xf16>`, "result element type f16 does not match inferred f32"},
		{"reshape dynamic", "%a: tensor<?x64xf32>", `%0 = graph.reshape %a : (tensor<?x64xf32>) -> tensor<?x4x16xf32>`, ""},
		{"broadcast shape", "%a: tensor<3xf32>", `%0 = graph.broadcast %a : (tensor<3xf32>) -> tensor<4x2xf32>`, "operand #0 has shape [3], which does not broadcast to the result shape [4, 2]"},
		{"broadcast rank", "%a: tensor<2x3xf32>", `%0 = graph.broadcast %a : (tensor<2x3xf32>) -> tensor<3xf32>`, "does not broadcast to the result shape [3]"},
		{"broadcast ones", "%a: tensor<1x3xf32>", `%0 = graph.broadcast %a : (tensor<1x3xf32>) -> tensor<5x4x3xf32>`, ""},
		{"transpose permutation", "%a: tensor<2x8xf32>", `%0 = graph.transpose %a {permutation = array<i64: 0, 0>} : (tensor<2x8xf32>) -> tensor<2x2xf32>`, "attribute 'permutation' [0, 0] is not a permutation of the 2 dims of operand #0"},
		{"transpose length", "%a: tensor<2x8xf32>", `%0 = graph.transpose %a {permutation = array<i64: 1, 0, 2>} : (tensor<2x8xf32>) -> tensor<8x2xf32>`, "is not a permutation of the 2 dims"},
		{"transpose result", "%a: tensor<2x8xf32>", `%0 = graph.transpose %a {permutation = array<i64: 1, 0>} : (tensor<2x8xf32>) -> tensor<2x8xf32>`, "result shape [2, 8] does not match inferred [8, 2]"},
		{"slice step", "%a: tensor<10xf32>", `%0 = graph.slice %a {axis = 0, length = 2, start = 0, step = 0} : (tensor<10xf32>) -> tensor<2xf32>`, "attribute 'step' must be at least 1, got 0"},
		{"slice start", "%a: tensor<10xf32>", `%0 = graph.slice %a {axis = 0, length = 2, start = -1} : (tensor<10xf32>) -> tensor<2xf32>`, "attribute 'start' must be non-negative, got -1"},
		{"slice length", "%a: tensor<10xf32>", `%0 = graph.slice %a {axis = 0, length = -2, start = 0} : (tensor<10xf32>) -> tensor<2xf32>`, "attribute 'length' must be non-negative, got -2"},
		{"slice bounds", "%a: tensor<1x192xf32>", `%0 = graph.slice %a {axis = -1, length = 64, start = 150} : (tensor<1x192xf32>) -> tensor<1x64xf32>`, "operand #0 has shape [1, 192], too small for 64 elements from 150 with step 1 along axis 1"},
		{"slice strided fits", "%a: tensor<10xf32>", `%0 = graph.slice %a {axis = 0, length = 5, start = 1, step = 2} : (tensor<10xf32>) -> tensor<5xf32>`, ""},
		{"slice strided bounds", "%a: tensor<10xf32>", `%0 = graph.slice %a {axis = 0, length = 6, start = 1, step = 2} : (tensor<10xf32>) -> tensor<6xf32>`, "too small for 6 elements from 1 with step 2 along axis 0"},
		{"slice empty", "%a: tensor<10xf32>", `%0 = graph.slice %a {axis = 0, length = 0, start = 10} : (tensor<10xf32>) -> tensor<0xf32>`, ""},
		{"slice axis", "%a: tensor<10xf32>", `%0 = graph.slice %a {axis = 1, length = 1, start = 0} : (tensor<10xf32>) -> tensor<1xf32>`, "attribute 'axis' (1) is out of range"},
		{"slice result", "%a: tensor<4x10xf32>", `%0 = graph.slice %a {axis = 1, length = 3, start = 0} : (tensor<4x10xf32>) -> tensor<3x10xf32>`, "result shape [3, 10] does not match inferred [4, 3]"},
		{"slice missing length", "%a: tensor<10xf32>", `%0 = graph.slice %a {axis = 0, start = 0} : (tensor<10xf32>) -> tensor<1xf32>`, "requires attribute 'length'"},
		{"slice dynamic", "%a: tensor<?xf32>", `%0 = graph.slice %a {axis = 0, length = 4, start = 100, step = 3} : (tensor<?xf32>) -> tensor<4xf32>`, ""},
		{"concat dims", "%a: tensor<1x7x2x16xf32>, %b: tensor<1x1x4x16xf32>", `%0 = graph.concat %a, %b {axis = 1} : (tensor<1x7x2x16xf32>, tensor<1x1x4x16xf32>) -> tensor<1x8x2x16xf32>`, "operand #1 has shape [1, 1, 4, 16], expected [1, 1, 2, 16] (operand #0's shape except along the axis)"},
		{"concat rank", "%a: tensor<2x3xf32>, %b: tensor<3xf32>", `%0 = graph.concat %a, %b {axis = 0} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<5x3xf32>`, "operand #1 has shape [3], expected [?, 3]"},
		{"concat element type", "%a: tensor<2xf32>, %b: tensor<2xf16>", `%0 = graph.concat %a, %b {axis = 0} : (tensor<2xf32>, tensor<2xf16>) -> tensor<4xf32>`, "operand #1 has element type f16, expected f32"},
		{"concat result", "%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %c: tensor<2x1xf32>", `%0 = graph.concat %a, %b, %c {axis = -1} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x6xf32>`, "result shape [2, 6] does not match inferred [2, 7]"},
		{"concat dynamic", "%a: tensor<?x3xf32>, %b: tensor<2x?xf32>", `%0 = graph.concat %a, %b {axis = 0} : (tensor<?x3xf32>, tensor<2x?xf32>) -> tensor<?x3xf32>`, ""},
		{"concat one", "%a: tensor<2x3xf32>", `%0 = graph.concat %a {axis = 0} : (tensor<2x3xf32>) -> tensor<2x3xf32>`, ""},
		{"gather indices", "%t: tensor<10x4xf32>, %i: tensor<3xf32>", `%0 = graph.gather %t, %i {axis = 0} : (tensor<10x4xf32>, tensor<3xf32>) -> tensor<3x4xf32>`, "operand #1 must have element type i32 or i64, got f32"},
		{"gather axis", "%t: tensor<10x4xf32>, %i: tensor<3xi64>", `%0 = graph.gather %t, %i {axis = 2} : (tensor<10x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>`, "attribute 'axis' (2) is out of range for operand #0 of rank 2"},
		{"gather inner axis", "%t: tensor<10x4x5xf32>, %i: tensor<2x3xi64>", `%0 = graph.gather %t, %i {axis = 1} : (tensor<10x4x5xf32>, tensor<2x3xi64>) -> tensor<10x2x3x5xf32>`, ""},
		{"gather result", "%t: tensor<10x4xf32>, %i: tensor<3xi32>", `%0 = graph.gather %t, %i {axis = -1} : (tensor<10x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>`, "result shape [3, 4] does not match inferred [10, 3]"},

		// rope.
		{"rope rank", "%x: tensor<4x64xf32>, %c: tensor<4x4xf32>, %s: tensor<4x4xf32>", `%0 = graph.rope %x, %c, %s {head_dim = 16, rotary_dim = 8, style = "neox"} : (tensor<4x64xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x64xf32>`, "operand #0 has shape [4, 64], expected rank 3 or 4"},
		{"rope rotary odd", "%x: tensor<1x1x64xf32>, %c: tensor<1x4xf32>, %s: tensor<1x4xf32>", `%0 = graph.rope %x, %c, %s {head_dim = 16, rotary_dim = 7, style = "neox"} : (tensor<1x1x64xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x1x64xf32>`, "attribute 'rotary_dim' (7) must be even and in [2, head_dim = 16]"},
		{"rope rotary large", "%x: tensor<1x1x64xf32>, %c: tensor<1x16xf32>, %s: tensor<1x16xf32>", `%0 = graph.rope %x, %c, %s {head_dim = 16, rotary_dim = 32, style = "gptj"} : (tensor<1x1x64xf32>, tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x1x64xf32>`, "attribute 'rotary_dim' (32) must be even"},
		{"rope head_dim", "%x: tensor<1x1x64xf32>, %c: tensor<1x4xf32>, %s: tensor<1x4xf32>", `%0 = graph.rope %x, %c, %s {head_dim = 0, rotary_dim = 8, style = "neox"} : (tensor<1x1x64xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x1x64xf32>`, "attribute 'head_dim' must be positive, got 0"},
		{"rope rank-4 head dim", "%x: tensor<1x1x4x32xf32>, %c: tensor<1x4xf32>, %s: tensor<1x4xf32>", `%0 = graph.rope %x, %c, %s {head_dim = 16, rotary_dim = 8, style = "neox"} : (tensor<1x1x4x32xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x1x4x32xf32>`, "operand #0 has shape [1, 1, 4, 32], expected [1, 1, 4, 16] (head_dim)"},
		{"rope rank-3 multiple", "%x: tensor<1x1x60xf32>, %c: tensor<1x4xf32>, %s: tensor<1x4xf32>", `%0 = graph.rope %x, %c, %s {head_dim = 16, rotary_dim = 8, style = "neox"} : (tensor<1x1x60xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x1x60xf32>`, "operand #0 has shape [1, 1, 60], expected a last dim that is a multiple of head_dim 16"},
		{"rope cos", "%x: tensor<1x1x64xf32>, %c: tensor<1x8xf32>, %s: tensor<1x4xf32>", `%0 = graph.rope %x, %c, %s {head_dim = 16, rotary_dim = 8, style = "neox"} : (tensor<1x1x64xf32>, tensor<1x8xf32>, tensor<1x4xf32>) -> tensor<1x1x64xf32>`, "operand #1 has shape [1, 8], expected [1, 4] ([S, rotary_dim/2])"},
		{"rope sin", "%x: tensor<1x5x4x16xf32>, %c: tensor<5x8xf32>, %s: tensor<1x8xf32>", `%0 = graph.rope %x, %c, %s {head_dim = 16, rotary_dim = 16, style = "gptj"} : (tensor<1x5x4x16xf32>, tensor<5x8xf32>, tensor<1x8xf32>) -> tensor<1x5x4x16xf32>`, "operand #2 has shape [1, 8], expected [5, 8]"},
		{"rope style", "%x: tensor<1x1x64xf32>, %c: tensor<1x4xf32>, %s: tensor<1x4xf32>", `%0 = graph.rope %x, %c, %s {head_dim = 16, rotary_dim = 8, style = "llama"} : (tensor<1x1x64xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x1x64xf32>`, `attribute 'style' must be one of "neox", "gptj", got "llama"`},
		{"rope float", "%x: tensor<1x1x64xf32>, %c: tensor<1x4xi32>, %s: tensor<1x4xf32>", `%0 = graph.rope %x, %c, %s {head_dim = 16, rotary_dim = 8, style = "neox"} : (tensor<1x1x64xf32>, tensor<1x4xi32>, tensor<1x4xf32>) -> tensor<1x1x64xf32>`, "operand #1 must have a float element type, got i32"},

		// attention.
		{"attention rank", "%q: tensor<1x8x64xf32>, %k: tensor<1x9x2x16xf32>, %v: tensor<1x9x2x16xf32>", `%0 = graph.attention %q, %k, %v : (tensor<1x8x64xf32>, tensor<1x9x2x16xf32>, tensor<1x9x2x16xf32>) -> tensor<1x8x64xf32>`, "operand #0 has shape [1, 8, 64], expected rank 4"},
		{"attention key dim", "%q: tensor<1x1x8x16xf32>, %k: tensor<1x9x2x32xf32>, %v: tensor<1x9x2x16xf32>", `%0 = graph.attention %q, %k, %v : (tensor<1x1x8x16xf32>, tensor<1x9x2x32xf32>, tensor<1x9x2x16xf32>) -> tensor<1x1x8x16xf32>`, "operand #1 has shape [1, 9, 2, 32], expected [1, 9, 2, 16]"},
		{"attention batch", "%q: tensor<2x1x8x16xf32>, %k: tensor<1x9x2x16xf32>, %v: tensor<1x9x2x16xf32>", `%0 = graph.attention %q, %k, %v : (tensor<2x1x8x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9x2x16xf32>) -> tensor<2x1x8x16xf32>`, "operand #1 has shape [1, 9, 2, 16], expected [2, 9, 2, 16]"},
		{"attention value", "%q: tensor<1x1x8x16xf32>, %k: tensor<1x9x2x16xf32>, %v: tensor<1x8x2x16xf32>", `%0 = graph.attention %q, %k, %v : (tensor<1x1x8x16xf32>, tensor<1x9x2x16xf32>, tensor<1x8x2x16xf32>) -> tensor<1x1x8x16xf32>`, "operand #2 has shape [1, 8, 2, 16], expected [1, 9, 2, 16]"},
		{"attention gqa", "%q: tensor<1x1x8x16xf32>, %k: tensor<1x9x3x16xf32>, %v: tensor<1x9x3x16xf32>", `%0 = graph.attention %q, %k, %v : (tensor<1x1x8x16xf32>, tensor<1x9x3x16xf32>, tensor<1x9x3x16xf32>) -> tensor<1x1x8x16xf32>`, "operand #1 has 3 kv heads, expected a divisor of the 8 query heads of operand #0"},
		{"attention value dim", "%q: tensor<1x1x8x16xf32>, %k: tensor<1x9x2x16xf32>, %v: tensor<1x9x2x32xf32>", `%0 = graph.attention %q, %k, %v : (tensor<1x1x8x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9x2x32xf32>) -> tensor<1x1x8x16xf32>`, "result shape [1, 1, 8, 16] does not match inferred [1, 1, 8, 32]"},
		{"attention mla", "%q: tensor<1x1x8x16xf32>, %k: tensor<1x9x2x16xf32>, %v: tensor<1x9x2x32xf32>", `%0 = graph.attention %q, %k, %v : (tensor<1x1x8x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9x2x32xf32>) -> tensor<1x1x8x32xf32>`, ""},
		{"attention custom needs mask", "%q: tensor<1x1x8x16xf32>, %k: tensor<1x9x2x16xf32>, %v: tensor<1x9x2x16xf32>", `%0 = graph.attention %q, %k, %v {mask = "custom"} : (tensor<1x1x8x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9x2x16xf32>) -> tensor<1x1x8x16xf32>`, `mask "custom" requires a mask operand (operand #3)`},
		{"attention causal takes no mask", "%q: tensor<1x1x8x16xf32>, %k: tensor<1x9x2x16xf32>, %v: tensor<1x9x2x16xf32>, %m: tensor<1x9xf32>", `%0 = graph.attention %q, %k, %v, %m {mask = "causal"} : (tensor<1x1x8x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9xf32>) -> tensor<1x1x8x16xf32>`, `mask "causal" takes no mask operand, but found 4 operands`},
		{"attention default mask takes none", "%q: tensor<1x1x8x16xf32>, %k: tensor<1x9x2x16xf32>, %v: tensor<1x9x2x16xf32>, %m: tensor<1x9xf32>", `%0 = graph.attention %q, %k, %v, %m : (tensor<1x1x8x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9xf32>) -> tensor<1x1x8x16xf32>`, `mask "none" takes no mask operand`},
		{"attention custom mask", "%q: tensor<1x1x8x16xf32>, %k: tensor<1x9x2x16xf32>, %v: tensor<1x9x2x16xf32>, %m: tensor<1x9xi1>", `%0 = graph.attention %q, %k, %v, %m {mask = "custom"} : (tensor<1x1x8x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9xi1>) -> tensor<1x1x8x16xf32>`, ""},
		{"attention custom mask shape", "%q: tensor<1x1x8x16xf32>, %k: tensor<1x9x2x16xf32>, %v: tensor<1x9x2x16xf32>, %m: tensor<1x8xf32>", `%0 = graph.attention %q, %k, %v, %m {mask = "custom"} : (tensor<1x1x8x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9x2x16xf32>, tensor<1x8xf32>) -> tensor<1x1x8x16xf32>`, "operand #3 has shape [1, 8], expected [1, 9] ([B, Sk])"},
		{"attention bias shape", "%q: tensor<1x2x8x16xf32>, %k: tensor<1x9x2x16xf32>, %v: tensor<1x9x2x16xf32>, %m: tensor<1x2x2x9xf32>", `%0 = graph.attention %q, %k, %v, %m {mask = "bias"} : (tensor<1x2x8x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9x2x16xf32>, tensor<1x2x2x9xf32>) -> tensor<1x2x8x16xf32>`, "operand #3 has shape [1, 2, 2, 9], expected [1, 8, 2, 9] ([B, H, Sq, Sk])"},
		{"attention bias float", "%q: tensor<1x2x8x16xf32>, %k: tensor<1x9x2x16xf32>, %v: tensor<1x9x2x16xf32>, %m: tensor<1x8x2x9xi1>", `%0 = graph.attention %q, %k, %v, %m {mask = "bias"} : (tensor<1x2x8x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9x2x16xf32>, tensor<1x8x2x9xi1>) -> tensor<1x2x8x16xf32>`, "operand #3 must have a float element type, got i1"},
		{"attention window required", "%q: tensor<1x1x8x16xf32>, %k: tensor<1x9x2x16xf32>, %v: tensor<1x9x2x16xf32>", `%0 = graph.attention %q, %k, %v {mask = "sliding_window"} : (tensor<1x1x8x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9x2x16xf32>) -> tensor<1x1x8x16xf32>`, `mask "sliding_window" requires attribute 'window'`},
		{"attention window only sliding", "%q: tensor<1x1x8x16xf32>, %k: tensor<1x9x2x16xf32>, %v: tensor<1x9x2x16xf32>", `%0 = graph.attention %q, %k, %v {mask = "causal", window = 4} : (tensor<1x1x8x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9x2x16xf32>) -> tensor<1x1x8x16xf32>`, `attribute 'window' is only valid with mask "sliding_window"`},
		{"attention window negative", "%q: tensor<1x1x8x16xf32>, %k: tensor<1x9x2x16xf32>, %v: tensor<1x9x2x16xf32>", `%0 = graph.attention %q, %k, %v {mask = "sliding_window", window = -1} : (tensor<1x1x8x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9x2x16xf32>) -> tensor<1x1x8x16xf32>`, "attribute 'window' must be non-negative, got -1"},
		{"attention sliding window", "%q: tensor<1x1x8x16xf32>, %k: tensor<1x9x2x16xf32>, %v: tensor<1x9x2x16xf32>", `%0 = graph.attention %q, %k, %v {mask = "sliding_window", scale = 2.5e-01 : f32, softcap = 5.0e+01 : f32, window = 4} : (tensor<1x1x8x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9x2x16xf32>) -> tensor<1x1x8x16xf32>`, ""},
		{"attention softcap", "%q: tensor<1x1x8x16xf32>, %k: tensor<1x9x2x16xf32>, %v: tensor<1x9x2x16xf32>", `%0 = graph.attention %q, %k, %v {softcap = -1.0 : f32} : (tensor<1x1x8x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9x2x16xf32>) -> tensor<1x1x8x16xf32>`, "attribute 'softcap' must be non-negative (0 turns it off), got -1"},
		{"attention scale kind", "%q: tensor<1x1x8x16xf32>, %k: tensor<1x9x2x16xf32>, %v: tensor<1x9x2x16xf32>", `%0 = graph.attention %q, %k, %v {scale = 0.25} : (tensor<1x1x8x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9x2x16xf32>) -> tensor<1x1x8x16xf32>`, "attribute 'scale' failed to satisfy constraint: 32-bit float attribute"},
		{"attention mask kind", "%q: tensor<1x1x8x16xf32>, %k: tensor<1x9x2x16xf32>, %v: tensor<1x9x2x16xf32>", `%0 = graph.attention %q, %k, %v {mask = "alibi"} : (tensor<1x1x8x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9x2x16xf32>) -> tensor<1x1x8x16xf32>`, `attribute 'mask' must be one of "none", "causal", "sliding_window", "custom", "bias", got "alibi"`},
		{"attention element types", "%q: tensor<1x1x8x16xf32>, %k: tensor<1x9x2x16xf16>, %v: tensor<1x9x2x16xf32>", `%0 = graph.attention %q, %k, %v : (tensor<1x1x8x16xf32>, tensor<1x9x2x16xf16>, tensor<1x9x2x16xf32>) -> tensor<1x1x8x16xf32>`, "operand #1 has element type f16, expected f32"},
		{"attention dynamic", "%q: tensor<1x?x8x16xf32>, %k: tensor<1x?x?x16xf32>, %v: tensor<1x?x2x16xf32>", `%0 = graph.attention %q, %k, %v {mask = "causal"} : (tensor<1x?x8x16xf32>, tensor<1x?x?x16xf32>, tensor<1x?x2x16xf32>) -> tensor<1x?x8x16xf32>`, ""},

		// gated_delta_net.
		{"gdn key", gdnArgs("1x1x4x8", "1x1x4", "1x1x4"), `%o:2 = graph.gated_delta_net %q, %k, %v, %g, %b : (tensor<1x1x4x16xf32>, tensor<1x1x4x8xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> (tensor<1x1x4x16xf32>, tensor<1x4x16x16xf32>)`, "operand #1 has shape [1, 1, 4, 8], expected [1, 1, 4, 16] ([B, S, H, N] like operand #0)"},
		{"gdn gate", gdnArgs("1x1x4x16", "1x1x2", "1x1x4"), `%o:2 = graph.gated_delta_net %q, %k, %v, %g, %b : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x2xf32>, tensor<1x1x4xf32>) -> (tensor<1x1x4x16xf32>, tensor<1x4x16x16xf32>)`, "operand #3 has shape [1, 1, 2], expected [1, 1, 4] ([B, S, H])"},
		{"gdn gate per channel", gdnArgs("1x1x4x16", "1x1x4", "1x1x4"), `%o:2 = graph.gated_delta_net %q, %k, %v, %g, %b {gate_per_channel = true} : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> (tensor<1x1x4x16xf32>, tensor<1x4x16x16xf32>)`, "operand #3 has shape [1, 1, 4], expected [1, 1, 4, 16] ([B, S, H, N] with gate_per_channel)"},
		{"gdn per channel ok", gdnArgs("1x1x4x16", "1x1x4x16", "1x1x4"), `%o:2 = graph.gated_delta_net %q, %k, %v, %g, %b {gate_per_channel = true} : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4xf32>) -> (tensor<1x1x4x16xf32>, tensor<1x4x16x16xf32>)`, ""},
		{"gdn beta", gdnArgs("1x1x4x16", "1x1x4", "1x1x4x1"), `%o:2 = graph.gated_delta_net %q, %k, %v, %g, %b : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4xf32>, tensor<1x1x4x1xf32>) -> (tensor<1x1x4x16xf32>, tensor<1x4x16x16xf32>)`, "operand #4 has shape [1, 1, 4, 1], expected [1, 1, 4] ([B, S, H])"},
		{"gdn state", gdnArgs("1x1x4x16", "1x1x4", "1x1x4") + ", %s: tensor<1x4x16x8xf32>", `%o:2 = graph.gated_delta_net %q, %k, %v, %g, %b, %s : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x4x16x8xf32>) -> (tensor<1x1x4x16xf32>, tensor<1x4x16x16xf32>)`, "operand #5 has shape [1, 4, 16, 8], expected [1, 4, 16, 16] ([B, H, N, N])"},
		{"gdn state result", gdnArgs("1x1x4x16", "1x1x4", "1x1x4"), `%o:2 = graph.gated_delta_net %q, %k, %v, %g, %b : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> (tensor<1x1x4x16xf32>, tensor<1x16x4x16xf32>)`, "result #1 shape [1, 16, 4, 16] does not match inferred [1, 4, 16, 16]"},
		{"gdn operands", gdnArgs("1x1x4x16", "1x1x4", "1x1x4"), `%o:2 = graph.gated_delta_net %q, %k, %v, %g : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4xf32>) -> (tensor<1x1x4x16xf32>, tensor<1x4x16x16xf32>)`, "expected 5 or 6 operands, but found 4"},
		{"gdn results", gdnArgs("1x1x4x16", "1x1x4", "1x1x4"), `%o = graph.gated_delta_net %q, %k, %v, %g, %b : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4x16xf32>`, "expected 2 results, but found 1"},
		{"gdn rank", gdnArgs("1x1x4x16", "1x1x4", "1x1x4"), `%o:2 = graph.gated_delta_net %g, %k, %v, %g, %b : (tensor<1x1x4xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> (tensor<1x1x4x16xf32>, tensor<1x4x16x16xf32>)`, "operand #0 has shape [1, 1, 4], expected rank 4"},

		// lstm.
		{"lstm operands", lstmArgs + ", %h: tensor<1x16xf32>", `%y:3 = graph.lstm %x, %wih, %whh, %b, %h : (tensor<1x5x8xf32>, tensor<64x8xf32>, tensor<64x16xf32>, tensor<64xf32>, tensor<1x16xf32>) -> (tensor<1x5x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>)`, "expected 4 operands, or 6 with h0 and c0, but found 5"},
		{"lstm w_ih", lstmArgs + ", %w4: tensor<64x4xf32>", `%y:3 = graph.lstm %x, %w4, %whh, %b : (tensor<1x5x8xf32>, tensor<64x4xf32>, tensor<64x16xf32>, tensor<64xf32>) -> (tensor<1x5x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>)`, "operand #1 has shape [64, 4], expected [64, 8]"},
		{"lstm w_hh", lstmArgs + ", %w60: tensor<60x16xf32>", `%y:3 = graph.lstm %x, %wih, %w60, %b : (tensor<1x5x8xf32>, tensor<64x8xf32>, tensor<60x16xf32>, tensor<64xf32>) -> (tensor<1x5x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>)`, "operand #2 has shape [60, 16], expected [64, 16] ([4H, H])"},
		{"lstm bias", lstmArgs + ", %b2: tensor<1x64xf32>", `%y:3 = graph.lstm %x, %wih, %whh, %b2 : (tensor<1x5x8xf32>, tensor<64x8xf32>, tensor<64x16xf32>, tensor<1x64xf32>) -> (tensor<1x5x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>)`, "operand #3 has shape [1, 64], expected [64] ([4H])"},
		{"lstm h0", lstmArgs + ", %h: tensor<1x16xf32>, %c: tensor<2x16xf32>", `%y:3 = graph.lstm %x, %wih, %whh, %b, %h, %c : (tensor<1x5x8xf32>, tensor<64x8xf32>, tensor<64x16xf32>, tensor<64xf32>, tensor<1x16xf32>, tensor<2x16xf32>) -> (tensor<1x5x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>)`, "operand #5 has shape [2, 16], expected [1, 16] ([B, H])"},
		{"lstm state", lstmArgs + ", %h: tensor<1x16xf32>, %c: tensor<1x16xf32>", `%y:3 = graph.lstm %x, %wih, %whh, %b, %h, %c : (tensor<1x5x8xf32>, tensor<64x8xf32>, tensor<64x16xf32>, tensor<64xf32>, tensor<1x16xf32>, tensor<1x16xf32>) -> (tensor<1x5x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>)`, ""},
		{"lstm result", lstmArgs, `%y:3 = graph.lstm %x, %wih, %whh, %b : (tensor<1x5x8xf32>, tensor<64x8xf32>, tensor<64x16xf32>, tensor<64xf32>) -> (tensor<1x5x64xf32>, tensor<1x16xf32>, tensor<1x16xf32>)`, "result #0 shape [1, 5, 64] does not match inferred [1, 5, 16]"},
		{"lstm rank", lstmArgs, `%y:3 = graph.lstm %wih, %wih, %whh, %b : (tensor<64x8xf32>, tensor<64x8xf32>, tensor<64x16xf32>, tensor<64xf32>) -> (tensor<1x5x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>)`, "operand #0 has shape [64, 8], expected rank 3"},

		// dequant_matmul.
		{"dequant bytes", "%x: tensor<1x64xf32>, %w: tensor<1000xui8>", `%0 = graph.dequant_matmul %x, %w {format = "q4_0", k = 64, n = 32} : (tensor<1x64xf32>, tensor<1000xui8>) -> tensor<1x32xf32>`, "operand #1 has shape [1000], expected [1152] (n·k/32 blocks of 18 bytes for q4_0)"},
		{"dequant q8_0", "%x: tensor<3x64xf32>, %w: tensor<136xui8>", `%0 = graph.dequant_matmul %x, %w {format = "q8_0", k = 64, n = 2} : (tensor<3x64xf32>, tensor<136xui8>) -> tensor<3x2xf32>`, ""},
		{"dequant q4_k", "%x: tensor<1x256xf32>, %w: tensor<288xui8>", `%0 = graph.dequant_matmul %x, %w {format = "q4_k", k = 256, n = 2} : (tensor<1x256xf32>, tensor<288xui8>) -> tensor<1x2xf32>`, ""},
		{"dequant q6_k", "%x: tensor<1x512xf32>, %w: tensor<840xui8>", `%0 = graph.dequant_matmul %x, %w {format = "q6_k", k = 512, n = 2} : (tensor<1x512xf32>, tensor<840xui8>) -> tensor<1x2xf32>`, ""},
		{"dequant q6_k_c16", "%x: tensor<1x512xf32>, %w: tensor<840xui8>", `%0 = graph.dequant_matmul %x, %w {format = "q6_k_c16", k = 512, n = 2} : (tensor<1x512xf32>, tensor<840xui8>) -> tensor<1x2xf32>`, ""},
		{"dequant q6_k_c16 k", "%x: tensor<1x128xf32>, %w: tensor<210xui8>", `%0 = graph.dequant_matmul %x, %w {format = "q6_k_c16", k = 128, n = 2} : (tensor<1x128xf32>, tensor<210xui8>) -> tensor<1x2xf32>`, "attribute 'k' (128) is not a multiple of the q6_k_c16 block size 256"},
		{"dequant q6_k bytes", "%x: tensor<1x512xf32>, %w: tensor<288xui8>", `%0 = graph.dequant_matmul %x, %w {format = "q6_k", k = 512, n = 2} : (tensor<1x512xf32>, tensor<288xui8>) -> tensor<1x2xf32>`, "expected [840] (n·k/256 blocks of 210 bytes for q6_k)"},
		{"dequant block", "%x: tensor<1x64xf32>, %w: tensor<144xui8>", `%0 = graph.dequant_matmul %x, %w {format = "q4_k", k = 64, n = 1} : (tensor<1x64xf32>, tensor<144xui8>) -> tensor<1x1xf32>`, "attribute 'k' (64) is not a multiple of the q4_k block size 256"},
		{"dequant k", "%x: tensor<1x32xf32>, %w: tensor<1152xui8>", `%0 = graph.dequant_matmul %x, %w {format = "q4_0", k = 64, n = 32} : (tensor<1x32xf32>, tensor<1152xui8>) -> tensor<1x32xf32>`, "operand #0 has shape [1, 32], expected [1, 64] ([M, k])"},
		{"dequant n", "%x: tensor<1x64xf32>, %w: tensor<1152xui8>", `%0 = graph.dequant_matmul %x, %w {format = "q4_0", k = 64, n = 0} : (tensor<1x64xf32>, tensor<1152xui8>) -> tensor<1x32xf32>`, "attribute 'n' must be positive, got 0"},
		{"dequant huge", "%x: tensor<1x64xf32>, %w: tensor<1152xui8>", `%0 = graph.dequant_matmul %x, %w {format = "q4_0", k = 64, n = 9223372036854775807} : (tensor<1x64xf32>, tensor<1152xui8>) -> tensor<1x32xf32>`, "describe a weight too large to address"},
		{"dequant x type", "%x: tensor<1x64xf16>, %w: tensor<1152xui8>", `%0 = graph.dequant_matmul %x, %w {format = "q4_0", k = 64, n = 32} : (tensor<1x64xf16>, tensor<1152xui8>) -> tensor<1x32xf32>`, "operand #0 must have element type f32, got f16"},
		{"dequant w type", "%x: tensor<1x64xf32>, %w: tensor<1152xi8>", `%0 = graph.dequant_matmul %x, %w {format = "q4_0", k = 64, n = 32} : (tensor<1x64xf32>, tensor<1152xi8>) -> tensor<1x32xf32>`, "operand #1 must have element type ui8, got i8"},
		{"dequant format", "%x: tensor<1x64xf32>, %w: tensor<1152xui8>", `%0 = graph.dequant_matmul %x, %w {format = "q8_1", k = 64, n = 32} : (tensor<1x64xf32>, tensor<1152xui8>) -> tensor<1x32xf32>`, `attribute 'format' must be one of "q4_0", "q8_0", "q4_k", "q5_k", "q6_k", "q6_k_c16", "q2_k", "q3_k", "q4_1", "q5_0", "q5_1", "iq4_nl", "iq4_xs", "mxfp4", got "q8_1"`},
		{"dequant result", "%x: tensor<1x64xf32>, %w: tensor<1152xui8>", `%0 = graph.dequant_matmul %x, %w {format = "q4_0", k = 64, n = 32} : (tensor<1x64xf32>, tensor<1152xui8>) -> tensor<1x64xf32>`, "result shape [1, 64] does not match inferred [1, 32]"},

		// Leaves.
		{"param name", "", `%0 = graph.param "" : tensor<4xf32>`, "attribute 'name' must not be empty"},
		{"param generic", "", `%0 = "graph.param"() : () -> tensor<4xf32>`, "requires attribute 'name'"},
		{"param operands", "%a: " + f4, `%0 = "graph.param"(%a) {name = "w"} : (tensor<4xf32>) -> tensor<4xf32>`, "expected 0 operands, but found 1"},
		{"param packed", "", `%0 = graph.param "blk.0.w" : tensor<1152xui8>`, ""},
		{"constant type", "", `%0 = "graph.constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<2xf32>`, "result shape [2] does not match inferred [4]"},
		{"constant kind", "", `%0 = "graph.constant"() {value = 1.0 : f32} : () -> tensor<f32>`, "attribute 'value' failed to satisfy constraint: dense elements attribute"},
		{"constant element type", "", `%0 = "graph.constant"() {value = dense<1.0> : tensor<4xf64>} : () -> tensor<4xf32>`, "attribute 'value' must be a ranked tensor of f32, f16, bf16, i32, i64, i1, i8 or ui8 values, but has type 'tensor<4xf64>'"},
		{"constant ints", "", `%0 = graph.constant dense<[1, 2]> : tensor<2xi64>`, ""},
		{"custom-form shorthand", "%a: " + x164, `%0 = graph.exp %a {note = "kept"} : (tensor<1x64xf32>) -> tensor<1x64xf32>`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := newContext()
			src := "func.func @f(" + tc.args + ") {\n  " + tc.op + "\n  return\n}\n"
			m, err := asm.ParseString(ctx, "in.mlir", src)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			err = ir.Verify(m)
			checkDiag(t, err, tc.want)
		})
	}
}

// checkDiag checks err against want ("" for no error). A verifier error
// must be located on the op's line.
func checkDiag(t *testing.T, err error, want string) {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	if err == nil {
		t.Fatalf("no error, want %q", want)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("error\n  %v\nwant it to contain\n  %s", err, want)
	}
	d, ok := err.(*ir.Diagnostic)
	if !ok {
		t.Fatalf("error %T is not a diagnostic", err)
	}
	if _, line, _, ok := ir.LineCol(d.Loc); !ok || line != 2 {
		t.Errorf("error located at %s, want line 2", ir.FormatLoc(d.Loc))
	}
}

const lstmArgs = "%x: tensor<1x5x8xf32>, %wih: tensor<64x8xf32>, %whh: tensor<64x16xf32>, %b: tensor<64xf32>"

// gdnArgs declares q and v [1, 1, 4, 16], k, g and β as given.
func gdnArgs(k, g, b string) string {
	return "%q: tensor<1x1x4x16xf32>, %k: tensor<" + k + "xf32>, %v: tensor<1x1x4x16xf32>, %g: tensor<" + g + "xf32>, %b: tensor<" + b + "xf32>"
}

// TestInferResultTypes checks inference without looking at the results:
// an op built with placeholder result types gets the right ones.
func TestInferResultTypes(t *testing.T) {
	ctx := newContext()
	for _, info := range opTable() {
		if info.exampleArgs == "" {
			continue
		}
		t.Run(info.name, func(t *testing.T) {
			m := parseVerify(t, ctx, exampleFunc(info))
			op := firstGraphOp(m)
			want := op.ResultTypes()
			got, err := InferResultTypes(op)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("result #%d: inferred %s, want %s", i, got[i], want[i])
				}
			}
			if info.name == ReshapeName || info.name == BroadcastName || info.name == CastName {
				return
			}
			// With a placeholder result type, inference still works.
			for i := 0; i < op.NumResults(); i++ {
				op.Result(i).SetType(ctx.I32())
			}
			got2, err := InferResultTypes(op)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if got2[i] != want[i] {
					t.Errorf("with placeholder result #%d: inferred %s, want %s", i, got2[i], want[i])
				}
			}
		})
	}
	t.Run("dynamic", func(t *testing.T) {
		m := parseVerify(t, ctx, `func.func @f(%a: tensor<?x64xf32>, %b: tensor<64x?xf32>) {
  %0 = graph.matmul %a, %b : (tensor<?x64xf32>, tensor<64x?xf32>) -> tensor<3x5xf32>
  return
}`)
		got, err := InferResultTypes(firstGraphOp(m))
		if err != nil || got[0].String() != "tensor<?x?xf32>" {
			t.Errorf("InferResultTypes = %v, %v; want tensor<?x?xf32>", got, err)
		}
	})
	t.Run("overflow", func(t *testing.T) {
		// Each operand fits in 64 bits; the gather of one by the other
		// would not (FuzzGraphVerify's 18de7cd7a2859f00). Its result type
		// here is a placeholder: parsed, not verified.
		m, err := asm.ParseString(ctx, "in.mlir", `func.func @f(%a: tensor<64x1152x64x1152xi32>, %i: tensor<1152x1152x1152x1152xi32>) {
  %0 = "graph.gather"(%a, %i) <{axis = -2 : i64}> : (tensor<64x1152x64x1152xi32>, tensor<1152x1152x1152x1152xi32>) -> tensor<1xi32>
  return
}`)
		if err != nil {
			t.Fatal(err)
		}
		_, err = InferResultTypes(firstGraphOp(m))
		if err == nil || !strings.Contains(err.Error(), "result #0 would be [64 1152 1152 1152 1152 1152 1152] of i32, more elements than fit in 64 bits") {
			t.Errorf("InferResultTypes = %v; want the overflow refused", err)
		}
	})
	t.Run("not graph", func(t *testing.T) {
		m := parseVerify(t, ctx, `func.func @f() { return }`)
		if _, err := InferResultTypes(m); err == nil {
			t.Error("no error for builtin.module")
		}
	})
}

// firstGraphOp returns the first graph op in m.
func firstGraphOp(m *ir.Operation) *ir.Operation {
	var found *ir.Operation
	m.Walk(func(op *ir.Operation) {
		if found == nil && strings.HasPrefix(op.Name(), "graph.") {
			found = op
		}
	})
	return found
}
