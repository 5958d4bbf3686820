// RUN: rlx-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect
// RUN: rlx-opt %s --split-input-file --verify-diagnostics=only-expected --allow-unregistered-dialect

func.func @same_line() -> i32 {
  return // expected-error {{'func.return' op has 0 operands, but enclosing function (@same_line) returns 1}}
}

// -----

func.func @relative() -> i32 {
  // expected-error@+1 {{has 0 operands}}
  return
}

// -----

func.func @below_and_above() -> i32 {
  // expected-error@below {{has 0 operands}}
  return
}

// -----

func.func @regex() -> i32 {
  return
  // expected-error-re@-1 {{has {{[0-9]+}} operands, but enclosing function (@{{[a-z_]+}}) returns 1}}
}

// -----

func.func @notes() {
  return
}
// expected-error@+2 {{redefinition of symbol named 'notes'}}
// expected-note@-4 {{see existing symbol definition here}}
func.func @notes() {
  return
}
