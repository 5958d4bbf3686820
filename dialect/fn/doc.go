// Package fn defines the func dialect (named fn because func is a Go
// keyword): func.func (a function, a symbol
// with an isolated body), func.return, func.call, func.call_indirect and
// func.constant, with MLIR's custom syntax and generic form.
//
// Inside a func.func the func dialect is the default, so `return` and
// `call` print and parse without the prefix, as in MLIR.
package fn
