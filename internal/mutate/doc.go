// Package mutate makes small, seeded mutations of MLIR text for
// differential tests of parsers: a byte replaced, a byte inserted, a token
// deleted or a token duplicated. The same seed always gives the same
// mutant, so a difference found by a test can be reproduced from its seed
// alone.
//
// Tokens are cut by a lexer that knows MLIR's token classes roughly
// (identifiers, SSA and block names, symbols, aliases, numbers, strings,
// punctuation, `->`, `...`, `{-#`, `#-}`); it never fails, so it also
// tokenises text that is already broken. Replacement and inserted bytes are
// drawn mostly from MLIR's punctuation, digits and letters, sometimes from
// whitespace, and rarely from bytes MLIR never accepts (NUL, DEL, bytes
// over 0x7f), which is where lexers go wrong.
package mutate
