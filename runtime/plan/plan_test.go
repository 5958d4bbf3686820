package plan_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/internal/runtimetest"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/plan"
	"github.com/rlx-compiler/rlx/runtime/ref"
)

// qwenPlan plans the toy Qwen3.5-like model.
func qwenPlan(t *testing.T, opts plan.Options) *plan.Plan {
	t.Helper()
	mod, f, err := splitModel(runtimetest.Models()[0])
	if err != nil {
		t.Fatal(err)
	}
	out, err := metal.Emit(mod, metal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.Build(f, out.Manifest, opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// clone copies a plan through JSON.
func clone(t *testing.T, p *plan.Plan) *plan.Plan {
	t.Helper()
	q, err := p.Clone()
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// TestCheckCatches breaks plans in the ways the original's runtime broke
// (a slot reused while its value is live, several results of one MPS
// region handed over through one slot, a result read from the wrong
// offset) and in others, and requires Check to say what is wrong.
func TestCheckCatches(t *testing.T) {
	base := qwenPlan(t, plan.Options{})
	if err := plan.Check(base); err != nil {
		t.Fatal(err)
	}
	// A step with several results, read by a Metal step.
	var multi *plan.Step
	for _, st := range base.Steps {
		if st.Kind == plan.StepMPS && len(st.Outputs) >= 3 && multi == nil {
			multi = st
		}
	}
	if multi == nil {
		t.Fatal("no MPS step with three results in the toy model")
	}
	firstMetalRead := func(p *plan.Plan) (*plan.Dispatch, int) {
		for _, st := range p.Steps {
			for _, d := range st.Dispatches {
				for j, b := range d.Bindings {
					if b.Buffer == plan.BufArena && b.Access == "read" {
						return d, j
					}
				}
			}
		}
		t.Fatal("no Metal read binding")
		return nil, 0
	}
	cases := []struct {
		name   string
		break_ func(p *plan.Plan)
		want   string
	}{
		{"two results of one region in one slot", func(p *plan.Plan) {
			st := p.Steps[multi.Index]
			p.Values[st.Outputs[1]].Offset = p.Values[st.Outputs[0]].Offset
		}, "share bytes"},
		{"slot reused while live", func(p *plan.Plan) {
			// A value that dies early gets the slot of one that is live
			// over its whole range.
			for _, a := range p.Values {
				for _, b := range p.Values {
					if a != b && a.Bytes > 0 && b.Bytes > 0 && b.Def <= a.Def && a.Last <= b.Last && a.Offset != b.Offset {
						a.Offset = b.Offset
						return
					}
				}
			}
		}, "share bytes"},
		{"binding at the wrong offset", func(p *plan.Plan) {
			d, j := firstMetalRead(p)
			d.Bindings[j].Offset += p.Align
		}, "binding #"},
		{"live range cut short", func(p *plan.Plan) {
			for _, st := range p.Steps {
				for _, id := range st.Inputs {
					if v := p.Values[id]; v.Kind == plan.KindResult && v.Last == st.Index && v.Def < st.Index-1 {
						v.Last = v.Def
						return
					}
				}
			}
		}, "after its live range"},
		{"a kernel writes what its step only reads", func(p *plan.Plan) {
			d, j := firstMetalRead(p)
			d.Bindings[j].Access = "read_write"
		}, "only reads"},
		{"an output never written", func(p *plan.Plan) {
			for _, st := range p.Steps {
				if st.Kind == plan.StepMetal {
					st.Dispatches = st.Dispatches[:len(st.Dispatches)-1]
					return
				}
			}
		}, "holds"},
		{"a misaligned slot", func(p *plan.Plan) { p.Values[0].Offset += 4 }, "not aligned"},
		{"a slot outside the arena", func(p *plan.Plan) { p.ArenaBytes = p.Align }, "outside the arena"},
		{"a weight written", func(p *plan.Plan) {
			for _, st := range p.Steps {
				for _, d := range st.Dispatches {
					for j, b := range d.Bindings {
						if b.Buffer == plan.BufWeights {
							d.Bindings[j].Access = "write"
							return
						}
					}
				}
			}
		}, "writes weight"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := clone(t, base)
			c.break_(p)
			err := plan.Check(p)
			if err == nil {
				t.Fatalf("Check passed a plan with %s", c.name)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("Check: %v\nwant a message containing %q", err, c.want)
			}
		})
	}
}

func parse(t *testing.T, src string) *ir.Operation {
	t.Helper()
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	f, err := asm.Parse(ctx, "in.mlir", []byte(src), asm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := ir.Verify(f.Op); err != nil {
		t.Fatal(err)
	}
	return f.Op
}

// TestBuildErrors checks the located errors of functions that cannot be
// planned.
func TestBuildErrors(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"not split", `func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.exp %a : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}`, "in.mlir:2:8: error: 'graph.exp' op is outside any region; plan a function after hybrid-split"},
		{"dynamic shape", `func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = thunk.call @f_thunk0(%a) {target = "host"} : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: tensor<?xf32>):
    %e = graph.exp %x : (tensor<?xf32>) -> tensor<?xf32>
    thunk.yield %e : tensor<?xf32>
  }
  return %0 : tensor<?xf32>
}`, "argument #0: type tensor<?xf32> has a dynamic dim; a plan needs static shapes"},
		{"no manifest", `func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = thunk.call @f_thunk0(%a) {target = "metal"} : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    %e = graph.exp %x : (tensor<4xf32>) -> tensor<4xf32>
    thunk.yield %e : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}`, "in.mlir:2:8: error: 'thunk.call' op has no region @f_thunk0 in the Metal manifest"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := parse(t, c.src)
			f, err := ref.EntryFunc(m, "")
			if err != nil {
				t.Fatal(err)
			}
			_, err = plan.Build(f, nil, plan.Options{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Build: %v\nwant %q", err, c.want)
			}
		})
	}
}

// TestReadJSONErrors checks that ReadJSON refuses other versions, unknown
// fields and plans that fail Check.
func TestReadJSONErrors(t *testing.T) {
	var b bytes.Buffer
	if err := qwenPlan(t, plan.Options{}).WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	good := b.String()
	cases := []struct{ name, src, want string }{
		{"version", strings.Replace(good, `"version": 1`, `"version": 2`, 1), "version 2, this rlx reads version 1"},
		{"no version", `{"function": "f"}`, "no version field"},
		{"unknown field", strings.Replace(good, `"align"`, `"alignment"`, 1), "unknown field"},
		{"broken", regexp.MustCompile(`"arena_bytes": \d+`).ReplaceAllString(good, `"arena_bytes": 256`), "outside the arena"},
	}
	for _, c := range cases {
		_, err := plan.ReadJSON(strings.NewReader(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: ReadJSON: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestCarry checks the two ways a state is carried: aliased when its
// argument is dead before the result is written, copied otherwise.
func TestCarry(t *testing.T) {
	src := `func.func @step(%s: tensor<64xf32> {rlx.name = "s"}, %t: tensor<64xf32> {rlx.name = "t"}, %x: tensor<64xf32> {rlx.name = "x"}) -> (tensor<64xf32> {rlx.name = "s"}, tensor<64xf32> {rlx.name = "t"}, tensor<64xf32> {rlx.name = "y"}) {
  %0 = thunk.call @step_thunk0(%s, %x) {target = "host"} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
  ^bb0(%a: tensor<64xf32>, %b: tensor<64xf32>):
    %e = graph.add %a, %b : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    thunk.yield %e : tensor<64xf32>
  }
  %1:2 = thunk.call @step_thunk1(%0, %t) {target = "host"} : (tensor<64xf32>, tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  ^bb0(%a: tensor<64xf32>, %b: tensor<64xf32>):
    %e = graph.exp %a : (tensor<64xf32>) -> tensor<64xf32>
    %f = graph.mul %a, %b : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    thunk.yield %e, %f : tensor<64xf32>, tensor<64xf32>
  }
  return %1#0, %1#1, %0 : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}`
	f, err := ref.EntryFunc(parse(t, src), "")
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.Build(f, nil, plan.Options{Carry: true})
	if err != nil {
		t.Fatal(err)
	}
	// %s dies at step 0 and %1#0 is written at step 1: aliased. %t is
	// read by step 1, which writes %1#1: copied after it.
	want := []plan.Carry{{Name: "s", Input: 0, Output: 0, Mode: plan.CarryAlias}, {Name: "t", Input: 1, Output: 1, Mode: plan.CarryCopy}}
	if len(p.Carries) != 2 || p.Carries[0] != want[0] || p.Carries[1] != want[1] {
		t.Fatalf("carries %+v, want %+v", p.Carries, want)
	}
	if s, r := p.Values[p.Inputs[0].Value], p.Values[p.Outputs[0].Value]; s.Offset != r.Offset {
		t.Errorf("aliased state: argument at %d, result at %d", s.Offset, r.Offset)
	}
	last := p.Steps[len(p.Steps)-1]
	if last.Kind != plan.StepCopy || len(last.Copies) != 1 || last.Copies[0].To != p.Inputs[1].Value {
		t.Errorf("last step %+v, want a copy into %%arg1", last)
	}
	text := p.String()
	for _, w := range []string{`carry "s" input 0 <- output 0 (alias)`, `carry "t" input 1 <- output 1 (copy)`, "step 2 copy"} {
		if !strings.Contains(text, w) {
			t.Errorf("the printed plan lacks %q:\n%s", w, text)
		}
	}
}

// TestClone: a copy equals the plan and does not share its values; a plan
// that fails Check does not clone.
func TestClone(t *testing.T) {
	p := qwenPlan(t, plan.Options{})
	q, err := p.Clone()
	if err != nil {
		t.Fatal(err)
	}
	if p.String() != q.String() {
		t.Fatal("the clone prints differently")
	}
	q.Values[0].Offset++
	if p.Values[0].Offset == q.Values[0].Offset {
		t.Fatal("the clone shares its values with the plan")
	}
	st := p.Steps[0]
	p.Values[st.Outputs[0]].Bytes = -1
	if _, err := p.Clone(); err == nil {
		t.Fatal("a plan that fails Check cloned")
	}
}
