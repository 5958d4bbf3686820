package cse

import (
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/pipeline"
)

// Info describes the cse pass.
var Info = &pipeline.PassInfo{
	Argument: "cse",
	Name:     "CSE",
	Summary:  "Eliminate common sub-expressions",
	Description: "Replaces each side-effect-free op by an equivalent op that dominates it " +
		"and erases trivially dead ops, as MLIR's CSE does.",
	Anchor: pipeline.AnyOp,
	New:    func() pipeline.Pass { return &pass{} },
}

type pass struct {
	numCSE, numDCE pipeline.Statistic
}

func (p *pass) Info() *pipeline.PassInfo { return Info }

func (p *pass) Declare(d *pipeline.Decl) {
	d.Stat(&p.numCSE, "num-cse'd", "Number of operations CSE'd")
	d.Stat(&p.numDCE, "num-dce'd", "Number of operations DCE'd")
}

// Dominance is the DominanceInfo analysis: the dominator trees of an op's
// regions, built as CSE needs them. Like MLIR's CSE, the pass asks for it
// up front (so --mlir-timing shows it) and keeps it, since removing ops
// leaves the blocks as they were.
var Dominance = pipeline.NewAnalysis("DominanceInfo", func(*ir.Operation, *pipeline.AnalysisManager) *ir.Dominance {
	return ir.NewDominance()
})

func (p *pass) Run(op *ir.Operation, am *pipeline.AnalysisManager) error {
	st := run(op, Dominance.Get(am))
	p.numCSE.Add(int64(st.CSE))
	p.numDCE.Add(int64(st.DCE))
	if st.CSE == 0 && st.DCE == 0 {
		am.PreserveAll()
	} else {
		am.Preserve(Dominance)
	}
	return nil
}
