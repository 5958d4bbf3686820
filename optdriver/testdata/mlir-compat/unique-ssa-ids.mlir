// ARGS: --mlir-print-unique-ssa-ids --allow-unregistered-dialect
// ARGS: --mlir-print-unique-ssa-ids --allow-unregistered-dialect --mlir-print-op-generic
// Unique SSA ids number values on across functions but keep the names ops
// suggest (%f for func.constant @f), made unique within a function with
// one conflict counter.
func.func @f(%x: i32) {
  %a = constant @f : (i32) -> ()
  %c = "t.c"() : () -> i32
  return
}
func.func @g(%y: i32) {
  %b = constant @f : (i32) -> ()
  %b2 = constant @f : (i32) -> ()
  %c = "t.c"() : () -> i32
  "t.r"() ({
  ^bb0(%z: i32):
    %d = "t.c"() : () -> i32
    %e = constant @f : (i32) -> ()
  }) : () -> ()
  return
}
