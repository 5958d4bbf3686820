// RUN: rlx-translate --mlir-to-msl %s -o %t.metal
// RUN: FileCheck %s --input-file=%t.metal
// RUN: FileCheck %s --input-file=%t.manifest.json --check-prefix=MAN

// Data movement: one thread per result element, so that stores coalesce;
// the source index uses literal strides. A reshape is a view: the region
// result that is a reshape of its operand is a copy, nothing else.

// CHECK-LABEL: // transpose [2 3 5] by [2 0 1], f32
// CHECK-NEXT:  kernel void transpose_0(
// CHECK-NEXT:      device const float *x0 {{\[\[}}buffer(0){{\]\]}},
// CHECK-NEXT:      device float *y {{\[\[}}buffer(1){{\]\]}},
// CHECK:         y[t] = x0[(t / 6u) + ((t / 3u) % 2u) * 15u + (t % 3u) * 5u];

// CHECK-LABEL: // slice [2 3 5] axis 1 from 0, 2 every 2, f32
// CHECK:         y[t] = x0[outer * 15u + (0u + c * 2u) * 5u + inner];

// CHECK-LABEL: // concat of 2 along axis 1 into [1 8 2 16], f32
// CHECK:         if (c < 7u) {
// CHECK-NEXT:      y[t] = x0[outer * 224u + (c - 0u) * 32u + inner];
// CHECK:           y[t] = x1[outer * 32u + (c - 7u) * 32u + inner];

// An out-of-range gather index reads nothing: it writes 0 and sets bit 0
// of the region's status word, which the runtime checks.
// CHECK-LABEL: // gather from [50 16] along axis 0 by i32[1 3]
// CHECK:           device atomic_uint *status {{\[\[}}buffer(3){{\]\]}},
// CHECK:         const long i = (long)x1[c];
// CHECK-NEXT:    if (i < 0 || i >= 50) {
// CHECK-NEXT:      atomic_fetch_or_explicit(status, 1u, memory_order_relaxed);
// CHECK:         y[t] = x0[outer * 800u + (uint)i * 16u + inner];

// CHECK-LABEL: // copy 30 elements of f32
// CHECK:           y[t] = x[t];

// MAN:      {"id": 10, "role": "status", "index": 0, "type": "u32", "bytes": 4}
// MAN:      {"kernel": "gather_0", "buffers": [3, 4, 8, 10],
// MAN-NEXT: {"kernel": "copy_0", "buffers": [0, 9],

func.func @move(%x: tensor<2x3x5xf32>, %k: tensor<1x7x2x16xf32>, %n: tensor<1x1x2x16xf32>, %t: tensor<50x16xf32>, %i: tensor<1x3xi32>) -> (tensor<5x2x3xf32>, tensor<2x2x5xf32>, tensor<1x8x2x16xf32>, tensor<1x3x16xf32>, tensor<30xf32>) {
  %r:5 = thunk.call @move_thunk(%x, %k, %n, %t, %i) {target = "metal"} : (tensor<2x3x5xf32>, tensor<1x7x2x16xf32>, tensor<1x1x2x16xf32>, tensor<50x16xf32>, tensor<1x3xi32>) -> (tensor<5x2x3xf32>, tensor<2x2x5xf32>, tensor<1x8x2x16xf32>, tensor<1x3x16xf32>, tensor<30xf32>) {
  ^bb0(%a: tensor<2x3x5xf32>, %b: tensor<1x7x2x16xf32>, %c: tensor<1x1x2x16xf32>, %d: tensor<50x16xf32>, %e: tensor<1x3xi32>):
    %0 = graph.transpose %a {permutation = array<i64: 2, 0, 1>} : (tensor<2x3x5xf32>) -> tensor<5x2x3xf32>
    %1 = graph.slice %a {axis = 1 : i64, start = 0 : i64, length = 2 : i64, step = 2 : i64} : (tensor<2x3x5xf32>) -> tensor<2x2x5xf32>
    %2 = graph.concat %b, %c {axis = 1 : i64} : (tensor<1x7x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x8x2x16xf32>
    %3 = graph.gather %d, %e {axis = 0 : i64} : (tensor<50x16xf32>, tensor<1x3xi32>) -> tensor<1x3x16xf32>
    %4 = graph.reshape %a : (tensor<2x3x5xf32>) -> tensor<30xf32>
    thunk.yield %0, %1, %2, %3, %4 : tensor<5x2x3xf32>, tensor<2x2x5xf32>, tensor<1x8x2x16xf32>, tensor<1x3x16xf32>, tensor<30xf32>
  }
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<5x2x3xf32>, tensor<2x2x5xf32>, tensor<1x8x2x16xf32>, tensor<1x3x16xf32>, tensor<30xf32>
}
