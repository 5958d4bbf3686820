// RUN: rlx-opt %s --hybrid-split | FileCheck %s
// RUN: rlx-opt %s --hybrid-split=explain --verify-diagnostics -o /dev/null
// RUN: rlx-opt %s --hybrid-split --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: rlx-opt %s --hybrid-split=mode=seed | FileCheck %s --check-prefix=SEED
// RUN: rlx-opt %s --hybrid-split -o %t.mlir
// RUN: rlx-run %s --compare-with %t.mlir | FileCheck %s --check-prefix=SAME

// The worked example of docs/hybrid-split.md, checked: five regions, the
// first yielding q, k and v to the native attention.

// CHECK-LABEL: func.func @layer(
// CHECK-NEXT:    %[[M0:.*]]:3 = mps.subgraph @layer_mps0(%arg0, %arg1, %arg2)
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      graph.param "norm"
// CHECK-NEXT:      graph.param "wq"
// CHECK-NEXT:      graph.param "wk"
// CHECK-NEXT:      graph.param "wv"
// CHECK-NEXT:      graph.rms_norm
// CHECK-COUNT-3:   graph.matmul
// CHECK-COUNT-3:   graph.reshape
// CHECK-COUNT-2:   graph.concat
// CHECK-NEXT:      mps.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[T1:.*]] = thunk.call @layer_thunk1(%[[M0]]#0, %[[M0]]#1, %[[M0]]#2) {target = "metal"}
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      graph.attention
// CHECK-NEXT:      thunk.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[M2:.*]] = mps.subgraph @layer_mps2(%[[T1]], %arg0)
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      graph.param "wo"
// CHECK-NEXT:      graph.reshape
// CHECK-NEXT:      graph.matmul
// CHECK-NEXT:      graph.add
// CHECK-NEXT:      mps.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[T3:.*]] = thunk.call @layer_thunk3(%[[M2]])
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      graph.softplus
// CHECK-NEXT:      thunk.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[M4:.*]] = mps.subgraph @layer_mps4(%[[M2]], %[[T3]])
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      graph.mul
// CHECK-NEXT:      mps.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[M4]], %[[M0]]#1, %[[M0]]#2

// STATS:      (S) 3328 boundary-bytes
// STATS-NEXT: (S)    7 boundary-values
// STATS-NEXT: (S)   86 mps-coverage-percent
// STATS-NEXT: (S)   13 mps-ops
// STATS-NEXT: (S)    3 mps-regions
// STATS-NEXT: (S)    2 thunk-ops
// STATS-NEXT: (S)    2 thunk-regions

// SEED:      thunk.call @layer_thunk0
// SEED-NOT:  mps.subgraph
// SEED-NOT:  thunk.call

// SAME: bit-identical: yes

func.func @layer(%x: tensor<1x64xf32>, %k_cache: tensor<1x7x2x16xf32>, %v_cache: tensor<1x7x2x16xf32>) -> (tensor<1x64xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>) {
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
  // expected-remark@+1 {{kept native: graph.attention: operand #0 (q) is computed by graph.matmul through reshape}}
  %o = graph.attention %q4, %kc, %vc : (tensor<1x1x4x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>) -> tensor<1x1x4x16xf32>
  %o2 = graph.reshape %o : (tensor<1x1x4x16xf32>) -> tensor<1x64xf32>
  %wo = graph.param "wo" : tensor<64x64xf32>
  %y = graph.matmul %o2, %wo : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %r = graph.add %x, %y : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  // expected-remark@+1 {{kept native: graph.softplus: no MPSGraph lowering}}
  %s = graph.softplus %r : (tensor<1x64xf32>) -> tensor<1x64xf32>
  %out = graph.mul %r, %s : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  return %out, %kc, %vc : tensor<1x64xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>
}
