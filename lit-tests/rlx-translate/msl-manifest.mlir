// RUN: rlx-translate --mlir-to-msl %s -o %t.metal
// RUN: FileCheck %s --input-file=%t.manifest.json
// RUN: rlx-translate --mlir-to-msl --msl-version=3.1 --max-threads-per-threadgroup=64 %s -o %t.small.metal
// RUN: FileCheck %s --input-file=%t.small.manifest.json --check-prefix=SMALL
// RUN: rlx-translate --mlir-to-msl %s | FileCheck %s --check-prefix=STDOUT

// The manifest beside -o: the kernels (pipelines) with their launch
// shapes, bindings and traffic, then each region's buffers and the
// dispatches to encode in order. The weight is bound by name; the region
// result is written by the last kernel directly; the intermediate value
// lives in a temporary.

// CHECK:      {
// CHECK-NEXT:  "version": 1,
// CHECK-NEXT:  "msl_version": "3.0",
// CHECK-NEXT:  "math_mode": "safe",
// CHECK-NEXT:  "kernels": [
// CHECK-NEXT:   {"name": "dequant_gemv_q8_0_0", "family": "dequant_gemv_q8_0", "grid": [16, 1, 1], "threadgroup": [128, 1, 1], "threadgroup_memory": 64, "resize": "rows", "reads": 4608, "writes": 256,
// CHECK-NEXT:    "bindings": [
// CHECK-NEXT:     {"index": 0, "name": "x", "access": "read", "type": "f32", "shape": [1, 64], "bytes": 256},
// CHECK-NEXT:     {"index": 1, "name": "w", "access": "read", "type": "ui8", "shape": [4352], "bytes": 4352},
// CHECK-NEXT:     {"index": 2, "name": "y", "access": "write", "type": "f32", "shape": [1, 64], "bytes": 256}]},
// CHECK-NEXT:   {"name": "rms_norm_0", "family": "rms_norm", "grid": [1, 1, 1], "threadgroup": [32, 1, 1], "threadgroup_memory": 128, "resize": "rows", "reads": 512, "writes": 256,
// CHECK-NEXT:    "bindings": [
// CHECK-NEXT:     {"index": 0, "name": "x", "access": "read", "type": "f32", "shape": [1, 64], "bytes": 256},
// CHECK-NEXT:     {"index": 1, "name": "gamma", "access": "read", "type": "f32", "shape": [64], "bytes": 256},
// CHECK-NEXT:     {"index": 2, "name": "y", "access": "write", "type": "f32", "shape": [1, 64], "bytes": 256}]}
// CHECK-NEXT:  ],
// CHECK-NEXT:  "regions": [
// CHECK-NEXT:   {"function": "step", "symbol": "step_thunk", "loc": "{{.*}}msl-manifest.mlir:[[@LINE+24]]:8",
// CHECK-NEXT:    "buffers": [
// CHECK-NEXT:     {"id": 0, "role": "input", "index": 0, "type": "tensor<1x64xf32>", "bytes": 256},
// CHECK-NEXT:     {"id": 1, "role": "input", "index": 1, "type": "tensor<64xf32>", "bytes": 256},
// CHECK-NEXT:     {"id": 2, "role": "output", "index": 0, "type": "tensor<1x64xf32>", "bytes": 256},
// CHECK-NEXT:     {"id": 3, "role": "param", "index": 0, "name": "l0.w_o", "type": "tensor<4352xui8>", "bytes": 4352},
// CHECK-NEXT:     {"id": 4, "role": "temp", "index": 0, "type": "tensor<1x64xf32>", "bytes": 256}
// CHECK-NEXT:    ],
// CHECK-NEXT:    "dispatches": [
// CHECK-NEXT:     {"kernel": "dequant_gemv_q8_0_0", "buffers": [0, 3, 4], "ops": [{"name": "graph.dequant_matmul", "loc": "{{.*}}msl-manifest.mlir:[[@LINE+18]]:10"}]},
// CHECK-NEXT:     {"kernel": "rms_norm_0", "buffers": [4, 1, 2], "ops": [{"name": "graph.rms_norm", "loc": "{{.*}}msl-manifest.mlir:[[@LINE+18]]:10"}]}
// CHECK-NEXT:    ]}
// CHECK-NEXT:  ]
// CHECK-NEXT: }

// With a lower maximum, every kernel fits it.
// SMALL:      "msl_version": "3.1",
// SMALL:      {"name": "dequant_gemv_q8_0_0", "family": "dequant_gemv_q8_0", "grid": [16, 1, 1], "threadgroup": [64, 1, 1], "threadgroup_memory": 32,

// Without -o there is no file beside the output: only the source is written.
// STDOUT:     kernel void dequant_gemv_q8_0_0(
// STDOUT-NOT: "version"

func.func @step(%x: tensor<1x64xf32>, %g: tensor<64xf32>) -> tensor<1x64xf32> {
  %r = thunk.call @step_thunk(%x, %g) {target = "metal"} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32> {
  ^bb0(%a: tensor<1x64xf32>, %b: tensor<64xf32>):
    %w = graph.param "l0.w_o" : tensor<4352xui8>
    %0 = graph.dequant_matmul %a, %w {format = "q8_0", k = 64 : i64, n = 64 : i64} : (tensor<1x64xf32>, tensor<4352xui8>) -> tensor<1x64xf32>
    %1 = graph.rms_norm %0, %b {epsilon = 1.0e-06 : f32} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
    thunk.yield %1 : tensor<1x64xf32>
  }
  return %r : tensor<1x64xf32>
}
