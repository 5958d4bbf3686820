// RUN: rlx-opt %s --hybrid-split | FileCheck %s --check-prefix=DEP
// RUN: rlx-opt %s --hybrid-split=mode=dependency | FileCheck %s --check-prefix=DEP
// RUN: rlx-opt %s --hybrid-split=mode=seed | FileCheck %s --check-prefix=SEED
// RUN: rlx-opt %s --pass-pipeline='builtin.module(func.func(hybrid-split{mode=seed}))' | FileCheck %s --check-prefix=SEED
// RUN: rlx-opt %s --hybrid-split='mode=seed explain' --verify-diagnostics -o /dev/null

// Both modes on the same inputs. mode=seed walks the ops in order, cuts the
// pending run at each split point (gated_delta_net, lstm, attention,
// dequant_matmul: one-op thunks) and makes a whole run native when one op in
// it cannot go to MPS. mode=dependency places each op by its own capability
// and follows dependencies, not the textual order.

// DEP-LABEL: func.func @runs(
// DEP-NEXT:    mps.subgraph @runs_mps0(
// DEP-NEXT:    ^bb0(
// DEP-NEXT:      graph.param "w"
// DEP-NEXT:      graph.matmul
// DEP-NEXT:      mps.yield
// DEP:         thunk.call @runs_thunk1(
// DEP-NEXT:    ^bb0(
// DEP-NEXT:      graph.softplus
// DEP-NEXT:      thunk.yield
// DEP:         mps.subgraph @runs_mps2(
// DEP-NEXT:    ^bb0(
// DEP-NEXT:      graph.add
// DEP-NEXT:      mps.yield
// DEP:         thunk.call @runs_thunk3(
// DEP-NEXT:    ^bb0(
// DEP-NEXT:      graph.param "wq"
// DEP-NEXT:      graph.dequant_matmul
// DEP-NEXT:      thunk.yield
// DEP:         mps.subgraph @runs_mps4(
// DEP-NEXT:    ^bb0(
// DEP-NEXT:      graph.exp
// DEP-NEXT:      graph.mul
// DEP-NEXT:      graph.concat
// DEP-NEXT:      mps.yield
// DEP:         return

// SEED-LABEL: func.func @runs(
// SEED-NEXT:    thunk.call @runs_thunk0(
// SEED-NEXT:    ^bb0(
// SEED-NEXT:      graph.param "w"
// SEED-NEXT:      graph.matmul
// SEED-NEXT:      graph.softplus
// SEED-NEXT:      graph.add
// SEED-NEXT:      thunk.yield
// SEED:         thunk.call @runs_thunk1(
// SEED-NEXT:    ^bb0(
// SEED-NEXT:      graph.param "wq"
// SEED-NEXT:      graph.dequant_matmul
// SEED-NEXT:      thunk.yield
// SEED:         mps.subgraph @runs_mps2(
// SEED-NEXT:    ^bb0(
// SEED-NEXT:      graph.exp
// SEED-NEXT:      graph.mul
// SEED-NEXT:      graph.concat
// SEED-NEXT:      mps.yield
// SEED:         return
func.func @runs(%x: tensor<1x64xf32>) -> tensor<1x32xf32> {
  %w = graph.param "w" : tensor<64x64xf32>
  // expected-remark@+1 {{kept native: seed mode: its run of ops also holds graph.softplus, which MPS cannot run (graph.softplus: no MPSGraph lowering)}}
  %a = graph.matmul %x, %w : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  // expected-remark@+1 {{kept native: graph.softplus: no MPSGraph lowering}}
  %b = graph.softplus %a : (tensor<1x64xf32>) -> tensor<1x64xf32>
  // expected-remark@+1 {{kept native: seed mode: its run of ops also holds graph.softplus}}
  %c = graph.add %b, %x : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  %wq = graph.param "wq" : tensor<1088xui8>
  // expected-remark@+1 {{kept native: graph.dequant_matmul: packed GGUF weights have no MPSGraph lowering}}
  %d = graph.dequant_matmul %c, %wq {format = "q8_0", n = 16, k = 64} : (tensor<1x64xf32>, tensor<1088xui8>) -> tensor<1x16xf32>
  %e = graph.exp %d : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %f = graph.mul %e, %e : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
  %g = graph.concat %f, %f {axis = 1} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x32xf32>
  return %g : tensor<1x32xf32>
}

// Independent chains, interleaved in the text: dependency mode puts each
// kind in one region; seed mode sees one run holding graph.max and makes it
// all native.

// DEP-LABEL: func.func @interleaved(
// DEP-NEXT:    mps.subgraph @interleaved_mps0(%arg0)
// DEP-NEXT:    ^bb0(
// DEP-NEXT:      graph.exp
// DEP-NEXT:      graph.exp
// DEP-NEXT:      mps.yield
// DEP-NEXT:    }
// DEP-NEXT:    thunk.call @interleaved_thunk1(%arg1)
// DEP-NEXT:    ^bb0(
// DEP-NEXT:      graph.max
// DEP-NEXT:      graph.max
// DEP-NEXT:      thunk.yield
// DEP-NEXT:    }
// DEP-NEXT:    return

// SEED-LABEL: func.func @interleaved(
// SEED-NEXT:    thunk.call @interleaved_thunk0(%arg0, %arg1)
// SEED-NEXT:    ^bb0(
// SEED-NEXT:      graph.exp
// SEED-NEXT:      graph.max
// SEED-NEXT:      graph.exp
// SEED-NEXT:      graph.max
// SEED-NEXT:      thunk.yield
// SEED-NEXT:    }
// SEED-NEXT:    return
func.func @interleaved(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // expected-remark@+1 {{kept native: seed mode: its run of ops also holds graph.max, which MPS cannot run (graph.max: no MPSGraph lowering)}}
  %a = graph.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  // expected-remark@+1 {{kept native: graph.max: no MPSGraph lowering}}
  %b = graph.max %y, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // expected-remark@+1 {{kept native: seed mode: its run of ops also holds graph.max}}
  %c = graph.exp %a : (tensor<4xf32>) -> tensor<4xf32>
  // expected-remark@+1 {{kept native: graph.max: no MPSGraph lowering}}
  %d = graph.max %b, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %c, %d : tensor<4xf32>, tensor<4xf32>
}

// The original refuses a hybrid plan for any function with attention,
// gated_delta_net or lstm: seed mode makes one thunk of everything.
// Dependency mode hands the three results of one MPS region (q, k, v) to
// the native attention: the multi-output handoff the original got wrong.

// DEP-LABEL: func.func @refused(
// DEP-NEXT:    %[[M:.*]]:3 = mps.subgraph @refused_mps0(%arg0)
// DEP:           mps.yield
// DEP-NEXT:    }
// DEP-NEXT:    %[[T:.*]] = thunk.call @refused_thunk1(%[[M]]#0, %[[M]]#1, %[[M]]#2)
// DEP-NEXT:    ^bb0(
// DEP-NEXT:      graph.attention
// DEP-NEXT:      thunk.yield
// DEP-NEXT:    }
// DEP-NEXT:    return %[[T]]

// SEED-LABEL: func.func @refused(
// SEED-NEXT:    thunk.call @refused_thunk0(%arg0)
// SEED-NEXT:    ^bb0(
// SEED-COUNT-3:   graph.param
// SEED-COUNT-3:   graph.matmul
// SEED-NEXT:      graph.attention
// SEED-NEXT:      thunk.yield
// SEED-NEXT:    }
// SEED-NEXT:    return
func.func @refused(%x: tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> {
  %wq = graph.param "wq" : tensor<16x16xf32>
  %wk = graph.param "wk" : tensor<16x16xf32>
  %wv = graph.param "wv" : tensor<16x16xf32>
  // expected-remark@+1 {{kept native: seed mode: the function holds graph.attention, so every compute op goes to one thunk region (seed mode splits no function with attention, gated_delta_net or lstm, as RLX's hybrid plan did not)}}
  %q = graph.matmul %x, %wq : (tensor<1x4x4x16xf32>, tensor<16x16xf32>) -> tensor<1x4x4x16xf32>
  // expected-remark@+1 {{kept native: seed mode: the function holds graph.attention}}
  %k = graph.matmul %x, %wk : (tensor<1x4x4x16xf32>, tensor<16x16xf32>) -> tensor<1x4x4x16xf32>
  // expected-remark@+1 {{kept native: seed mode: the function holds graph.attention}}
  %v = graph.matmul %x, %wv : (tensor<1x4x4x16xf32>, tensor<16x16xf32>) -> tensor<1x4x4x16xf32>
  // expected-remark@+1 {{kept native: graph.attention: operand #0 (q) is computed by graph.matmul}}
  %o = graph.attention %q, %k, %v {mask = "causal"} : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  return %o : tensor<1x4x4x16xf32>
}
