// ARGS: --split-input-file --allow-unregistered-dialect --verify-diagnostics
// expected-* directives, regex forms included, judged as mlir-opt-19 judges them.
// expected-error@+1 {{custom op}}
func.func @f() { retur }
// -----
// expected-error@+1 {{nope}}
func.func @f() { retur }
// -----
func.func @f() { return }
// expected-error {{never}}
// -----
// expected-error@+2 {{is unknown}}
func.func @f() {
  retur
}
// -----
// expected-error-re@+1 {{custom op {{.*}} is unknown}}
func.func @f() { retur }
// -----
// expected-error@+1 {{unknown}}
// expected-note@+1 {{never}}
func.func @f() { retur }
// -----
func.func @f() {
  "foo.x"() : () -> ()
  // expected-error@above {{x}}
  return
}
// -----
// expected-error@+1 {{one}} {{two}}
func.func @f() { retur }
// -----
// expected-error@+1 {{}}
func.func @f() { retur }
// -----
// expected-error@-1 {{x}}
func.func @f() { return }
// -----
// expected-error@+100 {{x}}
func.func @f() { return }
// -----
// expected-error-re@+1 {{custom op {{[}} is unknown}}
func.func @f() { retur }
// -----
// expected-remark@+1 {{x}}
func.func @f() { return }
// -----
// expected-error@+1 {{redefinition of symbol named}}
func.func @f() { return }
// expected-note@-2 {{see existing symbol definition here}}
func.func @f() { return }
// -----
// expected-error-re@+1 {{custom op {{\w+}} is unknown}}
func.func @f() { retur }
// -----
// expected-error-re@+1 {{custom op {{[a-z]+}} is (unknown|known)}}
func.func @f() { retur }
// -----
// expected-error-re@+1 {{custom op {{.*}} (tried {{.*}} as well)}}
func.func @f() { retur }
