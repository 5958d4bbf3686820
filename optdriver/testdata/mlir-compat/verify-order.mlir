// ARGS: --split-input-file --allow-unregistered-dialect
// Which error comes first when several ops are invalid: func.constant
// checks its symbol in op order, func.call after the other verifiers.
func.func @f() -> i322{
  %f = constant @f : () -> i32
  %0 = call_indirect %f() : () -> i32
  return %0 : i32
}

// -----
func.func @f() -> i32 {
  "t.x"() ({
    "func.return"() : () -> ()
  }) : () -> ()
  %f = constant @f : () -> i64
  %0 = "t.x"() : () -> i32
  return %0 : i32
}

// -----
func.func @f() -> i32 {
  %f = call @f() : () -> i64
  %0 = "t.x"() : () -> i64
  return %0 : i64
}

// -----
func.func @f() -> i32 {
  %0 = "t.x"() : () -> i64
  return %0 : i64
}
func.func @g() {
  %f = constant @f : () -> i64
  return
}

// -----
// An op of a registered dialect that it does not define is reported after
// the ops nested in it.
"func.funS"() <{function_type = () -> (), sym_name = "f"}> ({
  "func.return"() : () -> ()
}) : () -> ()

// -----
// The ops of non-isolated regions are verified before the isolated ops
// beside them, whatever their order: here the second op's child first.
func.func @a() {
  %f = func.constant @nope : () -> ()
  return
}
"t.x"() ({
  "func.return"() : () -> ()
}) : () -> ()

// -----
// A function's dominance comes with the function, before a later one.
func.func @a() -> i32 {
  %0 = "t.x"(%1) : (i32) -> i32
  %1 = "t.y"() : () -> i32
  return %0 : i32
}
func.func @b() {
  %f = func.constant @nope : () -> ()
  return
}

// -----
// Symbol uses are checked region by region from a worklist, the last
// region first, as MLIR's walkSymbolTable does: the second call first.
func.func @f(%c: i1) {
  "t.if"(%c) ({
    func.call @nope() : () -> ()
    "t.yield"() : () -> ()
  }, {
    func.call @nope() : () -> ()
    "t.yield"() : () -> ()
  }) : (i1) -> ()
  return
}

// -----
// An unnamed module's visibility is not checked; a named one's is.
module attributes {sym_visibility = "pri"} {
}

// -----
module @m attributes {sym_visibility = "pri"} {
}
