// PIPELINE: builtin.module(canonicalize)
// Constant operands fold; the tst dialect materializes the folded
// constants, which are uniqued and hoisted on the next round.
func.func @fold() -> i32 {
  %0 = "tst.const"() <{value = 1 : i32}> : () -> i32
  %1 = "tst.const"() <{value = 2 : i32}> : () -> i32
  %2 = "tst.add"(%0, %1) : (i32, i32) -> i32
  %3 = "tst.add"(%2, %1) : (i32, i32) -> i32
  %4 = "tst.const"() <{value = 6 : i32}> : () -> i32
  "tst.effect"(%3, %4) : (i32, i32) -> ()
  return %3 : i32
}
// -----
// x + 0 folds to x; a constant left operand moves right in place.
func.func @identity(%x: i32) -> (i32, i32) {
  %z = "tst.const"() <{value = 0 : i32}> : () -> i32
  %c = "tst.const"() <{value = 5 : i32}> : () -> i32
  %0 = "tst.add"(%x, %z) : (i32, i32) -> i32
  %1 = "tst.add"(%c, %x) : (i32, i32) -> i32
  return %0, %1 : i32, i32
}
// -----
// Constants in a region of an op known not to be isolated from above move
// to the function's entry block; those of an isolated op stay in it.
func.func @hoist(%x: i32) -> i32 {
  %r = "tst.region"() ({
    %c = "tst.const"() <{value = 7 : i32}> : () -> i32
    %a = "tst.add"(%x, %c) : (i32, i32) -> i32
    "tst.yield"(%a) : (i32) -> ()
  }) : () -> i32
  "tst.isolated"() ({
    %c = "tst.const"() <{value = 7 : i32}> : () -> i32
    "tst.effect"(%c) : (i32) -> ()
  }) : () -> ()
  %c2 = "tst.const"() <{value = 7 : i32}> : () -> i32
  %s = "tst.add"(%r, %c2) : (i32, i32) -> i32
  return %s : i32
}
// -----
// Folding stops where no dialect can materialize the constant: the
// unregistered foo.c is not a constant tst.add can fold.
func.func @unknown(%x: i32) -> i32 {
  %0 = "foo.c"() {value = 1 : i32} : () -> i32
  %1 = "tst.add"(%0, %x) : (i32, i32) -> i32
  return %1 : i32
}
