package viewopgraph

import (
	"io"
	"os"
	"sync"

	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/pipeline"
)

// Info describes the view-op-graph pass, which writes to stderr.
var Info = NewInfo(os.Stderr)

// NewInfo describes a view-op-graph pass that writes to w.
func NewInfo(w io.Writer) *pipeline.PassInfo {
	pi := &pipeline.PassInfo{
		Argument: "view-op-graph",
		Name:     "ViewOpGraph",
		Summary:  "Print Graphviz visualization of an operation",
		Description: "Writes a Graphviz DOT graph of the op (one per function when nested " +
			"under func.func) in the format of MLIR's view-op-graph.",
		Anchor: pipeline.AnyOp,
	}
	var mu sync.Mutex
	pi.New = func() pipeline.Pass { return &pass{info: pi, w: w, mu: &mu} }
	return pi
}

type pass struct {
	info *pipeline.PassInfo
	w    io.Writer
	mu   *sync.Mutex
	opts Options
}

func (p *pass) Info() *pipeline.PassInfo { return p.info }

func (p *pass) Declare(d *pipeline.Decl) {
	d.Enum(&p.opts.ColorBy, "color-by", "op", []pipeline.EnumValue{
		{Name: "op", Help: "One colour per op name, as MLIR does."},
		{Name: "region", Help: "One colour per name of the op whose region holds the node (mps.subgraph, thunk.call, …)."},
	}, "What the fill colour of a node depends on")
	d.Uint(&p.opts.MaxLabelLen, "max-label-len", 20, "Limit attribute/type length to number of chars")
	d.Bool(&p.opts.PrintAttrs, "print-attrs", true, "Print attributes of operations")
	d.Bool(&p.opts.PrintControlFlowEdges, "print-control-flow-edges", false, "Print control flow edges")
	d.Bool(&p.opts.PrintDataFlowEdges, "print-data-flow-edges", true, "Print data flow edges")
	d.Bool(&p.opts.PrintResultTypes, "print-result-types", true, "Print result types of operations")
}

func (p *pass) Run(op *ir.Operation, am *pipeline.AnalysisManager) error {
	am.PreserveAll()
	p.mu.Lock()
	defer p.mu.Unlock()
	return Write(p.w, op, p.opts)
}
