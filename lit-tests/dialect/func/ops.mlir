// The func dialect's custom forms print as mlir-opt 19 prints them, and
// the printed form parses back to the same text.
// RUN: rlx-opt %s | FileCheck %s
// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// CHECK-LABEL: func.func private @decl(i32 {rlx.a}, f32) -> (i32 {rlx.r = 1 : i64})
func.func private @decl(i32 {rlx.a}, f32) -> (i32 {rlx.r = 1 : i64})

// CHECK-LABEL: func.func nested @nested_vis() attributes {rlx.x} {
// CHECK-NEXT:    return
// CHECK-NEXT:  }
func.func nested @nested_vis() attributes {rlx.x} {
  return
}

// A return-like terminator writes its attribute dictionary before the
// operands.
// CHECK-LABEL: func.func @callee(%arg0: i32, %arg1: f32 {rlx.b = "x"}) -> (i32, f32) {
// CHECK-NEXT:    return {rlx.ret = 1 : i64} %arg0, %arg1 : i32, f32
func.func @callee(%a: i32, %b: f32 {rlx.b = "x"}) -> (i32, f32) {
  return {rlx.ret = 1} %a, %b : i32, f32
}

// CHECK-LABEL: func.func @caller(%arg0: i32, %arg1: f32) -> i32 {
// CHECK-NEXT:    %0:2 = call @callee(%arg0, %arg1) {rlx.c} : (i32, f32) -> (i32, f32)
// CHECK-NEXT:    %f = constant @callee : (i32, f32) -> (i32, f32)
// CHECK-NEXT:    %1:2 = call_indirect %f(%0#0, %0#1) : (i32, f32) -> (i32, f32)
// CHECK-NEXT:    return {rlx.generic} %1#0 : i32
func.func @caller(%a: i32, %b: f32) -> i32 {
  %0:2 = call @callee(%a, %b) {rlx.c} : (i32, f32) -> (i32, f32)
  %f = constant @callee : (i32, f32) -> (i32, f32)
  %1:2 = call_indirect %f(%0#0, %0#1) : (i32, f32) -> (i32, f32)
  "func.return"(%1#0) {rlx.generic} : (i32) -> ()
}

// An empty result list prints no arrow.
// CHECK-LABEL: func.func @none() {
// CHECK-NEXT:    return
func.func @none() -> () {
  func.return
}
