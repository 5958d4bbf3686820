// Malformed custom forms of the func dialect, with mlir-opt 19's messages
// and locations.
// RUN: rlx-opt %s --split-input-file --verify-diagnostics

func.func @f(%a: i32) {
  // expected-error@+1 {{custom op 'func.call' 1 operands present, but expected 2}}
  func.call @f(%a) : (i32, i32) -> ()
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{custom op 'func.call' invalid kind of type specified}}
  func.call @f(%a) : i32
  return
}

// -----

func.func @f(%a: i32) {
  %f = func.constant @f : (i32) -> ()
  // expected-error@+1 {{custom op 'func.call_indirect' invalid kind of type specified}}
  func.call_indirect %f(%a) : i32
  return
}

// -----

func.func @f(%a: i32) -> i32 {
  // expected-error@+1 {{custom op 'func.return' 1 operands present, but expected 2}}
  return %a : i32, i32
}

// -----

func.func @f(%a: i32) -> i32 {
  // The attribute dictionary comes before the operands.
  // expected-error@+1 {{expected ':'}}
  return %a {x} : i32
}

// -----

// expected-error@+1 {{expected valid '@'-identifier for symbol name}}
func.func f() {
  return
}
