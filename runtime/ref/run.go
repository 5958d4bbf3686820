package ref

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// env is what one run gives the ops beyond their operands.
type env struct {
	weights Weights
}

// param compiles a graph.param: it records the weight's spec (merging the
// uses of one name) and returns the op that fetches it at run time.
func (c *compiler) param(op *ir.Operation, t TensorType) (execFn, error) {
	// graph.param and mps.placeholder both name their weight in "name".
	name := graph.Param{Op: op}.Name()
	idx, ok := c.paramIdx[name]
	if !ok {
		idx = len(c.p.params)
		c.paramIdx[name] = idx
		c.p.params = append(c.p.params, Spec{Name: name, Type: t})
	}
	s := &c.p.params[idx]
	if s.Type.String() != t.String() {
		return nil, ir.OpError(op, "reads weight %q as %v, but an earlier graph.param reads it as %v", name, t, s.Type)
	}
	if s.Quant == nil && t.DType == tensor.UI8 {
		s.Quant = c.quantUse(op.Result(0))
	}
	if t.DType.IsInt() && t.DType != tensor.UI8 {
		if b := c.indexBound(op.Result(0)); b > 0 && (s.IndexBound == 0 || b < s.IndexBound) {
			s.IndexBound = b
		}
	}
	p := c.p
	return func(e *env, _, out []*tensor.Tensor) error {
		s := &p.params[idx]
		if e.weights == nil {
			return fmt.Errorf("no weights to bind %q to", s.Name)
		}
		w, err := e.weights.Weight(*s)
		if err != nil {
			return err
		}
		if !s.Type.Matches(w) {
			return fmt.Errorf("weight %q is %s, expected %v", s.Name, w.Type(), s.Type)
		}
		out[0] = w
		return nil
	}, nil
}

// Run runs the program on inputs (one per function argument, checked
// against the signature) with weights bound from w, and returns the
// function's results. Tensors are immutable: results may share storage
// with inputs, weights or constants and must not be modified.
//
// Errors are *ir.Diagnostic values located at the failing op (or at the
// function for bad inputs), with a note for each func.call the op was
// reached through. Run never panics on bad inputs or weights.
func (p *Program) Run(inputs []*tensor.Tensor, w Weights) ([]*tensor.Tensor, error) {
	return p.run(inputs, w, nil, runHooks{})
}

// RunFlushed is Run with every f32 subnormal that an op returns flushed
// to a zero of its sign before the next op reads it: what a GPU that
// flushes f32 subnormals computes (the Metal Shading Language lets an
// implementation flush them). A result that differs between Run and
// RunFlushed is not decided by the program alone
// (internal/conditioning's Moved).
func (p *Program) RunFlushed(inputs []*tensor.Tensor, w Weights) ([]*tensor.Tensor, error) {
	return p.run(inputs, w, nil, runHooks{result: flushSubnormals})
}

// RunOperandsMoved is Run with each operand an op reads passed through
// move first (op the op, i the operand's index): each use of a value may
// be moved differently, as where two of an op's operands are one value,
// or one value feeds two ops. move must not modify t; it returns t or a
// new tensor of t's type. internal/conditioning's Moved moves each float
// operand of a rounding op by a few ulps: a result that cancels inside
// one op (a LayerNorm of γ·n + β with β = γ and n within 10^-4 of −1)
// moves far, as the GPU's differently rounded n moves it.
func (p *Program) RunOperandsMoved(inputs []*tensor.Tensor, w Weights, move func(op *ir.Operation, i int, t *tensor.Tensor) *tensor.Tensor) ([]*tensor.Tensor, error) {
	return p.run(inputs, w, nil, runHooks{operand: move})
}

// runHooks change what an op reads (operand, per use) and what it
// returns (result) in run; nil hooks leave them as they are.
type runHooks struct {
	operand func(op *ir.Operation, i int, t *tensor.Tensor) *tensor.Tensor
	result  func(t *tensor.Tensor) *tensor.Tensor
}

// RunProfile is Run that also adds the time spent in each op to prof
// (from p.NewProfile). A Profile must not be shared by concurrent runs.
func (p *Program) RunProfile(inputs []*tensor.Tensor, w Weights, prof *Profile) ([]*tensor.Tensor, error) {
	return p.run(inputs, w, prof, runHooks{})
}

func (p *Program) run(inputs []*tensor.Tensor, w Weights, prof *Profile, h runHooks) (results []*tensor.Tensor, err error) {
	if len(inputs) != len(p.args) {
		return nil, ir.OpErrorPlain(p.fn, "@%s takes %d arguments, got %d inputs", p.name, len(p.args), len(inputs))
	}
	for i, x := range inputs {
		if x == nil {
			return nil, ir.OpErrorPlain(p.fn, "input #%d is missing", i)
		}
		if !p.args[i].Type.Matches(x) {
			return nil, ir.OpErrorPlain(p.fn, "input #%d is %s, but argument #%d of @%s is %v", i, x.Type(), i, p.name, p.args[i].Type)
		}
	}
	slots := make([]*tensor.Tensor, p.slots)
	for i, s := range p.argSlots {
		slots[s] = inputs[i]
	}
	e := &env{weights: w}
	in := make([]*tensor.Tensor, p.maxIn)
	out := make([]*tensor.Tensor, p.maxOut)
	pc := 0
	defer func() {
		if r := recover(); r != nil {
			if pc >= len(p.code) {
				panic(r)
			}
			results, err = nil, p.errorAt(&p.code[pc], fmt.Errorf("internal error: %v", r))
		}
	}()
	for ; pc < len(p.code); pc++ {
		inst := &p.code[pc]
		args := in[:len(inst.in)]
		for j, s := range inst.in {
			args[j] = slots[s]
			if h.operand != nil && args[j] != nil {
				if args[j] = h.operand(inst.op, j, args[j]); args[j] == nil || args[j].Type() != slots[s].Type() {
					return nil, p.errorAt(inst, fmt.Errorf("operand #%d moved to %v, not its type %v", j, typeOf(args[j]), typeOf(slots[s])))
				}
			}
		}
		res := out[:len(inst.out)]
		var t0 time.Time
		if prof != nil {
			t0 = time.Now()
		}
		if err := inst.exec(e, args, res); err != nil {
			return nil, p.errorAt(inst, err)
		}
		if prof != nil {
			prof.time[inst.kind] += time.Since(t0)
			prof.count[inst.kind]++
		}
		for j, s := range inst.out {
			r := res[j]
			if r == nil || !inst.outT[j].Matches(r) {
				return nil, p.errorAt(inst, fmt.Errorf("result #%d is %v, but its type is %v", j, typeOf(r), inst.outT[j]))
			}
			if h.result != nil {
				r = h.result(r)
			}
			slots[s] = r
			res[j] = nil
		}
		clear(args)
		for _, s := range inst.free {
			slots[s] = nil
		}
	}
	results = make([]*tensor.Tensor, len(p.resSlots))
	for i, s := range p.resSlots {
		results[i] = slots[s]
	}
	return results, nil
}

// flushSubnormals returns t, or, where t is an f32 tensor holding
// subnormals, a copy with each of them a zero of its sign (t may share
// its storage with an input or a weight, so it is not changed).
func flushSubnormals(t *tensor.Tensor) *tensor.Tensor {
	if t.DType() != tensor.F32 {
		return t
	}
	var c *tensor.Tensor
	for i, v := range t.Floats() {
		if a := math.Abs(float64(v)); !(a > 0 && a < 0x1p-126) {
			continue // zero, normal, infinite or NaN
		}
		if c == nil {
			c = t.Clone()
		}
		c.Floats()[i] = float32(math.Copysign(0, float64(v)))
	}
	if c == nil {
		return t
	}
	return c
}

func typeOf(t *tensor.Tensor) string {
	if t == nil {
		return "missing"
	}
	return t.Type()
}

// errorAt turns a kernel's error into a diagnostic at the op: "'graph.gather'
// op index 2 ..." (kernel messages start with the op name, which moves into
// the prefix), with a note for every call the op was inlined through.
func (p *Program) errorAt(inst *instr, err error) *ir.Diagnostic {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, inst.op.Name()+": ")
	d := ir.OpError(inst.op, "%s", msg)
	for s := inst.site; s != nil; s = s.parent {
		d.AttachNote(s.call.Loc(), "called from here")
	}
	return d
}

// Profile accumulates, over runs of one program, the time spent in each
// kind of op (by op name).
type Profile struct {
	names []string
	time  []time.Duration
	count []int
}

// ProfileEntry is the total for one op name.
type ProfileEntry struct {
	Op    string
	Calls int
	Time  time.Duration
}

// NewProfile returns an empty profile for p's ops.
func (p *Program) NewProfile() *Profile {
	return &Profile{names: p.kinds, time: make([]time.Duration, len(p.kinds)), count: make([]int, len(p.kinds))}
}

// Entries returns the ops that ran, the most expensive first.
func (pr *Profile) Entries() []ProfileEntry {
	var out []ProfileEntry
	for i, n := range pr.names {
		if pr.count[i] > 0 {
			out = append(out, ProfileEntry{Op: n, Calls: pr.count[i], Time: pr.time[i]})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time > out[j].Time })
	return out
}

// Time returns the total time spent in ops named op.
func (pr *Profile) Time(op string) time.Duration {
	for i, n := range pr.names {
		if n == op {
			return pr.time[i]
		}
	}
	return 0
}
