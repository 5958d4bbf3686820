// RUN: rlx-opt %s --hybrid-split --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s
// RUN: rlx-opt %s --hybrid-split=mode=seed --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=SEED

// The statistics: regions and compute ops of each kind, MPS coverage, and
// the values (and bytes) that cross a region boundary, summed over the
// functions. @f: mps0 yields %a and %b (2 × 256 bytes), thunk1 yields %c
// (256), mps2 yields %e (256); @g: one MPS region yielding 16 bytes.

// CHECK:      HybridSplit
// CHECK-NEXT:   (S) 1040 boundary-bytes       - Bytes of the values that cross a region boundary
// CHECK-NEXT:   (S)    5 boundary-values      - Number of values that cross a region boundary
// CHECK-NEXT:   (S)   83 mps-coverage-percent - Compute ops in MPS regions per 100 compute ops
// CHECK-NEXT:   (S)    5 mps-ops              - Number of compute ops in mps.subgraph regions
// CHECK-NEXT:   (S)    3 mps-regions          - Number of mps.subgraph regions
// CHECK-NEXT:   (S)    1 thunk-ops            - Number of compute ops in thunk.call regions
// CHECK-NEXT:   (S)    1 thunk-regions        - Number of thunk.call regions

// Seed mode: @f is one run holding graph.max, so one thunk region.
// SEED:      HybridSplit
// SEED-NEXT:   (S) 528 boundary-bytes       - Bytes of the values that cross a region boundary
// SEED-NEXT:   (S)   3 boundary-values      - Number of values that cross a region boundary
// SEED-NEXT:   (S)  16 mps-coverage-percent - Compute ops in MPS regions per 100 compute ops
// SEED-NEXT:   (S)   1 mps-ops              - Number of compute ops in mps.subgraph regions
// SEED-NEXT:   (S)   1 mps-regions          - Number of mps.subgraph regions
// SEED-NEXT:   (S)   5 thunk-ops            - Number of compute ops in thunk.call regions
// SEED-NEXT:   (S)   1 thunk-regions        - Number of thunk.call regions
func.func @f(%x: tensor<1x64xf32>) -> (tensor<1x64xf32>, tensor<1x64xf32>) {
  %w = graph.param "w" : tensor<64x64xf32>
  %a = graph.matmul %x, %w : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %b = graph.add %a, %x : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  %c = graph.max %a, %b : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  %d = graph.matmul %c, %w : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %e = graph.mul %d, %b : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  return %e, %b : tensor<1x64xf32>, tensor<1x64xf32>
}

func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = graph.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  return %e : tensor<4xf32>
}
