package sim

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rlx-compiler/rlx/codegen/metal/mslcpu"
	"github.com/rlx-compiler/rlx/internal/mpsregions"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/backend"
	"github.com/rlx-compiler/rlx/runtime/plan"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/target"
)

// Options control New.
type Options struct {
	// Mode builds the kernels plain (the default), or under
	// AddressSanitizer or ThreadSanitizer.
	Mode mslcpu.Mode
	// Target is the device the split was made for; lower-to-mps lowers
	// the MPS regions for it (nil: target.Default).
	Target *target.Target
	// Programs keeps compiled servers for other backends; nil compiles
	// one for this backend alone, removed by Close.
	Programs *Programs
}

// Backend is the sim backend.
type Backend struct {
	backend.Runner
	server   *server
	progs    []*ref.Program // per MPS or host step
	w        *backend.BufferWeights
	programs *Programs
	owned    bool // programs is this backend's own
	files    string
}

// New prepares c's plan: it compiles (or finds) the server of c's
// kernels, maps the arena and the weight buffer, loads the weights from
// w, lowers a copy of the module's MPS regions to mps primitives and
// compiles them, and the host regions, for the interpreter.
func New(c *backend.Compiled, w ref.Weights, opts Options) (b *Backend, err error) {
	b = &Backend{programs: opts.Programs}
	defer func() {
		if err != nil {
			b.Close()
		}
	}()
	if b.programs == nil {
		if b.programs, err = NewPrograms(); err != nil {
			return nil, err
		}
		b.owned = true
	}
	bin, err := b.programs.program(c.MSL, opts.Mode)
	if err != nil {
		return nil, err
	}
	if err := b.compileRegions(c, opts.Target); err != nil {
		return nil, err
	}
	if b.files, err = os.MkdirTemp(b.programs.Dir(), "run"); err != nil {
		return nil, err
	}
	p := c.Plan
	arenaPath, weightPath := filepath.Join(b.files, "arena"), filepath.Join(b.files, "weights")
	b.Runner = backend.Runner{Plan: p, M: b}
	if b.Arena, err = mapFile(arenaPath, p.ArenaBytes); err != nil {
		return nil, err
	}
	if b.Weights, err = mapFile(weightPath, p.WeightBytes); err != nil {
		return nil, err
	}
	buf, err := c.LoadWeights(w)
	if err != nil {
		return nil, err
	}
	copy(b.Weights, buf)
	b.w = backend.NewBufferWeights(p, b.Weights)
	if b.server, err = startServer(bin, opts.Mode, arenaPath, p.ArenaBytes, weightPath, p.WeightBytes); err != nil {
		return nil, err
	}
	if err := b.server.register(c.MSL.Manifest); err != nil {
		return nil, err
	}
	return b, nil
}

// compileRegions compiles the MPS steps after lower-to-mps (on a copy of
// the module) and the host steps as they are, for the interpreter.
func (b *Backend) compileRegions(c *backend.Compiled, t *target.Target) error {
	regions, err := c.Regions()
	if err != nil {
		return err
	}
	b.progs = make([]*ref.Program, len(regions))
	var lowered []*ir.Operation
	for i, st := range c.Plan.Steps {
		if st.Kind == plan.StepMPS {
			if lowered == nil {
				f, err := c.Lowered(t)
				if err != nil {
					return err
				}
				if lowered, err = backend.Regions(f, c.Plan); err != nil {
					return err
				}
			}
			if b.progs[i], err = ref.Compile(mpsregions.Outline(lowered[i]), ""); err != nil {
				return err
			}
		}
		if st.Kind == plan.StepHost {
			if b.progs[i], err = ref.Compile(mpsregions.Outline(regions[i]), ""); err != nil {
				return err
			}
		}
	}
	return nil
}

// Name returns "sim".
func (b *Backend) Name() string { return "sim" }

// Metal runs a Metal step's dispatches in the server.
func (b *Backend) Metal(st *plan.Step) error { return b.server.dispatch(st) }

// MPS runs an MPS step's lowered region through the interpreter.
func (b *Backend) MPS(st *plan.Step) error { return b.interpret(st) }

// Host runs a host step's region through the interpreter.
func (b *Backend) Host(st *plan.Step) error { return b.interpret(st) }

func (b *Backend) interpret(st *plan.Step) error {
	return backend.Interpret(b.Arena, b.Plan, st, b.progs[st.Index], b.w)
}

// Close stops the server and removes the backend's files.
func (b *Backend) Close() error {
	var errs []error
	if b.server != nil {
		if err := b.server.close(); err != nil {
			errs = append(errs, fmt.Errorf("the sim server: %v", err))
		}
		b.server = nil
	}
	errs = append(errs, unmap(b.Arena), unmap(b.Weights))
	b.Arena, b.Weights = nil, nil
	if b.files != "" {
		errs = append(errs, os.RemoveAll(b.files))
	}
	if b.owned && b.programs != nil {
		errs = append(errs, b.programs.Close())
		b.programs = nil
	}
	return errors.Join(errs...)
}
