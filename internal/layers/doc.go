// Package layers holds no code: its test checks the import rules of
// docs/architecture.md on the non-test files of every package, so that a
// layer reaching upward (the graph dialect into the target layer, one
// dialect into a sibling, anything into tools/) fails go test.
package layers
