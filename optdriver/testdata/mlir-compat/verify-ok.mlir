// ARGS: --split-input-file --verify-diagnostics
func.func @c() -> i32 {
  // expected-error@+2 {{has 0 operands}}
  // expected-error@+1 {{returns 1}}
  return
}

// -----

func.func @d() -> i32 {
  // expected-error @below {{has 0 operands, but enclosing function (@d) returns 1}}
  return
}

// -----

func.func @e() -> i32 {
  return // expected-error-re {{has {{[0-9]+}} operands}}
}

// -----

func.func @f() -> i32 {
  return
  // expected-error@-1 {{enclosing function}}
}

// -----

func.func @g() -> i32 {
  return
  // expected-error@above {{returns 1}}
  // expected-error@above {{has 0 operands}}
}

// -----

func.func @h(%x: i32) {
  %0 = "foo.bar"(%x) : (i32) -> i32 // expected-error {{unregistered dialect}}
  return
}
