// Package posixre implements the regular-expression dialect that LLVM's
// FileCheck accepts inside {{...}} and [[NAME:...]]: POSIX extended regular
// expressions as parsed by LLVM's copy of Henry Spencer's regcomp, always
// compiled with REG_NEWLINE.
//
// The parser reproduces regcomp's grammar and its error messages exactly
// ("parentheses not balanced", "repetition-operator operand invalid", ...),
// including the LLVM extension that allows back-references \1 to \9 in
// extended expressions and the [[:<:]] / [[:>:]] word-boundary kludges. A
// backslash before any other character makes that character literal, so \t
// is the letter t and \. is a dot.
//
// Matching follows POSIX leftmost-longest rules, on bytes. Expressions
// that Go's regexp package can represent are translated to Go syntax and
// run on its linear-time engine; to make that engine count bytes as regexec
// does, every byte >= 0x80 is spelled as a rune of its own, both in the
// expression and in the searched Text. The rest (back-references and the
// word-boundary kludges) run on a small backtracking matcher over bytes,
// guarded by a Go-regexp prefilter that accepts a superset of the language.
// Plain strings skip both engines. REG_ICASE folds ASCII letters only, as
// regexec does in the C locale.
//
// One difference from regexec remains: when several longest matches split
// differently among groups, Go's engine chooses the split by its own rule.
package posixre
