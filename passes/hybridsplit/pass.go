package hybridsplit

import (
	"fmt"
	"sync"

	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/pipeline"
	"github.com/rlx-compiler/rlx/target"
)

// Info describes the hybrid-split pass.
var Info = &pipeline.PassInfo{
	Argument: "hybrid-split",
	Name:     "HybridSplit",
	Summary:  "Partition a function of graph ops into mps.subgraph and thunk.call regions",
	Description: "Places every compute op of the function in an mps.subgraph (run by MPSGraph) " +
		"or a thunk.call (native kernels), with the fewest regions a dependency-respecting " +
		"alternating sequence can have (mode=dependency), or as RLX's original hybrid plan " +
		"did (mode=seed). Leaves are cloned into the regions that use them. See docs/hybrid-split.md.",
	Anchor: "func.func",
	New:    func() pipeline.Pass { return &pass{mu: new(sync.Mutex)} },
}

type pass struct {
	opts   Options
	native map[string]bool
	target string // the target option, resolved into opts.Target

	mpsRegions, thunkRegions pipeline.Statistic
	mpsOps, thunkOps         pipeline.Statistic
	coverage                 pipeline.Statistic
	boundaryValues           pipeline.Statistic
	boundaryBytes            pipeline.Statistic
	mu                       *sync.Mutex // orders updates of coverage
}

func (p *pass) Info() *pipeline.PassInfo { return Info }

func (p *pass) Declare(d *pipeline.Decl) {
	d.Enum((*string)(&p.opts.Mode), "mode", string(ModeDependency), []pipeline.EnumValue{
		{Name: string(ModeDependency), Help: "Follow dependencies: two-ready-set waves, fewest regions"},
		{Name: string(ModeSeed), Help: "RLX's original algorithm: contiguous runs cut at split points"},
	}, "The partitioning algorithm")
	var targets []pipeline.EnumValue
	for _, t := range target.All() {
		targets = append(targets, pipeline.EnumValue{Name: t.Name, Help: t.Summary})
	}
	d.Enum(&p.target, "target", target.Default, targets, "The device: what runs through MPSGraph, where native regions run")
	d.StringList(&p.opts.NativeOps, "native-ops", nil, "Ops that always stay native (graph.softmax,...)")
	d.Check("native-ops", func() error {
		_, err := nativeSet(p.opts.NativeOps)
		return err
	})
	d.Int(&p.opts.MinSubgraphOps, "min-subgraph-ops", 1, "An MPS region with fewer compute ops is made native")
	d.Check("min-subgraph-ops", func() error {
		if p.opts.MinSubgraphOps < 0 {
			return fmt.Errorf("'%d' is negative: give a count of compute ops, 0 or more", p.opts.MinSubgraphOps)
		}
		return nil
	})
	d.Bool(&p.opts.Explain, "explain", false, "Emit a remark on every op kept native, saying why")
	d.Stat(&p.mpsRegions, "mps-regions", "Number of mps.subgraph regions")
	d.Stat(&p.thunkRegions, "thunk-regions", "Number of thunk.call regions")
	d.Stat(&p.mpsOps, "mps-ops", "Number of compute ops in mps.subgraph regions")
	d.Stat(&p.thunkOps, "thunk-ops", "Number of compute ops in thunk.call regions")
	d.Stat(&p.coverage, "mps-coverage-percent", "Compute ops in MPS regions per 100 compute ops")
	d.Stat(&p.boundaryValues, "boundary-values", "Number of values that cross a region boundary")
	d.Stat(&p.boundaryBytes, "boundary-bytes", "Bytes of the values that cross a region boundary")
}

func (p *pass) Initialize(*ir.Context) error {
	t, err := target.Lookup(p.target)
	if err != nil {
		return err
	}
	p.opts.Target = t
	set, err := NativeSet(p.opts.NativeOps)
	p.native = set
	return err
}

func (p *pass) Run(op *ir.Operation, am *pipeline.AnalysisManager) error {
	res, err := split(op, p.opts, p.native)
	if err != nil {
		return err
	}
	if res.MPSRegions+res.ThunkRegions == 0 {
		am.PreserveAll()
		return nil
	}
	p.mpsRegions.Add(int64(res.MPSRegions))
	p.thunkRegions.Add(int64(res.ThunkRegions))
	p.boundaryValues.Add(int64(res.BoundaryValues))
	p.boundaryBytes.Add(res.BoundaryBytes)
	p.mu.Lock()
	m := p.mpsOps.Value() + int64(res.MPSOps)
	t := p.thunkOps.Value() + int64(res.ThunkOps)
	p.mpsOps.Add(int64(res.MPSOps))
	p.thunkOps.Add(int64(res.ThunkOps))
	p.coverage.Reset()
	p.coverage.Add(100 * m / (m + t))
	p.mu.Unlock()
	return nil
}
