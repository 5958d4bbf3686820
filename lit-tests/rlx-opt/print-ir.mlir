// RUN: rlx-opt %s -p 'builtin.module(func.func(test-func-work,test-options),test-module-pass)' --mlir-print-ir-before=test-func-work --mlir-print-ir-after=test-module-pass -o /dev/null 2>&1 | FileCheck %s
// RUN: rlx-opt %s -p 'builtin.module(func.func(test-func-work,test-options),test-module-pass)' --mlir-print-ir-after-all --mlir-print-ir-after-change -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHANGE
// RUN: rlx-opt %s -p 'builtin.module(func.func(test-func-work))' --mlir-print-ir-after-all --mlir-print-ir-module-scope -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCOPE
// RUN: not rlx-opt %s -p 'builtin.module(func.func(test-pass-create-invalid-ir))' --mlir-print-ir-after-failure -o /dev/null 2>&1 | FileCheck %s --check-prefix=FAIL

// CHECK: // -----// IR Dump Before TestFuncWorkPass (test-func-work) //----- //
// CHECK-NEXT: func.func @f() {
// CHECK: // -----// IR Dump Before TestFuncWorkPass (test-func-work) //----- //
// CHECK-NEXT: func.func @g() {
// CHECK: // -----// IR Dump After TestModulePass (test-module-pass) //----- //
// CHECK-NEXT: module {
// CHECK-NOT: IR Dump

// test-options changes nothing, so only test-func-work's dumps remain.
// CHANGE-COUNT-2: IR Dump After TestFuncWorkPass (test-func-work)
// CHANGE-NOT: IR Dump

// SCOPE: // -----// IR Dump After TestFuncWorkPass (test-func-work) ('func.func' operation: @f) //----- //
// SCOPE-NEXT: module {

// FAIL: // -----// IR Dump After TestInvalidIRPass Failed (test-pass-create-invalid-ir) //----- //
// FAIL-NEXT: "func.func"()

func.func @f() { return }
func.func @g() { return }
