// File metadata round trips as in mlir-opt 19: builtin blobs referenced by
// dense_resource, and external resources no one consumed (a tool's group
// rlx does not know is kept, never dropped).
// RUN: rlx-opt %s --allow-unregistered-dialect | FileCheck %s
// RUN: rlx-opt %s --allow-unregistered-dialect | rlx-opt --allow-unregistered-dialect | FileCheck %s
// RUN: rlx-opt %s --allow-unregistered-dialect --verify-roundtrip | FileCheck %s
// RUN: rlx-opt %s --allow-unregistered-dialect --run-reproducer | FileCheck %s --check-prefix=RUN-REPRO

// distinct[N]<> (a unit referenced attribute) stays inline; others get an alias.
// CHECK:      #distinct = distinct[0]<1 : i32>
// CHECK-NEXT: module {
// CHECK-NEXT:   "foo.x"() {a = dense_resource<blob> : tensor<1xi8>, b = dense_resource<empty> : tensor<0xi8>, c = #distinct, d = #distinct, e = distinct[1]<>} : () -> ()
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: {-#
// CHECK-NEXT:   dialect_resources: {
// CHECK-NEXT:     builtin: {
// CHECK-NEXT:       blob: "0x0800000005",
// An empty blob prints with alignment 0, as MLIR prints it.
// CHECK-NEXT:       empty: "0x00000000"
// CHECK-NEXT:     }
// CHECK-NEXT:   },
// CHECK-NEXT:   external_resources: {
// CHECK-NEXT:     mlir_reproducer: {
// CHECK-NEXT:       pipeline: "builtin.module(cse)",
// CHECK-NEXT:       disable_threading: true,
// CHECK-NEXT:       verify_each: false
// CHECK-NEXT:     },
// CHECK-NEXT:     some_tool: {
// CHECK-NEXT:       note: "a\0Ab",
// CHECK-NEXT:       flag: true
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: #-}

// --run-reproducer consumes its group and keeps the others.
// RUN-REPRO:      external_resources: {
// RUN-REPRO-NEXT:   some_tool: {
// RUN-REPRO-NOT:  mlir_reproducer

"foo.x"() {a = dense_resource<blob> : tensor<1xi8>, b = dense_resource<empty> : tensor<0xi8>, c = distinct[0]<1 : i32>, d = distinct[0]<1 : i32>, e = distinct[1]<unit>} : () -> ()

{-#
  dialect_resources: { builtin: { blob: "0x0800000005", empty: "0x08000000" } },
  external_resources: {
    mlir_reproducer: { pipeline: "builtin.module(cse)", disable_threading: true, verify_each: false },
    some_tool: { note: "a\0Ab", flag: true }
  }
#-}
