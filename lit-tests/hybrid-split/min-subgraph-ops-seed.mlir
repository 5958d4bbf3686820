// RUN: rlx-opt %s --hybrid-split=mode=seed | FileCheck %s --check-prefix=SEED1
// RUN: rlx-opt %s --hybrid-split='mode=seed min-subgraph-ops=2' | FileCheck %s --check-prefix=SEED2
// RUN: rlx-opt %s --hybrid-split='mode=seed min-subgraph-ops=2 explain' --verify-diagnostics -o /dev/null
// RUN: rlx-opt %s --hybrid-split=min-subgraph-ops=2 | FileCheck %s --check-prefix=DEP2

// min-subgraph-ops in seed mode. The dequant_matmuls are split points, so
// the original's plan has five steps, the middle MPS step holding one op.
// With min-subgraph-ops=2 that step becomes native but stays a step of its
// own, between the two dequant_matmul thunks; dependency mode merges the
// three native steps into one region.

// SEED1:      mps.subgraph @g_mps0
// SEED1:      thunk.call @g_thunk1
// SEED1:      mps.subgraph @g_mps2
// SEED1-NEXT: ^bb0(
// SEED1-NEXT:   graph.neg
// SEED1-NEXT:   mps.yield
// SEED1:      thunk.call @g_thunk3
// SEED1:      mps.subgraph @g_mps4

// SEED2:      mps.subgraph @g_mps0
// SEED2:      thunk.call @g_thunk1
// SEED2:        graph.dequant_matmul
// SEED2-NEXT:   thunk.yield
// SEED2:      thunk.call @g_thunk2
// SEED2-NEXT: ^bb0(
// SEED2-NEXT:   graph.neg
// SEED2-NEXT:   thunk.yield
// SEED2:      thunk.call @g_thunk3
// SEED2:        graph.dequant_matmul
// SEED2-NEXT:   thunk.yield
// SEED2:      mps.subgraph @g_mps4
// SEED2-NOT:  thunk.call

// DEP2:      mps.subgraph @g_mps0
// DEP2:      thunk.call @g_thunk1
// DEP2:        graph.dequant_matmul
// DEP2-NEXT:   graph.neg
// DEP2-NEXT:   graph.dequant_matmul
// DEP2-NEXT:   thunk.yield
// DEP2:      mps.subgraph @g_mps2
// DEP2-NOT:  thunk.call
func.func @g(%x: tensor<1x32xf32>) -> tensor<1x32xf32> {
  %w = graph.param "w" : tensor<32x32xf32>
  %q = graph.param "q" : tensor<1088xui8>
  %a = graph.matmul %x, %w : (tensor<1x32xf32>, tensor<32x32xf32>) -> tensor<1x32xf32>
  %b = graph.exp %a : (tensor<1x32xf32>) -> tensor<1x32xf32>
  // expected-remark@+1 {{kept native: graph.dequant_matmul: packed GGUF weights have no MPSGraph lowering}}
  %c = graph.dequant_matmul %b, %q {format = "q8_0", n = 32, k = 32} : (tensor<1x32xf32>, tensor<1088xui8>) -> tensor<1x32xf32>
  // expected-remark@+1 {{kept native: graph.neg: its MPS region would hold 1 compute op, fewer than min-subgraph-ops=2}}
  %d = graph.neg %c : (tensor<1x32xf32>) -> tensor<1x32xf32>
  // expected-remark@+1 {{kept native: graph.dequant_matmul: packed GGUF weights have no MPSGraph lowering}}
  %e = graph.dequant_matmul %d, %q {format = "q8_0", n = 32, k = 32} : (tensor<1x32xf32>, tensor<1088xui8>) -> tensor<1x32xf32>
  %f = graph.exp %e : (tensor<1x32xf32>) -> tensor<1x32xf32>
  %g = graph.exp %f : (tensor<1x32xf32>) -> tensor<1x32xf32>
  return %g : tensor<1x32xf32>
}
