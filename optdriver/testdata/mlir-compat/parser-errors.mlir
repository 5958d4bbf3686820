// ARGS: --split-input-file --allow-unregistered-dialect
// Malformed inputs found by the mutation differential test
// (TestMutantsAgainstMLIROpt), one per chunk: rlx-opt's message, position,
// source line, caret and notes must be mlir-opt-19's.

"t.x"() {a = ..} : () -> ()

// -----
"t.x"() {a = array<i64: =, 0>} : () -> ()

// -----
"t.x"() {a = array<f32: 1.0, , 0>} : () -> ()

// -----
"t.x"() {a = array<i32: 99999999999>} : () -> ()

// -----
"t.x"() {a = array<i32: true>} : () -> ()

// -----
"builtin.modu,le"() ({
  "t.y"() : () -> ()
}) : () -> ()

// -----
func.func @f() {
  "func.retrun"() : () -> ()
}

// -----
"t.x"() {a = strided<1>} : () -> ()

// -----
"t.x"() {a = strided<[1] 2>} : () -> ()

// -----
"t.x"() {a = strided<[1,- ?]>} : () -> ()

// -----
"t.x"() : () -> memref<4xf32 1>

// -----
"t.x"() : () -> memref<4xf32, 1 2>

// -----
"t.x"() : () -> memref<4xf32, >

// -----
"t.x"() : () -> memref<4xf32, strided<[1, 2]>>

// -----
"t.x"() : () -> tensor<4xf32, >

// -----
"t.x"() ({
^bb0(%a i32):
  "t.y"() : () -> ()
}) : () -> ()

// -----
"t.x"() ({
^bb0(%a: i32,):
  "t.y"() : () -> ()
}) : () -> ()

// -----
"t.x"() ({
^bb0(%a: i32 %b: i32):
  "t.y"() : () -> ()
}) : () -> ()

// -----
"t.x"() ({
^bb0(%a#1: i32, %b #0: i32):
  "t.y"(%a#1, %b) : (i32, i32) -> ()
}) : () -> ()

// -----
"t.x"() ({
^bb0:
  "t.br"()[^bb1 ^bb1] : () -> ()
^bb1:
  "t.y"() : () -> ()
}) : () -> ()

// -----
"t.br"()[] : () -> ()

// -----
"builtin.module"()[ ({
  "t.y"() : () -> ()
}) : () -> ()

// -----
"t.x"() {a = affine_map(d0) -> (d0)>} : () -> ()

// -----
"t.x"() {a = affine_set<(d0) : (d0 >= 0)} : () -> ()

// -----
{-# dialect_resources: {builtin: {x: "0x01000000" y: "0x01000000"} } #-}

// -----
{-# dialect_resources: {builtin: {x: "0x03000000"}} #-}

// -----
{-# dialect_resources: {builtin: {"x": "0x01000000"}} #-}

// -----
{-# dialect_resources: {func: {}} #-}

// -----
{-# external_resources: {foo: {x: 12345}} #-}

// -----
{-# external_resources: {foo: {x: "0x01"}} #-}

// -----
{-# external_resources: {foo: {x: true}} } x #-}

// -----
func.func @f) {
  return
}

// -----
func.func @f(%a: i32 i32) {
  return
}

// -----
func.func @f() {
  call @a::@b() : () -> ()
  return
}

// -----
func.func @f() {
  %f = constant 1 : () -> ()
  return
}

// -----
func.func @f() {
  %f = constant {x} @f : () -> ()
  call @f() : () -> ()
  return
}

// -----
func.func @f() {
  %f = constant @f : : () -> i32
  return
}

// -----
#x.y = 1

// -----
#x 1

// -----
!t = i32
!t = i64

// -----
return

// -----
"t.x"() ({
  return
}) : () -> ()

// -----
func.

// -----
func.func @f(%a: i32) -> i32 {
  return %a : i32
}
i32

// -----
"builtin.module"() <{sym_nam = "x"}> ({
  "t.y"() : () -> ()
}) : () -> ()

// -----
"builtin.module"() <1> ({
  "t.y"() : () -> ()
}) : () -> ()

// -----
func.func @f() {
  "func.return"() <{x = 1}> : () -> ()
}

// -----
%0 = "t.z"() : () -> () loc(1)

// -----
"t.x"() {a = dense<1.0> : tensor<99999999999x99999999999xf32>, b = dense<1> : memref<2xi32>} : () -> ()

// -----
"t.x"() {a = dense<"0x0100000002000000"> : tensor<99999999999x99999999999xi32>} : () -> ()

// -----
"t.x"() {a = dense<true> : tensor<2xf32>} : () -> ()

// -----
"t.x"() {a = dense<[1, "x"]> : tensor<2xi32>} : () -> ()

// -----
"t.x"() {a = dense<[1, 2]> : tensor<2x!x.y>} : () -> ()

// -----
"t.x"() {a = dense<> : tensor<2xi1>} : () -> ()

// -----
"t.x"() {a = dense_resource<"x"> : tensor<2xi8>} : () -> ()

// -----
"t.x"(%a) : () -> ()

// -----
"t.x"() : () -> vector<[4 x f32>

// -----
"t.x"() : () -> vector<[x]xf32>

// -----
"t.x"() {a = #x.bar<"x" [1, {a}]]>} : () -> ()

// -----
func.func @a(%b: i32) -> i32 {
  return %x : i32
}
func.func @c(%x: i32) -> i32 {
  return %x : i32
}

// -----
func.func @f(%a: i32) {
  func.func @g() {
    "t.use"(%a) : (i32) -> ()
    return
  }
  return
}

// -----
"t.x"() {a = 1.5 : i32, b = #loc} : () -> ()
#loc = loc("a":1: :2)

// -----
// Legacy func syntax, which mlir-opt 19 no longer accepts.
func @f() {
  return
}

// -----
"t.x"() : () -> vector<2x?xf32>

// -----
"t.x"() : () -> memref<2xf32, strided<[1]>, >

// -----
"t.x"() {a = sparse sparse<0, 5> : tensor<4xi32>} : () -> ()

// -----
"t.x"() : () -> () loc(fused<"m">[])

// -----
func.func @f(%a#rg0: index) {
  return
}

// -----
#loc = loc("x":  :10:8)

// -----
func.func private @d(i32 {x}) -> (i32 {y})

// -----
"builtin.module"() <{sym_name = "a", sym_visibility = "pri"}> ({
  "t.y"() : () -> ()
}) : () -> ()

// -----
"t.x"() {a = #a-b.c} : () -> ()

// -----
"t.x"() {a = #a-b<1>} : () -> ()

// -----
{-# external_resources: {foo: {"x": true}} #-}

// -----
func.func @f() {
  "func.call"() <{callee = "g"}> : () -> ()
  return
}

// -----
"func.func"() <{function_type = () -> (), private, sym_name = "b", sym_visibility}> ({
  "func.return"() : () -> ()
}) : () -> ()

// -----
func.func @callee(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func @f() -> tensor<4xf32> {
  %1 = call @callee() : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----
"t.x"() {bytecode.test = bf16, bytecode.test# = f32} : () -> ()

// -----
"t.x"() {a = array<f64: 2
.1>} : () -> ()

// -----
"t.x"() {a = #$_foo.bar} : () -> ()

// -----
// func.constant's type is `type(results)`, a list: two types make two results.
func.func @callee(%arg0: i32, %arg1: f32) -> (i32, f32) {
  return %arg0, %arg1 : i32, f32
}
func.func @caller() {
  %f = constant @callee : (i32, f32) -> i32, f32)
  return
}

// -----
func.func @callee(%arg0: i32, %arg1: f32) -> (i32, f32) {
  return %arg0, %arg1 : i32, f32
}
func.func @caller() {
  %f:2 = constant @callee : (i32, f32) -> i32, f32
  return
}
