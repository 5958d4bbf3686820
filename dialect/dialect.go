package dialect

import (
	"github.com/rlx-compiler/rlx/dialect/builtin"
	fn "github.com/rlx-compiler/rlx/dialect/func"
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/dialect/mps"
	"github.com/rlx-compiler/rlx/dialect/thunk"
	"github.com/rlx-compiler/rlx/ir"
)

// RegisterAll registers all of rlx's dialects with ctx.
func RegisterAll(ctx *ir.Context) {
	builtin.Register(ctx)
	fn.Register(ctx)
	graph.Register(ctx)
	mps.Register(ctx)
	thunk.Register(ctx)
}
