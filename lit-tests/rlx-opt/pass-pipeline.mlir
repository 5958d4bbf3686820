// RUN: rlx-opt %s --allow-unregistered-dialect -p 'builtin.module(func.func(test-func-work{iterations=2}),test-module-pass)' | FileCheck %s
// RUN: rlx-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(test-func-work{iterations=2}),test-module-pass)' | FileCheck %s
// RUN: rlx-opt %s --allow-unregistered-dialect --test-func-work=iterations=2 --test-module-pass | FileCheck %s

// CHECK-LABEL: func.func @f
// CHECK-SAME: attributes {test.hash = "{{[0-9a-f]+}}"}
func.func @f(%a: i32) -> i32 {
  return %a : i32
}

// Functions in a nested module are not direct children of the top-level
// module, so func.func(...) does not reach them.
// CHECK: module @inner
// CHECK-NEXT: func.func @g() {
module @inner {
  func.func @g() { return }
}
