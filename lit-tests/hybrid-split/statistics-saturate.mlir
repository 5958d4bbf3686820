// RUN: rlx-opt %s --hybrid-split --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s

// boundary-bytes saturates at the largest int64 instead of wrapping
// around: each of the five values that cross a region boundary here holds
// 2^62 bytes (2^60 f32 elements), 5 * 2^62 in all (it printed
// 4611686018427387904 when the sum wrapped).

// CHECK:      HybridSplit
// CHECK-NEXT:   (S) 9223372036854775807 boundary-bytes       - Bytes of the values that cross a region boundary
// CHECK-NEXT:   (S)                   5 boundary-values      - Number of values that cross a region boundary
func.func @f(%x: tensor<1152921504606846976xf32>) -> (tensor<1152921504606846976xf32>, tensor<1152921504606846976xf32>) {
  %a = graph.exp %x : (tensor<1152921504606846976xf32>) -> tensor<1152921504606846976xf32>
  %b = graph.max %a, %x : (tensor<1152921504606846976xf32>, tensor<1152921504606846976xf32>) -> tensor<1152921504606846976xf32>
  %c = graph.exp %b : (tensor<1152921504606846976xf32>) -> tensor<1152921504606846976xf32>
  return %a, %c : tensor<1152921504606846976xf32>, tensor<1152921504606846976xf32>
}

func.func @g(%x: tensor<1152921504606846976xf32>) -> tensor<1152921504606846976xf32> {
  %a = graph.exp %x : (tensor<1152921504606846976xf32>) -> tensor<1152921504606846976xf32>
  %b = graph.max %a, %x : (tensor<1152921504606846976xf32>, tensor<1152921504606846976xf32>) -> tensor<1152921504606846976xf32>
  return %b : tensor<1152921504606846976xf32>
}
