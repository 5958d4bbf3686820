// PIPELINE: builtin.module(q6k-columns)

// "a" feeds two q6_k dequant_matmuls of one [n, k]: both read q6_k_c16.
// "b" feeds one and a reshape: kept. "c" is q4_k: kept.
func.func @f(%x: tensor<1x512xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<840xui8>, tensor<1x2xf32>) {
  %a = graph.param "a" : tensor<840xui8>
  %0 = graph.dequant_matmul %x, %a {format = "q6_k", k = 512 : i64, n = 2 : i64} : (tensor<1x512xf32>, tensor<840xui8>) -> tensor<1x2xf32>
  %1 = graph.dequant_matmul %x, %a {format = "q6_k", k = 512 : i64, n = 2 : i64} : (tensor<1x512xf32>, tensor<840xui8>) -> tensor<1x2xf32>
  %b = graph.param "b" : tensor<840xui8>
  %2 = graph.dequant_matmul %x, %b {format = "q6_k", k = 512 : i64, n = 2 : i64} : (tensor<1x512xf32>, tensor<840xui8>) -> tensor<1x2xf32>
  %3 = graph.reshape %b : (tensor<840xui8>) -> tensor<840xui8>
  %c = graph.param "c" : tensor<576xui8>
  %4 = graph.dequant_matmul %x, %c {format = "q4_k", k = 512 : i64, n = 2 : i64} : (tensor<1x512xf32>, tensor<576xui8>) -> tensor<1x2xf32>
  return %0, %1, %2, %3, %4 : tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<840xui8>, tensor<1x2xf32>
}

// -----

// A name is bound once: "d" in @g qualifies, but @h reads it as another
// [n, k], so neither converts. "e" qualifies in both functions.
func.func @g(%x: tensor<1x512xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>) {
  %d = graph.param "d" : tensor<840xui8>
  %0 = graph.dequant_matmul %x, %d {format = "q6_k", k = 512 : i64, n = 2 : i64} : (tensor<1x512xf32>, tensor<840xui8>) -> tensor<1x2xf32>
  %e = graph.param "e" : tensor<840xui8>
  %1 = graph.dequant_matmul %x, %e {format = "q6_k", k = 512 : i64, n = 2 : i64} : (tensor<1x512xf32>, tensor<840xui8>) -> tensor<1x2xf32>
  return %0, %1 : tensor<1x2xf32>, tensor<1x2xf32>
}
func.func @h(%x: tensor<1x256xf32>, %y: tensor<1x512xf32>) -> (tensor<1x4xf32>, tensor<1x2xf32>) {
  %d = graph.param "d" : tensor<840xui8>
  %0 = graph.dequant_matmul %x, %d {format = "q6_k", k = 256 : i64, n = 4 : i64} : (tensor<1x256xf32>, tensor<840xui8>) -> tensor<1x4xf32>
  %e = graph.param "e" : tensor<840xui8>
  %1 = graph.dequant_matmul %y, %e {format = "q6_k", k = 512 : i64, n = 2 : i64} : (tensor<1x512xf32>, tensor<840xui8>) -> tensor<1x2xf32>
  return %0, %1 : tensor<1x4xf32>, tensor<1x2xf32>
}

// -----

// After hybrid-split: "f" is cloned into the thunk body that reads it and
// converts; "g" reaches its dequant_matmul as the region's operand and
// stays q6_k.
func.func @split(%x: tensor<1x512xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>) {
  %r = thunk.call @split_thunk0(%x) {target = "metal"} : (tensor<1x512xf32>) -> tensor<1x2xf32> {
  ^bb0(%a: tensor<1x512xf32>):
    %f = graph.param "f" : tensor<840xui8>
    %0 = graph.dequant_matmul %a, %f {format = "q6_k", k = 512 : i64, n = 2 : i64} : (tensor<1x512xf32>, tensor<840xui8>) -> tensor<1x2xf32>
    thunk.yield %0 : tensor<1x2xf32>
  }
  %g = graph.param "g" : tensor<840xui8>
  %s = thunk.call @split_thunk1(%x, %g) {target = "metal"} : (tensor<1x512xf32>, tensor<840xui8>) -> tensor<1x2xf32> {
  ^bb0(%a: tensor<1x512xf32>, %b: tensor<840xui8>):
    %0 = graph.dequant_matmul %a, %b {format = "q6_k", k = 512 : i64, n = 2 : i64} : (tensor<1x512xf32>, tensor<840xui8>) -> tensor<1x2xf32>
    thunk.yield %0 : tensor<1x2xf32>
  }
  return %r, %s : tensor<1x2xf32>, tensor<1x2xf32>
}

// -----

// An unused param op of a name reads no blocks: "p" still converts where
// a dequant_matmul reads it.
func.func @reads(%x: tensor<1x512xf32>) -> tensor<1x2xf32> {
  %p = graph.param "p" : tensor<840xui8>
  %0 = graph.dequant_matmul %x, %p {format = "q6_k", k = 512 : i64, n = 2 : i64} : (tensor<1x512xf32>, tensor<840xui8>) -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}
func.func @unused() {
  %p = graph.param "p" : tensor<840xui8>
  return
}

// -----

// An MoE block's expert stack: "exps" reaches its dequant_matmuls through
// reshape, the gather of the chosen experts and slices, which select whole
// [2, 512] matrices, so it converts (the binder rearranges it expert by
// expert). "halves" is gathered in half matrices, and the gather of "seen"
// also goes to the return: both stay q6_k.
func.func @moe(%x: tensor<1x512xf32>, %i: tensor<2xi32>, %j: tensor<4xi32>) -> (tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<2x840xui8>) {
  %w = graph.param "exps" : tensor<3360xui8>
  %0 = graph.reshape %w : (tensor<3360xui8>) -> tensor<4x840xui8>
  %1 = graph.gather %0, %i {axis = 0 : i64} : (tensor<4x840xui8>, tensor<2xi32>) -> tensor<2x840xui8>
  %2 = graph.slice %1 {axis = 0 : i64, length = 1 : i64, start = 1 : i64} : (tensor<2x840xui8>) -> tensor<1x840xui8>
  %3 = graph.reshape %2 : (tensor<1x840xui8>) -> tensor<840xui8>
  %4 = graph.dequant_matmul %x, %3 {format = "q6_k", k = 512 : i64, n = 2 : i64} : (tensor<1x512xf32>, tensor<840xui8>) -> tensor<1x2xf32>
  %h = graph.param "halves" : tensor<3360xui8>
  %5 = graph.reshape %h : (tensor<3360xui8>) -> tensor<8x420xui8>
  %6 = graph.gather %5, %j {axis = 0 : i64} : (tensor<8x420xui8>, tensor<4xi32>) -> tensor<4x420xui8>
  %7 = graph.reshape %6 : (tensor<4x420xui8>) -> tensor<2x840xui8>
  %8 = graph.slice %7 {axis = 0 : i64, length = 1 : i64, start = 0 : i64} : (tensor<2x840xui8>) -> tensor<1x840xui8>
  %9 = graph.reshape %8 : (tensor<1x840xui8>) -> tensor<840xui8>
  %10 = graph.dequant_matmul %x, %9 {format = "q6_k", k = 512 : i64, n = 2 : i64} : (tensor<1x512xf32>, tensor<840xui8>) -> tensor<1x2xf32>
  %s = graph.param "seen" : tensor<3360xui8>
  %11 = graph.reshape %s : (tensor<3360xui8>) -> tensor<4x840xui8>
  %12 = graph.gather %11, %i {axis = 0 : i64} : (tensor<4x840xui8>, tensor<2xi32>) -> tensor<2x840xui8>
  %13 = graph.slice %12 {axis = 0 : i64, length = 1 : i64, start = 0 : i64} : (tensor<2x840xui8>) -> tensor<1x840xui8>
  %14 = graph.reshape %13 : (tensor<1x840xui8>) -> tensor<840xui8>
  %15 = graph.dequant_matmul %x, %14 {format = "q6_k", k = 512 : i64, n = 2 : i64} : (tensor<1x512xf32>, tensor<840xui8>) -> tensor<1x2xf32>
  return %4, %10, %15, %12 : tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<2x840xui8>
}
