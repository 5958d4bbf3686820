// ARGS: --verify-diagnostics
func.func @c() -> i32 {
  // expected-error-re@+1 {{has {{[0-9]+}} operands, but enclosing function (@{{.*}}) returns 1}}
  return
}
func.func @c() -> i32 { // expected-error {{redefinition of symbol named 'c'}}
  return // expected-note@-6 {{see existing symbol definition here}}
}
