// RUN: rlx-opt %s --mlir-print-op-generic | FileCheck %s
// RUN: rlx-opt %s | FileCheck %s --check-prefix=CUSTOM

// As in MLIR, a property a registered op does not declare is dropped when
// the op is built from its generic form; it does not come back as a
// discardable attribute. A discardable attribute stays one.

// CHECK:      "thunk.call"(%arg0) <{sym_name = "t", target = "metal"}> ({
// CHECK-NOT:  bogus
// CHECK:      }) {note = "kept"} : (tensor<4xf32>) -> tensor<4xf32>
// CUSTOM:     thunk.call @t(%arg0) {note = "kept", target = "metal"} : (tensor<4xf32>) -> tensor<4xf32> {
// CUSTOM-NOT: bogus
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "thunk.call"(%x) <{sym_name = "t", target = "metal", bogus = 1}> ({
  ^bb0(%a: tensor<4xf32>):
    "thunk.yield"(%a) : (tensor<4xf32>) -> ()
  }) {note = "kept"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
