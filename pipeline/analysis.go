package pipeline

import (
	"sync"
	"sync/atomic"

	"github.com/rlx-compiler/rlx/ir"
)

// AnalysisID identifies an analysis kind; *Analysis[T] implements it.
type AnalysisID interface {
	AnalysisName() string
}

// Analysis is a kind of analysis: a name (shown in timing reports as
// "(A) Name") and a function computing it for an op. Declare one as a
// package-level variable and use it as the key:
//
//	var Liveness = pipeline.NewAnalysis("Liveness", computeLiveness)
//	lv := Liveness.Get(am)
//
// Results are computed lazily, cached per op, and dropped after a pass
// unless the pass preserves them.
type Analysis[T any] struct {
	name    string
	compute func(op *ir.Operation, am *AnalysisManager) T
}

// NewAnalysis declares an analysis kind.
func NewAnalysis[T any](name string, compute func(op *ir.Operation, am *AnalysisManager) T) *Analysis[T] {
	return &Analysis[T]{name: name, compute: compute}
}

// AnalysisName returns the analysis's name.
func (a *Analysis[T]) AnalysisName() string { return a.name }

// Get returns the analysis of am's op, computing and caching it if needed.
func (a *Analysis[T]) Get(am *AnalysisManager) T {
	am.mu.Lock()
	if v, ok := am.cache[a]; ok {
		am.mu.Unlock()
		return v.(T)
	}
	am.mu.Unlock()
	ev := am.exec.beforeAnalysis(a.name, am)
	v := a.compute(am.op, am)
	am.exec.afterAnalysis(ev)
	am.mu.Lock()
	if am.cache == nil {
		am.cache = map[AnalysisID]any{}
	}
	am.cache[a] = v
	am.mu.Unlock()
	return v
}

// Cached returns the analysis of am's op if it is cached.
func (a *Analysis[T]) Cached(am *AnalysisManager) (T, bool) {
	am.mu.Lock()
	defer am.mu.Unlock()
	v, ok := am.cache[a]
	if !ok {
		var zero T
		return zero, false
	}
	return v.(T), true
}

// CachedParent returns the analysis of the nearest enclosing op that has
// it cached. Passes may read, but never compute, analyses of their
// parents, since siblings may run concurrently.
func (a *Analysis[T]) CachedParent(am *AnalysisManager) (T, bool) {
	for p := am.parent; p != nil; p = p.parent {
		if v, ok := a.Cached(p); ok {
			return v, true
		}
	}
	var zero T
	return zero, false
}

// Child returns the analysis of child, an op nested in am's op, computing
// and caching it in child's own manager.
func (a *Analysis[T]) Child(am *AnalysisManager, child *ir.Operation) T {
	return a.Get(am.Nest(child))
}

// Invalidator may be implemented by analysis results that decide for
// themselves whether they survive a pass (MLIR's isInvalidated): the
// result is kept when Invalidated returns false.
type Invalidator interface {
	Invalidated(p *Preserved) bool
}

// Preserved is the set of analyses a pass declared preserved.
type Preserved struct {
	all bool
	ids map[AnalysisID]bool
}

// All reports whether every analysis was preserved.
func (p *Preserved) All() bool { return p.all }

// Has reports whether id was preserved.
func (p *Preserved) Has(id AnalysisID) bool { return p.all || p.ids[id] }

// AnalysisManager caches analyses of one op and of the ops nested in it,
// and records which analyses the running pass preserves. Each op the pass
// manager visits gets its own manager, nested in its parent's.
type AnalysisManager struct {
	op     *ir.Operation
	parent *AnalysisManager
	exec   *executor

	mu       sync.Mutex
	cache    map[AnalysisID]any
	children map[*ir.Operation]*AnalysisManager

	preserved Preserved
	// cur is the event of the pass running on op; item is the parallel
	// work item op belongs to (nil when running sequentially).
	cur  *PassEvent
	item *runItem
	// dirty records that a pass on a nested op changed it (did not
	// preserve all analyses) during the current nested pipeline run.
	dirty atomic.Bool
}

func newAnalysisManager(op *ir.Operation, parent *AnalysisManager, ex *executor) *AnalysisManager {
	return &AnalysisManager{op: op, parent: parent, exec: ex}
}

// Op returns the op this manager belongs to.
func (am *AnalysisManager) Op() *ir.Operation { return am.op }

// Nest returns the manager of child, an op nested in am's op.
func (am *AnalysisManager) Nest(child *ir.Operation) *AnalysisManager {
	am.mu.Lock()
	defer am.mu.Unlock()
	if c := am.children[child]; c != nil {
		return c
	}
	if am.children == nil {
		am.children = map[*ir.Operation]*AnalysisManager{}
	}
	c := newAnalysisManager(child, am, am.exec)
	am.children[child] = c
	return c
}

// PreserveAll marks every analysis preserved: the pass changed nothing
// that analyses depend on. It also skips the verifier after the pass.
func (am *AnalysisManager) PreserveAll() { am.preserved.all = true }

// Preserve marks the given analyses preserved.
func (am *AnalysisManager) Preserve(ids ...AnalysisID) {
	if am.preserved.ids == nil {
		am.preserved.ids = map[AnalysisID]bool{}
	}
	for _, id := range ids {
		am.preserved.ids[id] = true
	}
}

// RunPipeline runs a pass manager on op, which must be am's op or nested
// in it (MLIR's dynamic pass pipelines). The nested run uses the same
// instrumentation and verification settings as the enclosing one.
func (am *AnalysisManager) RunPipeline(pm *OpPassManager, op *ir.Operation) error {
	target := am
	if op != am.op {
		target = am.Nest(op)
	}
	if err := pm.finalize(op.Context(), true); err != nil {
		return err
	}
	if err := pm.initialize(op.Context()); err != nil {
		return err
	}
	return am.exec.runPipeline(pm, op, target, am.exec.itemOf(am), nil)
}

func (am *AnalysisManager) resetPreserved() { am.preserved = Preserved{} }

// invalidate drops every cached analysis (here and in nested managers)
// that p does not preserve.
func (am *AnalysisManager) invalidate(p *Preserved) {
	if p.all {
		return
	}
	am.mu.Lock()
	defer am.mu.Unlock()
	for id, v := range am.cache {
		if p.ids[id] {
			continue
		}
		if inv, ok := v.(Invalidator); ok && !inv.Invalidated(p) {
			continue
		}
		delete(am.cache, id)
	}
	for _, c := range am.children {
		c.invalidate(p)
	}
}

// forget drops child's manager once a nested pipeline is done with it.
func (am *AnalysisManager) forget(child *ir.Operation) {
	am.mu.Lock()
	delete(am.children, child)
	am.mu.Unlock()
}
