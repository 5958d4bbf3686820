package sim_test

import (
	"math"
	"testing"

	"github.com/rlx-compiler/rlx/internal/irtest"
	"github.com/rlx-compiler/rlx/internal/runtimetest"
	"github.com/rlx-compiler/rlx/runtime/backend"
	"github.com/rlx-compiler/rlx/runtime/plan"
	"github.com/rlx-compiler/rlx/runtime/ref"
)

// splitStep is a Metal region whose decode kernels split their work: an
// f16 GEMV over K and a GQA attention decode over 300 keys, each writing
// partials to a kernel temporary that a second dispatch merges; a second
// region reads the first's result.
const splitStep = `func.func @step(%x: tensor<1x256xf16>, %q: tensor<1x1x8x128xf16>, %k: tensor<1x300x2x128xf16>, %v: tensor<1x300x2x128xf16>) -> (tensor<1x64xf16>, tensor<1x1x8x128xf16>) {
  %r:2 = thunk.call @step_thunk0(%x, %q, %k, %v) {target = "metal"} : (tensor<1x256xf16>, tensor<1x1x8x128xf16>, tensor<1x300x2x128xf16>, tensor<1x300x2x128xf16>) -> (tensor<1x64xf16>, tensor<1x1x8x128xf16>) {
  ^bb0(%a: tensor<1x256xf16>, %b: tensor<1x1x8x128xf16>, %c: tensor<1x300x2x128xf16>, %d: tensor<1x300x2x128xf16>):
    %w = graph.param "w" : tensor<256x64xf16>
    %0 = graph.matmul %a, %w : (tensor<1x256xf16>, tensor<256x64xf16>) -> tensor<1x64xf16>
    %1 = graph.attention %b, %c, %d {mask = "causal"} : (tensor<1x1x8x128xf16>, tensor<1x300x2x128xf16>, tensor<1x300x2x128xf16>) -> tensor<1x1x8x128xf16>
    thunk.yield %0, %1 : tensor<1x64xf16>, tensor<1x1x8x128xf16>
  }
  %s = thunk.call @step_thunk1(%r#0) {target = "metal"} : (tensor<1x64xf16>) -> tensor<1x64xf16> {
  ^bb0(%a: tensor<1x64xf16>):
    %e = graph.neg %a : (tensor<1x64xf16>) -> tensor<1x64xf16>
    thunk.yield %e : tensor<1x64xf16>
  }
  return %s, %r#1 : tensor<1x64xf16>, tensor<1x1x8x128xf16>
}`

// TestSplitKernels runs splitStep through the sim backend, with guards
// after every arena value: the split kernels' temporaries get slots of
// the arena (written by one dispatch, read by the next, checked by the
// guards) and the results agree with the interpreter.
func TestSplitKernels(t *testing.T) {
	needClang(t)
	mod := irtest.Parse(t, nil, splitStep)
	c, err := backend.Compile(mod, "", backend.Options{Plan: plan.Options{Guard: 64}})
	if err != nil {
		t.Fatal(err)
	}
	temps := 0
	for _, id := range c.Plan.Steps[0].Temps {
		if c.Plan.Values[id].Kind == plan.KindTemp {
			temps++
		}
	}
	if temps != 2 {
		t.Fatalf("step 0 has %d kernel temporaries, want 2 (the GEMV's and attention's partials)", temps)
	}
	fn, err := ref.EntryFunc(mod, "")
	if err != nil {
		t.Fatal(err)
	}
	p, err := ref.CompileFunc(fn)
	if err != nil {
		t.Fatal(err)
	}
	in, err := ref.SeededInputs(3, p)
	if err != nil {
		t.Fatal(err)
	}
	w := ref.Seeded(3)
	want, err := ref.RunModule(mod, "", in, w)
	if err != nil {
		t.Fatal(err)
	}
	b := newBackend(t, c, w)
	got, err := b.Run(in)
	if err != nil {
		t.Fatal(err)
	}
	// f16 results: the codegen's f16 limit (one rounding apart).
	for i := range want {
		e := runtimetest.NMSE(got[i], want[i])
		t.Logf("result %d: NMSE %.3g", i, e)
		if e > 1e-5 || math.IsNaN(e) {
			t.Errorf("result %d: NMSE %g against the interpreter, want at most 1e-5", i, e)
		}
	}
}
