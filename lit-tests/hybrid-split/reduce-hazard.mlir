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

// Negative axes count from the end (-3 of rank 4 is axis 1, -1 is axis 3);
// keep_dims does not lift the hazard; rank 5 has it as rank 4 does.

// CHECK-LABEL: func.func @more(
// CHECK-NEXT:    mps.subgraph @more_mps0(%arg0, %arg1)
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      graph.reduce {{.*}}axes = array<i64: -1>
// CHECK-NEXT:      graph.reduce {{.*}}axes = array<i64: 4>
// CHECK-NEXT:      mps.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    thunk.call @more_thunk1(%arg0, %arg1)
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      graph.reduce {{.*}}axes = array<i64: -3>
// CHECK-NEXT:      graph.reduce {{.*}}axes = array<i64: 1>, keep_dims = true
// CHECK-NEXT:      graph.reduce {{.*}}axes = array<i64: 1>{{.*}}tensor<2x3x4x5x6xf32>
// CHECK-NEXT:      thunk.yield
func.func @more(%x: tensor<2x3x4x5xf32>, %z: tensor<2x3x4x5x6xf32>) -> (tensor<2x4x5xf32>, tensor<2x3x4xf32>, tensor<2x1x4x5xf32>, tensor<2x3x4x5xf32>, tensor<2x4x5x6xf32>) {
  // expected-remark@+1 {{kept native: graph.reduce: rank-4 reduce over axis 1 keeps axis 2 after it (MPSGraph returned zeros for that)}}
  %a = graph.reduce %x {axes = array<i64: -3>, kind = "sum"} : (tensor<2x3x4x5xf32>) -> tensor<2x4x5xf32>
  %b = graph.reduce %x {axes = array<i64: -1>, kind = "sum"} : (tensor<2x3x4x5xf32>) -> tensor<2x3x4xf32>
  // expected-remark@+1 {{kept native: graph.reduce: rank-4 reduce over axis 1 keeps axis 2 after it (MPSGraph returned zeros for that)}}
  %c = graph.reduce %x {axes = array<i64: 1>, keep_dims = true, kind = "max"} : (tensor<2x3x4x5xf32>) -> tensor<2x1x4x5xf32>
  %d = graph.reduce %z {axes = array<i64: 4>, kind = "sum"} : (tensor<2x3x4x5x6xf32>) -> tensor<2x3x4x5xf32>
  // expected-remark@+1 {{kept native: graph.reduce: rank-5 reduce over axis 1 keeps axis 2 after it (MPSGraph returned zeros for that)}}
  %e = graph.reduce %z {axes = array<i64: 1>, kind = "sum"} : (tensor<2x3x4x5x6xf32>) -> tensor<2x4x5x6xf32>
  return %a, %b, %c, %d, %e : tensor<2x4x5xf32>, tensor<2x3x4xf32>, tensor<2x1x4x5xf32>, tensor<2x3x4x5xf32>, tensor<2x4x5x6xf32>
}
