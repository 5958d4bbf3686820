// RUN: rlx-opt %s --hybrid-split | FileCheck %s
// RUN: rlx-opt %s --hybrid-split=explain --verify-diagnostics -o /dev/null

// Attention goes in an mps.subgraph only when it is leaf-materialised: q, k
// and v reach function arguments, params or constants through view ops
// (reshape, transpose, cast, slice) only; rank 4; mask none, custom, or
// causal with Sq = Sk; Dv = D. Capability is decided on the function before
// the split.

// q is a reshape of an argument, k a transpose of a param, v a slice of a
// constant: MPS, in one region with its view ops.
// CHECK-LABEL: func.func @leaf_materialised(
// CHECK-NEXT:    mps.subgraph @leaf_materialised_mps0(%arg0)
// CHECK:           graph.reshape
// CHECK:           graph.transpose
// CHECK:           graph.slice
// CHECK:           graph.attention
// CHECK:           mps.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @leaf_materialised(%q: tensor<1x4x64xf32>) -> tensor<1x4x4x16xf32> {
  %q4 = graph.reshape %q : (tensor<1x4x64xf32>) -> tensor<1x4x4x16xf32>
  %kp = graph.param "k" : tensor<1x4x4x16xf32>
  %k = graph.transpose %kp {permutation = array<i64: 0, 2, 1, 3>} : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %vc = graph.constant dense<0.5> : tensor<1x8x4x16xf32>
  %v = graph.slice %vc {axis = 1, start = 2, length = 4} : (tensor<1x8x4x16xf32>) -> tensor<1x4x4x16xf32>
  %o = graph.attention %q4, %k, %v {mask = "causal"} : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  return %o : tensor<1x4x4x16xf32>
}

// q is computed (a matmul): attention stays native, between two MPS regions.
// CHECK-LABEL: func.func @computed_q(
// CHECK-NEXT:    %[[M:.*]] = mps.subgraph @computed_q_mps0(
// CHECK:           graph.matmul
// CHECK:         %[[T:.*]] = thunk.call @computed_q_thunk1(%[[M]], %arg1) {target = "metal"}
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      graph.attention
// CHECK-NEXT:      thunk.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    mps.subgraph @computed_q_mps2(%[[T]])
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      graph.exp
func.func @computed_q(%x: tensor<1x4x4x16xf32>, %k: tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> {
  %w = graph.param "wq" : tensor<16x16xf32>
  %q = graph.matmul %x, %w : (tensor<1x4x4x16xf32>, tensor<16x16xf32>) -> tensor<1x4x4x16xf32>
  // expected-remark@+1 {{kept native: graph.attention: operand #0 (q) is computed by graph.matmul, not read from a function argument, param or constant through reshape/transpose/cast/slice only}}
  %o = graph.attention %q, %k, %k : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %e = graph.exp %o : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  return %e : tensor<1x4x4x16xf32>
}

// Leaf-materialised, but causal with Sq != Sk (decode against a cache):
// native.
// CHECK-LABEL: func.func @causal_decode(
// CHECK-NEXT:    thunk.call @causal_decode_thunk0
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      graph.attention
func.func @causal_decode(%q: tensor<1x1x4x16xf32>, %k: tensor<1x8x2x16xf32>) -> tensor<1x1x4x16xf32> {
  // expected-remark@+1 {{kept native: graph.attention: causal mask with Sq = 1 and Sk = 8 (MPS takes causal only with Sq = Sk)}}
  %o = graph.attention %q, %k, %k {mask = "causal"} : (tensor<1x1x4x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>) -> tensor<1x1x4x16xf32>
  return %o : tensor<1x1x4x16xf32>
}

// The custom mask is computed natively after q's reshape, so attention lands
// in a later MPS region than the reshape and reads q through a block
// argument; it is still leaf-materialised (in the original function), and
// the mps.subgraph verifier follows q back across the regions to accept it.
// CHECK-LABEL: func.func @across_regions(
// CHECK-NEXT:    %[[M0:.*]]:2 = mps.subgraph @across_regions_mps0(%arg0)
// CHECK:           graph.reshape
// CHECK:           graph.reduce
// CHECK:         %[[T1:.*]] = thunk.call @across_regions_thunk1(%[[M0]]#1, %arg2)
// CHECK:           graph.max
// CHECK:         mps.subgraph @across_regions_mps2(%[[M0]]#0, %arg1, %[[T1]])
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      graph.attention
func.func @across_regions(%q: tensor<1x4x64xf32>, %k: tensor<1x4x4x16xf32>, %m1: tensor<1x4xf32>) -> tensor<1x4x4x16xf32> {
  %q4 = graph.reshape %q : (tensor<1x4x64xf32>) -> tensor<1x4x4x16xf32>
  %r = graph.reduce %q4 {axes = array<i64: 2, 3>, kind = "max"} : (tensor<1x4x4x16xf32>) -> tensor<1x4xf32>
  // expected-remark@+1 {{kept native: graph.max: no MPSGraph lowering}}
  %m = graph.max %r, %m1 : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %o = graph.attention %q4, %k, %k, %m {mask = "custom"} : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4xf32>) -> tensor<1x4x4x16xf32>
  return %o : tensor<1x4x4x16xf32>
}
