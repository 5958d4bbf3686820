// RUN: rlx-opt %s --hybrid-split --lower-to-mps | FileCheck %s
// RUN: rlx-opt %s --hybrid-split -o %t.split.mlir
// RUN: rlx-opt %t.split.mlir --lower-to-mps -o %t.low.mlir
// RUN: rlx-run %t.split.mlir --compare-with %t.low.mlir | FileCheck %s --check-prefix=SAME
// RUN: rlx-opt %t.low.mlir --lower-to-mps | FileCheck %s

// The ops that are one primitive each: the leaves (a param is a
// placeholder fed by name), element-wise ops, data movement (transpose is
// a permutation; negative axes are normalised), a matmul with an f16 operand
// against an f32 one (cast first: MPSGraph does not mix types), a reduce
// (MPSGraph keeps the reduced axes; a reshape drops them). They give the
// graph ops' bits. Lowering a lowered function changes nothing.

// SAME: bit-identical: yes

// CHECK-LABEL: func.func @ops(
// CHECK:         ^bb0(%[[X:.*]]: tensor<2x8xf16>, %[[I:.*]]: tensor<3xi32>, %[[Y:.*]]: tensor<2x3x4xf32>):
// CHECK-NEXT:      %[[W:.*]] = mps.placeholder "w" : tensor<8x4xf32>
// CHECK-NEXT:      %[[C:.*]] = mps.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// CHECK-NEXT:      %[[XF:.*]] = mps.cast %[[X]] : (tensor<2x8xf16>) -> tensor<2x8xf32>
// CHECK-NEXT:      %[[M:.*]] = mps.matmul %[[XF]], %[[W]] : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:      %[[A:.*]] = mps.add %[[M]], %[[C]] : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:      %[[E:.*]] = mps.exp %[[A]]
// CHECK-NEXT:      %[[G:.*]] = mps.gather %[[E]], %[[I]] {axis = 1 : i64, batch_dimensions = 0 : i64} : (tensor<2x4xf32>, tensor<3xi32>) -> tensor<2x3xf32>
// CHECK-NEXT:      %[[T:.*]] = mps.permute %[[Y]] {permutation = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:      %[[S:.*]] = mps.slice %[[T]] {dimension = 2 : i64, length = 2 : i64, start = 1 : i64} : (tensor<4x2x3xf32>) -> tensor<4x2x2xf32>
// CHECK-NEXT:      %[[R:.*]] = mps.reduce_max %[[S]] {axes = array<i64: 0, 2>} : (tensor<4x2x2xf32>) -> tensor<1x2x1xf32>
// CHECK-NEXT:      %[[RR:.*]] = mps.reshape %[[R]] : (tensor<1x2x1xf32>) -> tensor<2xf32>
// CHECK-NEXT:      %[[B:.*]] = mps.broadcast %[[RR]] : (tensor<2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:      %[[CC:.*]] = mps.concat %[[G]], %[[B]] {dimension = 1 : i64} : (tensor<2x3xf32>, tensor<2x2xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:      %[[SM:.*]] = mps.softmax %[[CC]] {axis = 1 : i64}
// CHECK-NEXT:      %[[H:.*]] = mps.cast %[[SM]] : (tensor<2x5xf32>) -> tensor<2x5xf16>
// CHECK-NEXT:      mps.yield %[[H]]
func.func @ops(%x: tensor<2x8xf16>, %i: tensor<3xi32>, %y: tensor<2x3x4xf32>) -> tensor<2x5xf16> {
  %w = graph.param "w" : tensor<8x4xf32>
  %0 = graph.matmul %x, %w : (tensor<2x8xf16>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %c = graph.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %1 = graph.add %0, %c : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %2 = graph.exp %1 : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %3 = graph.gather %2, %i {axis = -1} : (tensor<2x4xf32>, tensor<3xi32>) -> tensor<2x3xf32>
  %4 = graph.transpose %y {permutation = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %5 = graph.slice %4 {axis = -1, start = 1, length = 2} : (tensor<4x2x3xf32>) -> tensor<4x2x2xf32>
  %6 = graph.reduce %5 {axes = array<i64: 0, -1>, keep_dims = false, kind = "max"} : (tensor<4x2x2xf32>) -> tensor<2xf32>
  %7 = graph.broadcast %6 : (tensor<2xf32>) -> tensor<2x2xf32>
  %8 = graph.concat %3, %7 {axis = -1} : (tensor<2x3xf32>, tensor<2x2xf32>) -> tensor<2x5xf32>
  %9 = graph.softmax %8 {axis = -1} : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %10 = graph.cast %9 : (tensor<2x5xf32>) -> tensor<2x5xf16>
  return %10 : tensor<2x5xf16>
}
