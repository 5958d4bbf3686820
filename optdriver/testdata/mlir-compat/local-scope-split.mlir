// ARGS: --split-input-file --mlir-print-debuginfo --mlir-print-local-scope
func.func @f(%a: i32) {
  return
}
// -----
func.func @g() {
  return
}
