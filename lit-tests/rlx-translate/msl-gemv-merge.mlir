// RUN: rlx-translate --mlir-to-msl %s | FileCheck %s

// gemv_merge with more splits than one chunk: K = 2240 splits into 70
// parts of 32 rows; the merge loads 32 partials before it adds them, in
// split order, twice in a loop, then the last 6 from split 64.

// CHECK-LABEL: // gemv [1 2240]·[2240 64], f32·f32, K in 70 splits of 32
// CHECK-LABEL: // gemv_merge: 70 splits of 64 partial sums into f32
// CHECK-NEXT:  kernel void gemv_merge_0(
// CHECK:         const uint t = tgpos.x * tptg.x + tpos.x;
// CHECK-NEXT:    if (t < 64u) {
// CHECK-NEXT:      float s = 0.0f;
// CHECK-NEXT:      for (uint c = 0; c < 2u; c++) {
// CHECK-NEXT:        const float v0 = part[(c * 32u + 0u) * 64u + t];
// CHECK-NEXT:        const float v1 = part[(c * 32u + 1u) * 64u + t];
// CHECK:             const float v31 = part[(c * 32u + 31u) * 64u + t];
// CHECK-NEXT:        s += v0;
// CHECK-NEXT:        s += v1;
// CHECK:             s += v31;
// CHECK-NEXT:      }
// CHECK-NEXT:      {
// CHECK-NEXT:        const float v0 = part[(64u + 0u) * 64u + t];
// CHECK:             const float v5 = part[(64u + 5u) * 64u + t];
// CHECK-NEXT:        s += v0;
// CHECK:             s += v5;
// CHECK-NEXT:      }
// CHECK-NEXT:      y[t] = (float)s;

func.func @gemv(%x: tensor<1x2240xf32>, %w: tensor<2240x64xf32>) -> tensor<1x64xf32> {
  %r = thunk.call @gemv_thunk(%x, %w) {target = "metal"} : (tensor<1x2240xf32>, tensor<2240x64xf32>) -> tensor<1x64xf32> {
  ^bb0(%a: tensor<1x2240xf32>, %b: tensor<2240x64xf32>):
    %0 = graph.matmul %a, %b : (tensor<1x2240xf32>, tensor<2240x64xf32>) -> tensor<1x64xf32>
    thunk.yield %0 : tensor<1x64xf32>
  }
  return %r : tensor<1x64xf32>
}
