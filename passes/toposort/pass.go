package toposort

import (
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/pipeline"
)

// Info describes the topological-sort pass.
var Info = &pipeline.PassInfo{
	Argument: "topological-sort",
	Name:     "TopologicalSort",
	Summary:  "Sort regions without SSA dominance in topological order",
	Description: "Reorders the ops of graph regions so that every op comes after the ops " +
		"defining its operands where cycles allow, as MLIR's topological-sort does.",
	Anchor: pipeline.AnyOp,
	New:    func() pipeline.Pass { return pass{} },
}

type pass struct{}

func (pass) Info() *pipeline.PassInfo { return Info }

func (pass) Run(op *ir.Operation, _ *pipeline.AnalysisManager) error {
	Run(op)
	return nil
}
