// RUN: rlx-run %s | FileCheck %s
// RUN: rlx-run %s --seed 7 --num-values 2 | FileCheck %s --check-prefix=SEED
// RUN: rlx-run %s > %t.first
// RUN: rlx-run %s > %t.second
// RUN: diff %t.first %t.second

// Each result: its type, its checksum (FNV-1a 64 of the little-endian bytes)
// and its first values. Weights and inputs come from the seed (default 0),
// and the interpreter is bit-reproducible, so the checksums are goldens.

// CHECK:      result 0: tensor<2x8xf32> checksum 0b4971a90f00641f [0.0064168964, -0.14828746, {{.*}}, -0.09858251, ...]
// CHECK-NEXT: result 1: tensor<2x8xf16> checksum 29c5cd406aebc333 [0.006416321, -0.14831543,
// CHECK-NEXT: result 2: tensor<2xi32> checksum 29c7dd317360ac35 [1, 1]
// CHECK-NOT:  result 3

// SEED:      result 0: tensor<2x8xf32> checksum d8412a24a1d13438 [0.19499546, 0.06622106, ...]
// SEED-NEXT: result 1: tensor<2x8xf16> checksum 0690c3799df8d67f [0.19494629, 0.066223145, ...]
// SEED-NEXT: result 2: tensor<2xi32> checksum 29c7dd317360ac35 [1, 1]

func.func @main(%x: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf16>, tensor<2xi32>) {
  %g = graph.param "norm" : tensor<8xf32>
  %w = graph.param "w" : tensor<8x8xf32>
  %0 = graph.rms_norm %x, %g {epsilon = 1.0e-06 : f32} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %1 = graph.matmul %0, %w : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
  %2 = graph.silu %1 : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %3 = graph.cast %2 : (tensor<2x8xf32>) -> tensor<2x8xf16>
  %c = graph.constant dense<[1, 1]> : tensor<2xi32>
  return %2, %3, %c : tensor<2x8xf32>, tensor<2x8xf16>, tensor<2xi32>
}
