// RUN: rlx-opt %s --hybrid-split | FileCheck %s
// RUN: rlx-opt %s --hybrid-split=explain --verify-diagnostics -o /dev/null

// One op for each row of the MPS capability table (GRAPH_DIALECT.md) that
// decides by op or by attribute. The ops are independent, so every op MPS
// can run lands in one mps.subgraph and every other in one thunk.call; the
// explain run checks the reason given for each op kept native. The reduce
// rows are in reduce-hazard.mlir, attention's operands in attention.mlir,
// dynamic shapes in dynamic.mlir.

// CHECK-LABEL: func.func @rows(
// CHECK:         mps.subgraph @rows_mps0(
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      graph.cast {{.*}} -> tensor<2x8xf16>
// CHECK-NEXT:      graph.rope {{.*}} : (tensor<1x1x64xf32>,
// CHECK-NEXT:      graph.attention {{.*}}mask = "causal"
// CHECK-NEXT:      graph.neg {{.*}} : (tensor<2x8xi32>)
// CHECK-NEXT:      mps.yield
// CHECK:         thunk.call @rows_thunk1(
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      graph.param "wih"
// CHECK-NEXT:      graph.param "whh"
// CHECK-NEXT:      graph.param "lb"
// CHECK-NEXT:      graph.min
// CHECK-NEXT:      graph.pow
// CHECK-NEXT:      graph.cmp
// CHECK-NEXT:      graph.select
// CHECK-NEXT:      graph.slice {{.*}}step = 2
// CHECK-NEXT:      graph.cast {{.*}} -> tensor<2x8xi64>
// CHECK-NEXT:      graph.rope {{.*}} : (tensor<1x1x4x16xf32>,
// CHECK-NEXT:      graph.abs {{.*}} : (tensor<2x8xui8>)
// CHECK-NEXT:      graph.softplus
// CHECK-NEXT:      graph.attention {{.*}}mask = "sliding_window"
// CHECK-NEXT:      graph.attention {{.*}}mask = "bias"
// CHECK-NEXT:      graph.lstm
// CHECK-NEXT:      graph.gated_delta_net
// CHECK-NEXT:      thunk.yield
// CHECK-NOT:     mps.subgraph
// CHECK-NOT:     thunk.call
func.func @rows(%a: tensor<2x8xf32>, %b: tensor<2x8xf32>, %r4: tensor<1x1x4x16xf32>, %r3: tensor<1x1x64xf32>, %cs: tensor<1x2xf32>, %i: tensor<2x8xi32>, %u: tensor<2x8xui8>, %q: tensor<1x4x4x16xf32>, %bias: tensor<1x4x4x4xf32>, %lx: tensor<1x5x8xf32>, %h: tensor<1x32xf32>, %g: tensor<1x1x4xf32>, %st: tensor<1x4x16x16xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xi1>, tensor<2x8xf32>, tensor<2x4xf32>, tensor<2x8xi64>, tensor<2x8xf16>, tensor<1x1x4x16xf32>, tensor<1x1x64xf32>, tensor<2x8xui8>, tensor<2x8xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<2x8xi32>, tensor<1x32xf32>, tensor<1x4x16x16xf32>) {
  // expected-remark@+1 {{kept native: graph.min: no MPSGraph lowering}}
  %min = graph.min %a, %b : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  // expected-remark@+1 {{kept native: graph.pow: no MPSGraph lowering}}
  %pow = graph.pow %a, %b : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  // expected-remark@+1 {{kept native: graph.cmp: no MPSGraph lowering}}
  %cmp = graph.cmp %a, %b {predicate = "lt"} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xi1>
  // expected-remark@+1 {{kept native: graph.select: no MPSGraph lowering}}
  %sel = graph.select %cmp, %a, %b : (tensor<2x8xi1>, tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  // expected-remark@+1 {{kept native: graph.slice: step 2 (MPS slices with step 1 only)}}
  %s2 = graph.slice %a {axis = 1, start = 0, length = 4, step = 2} : (tensor<2x8xf32>) -> tensor<2x4xf32>
  // expected-remark@+1 {{kept native: graph.cast: cast to i64 (MPS casts only to f32, f16, bf16, i32)}}
  %c64 = graph.cast %a : (tensor<2x8xf32>) -> tensor<2x8xi64>
  %c16 = graph.cast %a : (tensor<2x8xf32>) -> tensor<2x8xf16>
  // expected-remark@+1 {{kept native: graph.rope: rank-4 input (MPS takes rank-3 [B, S, H·D] input only)}}
  %rope4 = graph.rope %r4, %cs, %cs {head_dim = 16, rotary_dim = 4, style = "neox"} : (tensor<1x1x4x16xf32>, tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x1x4x16xf32>
  %rope3 = graph.rope %r3, %cs, %cs {head_dim = 16, rotary_dim = 4, style = "neox"} : (tensor<1x1x64xf32>, tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x1x64xf32>
  // expected-remark@+1 {{kept native: graph.abs: operand #0 has element type ui8 (MPS takes f32, f16, bf16, i32)}}
  %uabs = graph.abs %u : (tensor<2x8xui8>) -> tensor<2x8xui8>
  // expected-remark@+1 {{kept native: graph.softplus: no MPSGraph lowering}}
  %sp = graph.softplus %a : (tensor<2x8xf32>) -> tensor<2x8xf32>
  // expected-remark@+1 {{kept native: graph.attention: mask "sliding_window" (MPS takes none, custom, or causal with Sq = Sk)}}
  %sw = graph.attention %q, %q, %q {mask = "sliding_window", window = 2} : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  // expected-remark@+1 {{kept native: graph.attention: mask "bias" (MPS takes none, custom, or causal with Sq = Sk)}}
  %bi = graph.attention %q, %q, %q, %bias {mask = "bias"} : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x4xf32>) -> tensor<1x4x4x16xf32>
  %ok = graph.attention %q, %q, %q {mask = "causal"} : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %ineg = graph.neg %i : (tensor<2x8xi32>) -> tensor<2x8xi32>
  %wih = graph.param "wih" : tensor<128x8xf32>
  %whh = graph.param "whh" : tensor<128x32xf32>
  %lb = graph.param "lb" : tensor<128xf32>
  // expected-remark@+1 {{kept native: graph.lstm: recurrent scans have no MPSGraph lowering}}
  %l:3 = graph.lstm %lx, %wih, %whh, %lb, %h, %h : (tensor<1x5x8xf32>, tensor<128x8xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<1x32xf32>, tensor<1x32xf32>) -> (tensor<1x5x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>)
  // expected-remark@+1 {{kept native: graph.gated_delta_net: recurrent scans have no MPSGraph lowering}}
  %gd:2 = graph.gated_delta_net %r4, %r4, %r4, %g, %g, %st : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x4x16x16xf32>) -> (tensor<1x1x4x16xf32>, tensor<1x4x16x16xf32>)
  return %min, %pow, %cmp, %sel, %s2, %c64, %c16, %rope4, %rope3, %uabs, %sp, %sw, %bi, %ok, %ineg, %l#1, %gd#1 : tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xi1>, tensor<2x8xf32>, tensor<2x4xf32>, tensor<2x8xi64>, tensor<2x8xf16>, tensor<1x1x4x16xf32>, tensor<1x1x64xf32>, tensor<2x8xui8>, tensor<2x8xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<2x8xi32>, tensor<1x32xf32>, tensor<1x4x16x16xf32>
}
