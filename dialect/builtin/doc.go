// Package builtin defines the builtin dialect's ops: builtin.module, the
// top-level container of every file, and builtin.unrealized_conversion_cast,
// which stands for a value whose definition has not been seen yet while
// parsing and for type conversions in progress.
//
// The module's custom form is MLIR's: `module @name attributes {…} { … }`.
// Its region is a graph region holding one block and no terminator, and
// the module is a symbol table.
package builtin
