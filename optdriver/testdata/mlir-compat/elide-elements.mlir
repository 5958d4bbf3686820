// ARGS: --allow-unregistered-dialect --mlir-elide-elementsattrs-if-larger=0
// ARGS: --allow-unregistered-dialect --mlir-elide-elementsattrs-if-larger=1
// ARGS: --allow-unregistered-dialect --mlir-elide-elementsattrs-if-larger=2
// Elision counts elements; splats never elide; sparse elides on its indices or values.
"foo.c"() {a = dense<1> : tensor<4xi32>, b = dense<[1, 2, 3]> : tensor<3xi32>, c = sparse<[[0], [1]], [1, 2]> : tensor<4xi32>, d = dense<["a", "b"]> : tensor<2x!foo.s>, e = dense<"x"> : tensor<3x!foo.s>, f = sparse<[[0]], [5]> : tensor<4xi32>, g = dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>} : () -> ()
