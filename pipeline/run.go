package pipeline

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"

	"github.com/rlx-compiler/rlx/internal/outfile"
	"github.com/rlx-compiler/rlx/ir"
)

// PassManager is the top-level manager: an OpPassManager plus the settings
// of a run (verification, threading, instrumentation, crash reproducer).
type PassManager struct {
	root *OpPassManager
	ctx  *ir.Context

	// VerifyEach verifies the op after every pass (on by default), except
	// after passes that preserved all analyses.
	VerifyEach bool
	// DisableThreading runs nested pipelines on sibling ops one after the
	// other instead of in parallel.
	DisableThreading bool
	// MaxWorkers bounds the goroutines of a parallel section; 0 means
	// runtime.GOMAXPROCS(0).
	MaxWorkers int

	instr []Instrumentation
	repro *reproConfig
}

type reproConfig struct {
	path  string
	print ir.PrintOptions
	local bool
	out   func(path string) (io.WriteCloser, error)
}

// New returns an empty pass manager anchored on anchor (usually
// "builtin.module").
func New(ctx *ir.Context, anchor string) *PassManager {
	return &PassManager{root: NewOpPassManager(anchor), ctx: ctx, VerifyEach: true}
}

// NewWith returns a pass manager that runs opm (from Parse, or built by
// hand), anchored where opm is.
func NewWith(ctx *ir.Context, opm *OpPassManager) *PassManager {
	return &PassManager{root: opm, ctx: ctx, VerifyEach: true}
}

// SetPipeline makes opm (from Parse, or built by hand) the passes the
// manager runs, in place of those it had. opm must be anchored where the
// manager is.
func (pm *PassManager) SetPipeline(opm *OpPassManager) error {
	if opm.Anchor() != pm.root.Anchor() {
		return fmt.Errorf("pipeline anchored on '%s' cannot run on '%s'", opm.Anchor(), pm.root.Anchor())
	}
	pm.root = opm
	return nil
}

// Pipeline returns the passes the manager runs: its top-level op pass
// manager, which ReportStatistics reads.
func (pm *PassManager) Pipeline() *OpPassManager { return pm.root }

// Anchor returns the name of the op the manager runs on.
func (pm *PassManager) Anchor() string { return pm.root.Anchor() }

// AddPass adds p at the top level (see OpPassManager.AddPass).
func (pm *PassManager) AddPass(p Pass) { pm.root.AddPass(p) }

// AddPassImplicit adds p, nesting it under its anchor if needed (see
// OpPassManager.AddPassImplicit).
func (pm *PassManager) AddPassImplicit(p Pass) { pm.root.AddPassImplicit(p) }

// Nest returns the nested pass manager for ops named anchor (see
// OpPassManager.Nest).
func (pm *PassManager) Nest(anchor string) *OpPassManager { return pm.root.Nest(anchor) }

// NestAny returns the nested pass manager for any op.
func (pm *PassManager) NestAny() *OpPassManager { return pm.root.NestAny() }

// Len returns the number of passes at the top level.
func (pm *PassManager) Len() int { return pm.root.Len() }

// Err returns the first error of building the pipeline.
func (pm *PassManager) Err() error { return pm.root.Err() }

// String returns the pipeline as text, which Parse reads back.
func (pm *PassManager) String() string { return pm.root.String() }

// Context returns the context the manager was made for.
func (pm *PassManager) Context() *ir.Context { return pm.ctx }

// AddInstrumentation adds an instrumentation to every later run.
func (pm *PassManager) AddInstrumentation(in Instrumentation) { pm.instr = append(pm.instr, in) }

// EnableCrashReproducer makes a failing or crashing run write a
// reproducer to path: the input IR, printed with print, followed by the
// pipeline and run settings in an `external_resources` section that
// rlx-opt --run-reproducer (and mlir-opt) replays.
func (pm *PassManager) EnableCrashReproducer(path string, print ir.PrintOptions) {
	pm.repro = &reproConfig{path: path, print: print}
}

// EnableLocalCrashReproducer is EnableCrashReproducer, except that the
// reproducer holds the IR just before the failing pass and a pipeline with
// only that pass (mlir-opt's --mlir-pass-pipeline-local-reproducer). It
// snapshots the IR before every pass, so it is slow, and it turns
// threading off for the run.
func (pm *PassManager) EnableLocalCrashReproducer(path string, print ir.PrintOptions) {
	pm.repro = &reproConfig{path: path, print: print, local: true}
}

// Failure is the error returned by Run when the pipeline fails. The
// diagnostics have also been emitted through the context.
type Failure struct {
	// Pass is the argument of the pass that failed ("" when the pipeline
	// failed before any pass ran).
	Pass string
	// Op is the op it failed on.
	Op *ir.Operation
	// Diags are the error diagnostics reported by the run.
	Diags ir.Diagnostics
	// Panic is the recovered value when the pass panicked.
	Panic any
	// Reproducer is the path of the reproducer written, if any.
	Reproducer string
}

func (f *Failure) Error() string {
	if len(f.Diags) > 0 {
		return f.Diags.Error()
	}
	if f.Pass != "" {
		return fmt.Sprintf("pass '%s' failed", f.Pass)
	}
	return "pass pipeline failed"
}

// Run runs the pipeline on op. Diagnostics are emitted through the
// context's handlers; the returned *Failure also carries the errors.
func (pm *PassManager) Run(op *ir.Operation) error {
	text := pm.String()
	if err := pm.root.finalize(pm.ctx, false); err != nil {
		return err
	}
	ex := &executor{ctx: pm.ctx, instr: pm.instr, verifyEach: pm.VerifyEach, workers: 1}
	if !pm.DisableThreading && (pm.repro == nil || !pm.repro.local) && !pm.needsSequential() {
		ex.workers = pm.MaxWorkers
		if ex.workers <= 0 {
			ex.workers = runtime.GOMAXPROCS(0)
		}
	}
	if pm.root.anchor != AnyOp && op.Name() != pm.root.anchor {
		d := ir.NewError(op.Loc(), "can't run '%s' pass manager on '%s' op", pm.root.anchor, op.Name())
		ex.emit(nil, d)
		return &Failure{Op: op, Diags: ex.reported}
	}
	if err := pm.root.initialize(pm.ctx); err != nil {
		ex.emit(nil, ir.NewError(op.Loc(), "%v", err))
		return &Failure{Op: op, Diags: ex.reported}
	}
	var pre *ir.Operation
	if pm.repro != nil {
		if pm.repro.local {
			ex.snapshot = op
		} else {
			pre = op.Clone(ir.NewValueMap())
		}
	}
	am := newAnalysisManager(op, nil, ex)
	err := ex.runPipeline(pm.root, op, am, nil, nil)
	if err == nil {
		return nil
	}
	f := &Failure{Op: op}
	var pf *passFailure
	if errors.As(err, &pf) {
		f.Pass, f.Op, f.Panic = pf.pass.Info().Argument, pf.op, pf.panicVal
	}
	if pm.repro != nil {
		r := &Reproducer{Pipeline: text, DisableThreading: pm.DisableThreading, VerifyEach: pm.VerifyEach}
		if pm.repro.local && pf != nil && ex.before != nil && Nested(pf.pass) == nil {
			pre = ex.before
			r.Pipeline = localPipeline(pf.pass, pf.op)
			r.DisableThreading = true
		}
		if pre == nil {
			// A local reproducer without a snapshot of the failing pass (the
			// failure was in the pass manager itself): the IR as it is now.
			pre = op
		}
		werr := r.writeFile(pm.repro, pre)
		// As mlir-opt does, a failure is reported at the op the failing
		// pass ran on and a crash at the root; a local reproducer names
		// the one pass, without brackets.
		loc := op.Loc()
		what := "Pipeline failed while executing"
		if pf != nil {
			if pf.panicVal == nil {
				loc = pf.op.Loc()
			}
			running := "`" + pf.pass.Info().DisplayName() + "` on " + describeOp(pf.op)
			if pm.repro.local {
				what += " " + running
			} else {
				what += " [" + running + "]"
			}
		}
		d := ir.NewError(loc, "Failures have been detected while processing an MLIR pass pipeline")
		if werr != nil {
			d.AttachNote(loc, fmt.Sprintf("%s: failed to write reproducer to `%s`: %v", what, pm.repro.path, werr))
		} else {
			d.AttachNote(loc, fmt.Sprintf("%s: reproducer generated at `%s`", what, pm.repro.path))
			f.Reproducer = pm.repro.path
		}
		ex.emit(nil, d)
	}
	f.Diags = ex.reported
	return f
}

// needsSequential reports whether an instrumentation prints whole
// modules, which siblings running in parallel would change underneath it.
func (pm *PassManager) needsSequential() bool {
	for _, in := range pm.instr {
		if p, ok := in.(*irPrinter); ok && p.cfg.ModuleScope {
			return true
		}
	}
	return false
}

// describeOp returns `'func.func' operation: @f` as MLIR's messages do.
func describeOp(op *ir.Operation) string {
	s := "'" + op.Name() + "' operation"
	if n := ir.SymbolName(op); n != "" {
		s += ": @" + n
	}
	return s
}

// passFailure records which pass failed on which op.
type passFailure struct {
	pass     Pass
	op       *ir.Operation
	panicVal any
}

func (f *passFailure) Error() string { return "pass '" + f.pass.Info().Argument + "' failed" }

// executor runs one PassManager.Run.
type executor struct {
	ctx        *ir.Context
	instr      []Instrumentation
	verifyEach bool
	workers    int

	mu       sync.Mutex
	reported ir.Diagnostics

	// During a parallel section: goroutine id -> item, and op -> item for
	// diagnostics emitted from other goroutines.
	gids  sync.Map
	ops   sync.Map
	stray []*ir.Diagnostic

	// For local reproducers: the root op, and its copy made before the
	// pass that is running.
	snapshot *ir.Operation
	before   *ir.Operation
}

// localPipeline returns the pipeline that runs only p on op, nested
// through op's ancestors (each nested manager runs on direct children).
func localPipeline(p Pass, op *ir.Operation) string {
	text := p.Info().Argument
	if opts := FormatOptions(p); opts != "" {
		text += "{" + opts + "}"
	}
	for o := op; o != nil; o = o.ParentOp() {
		text = o.Name() + "(" + text + ")"
	}
	return text
}

// emit reports d now, or buffers it in item during a parallel section.
func (ex *executor) emit(item *runItem, d *ir.Diagnostic) {
	if item != nil {
		item.addDiag(d)
		return
	}
	ex.emitNow(d)
}

func (ex *executor) emitNow(d *ir.Diagnostic) {
	if d.Severity == ir.SeverityError {
		ex.mu.Lock()
		ex.reported = append(ex.reported, d)
		ex.mu.Unlock()
	}
	ex.ctx.Emit(d)
}

// runPipeline runs pm's passes on op. parent is the adaptor running pm, nil
// for the top-level manager.
func (ex *executor) runPipeline(pm *OpPassManager, op *ir.Operation, am *AnalysisManager, item *runItem, parent *adaptor) error {
	am.item = item
	var pev *PipelineEvent
	if parent != nil {
		pev = &PipelineEvent{Manager: pm, Op: op, Parent: parent, ParentManager: parent.owner, Index: parent.index, Worker: item.workerID(), item: item}
		for _, in := range ex.instr {
			in.BeforePipeline(pev)
		}
	}
	var err error
	for i, p := range pm.passes {
		if err = ex.runPass(p, i, pm, parent != nil, op, am, item); err != nil {
			break
		}
	}
	if pev != nil {
		for i := len(ex.instr) - 1; i >= 0; i-- {
			ex.instr[i].AfterPipeline(pev)
		}
	}
	return err
}

func (ex *executor) runPass(p Pass, index int, pm *OpPassManager, nested bool, op *ir.Operation, am *AnalysisManager, item *runItem) error {
	if !op.IsRegistered() {
		ex.emit(item, ir.OpError(op, "trying to schedule a pass on an unregistered operation"))
		return &passFailure{pass: p, op: op}
	}
	if !op.HasTrait(ir.TraitIsolatedFromAbove) {
		ex.emit(item, ir.OpError(op, "trying to schedule a pass on an operation not marked as 'IsolatedFromAbove'"))
		return &passFailure{pass: p, op: op}
	}
	var owner *OpPassManager
	if nested {
		owner = pm
	}
	ev := &PassEvent{Pass: p, Op: op, Parent: owner, Index: index, Worker: item.workerID(), item: item}
	for _, in := range ex.instr {
		in.BeforePass(ev)
	}
	am.resetPreserved()
	prev := am.cur
	am.cur = ev
	var err error
	a, isAdaptor := p.(*adaptor)
	if isAdaptor {
		am.dirty.Store(false)
		err = ex.runAdaptor(a, op, am, item)
		// Nested passes that all preserved everything changed nothing:
		// like a pass preserving all analyses, skip verification.
		if err == nil && !am.dirty.Load() {
			am.preserved.all = true
		}
	} else {
		if ex.snapshot != nil {
			ex.before = ex.snapshot.Clone(ir.NewValueMap())
		}
		err = ex.safeRun(p, op, am, item)
	}
	am.cur = prev
	if err == nil && ex.verifyEach && !am.preserved.all {
		var verr error
		switch {
		case op.ParentOp() != nil:
			verr = ir.Verify(op, ir.VerifyOptions{SkipSymbolUses: true})
		case isAdaptor:
			// The nested pipelines verified the ops they ran on; like
			// MLIR, check only the op itself and its symbol uses.
			verr = ir.Verify(op, ir.VerifyOptions{Shallow: true, Workers: ex.workers})
		default:
			verr = ir.Verify(op)
		}
		if verr != nil {
			ex.emit(item, asDiagnostic(op, verr))
			err = &passFailure{pass: p, op: op}
		}
	}
	if err != nil {
		ev.Err = err
		for i := len(ex.instr) - 1; i >= 0; i-- {
			ex.instr[i].AfterPassFailed(ev)
		}
		return err
	}
	if !am.preserved.all {
		for a := am.parent; a != nil; a = a.parent {
			a.dirty.Store(true)
		}
	}
	am.invalidate(&am.preserved)
	for i := len(ex.instr) - 1; i >= 0; i-- {
		ex.instr[i].AfterPass(ev)
	}
	return nil
}

// safeRun runs p, reporting its error and turning a panic into an error.
func (ex *executor) safeRun(p Pass, op *ir.Operation, am *AnalysisManager, item *runItem) (err error) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		d := ir.NewError(op.Loc(), "pass '%s' panicked on %s: %v", p.Info().Argument, describeOp(op), r)
		if where := panicSite(); where != "" {
			d.AttachNote(op.Loc(), "panic raised at "+where)
		}
		ex.emit(item, d)
		err = &passFailure{pass: p, op: op, panicVal: r}
	}()
	rerr := p.Run(op, am)
	if rerr == nil {
		return nil
	}
	var d *ir.Diagnostic
	var ds ir.Diagnostics
	switch {
	case errors.Is(rerr, ErrReported):
	case errors.As(rerr, &d):
		ex.emit(item, d)
	case errors.As(rerr, &ds):
		for _, d := range ds {
			ex.emit(item, d)
		}
	default:
		ex.emit(item, ir.NewError(op.Loc(), "%v", rerr))
	}
	return &passFailure{pass: p, op: op}
}

// panicSite returns the file:line of the innermost frame that raised the
// panic, outside the runtime, for the crash note.
func panicSite() string {
	pcs := make([]uintptr, 32)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if !strings.HasPrefix(f.Function, "runtime.") && f.Function != "" {
			file := f.File
			if i := strings.LastIndex(file, "/"); i >= 0 {
				if j := strings.LastIndex(file[:i], "/"); j >= 0 {
					file = file[j+1:]
				}
			}
			return fmt.Sprintf("%s:%d (%s)", file, f.Line, f.Function)
		}
		if !more {
			return ""
		}
	}
}

func asDiagnostic(op *ir.Operation, err error) *ir.Diagnostic {
	var d *ir.Diagnostic
	if errors.As(err, &d) {
		return d
	}
	return ir.NewError(op.Loc(), "%v", err)
}

type work struct {
	op *ir.Operation
	pm *OpPassManager
}

// runAdaptor runs the nested managers of a on the ops directly inside op.
func (ex *executor) runAdaptor(a *adaptor, op *ir.Operation, am *AnalysisManager, item *runItem) error {
	var ws []work
	for i := 0; i < op.NumRegions(); i++ {
		for b := range op.Region(i).Blocks() {
			for o := range b.Ops() {
				if m := a.managerFor(o); m != nil {
					ws = append(ws, work{o, m})
				}
			}
		}
	}
	if ex.workers > 1 && item == nil && len(ws) > 1 {
		return ex.runParallel(a, ws, am)
	}
	for _, w := range ws {
		err := ex.runPipeline(w.pm, w.op, am.Nest(w.op), item, a)
		am.forget(w.op)
		if err != nil {
			return err
		}
	}
	return nil
}

func (ex *executor) itemOf(am *AnalysisManager) *runItem {
	for a := am; a != nil; a = a.parent {
		if a.item != nil {
			return a.item
		}
	}
	return nil
}

func (ex *executor) beforeAnalysis(name string, am *AnalysisManager) *AnalysisEvent {
	if len(ex.instr) == 0 {
		return nil
	}
	ev := analysisEvent(name, am)
	for _, in := range ex.instr {
		in.BeforeAnalysis(ev)
	}
	return ev
}

func (ex *executor) afterAnalysis(ev *AnalysisEvent) {
	if ev == nil {
		return
	}
	for i := len(ex.instr) - 1; i >= 0; i-- {
		ex.instr[i].AfterAnalysis(ev)
	}
}

func analysisEvent(name string, am *AnalysisManager) *AnalysisEvent {
	ev := &AnalysisEvent{Name: name, Op: am.op}
	for a := am; a != nil; a = a.parent {
		if a.cur != nil {
			ev.Pass, ev.Worker = a.cur.Pass, a.cur.Worker
			break
		}
	}
	return ev
}

func (r *Reproducer) writeFile(cfg *reproConfig, op *ir.Operation) error {
	open := cfg.out
	if open == nil {
		// Written beside the target and renamed over it, so a reproducer
		// named like the input leaves the input (which diagnostics read
		// back) intact until it is complete.
		return outfile.WriteWith(cfg.path, func(w io.Writer) error { return r.Write(w, op, cfg.print) })
	}
	f, err := open(cfg.path)
	if err != nil {
		return err
	}
	if err := r.Write(f, op, cfg.print); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
