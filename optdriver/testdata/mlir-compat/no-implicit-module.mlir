// ARGS: --verify-roundtrip --no-implicit-module
// ARGS: --no-implicit-module
func.func @f() {
  return
}
