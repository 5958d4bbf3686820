// ARGS: --allow-unregistered-dialect --mlir-print-debuginfo
// An empty fused location is the unknown location, or with metadata,
// fused over it.
"t.x"() : () -> () loc(fused<"m">[])
"t.y"() : () -> () loc(fused[])
