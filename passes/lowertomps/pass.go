package lowertomps

import (
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/pipeline"
	"github.com/rlx-compiler/rlx/target"
)

// Info describes the lower-to-mps pass.
var Info = &pipeline.PassInfo{
	Argument: "lower-to-mps",
	Name:     "LowerToMPS",
	Summary:  "Lower the graph ops in mps.subgraph regions to MPSGraph primitives",
	Description: "Every graph op inside an mps.subgraph becomes one or more primitives of the mps " +
		"dialect (mps.matmul, mps.add, mps.reduce_sum, ...), each one MPSGraph method; norms, gelu, " +
		"silu, rope, attention and mean are decomposed. An op that cannot be lowered is an error " +
		"located at it. See docs/codegen-mps.md.",
	Anchor: "func.func",
	New:    func() pipeline.Pass { return &pass{} },
}

type pass struct {
	opts                     Options
	target                   string // the target option, resolved into opts.Target
	regions, graphOps, prims pipeline.Statistic
}

func (p *pass) Info() *pipeline.PassInfo { return Info }

func (p *pass) Declare(d *pipeline.Decl) {
	var targets []pipeline.EnumValue
	for _, t := range target.All() {
		targets = append(targets, pipeline.EnumValue{Name: t.Name, Help: t.Summary})
	}
	d.Enum(&p.target, "target", target.Default, targets, "The device whose MPSGraph runs the regions (what may be lowered)")
	d.Bool(&p.opts.SDPA, "sdpa", false,
		"Lower attention to MPSGraph's scaledDotProductAttention (macOS 15) instead of matmul, softmax, matmul")
	d.Stat(&p.regions, "regions", "Number of mps.subgraph regions lowered")
	d.Stat(&p.graphOps, "graph-ops", "Number of graph ops lowered")
	d.Stat(&p.prims, "primitives", "Number of MPSGraph primitives created")
}

func (p *pass) Initialize(*ir.Context) error {
	t, err := target.Lookup(p.target)
	p.opts.Target = t
	return err
}

func (p *pass) Run(op *ir.Operation, am *pipeline.AnalysisManager) error {
	st, err := Lower(op, p.opts)
	if err != nil {
		return err
	}
	if st.GraphOps == 0 {
		am.PreserveAll()
	}
	p.regions.Add(int64(st.Regions))
	p.graphOps.Add(int64(st.GraphOps))
	p.prims.Add(int64(st.Primitives))
	return nil
}
