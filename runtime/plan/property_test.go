package plan_test

import (
	"bytes"
	"flag"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/internal/randgraph"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/passes/hybridsplit"
	"github.com/rlx-compiler/rlx/runtime/plan"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/target"
)

var flagGraphs = flag.Int("graphs", 5000, "random graphs TestRandomPlans walks (hybrid-split's property test walks the same seeds)")

// TestRandomPlans builds the plans of the random functions of
// hybrid-split's property test (randgraph.Seeded, seeds 0 to -graphs) and
// checks them with code of its own, byte by byte, not with plan.Check:
// no two values live at the same time share a byte, and replaying the
// steps, every read of a slot finds the value it expects. The variants
// cover both split modes, the host target (host thunks), two alignments,
// guards, and carried states (arguments and results paired by name where
// their types match). Every plan also round-trips through JSON. Plans
// only: nothing runs, so the whole walk takes a few seconds.
func TestRandomPlans(t *testing.T) {
	n := *flagGraphs
	var tl struct {
		plans, steps, metal, host, values, carries, aliased, copies atomic.Int64
		refused                                                     atomic.Int64
	}
	var mu sync.Mutex
	var fails []string
	next := atomic.Int64{}
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := ir.NewContext()
			dialect.RegisterAll(ctx)
			for {
				seed := next.Add(1) - 1
				if seed >= int64(n) {
					return
				}
				p, refused, err := randomPlan(ctx, seed)
				if err == nil && p != nil {
					err = independentCheck(p)
				}
				if err == nil && p != nil {
					err = jsonRoundTrip(p)
				}
				if err != nil {
					mu.Lock()
					fails = append(fails, fmt.Sprintf("seed %d: %v", seed, err))
					mu.Unlock()
					continue
				}
				if refused {
					tl.refused.Add(1)
					continue
				}
				s := p.Stats()
				tl.plans.Add(1)
				tl.steps.Add(int64(s.Steps))
				tl.metal.Add(int64(s.MetalSteps))
				tl.host.Add(int64(s.HostSteps))
				tl.values.Add(int64(s.Values))
				tl.copies.Add(int64(s.CopySteps))
				for _, c := range p.Carries {
					tl.carries.Add(1)
					if c.Mode == plan.CarryAlias {
						tl.aliased.Add(1)
					}
				}
			}
		}()
	}
	wg.Wait()
	for i, f := range fails {
		if i == 10 {
			t.Errorf("... %d failures in all", len(fails))
			break
		}
		t.Error(f)
	}
	t.Logf("%d random functions: %d plans (%d steps, %d Metal, %d host, %d values), %d carried states (%d aliased, %d copy steps); %d functions codegen/metal refused",
		n, tl.plans.Load(), tl.steps.Load(), tl.metal.Load(), tl.host.Load(), tl.values.Load(), tl.carries.Load(), tl.aliased.Load(), tl.copies.Load(), tl.refused.Load())
	if n >= 1000 && (tl.plans.Load() < int64(n)*9/10 || tl.host.Load() == 0 || tl.aliased.Load() == 0 || tl.copies.Load() == 0) {
		t.Errorf("the variants no longer cover what they should: %d plans of %d functions, %d host steps, %d aliased states, %d copy steps", tl.plans.Load(), n, tl.host.Load(), tl.aliased.Load(), tl.copies.Load())
	}
}

// randomPlan splits the random function of seed in one of the variants
// the seed picks and plans it. refused reports a function codegen/metal
// has no kernels for (an element type Metal cannot store).
func randomPlan(ctx *ir.Context, seed int64) (p *plan.Plan, refused bool, err error) {
	m, err := randgraph.Seeded(ctx, seed)
	if err != nil {
		return nil, false, err
	}
	f, err := ref.EntryFunc(m, "")
	if err != nil {
		return nil, false, err
	}
	opts := hybridsplit.Options{}
	if seed%3 == 1 {
		opts.Mode = hybridsplit.ModeSeed
	}
	if seed%7 == 3 {
		opts.Target = target.MustLookup("cpu")
	}
	if _, err := hybridsplit.Split(f, opts); err != nil {
		return nil, false, fmt.Errorf("hybrid-split: %v", err)
	}
	nameStates(ctx, f, seed)
	out, err := metal.Emit(m, metal.Options{})
	if err != nil {
		return nil, true, nil
	}
	po := plan.Options{Align: []int64{256, 16}[seed%2], Guard: []int64{0, 64}[seed/2%2], Carry: seed%4 != 0}
	p, err = plan.Build(f, out.Manifest, po)
	if err != nil {
		return nil, false, fmt.Errorf("plan: %v", err)
	}
	return p, false, nil
}

// nameStates gives an argument and a result of the same type the same
// rlx.name, as a decode step names a state, so that plans carry them.
func nameStates(ctx *ir.Context, f *ir.Operation, seed int64) {
	ft := fn.Func{Op: f}.Type()
	argNames := make([]ir.Attribute, len(ft.Inputs))
	resNames := make([]ir.Attribute, len(ft.Results))
	used := make([]bool, len(ft.Results))
	k := 0
	for i, in := range ft.Inputs {
		argNames[i] = ctx.Dict(nil)
		for j, r := range ft.Results {
			if !used[j] && r == in && (seed+int64(i+j))%3 != 0 {
				used[j] = true
				name := ctx.StringAttr(fmt.Sprintf("s%d", k))
				k++
				argNames[i] = ctx.Dict([]ir.NamedAttr{{Name: plan.NameAttr, Value: name}})
				resNames[j] = argNames[i]
				break
			}
		}
	}
	for j := range resNames {
		if resNames[j] == nil {
			resNames[j] = ctx.Dict(nil)
		}
	}
	f.SetAttr(ctx, "arg_attrs", ctx.ArrayAttr(argNames))
	f.SetAttr(ctx, "res_attrs", ctx.ArrayAttr(resNames))
}

// independentCheck checks the two invariants byte by byte, with no code
// in common with plan.Check.
func independentCheck(p *plan.Plan) error {
	// No two values live at the same time share a byte.
	for i, a := range p.Values {
		for _, b := range p.Values[i+1:] {
			if a.Bytes == 0 || b.Bytes == 0 || a.Last < b.Def || b.Last < a.Def {
				continue
			}
			if a.Offset < b.Offset+b.Bytes && b.Offset < a.Offset+a.Bytes {
				return fmt.Errorf("%s [%d,+%d) live [%d,%d] and %s [%d,+%d) live [%d,%d] share bytes", a.Name, a.Offset, a.Bytes, a.Def, a.Last, b.Name, b.Offset, b.Bytes, b.Def, b.Last)
			}
		}
	}
	// Replay: who wrote each byte last.
	owner := make([]int, p.ArenaBytes)
	for i := range owner {
		owner[i] = -1
	}
	set := func(off, n int64, v int) {
		for i := off; i < off+n; i++ {
			owner[i] = v
		}
	}
	expect := func(off, n int64, v int, where string) error {
		for i := off; i < off+n; i++ {
			if owner[i] != v {
				return fmt.Errorf("%s: byte %d holds value %d, expected %s", where, i, owner[i], p.Values[v].Name)
			}
		}
		return nil
	}
	for _, v := range p.Values {
		if v.Def == -1 {
			set(v.Offset, v.Bytes, v.ID)
		}
	}
	for _, st := range p.Steps {
		where := fmt.Sprintf("step %d", st.Index)
		for _, id := range st.Inputs {
			v := p.Values[id]
			if err := expect(v.Offset, v.Bytes, id, where); err != nil {
				return err
			}
		}
		for _, d := range st.Dispatches {
			for _, b := range d.Bindings {
				if b.Buffer == plan.BufArena && b.Access != "write" {
					if err := expect(b.Offset, b.Bytes, b.Value, where+" "+d.Kernel); err != nil {
						return err
					}
				}
			}
			for _, b := range d.Bindings {
				if b.Buffer == plan.BufArena && b.Access != "read" {
					set(b.Offset, b.Bytes, b.Value)
				}
			}
		}
		if st.Kind == plan.StepMPS || st.Kind == plan.StepHost {
			for _, id := range st.Outputs {
				v := p.Values[id]
				set(v.Offset, v.Bytes, id)
			}
		}
		for _, c := range st.Copies {
			from, to := p.Values[c.From], p.Values[c.To]
			if err := expect(from.Offset, from.Bytes, c.From, where+" copy"); err != nil {
				return err
			}
			set(to.Offset, to.Bytes, c.From)
		}
	}
	for i, o := range p.Outputs {
		v := p.Values[o.Value]
		if err := expect(v.Offset, v.Bytes, o.Value, fmt.Sprintf("output %d", i)); err != nil {
			return err
		}
	}
	for _, c := range p.Carries {
		in := p.Values[p.Inputs[c.Input].Value]
		if err := expect(in.Offset, in.Bytes, p.Outputs[c.Output].Value, "carried "+c.Name); err != nil {
			return err
		}
	}
	if p.ArenaBytes < p.LowerBound {
		return fmt.Errorf("arena %d bytes below the lower bound %d", p.ArenaBytes, p.LowerBound)
	}
	return nil
}

func jsonRoundTrip(p *plan.Plan) error {
	var a, b bytes.Buffer
	if err := p.WriteJSON(&a); err != nil {
		return err
	}
	q, err := plan.ReadJSON(bytes.NewReader(a.Bytes()))
	if err != nil {
		return err
	}
	if err := q.WriteJSON(&b); err != nil {
		return err
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		return fmt.Errorf("the plan's JSON changes in a round trip:\n%s\n%s", a.String(), b.String())
	}
	return nil
}
