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

// LIST: ----User Time----  ----Wall Time----  ----Name----
// LIST-DAG: Pipeline Collection : ['func.func']
// LIST-DAG: (A) OpCount

func.func @f() { return }
