// ARGS: --verify-roundtrip --allow-unregistered-dialect --split-input-file
// ARGS: --split-input-file --allow-unregistered-dialect
// ARGS: --split-input-file --allow-unregistered-dialect --mlir-print-op-generic
// More syntax: block labels, result groups, value names, float and integer
// literals, containers, shaped and memref types (layouts, memory spaces),
// aliases, string escapes, as mlir-opt-19 reads and prints them.
"foo.r"() ({
^bb0():
  "foo.t"() : () -> ()
}) : () -> ()
// -----
func.func @f() {
^entry:
  return
}
// -----
func.func @f() {
^bb0:
  "foo.br"()[^exit] : () -> ()
^exit:
  return
}
// -----
%0:3 = "foo.x"() : () -> (i32, i32, i32)
"foo.y"(%0#2, %0#0) : (i32, i32) -> ()
// -----
%a, %b:2 = "foo.x"() : () -> (i32, i32, i32)
"foo.y"(%a, %b#1) : (i32, i32) -> ()
// -----
%a, %b = "foo.x"() : () -> (i32, i32)
"foo.y"(%b#1) : (i32) -> ()
// -----
%0 = "foo.x"() : () -> i32
"foo.y"(%0#0) : (i32) -> ()
// -----
"foo.y"(%0#3) : (i32) -> ()
%0:2 = "foo.x"() : () -> (i32, i32)
// -----
%x_1 = "foo.x"() : () -> i32
%x.y = "foo.x"() : () -> i32
%_z$ = "foo.x"() : () -> i32
%42 = "foo.x"() : () -> i32
"foo.y"(%x_1, %x.y, %_z$, %42) : (i32, i32, i32, i32) -> ()
// -----
"foo.x"() {a = 0x7F800000 : f32, b = 0xFF800000 : f32, c = 0x7FC00001 : f32, d = -0.0 : f64, e = 1.0e10 : f64, f = 3.40282347e+38 : f32, g = 1.17549435e-38 : f32, h = 4.9406564584124654E-324 : f64} : () -> ()
// -----
"foo.x"() {a = 1 : index, b = -1 : si8, c = 255 : ui8, d = 0x10 : i64, e = -0x10 : i32, f = 170141183460469231731687303715884105727 : i128} : () -> ()
// -----
"foo.x"() {a = 256 : ui8} : () -> ()
// -----
"foo.x"() {a = -1 : ui8} : () -> ()
// -----
"foo.x"() {a = 128 : si8} : () -> ()
// -----
"foo.x"() {a = [], b = {}, c = [[]], d = array<i32>, e = array<f32: 1.5, -2.0>, f = array<i1: true, false>} : () -> ()
// -----
"foo.x"() {a = @a, b = @"with space", c = @a::@b::@c} : () -> ()
// -----
"foo.x"() {a = tensor<*xf32>, b = memref<*xf32, 1>, c = vector<2x[4]x[8]xf32>, d = memref<2xf32, #foo.layout>, e = tensor<2xf32, "enc">} : () -> ()
// -----
"foo.x"() {a = (i32) -> (), b = () -> ((i32) -> i32), c = (i32, f32) -> (i1, i2)} : () -> ()
// -----
"foo.x"() {a = i1, b = f8E5M2, c = f8E4M3FNUZ, d = tf32, e = f80, f = f128, g = bf16, h = f6E2M3FN} : () -> ()
// -----
"foo.x"() {a = "\u00e9", b = "é", c = "\t"} : () -> ()
// -----
"foo.x"() {s = "\u00e9"} : () -> ()
// -----
"foo.x"() {a = #foo.attr<"a\22b">, b = !foo.type<{a = [1, 2]}>, c = #foo<"raw">, d = !foo.t<(i32)>} : () -> ()
// -----
"foo.x"() {a = strided<[1, ?], offset: ?>, b = strided<[]>, c = strided<[4, 1], offset: 8>} : () -> ()
// -----
"foo.x"() {a = affine_map<() -> ()>, b = affine_map<(d0)[s0, s1] -> (d0 mod 4, s0 ceildiv s1, -d0 + 2 * s0)>, c = affine_set<()[s0] : (s0 >= 0)>} : () -> ()
// -----
"foo.x"() {a = dense<[[1.5, 2.0], [3.0, 4.0]]> : tensor<2x2xf16>, b = dense<0xFF00> : tensor<2xi8>, c = dense<"0xFF00FF00"> : tensor<2xi16>, d = dense<[true, false, true]> : tensor<3xi1>} : () -> ()
// -----
"foo.x"() {a = dense<1.0> : vector<2x[4]xf32>} : () -> ()
// -----
"foo.x"() {a = dense<[1, 2]> : tensor<2xindex>, b = dense<[(1, 2), (3, 4)]> : tensor<2xcomplex<i32>>} : () -> ()
// -----
"foo.x"() {a = 1 : i32} : () -> () loc(#loc0)
#loc0 = loc(unknown)
// -----
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0) -> (d0)>
"foo.x"() {a = #map, b = #map1} : () -> ()
// -----
!a = !foo.x
!b = tuple<!a, !a>
"foo.x"() : () -> (!b, !a)
// -----
"foo.x"() : () -> (tuple<i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17>)
// -----
"foo.x"() : () -> (memref<2xf32, #foo.layout>)
// -----
"foo.x"() : () -> (memref<2xf32, #foo.layout, 1>)
// -----
"foo.x"() : () -> (memref<2xf32, 1, 2>)
// -----
"foo.x"() : () -> (memref<2xf32, "s">)
// -----
"foo.x"() : () -> (memref<2xf32, {a = 1}>)
// -----
"foo.x"() : () -> (memref<2xf32, [1]>)
// -----
"foo.x"() : () -> (memref<2xf32, affine_map<(d0) -> (d0)>, #foo.x>)
// -----
"foo.x"() : () -> (memref<*xf32, #foo.x>)
// -----
"foo.x"() : () -> (memref<2xf32, strided<[1]>, 3 : i64>)
// -----
"foo.x"() : () -> (memref<2xf32, @s>)
// -----
"foo.x"() : () -> (memref<2xf32, unit>)
// -----
"foo.x"() : () -> (memref<*xf32, affine_map<(d0) -> (d0)>>)
// -----
"foo.x"() : () -> (memref<2xf32, 1, affine_map<(d0) -> (d0)>>)
// -----
"foo.x"() : () -> (memref<*xf32, 1, 2>)
// -----
"foo.x"() : () -> (memref<2x!foo.t>)
// -----
"foo.x"() : () -> (memref<2xf32, 1 : i8>)
