package run

import (
	"fmt"
	"strings"

	"github.com/rlx-compiler/rlx/internal/outfile"
	"github.com/rlx-compiler/rlx/runtime/backend"
	"github.com/rlx-compiler/rlx/runtime/backend/metal"
	"github.com/rlx-compiler/rlx/runtime/backend/reference"
	"github.com/rlx-compiler/rlx/runtime/backend/sim"
	"github.com/rlx-compiler/rlx/runtime/plan"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// backends are the names --backend takes, in the order the help lists
// them.
var backends = []string{"ref", "sim", "metal"}

func checkBackend(name, flag string) error {
	if name == "" {
		return nil
	}
	for _, b := range backends {
		if b == name {
			return nil
		}
	}
	return fmt.Errorf("--%s: '%s' is not one of %s", flag, name, strings.Join(backends, ", "))
}

// planOptions are the plan's options from the flags.
func (r *runner) planOptions() backend.Options {
	return backend.Options{Plan: plan.Options{Align: r.o.align, Guard: r.o.guard, Carry: r.o.carry}}
}

// compile plans p's function for a backend.
func (r *runner) compile(p *ref.Program) (*backend.Compiled, error) {
	return backend.CompileFunc(p.Func(), r.planOptions())
}

// open prepares backend name for p with weights w.
func (r *runner) open(name string, p *ref.Program, w ref.Weights) (backend.Backend, error) {
	c, err := r.compile(p)
	if err != nil {
		return nil, err
	}
	var b backend.Backend
	switch name {
	case "ref":
		b, err = reference.New(c, w)
	case "sim":
		b, err = sim.New(c, w, sim.Options{})
	case "metal":
		b, err = metal.New(c, w, metal.Options{})
	}
	if err != nil {
		return nil, err
	}
	if r.o.profile {
		setProfile(b, r)
	}
	return b, nil
}

// setProfile sends the per-step times of backends with a Runner to
// stderr.
func setProfile(b backend.Backend, r *runner) {
	switch b := b.(type) {
	case *reference.Backend:
		b.Profile = r.stderr
	case *sim.Backend:
		b.Profile = r.stderr
	}
}

// runBackend runs p once through backend name.
func (r *runner) runBackend(name string, p *ref.Program, inputs []*tensor.Tensor, w ref.Weights) ([]*tensor.Tensor, error) {
	b, err := r.open(name, p, w)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	if r.o.profile {
		fmt.Fprintf(r.stderr, "profile of @%s on the %s backend:\n", p.Name(), name)
	}
	return b.Run(inputs)
}

// printPlan prints the plan of p (--plan), and writes it as JSON
// (--plan-json).
func (r *runner) printPlan(p *ref.Program) int {
	c, err := r.compile(p)
	if err != nil {
		return r.fail(err)
	}
	if r.o.planJSON != "" {
		f, err := outfile.Create(r.o.planJSON)
		if err != nil {
			return r.fail(fmt.Errorf("cannot write the plan: %v", unwrapPath(err)))
		}
		if err := c.Plan.WriteJSON(f); err != nil {
			f.Discard()
			return r.fail(err)
		}
		if err := f.Commit(); err != nil {
			return r.fail(fmt.Errorf("cannot write the plan: %v", err))
		}
	}
	if r.o.plan {
		if err := c.Plan.Print(r.stdout); err != nil {
			return r.fail(err)
		}
	}
	return 0
}
