// ARGS: --no-implicit-module
func.func @f() {
  return
}
