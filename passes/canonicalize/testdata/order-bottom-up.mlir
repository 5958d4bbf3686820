// PIPELINE: builtin.module(canonicalize{top-down=false})
// Bottom-up seeding (compare order-top-down.mlir).
func.func @order(%x: i32) -> (i32, i32, i32) {
  "tst.effect"() : () -> ()
  %a = "tst.const"() <{value = 1 : i32}> : () -> i32
  %b = "tst.const"() <{value = 2 : i32}> : () -> i32
  "tst.effect"() : () -> ()
  %c = "tst.const"() <{value = 3 : i32}> : () -> i32
  return %c, %b, %a : i32, i32, i32
}
