// RUN: not rlx-opt %s --split-input-file 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR --input-file=%t.err
// RUN: rlx-opt %s --split-input-file --output-split-marker='// ====' --verify-diagnostics | FileCheck %s --check-prefix=MARK

// CHECK: func.func @a
// CHECK-NEXT: return
// CHECK: {{^}}}{{$}}
// CHECK-EMPTY:
// CHECK-NEXT: // {{-----}}
// CHECK-NEXT: // {{-----}}
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @c

// MARK: // ====
// MARK-NEXT: // ====
// MARK-NEXT: module {

// ERR: within split at {{.*}}split-input-file.mlir:{{[0-9]+}} offset :3:3: error: 'func.return' op has 0 operands, but enclosing function (@b) returns 1
// ERR-NEXT: {{^}}  return //
// ERR-NEXT: {{^}}  ^{{$}}
// ERR-NEXT: note: see current operation: "func.return"() : () -> ()

func.func @a() {
  return
}
// -----
func.func @b() -> i32 {
  return // expected-error {{has 0 operands}}
}
// -----
func.func @c() {
  return
}
