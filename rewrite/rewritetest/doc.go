// Package rewritetest defines "tst", a small dialect for testing pattern
// rewriting and the passes built on it: constants with a folder and a
// materializer, foldable arithmetic, canonicalization patterns (including
// a pair that never converges), pure region ops, an isolated op, a graph
// region op and an op with side effects. It is meant for tests only.
package rewritetest
