package metal_test

import "github.com/rlx-compiler/rlx/codegen/metal/opsuite"

// opCases is the op suite (package opsuite) as the harness's cases.
func opCases() []opCase {
	cs := opsuite.Cases()
	out := make([]opCase, len(cs))
	for i, c := range cs {
		out[i] = opCase{name: c.Name, args: c.Args, body: c.Body, yield: c.Yield, results: c.Results, limit: c.Limit}
	}
	return out
}

// NMSE limits of the codegen, as the op suite states them.
const (
	limitExact  = opsuite.LimitExact
	limitMatmul = opsuite.LimitMatmul
	limitF16    = opsuite.LimitF16
)
