package symboldce

import (
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/pipeline"
)

// Info describes the symbol-dce pass.
var Info = &pipeline.PassInfo{
	Argument: "symbol-dce",
	Name:     "SymbolDCE",
	Summary:  "Eliminate dead symbols",
	Description: "Erases the symbols of a symbol table (and of the tables nested in it) " +
		"that are not referenced and not visible from outside, as MLIR's SymbolDCE does.",
	Anchor: pipeline.AnyOp,
	New:    func() pipeline.Pass { return &pass{} },
}

type pass struct {
	numDCE pipeline.Statistic
}

func (p *pass) Info() *pipeline.PassInfo { return Info }

func (p *pass) Declare(d *pipeline.Decl) {
	d.Stat(&p.numDCE, "num-dce'd", "Number of symbols DCE'd")
}

func (p *pass) Run(op *ir.Operation, am *pipeline.AnalysisManager) error {
	n, err := Run(op)
	p.numDCE.Add(int64(n))
	if err == nil && n == 0 {
		am.PreserveAll()
	}
	return err
}
