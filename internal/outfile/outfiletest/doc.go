// Package outfiletest checks, for a tool's tests, that the tool writes an
// output file the way package outfile does: the old file is replaced whole
// once the new one is complete, never truncated and rewritten in place.
package outfiletest
