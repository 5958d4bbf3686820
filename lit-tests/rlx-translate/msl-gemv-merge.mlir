// RUN: rlx-translate --mlir-to-msl %s | FileCheck %s

// gemv_merge with many splits: K = 2240 splits into 70 parts of 32 rows.
// A threadgroup takes 32 results (a lane each) and its eight simdgroups
// share the splits: simdgroup g adds splits g, g+P, … (P simdgroups at
// run time), nine loads issued before the first add while a whole chunk
// fits, the rest one at a time; then the simdgroups' sums meet in
// threadgroup memory and simdgroup 0 adds them in order.

// CHECK-LABEL: // gemv [1 2240]·[2240 64], f32·f32, K in 70 splits of 32
// CHECK-LABEL: // gemv_merge: 70 splits of 64 partial sums into f32
// CHECK-NEXT:  kernel void gemv_merge_0(
// CHECK:         const uint t = tgpos.x * 32u + lane;
// CHECK-NEXT:    const uint P = tptg.x / 32u;
// CHECK-NEXT:    float s = 0.0f;
// CHECK-NEXT:    if (t < 64u) {
// CHECK-NEXT:      uint sp = sg;
// CHECK-NEXT:      for (; sp + 8u * P < 70u; sp += 9u * P) {
// CHECK-NEXT:        const float v0 = part[sp * 64u + t];
// CHECK-NEXT:        const float v1 = part[(sp + 1u * P) * 64u + t];
// CHECK:             const float v8 = part[(sp + 8u * P) * 64u + t];
// CHECK-NEXT:        s += v0;
// CHECK:             s += v8;
// CHECK-NEXT:      }
// CHECK-NEXT:      for (; sp < 70u; sp += P) {
// CHECK-NEXT:        s += part[sp * 64u + t];
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    tg[sg * 32u + lane] = s;
// CHECK-NEXT:    threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:    if (sg == 0 && t < 64u) {
// CHECK-NEXT:      float sum = 0.0f;
// CHECK-NEXT:      for (uint g = 0; g < P; g++) {
// CHECK-NEXT:        sum += tg[g * 32u + lane];
// CHECK-NEXT:      }
// CHECK-NEXT:      y[t] = (float)sum;

func.func @gemv(%x: tensor<1x2240xf32>, %w: tensor<2240x64xf32>) -> tensor<1x64xf32> {
  %r = thunk.call @gemv_thunk(%x, %w) {target = "metal"} : (tensor<1x2240xf32>, tensor<2240x64xf32>) -> tensor<1x64xf32> {
  ^bb0(%a: tensor<1x2240xf32>, %b: tensor<2240x64xf32>):
    %0 = graph.matmul %a, %b : (tensor<1x2240xf32>, tensor<2240x64xf32>) -> tensor<1x64xf32>
    thunk.yield %0 : tensor<1x64xf32>
  }
  return %r : tensor<1x64xf32>
}
