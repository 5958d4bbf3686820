// Package golden checks a table that a test measures against its
// committed copy under testdata/ and against the doc that quotes it, so
// that a number in the docs cannot drift from what the tests measure.
package golden
