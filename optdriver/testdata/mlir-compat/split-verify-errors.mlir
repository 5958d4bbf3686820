// ARGS: --split-input-file
func.func @a() {
  return
}

// -----
func.func @c() -> i32 {
  return
}
// -----

"builtin.module"() ({
  func.func @d() { return }
}) : () -> ()
