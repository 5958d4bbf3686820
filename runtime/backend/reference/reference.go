package reference

import (
	"github.com/rlx-compiler/rlx/internal/mpsregions"
	"github.com/rlx-compiler/rlx/runtime/backend"
	"github.com/rlx-compiler/rlx/runtime/plan"
	"github.com/rlx-compiler/rlx/runtime/ref"
)

// Backend is the reference backend.
type Backend struct {
	backend.Runner
	progs []*ref.Program // per step; nil for copy steps
	w     *backend.BufferWeights
}

// New prepares c's plan: it loads the weights from w into the weight
// buffer and compiles each region, outlined, for the interpreter.
func New(c *backend.Compiled, w ref.Weights) (*Backend, error) {
	buf, err := c.LoadWeights(w)
	if err != nil {
		return nil, err
	}
	regions, err := c.Regions()
	if err != nil {
		return nil, err
	}
	b := &Backend{progs: make([]*ref.Program, len(regions)), w: backend.NewBufferWeights(c.Plan, buf)}
	for i, op := range regions {
		if op == nil {
			continue
		}
		if b.progs[i], err = ref.Compile(mpsregions.Outline(op), ""); err != nil {
			return nil, err
		}
	}
	b.Runner = backend.Runner{Plan: c.Plan, Arena: make([]byte, c.Plan.ArenaBytes), Weights: buf, M: b}
	return b, nil
}

// Name returns "ref".
func (b *Backend) Name() string { return "ref" }

// Close does nothing: the backend holds only memory.
func (b *Backend) Close() error { return nil }

// Metal runs a Metal step's region through the interpreter.
func (b *Backend) Metal(st *plan.Step) error { return b.step(st) }

// MPS runs an MPS step's region through the interpreter.
func (b *Backend) MPS(st *plan.Step) error { return b.step(st) }

// Host runs a host step's region through the interpreter.
func (b *Backend) Host(st *plan.Step) error { return b.step(st) }

func (b *Backend) step(st *plan.Step) error {
	return backend.Interpret(b.Arena, b.Plan, st, b.progs[st.Index], b.w)
}
