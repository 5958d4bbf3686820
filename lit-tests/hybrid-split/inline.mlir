// RUN: rlx-opt %s --hybrid-split --hybrid-inline | FileCheck %s
// RUN: rlx-opt %s --hybrid-split=mode=seed --hybrid-inline | FileCheck %s
// RUN: rlx-opt %s --hybrid-split > %t.split
// RUN: rlx-opt %s --hybrid-split --hybrid-inline --hybrid-split | diff %t.split -
// RUN: rlx-opt %s --hybrid-inline | FileCheck %s --check-prefix=NOOP
// RUN: rlx-opt %s --hybrid-split --hybrid-inline --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// hybrid-inline puts every region's body back in line: block arguments
// become the region op's operands, results the yielded values, and the
// leaves cloned into several regions are merged again. Here the result
// prints exactly as the input (which is in a topological order the split
// keeps); splitting it again gives the same split.

// CHECK-LABEL: func.func @f(
// CHECK-SAME:      %[[X:.*]]: tensor<1x64xf32>)
// CHECK-NEXT:    %[[W:.*]] = graph.param "w" : tensor<64x64xf32>
// CHECK-NEXT:    %[[A:.*]] = graph.matmul %[[X]], %[[W]]
// CHECK-NEXT:    %[[B:.*]] = graph.add %[[A]], %[[X]]
// CHECK-NEXT:    %[[C:.*]] = graph.max %[[A]], %[[B]]
// CHECK-NEXT:    %[[D:.*]] = graph.matmul %[[C]], %[[W]]
// CHECK-NEXT:    %[[E:.*]] = graph.mul %[[D]], %[[B]]
// CHECK-NEXT:    return %[[E]], %[[B]]

// NOOP: graph.param "w"
// NOOP-NOT: mps.subgraph

// STATS:      HybridInline
// STATS-NEXT:   (S) 1 leaves-merged   - Number of duplicate leaves erased
// STATS-NEXT:   (S) 3 regions-inlined - Number of region ops put back in line
func.func @f(%x: tensor<1x64xf32>) -> (tensor<1x64xf32>, tensor<1x64xf32>) {
  %w = graph.param "w" : tensor<64x64xf32>
  %a = graph.matmul %x, %w : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %b = graph.add %a, %x : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  %c = graph.max %a, %b : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  %d = graph.matmul %c, %w : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %e = graph.mul %d, %b : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  return %e, %b : tensor<1x64xf32>, tensor<1x64xf32>
}
