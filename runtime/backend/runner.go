package backend

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/runtime/plan"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// Machine runs the steps of a plan over a Runner's arena: each method
// runs one whole step, reading its inputs from and writing its results to
// the arena slots the plan gives them.
type Machine interface {
	Metal(st *plan.Step) error
	MPS(st *plan.Step) error
	Host(st *plan.Step) error
}

// Poison is the byte a Runner fills the arena with before each run (NaN
// for floats, -1 for integers), so that a step reading a slot that
// nothing wrote in this run reads garbage, not last run's value.
const Poison = 0xff

// GuardByte fills the guards after the values a step writes; a step that
// changes one wrote past the end of a value.
const GuardByte = 0xcb

// Runner is the host side of a run over one arena and one weight buffer
// in this process's memory (Go memory, or memory shared with a device or
// another process).
type Runner struct {
	Plan    *plan.Plan
	Arena   []byte
	Weights []byte
	M       Machine
	// Profile, when set, receives one line per step run: its time and
	// what it ran.
	Profile io.Writer
	stats   Stats
}

// Stats returns the counts of the runs so far.
func (r *Runner) Stats() Stats { return r.stats }

// Run runs the plan once (Backend.Run).
func (r *Runner) Run(inputs []*tensor.Tensor) ([]*tensor.Tensor, error) {
	p := r.Plan
	if len(inputs) != len(p.Inputs) {
		return nil, fmt.Errorf("@%s takes %d inputs, got %d", p.Function, len(p.Inputs), len(inputs))
	}
	carried := map[int]bool{}
	for _, c := range p.Carries {
		carried[c.Input] = true
	}
	keep := map[int]bool{} // values whose slot holds last run's state
	for i, t := range inputs {
		if t != nil {
			continue
		}
		if !carried[i] || r.stats.Runs == 0 {
			return nil, fmt.Errorf("input %d of @%s is missing (only a carried state may be left out, after the first run)", i, p.Function)
		}
		keep[p.Inputs[i].Value] = true
	}
	r.poison(keep)
	for i, t := range inputs {
		if t == nil {
			continue
		}
		if err := WriteValue(r.Arena, p.Values[p.Inputs[i].Value], t); err != nil {
			return nil, fmt.Errorf("input %d: %v", i, err)
		}
	}
	for _, c := range p.Commands() {
		if err := r.command(c); err != nil {
			return nil, err
		}
	}
	r.stats.Runs++
	if err := r.checkStatus(); err != nil {
		return nil, err
	}
	out := make([]*tensor.Tensor, len(p.Outputs))
	for i, o := range p.Outputs {
		t, err := ReadValue(r.Arena, p.Values[o.Value])
		if err != nil {
			return nil, fmt.Errorf("output %d: %v", i, err)
		}
		out[i] = t
	}
	return out, nil
}

// poison fills the arena with Poison, except the slots of the values in
// keep (carried states left from the last run).
func (r *Runner) poison(keep map[int]bool) {
	var spans [][2]int64
	for id := range keep {
		v := r.Plan.Values[id]
		spans = append(spans, [2]int64{v.Offset, v.Offset + v.Bytes})
	}
	slices.SortFunc(spans, func(a, b [2]int64) int { return cmp.Compare(a[0], b[0]) })
	var at int64
	for _, s := range spans {
		if s[0] > at {
			fill(r.Arena[at:s[0]], Poison)
		}
		at = max(at, s[1])
	}
	fill(r.Arena[at:], Poison)
}

func fill(b []byte, c byte) {
	for i := range b {
		b[i] = c
	}
}

func (r *Runner) command(c plan.Command) error {
	p := r.Plan
	switch c.Kind {
	case plan.CmdFillZero:
		clear(r.Arena[c.Dst : c.Dst+c.Bytes])
		return nil
	case plan.CmdCopyWeight:
		copy(r.Arena[c.Dst:c.Dst+c.Bytes], r.Weights[c.Src:c.Src+c.Bytes])
		return nil
	case plan.CmdCopy:
		copy(r.Arena[c.Dst:c.Dst+c.Bytes], r.Arena[c.Src:c.Src+c.Bytes])
		if c.Index == len(p.Steps[c.Step].Copies)-1 {
			r.stats.Steps++
		}
		return nil
	case plan.CmdCommitWait:
		r.stats.Waits++
		return nil
	}
	st := p.Steps[c.Step]
	if c.Kind == plan.CmdDispatch && c.Index > 0 {
		return nil // the Machine ran the whole step at its first dispatch
	}
	r.fillGuards(st)
	start := time.Now()
	var err error
	switch c.Kind {
	case plan.CmdDispatch:
		err = r.M.Metal(st)
		r.stats.Dispatches += len(st.Dispatches)
	case plan.CmdMPS:
		err = r.M.MPS(st)
		r.stats.MPS++
	case plan.CmdHost:
		err = r.M.Host(st)
	}
	r.stats.Steps++
	if err != nil {
		return fmt.Errorf("step %d (%s @%s): %w", st.Index, st.Kind, st.Symbol, err)
	}
	if r.Profile != nil {
		fmt.Fprintf(r.Profile, "  step %3d %-5s @%-24s %12v", st.Index, st.Kind, st.Symbol, time.Since(start).Round(time.Microsecond))
		for _, d := range st.Dispatches {
			fmt.Fprintf(r.Profile, " %s", d.Kernel)
		}
		fmt.Fprintln(r.Profile)
	}
	return r.checkGuards(st)
}

// written returns the values step st writes.
func written(st *plan.Step) []int {
	return append(append([]int{}, st.Outputs...), st.Temps...)
}

func (r *Runner) fillGuards(st *plan.Step) {
	if r.Plan.Guard == 0 {
		return
	}
	for _, id := range written(st) {
		v := r.Plan.Values[id]
		fill(r.Arena[v.Offset+v.Bytes:v.Offset+v.Bytes+r.Plan.Guard], GuardByte)
	}
}

func (r *Runner) checkGuards(st *plan.Step) error {
	if r.Plan.Guard == 0 {
		return nil
	}
	var bad []string
	for _, id := range written(st) {
		v := r.Plan.Values[id]
		n := 0
		for _, b := range r.Arena[v.Offset+v.Bytes : v.Offset+v.Bytes+r.Plan.Guard] {
			if b != GuardByte {
				n++
			}
		}
		if n > 0 {
			bad = append(bad, fmt.Sprintf("%d guard bytes after %s were written", n, v.Name))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("step %d (%s @%s) wrote past a value: %s", st.Index, st.Kind, st.Symbol, strings.Join(bad, "; "))
	}
	return nil
}

// checkStatus reads every status word: a kernel that met an out-of-range
// gather index or an integer division by zero set a bit there. The words
// after it (MSL 3.2) are folded merges' arrival counters, which the
// kernels leave at zero; one that is not means a merge was lost.
func (r *Runner) checkStatus() error {
	for _, st := range r.Plan.Steps {
		for _, id := range st.Temps {
			v := r.Plan.Values[id]
			if v.Kind != plan.KindStatus {
				continue
			}
			if err := metal.StatusError(r.Arena[v.Offset : v.Offset+v.Bytes]); err != nil {
				return fmt.Errorf("step %d (%s @%s): %v", st.Index, st.Kind, st.Symbol, err)
			}
		}
	}
	return nil
}
