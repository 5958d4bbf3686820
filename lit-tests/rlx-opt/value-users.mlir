// --mlir-print-value-users and --mlir-pretty-debuginfo print as mlir-opt 19
// does (the CHECK lines are mlir-opt-19's output for this file).
// RUN: rlx-opt %s --allow-unregistered-dialect --mlir-print-value-users | FileCheck %s
// RUN: rlx-opt %s --allow-unregistered-dialect --mlir-print-debuginfo --mlir-pretty-debuginfo | FileCheck %s --check-prefix=PRETTY

// CHECK: module {
// CHECK-NEXT:   func.func @f(%arg0: i32, %arg1: i32) -> i32 {
// CHECK-NEXT:     // %arg0 is used by %2, %1
// CHECK-NEXT:     // %arg1 is unused
// CHECK-NEXT:     %1 = "foo.x"(%arg0) : (i32) -> i32 // users: %4, %3#0, %3#1, %2
// CHECK-NEXT:     %2 = "foo.y"(%1, %arg0) : (i32, i32) -> i32 // user: %5
// CHECK-NEXT:     %3:2 = "foo.z"(%1, %1) : (i32, i32) -> (i32, i32) // users: (%9), (%4)
// CHECK-NEXT:     "foo.sink"(%3#1, %1) : (i32, i32) -> () // id: %4
// CHECK-NEXT:     "foo.br"(%2)[^bb1] : (i32) -> () // id: %5
// CHECK-NEXT:   ^bb1(%6: i32):  // pred: ^bb0
// CHECK-NEXT:     // %6 is used by %7
// CHECK-NEXT:     %7 = "foo.r"(%6) ({
// CHECK-NEXT:     ^bb0(%arg2: i32):
// CHECK-NEXT:       // %arg2 is used by %9
// CHECK-NEXT:       "foo.t"(%arg2, %3#0) : (i32, i32) -> () // id: %9
// CHECK-NEXT:     }) : (i32) -> i32 // user: %8
// CHECK-NEXT:     return %7 : i32 // id: %8
// CHECK-NEXT:   }
// CHECK-NEXT: }

// Pretty locations: no loc(…), bare file names.
// PRETTY-NOT: loc(
// PRETTY: %0 = "foo.x"(%arg0) : (i32) -> i32 {{.*}}value-users.mlir:{{[0-9]+}}:8
// PRETTY: ^bb1(%3: i32 {{.*}}value-users.mlir:{{[0-9]+}}:6):  // pred: ^bb0
// PRETTY: #loc = {{.*}}value-users.mlir:0:0
// PRETTY-NOT: loc(

func.func @f(%a: i32, %b: i32) -> i32 {
  %0 = "foo.x"(%a) : (i32) -> i32
  %1 = "foo.y"(%0, %a) : (i32, i32) -> i32
  %2:2 = "foo.z"(%0, %0) : (i32, i32) -> (i32, i32)
  "foo.sink"(%2#1, %0) : (i32, i32) -> ()
  "foo.br"(%1)[^bb1] : (i32) -> ()
^bb1(%c: i32):
  %3 = "foo.r"(%c) ({
  ^bb0(%d: i32):
    "foo.t"(%d, %2#0) : (i32, i32) -> ()
  }) : (i32) -> i32
  return %3 : i32
}
