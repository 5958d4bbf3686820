// RUN: rlx-opt %s --hybrid-split | rlx-translate --mlir-to-msl | FileCheck %s
// RUN: rlx-opt %s --hybrid-split -o %t.mlir
// RUN: rlx-translate --mlir-to-msl %t.mlir -o %t.metal
// RUN: FileCheck %s --input-file=%t.manifest.json --check-prefix=MAN

// The intended pipeline: hybrid-split puts what MPSGraph cannot run (the
// packed q8_0 weight's matmul, softplus) into thunk.call regions, and
// mlir-to-msl emits their kernels; the mps.subgraph (the rms_norm) is not
// its business.

// CHECK:      kernel void dequant_gemv_q8_0_0(
// CHECK:      // fused element-wise softplus over [1 64]
// CHECK-NEXT: kernel void ew_0(
// CHECK-NOT:  rms_norm

// MAN:      "regions": [
// MAN-NEXT:   {"function": "f", "symbol": "f_thunk0",
// MAN:          {"id": 2, "role": "param", "index": 0, "name": "w", "type": "tensor<4352xui8>", "bytes": 4352}
// MAN:          {"kernel": "dequant_gemv_q8_0_0", "buffers": [0, 2, 1],
// MAN:        {"function": "f", "symbol": "f_thunk2",
// MAN:          {"kernel": "ew_0", "buffers": [0, 1],

func.func @f(%x: tensor<1x64xf32>, %g: tensor<64xf32>) -> tensor<1x64xf32> {
  %w = graph.param "w" : tensor<4352xui8>
  %0 = graph.dequant_matmul %x, %w {format = "q8_0", k = 64 : i64, n = 64 : i64} : (tensor<1x64xf32>, tensor<4352xui8>) -> tensor<1x64xf32>
  %1 = graph.rms_norm %0, %g {epsilon = 1.0e-06 : f32} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
  %2 = graph.softplus %1 : (tensor<1x64xf32>) -> tensor<1x64xf32>
  return %2 : tensor<1x64xf32>
}
