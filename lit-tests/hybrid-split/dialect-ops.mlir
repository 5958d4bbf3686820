// RUN: rlx-opt %s | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s
// RUN: rlx-opt %s | rlx-opt | FileCheck %s

// The custom and generic forms of mps.subgraph, mps.yield, thunk.call and
// thunk.yield round-trip.

// CHECK-LABEL: func.func @decode(
// CHECK-NEXT:    %[[M:.*]]:2 = mps.subgraph @decode_mps0(%arg0) : (tensor<1x64xf32>) -> (tensor<1x64xf32>, tensor<1x64xf32>) {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: tensor<1x64xf32>):
// CHECK-NEXT:      %[[W:.*]] = graph.param "l0.wq" : tensor<64x64xf32>
// CHECK-NEXT:      %[[Q:.*]] = graph.matmul %[[A]], %[[W]]
// CHECK-NEXT:      %[[R:.*]] = graph.add %[[Q]], %[[A]]
// CHECK-NEXT:      mps.yield %[[Q]], %[[R]] : tensor<1x64xf32>, tensor<1x64xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[T:.*]] = thunk.call @decode_thunk1(%[[M]]#0, %[[M]]#1) {note = "kept", target = "host"} : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32> {
// CHECK-NEXT:    ^bb0(%[[P:.*]]: tensor<1x64xf32>, %[[S:.*]]: tensor<1x64xf32>):
// CHECK-NEXT:      %[[X:.*]] = graph.max %[[P]], %[[S]]
// CHECK-NEXT:      thunk.yield %[[X]] : tensor<1x64xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    mps.subgraph @decode_mps2() : () -> () {
// CHECK-NEXT:      mps.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[T]] : tensor<1x64xf32>

// GENERIC: %[[M:.*]]:2 = "mps.subgraph"(%arg0) <{sym_name = "decode_mps0"}> ({
// GENERIC: "mps.yield"(%{{.*}}, %{{.*}}) : (tensor<1x64xf32>, tensor<1x64xf32>) -> ()
// GENERIC: }) : (tensor<1x64xf32>) -> (tensor<1x64xf32>, tensor<1x64xf32>)
// GENERIC: "thunk.call"(%[[M]]#0, %[[M]]#1) <{sym_name = "decode_thunk1", target = "host"}> ({
// GENERIC: "thunk.yield"
// GENERIC: }) {note = "kept"} : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
func.func @decode(%x: tensor<1x64xf32>) -> tensor<1x64xf32> {
  %0:2 = mps.subgraph @decode_mps0 (%x) : (tensor<1x64xf32>) -> (tensor<1x64xf32>, tensor<1x64xf32>) {
  ^bb0(%a0: tensor<1x64xf32>):
    %w = graph.param "l0.wq" : tensor<64x64xf32>
    %q = graph.matmul %a0, %w : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
    %r = graph.add %q, %a0 : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
    mps.yield %q, %r : tensor<1x64xf32>, tensor<1x64xf32>
  }
  %1 = thunk.call @decode_thunk1 (%0#0, %0#1) {target = "host", note = "kept"} : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32> {
  ^bb0(%p: tensor<1x64xf32>, %s: tensor<1x64xf32>):
    %m = graph.max %p, %s : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
    thunk.yield %m : tensor<1x64xf32>
  }
  mps.subgraph @decode_mps2() : () -> () {
    mps.yield
  }
  return %1 : tensor<1x64xf32>
}
