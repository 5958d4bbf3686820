// Package graph defines the graph dialect, rlx's input dialect: one
// value-semantics tensor op per ML operation (GRAPH_DIALECT.md). A model is
// a func.func whose arguments are the run-time inputs, whose weights are
// graph.param ops and whose body is graph ops ending in func.return.
//
// Every op is described by one row of a table (ops.go): name, operands,
// inherent attributes with their kinds and defaults, operand and result
// counts, the shape rule, a custom-form example and the folder. Dialect
// builds the ir.OpDefs from the table, and the docs
// (docs/dialects/graph.md) are generated from the same rows, so neither can
// drift from the verifier. The dialect is target-neutral: which ops a
// device runs through MPSGraph is the target layer's knowledge (package
// target), not this package's.
//
// Invariants the verifier establishes, which passes and the interpreter
// may rely on: every operand and result is a ranked tensor of f32, f16,
// bf16, i32, i64, i1, i8 or ui8; every inherent attribute has its kind and
// enum values are known; axes are in range; and every result type is
// compatible with the one the shape rule infers (a dynamic dim `?` on
// either side matches anything). InferResultTypes runs the same rules
// without looking at the results, for builders.
//
// Every graph op but the leaves has one custom form:
//
//	%0 = graph.add %a, %b : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
//	%1 = graph.rms_norm %0, %w {epsilon = 1.0e-06 : f32} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
//	%o:2 = graph.gated_delta_net %q, %k, %v, %g, %b : (…) -> (tensor<…>, tensor<…>)
//
// with inherent and discardable attributes together in the dictionary
// after the operands. The leaves read `graph.param "l0.wq" : tensor<64x64xf32>`
// and, as MLIR's arith.constant, `graph.constant dense<1.0> : tensor<4xf32>`.
//
// Typed views (MatMul, Attention, …; AsMatMul(op)) give named access to
// operands, results and attributes, with defaults applied and axes
// normalised. The package holds no mutable state: Dialect returns new
// definitions on each call, and the only package-level values are lookup
// indexes built once from the tables and never changed.
package graph

//go:generate go test -run TestGraphDoc -update
