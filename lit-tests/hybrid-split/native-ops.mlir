// RUN: rlx-opt %s --hybrid-split | FileCheck %s --check-prefix=DEFAULT
// RUN: rlx-opt %s --hybrid-split=native-ops=graph.softmax | FileCheck %s --check-prefix=NATIVE
// RUN: rlx-opt %s --hybrid-split='native-ops=softmax,graph.exp' | FileCheck %s --check-prefix=BOTH
// RUN: rlx-opt %s --hybrid-split='native-ops=graph.softmax explain' --verify-diagnostics -o /dev/null
// RUN: not rlx-opt %s --hybrid-split=native-ops=graph.nope 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not rlx-opt %s --hybrid-split=native-ops=graph.param 2>&1 | FileCheck %s --check-prefix=LEAF

// native-ops forces ops native whatever their capability; names may leave
// out the "graph." prefix. A name that is not a graph compute op is an
// error.

// DEFAULT:     mps.subgraph @f_mps0
// DEFAULT-NOT: thunk.call

// NATIVE:      mps.subgraph @f_mps0
// NATIVE-NEXT: ^bb0(
// NATIVE-NEXT:   graph.exp
// NATIVE-NEXT:   mps.yield
// NATIVE:      thunk.call @f_thunk1
// NATIVE-NEXT: ^bb0(
// NATIVE-NEXT:   graph.softmax
// NATIVE-NEXT:   thunk.yield
// NATIVE:      mps.subgraph @f_mps2
// NATIVE-NEXT: ^bb0(
// NATIVE-NEXT:   graph.neg

// BOTH:      thunk.call @f_thunk0
// BOTH-NEXT: ^bb0(
// BOTH-NEXT:   graph.exp
// BOTH-NEXT:   graph.softmax
// BOTH-NEXT:   thunk.yield
// BOTH:      mps.subgraph @f_mps1
// BOTH-NEXT: ^bb0(
// BOTH-NEXT:   graph.neg

// BAD: <command-line>:1:27: error: invalid value for option 'native-ops' of pass 'hybrid-split': 'graph.nope' is not a graph compute op
// BAD-NEXT: --hybrid-split=native-ops=graph.nope
// BAD-NEXT: {{^}}                          ^
// LEAF: <command-line>:1:27: error: invalid value for option 'native-ops' of pass 'hybrid-split': 'graph.param' is not a graph compute op
func.func @f(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %e = graph.exp %x : (tensor<2x8xf32>) -> tensor<2x8xf32>
  // expected-remark@+1 {{kept native: graph.softmax is listed in native-ops}}
  %s = graph.softmax %e {axis = -1} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %n = graph.neg %s : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %n : tensor<2x8xf32>
}
