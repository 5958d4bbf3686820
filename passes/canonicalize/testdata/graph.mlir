// PIPELINE: builtin.module(canonicalize{region-simplify=aggressive})
// Dead cycles in graph regions and unreachable blocks go away; identical
// blocks merge.
func.func @f(%x: i32) -> i32 {
  "tst.graph"() ({
    %0 = "tst.neg"(%1) : (i32) -> i32
    %1 = "tst.neg"(%0) : (i32) -> i32
    "tst.effect"(%x) : (i32) -> ()
  }) : () -> ()
  "foo.cond_br"() [^bb1, ^bb2] : () -> ()
^bb1:
  return %x : i32
^bb2:
  return %x : i32
^bb3:
  %2 = "tst.neg"(%x) : (i32) -> i32
  return %2 : i32
}
