// ARGS: --verify-roundtrip --allow-unregistered-dialect --split-input-file
// ARGS: --allow-unregistered-dialect --mlir-print-debuginfo --mlir-pretty-debuginfo
// ARGS: --allow-unregistered-dialect --mlir-print-debuginfo
// ARGS: --allow-unregistered-dialect --mlir-print-debuginfo --mlir-pretty-debuginfo --mlir-print-op-generic
// Every kind of location, in the parseable and the pretty form.
#l = loc("n"("f.mlir":1:2))
"foo.x"() : () -> () loc(fused["a":1:2, callsite("b" at "c":3:4)])
"foo.y"() : () -> () loc(#l)
"foo.z"() : () -> () loc(unknown)
"foo.w"() : () -> () loc("nm")
"foo.x"() : () -> () loc(callsite("a":1:2 at "b":3:4))
"foo.y"() : () -> () loc(callsite("n" at callsite("m" at "c":5:6)))
"foo.z"() : () -> () loc(fused<"meta">["a":1:2])
