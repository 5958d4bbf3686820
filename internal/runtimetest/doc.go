// Package runtimetest holds what the tests of the runtime's plans,
// backends and AOT output share: the model graphs they plan and run, split
// by hybrid-split, with the original function kept for comparison.
package runtimetest
