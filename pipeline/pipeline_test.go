package pipeline_test

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/pipeline"
	"github.com/rlx-compiler/rlx/pipeline/testpass"
)

// record is a test pass that logs every op it runs on.
type record struct {
	info *pipeline.PassInfo
	mu   *sync.Mutex
	log  *[]string
	fail string // fail on the op with this symbol name
}

func (p *record) Info() *pipeline.PassInfo { return p.info }

func (p *record) Run(op *ir.Operation, am *pipeline.AnalysisManager) error {
	p.mu.Lock()
	*p.log = append(*p.log, p.info.Argument+"@"+opLabel(op))
	p.mu.Unlock()
	if p.fail != "" && ir.SymbolName(op) == p.fail {
		return fmt.Errorf("%s failed on @%s", p.info.Argument, p.fail)
	}
	am.PreserveAll()
	return nil
}

func opLabel(op *ir.Operation) string {
	if s := ir.SymbolName(op); s != "" {
		return s
	}
	return op.Name()
}

// recorder returns a registry with passes "a", "b" (any op), "fa" (on
// func.func) and "m" (on builtin.module) that append to one log.
func recorder() (*pipeline.Registry, *[]string) {
	var mu sync.Mutex
	log := &[]string{}
	mk := func(arg, anchor string) *pipeline.PassInfo {
		pi := &pipeline.PassInfo{Argument: arg, Anchor: anchor, Summary: "record " + arg}
		pi.New = func() pipeline.Pass { return &record{info: pi, mu: &mu, log: log} }
		return pi
	}
	reg := pipeline.NewRegistry(mk("a", ""), mk("b", ""), mk("fa", "func.func"), mk("m", "builtin.module"))
	for _, pi := range testpass.All() {
		if err := reg.Register(pi); err != nil {
			panic(err)
		}
	}
	return reg, log
}

func newContext() *ir.Context {
	ctx := ir.NewContext()
	ctx.AllowUnregistered = true
	dialect.RegisterAll(ctx)
	return ctx
}

func parse(t testing.TB, ctx *ir.Context, src string) *ir.Operation {
	t.Helper()
	f, err := asm.Parse(ctx, "test.mlir", []byte(src), asm.Options{})
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	if err := ir.Verify(f.Op); err != nil {
		t.Fatalf("verify: %v", err)
	}
	return f.Op
}

const nestedModule = `
func.func @f1() { return }
module @inner {
  func.func @g1() { return }
}
func.func @f2() { return }
`

func runText(t *testing.T, reg *pipeline.Registry, ctx *ir.Context, op *ir.Operation, text string, threads bool) error {
	t.Helper()
	opm, err := pipeline.Parse(reg, text)
	if err != nil {
		t.Fatalf("Parse(%q): %v", text, err)
	}
	pm := pipeline.NewWith(ctx, opm)
	pm.DisableThreading = !threads
	return pm.Run(op)
}

func TestNestingIsDirectChildrenOnly(t *testing.T) {
	for _, threads := range []bool{false, true} {
		reg, log := recorder()
		ctx := newContext()
		op := parse(t, ctx, nestedModule)
		if err := runText(t, reg, ctx, op, "builtin.module(func.func(a),b,builtin.module(func.func(fa)))", threads); err != nil {
			t.Fatal(err)
		}
		// With threads, a runs on f1 and f2 concurrently, in either
		// order; both come before b.
		ran := append([]string(nil), *log...)
		if threads && len(ran) >= 2 {
			sort.Strings(ran[:2])
		}
		got := strings.Join(ran, " ")
		want := "a@f1 a@f2 b@builtin.module fa@g1"
		if got != want {
			t.Errorf("threads=%v: ran %q, want %q", threads, got, want)
		}
	}
}

func TestAnyNestsOnIsolatedOps(t *testing.T) {
	reg, log := recorder()
	ctx := newContext()
	op := parse(t, ctx, nestedModule)
	if err := runText(t, reg, ctx, op, "builtin.module(any(a))", false); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(*log, " "), "a@f1 a@inner a@f2"; got != want {
		t.Errorf("ran %q, want %q", got, want)
	}
	// fa only runs on func.func, so an any-manager holding it skips the module.
	*log = nil
	if err := runText(t, reg, ctx, op, "builtin.module(any(fa))", false); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(*log, " "), "fa@f1 fa@f2"; got != want {
		t.Errorf("ran %q, want %q", got, want)
	}
}

func TestAdjacentNestedPipelinesMerge(t *testing.T) {
	reg, log := recorder()
	ctx := newContext()
	op := parse(t, ctx, nestedModule)
	if err := runText(t, reg, ctx, op, "builtin.module(func.func(a),func.func(b))", false); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(*log, " "), "a@f1 b@f1 a@f2 b@f2"; got != want {
		t.Errorf("ran %q, want %q", got, want)
	}
	// An any-manager conflicts with func.func, so these stay apart.
	*log = nil
	if err := runText(t, reg, ctx, op, "builtin.module(func.func(a),any(b))", false); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(*log, " "), "a@f1 a@f2 b@f1 b@inner b@f2"; got != want {
		t.Errorf("ran %q, want %q", got, want)
	}
}

func TestWrongTopLevelAnchor(t *testing.T) {
	reg, _ := recorder()
	ctx := newContext()
	op := parse(t, ctx, nestedModule)
	var diags []string
	pop := ctx.Diags().PushHandler(func(d *ir.Diagnostic) { diags = append(diags, d.Error()) })
	defer pop()
	err := runText(t, reg, ctx, op, "func.func(a)", false)
	if err == nil {
		t.Fatal("expected failure")
	}
	want := "test.mlir:0:0: error: can't run 'func.func' pass manager on 'builtin.module' op"
	if len(diags) != 1 || diags[0] != want {
		t.Errorf("diags = %q, want %q", diags, want)
	}
}

func TestFailureStopsPipeline(t *testing.T) {
	for _, threads := range []bool{false, true} {
		reg, log := recorder()
		ctx := newContext()
		op := parse(t, ctx, "func.func @f1() { return }\nfunc.func @f2() { return }\nfunc.func @f3() { return }\n")
		var diags []string
		pop := ctx.Diags().PushHandler(func(d *ir.Diagnostic) { diags = append(diags, d.Error()) })
		opm := pipeline.NewOpPassManager("builtin.module")
		fpm := opm.Nest("func.func")
		fpm.AddPass(&record{info: reg.Lookup("a"), mu: &sync.Mutex{}, log: log, fail: "f2"})
		fpm.AddPass(pipeline.NewPass(reg.Lookup("b")))
		opm.AddPass(pipeline.NewPass(reg.Lookup("m")))
		pm := pipeline.NewWith(ctx, opm)
		pm.DisableThreading = !threads
		err := pm.Run(op)
		pop()
		var f *pipeline.Failure
		if !errors.As(err, &f) || f.Pass != "a" || ir.SymbolName(f.Op) != "f2" {
			t.Fatalf("threads=%v: err = %v, want a Failure of pass a on @f2", threads, err)
		}
		want := []string{"test.mlir:2:1: error: a failed on @f2"}
		if fmt.Sprint(diags) != fmt.Sprint(want) {
			t.Errorf("threads=%v: diags = %q, want %q", threads, diags, want)
		}
		if !threads {
			if got, want := strings.Join(*log, " "), "a@f1 b@f1 a@f2"; got != want {
				t.Errorf("ran %q, want %q", got, want)
			}
		}
		for _, l := range *log {
			if strings.HasPrefix(l, "m@") {
				t.Errorf("module pass ran after a failure: %v", *log)
			}
		}
	}
}

func TestPanicBecomesError(t *testing.T) {
	for _, threads := range []bool{false, true} {
		reg, _ := recorder()
		ctx := newContext()
		op := parse(t, ctx, "func.func @f1() { return }\nfunc.func @f2() { return }\n")
		var diags []*ir.Diagnostic
		pop := ctx.Diags().PushHandler(func(d *ir.Diagnostic) { diags = append(diags, d) })
		err := runText(t, reg, ctx, op, "builtin.module(func.func(test-pass-crash))", threads)
		pop()
		var f *pipeline.Failure
		if !errors.As(err, &f) || f.Panic == nil {
			t.Fatalf("err = %v, want a Failure with a panic", err)
		}
		if len(diags) != 1 || !strings.Contains(diags[0].Message, "pass 'test-pass-crash' panicked on 'func.func' operation: @f1: runtime error: index out of range [1] with length 1") {
			t.Fatalf("diags = %v", diags)
		}
		if len(diags[0].Notes) != 1 || !strings.Contains(diags[0].Notes[0].Message, "testpass.go") {
			t.Errorf("panic note = %v, want the panic site in testpass.go", diags[0].Notes)
		}
	}
}

func TestVerifyEach(t *testing.T) {
	reg, _ := recorder()
	for _, verify := range []bool{true, false} {
		ctx := newContext()
		op := parse(t, ctx, "func.func @f() { return }\n")
		var diags []string
		pop := ctx.Diags().PushHandler(func(d *ir.Diagnostic) { diags = append(diags, d.Error()) })
		opm, _ := pipeline.Parse(reg, "builtin.module(func.func(test-pass-create-invalid-ir))")
		pm := pipeline.NewWith(ctx, opm)
		pm.VerifyEach = verify
		err := pm.Run(op)
		pop()
		if verify {
			want := "test.mlir:1:1: error: 'func.return' op must be the last operation in the parent block"
			if err == nil || len(diags) != 1 || diags[0] != want {
				t.Errorf("verify-each: err=%v diags=%q, want %q", err, diags, want)
			}
		} else if err != nil {
			t.Errorf("verify-each=false: unexpected error %v", err)
		}
	}
}

func TestAnalysesCachedUntilInvalidated(t *testing.T) {
	reg, _ := recorder()
	for _, tc := range []struct {
		pipeline           string
		computed, cached   int64
		computed2, cached2 int64
	}{
		// Not preserved: the second run recomputes.
		{"builtin.module(test-analysis,test-analysis)", 1, 0, 1, 0},
		// Preserved by the first: the second finds it cached.
		{"builtin.module(test-analysis{preserve},test-analysis)", 1, 0, 0, 1},
		// A pass in between that preserves everything keeps it too.
		{"builtin.module(test-analysis{preserve},test-options,test-analysis)", 1, 0, 0, 1},
	} {
		ctx := newContext()
		op := parse(t, ctx, "func.func @f() { return }\n")
		opm, err := pipeline.Parse(reg, tc.pipeline)
		if err != nil {
			t.Fatal(err)
		}
		pm := pipeline.NewWith(ctx, opm)
		if err := pm.Run(op); err != nil {
			t.Fatal(err)
		}
		var got [][2]int64
		for _, p := range opm.Passes() {
			if p.Info() != testpass.AnalysisInfo {
				continue
			}
			stats := pipeline.Describe(p).Statistics()
			got = append(got, [2]int64{stats[0].Stat.Value(), stats[1].Stat.Value()}) // cached, computed
		}
		want := [][2]int64{{tc.cached, tc.computed}, {tc.cached2, tc.computed2}}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: (cached, computed) per pass = %v, want %v", tc.pipeline, got, want)
		}
	}
}

type orderInstr struct {
	pipeline.BaseInstrumentation
	name string
	log  *[]string
}

func (o *orderInstr) BeforePass(ev *pipeline.PassEvent) {
	*o.log = append(*o.log, o.name+" before "+ev.Pass.Info().DisplayName())
}

func (o *orderInstr) AfterPass(ev *pipeline.PassEvent) {
	*o.log = append(*o.log, o.name+" after "+ev.Pass.Info().DisplayName())
}

func TestInstrumentationOrder(t *testing.T) {
	reg, _ := recorder()
	ctx := newContext()
	op := parse(t, ctx, "func.func @f() { return }\n")
	var log []string
	pm := pipeline.New(ctx, "builtin.module")
	pm.AddPass(pipeline.NewPass(reg.Lookup("a")))
	pm.AddInstrumentation(&orderInstr{name: "1", log: &log})
	pm.AddInstrumentation(&orderInstr{name: "2", log: &log})
	if err := pm.Run(op); err != nil {
		t.Fatal(err)
	}
	want := "1 before a|2 before a|2 after a|1 after a"
	if got := strings.Join(log, "|"); got != want {
		t.Errorf("hooks ran %q, want %q", got, want)
	}
}

func TestDynamicPipeline(t *testing.T) {
	reg, log := recorder()
	ctx := newContext()
	op := parse(t, ctx, nestedModule)
	inner, err := pipeline.Parse(reg, "builtin.module(func.func(a))")
	if err != nil {
		t.Fatal(err)
	}
	dyn := &pipeline.PassInfo{Argument: "dyn", Anchor: "builtin.module"}
	dyn.New = func() pipeline.Pass { return dynPass{dyn, inner} }
	pm := pipeline.New(ctx, "builtin.module")
	pm.AddPass(pipeline.NewPass(dyn))
	if err := pm.Run(op); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(*log, " "), "a@g1"; got != want {
		t.Errorf("ran %q, want %q", got, want)
	}
}

// dynPass runs a pipeline on the nested module @inner.
type dynPass struct {
	info  *pipeline.PassInfo
	inner *pipeline.OpPassManager
}

func (p dynPass) Info() *pipeline.PassInfo { return p.info }

func (p dynPass) Run(op *ir.Operation, am *pipeline.AnalysisManager) error {
	var inner *ir.Operation
	for o := range op.Region(0).First().Ops() {
		if ir.SymbolName(o) == "inner" {
			inner = o
		}
	}
	return am.RunPipeline(p.inner, inner)
}

func TestAddPassAnchorMismatch(t *testing.T) {
	reg, _ := recorder()
	ctx := newContext()
	op := parse(t, ctx, nestedModule)
	pm := pipeline.New(ctx, "builtin.module")
	pm.AddPass(pipeline.NewPass(reg.Lookup("fa")))
	err := pm.Run(op)
	want := "can't add pass 'fa' restricted to 'func.func' on a pass manager intended to run on 'builtin.module', did you intend to nest?"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
	// Implicit nesting puts it under func.func.
	pm = pipeline.New(ctx, "builtin.module")
	pm.AddPassImplicit(pipeline.NewPass(reg.Lookup("fa")))
	if got, want := pm.String(), "builtin.module(func.func(fa))"; got != want {
		t.Errorf("implicit nesting printed %q, want %q", got, want)
	}
}

func TestReproducerRoundTrip(t *testing.T) {
	ctx := newContext()
	op := parse(t, ctx, "func.func @f() { return }\n")
	r := &pipeline.Reproducer{Pipeline: `builtin.module(test-options{label="a b"})`, DisableThreading: true, VerifyEach: false}
	var sb strings.Builder
	if err := r.Write(&sb, op, ir.PrintOptions{}); err != nil {
		t.Fatal(err)
	}
	f, err := asm.Parse(newContext(), "repro.mlir", []byte(sb.String()), asm.Options{})
	if err != nil {
		t.Fatalf("reparse: %v\n%s", err, sb.String())
	}
	got, ok, err := pipeline.ReadReproducer(f)
	if err != nil || !ok || *got != *r {
		t.Errorf("ReadReproducer = %+v, %v, %v; want %+v", got, ok, err, r)
	}
}
