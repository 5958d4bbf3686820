// RUN: not rlx-opt %s --split-input-file --verify-diagnostics 2>&1 | FileCheck %s

// CHECK: offset :[[#LINE:]]:3: error: unexpected error: 'func.return' op has 0 operands
// CHECK: offset :[[#LINE-1]]:6: error: expected error "has 1 operands" was not produced
// CHECK-NEXT: {{^}}  // expected-{{error}}@+1
// CHECK-NEXT: {{^}}     ^~~~~~~~~~~~~~{{$}}
func.func @wrong_text() -> i32 {
  // expected-error@+1 {{has 1 operands}}
  return
}

// -----

// CHECK: offset :{{[0-9]+}}:6: error: 'error' diagnostic emitted when expecting a 'warning'
func.func @wrong_severity() -> i32 {
  // expected-warning@+1 {{has 0 operands}}
  return
}

// -----

// CHECK: offset :{{[0-9]+}}:13: error: malformed expected diagnostic directive
func.func @malformed() -> i32 {
  return // expected-error {{has 0 operands}} and then some
}
