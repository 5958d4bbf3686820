// RUN: not rlx-opt %s -p 'builtin.module(func.func(test-func-work,test-pass-failure{message=boom}))' --mlir-pass-pipeline-crash-reproducer=%t.repro.mlir 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: FileCheck %s --check-prefix=REPRO --input-file=%t.repro.mlir
// RUN: not rlx-opt %t.repro.mlir --run-reproducer 2>&1 | FileCheck %s --check-prefix=AGAIN
// RUN: not rlx-opt %s -p 'builtin.module(func.func(test-pass-crash))' --mlir-pass-pipeline-crash-reproducer=%t.crash.mlir 2>&1 | FileCheck %s --check-prefix=CRASH
// RUN: FileCheck %s --check-prefix=CRASHREPRO --input-file=%t.crash.mlir

// ERR: error: boom
// ERR: error: Failures have been detected while processing an MLIR pass pipeline
// ERR: note: Pipeline failed while executing [`TestFailurePass` on 'func.func' operation: @f]: reproducer generated at `{{.*}}.repro.mlir`

// The reproducer holds the input IR (before test-func-work ran) and the pipeline.
// REPRO: func.func @f() {
// REPRO-NOT: test.hash
// REPRO: mlir_reproducer: {
// REPRO-NEXT: pipeline: "builtin.module(func.func(test-func-work{iterations=1},test-pass-failure{message=boom}))",
// REPRO-NEXT: disable_threading: false,
// REPRO-NEXT: verify_each: true

// AGAIN: error: boom

// A panic is a located error, not a Go stack trace.
// CRASH: error: pass 'test-pass-crash' panicked on 'func.func' operation: @f: runtime error: index out of range
// CRASH-NEXT: func.func @f() { return }
// CRASH: note: panic raised at {{.*}}testpass.go
// CRASH-NOT: goroutine
// CRASHREPRO: pipeline: "builtin.module(func.func(test-pass-crash))"

func.func @f() { return }
