package backend

import (
	"fmt"

	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/plan"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// Backend runs one plan, many times.
type Backend interface {
	// Name is the backend's name as rlx-run --backend spells it.
	Name() string
	// Run writes inputs (one per function argument) into the arena, runs
	// every step and returns the function's results. With a plan that
	// carries states, a nil input for a carried argument keeps what the
	// previous run left in its slot.
	Run(inputs []*tensor.Tensor) ([]*tensor.Tensor, error)
	// Stats returns counts of what the runs so far did.
	Stats() Stats
	// Close releases what the backend holds (processes, files, devices).
	Close() error
}

// Stats count what a backend's runs did.
type Stats struct {
	Runs       int
	Steps      int // steps run (all kinds)
	Dispatches int // kernel dispatches
	MPS        int // MPS executables run
	Waits      int // CPU waits for the device (commit and wait)
}

// Options control Compile.
type Options struct {
	Plan  plan.Options
	Metal metal.Options
}

// Compiled is a split function made ready to run: its plan and the code
// the plan's steps run.
type Compiled struct {
	// Module is the split module and Func its planned function; neither
	// is changed by Compile or the backends.
	Module, Func *ir.Operation
	Plan         *plan.Plan
	// MSL is the emitted Metal source, its kernels and manifest.
	MSL *metal.Output
	// Program is Func as the reference interpreter runs it; its Params
	// describe the weights (packed formats, gather bounds).
	Program *ref.Program
}

// Compile plans function entry of module (a module after hybrid-split;
// entry "" picks the only public function): it emits the Metal kernels of
// the module's thunk regions and builds the plan from their manifest.
func Compile(module *ir.Operation, entry string, opts Options) (*Compiled, error) {
	f, err := ref.EntryFunc(module, entry)
	if err != nil {
		return nil, err
	}
	return CompileFunc(f, opts)
}

// CompileFunc is Compile of the func.func f, in its module.
func CompileFunc(f *ir.Operation, opts Options) (*Compiled, error) {
	module := f.ParentOp()
	if module == nil {
		return nil, ir.OpError(f, "is not in a module")
	}
	m, err := EmitModule(module, opts)
	if err != nil {
		return nil, err
	}
	return m.compile(f)
}

// Module is a split module whose Metal kernels are emitted once, for
// compiling several of its functions: Compile emits the whole module for
// each.
type Module struct {
	module *ir.Operation
	opts   Options
	msl    *metal.Output
}

// EmitModule emits the Metal kernels of module's thunk regions.
func EmitModule(module *ir.Operation, opts Options) (*Module, error) {
	out, err := metal.Emit(module, opts.Metal)
	if err != nil {
		return nil, err
	}
	return &Module{module: module, opts: opts, msl: out}, nil
}

// Compile is backend.Compile of function entry, on the kernels m emitted.
// The Compiled results of one Module share their MSL output.
func (m *Module) Compile(entry string) (*Compiled, error) {
	f, err := ref.EntryFunc(m.module, entry)
	if err != nil {
		return nil, err
	}
	return m.compile(f)
}

func (m *Module) compile(f *ir.Operation) (*Compiled, error) {
	prog, err := ref.CompileFunc(f)
	if err != nil {
		return nil, err
	}
	p, err := plan.Build(f, m.msl.Manifest, m.opts.Plan)
	if err != nil {
		return nil, err
	}
	return &Compiled{Module: m.module, Func: f, Plan: p, MSL: m.msl, Program: prog}, nil
}

// spec returns the interpreter's description of weight w: the program's
// (with the packed format a dequant_matmul reads it in, so that seeded
// weights are valid blocks), or one made from the plan's type.
func (c *Compiled) spec(w *plan.Weight) (ref.Spec, error) {
	for _, s := range c.Program.Params() {
		if s.Name == w.Name {
			return s, nil
		}
	}
	dt, shape, err := ParseType(w.Type)
	if err != nil {
		return ref.Spec{}, err
	}
	return ref.Spec{Name: w.Name, Type: ref.TensorType{DType: dt, Shape: shape}}, nil
}

// LoadWeights returns the plan's weight buffer: every param from w, by
// name, checked against the plan's type, and every kernel constant, each
// at its offset.
func (c *Compiled) LoadWeights(w ref.Weights) ([]byte, error) {
	buf := make([]byte, c.Plan.WeightBytes)
	for _, pw := range c.Plan.Weights {
		var data []byte
		if pw.Kind == plan.WeightConstant {
			var err error
			if data, err = hexBytes(pw.Data); err != nil {
				return nil, fmt.Errorf("constant %s: %v", pw.Name, err)
			}
		} else {
			s, err := c.spec(pw)
			if err != nil {
				return nil, err
			}
			t, err := w.Weight(s)
			if err != nil {
				return nil, err
			}
			if !s.Type.Matches(t) {
				return nil, fmt.Errorf("weight %q is %s, expected %s", pw.Name, t.Type(), pw.Type)
			}
			if data, err = TensorBytes(t); err != nil {
				return nil, fmt.Errorf("weight %q: %v", pw.Name, err)
			}
		}
		if int64(len(data)) != pw.Bytes {
			return nil, fmt.Errorf("weight %q holds %d bytes, the plan says %d", pw.Name, len(data), pw.Bytes)
		}
		copy(buf[pw.Offset:], data)
	}
	return buf, nil
}

// Regions returns, for each step of the plan, the region op of Func it
// runs (nil for a copy step).
func (c *Compiled) Regions() ([]*ir.Operation, error) {
	return Regions(c.Func, c.Plan)
}

// Regions matches the steps of p with the region ops of f, a function
// with the same regions as the one p was built from (such as its copy
// after lower-to-mps).
func Regions(f *ir.Operation, p *plan.Plan) ([]*ir.Operation, error) {
	out := make([]*ir.Operation, len(p.Steps))
	i := 0
	for op := range f.Region(0).First().Ops() {
		if op.NumRegions() == 0 {
			continue
		}
		for i < len(p.Steps) && p.Steps[i].Kind == plan.StepCopy {
			i++
		}
		if i == len(p.Steps) || p.Steps[i].Symbol != ir.SymbolName(op) {
			return nil, ir.OpError(op, "does not match the plan's step %d", i)
		}
		out[i] = op
		i++
	}
	for ; i < len(p.Steps); i++ {
		if p.Steps[i].Kind != plan.StepCopy {
			return nil, fmt.Errorf("the plan's step %d (@%s) has no region in @%s", i, p.Steps[i].Symbol, p.Function)
		}
	}
	return out, nil
}
