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
