// RUN: rlx-translate --mlir-to-msl %s -o %t.metal
// RUN: FileCheck %s --input-file=%t.manifest.json
// RUN: rlx-translate --mlir-to-msl --decode-threadgroups=1 %s -o %t.one.metal
// RUN: FileCheck %s --input-file=%t.one.manifest.json --check-prefix=ONE
// RUN: not rlx-translate --mlir-to-msl --decode-threadgroups=0 %s 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not rlx-translate --mlir-to-msl --decode-threadgroups=many %s 2>&1 | FileCheck %s --check-prefix=NAN
// RUN: not rlx-translate --mlir-to-msl --max-threads-per-threadgroup=x %s 2>&1 | FileCheck %s --check-prefix=NAN-THREADS

// Decode kernels that split their work across threadgroups: the GEMV
// splits K, attention decode splits the keys. Each split writes partial
// results to a kernel temporary (role "temp", which runtime/plan gives an
// arena slot), and a second dispatch merges them into the result.
// --decode-threadgroups sets the grid they aim for; with 1 nothing is
// split and one dispatch writes the result.

// CHECK:       {"name": "gemv_0", "family": "gemv", "grid": [1, 8, 1], "threadgroup": [128, 1, 1], "threadgroup_memory": 4096, "resize": "rows", "reads": 66560, "writes": 2048,
// CHECK:         {"index": 2, "name": "part", "access": "write", "type": "f32", "shape": [8, 1, 1, 64], "bytes": 2048}]},
// CHECK-NEXT:  {"name": "gemv_merge_0", "family": "gemv_merge", "grid": [2, 1, 1], "threadgroup": [256, 1, 1], "threadgroup_memory": 1024, "resize": "rows", "reads": 2048, "writes": 256,
// CHECK:       {"name": "attention_decode_0", "family": "attention_decode", "grid": [4, 4, 1], "threadgroup": [128, 1, 1],
// CHECK:         {"index": 3, "name": "part", "access": "write", "type": "f32", "shape": [4, 1, 1, 8, 130], "bytes": 16640}]},
// CHECK-NEXT:  {"name": "attention_merge_0", "family": "attention_merge",
// CHECK:       "buffers": [
// CHECK:         {"id": 6, "role": "param", "index": 0, "name": "w", "type": "tensor<256x64xf32>", "bytes": 65536},
// CHECK-NEXT:    {"id": 7, "role": "temp", "index": 0, "type": "tensor<8x1x1x64xf32>", "bytes": 2048},
// CHECK-NEXT:    {"id": 8, "role": "temp", "index": 0, "type": "tensor<4x1x1x8x130xf32>", "bytes": 16640}
// CHECK:       "dispatches": [
// CHECK-NEXT:    {"kernel": "gemv_0", "buffers": [0, 6, 7],
// CHECK-NEXT:    {"kernel": "gemv_merge_0", "buffers": [7, 4],
// CHECK-NEXT:    {"kernel": "attention_decode_0", "buffers": [1, 2, 3, 8],
// CHECK-NEXT:    {"kernel": "attention_merge_0", "buffers": [8, 5],

// ONE:         {"name": "gemv_0", "family": "gemv", "grid": [1, 1, 1],
// ONE:           {"index": 2, "name": "y", "access": "write", "type": "f32", "shape": [1, 64], "bytes": 256}]},
// ONE-NOT:     "temp"
// ONE-NOT:     _merge_

// BAD: for the --decode-threadgroups option: '0' is not from 1 to 65536
// NAN: for the --decode-threadgroups option: 'many' value invalid for uint argument!
// NAN-THREADS: for the --max-threads-per-threadgroup option: 'x' value invalid for uint argument!

func.func @step(%x: tensor<1x256xf32>, %q: tensor<1x1x8x128xf32>, %k: tensor<1x256x2x128xf32>, %v: tensor<1x256x2x128xf32>) -> (tensor<1x64xf32>, tensor<1x1x8x128xf32>) {
  %r:2 = thunk.call @step_thunk(%x, %q, %k, %v) {target = "metal"} : (tensor<1x256xf32>, tensor<1x1x8x128xf32>, tensor<1x256x2x128xf32>, tensor<1x256x2x128xf32>) -> (tensor<1x64xf32>, tensor<1x1x8x128xf32>) {
  ^bb0(%a: tensor<1x256xf32>, %b: tensor<1x1x8x128xf32>, %c: tensor<1x256x2x128xf32>, %d: tensor<1x256x2x128xf32>):
    %w = graph.param "w" : tensor<256x64xf32>
    %0 = graph.matmul %a, %w : (tensor<1x256xf32>, tensor<256x64xf32>) -> tensor<1x64xf32>
    %1 = graph.attention %b, %c, %d {mask = "causal"} : (tensor<1x1x8x128xf32>, tensor<1x256x2x128xf32>, tensor<1x256x2x128xf32>) -> tensor<1x1x8x128xf32>
    thunk.yield %0, %1 : tensor<1x64xf32>, tensor<1x1x8x128xf32>
  }
  return %r#0, %r#1 : tensor<1x64xf32>, tensor<1x1x8x128xf32>
}
