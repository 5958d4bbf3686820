package pipeline

import (
	"fmt"
	"strings"

	"github.com/rlx-compiler/rlx/ir"
)

// OpPassManager is a list of passes that run, in order, on ops of one
// kind: its anchor is an op name ("func.func") or AnyOp. A nested manager
// (made with Nest) runs on the ops directly inside the regions of the op
// its parent runs on, not on ops nested deeper, exactly as in MLIR.
type OpPassManager struct {
	anchor string
	passes []Pass
	err    error
}

// NewOpPassManager returns an empty manager anchored on anchor (an op
// name, or AnyOp).
func NewOpPassManager(anchor string) *OpPassManager {
	if anchor == "" {
		anchor = AnyOp
	}
	return &OpPassManager{anchor: anchor}
}

// Anchor returns the op name the manager runs on, or AnyOp.
func (pm *OpPassManager) Anchor() string { return pm.anchor }

// Passes returns the passes in order. Nested managers appear as adaptor
// passes; use Nested to look inside them.
func (pm *OpPassManager) Passes() []Pass { return pm.passes }

// Len returns the number of passes, counting a nested pipeline as one.
func (pm *OpPassManager) Len() int { return len(pm.passes) }

// Err returns the first error recorded while building the manager (for
// example a pass added under the wrong anchor). Run reports it too.
func (pm *OpPassManager) Err() error { return pm.err }

// AddPass appends p. The pass's anchor must be AnyOp or equal to the
// manager's anchor (MLIR's explicit nesting); otherwise the error is
// recorded and returned by Err and Run.
func (pm *OpPassManager) AddPass(p Pass) {
	if err := pm.checkAnchor(p); err != nil {
		if pm.err == nil {
			pm.err = err
		}
		return
	}
	pm.passes = append(pm.passes, p)
}

// AddPassImplicit appends p, first nesting a manager for the pass's
// anchor when it names a different op than this manager's (MLIR's
// implicit nesting, used by rlx-opt's pass flags such as --cse).
func (pm *OpPassManager) AddPassImplicit(p Pass) {
	a := p.Info().AnchorName()
	if a != AnyOp && a != pm.anchor {
		pm.Nest(a).AddPass(p)
		return
	}
	pm.AddPass(p)
}

func (pm *OpPassManager) checkAnchor(p Pass) error {
	if _, ok := p.(*adaptor); ok {
		return nil
	}
	a := p.Info().AnchorName()
	if a == AnyOp || pm.anchor == AnyOp || a == pm.anchor {
		return nil
	}
	return fmt.Errorf("can't add pass '%s' restricted to '%s' on a pass manager intended to run on '%s', did you intend to nest?",
		p.Info().Argument, a, pm.anchor)
}

// Nest appends a nested manager anchored on anchor and returns it.
func (pm *OpPassManager) Nest(anchor string) *OpPassManager {
	n := NewOpPassManager(anchor)
	pm.passes = append(pm.passes, &adaptor{mgrs: []*OpPassManager{n}})
	return n
}

// NestAny appends a nested manager that runs on any isolated-from-above op
// its passes can run on, and returns it.
func (pm *OpPassManager) NestAny() *OpPassManager { return pm.Nest(AnyOp) }

// Nested returns the managers held by p when p is a nested pipeline, or
// nil.
func Nested(p Pass) []*OpPassManager {
	if a, ok := p.(*adaptor); ok {
		return a.mgrs
	}
	return nil
}

// String returns the textual form of the manager, e.g.
// `builtin.module(func.func(cse,canonicalize{max-iterations=10}))`, which
// ParsePipeline reads back into an equal pipeline.
func (pm *OpPassManager) String() string {
	var sb strings.Builder
	pm.print(&sb)
	return sb.String()
}

// PassesString returns the manager's passes in the textual pipeline
// syntax without its anchor: `cse,func.func(canonicalize)`.
func (pm *OpPassManager) PassesString() string {
	var sb strings.Builder
	pm.printPasses(&sb)
	return sb.String()
}

func (pm *OpPassManager) print(sb *strings.Builder) {
	sb.WriteString(pm.anchor)
	sb.WriteByte('(')
	pm.printPasses(sb)
	sb.WriteByte(')')
}

func (pm *OpPassManager) printPasses(sb *strings.Builder) {
	for i, p := range pm.passes {
		if i > 0 {
			sb.WriteByte(',')
		}
		if a, ok := p.(*adaptor); ok {
			for j, m := range a.mgrs {
				if j > 0 {
					sb.WriteByte(',')
				}
				m.print(sb)
			}
			continue
		}
		sb.WriteString(p.Info().Argument)
		if opts := FormatOptions(p); opts != "" {
			sb.WriteByte('{')
			sb.WriteString(opts)
			sb.WriteByte('}')
		}
	}
}

// canScheduleOn reports whether every pass of the manager may run on an op
// named name (MLIR's OpPassManagerImpl::canScheduleOn).
func (pm *OpPassManager) canScheduleOn(name *ir.OpName) bool {
	if pm.anchor != AnyOp {
		return pm.anchor == name.String()
	}
	def := name.Def()
	if def == nil || def.Traits&ir.TraitIsolatedFromAbove == 0 {
		return false
	}
	for _, p := range pm.passes {
		if !passCanScheduleOn(p, name) {
			return false
		}
	}
	return true
}

func passCanScheduleOn(p Pass, name *ir.OpName) bool {
	if _, ok := p.(*adaptor); ok {
		return true
	}
	if a := p.Info().AnchorName(); a != AnyOp && a != name.String() {
		return false
	}
	if s, ok := p.(Scheduler); ok {
		return s.CanScheduleOn(name)
	}
	return true
}

// finalize checks anchors and merges adjacent nested pipelines as MLIR
// does before running (func.func(a),func.func(b) runs as func.func(a,b)).
func (pm *OpPassManager) finalize(ctx *ir.Context, nested bool) error {
	if pm.err != nil {
		return pm.err
	}
	var out []Pass
	for _, p := range pm.passes {
		a, ok := p.(*adaptor)
		if !ok {
			out = append(out, p)
			continue
		}
		if n := len(out); n > 0 {
			if prev, ok := out[n-1].(*adaptor); ok && prev.tryMerge(ctx, a) {
				continue
			}
		}
		out = append(out, a.clone())
	}
	for i, p := range out {
		if a, ok := p.(*adaptor); ok {
			a.index = i
			a.owner = nil
			if nested {
				a.owner = pm
			}
			for _, m := range a.mgrs {
				if err := m.finalize(ctx, true); err != nil {
					return err
				}
			}
		}
	}
	pm.passes = out
	return nil
}

// initialize calls Initialize on every pass that has it.
func (pm *OpPassManager) initialize(ctx *ir.Context) error {
	for _, p := range pm.passes {
		if a, ok := p.(*adaptor); ok {
			for _, m := range a.mgrs {
				if err := m.initialize(ctx); err != nil {
					return err
				}
			}
			continue
		}
		if in, ok := p.(Initializer); ok {
			if err := in.Initialize(ctx); err != nil {
				return fmt.Errorf("failed to initialize pass '%s': %w", p.Info().Argument, err)
			}
		}
	}
	return nil
}

// adaptor is the pass that runs nested managers on the ops directly inside
// the current op (MLIR's OpToOpPassAdaptor).
type adaptor struct {
	mgrs []*OpPassManager
	info *PassInfo
	// owner is the nested manager holding the adaptor (nil at top level)
	// and index its position there.
	owner *OpPassManager
	index int
}

func (a *adaptor) Info() *PassInfo {
	if a.info == nil {
		names := make([]string, len(a.mgrs))
		for i, m := range a.mgrs {
			names[i] = "'" + m.anchor + "'"
		}
		a.info = &PassInfo{Name: "Pipeline Collection : [" + strings.Join(names, ", ") + "]", Anchor: AnyOp}
	}
	return a.info
}

// Run is not used: the executor runs adaptors itself.
func (a *adaptor) Run(*ir.Operation, *AnalysisManager) error { return nil }

func (a *adaptor) clone() *adaptor { return &adaptor{mgrs: append([]*OpPassManager(nil), a.mgrs...)} }

// managerFor returns the nested manager that runs on op, or nil.
func (a *adaptor) managerFor(op *ir.Operation) *OpPassManager {
	name := op.OpName()
	for _, m := range a.mgrs {
		if m.anchor == name.String() {
			return m
		}
	}
	for _, m := range a.mgrs {
		if m.anchor == AnyOp && m.canScheduleOn(name) {
			return m
		}
	}
	return nil
}

// tryMerge merges b into a when no op could be claimed by a manager of
// both (MLIR's OpToOpPassAdaptor::tryMergeInto), keeping managers sorted
// with op-specific ones first.
func (a *adaptor) tryMerge(ctx *ir.Context, b *adaptor) bool {
	conflict := func(generic *OpPassManager, others []*OpPassManager) bool {
		for _, o := range others {
			if o.anchor == AnyOp {
				return true
			}
			if generic.canScheduleOn(ctx.OpName(o.anchor)) {
				return true
			}
		}
		return false
	}
	for _, m := range a.mgrs {
		if m.anchor == AnyOp && conflict(m, b.mgrs) {
			return false
		}
	}
	for _, m := range b.mgrs {
		if m.anchor == AnyOp && conflict(m, a.mgrs) {
			return false
		}
	}
	for _, m := range b.mgrs {
		merged := false
		for i, existing := range a.mgrs {
			if existing.anchor == m.anchor {
				a.mgrs[i] = &OpPassManager{anchor: existing.anchor, passes: append(append([]Pass(nil), existing.passes...), m.passes...)}
				merged = true
				break
			}
		}
		if !merged {
			a.mgrs = append(a.mgrs, m)
		}
	}
	sortManagers(a.mgrs)
	a.info = nil
	return true
}

func sortManagers(ms []*OpPassManager) {
	less := func(x, y *OpPassManager) bool {
		if x.anchor == AnyOp {
			return false
		}
		if y.anchor == AnyOp {
			return true
		}
		return x.anchor < y.anchor
	}
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && less(ms[j], ms[j-1]); j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}
