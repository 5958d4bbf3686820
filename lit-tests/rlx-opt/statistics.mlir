// RUN: rlx-opt %s -p 'builtin.module(func.func(test-func-work),test-module-pass)' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s
// RUN: rlx-opt %s -p 'builtin.module(func.func(test-func-work),test-module-pass)' --mlir-pass-statistics --mlir-output-format=json -o /dev/null 2>&1 | FileCheck %s --check-prefix=JSON

// CHECK: ... Pass statistics report ...
// CHECK: 'func.func' Pipeline
// CHECK-NEXT:   TestFuncWorkPass
// CHECK-NEXT:     (S) 4 num-ops - Number of ops hashed
// CHECK-NEXT: TestModulePass
// CHECK-NEXT:   (S) 2 num-top-level-ops - Number of ops directly in the module

// JSON: "name": "num-ops",
// JSON-NEXT: "value": 4,

func.func @f() { return }
func.func @g() { return }
