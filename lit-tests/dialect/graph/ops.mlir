// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Custom form round trip of every graph op: custom -> custom and
// custom -> generic -> custom print the same. The Go test
// dialect/graph/lit_test.go runs these checks until rlx-opt knows graph.

// CHECK-LABEL: func.func @leaves
// CHECK-NEXT: %[[W:[0-9a-z_]+]] = graph.param "l0.wq" : tensor<64x64xf32>
// CHECK-NEXT: %[[Q:[0-9a-z_]+]] = graph.param "blk.0.attn_q.weight" {rlx.origin = "gguf"} : tensor<1152xui8>
// CHECK-NEXT: %cst = graph.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: %cst_0 = graph.constant {rlx.note = "bias"} dense<0> : tensor<4xi32>
// CHECK-NEXT: return %[[W]], %[[Q]], %cst, %cst_0
func.func @leaves() -> (tensor<64x64xf32>, tensor<1152xui8>, tensor<2xf32>, tensor<4xi32>) {
  %w = graph.param "l0.wq" : tensor<64x64xf32>
  %q = graph.param "blk.0.attn_q.weight" {rlx.origin = "gguf"} : tensor<1152xui8>
  %c = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %z = graph.constant {rlx.note = "bias"} dense<0> : tensor<4xi32>
  return %w, %q, %c, %z : tensor<64x64xf32>, tensor<1152xui8>, tensor<2xf32>, tensor<4xi32>
}

// CHECK-LABEL: func.func @elementwise
// CHECK-NEXT: graph.neg %arg0 : (tensor<2x64xf32>) -> tensor<2x64xf32>
// CHECK-NEXT: graph.abs
// CHECK-NEXT: graph.exp
// CHECK-NEXT: graph.log
// CHECK-NEXT: graph.sqrt
// CHECK-NEXT: graph.rsqrt
// CHECK-NEXT: graph.reciprocal
// CHECK-NEXT: graph.sigmoid
// CHECK-NEXT: graph.tanh
// CHECK-NEXT: graph.sin
// CHECK-NEXT: graph.cos
// CHECK-NEXT: graph.relu
// CHECK-NEXT: graph.softplus
// CHECK-NEXT: graph.silu
// CHECK-NEXT: graph.gelu %{{.*}} : (tensor<2x64xf32>) -> tensor<2x64xf32>
// CHECK-NEXT: graph.gelu_tanh
// CHECK-NEXT: graph.add %{{.*}}, %arg1 : (tensor<2x64xf32>, tensor<64xf32>) -> tensor<2x64xf32>
// CHECK-NEXT: graph.sub
// CHECK-NEXT: graph.mul
// CHECK-NEXT: graph.div
// CHECK-NEXT: graph.max
// CHECK-NEXT: graph.min
// CHECK-NEXT: graph.pow
// CHECK-NEXT: %[[C:[0-9a-z_]+]] = graph.cmp %{{.*}}, %arg1 {predicate = "gt"} : (tensor<2x64xf32>, tensor<64xf32>) -> tensor<2x64xi1>
// CHECK-NEXT: graph.select %[[C]], %{{.*}}, %arg1 : (tensor<2x64xi1>, tensor<2x64xf32>, tensor<64xf32>) -> tensor<2x64xf32>
// CHECK-NEXT: graph.cast %{{.*}} : (tensor<2x64xf32>) -> tensor<2x64xbf16>
func.func @elementwise(%x: tensor<2x64xf32>, %y: tensor<64xf32>) -> tensor<2x64xbf16> {
  %0 = graph.neg %x : (tensor<2x64xf32>) -> tensor<2x64xf32>
  %1 = graph.abs %0 : (tensor<2x64xf32>) -> tensor<2x64xf32>
  %2 = graph.exp %1 : (tensor<2x64xf32>) -> tensor<2x64xf32>
  %3 = graph.log %2 : (tensor<2x64xf32>) -> tensor<2x64xf32>
  %4 = graph.sqrt %3 : (tensor<2x64xf32>) -> tensor<2x64xf32>
  %5 = graph.rsqrt %4 : (tensor<2x64xf32>) -> tensor<2x64xf32>
  %6 = graph.reciprocal %5 : (tensor<2x64xf32>) -> tensor<2x64xf32>
  %7 = graph.sigmoid %6 : (tensor<2x64xf32>) -> tensor<2x64xf32>
  %8 = graph.tanh %7 : (tensor<2x64xf32>) -> tensor<2x64xf32>
  %9 = graph.sin %8 : (tensor<2x64xf32>) -> tensor<2x64xf32>
  %10 = graph.cos %9 : (tensor<2x64xf32>) -> tensor<2x64xf32>
  %11 = graph.relu %10 : (tensor<2x64xf32>) -> tensor<2x64xf32>
  %12 = graph.softplus %11 : (tensor<2x64xf32>) -> tensor<2x64xf32>
  %13 = graph.silu %12 : (tensor<2x64xf32>) -> tensor<2x64xf32>
  %14 = graph.gelu %13 : (tensor<2x64xf32>) -> tensor<2x64xf32>
  %15 = graph.gelu_tanh %14 : (tensor<2x64xf32>) -> tensor<2x64xf32>
  %16 = graph.add %15, %y : (tensor<2x64xf32>, tensor<64xf32>) -> tensor<2x64xf32>
  %17 = graph.sub %16, %y : (tensor<2x64xf32>, tensor<64xf32>) -> tensor<2x64xf32>
  %18 = graph.mul %17, %y : (tensor<2x64xf32>, tensor<64xf32>) -> tensor<2x64xf32>
  %19 = graph.div %18, %y : (tensor<2x64xf32>, tensor<64xf32>) -> tensor<2x64xf32>
  %20 = graph.max %19, %y : (tensor<2x64xf32>, tensor<64xf32>) -> tensor<2x64xf32>
  %21 = graph.min %20, %y : (tensor<2x64xf32>, tensor<64xf32>) -> tensor<2x64xf32>
  %22 = graph.pow %21, %y : (tensor<2x64xf32>, tensor<64xf32>) -> tensor<2x64xf32>
  %23 = graph.cmp %22, %y {predicate = "gt"} : (tensor<2x64xf32>, tensor<64xf32>) -> tensor<2x64xi1>
  %24 = graph.select %23, %22, %y : (tensor<2x64xi1>, tensor<2x64xf32>, tensor<64xf32>) -> tensor<2x64xf32>
  %25 = graph.cast %24 : (tensor<2x64xf32>) -> tensor<2x64xbf16>
  return %25 : tensor<2x64xbf16>
}

// CHECK-LABEL: func.func @linalg
// CHECK-NEXT: graph.matmul %arg0, %arg1 : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
// CHECK-NEXT: graph.rms_norm %{{.*}}, %arg2 {epsilon = 9.99999997E-7 : f32} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
// CHECK-NEXT: graph.layer_norm %{{.*}}, %arg2, %arg2 {epsilon = 9.99999974E-6 : f32} : (tensor<1x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
// CHECK-NEXT: graph.softmax %{{.*}} {axis = -1 : i64} : (tensor<1x64xf32>) -> tensor<1x64xf32>
// CHECK-NEXT: graph.reduce %{{.*}} {axes = array<i64: 1>, keep_dims = true, kind = "mean"} : (tensor<1x64xf32>) -> tensor<1x1xf32>
func.func @linalg(%x: tensor<1x64xf32>, %w: tensor<64x64xf32>, %g: tensor<64xf32>) -> tensor<1x1xf32> {
  %0 = graph.matmul %x, %w : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %1 = graph.rms_norm %0, %g {epsilon = 1.0e-06 : f32} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
  %2 = graph.layer_norm %1, %g, %g {epsilon = 1.0e-05 : f32} : (tensor<1x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
  %3 = graph.softmax %2 {axis = -1} : (tensor<1x64xf32>) -> tensor<1x64xf32>
  %4 = graph.reduce %3 {axes = array<i64: 1>, keep_dims = true, kind = "mean"} : (tensor<1x64xf32>) -> tensor<1x1xf32>
  return %4 : tensor<1x1xf32>
}

// CHECK-LABEL: func.func @movement
// CHECK-NEXT: graph.reshape %arg0 : (tensor<1x64xf32>) -> tensor<1x4x16xf32>
// CHECK-NEXT: graph.broadcast %{{.*}} : (tensor<1x4x16xf32>) -> tensor<2x4x16xf32>
// CHECK-NEXT: graph.transpose %{{.*}} {permutation = array<i64: 0, 2, 1>} : (tensor<2x4x16xf32>) -> tensor<2x16x4xf32>
// CHECK-NEXT: graph.slice %{{.*}} {axis = 1 : i64, length = 4 : i64, start = 2 : i64, step = 3 : i64} : (tensor<2x16x4xf32>) -> tensor<2x4x4xf32>
// CHECK-NEXT: graph.concat %{{.*}}, %{{.*}} {axis = -2 : i64} : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x8x4xf32>
// CHECK-NEXT: graph.gather %{{.*}}, %arg1 {axis = 0 : i64} : (tensor<2x8x4xf32>, tensor<3xi64>) -> tensor<3x8x4xf32>
func.func @movement(%x: tensor<1x64xf32>, %i: tensor<3xi64>) -> tensor<3x8x4xf32> {
  %0 = graph.reshape %x : (tensor<1x64xf32>) -> tensor<1x4x16xf32>
  %1 = graph.broadcast %0 : (tensor<1x4x16xf32>) -> tensor<2x4x16xf32>
  %2 = graph.transpose %1 {permutation = array<i64: 0, 2, 1>} : (tensor<2x4x16xf32>) -> tensor<2x16x4xf32>
  %3 = graph.slice %2 {axis = 1, length = 4, start = 2, step = 3} : (tensor<2x16x4xf32>) -> tensor<2x4x4xf32>
  %4 = graph.concat %3, %3 {axis = -2} : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x8x4xf32>
  %5 = graph.gather %4, %i {axis = 0} : (tensor<2x8x4xf32>, tensor<3xi64>) -> tensor<3x8x4xf32>
  return %5 : tensor<3x8x4xf32>
}

// CHECK-LABEL: func.func @blocks
// CHECK-NEXT: graph.rope %arg0, %arg1, %arg1 {head_dim = 16 : i64, rotary_dim = 8 : i64, style = "gptj"} : (tensor<1x1x4x16xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x1x4x16xf32>
// CHECK-NEXT: graph.attention %{{.*}}, %arg2, %arg2, %arg3 {mask = "custom", scale = 2.500000e-01 : f32, softcap = 3.000000e+01 : f32} : (tensor<1x1x4x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9xf32>) -> tensor<1x1x4x16xf32>
// CHECK-NEXT: %[[G:[0-9a-z_]+]]:2 = graph.gated_delta_net %{{.*}}, %{{.*}}, %{{.*}}, %arg4, %arg5, %arg6 {gate_per_channel = true} : ({{.*}}) -> (tensor<1x1x4x16xf32>, tensor<1x4x16x16xf32>)
// CHECK-NEXT: %[[L:[0-9a-z_]+]]:3 = graph.lstm %arg7, %arg8, %arg9, %arg10, %arg11, %arg11 : ({{.*}}) -> (tensor<1x5x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>)
// CHECK-NEXT: graph.dequant_matmul %[[L]]#1, %arg12 {format = "q8_0", k = 32 : i64, n = 16 : i64} : (tensor<1x32xf32>, tensor<544xui8>) -> tensor<1x16xf32>
func.func @blocks(%x: tensor<1x1x4x16xf32>, %cs: tensor<1x4xf32>, %kv: tensor<1x9x2x16xf32>, %m: tensor<1x9xf32>,
                  %g: tensor<1x1x4x16xf32>, %b: tensor<1x1x4xf32>, %s: tensor<1x4x16x16xf32>,
                  %lx: tensor<1x5x8xf32>, %wih: tensor<128x8xf32>, %whh: tensor<128x32xf32>, %lb: tensor<128xf32>, %h: tensor<1x32xf32>,
                  %qw: tensor<544xui8>) -> (tensor<1x4x16x16xf32>, tensor<1x16xf32>) {
  %0 = graph.rope %x, %cs, %cs {head_dim = 16, rotary_dim = 8, style = "gptj"} : (tensor<1x1x4x16xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x1x4x16xf32>
  %1 = graph.attention %0, %kv, %kv, %m {mask = "custom", scale = 0.25 : f32, softcap = 30.0 : f32} : (tensor<1x1x4x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9xf32>) -> tensor<1x1x4x16xf32>
  %2:2 = graph.gated_delta_net %1, %1, %1, %g, %b, %s {gate_per_channel = true} : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4xf32>, tensor<1x4x16x16xf32>) -> (tensor<1x1x4x16xf32>, tensor<1x4x16x16xf32>)
  %3:3 = graph.lstm %lx, %wih, %whh, %lb, %h, %h : (tensor<1x5x8xf32>, tensor<128x8xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<1x32xf32>, tensor<1x32xf32>) -> (tensor<1x5x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>)
  %4 = graph.dequant_matmul %3#1, %qw {format = "q8_0", k = 32, n = 16} : (tensor<1x32xf32>, tensor<544xui8>) -> tensor<1x16xf32>
  return %2#1, %4 : tensor<1x4x16x16xf32>, tensor<1x16xf32>
}
