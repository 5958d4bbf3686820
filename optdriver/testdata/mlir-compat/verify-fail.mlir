// ARGS: --split-input-file --verify-diagnostics
// expected-error@+2 {{has 0 operandz}}
func.func @c() -> i32 {
  return
}

// -----

func.func @d() -> i32 {
  // expected-warning @below {{has 0 operands}}
  return
}

// -----
// expected-remark@-1 {{nothing}}
func.func @ok() {
  return
}

// -----
func.func @e() -> i32 {
  // expected-error@+1 {{enclosing function (@e)}}
  return
}
// expected-error@above {{nothing above}}
// expected-error@below {{dangling below}}
