// Package passes lists every pass rlx has. Each pass lives in its own
// package, with its logic as plain functions over *ir.Operation (usable
// without a pass manager) and a pipeline.PassInfo that wraps them:
//
//	canonicalize      folders and canonicalization patterns to a fixed point
//	cse               common sub-expression elimination
//	print-op-stats    the "Operations encountered:" table (or JSON)
//	strip-debuginfo   every location becomes loc(unknown)
//	symbol-dce        erase unreferenced invisible symbols
//	topological-sort  order graph regions by their def-use edges
//	view-op-graph     Graphviz DOT of an op
//
// Tools register them with pipeline.NewRegistry(passes.All()...). The
// options, defaults and output formats are MLIR's; docs/passes/ describes
// each pass.
package passes

import (
	"github.com/rlx-compiler/rlx/passes/canonicalize"
	"github.com/rlx-compiler/rlx/passes/cse"
	"github.com/rlx-compiler/rlx/passes/hybridinline"
	"github.com/rlx-compiler/rlx/passes/hybridsplit"
	"github.com/rlx-compiler/rlx/passes/opstats"
	"github.com/rlx-compiler/rlx/passes/stripdebuginfo"
	"github.com/rlx-compiler/rlx/passes/symboldce"
	"github.com/rlx-compiler/rlx/passes/toposort"
	"github.com/rlx-compiler/rlx/passes/viewopgraph"
	"github.com/rlx-compiler/rlx/pipeline"
)

// All returns every pass rlx has, in the order --help lists them.
func All() []*pipeline.PassInfo {
	return []*pipeline.PassInfo{
		canonicalize.NewInfo(canonicalize.Sources...),
		cse.Info,
		hybridinline.Info,
		hybridsplit.Info,
		opstats.Info,
		stripdebuginfo.Info,
		symboldce.Info,
		toposort.Info,
		viewopgraph.Info,
	}
}
