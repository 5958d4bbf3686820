// IR that does not verify prints in the generic form, unless
// --mlir-print-assume-verified says to trust it (as in mlir-opt).
// RUN: rlx-opt %s -p 'builtin.module(func.func(test-pass-create-invalid-ir))' --verify-each=false | FileCheck %s --check-prefix=GENERIC
// RUN: rlx-opt %s -p 'builtin.module(func.func(test-pass-create-invalid-ir))' --verify-each=false --mlir-print-assume-verified | FileCheck %s --check-prefix=CUSTOM
// The pass lists of the IR printing flags must name registered passes.
// RUN: not rlx-opt %s --mlir-print-ir-after=nonexistent-pass 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// GENERIC: "func.func"() <{function_type = () -> (), sym_name = "f"}> ({
// GENERIC-NEXT: "func.return"() : () -> ()
// GENERIC-NEXT: "func.return"() : () -> ()

// CUSTOM: func.func @f() {
// CUSTOM-NEXT: return
// CUSTOM-NEXT: return

// UNKNOWN: rlx-opt: for the --mlir-print-ir-after option: Cannot find option named 'nonexistent-pass'!
func.func @f() {
  return
}
