package testpass

import (
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"

	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/pipeline"
)

// All returns the test passes.
func All() []*pipeline.PassInfo {
	return []*pipeline.PassInfo{
		FailureInfo, CrashInfo, InvalidIRInfo, OptionsInfo, FuncWorkInfo, ModuleInfo, DiagInfo, AnalysisInfo,
	}
}

// FailureInfo describes test-pass-failure, which always fails.
var FailureInfo = &pipeline.PassInfo{
	Argument: "test-pass-failure",
	Name:     "TestFailurePass",
	Summary:  "Test a pass in the pass manager that always fails",
	New:      func() pipeline.Pass { return &failure{} },
}

type failure struct{ message string }

func (p *failure) Info() *pipeline.PassInfo { return FailureInfo }

func (p *failure) Declare(d *pipeline.Decl) {
	d.String(&p.message, "message", "", "Error to emit before failing (none: fail silently, like MLIR's test pass)")
}

func (p *failure) Run(op *ir.Operation, am *pipeline.AnalysisManager) error {
	if p.message == "" {
		return pipeline.ErrReported
	}
	return errors.New(p.message)
}

// CrashInfo describes test-pass-crash, which panics.
var CrashInfo = &pipeline.PassInfo{
	Argument: "test-pass-crash",
	Name:     "TestCrashPass",
	Summary:  "Test a pass in the pass manager that always crashes",
	New:      func() pipeline.Pass { return &crash{} },
}

type crash struct{}

func (p *crash) Info() *pipeline.PassInfo { return CrashInfo }

func (p *crash) Run(op *ir.Operation, am *pipeline.AnalysisManager) error {
	regions := make([]int, op.NumRegions())
	regions[len(regions)]++ // a real runtime panic: index out of range
	return nil
}

// InvalidIRInfo describes test-pass-create-invalid-ir, which inserts a
// misplaced terminator so that verification fails.
var InvalidIRInfo = &pipeline.PassInfo{
	Argument: "test-pass-create-invalid-ir",
	Name:     "TestInvalidIRPass",
	Summary:  "Test pass that adds an invalid operation in a function body",
	Anchor:   "func.func",
	New:      func() pipeline.Pass { return &invalidIR{} },
}

type invalidIR struct{}

func (p *invalidIR) Info() *pipeline.PassInfo { return InvalidIRInfo }

func (p *invalidIR) Run(op *ir.Operation, am *pipeline.AnalysisManager) error {
	body := op.Region(0).First()
	if body == nil {
		return nil
	}
	b := ir.NewBuilder(op.Context())
	b.SetInsertionPointToStart(body)
	b.CreateOp("func.return", op.Loc(), nil, nil)
	return nil
}

// OptionsInfo describes test-options, a pass that does nothing but
// declares one option of every kind (for round-trip tests).
var OptionsInfo = &pipeline.PassInfo{
	Argument: "test-options",
	Name:     "TestOptionsPass",
	Summary:  "Test pass with options of every kind",
	New:      func() pipeline.Pass { return &Options{} },
}

// Options is the test-options pass; its fields are the option values.
type Options struct {
	Flag    bool
	Count   int
	Big     int64
	Limit   uint
	Ratio   float64
	Label   string
	Mode    string
	Sizes   []int
	Names   []string
	Custom  pair
	Visited pipeline.Statistic
}

// pair is a custom option type, written `A:B`.
type pair struct{ a, b int }

func (v *pair) String() string { return strconv.Itoa(v.a) + ":" + strconv.Itoa(v.b) }

func (v *pair) Set(s string) error {
	var a, b int
	if _, err := fmt.Sscanf(s, "%d:%d", &a, &b); err != nil {
		return fmt.Errorf("'%s' is not of the form A:B", s)
	}
	v.a, v.b = a, b
	return nil
}

func (p *Options) Info() *pipeline.PassInfo { return OptionsInfo }

func (p *Options) Declare(d *pipeline.Decl) {
	d.Bool(&p.Flag, "flag", false, "A boolean option")
	d.Int(&p.Count, "count", 3, "An integer option")
	d.Int64(&p.Big, "big", -1, "A 64-bit integer option")
	d.Uint(&p.Limit, "limit", 4294967295, "An unsigned option")
	d.Float(&p.Ratio, "ratio", 0.5, "A floating-point option")
	d.String(&p.Label, "label", "none", "A string option")
	d.Enum(&p.Mode, "mode", "normal", []pipeline.EnumValue{
		{Name: "disabled", Help: "Do nothing"},
		{Name: "normal", Help: "The usual"},
		{Name: "aggressive", Help: "Try harder"},
	}, "An enum option")
	d.IntList(&p.Sizes, "sizes", nil, "A list of integers")
	d.StringList(&p.Names, "names", []string{"a", "b"}, "A list of strings")
	d.Var(&p.Custom, "pair", "pair", "1:2", "A custom option (A:B)")
	d.Stat(&p.Visited, "num-visited", "Number of ops the pass ran on")
}

func (p *Options) Run(op *ir.Operation, am *pipeline.AnalysisManager) error {
	p.Visited.Inc()
	am.PreserveAll()
	return nil
}

// FuncWorkInfo describes test-func-work, a func.func pass that does a fixed
// amount of real work per function (hashing its ops `iterations` times)
// and records the result as the `test.hash` attribute.
var FuncWorkInfo = &pipeline.PassInfo{
	Argument: "test-func-work",
	Name:     "TestFuncWorkPass",
	Summary:  "Hash a description of every op of a function a given number of times (parallelism tests)",
	Anchor:   "func.func",
	New:      func() pipeline.Pass { return &funcWork{} },
}

type funcWork struct {
	iterations int
	numOps     pipeline.Statistic
}

func (p *funcWork) Info() *pipeline.PassInfo { return FuncWorkInfo }

func (p *funcWork) Declare(d *pipeline.Decl) {
	d.Int(&p.iterations, "iterations", 1, "How many times to hash each function")
	d.Stat(&p.numOps, "num-ops", "Number of ops hashed")
}

func (p *funcWork) Run(op *ir.Operation, am *pipeline.AnalysisManager) error {
	// Describe each op once, then hash the descriptions: the work is
	// CPU-bound and allocation-free, so it scales with cores.
	var descs [][]byte
	op.Walk(func(o *ir.Operation) {
		d := []byte(o.Name())
		for _, t := range o.ResultTypes() {
			d = append(d, t.String()...)
		}
		if a := o.Attrs(); a != nil && o != op {
			d = append(d, a.String()...)
		}
		descs = append(descs, d)
	})
	h := fnv.New64a()
	for i := 0; i < p.iterations; i++ {
		for _, d := range descs {
			h.Write(d)
		}
	}
	p.numOps.Add(int64(len(descs) * p.iterations))
	ctx := op.Context()
	op.SetAttr(ctx, "test.hash", ctx.StringAttr(fmt.Sprintf("%016x", h.Sum64())))
	return nil
}

// ModuleInfo describes test-module-pass, a builtin.module pass that counts
// the ops directly in the module.
var ModuleInfo = &pipeline.PassInfo{
	Argument: "test-module-pass",
	Name:     "TestModulePass",
	Summary:  "Test a module pass in the pass manager",
	Anchor:   "builtin.module",
	New:      func() pipeline.Pass { return &module{} },
}

type module struct{ numOps pipeline.Statistic }

func (p *module) Info() *pipeline.PassInfo { return ModuleInfo }

func (p *module) Declare(d *pipeline.Decl) {
	d.Stat(&p.numOps, "num-top-level-ops", "Number of ops directly in the module")
}

func (p *module) Run(op *ir.Operation, am *pipeline.AnalysisManager) error {
	for b := range op.Region(0).Blocks() {
		p.numOps.Add(int64(b.NumOps()))
	}
	am.PreserveAll()
	return nil
}

// DiagInfo describes test-emit-diag, which emits a diagnostic on the op it
// runs on (for ordering tests with threads).
var DiagInfo = &pipeline.PassInfo{
	Argument: "test-emit-diag",
	Name:     "TestEmitDiagPass",
	Summary:  "Emit a remark, warning or error on every op the pass runs on",
	New:      func() pipeline.Pass { return &diag{} },
}

type diag struct{ severity string }

func (p *diag) Info() *pipeline.PassInfo { return DiagInfo }

func (p *diag) Declare(d *pipeline.Decl) {
	d.Enum(&p.severity, "severity", "remark", []pipeline.EnumValue{
		{Name: "remark"}, {Name: "warning"}, {Name: "error"},
	}, "Severity of the diagnostic")
}

func (p *diag) Run(op *ir.Operation, am *pipeline.AnalysisManager) error {
	name := ir.SymbolName(op)
	switch p.severity {
	case "warning":
		op.EmitWarning("test diagnostic on @%s", name)
	case "error":
		return ir.OpError(op, "test error on @%s", name)
	default:
		op.EmitRemark("test diagnostic on @%s", name)
	}
	am.PreserveAll()
	return nil
}

// OpCount is an analysis: the number of ops nested in an op.
var OpCount = pipeline.NewAnalysis("OpCount", func(op *ir.Operation, am *pipeline.AnalysisManager) int {
	n := 0
	op.Walk(func(*ir.Operation) { n++ })
	return n
})

// AnalysisInfo describes test-analysis, which computes OpCount (shown as
// "(A) OpCount" in timing reports) and optionally preserves it.
var AnalysisInfo = &pipeline.PassInfo{
	Argument: "test-analysis",
	Name:     "TestAnalysisPass",
	Summary:  "Compute the OpCount analysis and optionally preserve it",
	New:      func() pipeline.Pass { return &analysis{} },
}

type analysis struct {
	preserve bool
	computed pipeline.Statistic
	cached   pipeline.Statistic
}

func (p *analysis) Info() *pipeline.PassInfo { return AnalysisInfo }

func (p *analysis) Declare(d *pipeline.Decl) {
	d.Bool(&p.preserve, "preserve", false, "Preserve the analysis")
	d.Stat(&p.computed, "computed", "Number of times OpCount was computed")
	d.Stat(&p.cached, "cached", "Number of times OpCount was already cached")
}

func (p *analysis) Run(op *ir.Operation, am *pipeline.AnalysisManager) error {
	if _, ok := OpCount.Cached(am); ok {
		p.cached.Inc()
	} else {
		p.computed.Inc()
	}
	_ = OpCount.Get(am)
	if p.preserve {
		am.Preserve(OpCount)
	}
	return nil
}
