// ARGS: --split-input-file --allow-unregistered-dialect -p builtin.module(func.func(cse))
// ARGS: --split-input-file --allow-unregistered-dialect -p builtin.module(func.func(canonicalize))
// ARGS: --split-input-file --allow-unregistered-dialect -p builtin.module(symbol-dce)
// ARGS: --split-input-file --allow-unregistered-dialect -p builtin.module(canonicalize)
// ARGS: --split-input-file --allow-unregistered-dialect -p builtin.module(cse,symbol-dce,canonicalize)
// ARGS: --split-input-file --allow-unregistered-dialect -p builtin.module(func.func(topological-sort))
// ARGS: --split-input-file --allow-unregistered-dialect -p builtin.module(strip-debuginfo)
// ARGS: --split-input-file --allow-unregistered-dialect --mlir-print-ir-after-all --mlir-disable-threading -p builtin.module(func.func(cse),symbol-dce)
// ARGS: --split-input-file --allow-unregistered-dialect --mlir-print-ir-before=cse --mlir-print-ir-module-scope --mlir-disable-threading -p builtin.module(func.func(cse))
// ARGS: --split-input-file --allow-unregistered-dialect --mlir-print-ir-after-change --mlir-disable-threading -p builtin.module(func.func(cse,canonicalize),symbol-dce)
// ARGS: --split-input-file --allow-unregistered-dialect --mlir-print-ir-before-all --mlir-print-op-generic --mlir-disable-threading -p builtin.module(func.func(canonicalize))
// ARGS: --split-input-file --allow-unregistered-dialect --mlir-print-ir-after-all --mlir-print-debuginfo --mlir-disable-threading -p builtin.module(func.func(topological-sort))
// Passes on func-level IR with unregistered ops: same output and errors as mlir-opt-19.
func.func @f(%a: i32) -> (i32, i32) {
  %0 = "foo.pure"(%a) : (i32) -> i32
  %1 = "foo.pure"(%a) : (i32) -> i32
  return %0, %1 : i32, i32
}
// -----
func.func private @dead() {
  return
}
func.func @live() {
  return
}
func.func private @used() {
  return
}
func.func @caller() {
  func.call @used() : () -> ()
  return
}
// -----
module {
  func.func private @a() {
    func.call @b() : () -> ()
    return
  }
  func.func private @b() {
    func.call @a() : () -> ()
    return
  }
}
// -----
func.func @f() -> i32 {
  %c = func.constant @f : () -> i32
  %0 = func.call_indirect %c() : () -> i32
  return %0 : i32
}
// -----
func.func @f(%a: i32) {
  "foo.r"() ({
    %0 = "foo.x"(%a) : (i32) -> i32
    "foo.t"(%0) : (i32) -> ()
  }) : () -> ()
  return
}
// -----
module @outer {
  module @inner attributes {sym_visibility = "private"} {
    func.func private @x() { return }
  }
  func.func @g() { return }
}
