// ARGS: --verify-roundtrip --allow-unregistered-dialect --split-input-file
// ARGS: --allow-unregistered-dialect --mlir-print-debuginfo
func.func @f(%a: i32) {
  "foo.op"() ({
  ^bb0(%b: i32):
    "foo.y"() : () -> ()
  }) : () -> ()
  return
}
