// PIPELINE: builtin.module(strip-debuginfo)
// PRINT: debuginfo
func.func @f(%a: i32 loc("arg")) -> i32 {
  %0 = "tst.neg"(%a) : (i32) -> i32 loc(fused["x", "y.c":1:2])
  "tst.isolated"() ({
  ^bb0(%b: i32 loc("inner")):
    "tst.effect"(%b) : (i32) -> () loc("e")
  }) : () -> () loc("iso")
  return %0 : i32 loc(callsite("a" at "b":3:4))
} loc("f.mlir":1:1)
