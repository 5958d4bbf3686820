func.func @layer(%x: tensor<1x64xf32>, %k_cache: tensor<1x7x2x16xf32>, %v_cache: tensor<1x7x2x16xf32>)
    -> (tensor<1x64xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>) {
  %g = graph.param "norm" : tensor<64xf32>
  %h = graph.rms_norm %x, %g {epsilon = 1.0e-06 : f32} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
  %wq = graph.param "wq" : tensor<64x64xf32>
  %wk = graph.param "wk" : tensor<64x32xf32>
  %wv = graph.param "wv" : tensor<64x32xf32>
  %q = graph.matmul %h, %wq : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %k = graph.matmul %h, %wk : (tensor<1x64xf32>, tensor<64x32xf32>) -> tensor<1x32xf32>
  %v = graph.matmul %h, %wv : (tensor<1x64xf32>, tensor<64x32xf32>) -> tensor<1x32xf32>
  %q4 = graph.reshape %q : (tensor<1x64xf32>) -> tensor<1x1x4x16xf32>
  %k4 = graph.reshape %k : (tensor<1x32xf32>) -> tensor<1x1x2x16xf32>
  %v4 = graph.reshape %v : (tensor<1x32xf32>) -> tensor<1x1x2x16xf32>
  %kc = graph.concat %k_cache, %k4 {axis = 1} : (tensor<1x7x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x8x2x16xf32>
  %vc = graph.concat %v_cache, %v4 {axis = 1} : (tensor<1x7x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x8x2x16xf32>
  %o = graph.attention %q4, %kc, %vc : (tensor<1x1x4x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>) -> tensor<1x1x4x16xf32>
  %o2 = graph.reshape %o : (tensor<1x1x4x16xf32>) -> tensor<1x64xf32>
  %wo = graph.param "wo" : tensor<64x64xf32>
  %y = graph.matmul %o2, %wo : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %r = graph.add %x, %y : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  %s = graph.softplus %r : (tensor<1x64xf32>) -> tensor<1x64xf32>
  %out = graph.mul %r, %s : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  return %out, %kc, %vc : tensor<1x64xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>
}

// What hybrid-split makes of it, as FileCheck checks it (docs/filecheck.md:
// rlx-opt --hybrid-split examples/layer.mlir | filecheck examples/layer.mlir):
// CHECK-LABEL: func.func @layer(
// CHECK:       mps.subgraph @layer_mps0
// CHECK:       thunk.call @layer_thunk1
// CHECK-NEXT:  ^bb0(
// CHECK-NEXT:    graph.attention
// CHECK:       mps.subgraph @layer_mps2
// CHECK:       thunk.call @layer_thunk3
// CHECK-NEXT:  ^bb0(
// CHECK-NEXT:    graph.softplus
// CHECK:       mps.subgraph @layer_mps4
