package sim_test

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/codegen/metal/mslcpu"
	"github.com/rlx-compiler/rlx/internal/runtimetest"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/models"
	"github.com/rlx-compiler/rlx/passes/hybridsplit"
	"github.com/rlx-compiler/rlx/runtime/backend"
	"github.com/rlx-compiler/rlx/runtime/backend/sim"
	"github.com/rlx-compiler/rlx/runtime/plan"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

var _ backend.Backend = (*sim.Backend)(nil)

// programs is shared by the tests: compiling a model's kernels takes
// seconds.
var programs *sim.Programs

func TestMain(m *testing.M) {
	var err error
	if programs, err = sim.NewPrograms(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	programs.Close()
	os.Exit(code)
}

// newBackend is sim.New on the shared programs, closed when t ends.
func newBackend(t *testing.T, c *backend.Compiled, w ref.Weights) *sim.Backend {
	t.Helper()
	b, err := sim.New(c, w, sim.Options{Programs: programs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func needClang(t *testing.T) {
	t.Helper()
	if _, err := mslcpu.NewCompiler(); errors.Is(err, mslcpu.ErrNoClang) {
		t.Skip(err)
	}
}

// Tolerances of a whole decode step against the interpreter: the
// codegen's per-kernel limits are NMSE 1e-7 (5e-4 for matmul and
// attention), and a step chains tens of kernels and MPS regions whose
// decompositions (norms, attention) round differently.
const stepNMSE = 1e-6

// TestDecodeStep runs a whole Qwen3.5-like decode step at hidden 1024
// with q4_k projections (GDN and attention layers, conv and recurrent
// states, KV caches) through the sim backend, with guards after every
// value, and compares every result with the interpreter's run of the
// original function (whose bits the ref backend gives). Its GDN layers
// hold the multi-output handoff of the original: one MPS region's q, k, v,
// gate and β read by one Metal step.
func TestDecodeStep(t *testing.T) {
	needClang(t)
	decodeStep(t, runtimetest.Qwen(1024, "q4_k", 0), "")
}

// TestDecodeStepFormats is TestDecodeStep with q5_k projections (the
// format of most of a Q5_K_M file's matrices) and with q3_k (a unit
// format: dequantGEMVUnits).
func TestDecodeStepFormats(t *testing.T) {
	needClang(t)
	for _, f := range []string{"q5_k", "q3_k"} {
		t.Run(f, func(t *testing.T) {
			c := decodeStep(t, runtimetest.Qwen(1024, f, 0), "")
			n := 0
			for _, k := range c.MSL.Kernels {
				if strings.HasPrefix(k.Name, "dequant_gemv_"+f) {
					n++
				}
			}
			if n == 0 {
				t.Errorf("no dequant_gemv_%s kernel in the step", f)
			}
		})
	}
}

// TestDecodeStepFolded is TestDecodeStep with msl-version 3.2 and 255
// cached positions, so that attention decode splits its keys into ranges
// and folds their merge: its threadgroups count themselves in the
// region's status buffer, after the status word, which the runtime zeroes
// before the run and which must be back at zero after it.
func TestDecodeStepFolded(t *testing.T) {
	needClang(t)
	build := func(ctx *ir.Context) (*models.Model, error) {
		c := models.DefaultQwen35()
		c.Hidden, c.Quant, c.Past = 1024, "q4_k", 255
		return models.Qwen35(ctx, c)
	}
	decodeStep(t, build, "3.2")
}

// decodeStep runs one decode step of the model build makes, its kernels
// emitted for msl (the default when empty), and checks every result; it
// returns what it compiled.
func decodeStep(t *testing.T, build func(*ir.Context) (*models.Model, error), msl string) *backend.Compiled {
	s, err := runtimetest.SplitModel(build, hybridsplit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, in := modelData(t, s.Model)
	want, err := ref.RunModule(s.Original, "", in, w)
	if err != nil {
		t.Fatal(err)
	}
	c, err := backend.Compile(s.Module, "", backend.Options{Plan: plan.Options{Guard: 64}, Metal: metal.Options{MSLVersion: msl}})
	if err != nil {
		t.Fatal(err)
	}
	folded := 0
	for _, k := range c.MSL.Kernels {
		if strings.Contains(k.Summary, ", merge folded") {
			folded++
		}
	}
	if (folded > 0) != (msl == "3.2") {
		t.Errorf("msl-version %q: %d kernels fold their merge", msl, folded)
	}
	// The multi-output handoff that broke the original: an MPS step whose
	// results (three or more) one Metal step reads.
	handoffs := 0
	for _, a := range c.Plan.Steps {
		for _, m := range c.Plan.Steps {
			if a.Kind == plan.StepMPS && m.Kind == plan.StepMetal && len(runtimetest.Shared(a, m)) >= 3 {
				handoffs++
				t.Logf("handoff: @%s hands %d results to @%s (%s)", a.Symbol, len(runtimetest.Shared(a, m)), m.Symbol, m.Dispatches[0].Kernel)
			}
		}
	}
	if handoffs == 0 {
		t.Fatal("the decode step has no multi-output handoff")
	}
	start := time.Now()
	b := newBackend(t, c, w)
	prep := time.Since(start)
	start = time.Now()
	got, err := b.Run(in)
	if err != nil {
		t.Fatal(err)
	}
	st := b.Stats()
	t.Logf("plan: %d steps (%d MPS, %d Metal), %d dispatches; prepare %v, run %v; %d CPU wait(s) in the command stream",
		st.Steps, st.MPS, c.Plan.Stats().MetalSteps, st.Dispatches, prep.Round(time.Millisecond), time.Since(start).Round(time.Millisecond), st.Waits)
	if st.Waits != 1 {
		t.Errorf("%d CPU waits per decode step, want 1", st.Waits)
	}
	for i := range want {
		e := runtimetest.NMSE(got[i], want[i])
		t.Logf("result %d (%s): NMSE %.3g", i, c.Plan.Outputs[i].Name, e)
		if e > stepNMSE || math.IsNaN(e) {
			t.Errorf("result %d (%s): NMSE %g against the interpreter, want at most %g", i, c.Plan.Outputs[i].Name, e, stepNMSE)
		}
	}
	return c
}

// TestDecodeSteps runs several decode steps of a Qwen3.5-like model at
// hidden 1024 (q4_k, GDN layers only, so that every state keeps its type)
// with the states carried through the arena: after the first step the
// host writes only the token; the conv and recurrent states stay in the
// arena from one run to the next. Each step's logits and the final states
// are compared with the interpreter decoding the same tokens, carrying
// the states through the host.
func TestDecodeSteps(t *testing.T) {
	needClang(t)
	build := func(ctx *ir.Context) (*models.Model, error) {
		c := models.DefaultQwen35()
		c.Hidden, c.Quant, c.Layers, c.FullAttentionEvery = 1024, "q4_k", 2, 100
		return models.Qwen35(ctx, c)
	}
	s, err := runtimetest.SplitModel(build, hybridsplit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, in := modelData(t, s.Model)
	c, err := backend.Compile(s.Module, "", backend.Options{Plan: plan.Options{Carry: true}})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Plan.Carries) != len(in)-1 {
		t.Fatalf("%d carried states for %d inputs", len(c.Plan.Carries), len(in))
	}
	orig, err := ref.Compile(s.Original, "")
	if err != nil {
		t.Fatal(err)
	}
	b := newBackend(t, c, w)
	tokens := []int64{3, 17, 101, 42}
	args := append([]*tensor.Tensor{}, in...)
	for step, tok := range tokens {
		token, err := tensor.FromInt64(tensor.I32, []int{1, 1}, []int64{tok})
		if err != nil {
			t.Fatal(err)
		}
		args[0] = token
		want, err := orig.Run(args, w)
		if err != nil {
			t.Fatal(err)
		}
		feed := make([]*tensor.Tensor, len(in))
		feed[0] = token
		if step == 0 {
			copy(feed[1:], in[1:])
		}
		got, err := b.Run(feed)
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		for i := range want {
			if e := runtimetest.NMSE(got[i], want[i]); e > stepNMSE || math.IsNaN(e) {
				t.Errorf("step %d result %d (%s): NMSE %g, want at most %g", step, i, c.Plan.Outputs[i].Name, e, stepNMSE)
			} else if i == 0 {
				t.Logf("step %d: logits NMSE %.3g", step, e)
			}
		}
		// The interpreter carries the states through the host.
		for _, cr := range c.Plan.Carries {
			args[cr.Input] = want[cr.Output]
		}
	}
	if st := b.Stats(); st.Waits != len(tokens) {
		t.Errorf("%d CPU waits for %d steps", st.Waits, len(tokens))
	}
}

// modelData returns a model's random weights and inputs (seed 1).
func modelData(t *testing.T, m *models.Model) (ref.Weights, []*tensor.Tensor) {
	t.Helper()
	st, err := m.RandomWeights(1)
	if err != nil {
		t.Fatal(err)
	}
	in, err := m.RandomInputs(1)
	if err != nil {
		t.Fatal(err)
	}
	return &ref.TensorWeights{Tensors: st.Tensors}, in
}
