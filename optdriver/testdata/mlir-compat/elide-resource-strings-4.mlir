// ARGS: --allow-unregistered-dialect --mlir-elide-resource-strings-if-larger=4
// Resource entries printed longer than the limit are left out, as in mlir-opt.
"foo.x"() {a = dense_resource<blob1> : tensor<2xi8>} : () -> ()
{-# dialect_resources: { builtin: { blob1: "0x0100000001FF" } }, external_resources: { foo: { s: "long string here", b: true } } #-}
