// PIPELINE: builtin.module(func.func(view-op-graph{color-by=region}))
// Colours by the op holding each node: the nodes of tst.region, of
// tst.isolated and of the function each get one.
func.func @f(%x: i32) -> i32 {
  %0 = "tst.neg"(%x) : (i32) -> i32
  %1 = "tst.region"() ({
    %a = "tst.neg"(%0) : (i32) -> i32
    %b = "tst.neg"(%a) : (i32) -> i32
    "tst.yield"(%b) : (i32) -> ()
  }) : () -> i32
  "tst.isolated"() ({
  ^bb0(%y: i32):
    "tst.effect"(%y) : (i32) -> ()
  }) : () -> ()
  return %1 : i32
}
