// Package suggest picks the "did you mean" candidate for a misspelt flag,
// pass or option name.
package suggest
