// PIPELINE: builtin.module(func.func(cse))
// Pure ops with single-block regions are eliminated when their regions
// are equivalent.
func.func @same(%x: i32) -> (i32, i32) {
  %0 = "tst.region"() ({
    %a = "tst.neg"(%x) : (i32) -> i32
    "tst.yield"(%a) : (i32) -> ()
  }) : () -> i32
  %1 = "tst.region"() ({
    %b = "tst.neg"(%x) : (i32) -> i32
    "tst.yield"(%b) : (i32) -> ()
  }) : () -> i32
  return %0, %1 : i32, i32
}
// -----
func.func @different_bodies(%x: i32, %y: i32) -> (i32, i32) {
  %0 = "tst.region"() ({
    %a = "tst.neg"(%x) : (i32) -> i32
    "tst.yield"(%a) : (i32) -> ()
  }) : () -> i32
  %1 = "tst.region"() ({
    %b = "tst.neg"(%y) : (i32) -> i32
    "tst.yield"(%b) : (i32) -> ()
  }) : () -> i32
  return %0, %1 : i32, i32
}
// -----
func.func @different_block_args(%x: i32) -> (i32, i32) {
  %0 = "tst.region"() ({
  ^bb0(%a: i32):
    "tst.yield"(%x) : (i32) -> ()
  }) : () -> i32
  %1 = "tst.region"() ({
  ^bb0(%a: i32, %b: i32):
    "tst.yield"(%x) : (i32) -> ()
  }) : () -> i32
  return %0, %1 : i32, i32
}
// -----
// Values of the enclosing block are visible inside tst.region (not
// isolated) but not inside tst.isolated.
func.func @scopes(%x: i32) -> i32 {
  %0 = "tst.neg"(%x) : (i32) -> i32
  %1 = "tst.region"() ({
    %a = "tst.neg"(%x) : (i32) -> i32
    "tst.yield"(%a) : (i32) -> ()
  }) : () -> i32
  "tst.isolated"() ({
  ^bb0(%y: i32):
    %b = "tst.neg"(%y) : (i32) -> i32
    %c = "tst.neg"(%y) : (i32) -> i32
    "tst.effect"(%b, %c) : (i32, i32) -> ()
  }) : () -> ()
  %2 = "tst.add"(%0, %1) : (i32, i32) -> i32
  return %2 : i32
}
// -----
// Side effects, commutative operands (not reordered, as in MLIR 19) and
// a graph region where a use comes before its definition.
func.func @misc(%x: i32, %y: i32) -> (i32, i32) {
  "tst.effect"() : () -> ()
  "tst.effect"() : () -> ()
  %0 = "tst.add"(%x, %y) : (i32, i32) -> i32
  %1 = "tst.add"(%y, %x) : (i32, i32) -> i32
  "tst.graph"() ({
    "tst.effect"(%a, %b) : (i32, i32) -> ()
    %a = "tst.neg"(%x) : (i32) -> i32
    %b = "tst.neg"(%x) : (i32) -> i32
  }) : () -> ()
  return %0, %1 : i32, i32
}
