package canonicalize

import (
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/pipeline"
	"github.com/rlx-compiler/rlx/rewrite"
)

// NewInfo describes the canonicalize pass using the canonicalization
// patterns of sources (folders need no source: they come with the ops).
func NewInfo(sources ...Source) *pipeline.PassInfo {
	pi := &pipeline.PassInfo{
		Argument: "canonicalize",
		Name:     "Canonicalizer",
		Summary:  "Canonicalize operations",
		Description: "Applies the folders of the ops and the canonicalization patterns of the " +
			"dialects greedily until a fixed point, erasing dead ops and simplifying " +
			"the control flow of regions on the way, as MLIR's canonicalizer does.",
		Anchor: pipeline.AnyOp,
	}
	pi.New = func() pipeline.Pass { return &pass{info: pi, sources: sources} }
	return pi
}

type pass struct {
	info     *pipeline.PassInfo
	sources  []Source
	opts     Options
	patterns *rewrite.PatternSet
}

func (p *pass) Info() *pipeline.PassInfo { return p.info }

func (p *pass) Declare(d *pipeline.Decl) {
	d.StringList(&p.opts.DisablePatterns, "disable-patterns", nil, "Labels of patterns that should be filtered out during application")
	d.StringList(&p.opts.EnablePatterns, "enable-patterns", nil, "Labels of patterns that should be used during application, all other patterns are filtered out")
	d.Int(&p.opts.MaxIterations, "max-iterations", 10, "Max. iterations between applying patterns / simplifying regions")
	d.Int(&p.opts.MaxNumRewrites, "max-num-rewrites", -1, "Max. number of pattern rewrites within an iteration")
	d.Enum(&p.opts.RegionSimplify, "region-simplify", "normal", []pipeline.EnumValue{
		{Name: "disabled", Help: "Don't run any control-flow simplification."},
		{Name: "normal", Help: "Perform simple control-flow simplifications (e.g. dead args elimination)."},
		{Name: "aggressive", Help: "Perform aggressive control-flow simplification (e.g. block merging)."},
	}, "Perform control flow optimizations to the region tree")
	d.Bool(&p.opts.TestConvergence, "test-convergence", false, "Test only: Fail pass on non-convergence to detect cyclic pattern")
	d.Bool(&p.opts.TopDown, "top-down", true, "Seed the worklist in general top-down order")
}

// Initialize builds the pattern set once per run, before threads start.
func (p *pass) Initialize(ctx *ir.Context) error {
	if _, err := p.opts.Config(); err != nil {
		return err
	}
	p.patterns = p.opts.Patterns(ctx, p.sources)
	return nil
}

func (p *pass) Run(op *ir.Operation, _ *pipeline.AnalysisManager) error {
	patterns := p.patterns
	if patterns == nil {
		patterns = p.opts.Patterns(op.Context(), p.sources)
	}
	// Like MLIR's canonicalizer, the pass preserves no analysis: Changed
	// does not count the constants uniqued while seeding the worklist.
	_, err := Run(op, patterns, p.opts)
	return err
}
