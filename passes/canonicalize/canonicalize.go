package canonicalize

import (
	"fmt"

	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/rewrite"
)

// Source returns canonicalization patterns for the ops of one dialect.
type Source func(ctx *ir.Context) []*rewrite.Pattern

// Options are the pass options, with MLIR's names and defaults.
type Options struct {
	// TopDown seeds the worklist in program order (top-down=true).
	TopDown bool
	// MaxIterations bounds the rounds (max-iterations=10); -1 means none.
	MaxIterations int
	// MaxNumRewrites bounds the pattern applications per round
	// (max-num-rewrites=-1, no limit).
	MaxNumRewrites int
	// RegionSimplify is "disabled", "normal" (the default) or "aggressive"
	// (region-simplify=normal).
	RegionSimplify string
	// TestConvergence makes the pass fail when it does not converge
	// (test-convergence=false).
	TestConvergence bool
	// EnablePatterns, when not empty, keeps only the patterns with one of
	// these names or labels (enable-patterns).
	EnablePatterns []string
	// DisablePatterns drops the patterns with one of these names or
	// labels (disable-patterns).
	DisablePatterns []string
}

// DefaultOptions returns the options mlir-opt's canonicalize uses by
// default.
func DefaultOptions() Options {
	return Options{TopDown: true, MaxIterations: 10, MaxNumRewrites: -1, RegionSimplify: "normal"}
}

// Config turns options into a driver configuration.
func (o Options) Config() (rewrite.Config, error) {
	cfg := rewrite.DefaultConfig()
	cfg.TopDown = o.TopDown
	cfg.MaxIterations = o.MaxIterations
	cfg.MaxNumRewrites = o.MaxNumRewrites
	if cfg.MaxIterations < 0 {
		cfg.MaxIterations = rewrite.NoLimit
	}
	if cfg.MaxNumRewrites < 0 {
		cfg.MaxNumRewrites = rewrite.NoLimit
	}
	switch o.RegionSimplify {
	case "disabled":
		cfg.RegionSimplify = rewrite.SimplifyDisabled
	case "normal", "":
		cfg.RegionSimplify = rewrite.SimplifyNormal
	case "aggressive":
		cfg.RegionSimplify = rewrite.SimplifyAggressive
	default:
		return cfg, fmt.Errorf("region-simplify: invalid value %q (expected disabled, normal or aggressive)", o.RegionSimplify)
	}
	return cfg, nil
}

// Patterns collects the patterns of sources for ctx and applies the
// enable/disable filters of o.
func (o Options) Patterns(ctx *ir.Context, sources []Source) *rewrite.PatternSet {
	var all []*rewrite.Pattern
	for _, s := range sources {
		all = append(all, s(ctx)...)
	}
	return rewrite.NewPatternSet(all...).Filter(o.EnablePatterns, o.DisablePatterns)
}

// Run canonicalizes the ops nested in op with patterns. It fails only
// with TestConvergence set, when the driver did not reach a fixed point.
func Run(op *ir.Operation, patterns *rewrite.PatternSet, o Options) (rewrite.Result, error) {
	cfg, err := o.Config()
	if err != nil {
		return rewrite.Result{}, err
	}
	res := rewrite.ApplyPatterns(op, patterns, cfg)
	if o.TestConvergence && !res.Converged {
		return res, ir.OpError(op, "canonicalizer failed to converge")
	}
	return res, nil
}
