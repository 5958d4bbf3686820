package pipeline

import (
	"io"

	"github.com/rlx-compiler/rlx/ir"
)

// Instrumentation observes a pipeline run: the passes, the nested
// pipelines and the analyses computed. "Before" hooks are called in the
// order the instrumentations were added and "after" hooks in reverse
// order. Hooks may be called concurrently from parallel workers; text an
// instrumentation prints should go through the event's Output so that it
// comes out in the same order as in a sequential run.
//
// Embed BaseInstrumentation to implement only the hooks you need.
type Instrumentation interface {
	BeforePipeline(ev *PipelineEvent)
	AfterPipeline(ev *PipelineEvent)
	BeforePass(ev *PassEvent)
	AfterPass(ev *PassEvent)
	AfterPassFailed(ev *PassEvent)
	BeforeAnalysis(ev *AnalysisEvent)
	AfterAnalysis(ev *AnalysisEvent)
}

// BaseInstrumentation implements every hook of Instrumentation as a no-op.
type BaseInstrumentation struct{}

func (BaseInstrumentation) BeforePipeline(*PipelineEvent) {}
func (BaseInstrumentation) AfterPipeline(*PipelineEvent)  {}
func (BaseInstrumentation) BeforePass(*PassEvent)         {}
func (BaseInstrumentation) AfterPass(*PassEvent)          {}
func (BaseInstrumentation) AfterPassFailed(*PassEvent)    {}
func (BaseInstrumentation) BeforeAnalysis(*AnalysisEvent) {}
func (BaseInstrumentation) AfterAnalysis(*AnalysisEvent)  {}

// PassEvent describes one run of one pass on one op.
type PassEvent struct {
	// Pass is the pass instance. For a nested pipeline it is the adaptor
	// pass that runs the nested managers (IsPipeline reports true).
	Pass Pass
	// Op is the op the pass runs on.
	Op *ir.Operation
	// Parent is the nested manager the pass belongs to, or nil for a pass
	// of the top-level manager.
	Parent *OpPassManager
	// Index is the position of the pass in its manager.
	Index int
	// Worker is 0 on the goroutine that called Run and 1..N on parallel
	// workers.
	Worker int
	// Err is the failure, for AfterPassFailed.
	Err error

	item *runItem
}

// IsPipeline reports whether the event is about a nested pipeline (the
// adaptor pass) rather than a real pass.
func (e *PassEvent) IsPipeline() bool {
	_, ok := e.Pass.(*adaptor)
	return ok
}

// Output returns the writer an instrumentation should print to instead of
// w: w itself when passes run sequentially, or a buffer that is copied to
// w, in the order of a sequential run, when the parallel section ends.
func (e *PassEvent) Output(w io.Writer) io.Writer { return e.item.writer(w) }

// PipelineEvent describes one run of a nested manager on one op.
type PipelineEvent struct {
	Manager *OpPassManager
	Op      *ir.Operation
	// Parent is the adaptor pass that runs the manager.
	Parent Pass
	// ParentManager is the manager holding Parent (nil at top level).
	ParentManager *OpPassManager
	// Index is the position of Parent in ParentManager.
	Index  int
	Worker int

	item *runItem
}

// Output is PassEvent.Output for pipeline events.
func (e *PipelineEvent) Output(w io.Writer) io.Writer { return e.item.writer(w) }

// AnalysisEvent describes the computation of one analysis.
type AnalysisEvent struct {
	Name string
	Op   *ir.Operation
	// Pass is the pass that asked for the analysis (nil outside passes).
	Pass   Pass
	Worker int
}
