package opstats

import (
	"io"
	"os"
	"sync"

	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/pipeline"
)

// Info describes the print-op-stats pass, which writes to stderr.
var Info = NewInfo(os.Stderr)

// NewInfo describes a print-op-stats pass that writes to w (an embedding
// program's own stream; rlx-opt uses Info, which writes to stderr).
func NewInfo(w io.Writer) *pipeline.PassInfo {
	pi := &pipeline.PassInfo{
		Argument: "print-op-stats",
		Name:     "PrintOpStats",
		Summary:  "Print statistics of operations",
		Anchor:   "builtin.module",
	}
	var mu sync.Mutex
	pi.New = func() pipeline.Pass { return &pass{info: pi, w: w, mu: &mu} }
	return pi
}

type pass struct {
	info   *pipeline.PassInfo
	w      io.Writer
	mu     *sync.Mutex
	asJSON bool
}

func (p *pass) Info() *pipeline.PassInfo { return p.info }

func (p *pass) Declare(d *pipeline.Decl) {
	d.Bool(&p.asJSON, "json", false, "print the stats as JSON")
}

func (p *pass) Run(op *ir.Operation, am *pipeline.AnalysisManager) error {
	am.PreserveAll()
	p.mu.Lock()
	defer p.mu.Unlock()
	return Write(p.w, op, p.asJSON)
}
