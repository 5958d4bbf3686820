// Package affine implements MLIR's affine expressions, affine maps and
// integer sets, with the same canonical form and the same textual syntax as
// MLIR 19, so that rlx parses and prints `affine_map<…>` and `affine_set<…>`
// byte for byte like mlir-opt.
//
// An Expr is an immutable tree of DimExpr, SymbolExpr, ConstantExpr and
// BinaryExpr values. The constructors Add, Mul, FloorDiv, CeilDiv, Mod, Sub
// and Neg canonicalise as they build, exactly as MLIR's AffineExpr operators
// do: constants are folded (unless the fold would overflow or divide by
// zero), constants and symbolic operands move to the right-hand side,
// `a - b` is stored as `a + b * -1`, and a handful of local rewrites such as
// `d0 - (d0 floordiv 4) * 4` → `d0 mod 4` are applied. Because every
// expression is built through these constructors, two expressions are the
// same MLIR expression exactly when they are structurally equal, which is
// what == on Expr values tests. A BinaryExpr written as a literal bypasses
// canonicalisation; it prints and compares, but it is not what MLIR would
// have built.
//
// Map and Set are plain values: the number of dimensions and symbols and the
// result expressions or constraints. Their String methods print the body
// that appears between `affine_map<` (or `affine_set<`) and `>`, with
// dimensions named d0, d1, … and symbols s0, s1, …, in the form produced by
// MLIR's AsmPrinter: `-` for negated terms and negative constants, `-(…)`
// for negated compound expressions and parentheses only where binding
// strength requires them.
//
// ParseMap and ParseSet accept the same language as MLIR's AffineParser:
// user-chosen identifiers (any bare identifier or keyword, including `mod`
// and `floordiv`), integer literals up to 2^63-1 in decimal or hex, unary
// minus, the semi-affine rules for `*`, `floordiv`, `ceildiv` and `mod`, and
// constraints `e >= e`, `e <= e` and `e == e`, normalised to `e >= 0` and
// `e == 0`. Errors carry the byte offset into the parsed text and the
// message mlir-opt would print at that place; the parser never panics and
// rejects nesting deeper than MaxNesting instead of exhausting the stack.
//
// The package has no global mutable state; it depends only on the standard
// library.
package affine
