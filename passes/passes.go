package passes

import (
	"github.com/rlx-compiler/rlx/passes/canonicalize"
	"github.com/rlx-compiler/rlx/passes/cse"
	"github.com/rlx-compiler/rlx/passes/hybridinline"
	"github.com/rlx-compiler/rlx/passes/hybridsplit"
	"github.com/rlx-compiler/rlx/passes/lowertomps"
	"github.com/rlx-compiler/rlx/passes/opstats"
	"github.com/rlx-compiler/rlx/passes/q6kcolumns"
	"github.com/rlx-compiler/rlx/passes/stripdebuginfo"
	"github.com/rlx-compiler/rlx/passes/symboldce"
	"github.com/rlx-compiler/rlx/passes/toposort"
	"github.com/rlx-compiler/rlx/passes/viewopgraph"
	"github.com/rlx-compiler/rlx/pipeline"
)

// All returns every pass rlx has, in the order --help lists them.
func All() []*pipeline.PassInfo {
	return []*pipeline.PassInfo{
		canonicalize.NewInfo(canonicalize.Sources()...),
		cse.Info,
		hybridinline.Info,
		hybridsplit.Info,
		lowertomps.Info,
		opstats.Info,
		q6kcolumns.Info,
		stripdebuginfo.Info,
		symboldce.Info,
		toposort.Info,
		viewopgraph.Info,
	}
}
