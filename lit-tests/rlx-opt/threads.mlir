// Nested pipelines run on sibling functions in parallel; everything printed
// must be the same as in a sequential run.
// RUN: rlx-opt %s -p 'builtin.module(func.func(test-func-work,test-emit-diag{severity=warning}))' --mlir-print-ir-after-all --mlir-pass-statistics > %t.threads 2>&1
// RUN: rlx-opt %s -p 'builtin.module(func.func(test-func-work,test-emit-diag{severity=warning}))' --mlir-print-ir-after-all --mlir-pass-statistics --mlir-disable-threading > %t.seq 2>&1
// RUN: diff %t.threads %t.seq
// RUN: FileCheck %s --input-file=%t.threads

// CHECK: warning: test diagnostic on @f1
// CHECK: warning: test diagnostic on @f2
// CHECK: warning: test diagnostic on @f3
// CHECK: warning: test diagnostic on @f4

func.func @f1() { return }
func.func @f2() { return }
func.func @f3() { return }
func.func @f4() { return }
