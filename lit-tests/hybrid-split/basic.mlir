// RUN: rlx-opt %s --hybrid-split | FileCheck %s
// RUN: rlx-opt %s --hybrid-split --mlir-print-op-generic | rlx-opt | FileCheck %s
// The split form survives --verify-roundtrip (generic form with locations,
// parsed into a fresh context), which prints the same output.
// RUN: rlx-opt %s --hybrid-split --mlir-print-debuginfo | rlx-opt --verify-roundtrip | FileCheck %s

// The rules of the output form on one function: every compute op lands in
// exactly one region; the body keeps only the regions and func.return; the
// leaf %w is cloned into both regions that use it and the original is
// erased; %x, used twice by the first region, is one operand; the first
// region yields two values (%a for the thunk, %b for the thunk, the last
// region and the return) in order of definition; the thunk takes both
// results of one MPS region; the last region's operands are in order of
// first use (%c before %b); symbols are numbered in order.

// CHECK-LABEL: func.func @f(
// CHECK-SAME:      %[[X:.*]]: tensor<1x64xf32>)
// CHECK-NEXT:    %[[M0:.*]]:2 = mps.subgraph @f_mps0(%[[X]]) : (tensor<1x64xf32>) -> (tensor<1x64xf32>, tensor<1x64xf32>) {
// CHECK-NEXT:    ^bb0(%[[A0:.*]]: tensor<1x64xf32>):
// CHECK-NEXT:      %[[W0:.*]] = graph.param "w" : tensor<64x64xf32>
// CHECK-NEXT:      %[[A:.*]] = graph.matmul %[[A0]], %[[W0]]
// CHECK-NEXT:      %[[B:.*]] = graph.add %[[A]], %[[A0]]
// CHECK-NEXT:      mps.yield %[[A]], %[[B]] : tensor<1x64xf32>, tensor<1x64xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[T1:.*]] = thunk.call @f_thunk1(%[[M0]]#0, %[[M0]]#1) {target = "metal"} : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32> {
// CHECK-NEXT:    ^bb0(%[[P:.*]]: tensor<1x64xf32>, %[[Q:.*]]: tensor<1x64xf32>):
// CHECK-NEXT:      %[[C:.*]] = graph.max %[[P]], %[[Q]]
// CHECK-NEXT:      thunk.yield %[[C]] : tensor<1x64xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[M2:.*]] = mps.subgraph @f_mps2(%[[T1]], %[[M0]]#1) : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32> {
// CHECK-NEXT:    ^bb0(%[[C2:.*]]: tensor<1x64xf32>, %[[B2:.*]]: tensor<1x64xf32>):
// CHECK-NEXT:      %[[W2:.*]] = graph.param "w" : tensor<64x64xf32>
// CHECK-NEXT:      %[[D:.*]] = graph.matmul %[[C2]], %[[W2]]
// CHECK-NEXT:      %[[E:.*]] = graph.mul %[[D]], %[[B2]]
// CHECK-NEXT:      mps.yield %[[E]] : tensor<1x64xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[M2]], %[[M0]]#1 : tensor<1x64xf32>, tensor<1x64xf32>
// CHECK-NEXT:  }
func.func @f(%x: tensor<1x64xf32>) -> (tensor<1x64xf32>, tensor<1x64xf32>) {
  %w = graph.param "w" : tensor<64x64xf32>
  %a = graph.matmul %x, %w : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %b = graph.add %a, %x : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  %c = graph.max %a, %b : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  %d = graph.matmul %c, %w : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %e = graph.mul %d, %b : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  return %e, %b : tensor<1x64xf32>, tensor<1x64xf32>
}

// A leaf returned by the function stays in the body (the regions get their
// own clones); a leaf nothing uses is erased; a function of leaves only is
// left alone.

// CHECK-LABEL: func.func @leaf_returned(
// CHECK-NEXT:    %[[C:.*]] = graph.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    %[[R:.*]] = mps.subgraph @leaf_returned_mps0(%arg0) : (tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: tensor<4xf32>):
// CHECK-NEXT:      %[[C2:.*]] = graph.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:      %[[S:.*]] = graph.add %[[A]], %[[C2]]
// CHECK-NEXT:      mps.yield %[[S]] : tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]], %[[C]] : tensor<4xf32>, tensor<4xf32>
func.func @leaf_returned(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %unused = graph.param "unused" : tensor<4xf32>
  %c = graph.constant dense<1.0> : tensor<4xf32>
  %s = graph.add %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %s, %c : tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @leaves_only(
// CHECK-NEXT:    graph.param "p" : tensor<4xf32>
// CHECK-NEXT:    return
func.func @leaves_only() -> tensor<4xf32> {
  %p = graph.param "p" : tensor<4xf32>
  return %p : tensor<4xf32>
}

// A dead compute op still lands in a region (with no result for it); a
// region may have no operands.

// CHECK-LABEL: func.func @dead(
// CHECK-NEXT:    mps.subgraph @dead_mps0() : () -> () {
// CHECK-NEXT:      graph.param "p"
// CHECK-NEXT:      graph.exp
// CHECK-NEXT:      mps.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @dead() {
  %p = graph.param "p" : tensor<4xf32>
  %e = graph.exp %p : (tensor<4xf32>) -> tensor<4xf32>
  return
}
