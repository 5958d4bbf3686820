// Package rewrite changes IR through patterns, the way MLIR's
// PatternRewriter and greedy driver do.
//
// Every mutation a pattern makes goes through a Rewriter: creating ops (it
// embeds an ir.Builder), replacing and erasing ops, changing an op in
// place, moving ops and blocks. The Rewriter tells its Listener about each
// change, which is how a driver keeps its worklist right without scanning
// the IR again. A Pattern names the op it matches (or none, to match any
// op), has a benefit, and a MatchAndRewrite function that either changes
// the IR and returns true or leaves the IR untouched and returns false.
//
// ApplyPatterns is the greedy driver behind canonicalize. It seeds a
// worklist with every op of a region (top-down or bottom-up), then pops
// ops one at a time: an op that is trivially dead is erased, an op whose
// OpDef.Fold succeeds is replaced (folded constants are materialized
// through the op's dialect, ir.Dialect.Materialize), otherwise the
// patterns rooted at the op are tried by decreasing benefit. Ops touched by
// a change are pushed back. When the worklist is empty the regions are
// simplified (unreachable blocks erased, dead ops removed, and, when asked
// for, identical blocks merged), and the whole thing repeats until nothing
// changes or an iteration limit is hit. Constant ops are uniqued per
// isolated region and hoisted to the start of its entry block while the
// worklist is seeded, as MLIR's OperationFolder does. The algorithm,
// including the order in which ops are visited, follows MLIR 19 so that
// `rlx-opt --canonicalize` prints what `mlir-opt --canonicalize` prints for
// the ops both know.
//
// The package also holds the small IR queries rewriting relies on:
// whether an op is trivially dead or free of memory effects, whether a
// region has SSA dominance, and structural equivalence and hashing of ops
// (used by block merging and by the cse pass).
//
// Invariants: a pattern that returns false has not changed the IR; the
// root op of a successful pattern has been replaced, erased or modified
// through the Rewriter. Only MatchAndRewrite runs user code, and the driver
// does not hold pointers to erased ops.
package rewrite
