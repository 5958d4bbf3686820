// ARGS: --split-input-file --allow-unregistered-dialect
// ARGS: --split-input-file --allow-unregistered-dialect --mlir-print-debuginfo --mlir-pretty-debuginfo
// ARGS: --split-input-file --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo
// ARGS: --split-input-file --allow-unregistered-dialect --mlir-print-local-scope
// ARGS: --split-input-file --allow-unregistered-dialect --mlir-print-value-users
// ARGS: --split-input-file --allow-unregistered-dialect --mlir-print-unique-ssa-ids
// ARGS: --split-input-file --allow-unregistered-dialect --mlir-print-skip-regions
// ARGS: --split-input-file --allow-unregistered-dialect --mlir-elide-elementsattrs-if-larger=1
// ARGS: --split-input-file --allow-unregistered-dialect --mlir-elide-elementsattrs-if-larger=0 --mlir-print-op-generic
// Small inputs, valid and not, over builtin and func syntax, attributes,
// types, locations, blocks and resources: every chunk prints or fails
// exactly as in mlir-opt-19.
func.func @f(%a: i32 {x.a}, %b: f32) -> (i32 {x.r}, f32) { return %a, %b : i32, f32 }
// -----
func.func private @d(i32, f32 {x.b}) -> i32 attributes {x.y = 2}
// -----
module @m attributes {x.a} { module @n { func.func nested @g() { return } } }
// -----
module {}
// -----
module attributes {a} {}
// -----
func.func private @d(%a: i32)
// -----
func.func @f() -> ((i32) -> i32)
// -----
func.func @f(%a: i32, %a: i32) { return }
// -----
func.func @f() -> i32, i32 { return }
// -----
func.func @f() -> i32 {a} { return }
// -----
func.func @"foo bar"() { call @"foo bar"() : () -> () 
 return }
// -----
func.func @f() -> i32 { %0 = func.constant @f : () -> i32 }
// -----
func.func @f() -> i32 { return }
// -----
func.func @f() { func.call @nope() : () -> () 
 return }
// -----
func.func @f(%a: f32) { func.call @g(%a) : (f32) -> () 
 return }
func.func private @g(i32)
// -----
func.func @f() { return }
func.func @f() { return }
// -----
func.func @d(i32)
// -----
func.func @f(i32) { return }
// -----
func.func @f(%a: i32) -> i32 { return %a : f32 }
// -----
func.func @f() { return } loc("a.mlir":3:4)
// -----
func.func @f(%a: i32 loc("x.mlir":1:2)) { return }
// -----
func.func @f() { "foo.x"() [^bb1] : () -> () 
^bb1(%z: i32 loc("y":1:1)): return }
// -----
func.func @f() { %0 = func.call @f() : () -> () return }
// -----
func.func @f() -> i32 { %0 = "foo.c"() : () -> i32 
 %1 = func.call @f() : () -> i32 
 return %1 : i32 }
// -----
func.func @f() { %0 = func.constant @f : () -> i32 
 return }
// -----
func.func @f(%x: () -> ()) { func.call_indirect %x() : () -> () 
 return }
// -----
func.func @f(%x: () -> ()) { func.call_indirect %x() : (i32) -> () 
 return }
// -----
func.func @f() -> (i32 {a}, f32) attributes {sym_visibility = "private"} { %0:2 = "foo.x"() : () -> (i32, f32) 
 return %0#0, %0#1 : i32, f32 }
// -----
func.func @f() attributes {function_type = () -> ()} { return }
// -----
func.func @f() { return } 
 func.func @g() { func.call @f() : () -> (i32) 
 return }
// -----
"func.func"() ({ ^bb0(%a: i32): "func.return"() : () -> () }) {function_type = (i32) -> (), sym_name = "f"} : () -> ()
// -----
"func.func"() ({ ^bb0(%a: i32): "func.return"() : () -> () }) {function_type = (i32) -> (), sym_name = "f", arg_attrs = [{x.a}]} : () -> ()
// -----
"func.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({ ^bb0(%a: i32): "func.return"() : () -> () }) : () -> ()
// -----
func.func @f() { "func.return"() : () -> () } 
 "func.return"() : () -> ()
// -----
module { func.func @f() } 
// -----
func.func @f() { ^bb0: return 
^bb1: return }
// -----
func.func @f(%a: i32) { return %a : i32 }
// -----
builtin.module @x { }
// -----
module @x { } loc(unknown)
// -----
func.func @f() -> i32 { %c = "foo.x"() : () -> i32 
 return {} %c : i32 }
// -----
module attributes {sym_name = "x"} {}
// -----
module @a attributes {sym_name = "x"} {}
// -----
module attributes {sym_visibility = "private"} {}
// -----
module { "foo.x"() : () -> () } {a}
// -----
func.func @f() { "foo.br"() [^bb2] : () -> () }
// -----
func.func @f() { ^bb0: "foo.br"() [^bb0] : () -> () }
// -----
func.func @f() { "foo.br"(%x) : (i32) -> () 
 %x = "foo.c"() : () -> i32 
 return }
// -----
func.func @f() { %x = "foo.c"(%x) : (i32) -> i32 
 return }
// -----
"foo.r"() ({ %x = "foo.c"(%x) : (i32) -> i32 }) : () -> ()
// -----
func.func @f() { %x = "foo.c"() : () -> i32 
 "foo.r"() ({ ^bb0(%x: i32): "foo.t"() : () -> () }) : () -> () 
 return }
// -----
func.func @f() { "foo.r"() ({ ^bb0(%y: i32): "foo.t"() : () -> () ^bb0: "foo.t"() : () -> () }) : () -> () 
 return }
// -----
func.func @f() -> i32 { ^bb1: %0 = "foo.c"() : () -> i32 
 "foo.br"()[^bb2] : () -> () 
 ^bb2: return %0 : i32 }
// -----
func.func @f() { return 
 %0 = "foo.c"() : () -> i32 }
// -----
func.func @f() { "func.return"() : () -> () 
 "func.return"() : () -> () }
// -----
"func.return"() : () -> ()
// -----
func.func @f() { func.func @g() { return } 
 return }
// -----
func.func @f() -> tensor<?x4xf32> { %0 = "foo.c"() : () -> tensor<?x4xf32> 
 return %0 : tensor<?x4xf32> }
// -----
func.func @f() { %0 = "foo.c"() {a = dense<[1, 2]> : tensor<3xi32>} : () -> () 
 return }
// -----
func.func @f() { "foo.c"() {a = 256 : i8} : () -> () 
 return }
// -----
func.func @f() { "foo.c"() {a = -129 : i8} : () -> () 
 return }
// -----
func.func @f() { "foo.c"() {a = 1.0 : i32} : () -> () 
 return }
// -----
func.func @f() { "foo.c"() {a = 0x7FC00000 : f32, b = 0xFFFF : f16} : () -> () 
 return }
// -----
func.func @f() { "foo.c"() {a = [1, 2, {b = 3}], c = array<i32: 1, 2>, d = @s::@t} : () -> () 
 return }
// -----
func.func @f() { "foo.c"() : () -> (memref<4x?xf32, strided<[?, 1], offset: ?>, 3>) 
 return }
// -----
func.func @f() { "foo.c"() : () -> (vector<[4]x8xf32>, complex<f32>, tuple<i32, f32>, none, index) 
 return }
// -----
func.func @f() { "foo.c"() : () -> (vector<0xf32>) 
 return }
// -----
func.func @f() { "foo.c"() : () -> (tensor<-1xf32>) 
 return }
// -----
func.func @f() { "foo.c"() : () -> (i0, si1, ui64, i16777216) 
 return }
// -----
func.func @f() { "foo.c"() : () -> (i16777217) 
 return }
// -----
func.func @f() { "foo.c"() : () -> (memref<4xi32, affine_map<(d0) -> (d0 * 2)>>) 
 return }
// -----
func.func @f() { "foo.c"() {s = "a\"b\n\tc\00\ff"} : () -> () 
 return }
// -----
func.func @f() { "foo.c"() {s = "\q"} : () -> () 
 return }
// -----
func.func @f() { "foo.c"() {s = dense<"0xDEADBEEF"> : tensor<2xi16>} : () -> () 
 return }
// -----
func.func @f() { "foo.c"() {s = dense<"0xDEADBEEF"> : tensor<3xi16>} : () -> () 
 return }
// -----
func.func @f() { "foo.c"() {s = dense<> : tensor<0xi16>, t = dense<true> : tensor<2xi1>} : () -> () 
 return }
// -----
func.func @f() { "foo.c"() {s = dense<[[1, 2], [3]]> : tensor<2x2xi32>} : () -> () 
 return }
// -----
func.func @f() { "foo.c"() {s = dense<(1.0, 2.0)> : tensor<2xcomplex<f32>>} : () -> () 
 return }
// -----
func.func @f() { "foo.c"() {s = sparse<[[0]], [1]> : tensor<2xi32>} : () -> () 
 return }
// -----
func.func @f() { "foo.c"() {s = opaque<"x", "0xDEAD"> : tensor<2xi32>} : () -> () 
 return }
// -----
func.func @f() { "foo.c"() <{p = 1}> {p = 2} : () -> () 
 return }
// -----
#a = 1
#a = 2
"foo.x"() {v = #a} : () -> ()
// -----
!t = i32
"foo.x"() : () -> !t
!u = f32
// -----
"foo.x"() {v = #undefined} : () -> ()
// -----
"foo.x"() : () -> !undefined
// -----
#loc = loc("a":1:2)
"foo.x"() : () -> () loc(#loc)
"foo.y"() : () -> () loc(#loc2)
// -----
"foo.x"() : () -> () loc(#loc9)
// -----
"foo.x"() : () -> () loc("a":1)
// -----
"foo.x"() : () -> () loc(callsite("a" at "b":1:2))
// -----
"foo.x"() : () -> () loc(fused["a", "b":1:2])
"foo.y"() : () -> () loc(fused<{x}>["a"])
// -----
"foo.x"() : () -> () loc("name"("a":1:2))
// -----
"foo.x"()[^bb1] : () -> ()
// -----
"foo.r"() ({
^bb0:
  "foo.br"(%c)[^bb1] : (i32) -> ()
^bb1(%c: i32):
  "foo.t"() : () -> ()
}) : () -> ()
// -----
"foo.r"() ({
^bb0:
  %c = "foo.c"() : () -> i32
  "foo.br"()[^bb1, ^bb2] : () -> ()
^bb1:
  "foo.t"(%c) : (i32) -> ()
^bb2:
  "foo.t"() : () -> ()
}) : () -> ()
// -----
"foo.r"() ({
^bb0:
  "foo.br"()[^bb1] : () -> ()
^bb1:
  "foo.t"() : () -> ()
^bb1:
  "foo.t"() : () -> ()
}) : () -> ()
// -----
"foo.x"() <{a = 1}> : () -> ()
"foo.y"() <1 : i32> : () -> ()
// -----
"foo.x"() ({}, {^bb0: "foo.t"() : () -> ()}) : () -> ()
// -----
"foo.x"() : (i32) -> ()
// -----
"foo.x"() : () -> (i32, i32

// -----
"foo.x"() {a = "unterminated} : () -> ()
// -----
"foo.x"() {a = 0x} : () -> ()
// -----
"foo.x"() {a = 12345678901234567890123 : i64} : () -> ()
// -----
"foo.x"() {a = -0 : i32, b = -0.0 : f32, c = 1e400 : f64, d = 0x1p3} : () -> ()
// -----
"foo.x"() {a = 1.5 : bf16, b = 1.0e-50 : f16, c = 3.0 : f8E4M3FN, d = 100000.0 : f16} : () -> ()
// -----
"foo.x"() {a = true, b = false, c = unit, d = none} : () -> ()
// -----
"foo.x"() {a = affine_map<(d0, d1)[s0] -> (d0 + s0, d1 floordiv 2)>, b = affine_set<(d0) : (d0 - 2 >= 0, d0 == 0)>} : () -> ()
// -----
"foo.x"() {a = affine_map<(d0) -> (d1)>} : () -> ()
// -----
"foo.x"() {a = distinct[0]<1 : i32>, b = distinct[0]<1 : i32>, c = distinct[1]<unit>} : () -> ()
// -----
"foo.x"() {a = #foo.bar<"x" [1, {a}]>, b = !foo.baz<1>} : () -> ()
// -----
"foo.x"() {a = #foo<bar>, b = #foo.bar} : () -> (!foo<"bar">)
// -----
"foo.x"() {"quoted name" = 1, a.b = 2, _x = 3} : () -> ()
// -----
"foo.x"() {a = 1, a = 2} : () -> ()
// -----
"foo.x"() {a = dense_resource<blob1> : tensor<2xi8>} : () -> ()
{-# dialect_resources: { builtin: { blob1: "0x0100000001FF" } } #-}
// -----
"foo.x"() {a = dense_resource<blob1> : tensor<2xi8>} : () -> ()
{-# dialect_resources: { builtin: { blob1: "0x01000000" } } #-}
// -----
"foo.x"() {a = dense_resource<nope> : tensor<2xi8>} : () -> ()
// -----
{-# external_resources: { foo: { x: "1" } } #-}
// -----
"foo.x"() : () -> () {-# bad #-}
// -----
module { } module { }
// -----
"builtin.module"() ({ "foo.x"() : () -> () }) : () -> ()
"foo.y"() : () -> ()
// -----
%0 = "foo.x"() : () -> i32
%0 = "foo.x"() : () -> i32
// -----
"foo.x"() : (i32 -> ()
// -----
"foo.x"() : () -> (i32
// -----
func.func @f() -> (i32 {
// -----
"foo.x"() : () -> tuple<i32
// -----
"foo.x"() {a = [1, 2} : () -> ()
// -----
"foo.x"() {a = {b = 1} : () -> ()
// -----
"foo.x"( : () -> ()
// -----
"foo.x"() : () -> tensor<4xf32
// -----
"foo.x"() : () -> ()
"foo.y"() ({ "foo.t"() : () -> ()
// -----
"foo.x"() {c = distinct[1]<unit>} : () -> ()
// -----
"foo.x"() {c = distinct[1]<unit>, d = distinct[2]<unit>} : () -> ()
// -----
"foo.x"() {c = distinct[1]<2 : i32>} : () -> ()
// -----
"foo.r"() ({
^bb0:
  "foo.inner"() ({
  ^bb0:
    "foo.use"(%x) : (i32) -> ()
    "foo.t"() : () -> ()
  }) : () -> ()
  %x = "foo.c"() : () -> i32
  "foo.t"() : () -> ()
}) : () -> ()
"foo.r2"() ({
^bb0:
  "foo.use"(%y) : (i32) -> ()
  "foo.br"()[^bb1] : () -> ()
^bb1(%y: i32):
  "foo.t"() : () -> ()
}) : () -> ()
// -----
"foo.x"() {a = dense_resource<b> : tensor<1xi8>} : () -> ()
{-# dialect_resources: { builtin: { b: "0x10000000AABB" } } #-}
