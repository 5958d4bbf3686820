package q6kcolumns

import (
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/pipeline"
)

// Info describes the q6k-columns pass.
var Info = &pipeline.PassInfo{
	Argument: "q6k-columns",
	Name:     "Q6KColumns",
	Summary:  "Read q6_k weights used only by dequant_matmuls as q6_k_c16, the Metal GEMV's columns",
	Anchor:   "builtin.module",
	New:      func() pipeline.Pass { return pass{} },
}

type pass struct{}

func (pass) Info() *pipeline.PassInfo { return Info }

func (pass) Run(op *ir.Operation, _ *pipeline.AnalysisManager) error {
	Run(op)
	return nil
}
