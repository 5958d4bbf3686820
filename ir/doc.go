// Package ir is rlx's core intermediate representation, modelled on MLIR.
//
// One generic Operation type represents every op of every dialect: it has
// a name (interned as an *OpName that points at the op's registered
// *OpDef, or nil for unregistered ops), operands, results, properties
// (inherent attributes, printed in `<{…}>`), discardable attributes,
// regions, successors and a location. Dialects describe their ops as data
// (OpDef: traits, verifier, custom parse and print hooks, folder) and
// offer thin typed views; the core knows no dialect.
//
// Regions hold Blocks in an intrusive list; blocks hold Operations in an
// intrusive list and take arguments instead of phis. Every Value keeps the
// list of its uses (OpOperand), so replacing all uses or checking for uses
// costs O(uses). Types and attributes are immutable and uniqued by the
// Context, so they compare with ==; the Context also holds the dialect
// registry and resource blobs, and there is no package-level mutable
// state, so independent Contexts can be used concurrently.
//
// Invariants: an op belongs to at most one block; its operands are set
// (Verify reports nil operands); a Value's uses are exactly the OpOperands
// that refer to it. Verify checks everything else (terminators, dominance,
// isolation, symbol tables, per-op verifiers) and returns located
// *Diagnostic errors.
//
// Printing (Print, PrintOp) produces MLIR's textual form. With
// PrintOptions.Generic the output is byte-identical to what
// `mlir-opt --mlir-print-op-generic` prints: value numbering, aliases
// (#map, #loc, …), float formatting and string escapes follow MLIR 19.
// Printing stores value numbers in the printed ops (in what would
// otherwise be padding), so numbering a large function needs no map; do
// not print the same IR, or IR another goroutine is modifying, from two
// goroutines at once.
//
// The core knows no dialect, with one exception: print_alias_upstream.go
// lists, as data, the alias names that MLIR's test and sparse_tensor
// dialects give their attributes and types. Those dialects are
// unregistered in rlx, so nothing can ask them for their aliases, and
// without the list the conformance corpus (MLIR's own tests) would print
// differently from mlir-opt. No rlx dialect relies on it.
package ir
