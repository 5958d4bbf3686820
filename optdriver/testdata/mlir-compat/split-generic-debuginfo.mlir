// ARGS: --split-input-file --mlir-print-debuginfo --mlir-print-op-generic
func.func @a() {
  return
}
// -----
func.func @b() -> () {
  return
}
