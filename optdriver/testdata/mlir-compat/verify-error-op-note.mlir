// ARGS: --mlir-print-debuginfo
func.func @f() -> i32 {
  "func.return"() : () -> ()
}
