package dialect

import (
	"github.com/rlx-compiler/rlx/dialect/builtin"
	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/dialect/mps"
	"github.com/rlx-compiler/rlx/dialect/thunk"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/target"
)

// RegisterAll registers all of rlx's dialects with ctx. The mps dialect's
// verifier learns what an mps.subgraph may hold from the target layer
// (target.MPSPlaceable).
func RegisterAll(ctx *ir.Context) {
	builtin.Register(ctx)
	fn.Register(ctx)
	graph.Register(ctx)
	mps.Register(ctx, target.MPSPlaceable())
	thunk.Register(ctx)
}
