// PIPELINE: builtin.module(print-op-stats,print-op-stats{json})
func.func @f(%x: i32) -> i32 {
  %0 = "tst.neg"(%x) : (i32) -> i32
  %1 = "tst.neg"(%0) : (i32) -> i32
  "nodot"() : () -> ()
  return %1 : i32
}
