// RUN: rlx-translate --mlir-to-msl %s -o %t.metal
// RUN: FileCheck %s < %t.metal
// RUN: FileCheck %s --check-prefix=MAN < %t.manifest.json

// A tensor a kernel indexes has at most 2^31 elements (MaxElements, the
// kernels' indices are 32 bits), but a stack of experts read in place may
// be larger: its kernels step to the chosen matrix in 64 bits (ulong) and
// index only within it. DeepSeek-V3's [256] experts of [2048, 7168] in
// q6_k are 3082813440 bytes; each matrix 12042240. (msl-errors.mlir's
// @kept: the same stack with a gather kernel fails.)

// CHECK-LABEL: // x[1, 7168] · W[2048, 7168]ᵀ for each of 2 experts of [256] that eidx picks, W in q6_k
// CHECK-NEXT:  kernel void dequant_gemv_q6_k_experts_0(
// CHECK:       device const uchar *w = wx + (ein ? (ulong)e : 0ul) * 12042240ul;

// MAN: "role": "param", "index": 0, "name": "exps", "type": "tensor<3082813440xui8>", "bytes": 3082813440

func.func @moe(%x: tensor<1x7168xf32>, %i: tensor<2xi32>) -> (tensor<1x2048xf32>, tensor<1x2048xf32>) {
  %0:2 = thunk.call @moe_thunk0(%x, %i) {target = "metal"} : (tensor<1x7168xf32>, tensor<2xi32>) -> (tensor<1x2048xf32>, tensor<1x2048xf32>) {
  ^bb0(%a: tensor<1x7168xf32>, %b: tensor<2xi32>):
    %w = graph.param "exps" : tensor<3082813440xui8>
    %r = graph.reshape %w : (tensor<3082813440xui8>) -> tensor<256x12042240xui8>
    %g = graph.gather %r, %b {axis = 0 : i64} : (tensor<256x12042240xui8>, tensor<2xi32>) -> tensor<2x12042240xui8>
    %s0 = graph.slice %g {axis = 0 : i64, length = 1 : i64, start = 0 : i64} : (tensor<2x12042240xui8>) -> tensor<1x12042240xui8>
    %m0 = graph.reshape %s0 : (tensor<1x12042240xui8>) -> tensor<12042240xui8>
    %y0 = graph.dequant_matmul %a, %m0 {format = "q6_k", k = 7168 : i64, n = 2048 : i64} : (tensor<1x7168xf32>, tensor<12042240xui8>) -> tensor<1x2048xf32>
    %s1 = graph.slice %g {axis = 0 : i64, length = 1 : i64, start = 1 : i64} : (tensor<2x12042240xui8>) -> tensor<1x12042240xui8>
    %m1 = graph.reshape %s1 : (tensor<1x12042240xui8>) -> tensor<12042240xui8>
    %y1 = graph.dequant_matmul %a, %m1 {format = "q6_k", k = 7168 : i64, n = 2048 : i64} : (tensor<1x7168xf32>, tensor<12042240xui8>) -> tensor<1x2048xf32>
    thunk.yield %y0, %y1 : tensor<1x2048xf32>, tensor<1x2048xf32>
  }
  return %0#0, %0#1 : tensor<1x2048xf32>, tensor<1x2048xf32>
}
