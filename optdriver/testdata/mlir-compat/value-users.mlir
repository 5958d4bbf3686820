// ARGS: --allow-unregistered-dialect --mlir-print-value-users
// ARGS: --allow-unregistered-dialect --mlir-print-value-users --mlir-print-op-generic
// ARGS: --allow-unregistered-dialect --mlir-print-value-users --mlir-print-local-scope --mlir-print-debuginfo
// Users comments: use-list order, ids for ops without results, block arguments.
func.func @f(%a: i32, %b: i32) -> i32 {
  %0 = "foo.x"(%a) : (i32) -> i32
  %1 = "foo.y"(%0, %a) : (i32, i32) -> i32
  %2:2 = "foo.z"(%0, %0) : (i32, i32) -> (i32, i32)
  "foo.sink"(%2#1, %0) : (i32, i32) -> ()
  "foo.br"(%1)[^bb1] : (i32) -> ()
^bb1(%c: i32):
  %3 = "foo.r"(%c) ({
  ^bb0(%d: i32):
    "foo.t"(%d, %2#0) : (i32, i32) -> ()
  }) : (i32) -> i32
  return %3 : i32
}
