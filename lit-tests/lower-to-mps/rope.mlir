// RUN: rlx-opt %s --hybrid-split --lower-to-mps | FileCheck %s
// RUN: rlx-opt %s --hybrid-split -o %t.split.mlir
// RUN: rlx-opt %t.split.mlir --lower-to-mps -o %t.low.mlir
// RUN: rlx-run %t.split.mlir --entry neox --compare-with %t.low.mlir | FileCheck %s --check-prefix=SAME
// RUN: rlx-run %t.split.mlir --entry gptj --compare-with %t.low.mlir | FileCheck %s --check-prefix=SAME

// rope on the packed [B, S, H·D] layout (the only one MPS takes): viewed
// as [B, S, H, D], the first R dims of each head are split into pairs,
// halves for neox, even and odd elements (strided slices) for gptj;
// cos and sin [S, R/2] become [S, 1, R/2], which MPSGraph's broadcasting
// left-pads to [1, S, 1, R/2]; the pairs are put back (concatenated, or
// interleaved through a trailing axis of 2) and the dims past R copied.
// Both give the graph op's bits.

// SAME: bit-identical: yes

// CHECK-LABEL: func.func @neox(
// CHECK:         ^bb0(%[[X:.*]]: tensor<1x3x32xf32>, %[[COS:.*]]: tensor<3x4xf32>, %[[SIN:.*]]: tensor<3x4xf32>):
// CHECK-NEXT:      %[[X4:.*]] = mps.reshape %[[X]] : (tensor<1x3x32xf32>) -> tensor<1x3x2x16xf32>
// CHECK-NEXT:      %[[ROT:.*]] = mps.slice %[[X4]] {dimension = 3 : i64, length = 8 : i64, start = 0 : i64}
// CHECK-NEXT:      %[[C:.*]] = mps.reshape %[[COS]] : (tensor<3x4xf32>) -> tensor<3x1x4xf32>
// CHECK-NEXT:      %[[S:.*]] = mps.reshape %[[SIN]] : (tensor<3x4xf32>) -> tensor<3x1x4xf32>
// CHECK-NEXT:      %[[X1:.*]] = mps.slice %[[ROT]] {dimension = 3 : i64, length = 4 : i64, start = 0 : i64}
// CHECK-NEXT:      %[[X2:.*]] = mps.slice %[[ROT]] {dimension = 3 : i64, length = 4 : i64, start = 4 : i64}
// CHECK-NEXT:      %[[A:.*]] = mps.mul %[[X1]], %[[C]] : (tensor<1x3x2x4xf32>, tensor<3x1x4xf32>) -> tensor<1x3x2x4xf32>
// CHECK-NEXT:      %[[B:.*]] = mps.mul %[[X2]], %[[S]]
// CHECK-NEXT:      %[[Y1:.*]] = mps.sub %[[A]], %[[B]]
// CHECK-NEXT:      %[[D:.*]] = mps.mul %[[X2]], %[[C]]
// CHECK-NEXT:      %[[E:.*]] = mps.mul %[[X1]], %[[S]]
// CHECK-NEXT:      %[[Y2:.*]] = mps.add %[[D]], %[[E]]
// CHECK-NEXT:      %[[Y:.*]] = mps.concat %[[Y1]], %[[Y2]] {dimension = 3 : i64}
// CHECK-NEXT:      %[[PASS:.*]] = mps.slice %[[X4]] {dimension = 3 : i64, length = 8 : i64, start = 8 : i64}
// CHECK-NEXT:      %[[Z:.*]] = mps.concat %[[Y]], %[[PASS]] {dimension = 3 : i64} : (tensor<1x3x2x8xf32>, tensor<1x3x2x8xf32>) -> tensor<1x3x2x16xf32>
// CHECK-NEXT:      %[[OUT:.*]] = mps.reshape %[[Z]] : (tensor<1x3x2x16xf32>) -> tensor<1x3x32xf32>
// CHECK-NEXT:      mps.yield %[[OUT]]
func.func @neox(%x: tensor<1x3x32xf32>, %c: tensor<3x4xf32>, %s: tensor<3x4xf32>) -> tensor<1x3x32xf32> {
  %0 = graph.rope %x, %c, %s {head_dim = 16, rotary_dim = 8, style = "neox"} : (tensor<1x3x32xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<1x3x32xf32>
  return %0 : tensor<1x3x32xf32>
}

// CHECK-LABEL: func.func @gptj(
// CHECK:         ^bb0(%[[X:.*]]: tensor<1x3x32xf32>, %[[COS:.*]]: tensor<3x8xf32>, %[[SIN:.*]]: tensor<3x8xf32>):
// CHECK-NEXT:      %[[X4:.*]] = mps.reshape %[[X]] : (tensor<1x3x32xf32>) -> tensor<1x3x2x16xf32>
// CHECK-NEXT:      %[[C:.*]] = mps.reshape %[[COS]] : (tensor<3x8xf32>) -> tensor<3x1x8xf32>
// CHECK-NEXT:      %[[S:.*]] = mps.reshape %[[SIN]] : (tensor<3x8xf32>) -> tensor<3x1x8xf32>
// CHECK-NEXT:      %[[X1:.*]] = mps.strided_slice %[[X4]] {ends = array<i64: 1, 3, 2, 16>, starts = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 2>}
// CHECK-NEXT:      %[[X2:.*]] = mps.strided_slice %[[X4]] {ends = array<i64: 1, 3, 2, 16>, starts = array<i64: 0, 0, 0, 1>, strides = array<i64: 1, 1, 1, 2>}
// CHECK-NEXT:      %[[A:.*]] = mps.mul %[[X1]], %[[C]]
// CHECK-NEXT:      %[[B:.*]] = mps.mul %[[X2]], %[[S]]
// CHECK-NEXT:      %[[Y1:.*]] = mps.sub %[[A]], %[[B]]
// CHECK-NEXT:      %[[D:.*]] = mps.mul %[[X2]], %[[C]]
// CHECK-NEXT:      %[[E:.*]] = mps.mul %[[X1]], %[[S]]
// CHECK-NEXT:      %[[Y2:.*]] = mps.add %[[D]], %[[E]]
// CHECK-NEXT:      %[[P1:.*]] = mps.reshape %[[Y1]] : (tensor<1x3x2x8xf32>) -> tensor<1x3x2x8x1xf32>
// CHECK-NEXT:      %[[P2:.*]] = mps.reshape %[[Y2]] : (tensor<1x3x2x8xf32>) -> tensor<1x3x2x8x1xf32>
// CHECK-NEXT:      %[[P:.*]] = mps.concat %[[P1]], %[[P2]] {dimension = 4 : i64} : ({{.*}}) -> tensor<1x3x2x8x2xf32>
// CHECK-NEXT:      %[[OUT:.*]] = mps.reshape %[[P]] : (tensor<1x3x2x8x2xf32>) -> tensor<1x3x32xf32>
// CHECK-NEXT:      mps.yield %[[OUT]]
func.func @gptj(%x: tensor<1x3x32xf32>, %c: tensor<3x8xf32>, %s: tensor<3x8xf32>) -> tensor<1x3x32xf32> {
  %0 = graph.rope %x, %c, %s {head_dim = 16, rotary_dim = 16, style = "gptj"} : (tensor<1x3x32xf32>, tensor<3x8xf32>, tensor<3x8xf32>) -> tensor<1x3x32xf32>
  return %0 : tensor<1x3x32xf32>
}
