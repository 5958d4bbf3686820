// How to write and register a pass
//
// A pass is a value that implements Pass: Info describes it (the same
// *PassInfo for every instance) and Run transforms one op. Options and
// statistics are declared by an optional Declare method that binds them to
// the pass's fields, much like flag.FlagSet binds flags to variables:
//
//	type cse struct {
//		maxDepth int
//		numCSE   pipeline.Statistic
//	}
//
//	var CSEInfo = &pipeline.PassInfo{
//		Argument: "cse",
//		Name:     "CSE",
//		Summary:  "Eliminate common sub-expressions",
//		Anchor:   pipeline.AnyOp, // or "func.func", "builtin.module", …
//		New:      func() pipeline.Pass { return &cse{} },
//	}
//
//	func (p *cse) Info() *pipeline.PassInfo { return CSEInfo }
//
//	func (p *cse) Declare(d *pipeline.Decl) {
//		d.Int(&p.maxDepth, "max-depth", 8, "Maximum region depth to look into")
//		d.Stat(&p.numCSE, "num-cse'd", "Number of operations CSE'd")
//	}
//
//	func (p *cse) Run(op *ir.Operation, am *pipeline.AnalysisManager) error {
//		dom := Dominance.Get(am) // analyses are cached per op
//		…
//		p.numCSE.Add(n)
//		am.Preserve(Dominance) // everything else is invalidated
//		return nil
//	}
//
// Rules:
//
//   - Run may be called concurrently on different sibling ops (the pass
//     manager runs isolated-from-above ops in parallel). Keep per-run state
//     in local variables; the pass value holds configuration only, and
//     statistics are atomic counters. Run may change op and everything
//     nested in it, and op's own attributes, but nothing outside op.
//   - Run reports failure by returning an error. An *ir.Diagnostic (for
//     example from ir.OpError) or ir.Diagnostics is reported as is; any
//     other error is reported at op's location; ErrReported means the pass
//     has already emitted its diagnostics through the context. A panic in
//     Run is caught, turned into an error and a crash reproducer.
//   - After Run every analysis not marked preserved is dropped, and (with
//     verify-each, the default) op is verified unless the pass preserved
//     all analyses.
//   - Initialize(ctx) (optional, interface Initializer) runs once per
//     pipeline run, before any thread starts: build pattern sets there.
//
// Registration is explicit: a tool collects PassInfo values in a list (rlx's
// own is passes.All()) and feeds them to NewRegistry. There is no init()
// registration. PassInfo.New must return an instance whose option fields
// may be zero: the registry assigns the declared defaults before parsing
// the textual options.

package pipeline

import (
	"errors"
	"sync/atomic"

	"github.com/rlx-compiler/rlx/ir"
)

// AnyOp is the anchor of passes and pass managers that run on any op.
const AnyOp = "any"

// Pass is one transformation (or analysis-only pass) that runs on a single
// op. See the top of this file for the contract.
type Pass interface {
	// Info returns the static description of the pass.
	Info() *PassInfo
	// Run runs the pass on op. It may be called concurrently for
	// different ops.
	Run(op *ir.Operation, am *AnalysisManager) error
}

// Declarer is implemented by passes that have options or statistics.
// Declare is called on each new instance; it binds every option and
// statistic to a field of the pass.
type Declarer interface {
	Declare(d *Decl)
}

// Initializer is implemented by passes that need to prepare state once per
// run of a pipeline, before any op is processed (and before threads
// start). Initialize sees the final option values.
type Initializer interface {
	Initialize(ctx *ir.Context) error
}

// Scheduler is implemented by passes that restrict, beyond their anchor,
// the ops they can run on (MLIR's canScheduleOn). It is consulted when a
// pass is added under an `any` pass manager, for each op that manager
// visits: a manager whose passes cannot all run on an op skips it.
type Scheduler interface {
	CanScheduleOn(name *ir.OpName) bool
}

// PassInfo describes a pass: its command-line argument, its display name,
// its documentation, its anchor and how to create an instance. One
// PassInfo is shared by all instances of a pass.
type PassInfo struct {
	// Argument is the name used in textual pipelines and as the rlx-opt
	// flag: "cse", "canonicalize", "hybrid-split".
	Argument string
	// Name is the display name used in IR dumps and reports ("CSE",
	// "Canonicalizer"); empty means Argument.
	Name string
	// Summary is a one-line description shown by --help and --list-passes.
	Summary string
	// Description is the longer documentation (may be empty).
	Description string
	// Anchor is the op name the pass runs on ("func.func",
	// "builtin.module"), or AnyOp (or empty) for a pass that runs on any op.
	Anchor string
	// New returns a fresh instance. Its option fields need not hold their
	// defaults: NewPass assigns them from Declare.
	New func() Pass
}

// DisplayName returns Name, or Argument when Name is empty.
func (pi *PassInfo) DisplayName() string {
	if pi.Name != "" {
		return pi.Name
	}
	return pi.Argument
}

// AnchorName returns the anchor with "" normalized to AnyOp.
func (pi *PassInfo) AnchorName() string {
	if pi.Anchor == "" {
		return AnyOp
	}
	return pi.Anchor
}

// PipelineInfo describes a named pass pipeline (MLIR's
// PassPipelineRegistration): a name usable in textual pipelines and as an
// rlx-opt flag that expands to passes.
type PipelineInfo struct {
	Argument string
	Summary  string
	// Build adds the pipeline's passes to pm, which is the pass manager the
	// name appears in.
	Build func(pm *OpPassManager) error
}

// NewPass creates an instance of the pass described by pi with every
// declared option set to its default.
func NewPass(pi *PassInfo) Pass {
	p := pi.New()
	if dp, ok := p.(Declarer); ok {
		d := &Decl{assign: true}
		dp.Declare(d)
	}
	return p
}

// ErrReported is returned by a pass that has already emitted its
// diagnostics through the context and only needs to signal failure.
var ErrReported = errors.New("pass failed (diagnostics already reported)")

// Statistic is a counter a pass updates while it runs; rlx-opt reports it
// with --mlir-pass-statistics. It is safe for concurrent use. Statistics
// are always on, in every build.
type Statistic struct{ n atomic.Int64 }

// Add adds n (not negative) to the counter. The counter saturates at
// math.MaxInt64 rather than wrap around: a statistic that large reports
// the largest value it can hold.
func (s *Statistic) Add(n int64) {
	for {
		old := s.n.Load()
		if s.n.CompareAndSwap(old, ir.SaturatingAdd(old, n)) {
			return
		}
	}
}

// Inc adds one to the counter.
func (s *Statistic) Inc() { s.Add(1) }

// Value returns the current count.
func (s *Statistic) Value() int64 { return s.n.Load() }

// Reset sets the counter to zero.
func (s *Statistic) Reset() { s.n.Store(0) }
