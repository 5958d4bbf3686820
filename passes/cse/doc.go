// Package cse is the cse pass: it eliminates common sub-expressions the
// way MLIR's CSE does.
//
// Ops are looked up in a scoped hash table keyed by their name, attributes,
// properties, result types and operands (rewrite.Hasher and
// rewrite.Equivalent, ignoring locations). Walking a region, an op that is
// free of memory effects and equivalent to an op already in scope is
// replaced by it; a trivially dead op is erased. Scopes follow dominance:
// in a single-block region the block is one scope, in a multi-block SSA
// region the dominator tree is walked depth first, and a value defined in
// a block is visible in the blocks it dominates and in the regions of
// later ops of the same block, but never inside ops that are (or, being
// unregistered, might be) isolated from above, which get a fresh table.
// Multi-block graph regions are skipped. Terminators and ops with a
// multi-block region are never eliminated; ops with single-block regions
// are eliminated when their regions are equivalent too.
package cse
