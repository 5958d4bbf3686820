// Forward references, as mlir-opt-19 handles them (optdriver's
// testdata/mlir-compat/forward-refs.mlir checks the same against it):
// every unresolved one is its own error, in source order; a type that
// differs from the definition's is reported at the definition.
// RUN: rlx-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics
// RUN: not rlx-opt %s --allow-unregistered-dialect --split-input-file 2>&1 | FileCheck %s

// CHECK: :[[@LINE+5]]:10: error: use of undeclared SSA value name
// CHECK: :[[@LINE+4]]:22: error: use of undeclared SSA value name
// CHECK: :[[@LINE+5]]:10: error: use of undeclared SSA value name
// CHECK-NOT: error
// expected-error @+1 {{use of undeclared SSA value name}}
"foo.op"(%x#7, %x#1, %x#99999999) : (i32, i32, i32) -> ()
// expected-error @+1 {{use of undeclared SSA value name}}
"foo.op"(%x#5) : (i32) -> ()
%x:2 = "foo.op"() : () -> (i32, i32)

// -----

// CHECK: :{{[0-9]+}}:5: error: definition of SSA value '%x#0' has type 'i32'
// CHECK: :{{[0-9]+}}:16: note: previously used here with type 'f32'
// expected-note @+1 {{previously used here with type 'f32'}}
"foo.op"(%x#1, %x#0) : (i32, f32) -> ()
// expected-error @+1 {{definition of SSA value '%x#0' has type 'i32'}}
%y, %x:2 = "foo.op"() : () -> (i32, i32, i32)
