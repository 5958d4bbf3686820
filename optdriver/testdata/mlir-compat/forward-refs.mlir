// ARGS: --allow-unregistered-dialect --split-input-file --mlir-print-op-generic
// ARGS: --allow-unregistered-dialect --split-input-file --verify-diagnostics
// Forward references: resolved out of order and in any number; errors for
// a type that differs from the definition's (at the definition, with a
// note at the use) and for references no definition binds (every one, in
// source order, at the end of the scope). (asm's TestParseLargeValueNumber
// has numbers too large to give mlir-opt: it sizes a vector by them.)

"foo.use"(%x#11, %x#3, %x#9, %x#0, %x#7, %x#1, %x#10, %x#2, %x#8, %x#4, %x#6, %x#5, %x#3) : (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) -> ()
%x:12 = "foo.def"() : () -> (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)

// -----

// expected-note @+1 {{previously used here with type 'f32'}}
"foo.op"(%x#1, %x#0) : (i32, f32) -> ()
// expected-error @+1 {{definition of SSA value '%x#0' has type 'i32'}}
%y, %x:2 = "foo.op"() : () -> (i32, i32, i32)

// -----

// One error per line: an expected-error matches the first expectation
// of its line only, in both tools.
// expected-error @+1 {{use of undeclared SSA value name}}
"foo.op"(%x#7, %x#1) : (i32, i32) -> ()
// expected-error @+1 {{use of undeclared SSA value name}}
"foo.op"(%x#5) : (i32) -> ()
%x:2 = "foo.op"() : () -> (i32, i32)

// -----

// expected-error @+1 {{use of undeclared SSA value name}}
"foo.op"(%x#99999) : (i32) -> ()
%x:2 = "foo.op"() : () -> (i32, i32)
