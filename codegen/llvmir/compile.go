package llvmir

import (
	llir "github.com/llir/llvm/ir"

	"github.com/rlx-compiler/rlx/codegen/mps"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/backend"
	"github.com/rlx-compiler/rlx/target"
)

// Options control Compile.
type Options struct {
	// Function is the function to compile ("" for the only public one).
	Function string
	// Backend holds the plan's and the Metal kernels' options.
	Backend backend.Options
	// MPS holds the MPSGraph builders' options; the host module passes
	// the builders the constants they take from their dictionary, so the
	// app's builders must be written with the same MaxInlineBytes.
	MPS mps.Options
	// Target is the device the module was split for (nil:
	// target.Default); lower-to-mps lowers the MPS regions for it.
	Target *target.Target
}

// Output is everything Compile made.
type Output struct {
	// Compiled is the plan with the Metal kernels and their manifest.
	Compiled *backend.Compiled
	// MPS is the MPSGraph builders (nil when the plan has no MPS step).
	MPS *mps.Output
	// Host is the host module, Header its C header.
	Host   *llir.Module
	Header string
}

// Compile plans the function of a module after hybrid-split and writes
// everything its host module needs: the Metal kernels and the plan
// (backend.Compile), the MPSGraph builders (lower-to-mps on a copy, then
// codegen/mps), and the host module itself.
func Compile(module *ir.Operation, opts Options) (*Output, error) {
	c, err := backend.Compile(module, opts.Function, opts.Backend)
	if err != nil {
		return nil, err
	}
	out := &Output{Compiled: c}
	in := &Input{Plan: c.Plan, Builders: map[string]Builder{}}
	for _, k := range c.MSL.Manifest.Kernels {
		in.Kernels = append(in.Kernels, k.Name)
	}
	if out.MPS, err = c.Builders(opts.Target, opts.MPS); err != nil {
		return nil, err
	}
	if out.MPS != nil {
		for _, b := range out.MPS.Builders {
			hb := Builder{Function: b.Function}
			for _, w := range b.Weights {
				hb.Weights = append(hb.Weights, w.Name)
			}
			for _, k := range b.Constants {
				hb.Constants = append(hb.Constants, Constant{Key: k.Key, Data: k.Data})
			}
			in.Builders[b.Symbol] = hb
		}
	}
	if out.Host, err = Emit(in); err != nil {
		return nil, err
	}
	out.Header = Header(c.Plan)
	return out, nil
}
