package stripdebuginfo

import (
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/pipeline"
)

// Info describes the strip-debuginfo pass.
var Info = &pipeline.PassInfo{
	Argument: "strip-debuginfo",
	Name:     "StripDebugInfo",
	Summary:  "Strip debug info from all operations",
	Anchor:   pipeline.AnyOp,
	New:      func() pipeline.Pass { return pass{} },
}

type pass struct{}

func (pass) Info() *pipeline.PassInfo { return Info }

func (pass) Run(op *ir.Operation, _ *pipeline.AnalysisManager) error {
	Run(op)
	return nil
}
