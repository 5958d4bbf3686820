// Package symboldce is the symbol-dce pass: it erases symbols that nothing
// references and that nothing outside can see, as MLIR's SymbolDCE does.
//
// The pass runs on a symbol-table op. A symbol is discardable when it is
// not public and either private or inside a symbol table that is hidden
// from the outside. A table is hidden when it is the top-level op, not a
// symbol, or private, or nested in a hidden table. Every op of the table
// that is not a discardable symbol is live; the symbols referenced by live
// ops (symbol references anywhere in their attributes and in the
// attributes of the ops nested in them, resolved from the enclosing table,
// each component of a nested reference counting) are live too; nested
// symbol tables are processed recursively. Dead symbols of the table and
// of nested tables are erased. References to unknown symbols are
// ignored. An unregistered op with exactly one region might be a symbol
// table whose references cannot be resolved, so the pass fails on it.
package symboldce
