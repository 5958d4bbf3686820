// RUN: rlx-opt %s --hybrid-split --view-op-graph=color-by=region -o /dev/null 2>&1 | FileCheck %s

// view-op-graph colours the nodes by the op holding them: every node of an
// mps.subgraph gets one colour, every node of a thunk.call another.

// CHECK:      label = "mps.subgraph
// CHECK:      [fillcolor = "[[MPS:[0-9.]+ 1.0 1.0]]", label = "graph.exp
// CHECK:      [fillcolor = "[[MPS]]", label = "mps.yield
// CHECK:      label = "thunk.call
// CHECK-NOT:  [fillcolor = "[[MPS]]"
// CHECK:      [fillcolor = "[[THUNK:[0-9.]+ 1.0 1.0]]", label = "graph.max
// CHECK:      label = "mps.subgraph
// CHECK:      [fillcolor = "[[MPS]]", label = "graph.neg
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = graph.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  %m = graph.max %e, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %n = graph.neg %m : (tensor<4xf32>) -> tensor<4xf32>
  return %n : tensor<4xf32>
}
