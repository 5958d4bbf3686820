package suite

import "github.com/rlx-compiler/rlx/codegen/metal/opsuite"

// SmallCases are the sizes the CPU harness runs: codegen/metal's op suite
// (package opsuite), case for case. Every op family, odd sizes that are
// not multiples of 32 or of a block, the decode case and a batch case.
func SmallCases() []Case {
	cs := opsuite.Cases()
	out := make([]Case, len(cs))
	for i, c := range cs {
		out[i] = fromOp(c)
	}
	return out
}
