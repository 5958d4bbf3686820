// RUN: rlx-opt %s --hybrid-split | FileCheck %s --check-prefix=MIN1
// RUN: rlx-opt %s --hybrid-split=min-subgraph-ops=2 | FileCheck %s --check-prefix=MIN2
// RUN: rlx-opt %s --hybrid-split=min-subgraph-ops=3 | FileCheck %s --check-prefix=MIN3
// RUN: rlx-opt %s --hybrid-split='min-subgraph-ops=2 explain' --verify-diagnostics -o /dev/null
// RUN: not rlx-opt %s --hybrid-split=min-subgraph-ops=-1 2>&1 | FileCheck %s --check-prefix=NEG

// An MPS region with fewer compute ops than min-subgraph-ops is made
// native (leaves do not count). In dependency mode the native regions that
// then follow each other become one region; seed mode keeps them apart
// (min-subgraph-ops-seed.mlir).

// MIN1:      mps.subgraph @f_mps0
// MIN1:      thunk.call @f_thunk1
// MIN1:      mps.subgraph @f_mps2
// MIN1-NEXT: ^bb0(
// MIN1-NEXT:   graph.neg
// MIN1-NEXT:   mps.yield
// MIN1:      thunk.call @f_thunk3
// MIN1:      mps.subgraph @f_mps4

// MIN2:      mps.subgraph @f_mps0
// MIN2:      thunk.call @f_thunk1
// MIN2-NEXT: ^bb0(
// MIN2-NEXT:   graph.max
// MIN2-NEXT:   graph.neg
// MIN2-NEXT:   graph.max
// MIN2-NEXT:   thunk.yield
// MIN2:      mps.subgraph @f_mps2
// MIN2-NOT:  mps.subgraph
// MIN2-NOT:  thunk.call

// MIN3:      thunk.call @f_thunk0
// MIN3-NEXT: ^bb0(
// MIN3-NEXT:   graph.param
// MIN3-NEXT:   graph.matmul
// MIN3-NEXT:   graph.exp
// MIN3-NEXT:   graph.max
// MIN3-NEXT:   graph.neg
// MIN3-NEXT:   graph.max
// MIN3-NEXT:   thunk.yield
// MIN3:      mps.subgraph @f_mps1
// MIN3-NOT:  thunk.call

// NEG: <command-line>:1:33: error: invalid value for option 'min-subgraph-ops' of pass 'hybrid-split': '-1' is negative: give a count of compute ops, 0 or more
// NEG-NOT: func.func

func.func @f(%x: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %w = graph.param "w" : tensor<8x8xf32>
  %a = graph.matmul %x, %w : (tensor<1x8xf32>, tensor<8x8xf32>) -> tensor<1x8xf32>
  %b = graph.exp %a : (tensor<1x8xf32>) -> tensor<1x8xf32>
  // expected-remark@+1 {{kept native: graph.max: no MPSGraph lowering}}
  %c = graph.max %b, %x : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  // expected-remark@+1 {{kept native: graph.neg: its MPS region would hold 1 compute op, fewer than min-subgraph-ops=2}}
  %d = graph.neg %c : (tensor<1x8xf32>) -> tensor<1x8xf32>
  // expected-remark@+1 {{kept native: graph.max: no MPSGraph lowering}}
  %e = graph.max %d, %x : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  %f = graph.exp %e : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %g = graph.exp %f : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %h = graph.exp %g : (tensor<1x8xf32>) -> tensor<1x8xf32>
  return %h : tensor<1x8xf32>
}
