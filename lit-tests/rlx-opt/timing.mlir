// RUN: rlx-opt %s -p 'builtin.module(func.func(test-analysis),test-module-pass)' --mlir-timing --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s
// RUN: rlx-opt %s -p 'builtin.module(func.func(test-analysis),test-module-pass)' --mlir-timing --mlir-timing-display=list -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIST

// CHECK: ... Execution time report ...
// CHECK: Total Execution Time: {{[0-9.]+}} seconds
// CHECK: ----Wall Time----  ----Name----
// CHECK-NEXT: Parser
// CHECK-NEXT: 'func.func' Pipeline
// CHECK-NEXT:   TestAnalysisPass
// CHECK-NEXT:     (A) OpCount
// CHECK-NEXT: TestModulePass
// CHECK-NEXT: Output
// CHECK-NEXT: Rest
// CHECK-NEXT: Total

// The user-time column shows only when other threads did work (one function
// here); the list starts with the root timer, as in mlir-opt.
// LIST: ----Wall Time----  ----Name----
// LIST-NEXT: (100.0%)  root
// LIST-DAG: Pipeline Collection : ['func.func']
// LIST-DAG: (A) OpCount

func.func @f() { return }
