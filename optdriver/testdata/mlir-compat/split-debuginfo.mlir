// ARGS: --split-input-file --mlir-print-debuginfo
func.func @a() {
  return
}
// -----
func.func @b() {
  return
}
