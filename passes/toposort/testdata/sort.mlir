// PIPELINE: builtin.module(topological-sort)
func.func @f(%x: i32) {
  "tst.graph"() ({
    "tst.effect"(%b) : (i32) -> ()
    %b = "tst.neg"(%a) : (i32) -> i32
    %a = "tst.neg"(%x) : (i32) -> i32
    %c = "tst.neg"(%d) : (i32) -> i32
    %d = "tst.neg"(%c) : (i32) -> i32
  }) : () -> ()
  return
}
