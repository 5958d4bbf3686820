// RUN: rlx-translate --mlir-to-msl %s -o %t.metal
// RUN: FileCheck %s < %t.metal
// RUN: FileCheck %s --check-prefix=MAN < %t.manifest.json

// MoE experts read in place (codegen/metal experts.go): the gather of the
// stack and the slices of its rows get no kernel.
//
// @moe reads both chosen experts (the gather's two indices) with one row
// of x: one dispatch computes both, expert j on the grid's third axis,
// reading its matrix at the stack plus eidx[j] matrices of 18432 bytes
// and writing its own result (y0 or y1), as ggml's mul_mv_id does. Its
// traffic counts the two chosen matrices of the stack, not all four.
//
// @one reads only the second: its kernel takes which index from a 4-byte
// constant buffer (ej), so that single reads of one shape share a kernel.
//
// In both, an index out of range reads expert 0 and sets the status word,
// as the gather would.

// CHECK-NOT:   kernel void gather_
// CHECK-NOT:   kernel void slice_
// CHECK-LABEL: // x[1, 512] · W[64, 512]ᵀ for each of 2 experts of [4] that eidx picks, W in q4_k
// CHECK-NEXT:  kernel void dequant_gemv_q4_k_experts_0(
// CHECK-NEXT:      device const float *x {{\[\[}}buffer(0){{\]\]}},
// CHECK-NEXT:      device const uchar *wx {{\[\[}}buffer(1){{\]\]}},
// CHECK-NEXT:      device const int *eidx {{\[\[}}buffer(2){{\]\]}},
// CHECK-NEXT:      device float *y0 {{\[\[}}buffer(3){{\]\]}},
// CHECK-NEXT:      device float *y1 {{\[\[}}buffer(4){{\]\]}},
// CHECK-NEXT:      device atomic_uint *status {{\[\[}}buffer(5){{\]\]}},
// CHECK:       {
// CHECK-NEXT:    const long e = (long)eidx[tgpos.z];
// CHECK-NEXT:    const bool ein = e >= 0 && e < 4;
// CHECK-NEXT:    if (!ein) {
// CHECK-NEXT:      atomic_fetch_or_explicit(status, 1u, memory_order_relaxed);
// CHECK-NEXT:    }
// CHECK-NEXT:    device const uchar *w = wx + (ein ? (ulong)e : 0ul) * 18432ul;
// CHECK-NEXT:    device float *y = tgpos.z == 0u ? y0 : y1;
// CHECK-LABEL: // x[1, 512] · W[64, 512]ᵀ, W in q4_k, W the matrix of [4] experts that eidx[ej] picks
// CHECK-NEXT:  kernel void dequant_gemv_q4_k_expert_0(
// CHECK-NEXT:      device const float *x {{\[\[}}buffer(0){{\]\]}},
// CHECK-NEXT:      device const uchar *wx {{\[\[}}buffer(1){{\]\]}},
// CHECK-NEXT:      device const int *eidx {{\[\[}}buffer(2){{\]\]}},
// CHECK-NEXT:      device const int *ej {{\[\[}}buffer(3){{\]\]}},
// CHECK:       {
// CHECK-NEXT:    const long e = (long)eidx[ej[0]];
// CHECK-NOT:   kernel void

// MAN:      "name": "dequant_gemv_q4_k_experts_0", {{.*}} "grid": [16, 1, 2], {{.*}} "reads": 38920
// MAN:      "name": "dequant_gemv_q4_k_expert_0", {{.*}} "grid": [16, 1, 1], {{.*}} "reads": 20492
// MAN:      "kernel": "dequant_gemv_q4_k_experts_0", "buffers": [0, 4, 1, 2, 3, 5]
// MAN:      "id": 5, "role": "constant", "index": 0, "type": "tensor<1xi32>", "bytes": 4, "data": "01000000"
// MAN:      "kernel": "dequant_gemv_q4_k_expert_0", "buffers": [0, 3, 1, 5, 2, 4]

func.func @moe(%x: tensor<1x512xf32>, %i: tensor<2xi32>) -> (tensor<1x64xf32>, tensor<1x64xf32>) {
  %0:2 = thunk.call @moe_thunk0(%x, %i) {target = "metal"} : (tensor<1x512xf32>, tensor<2xi32>) -> (tensor<1x64xf32>, tensor<1x64xf32>) {
  ^bb0(%a: tensor<1x512xf32>, %b: tensor<2xi32>):
    %w = graph.param "exps" : tensor<73728xui8>
    %r = graph.reshape %w : (tensor<73728xui8>) -> tensor<4x18432xui8>
    %g = graph.gather %r, %b {axis = 0 : i64} : (tensor<4x18432xui8>, tensor<2xi32>) -> tensor<2x18432xui8>
    %s0 = graph.slice %g {axis = 0 : i64, length = 1 : i64, start = 0 : i64} : (tensor<2x18432xui8>) -> tensor<1x18432xui8>
    %m0 = graph.reshape %s0 : (tensor<1x18432xui8>) -> tensor<18432xui8>
    %y0 = graph.dequant_matmul %a, %m0 {format = "q4_k", k = 512 : i64, n = 64 : i64} : (tensor<1x512xf32>, tensor<18432xui8>) -> tensor<1x64xf32>
    %s1 = graph.slice %g {axis = 0 : i64, length = 1 : i64, start = 1 : i64} : (tensor<2x18432xui8>) -> tensor<1x18432xui8>
    %m1 = graph.reshape %s1 : (tensor<1x18432xui8>) -> tensor<18432xui8>
    %y1 = graph.dequant_matmul %a, %m1 {format = "q4_k", k = 512 : i64, n = 64 : i64} : (tensor<1x512xf32>, tensor<18432xui8>) -> tensor<1x64xf32>
    thunk.yield %y0, %y1 : tensor<1x64xf32>, tensor<1x64xf32>
  }
  return %0#0, %0#1 : tensor<1x64xf32>, tensor<1x64xf32>
}
func.func @one(%x: tensor<1x512xf32>, %i: tensor<2xi32>) -> tensor<1x64xf32> {
  %0 = thunk.call @one_thunk0(%x, %i) {target = "metal"} : (tensor<1x512xf32>, tensor<2xi32>) -> tensor<1x64xf32> {
  ^bb0(%a: tensor<1x512xf32>, %b: tensor<2xi32>):
    %w = graph.param "exps" : tensor<73728xui8>
    %r = graph.reshape %w : (tensor<73728xui8>) -> tensor<4x18432xui8>
    %g = graph.gather %r, %b {axis = 0 : i64} : (tensor<4x18432xui8>, tensor<2xi32>) -> tensor<2x18432xui8>
    %s1 = graph.slice %g {axis = 0 : i64, length = 1 : i64, start = 1 : i64} : (tensor<2x18432xui8>) -> tensor<1x18432xui8>
    %m1 = graph.reshape %s1 : (tensor<1x18432xui8>) -> tensor<18432xui8>
    %y1 = graph.dequant_matmul %a, %m1 {format = "q4_k", k = 512 : i64, n = 64 : i64} : (tensor<1x512xf32>, tensor<18432xui8>) -> tensor<1x64xf32>
    thunk.yield %y1 : tensor<1x64xf32>
  }
  return %0 : tensor<1x64xf32>
}
