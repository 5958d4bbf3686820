package suite

import (
	"fmt"

	"github.com/rlx-compiler/rlx/codegen/metal/opsuite"
	"github.com/rlx-compiler/rlx/dialect/builtin"
	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/internal/conditioning"
	"github.com/rlx-compiler/rlx/internal/mpsregions"
	"github.com/rlx-compiler/rlx/internal/randgraph"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/passes/hybridsplit"
)

// RandomCases are hybrid-split's random functions (internal/randgraph)
// for seeds first to first+n-1, named g<seed>, split with every compute
// op kept native (graph.ComputeOpNames), so that each is one thunk region
// of emitted kernels, fused where the emitter fuses: the functions that
// runtime/backend/sim's TestRandomGraphs runs in its native mode on the
// CPU, with the same seeded inputs and weights (InputSeed is the
// function's seed). Each result must be within the NMSE limit of the
// widest-rounding element type in the function (conditioning.Limit).
func RandomCases(first, n int64) ([]Case, error) {
	if first < 1 || n < 0 {
		return nil, fmt.Errorf("random cases: seeds start at 1 and count up (got first %d, n %d)", first, n)
	}
	m, err := randgraph.SeededModule(mpsregions.NewContext(), first, n)
	if err != nil {
		return nil, err
	}
	native := hybridsplit.Options{NativeOps: graph.ComputeOpNames()}
	var cases []Case
	seed := first
	for f := range builtin.Body(m).Ops() {
		if _, err := hybridsplit.Split(f, native); err != nil {
			return nil, err
		}
		fc, ok := fn.AsFunc(f)
		if !ok {
			return nil, fmt.Errorf("random cases: %s in the module, want func.func", f.Name())
		}
		cases = append(cases, Case{
			Case:      opsuite.Case{Name: fc.Name(), Limit: conditioning.Limit(f)},
			Func:      ir.Sprint(f, ir.PrintOptions{}),
			InputSeed: uint64(seed),
		})
		seed++
	}
	return cases, nil
}
