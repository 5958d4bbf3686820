// RUN: rlx-opt %s --hybrid-split=explain --verify-diagnostics | FileCheck %s

// An already split function is left as it is; explain says so.

// CHECK-LABEL: func.func @split
// CHECK-NEXT:    mps.subgraph @split_mps0(%arg0)
// CHECK:         thunk.call @split_thunk1
// CHECK:         return

// expected-remark@+1 {{hybrid-split: @split is already split, left as it is}}
func.func @split(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mps.subgraph @split_mps0(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %e = graph.exp %a : (tensor<4xf32>) -> tensor<4xf32>
    mps.yield %e : tensor<4xf32>
  }
  %1 = thunk.call @split_thunk1(%0) {target = "metal"} : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %m = graph.max %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    thunk.yield %m : tensor<4xf32>
  }
  return %1 : tensor<4xf32>
}
