// RUN: rlx-translate --mlir-to-msl %s -o %t.metal
// RUN: FileCheck %s < %t.metal
// RUN: FileCheck %s --check-prefix=MAN < %t.manifest.json

// An MoE block's two chosen experts (codegen/metal experts.go): the
// gather of the stack and the slices of its rows get no kernel; each
// dequant_matmul reads its expert in place, at the stack plus
// eidx[ej[0]] matrices of 18432 bytes, ej a constant buffer holding which
// index (0 for the first, 1 for the second), so that the two share one
// kernel. An index out of range reads expert 0 and sets the status word,
// as the gather would. The kernel's traffic counts one matrix of the
// stack, not all four.

// CHECK-NOT:   kernel void gather_
// CHECK-NOT:   kernel void slice_
// CHECK-LABEL: // x[1, 512] · W[64, 512]ᵀ, W in q4_k, W the matrix of [4] experts that eidx[ej] picks
// CHECK-NEXT:  kernel void dequant_gemv_q4_k_expert_0(
// CHECK-NEXT:      device const float *x {{\[\[}}buffer(0){{\]\]}},
// CHECK-NEXT:      device const uchar *wx {{\[\[}}buffer(1){{\]\]}},
// CHECK-NEXT:      device const int *eidx {{\[\[}}buffer(2){{\]\]}},
// CHECK-NEXT:      device const int *ej {{\[\[}}buffer(3){{\]\]}},
// CHECK-NEXT:      device float *y {{\[\[}}buffer(4){{\]\]}},
// CHECK-NEXT:      device atomic_uint *status {{\[\[}}buffer(5){{\]\]}},
// CHECK:       {
// CHECK-NEXT:    const long e = (long)eidx[ej[0]];
// CHECK-NEXT:    const bool ein = e >= 0 && e < 4;
// CHECK-NEXT:    if (!ein) {
// CHECK-NEXT:      atomic_fetch_or_explicit(status, 1u, memory_order_relaxed);
// CHECK-NEXT:    }
// CHECK-NEXT:    device const uchar *w = wx + (ein ? (ulong)e : 0ul) * 18432ul;
// CHECK-NOT:   kernel void

// MAN:      "name": "dequant_gemv_q4_k_expert_0"
// MAN:      "reads": 20492
// MAN:      "id": 6, "role": "constant", "index": 0, "type": "tensor<1xi32>", "bytes": 4, "data": "00000000"
// MAN-NEXT: "id": 7, "role": "constant", "index": 0, "type": "tensor<1xi32>", "bytes": 4, "data": "01000000"
// MAN:      "kernel": "dequant_gemv_q4_k_expert_0", "buffers": [0, 4, 1, 6, 2, 5]
// MAN-NEXT: "kernel": "dequant_gemv_q4_k_expert_0", "buffers": [0, 4, 1, 7, 3, 5]

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
