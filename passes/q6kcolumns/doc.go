// Package q6kcolumns is the q6k-columns pass (on a builtin.module, so that
// it sees every param of a name): it gives each graph.param whose every
// use ends as the packed weight of a graph.dequant_matmul reading q6_k,
// with one [n, k] for all of them, the format q6_k_c16 instead: the
// same bytes in columns of 16 weights, which the Metal GEMV reads with
// aligned loads and an x-stationary walk (codegen/metal
// dequant_columns.go). The weights binder rearranges a checkpoint's q6_k
// blocks when it loads them for such a param (runtime/weights), so a
// module keeps running on the same checkpoint and decodes the same
// values.
//
// Params are grouped by name, since a weight is bound by name: a name is
// converted only when every param op of that name qualifies. A param may
// reach its dequant_matmuls through graph.reshape, graph.gather and
// graph.slice that select whole [n, k] matrices (graph.MovesPacked), as an
// MoE block reads one expert of a stack; the binder rearranges such a
// stack matrix by matrix. Any other use (a gather of parts of matrices, a
// moved value that also goes elsewhere, a region's operand) keeps the name
// q6_k. hybrid-split clones a param into the region that
// reads it, so the pass finds the same params before and after it.
package q6kcolumns
