// RUN: rlx-opt %s --hybrid-split | FileCheck %s
// RUN: rlx-opt %s --hybrid-split=explain --verify-diagnostics -o /dev/null

// An op with a dynamic dim on an operand or result stays native, with the
// reason; the static ops around it still go to MPS.

// CHECK-LABEL: func.func @dynamic(
// CHECK-NEXT:    %[[T:.*]] = thunk.call @dynamic_thunk0(%arg0)
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      graph.exp
// CHECK-NEXT:      graph.reshape
// CHECK-NEXT:      thunk.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    mps.subgraph @dynamic_mps1(%[[T]])
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      graph.param "w"
// CHECK-NEXT:      graph.matmul
func.func @dynamic(%x: tensor<?x64xf32>) -> tensor<1x32xf32> {
  // expected-remark@+1 {{kept native: graph.exp: operand #0 has a dynamic dim ([?, 64])}}
  %e = graph.exp %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  // expected-remark@+1 {{kept native: graph.reshape: operand #0 has a dynamic dim ([?, 64])}}
  %r = graph.reshape %e : (tensor<?x64xf32>) -> tensor<1x64xf32>
  %w = graph.param "w" : tensor<64x32xf32>
  %m = graph.matmul %r, %w : (tensor<1x64xf32>, tensor<64x32xf32>) -> tensor<1x32xf32>
  return %m : tensor<1x32xf32>
}
