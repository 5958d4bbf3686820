// RUN: rlx-opt %s --hybrid-split | FileCheck %s
// RUN: rlx-opt %s --hybrid-split=explain --verify-diagnostics -o /dev/null

// MPSGraph returned zeros for a rank >= 4 reduce where a reduced axis has a
// kept axis after it, so that reduce stays native; reducing trailing axes,
// or any axes of a rank-3 input, goes to MPS.

// CHECK-LABEL: func.func @reduce(
// CHECK-NEXT:    %[[M:.*]]:2 = mps.subgraph @reduce_mps0(%arg0, %arg1)
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      graph.reduce {{.*}}axes = array<i64: 2, 3>
// CHECK-NEXT:      graph.reduce {{.*}}axes = array<i64: 0>
// CHECK-NEXT:      mps.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    thunk.call @reduce_thunk1(%arg0)
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      graph.reduce {{.*}}axes = array<i64: 1>
// CHECK-NEXT:      thunk.yield
func.func @reduce(%x: tensor<2x3x4x5xf32>, %y: tensor<2x3x4xf32>) -> (tensor<2x3xf32>, tensor<2x4x5xf32>, tensor<3x4xf32>) {
  %a = graph.reduce %x {axes = array<i64: 2, 3>, kind = "sum"} : (tensor<2x3x4x5xf32>) -> tensor<2x3xf32>
  // expected-remark@+1 {{kept native: graph.reduce: rank-4 reduce over axis 1 keeps axis 2 after it (MPSGraph returned zeros for that)}}
  %b = graph.reduce %x {axes = array<i64: 1>, kind = "mean"} : (tensor<2x3x4x5xf32>) -> tensor<2x4x5xf32>
  %c = graph.reduce %y {axes = array<i64: 0>, kind = "max"} : (tensor<2x3x4xf32>) -> tensor<3x4xf32>
  return %a, %b, %c : tensor<2x3xf32>, tensor<2x4x5xf32>, tensor<3x4xf32>
}
