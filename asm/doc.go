// Package asm reads MLIR's textual format into the ir package's data
// structures.
//
// The parser is a recursive-descent reader over a lexer that produces
// tokens as byte ranges of the source. It handles the generic form of any
// op, the custom form of registered ops through their OpDef.Parse hooks
// (which receive an ir.OpAsmParser), type and attribute aliases, forward
// references to values and blocks, location aliases defined at the end of
// the file, and the `{-# … #-}` resource section. Unless
// Options.NoImplicitModule is set, top-level ops are wrapped in a
// builtin.module located at "file":0:0, as mlir-opt does.
//
// Errors never panic out of Parse: the first problem is returned as an
// *Error carrying file, line, column, the source line and a caret, worded
// like MLIR's. Nesting of regions, types and attributes is bounded
// (Options.MaxNesting) so hostile input cannot exhaust the stack.
//
// Shaped types, function signatures and attribute dictionaries repeat
// throughout large files; the parser looks them up by their source text
// before parsing them, which keeps parsing of generated models fast.
package asm
