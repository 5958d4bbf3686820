// RUN: rlx-opt %s --hybrid-split | rlx-translate --mlir-to-dot | FileCheck %s
// RUN: rlx-opt %s --hybrid-split | rlx-translate --mlir-to-dot --dot-color-by=op | FileCheck %s --check-prefix=BYOP
// RUN: rlx-opt %s --hybrid-split -o %t.mlir
// RUN: rlx-translate --mlir-to-dot %t.mlir -o %t.dot
// RUN: FileCheck %s --input-file=%t.dot
// RUN: rlx-opt %s --pass-pipeline='builtin.module(func.func(hybrid-split,view-op-graph{color-by=region}))' -o /dev/null 2>%t.view.dot
// RUN: diff %t.dot %t.view.dot

// The split function as a DOT graph: one cluster per region op, nodes
// coloured by the region that holds them (mps.subgraph, thunk.call), the
// drawing view-op-graph{color-by=region} makes of the same function.

// CHECK:      digraph G {
// CHECK:        label = "func.func
// CHECK:        label = "mps.subgraph
// CHECK:        fillcolor = "[[MPS:[0-9.]+]] 1.0 1.0", label = "graph.param
// CHECK-NEXT:   fillcolor = "[[MPS]] 1.0 1.0", label = "graph.matmul
// CHECK-NEXT:   fillcolor = "[[MPS]] 1.0 1.0", label = "mps.yield
// CHECK:        label = "thunk.call
// CHECK:        fillcolor = "[[THUNK:[0-9.]+]] 1.0 1.0", label = "graph.softplus
// CHECK-NEXT:   fillcolor = "[[THUNK]] 1.0 1.0", label = "thunk.yield
// CHECK:      }

// By op name, the param and the matmul of one region differ.
// BYOP:     fillcolor = "[[P:[0-9.]+]] 1.0 1.0", label = "graph.param
// BYOP-NOT: fillcolor = "[[P]] 1.0 1.0", label = "graph.matmul
// BYOP:     label = "graph.matmul
func.func @f(%x: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %w = graph.param "w" : tensor<8x8xf32>
  %0 = graph.matmul %x, %w : (tensor<1x8xf32>, tensor<8x8xf32>) -> tensor<1x8xf32>
  %1 = graph.softplus %0 : (tensor<1x8xf32>) -> tensor<1x8xf32>
  return %1 : tensor<1x8xf32>
}
