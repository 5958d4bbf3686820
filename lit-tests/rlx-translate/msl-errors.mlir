// RUN: rlx-translate --mlir-to-msl --split-input-file --verify-diagnostics %s -o /dev/null
// RUN: not rlx-translate --mlir-to-msl --msl-version=4.0 %s 2>&1 | FileCheck %s --check-prefix=VERSION
// RUN: not rlx-translate --mlir-to-msl --max-threads-per-threadgroup=48 %s 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: not rlx-translate --mlir-to-msl --split-input-file --msl-version=3.1 %s 2>/dev/null | FileCheck %s --check-prefix=BF16

// Metal's limits are checked when the kernels are emitted, with an error
// located at the op that needs the kernel.

// VERSION: rlx-translate: for the --msl-version option: '4.0' is not one of 2.4, 3.0, 3.1, 3.2
// THREADS: rlx-translate: for the --max-threads-per-threadgroup option: '48' is not a multiple of 32 from 32 to 1024

// bf16 needs MSL 3.1 (bfloat); with it, the kernel stores bfloat (and the
// other chunks still fail).
// BF16: out0[t] = (bfloat)v0;

func.func @bf(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %r = thunk.call @bf_thunk(%x) {target = "metal"} : (tensor<4xbf16>) -> tensor<4xbf16> {
  ^bb0(%a: tensor<4xbf16>):
    // expected-error@+1 {{'graph.neg' op operand #0 has type tensor<4xbf16>: bf16 needs msl-version 3.1 or later (MSL's bfloat), but msl-version is 3.0}}
    %0 = graph.neg %a : (tensor<4xbf16>) -> tensor<4xbf16>
    thunk.yield %0 : tensor<4xbf16>
  }
  return %r : tensor<4xbf16>
}

// -----

// An LSTM keeps h twice and c in threadgroup memory: 3·4096 floats are
// 48 KB, more than a threadgroup has.
func.func @lstm(%x: tensor<1x1x8xf32>, %wi: tensor<16384x8xf32>, %wh: tensor<16384x4096xf32>, %b: tensor<16384xf32>) -> tensor<1x1x4096xf32> {
  %r = thunk.call @lstm_thunk(%x, %wi, %wh, %b) {target = "metal"} : (tensor<1x1x8xf32>, tensor<16384x8xf32>, tensor<16384x4096xf32>, tensor<16384xf32>) -> tensor<1x1x4096xf32> {
  ^bb0(%a: tensor<1x1x8xf32>, %c: tensor<16384x8xf32>, %d: tensor<16384x4096xf32>, %e: tensor<16384xf32>):
    // expected-error@+1 {{'graph.lstm' op needs 49152 bytes of threadgroup memory in kernel lstm_steps_0; a Metal threadgroup has at most 32768}}
    %0:3 = graph.lstm %a, %c, %d, %e : (tensor<1x1x8xf32>, tensor<16384x8xf32>, tensor<16384x4096xf32>, tensor<16384xf32>) -> (tensor<1x1x4096xf32>, tensor<1x4096xf32>, tensor<1x4096xf32>)
    thunk.yield %0#0 : tensor<1x1x4096xf32>
  }
  return %r : tensor<1x1x4096xf32>
}

// -----

// A concat of 40 operands needs 41 buffers; a kernel binds at most 31.
func.func @wide(%x: tensor<1x4xf32>) -> tensor<40x4xf32> {
  %r = thunk.call @wide_thunk(%x) {target = "metal"} : (tensor<1x4xf32>) -> tensor<40x4xf32> {
  ^bb0(%a: tensor<1x4xf32>):
    // expected-error@+1 {{'graph.concat' op needs 41 buffers in kernel concat_0; a Metal kernel can bind at most 31}}
    %0 = graph.concat %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a {axis = 0 : i64} : (tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<40x4xf32>
    thunk.yield %0 : tensor<40x4xf32>
  }
  return %r : tensor<40x4xf32>
}

// -----

// Kernels are specialised to static shapes.
func.func @dyn(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error@+1 {{'thunk.call' op operand #0: type tensor<?x4xf32> has a dynamic dim (Metal kernels are specialised to static shapes)}}
  %r = thunk.call @dyn_thunk(%x) {target = "metal"} : (tensor<?x4xf32>) -> tensor<?x4xf32> {
  ^bb0(%a: tensor<?x4xf32>):
    %0 = graph.neg %a : (tensor<?x4xf32>) -> tensor<?x4xf32>
    thunk.yield %0 : tensor<?x4xf32>
  }
  return %r : tensor<?x4xf32>
}

// -----

// The kernels index buffers with 32-bit integers: a tensor has at most
// 2^31 elements. 16384 × 262144 halves (an lm head of a 262144-token
// vocabulary at hidden 16384) are 2^32.
func.func @huge(%x: tensor<1x16384xf32>, %w: tensor<16384x262144xf16>) -> tensor<1x262144xf32> {
  %r = thunk.call @huge_thunk(%x, %w) {target = "metal"} : (tensor<1x16384xf32>, tensor<16384x262144xf16>) -> tensor<1x262144xf32> {
  ^bb0(%a: tensor<1x16384xf32>, %b: tensor<16384x262144xf16>):
    // expected-error@+1 {{'graph.matmul' op operand #1: type tensor<16384x262144xf16> has 4294967296 elements, more than 2147483648 (the Metal kernels index buffers with 32-bit integers)}}
    %0 = graph.matmul %a, %b : (tensor<1x16384xf32>, tensor<16384x262144xf16>) -> tensor<1x262144xf32>
    thunk.yield %0 : tensor<1x262144xf32>
  }
  return %r : tensor<1x262144xf32>
}

// -----

// A value inside the region is checked too, at the op that makes it.
// (The kernels' limit is checked at each op that binds a value; a region
// operand that only an in-place read of experts takes may be larger.)
func.func @inner(%x: tensor<65536x1xf32>, %y: tensor<1x65536xf32>) -> tensor<65536xf32> {
  %r = thunk.call @inner_thunk(%x, %y) {target = "metal"} : (tensor<65536x1xf32>, tensor<1x65536xf32>) -> tensor<65536xf32> {
  ^bb0(%a: tensor<65536x1xf32>, %b: tensor<1x65536xf32>):
    // expected-error@+1 {{'graph.matmul' op result #0: type tensor<65536x65536xf32> has 4294967296 elements, more than 2147483648 (the Metal kernels index buffers with 32-bit integers)}}
    %0 = graph.matmul %a, %b : (tensor<65536x1xf32>, tensor<1x65536xf32>) -> tensor<65536x65536xf32>
    %1 = graph.reduce %0 {axes = array<i64: 1>, keep_dims = false, kind = "sum"} : (tensor<65536x65536xf32>) -> tensor<65536xf32>
    thunk.yield %1 : tensor<65536xf32>
  }
  return %r : tensor<65536xf32>
}

// -----

// A stack of experts may pass 2^31 elements only where it is read in
// place (msl-experts-large.mlir): gathered for another use as well, it
// keeps its gather kernel, which would index all of it.
func.func @kept(%x: tensor<1x7168xf32>, %i: tensor<2xi32>) -> (tensor<1x2048xf32>, tensor<2x12042240xui8>) {
  %0:2 = thunk.call @kept_thunk0(%x, %i) {target = "metal"} : (tensor<1x7168xf32>, tensor<2xi32>) -> (tensor<1x2048xf32>, tensor<2x12042240xui8>) {
  ^bb0(%a: tensor<1x7168xf32>, %b: tensor<2xi32>):
    %w = graph.param "exps" : tensor<3082813440xui8>
    %r = graph.reshape %w : (tensor<3082813440xui8>) -> tensor<256x12042240xui8>
    // expected-error@+1 {{'graph.gather' op operand #0: type tensor<256x12042240xui8> has 3082813440 elements, more than 2147483648 (the Metal kernels index buffers with 32-bit integers)}}
    %g = graph.gather %r, %b {axis = 0 : i64} : (tensor<256x12042240xui8>, tensor<2xi32>) -> tensor<2x12042240xui8>
    %s0 = graph.slice %g {axis = 0 : i64, length = 1 : i64, start = 0 : i64} : (tensor<2x12042240xui8>) -> tensor<1x12042240xui8>
    %m0 = graph.reshape %s0 : (tensor<1x12042240xui8>) -> tensor<12042240xui8>
    %y0 = graph.dequant_matmul %a, %m0 {format = "q6_k", k = 7168 : i64, n = 2048 : i64} : (tensor<1x7168xf32>, tensor<12042240xui8>) -> tensor<1x2048xf32>
    thunk.yield %y0, %g : tensor<1x2048xf32>, tensor<2x12042240xui8>
  }
  return %0#0, %0#1 : tensor<1x2048xf32>, tensor<2x12042240xui8>
}

// -----

// bf16 is checked at every op of a fused element-wise group, not only at
// its first (the cast's kernel would name bfloat).
func.func @fused_bf(%x: tensor<4xf32>) -> tensor<4xbf16> {
  %r = thunk.call @fused_bf_thunk(%x) {target = "metal"} : (tensor<4xf32>) -> tensor<4xbf16> {
  ^bb0(%a: tensor<4xf32>):
    %0 = graph.neg %a : (tensor<4xf32>) -> tensor<4xf32>
    // expected-error@+1 {{'graph.cast' op result #0 has type tensor<4xbf16>: bf16 needs msl-version 3.1 or later (MSL's bfloat), but msl-version is 3.0}}
    %1 = graph.cast %0 : (tensor<4xf32>) -> tensor<4xbf16>
    thunk.yield %1 : tensor<4xbf16>
  }
  return %r : tensor<4xbf16>
}

// -----

// And at a value the region returns as it came in, which a copy kernel
// writes.
func.func @copied_bf(%x: tensor<4xbf16>) -> tensor<2x2xbf16> {
  // expected-error@+1 {{'thunk.call' op result #0 has type tensor<2x2xbf16>: bf16 needs msl-version 3.1 or later (MSL's bfloat), but msl-version is 3.0}}
  %r = thunk.call @copied_bf_thunk(%x) {target = "metal"} : (tensor<4xbf16>) -> tensor<2x2xbf16> {
  ^bb0(%a: tensor<4xbf16>):
    %0 = graph.reshape %a : (tensor<4xbf16>) -> tensor<2x2xbf16>
    thunk.yield %0 : tensor<2x2xbf16>
  }
  return %r : tensor<2x2xbf16>
}
