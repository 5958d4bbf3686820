// Input for print-op-stats and view-op-graph, written for rlx: nested regions,
// several blocks, block arguments, long and large attributes, strings that
// need escaping, multi-result ops and a use before its definition in a
// graph region.
func.func @f(%a: i32, %b: i32) -> i32 {
  %0 = "foo.add"(%a, %b) {attr = "a very long string attribute value here", n = 3 : i64} : (i32, i32) -> i32
  %1:2 = "foo.split"(%0) {s = "tab\09quote\22nl\0A"} : (i32) -> (i32, f32)
  %2 = "foo.region"(%1#0) ({
  ^bb0(%x: i32):
    %3 = "foo.add"(%x, %0) : (i32, i32) -> i32
    "foo.yield"(%3) : (i32) -> ()
  }) : (i32) -> i32
  "foo.br"(%2)[^bb1] : (i32) -> ()
^bb1:
  "foo.consts"() {big = dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]> : tensor<17xi32>, small = dense<[1, 2]> : tensor<2xi32>, splat = dense<1.0> : tensor<64x64xf32>, arr = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17], arr2 = [1, 2]} : () -> ()
  return %2 : i32
}
func.func private @decl(i32) -> i32
func.func @g() -> ((i32) -> i32) {
  %c = func.constant @decl : (i32) -> i32
  return %c : (i32) -> i32
}
"foo.graph_user"(%late) : (i64) -> ()
%late = "foo.late"() : () -> i64
"nodialect"() : () -> ()
