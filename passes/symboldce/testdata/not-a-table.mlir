// PIPELINE: builtin.module(func.func(symbol-dce))
func.func @f() {
  return
}
