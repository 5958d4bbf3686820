// ARGS: --split-input-file=//=== --output-split-marker=//~~~
func.func @a() {
  return
}
//===
func.func @b() {
  return
}
