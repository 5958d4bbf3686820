package metal_test

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/codegen/metal/mslcpu"
	"github.com/rlx-compiler/rlx/codegen/metal/opsuite"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// opCase is a case of the op suite (package opsuite): a function whose
// body is one thunk.call holding Body; %a<i> are the region's operands.
type opCase = opsuite.Case

// suite is a set of cases emitted as one module, compiled once.
type suite struct {
	cc     *mslcpu.Compiler
	cases  []opCase
	module *ir.Operation
	out    *metal.Output
	bins   map[mslcpu.Mode]*mslcpu.Binary
}

var (
	suiteOnce sync.Once
	theSuite  *suite
	suiteErr  error

	ccOnce sync.Once
	cc     *mslcpu.Compiler
	ccErr  error

	tempMu   sync.Mutex
	tempDirs []string
)

// compiler returns the tests' harness compiler, or skips the test when
// clang++-19 is missing.
func compiler(t *testing.T) *mslcpu.Compiler {
	t.Helper()
	ccOnce.Do(func() { cc, ccErr = mslcpu.NewCompiler() })
	if errors.Is(ccErr, mslcpu.ErrNoClang) {
		t.Skipf("skipping: %v", ccErr)
	}
	if ccErr != nil {
		t.Fatal(ccErr)
	}
	return cc
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, d := range tempDirs {
		os.RemoveAll(d)
	}
	os.Exit(code)
}

func newTempDir() (string, error) {
	d, err := os.MkdirTemp("", "rlx-metal-test")
	if err == nil {
		tempMu.Lock()
		tempDirs = append(tempDirs, d)
		tempMu.Unlock()
	}
	return d, err
}

// parseCases parses the cases as one module.
func parseCases(cases []opCase) (*ir.Operation, error) {
	var src strings.Builder
	for _, c := range cases {
		src.WriteString(c.MLIR())
	}
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	return asm.ParseString(ctx, "cases.mlir", src.String())
}

// opSuite returns the op suite, emitted and compiled (plain build), or
// skips the test when clang++-19 is missing.
func opSuite(t *testing.T) *suite {
	t.Helper()
	c := compiler(t)
	suiteOnce.Do(func() { theSuite, suiteErr = buildSuite(c, suiteOptions, opCases(), mslcpu.Plain) })
	if suiteErr != nil {
		t.Fatal(suiteErr)
	}
	return theSuite
}

func buildSuite(c *mslcpu.Compiler, opts metal.Options, cases []opCase, modes ...mslcpu.Mode) (*suite, error) {
	m, err := parseCases(cases)
	if err != nil {
		return nil, err
	}
	out, err := metal.Emit(m, opts)
	if err != nil {
		return nil, err
	}
	s := &suite{cc: c, cases: cases, module: m, out: out, bins: map[mslcpu.Mode]*mslcpu.Binary{}}
	for _, mode := range modes {
		if err := s.build(mode); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (s *suite) build(mode mslcpu.Mode) error {
	dir, err := newTempDir()
	if err != nil {
		return err
	}
	b, err := s.cc.Build(dir, s.out.Source, s.out.Kernels, mode)
	if err != nil {
		return err
	}
	s.bins[mode] = b
	return nil
}

// caseRun is one case's reference and harness results.
type caseRun struct {
	c        opCase
	region   *metal.Region
	inputs   []*tensor.Tensor
	weights  *ref.TensorWeights
	want     []*tensor.Tensor
	job      *mslcpu.Job
	got      []*tensor.Tensor
	err      error
	nmse     []float64
	dispatch []string
}

func (s *suite) region(name string) *metal.Region {
	for _, r := range s.out.Manifest.Regions {
		if r.Function == name {
			return r
		}
	}
	return nil
}

func (s *suite) funcOp(name string) *ir.Operation {
	var f *ir.Operation
	s.module.Walk(func(op *ir.Operation) {
		if ff, ok := fn.AsFunc(op); ok && ff.Name() == name {
			f = op
		}
	})
	return f
}

// prepare computes a case's reference results on seeded inputs and builds
// its harness job.
func (s *suite) prepare(c opCase, seed uint64, opt mslcpu.RegionOptions) (*caseRun, error) {
	cr := &caseRun{c: c, region: s.region(c.Name)}
	if cr.region == nil {
		return nil, fmt.Errorf("%s: no region in the manifest", c.Name)
	}
	p, err := ref.CompileFunc(s.funcOp(c.Name))
	if err != nil {
		return nil, err
	}
	if cr.inputs, err = ref.SeededInputs(seed, p); err != nil {
		return nil, err
	}
	if cr.weights, err = ref.Materialize(ref.Seeded(seed), p); err != nil {
		return nil, err
	}
	if cr.want, err = p.Run(cr.inputs, cr.weights); err != nil {
		return nil, err
	}
	cr.job, err = mslcpu.RegionJob(s.out.Manifest, cr.region, cr.inputs, func(name string) (*tensor.Tensor, error) {
		t, ok := cr.weights.Tensors[name]
		if !ok {
			return nil, fmt.Errorf("no weight %q", name)
		}
		return t, nil
	}, opt)
	for _, d := range cr.region.Dispatches {
		cr.dispatch = append(cr.dispatch, d.Kernel)
	}
	return cr, err
}

// runCases runs cases through the harness binary of mode in one process
// and compares each with the reference.
func (s *suite) runCases(mode mslcpu.Mode, runs []*caseRun) error {
	res, err := s.bins[mode].Run(jobsOf(runs))
	if err != nil {
		return err
	}
	collect(runs, res)
	return nil
}

func jobsOf(runs []*caseRun) []*mslcpu.Job {
	jobs := make([]*mslcpu.Job, len(runs))
	for i, cr := range runs {
		jobs[i] = cr.job
	}
	return jobs
}

// collect decodes the harness results and compares them with the
// reference.
func collect(runs []*caseRun, res []*mslcpu.Result) {
	for i, cr := range runs {
		cr.got, cr.err = mslcpu.RegionOutputs(cr.region, res[i])
		if cr.err != nil {
			continue
		}
		for k := range cr.want {
			e, zero := nmse(cr.want[k], cr.got[k])
			if zero {
				cr.err = fmt.Errorf("result #%d of the reference is all zeros: the case checks nothing", k)
			}
			cr.nmse = append(cr.nmse, e)
		}
	}
}

// nmse is Σ(a−b)²/Σa² over the elements, as ggml's test-backend-ops
// measures it: a NaN in one and not the other, or infinities that differ,
// give +Inf. When a is all zeros it is Σb², and zero reports that.
func nmse(a, b *tensor.Tensor) (e float64, zero bool) {
	if a.DType() != b.DType() || !tensor.ShapeEqual(a.Shape(), b.Shape()) {
		return math.Inf(1), false
	}
	var num, den float64
	for i := range a.Len() {
		x, y := a.Float64(i), b.Float64(i)
		switch {
		case math.IsNaN(x) || math.IsNaN(y):
			if math.IsNaN(x) != math.IsNaN(y) {
				return math.Inf(1), false
			}
			continue
		case math.IsInf(x, 0) || math.IsInf(y, 0):
			if x != y {
				return math.Inf(1), false
			}
			continue
		}
		num += (x - y) * (x - y)
		den += x * x
	}
	if den == 0 {
		return num, true
	}
	return num / den, false
}

// suiteOptions emit the op suite for MSL 3.1, which has bfloat.
var suiteOptions = metal.Options{MSLVersion: "3.1"}
