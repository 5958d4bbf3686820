// A use that its definition does not dominate: the error names the operand
// and a note says where it is defined, in mlir-opt 19's words.
// RUN: rlx-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics

// expected-note@+1 {{operand defined as a block argument (block #1 in the same region)}}
"foo.r"() ({
^bb0:
  // expected-error@+1 {{operand #0 does not dominate this use}}
  "foo.br"(%c)[^bb1] : (i32) -> ()
^bb1(%c: i32):
  "foo.t"() : () -> ()
}) : () -> ()

// -----

func.func @f() -> i32 {
  // expected-error@+1 {{operand #0 does not dominate this use}}
  "foo.use"(%x) : (i32) -> ()
  // expected-note@+1 {{operand defined here (op in the same block)}}
  %x = "foo.c"() : () -> i32
  return %x : i32
}

// -----

func.func @f() -> i32 {
  "foo.br"()[^bb1] : () -> ()
^bb1:
  // expected-error@+1 {{operand #0 does not dominate this use}}
  "foo.use"(%x) : (i32) -> ()
  "foo.br"()[^bb2] : () -> ()
^bb2:
  // expected-note@+1 {{operand defined here (op in the same region)}}
  %x = "foo.c"() : () -> i32
  return %x : i32
}

// -----

func.func @f() -> i32 {
  "foo.br"()[^bb1] : () -> ()
^bb1:
  "foo.loop"() ({
    // expected-error@+1 {{operand #0 does not dominate this use}}
    "foo.use"(%x) : (i32) -> ()
    "foo.br"()[^bb1] : () -> ()
  ^bb1:
    "foo.t"() : () -> ()
  }) : () -> ()
  "foo.br"()[^bb2] : () -> ()
^bb2:
  // expected-note@+1 {{operand defined here (op in a parent region)}}
  %x = "foo.c"() : () -> i32
  return %x : i32
}
