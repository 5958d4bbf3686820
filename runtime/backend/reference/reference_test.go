package reference_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/internal/runtimetest"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/passes/hybridsplit"
	"github.com/rlx-compiler/rlx/runtime/backend"
	"github.com/rlx-compiler/rlx/runtime/backend/reference"
	"github.com/rlx-compiler/rlx/runtime/plan"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

var _ backend.Backend = (*reference.Backend)(nil)

// bitIdentical fails unless got and want have the same bits.
func bitIdentical(t *testing.T, what string, got, want []*tensor.Tensor) {
	t.Helper()
	diffs, err := ref.CompareResults(got, want)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	for i, d := range diffs {
		if !d.BitIdentical {
			t.Errorf("%s: result %d differs: %d elements, max |Δ| %g", what, i, d.Count, d.MaxAbs)
		}
	}
}

// TestModels runs every model graph through the reference backend (every
// value through its arena slot) and compares the results bit for bit with
// the interpreter's run of the original function, with and without guards
// between the slots. The multi-output handoff that broke the original's
// runtime (one MPS region's several results read by one native step) is
// in every model; TestHandoff looks at it alone.
func TestModels(t *testing.T) {
	for _, c := range runtimetest.Models() {
		t.Run(c.Name, func(t *testing.T) {
			if testing.Short() && c.Name != "qwen35 toy" {
				t.Skip("-short runs the toy Qwen3.5 only")
			}
			s, err := runtimetest.SplitModel(c.Build, hybridsplit.Options{})
			if err != nil {
				t.Fatal(err)
			}
			w, in, want, err := s.Reference()
			if err != nil {
				t.Fatal(err)
			}
			for _, guard := range []int64{0, 64} {
				comp, err := backend.Compile(s.Module, "", backend.Options{Plan: plan.Options{Guard: guard}})
				if err != nil {
					t.Fatal(err)
				}
				b, err := reference.New(comp, w)
				if err != nil {
					t.Fatal(err)
				}
				got, err := b.Run(in)
				if err != nil {
					t.Fatal(err)
				}
				bitIdentical(t, fmt.Sprintf("guard %d", guard), got, want)
				if st := b.Stats(); st.Waits != 1 || st.Steps != len(comp.Plan.Steps) {
					t.Errorf("stats %+v: want 1 wait and %d steps", st, len(comp.Plan.Steps))
				}
			}
		})
	}
}

// TestHandoff runs the multi-output handoff of the original at hidden
// 1024: in a Qwen3.5-like GDN layer, one MPS region computes q, k, v, the
// gate and β, and one Metal step (the gated delta net's kernels) reads
// them all. Through the arena it must give the interpreter's bits, run
// after run; and when the plan hands two of those results over through one
// slot (the bug), the results must change.
func TestHandoff(t *testing.T) {
	s, err := runtimetest.SplitModel(runtimetest.Qwen(1024, "q4_k", 2), hybridsplit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	comp, err := backend.Compile(s.Module, "", backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mps, metal := handoff(comp.Plan)
	if mps == nil {
		t.Fatal("no MPS step hands three or more results to one Metal step")
	}
	t.Logf("handoff: step %d (@%s) hands %d results to step %d (@%s, kernel %s)", mps.Index, mps.Symbol, len(runtimetest.Shared(mps, metal)), metal.Index, metal.Symbol, metal.Dispatches[0].Kernel)
	w, in, want, err := s.Reference()
	if err != nil {
		t.Fatal(err)
	}
	b, err := reference.New(comp, w)
	if err != nil {
		t.Fatal(err)
	}
	for run := range 2 {
		got, err := b.Run(in)
		if err != nil {
			t.Fatal(err)
		}
		bitIdentical(t, fmt.Sprintf("run %d", run), got, want)
	}
	// The bug: two handed-over results share a slot.
	ids := runtimetest.Shared(mps, metal)
	bad := *comp
	bad.Plan = clonePlan(t, comp.Plan)
	bad.Plan.Values[ids[1]].Offset = bad.Plan.Values[ids[0]].Offset
	for _, st := range bad.Plan.Steps {
		for _, d := range st.Dispatches {
			for j := range d.Bindings {
				if bd := &d.Bindings[j]; bd.Buffer == plan.BufArena && bd.Value == ids[1] {
					bd.Offset = bad.Plan.Values[ids[0]].Offset
				}
			}
		}
	}
	if err := plan.Check(bad.Plan); err == nil {
		t.Error("plan.Check passes the aliased handoff")
	}
	bb, err := reference.New(&bad, w)
	if err != nil {
		t.Fatal(err)
	}
	got, err := bb.Run(in)
	if err != nil {
		t.Fatal(err)
	}
	diffs, err := ref.CompareResults(got, want)
	if err != nil {
		t.Fatal(err)
	}
	changed := false
	for _, d := range diffs {
		changed = changed || !d.BitIdentical
	}
	if !changed {
		t.Error("aliasing two handed-over results changed nothing: the reference backend does not read through the arena")
	}
}

// handoff finds an MPS step whose results (three or more) one Metal step
// reads.
func handoff(p *plan.Plan) (*plan.Step, *plan.Step) {
	for _, a := range p.Steps {
		if a.Kind != plan.StepMPS {
			continue
		}
		for _, b := range p.Steps[a.Index+1:] {
			if b.Kind == plan.StepMetal && len(runtimetest.Shared(a, b)) >= 3 {
				return a, b
			}
		}
	}
	return nil, nil
}

func clonePlan(t *testing.T, p *plan.Plan) *plan.Plan {
	t.Helper()
	q, err := p.Clone()
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// TestEmitModuleErrors: Module.Compile names a function the module lacks,
// and EmitModule refuses a module the emitter refuses (bf16 at MSL 3.0),
// as backend.Compile does.
func TestEmitModuleErrors(t *testing.T) {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	m, err := asm.ParseString(ctx, "bf.mlir", `func.func @f(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = thunk.call @f_thunk0(%x) {target = "metal"} : (tensor<4xbf16>) -> tensor<4xbf16> {
  ^bb0(%a: tensor<4xbf16>):
    %n = graph.neg %a : (tensor<4xbf16>) -> tensor<4xbf16>
    thunk.yield %n : tensor<4xbf16>
  }
  return %0 : tensor<4xbf16>
}`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := backend.EmitModule(m, backend.Options{}); err == nil || !strings.Contains(err.Error(), "bf16") {
		t.Errorf("EmitModule at MSL 3.0: got %v, want the bf16 error", err)
	}
	em, err := backend.EmitModule(m, backend.Options{Metal: metal.Options{MSLVersion: "3.1"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := em.Compile("g"); err == nil || !strings.Contains(err.Error(), "no function named @g") {
		t.Errorf("Compile(\"g\"): got %v, want no function named @g", err)
	}
	a, err := em.Compile("f")
	if err != nil {
		t.Fatal(err)
	}
	b, err := em.Compile("")
	if err != nil {
		t.Fatal(err)
	}
	if a.MSL != b.MSL || a.Func != b.Func {
		t.Error("two Compiles of one function do not share the module's MSL output")
	}
}
