// PIPELINE: builtin.module(canonicalize)
// Patterns: x*1 → x and -(-x) → x; dead ops left behind are erased.
func.func @patterns(%x: i32) -> (i32, i32) {
  %one = "tst.const"() <{value = 1 : i32}> : () -> i32
  %0 = "tst.mul"(%x, %one) : (i32, i32) -> i32
  %1 = "tst.neg"(%x) : (i32) -> i32
  %2 = "tst.neg"(%1) : (i32) -> i32
  %3 = "tst.neg"(%2) : (i32) -> i32
  %4 = "tst.neg"(%3) : (i32) -> i32
  return %0, %4 : i32, i32
}
