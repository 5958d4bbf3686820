package plan

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Check verifies p's invariants without trusting how it was built:
//
//   - every reference (value, weight, step, port) is in range, every slot
//     is aligned and inside its buffer, and every value's live range
//     agrees with the steps that write and read it;
//   - no two values that are live at the same time share a byte (their
//     guards included);
//   - replaying the run over the arena, granule by granule, every read of
//     a slot (a step's input, a dispatch's read binding, a copy's source,
//     the host's read of an output or a status word) finds the value it
//     expects, last written there by that value's writer; no step writes
//     a value it only reads, or a weight;
//   - after the run, every carried state sits in its argument's slot.
//
// The error lists up to ten violations.
func Check(p *Plan) error {
	c := &checker{p: p}
	c.structure()
	if len(c.errs) == 0 {
		c.overlaps()
		c.replay()
	}
	if len(c.errs) == 0 {
		return nil
	}
	msgs := c.errs
	if len(msgs) > 10 {
		msgs = append(msgs[:10:10], fmt.Sprintf("... and %d more", len(c.errs)-10))
	}
	return errors.New(strings.Join(msgs, "; "))
}

type checker struct {
	p    *Plan
	errs []string
}

func (c *checker) errorf(format string, args ...any) {
	c.errs = append(c.errs, fmt.Sprintf(format, args...))
}

func (c *checker) value(id int) *Value {
	if id < 0 || id >= len(c.p.Values) {
		return nil
	}
	return c.p.Values[id]
}

// structure checks references, alignment, bounds and live ranges.
func (c *checker) structure() {
	p := c.p
	if p.Version != Version {
		c.errorf("version %d, expected %d", p.Version, Version)
	}
	if p.Align < 16 || p.Align&(p.Align-1) != 0 {
		c.errorf("align %d is not a power of two of at least 16", p.Align)
		return
	}
	if p.Guard < 0 {
		c.errorf("guard %d is negative", p.Guard)
	}
	end := len(p.Steps)
	for i, v := range p.Values {
		switch {
		case v == nil || v.ID != i:
			c.errorf("value %d has the wrong id", i)
			continue
		case v.Bytes < 0:
			c.errorf("value %s has %d bytes", v.Name, v.Bytes)
		case v.Offset%p.Align != 0:
			c.errorf("value %s at offset %d is not aligned to %d", v.Name, v.Offset, p.Align)
		case v.Bytes > 0 && (v.Offset < 0 || v.Bytes > p.ArenaBytes || p.Guard > p.ArenaBytes-v.Bytes || v.Offset > p.ArenaBytes-v.Bytes-p.Guard):
			c.errorf("value %s [%d, %d) with its guard of %d is outside the arena of %d bytes", v.Name, v.Offset, v.Offset+v.Bytes, p.Guard, p.ArenaBytes)
		case v.Def < -1 || v.Def > end || v.Last < v.Def || v.Last > end:
			c.errorf("value %s is live over [%d, %d], outside the run's [-1, %d]", v.Name, v.Def, v.Last, end)
		}
		switch v.Kind {
		case KindInput, KindStatus, KindLeaf:
			if v.Def != -1 {
				c.errorf("%s value %s is written at step %d, not by the host before step 0", v.Kind, v.Name, v.Def)
			}
		case KindResult, KindTemp:
		default:
			c.errorf("value %s has unknown kind %q", v.Name, v.Kind)
		}
	}
	for i, w := range p.Weights {
		switch {
		case w == nil || w.ID != i:
			c.errorf("weight %d has the wrong id", i)
		case w.Offset%p.Align != 0 || w.Offset < 0 || w.Offset+w.Bytes > p.WeightBytes:
			c.errorf("weight %q [%d, %d) is misaligned or outside the weight buffer of %d bytes", w.Name, w.Offset, w.Offset+w.Bytes, p.WeightBytes)
		case w.Kind == WeightConstant && int64(len(w.Data)) != 2*w.Bytes:
			c.errorf("constant %q has %d hex digits for %d bytes", w.Name, len(w.Data), w.Bytes)
		}
	}
	// Writers and readers, as the steps say.
	written := make([]int, len(p.Values))
	for i := range written {
		written[i] = -2
	}
	lastRead := make([]int, len(p.Values))
	for i := range lastRead {
		lastRead[i] = -2
	}
	for _, in := range p.Inputs {
		if v := c.value(in.Value); v == nil || v.Kind != KindInput {
			c.errorf("input port names value %d, which is not an input value", in.Value)
		}
	}
	for _, v := range p.Values {
		if v != nil && (v.Kind == KindInput || v.Kind == KindStatus || v.Kind == KindLeaf) {
			written[v.ID] = -1
		}
	}
	leaf := map[int]bool{}
	for _, l := range p.Leaves {
		v := c.value(l.Value)
		switch {
		case v == nil || v.Kind != KindLeaf:
			c.errorf("leaf names value %d, which is not a leaf value", l.Value)
		case l.Weight < 0 || l.Weight >= len(p.Weights):
			c.errorf("leaf %s names missing weight %d", v.Name, l.Weight)
		case p.Weights[l.Weight].Bytes != v.Bytes:
			c.errorf("leaf %s has %d bytes, its weight %d", v.Name, v.Bytes, p.Weights[l.Weight].Bytes)
		case leaf[l.Value]:
			c.errorf("leaf %s is filled twice", v.Name)
		}
		leaf[l.Value] = true
	}
	for _, v := range p.Values {
		if v != nil && v.Kind == KindLeaf && !leaf[v.ID] {
			c.errorf("leaf value %s has no weight to fill it", v.Name)
		}
	}
	for si, st := range p.Steps {
		if st.Index != si {
			c.errorf("step %d has index %d", si, st.Index)
		}
		for _, id := range st.Inputs {
			v := c.value(id)
			if v == nil {
				c.errorf("step %d reads missing value %d", si, id)
				continue
			}
			if written[id] < -1 || written[id] >= si {
				c.errorf("step %d reads %s, which no earlier step or the host wrote", si, v.Name)
			}
			lastRead[id] = max(lastRead[id], si)
		}
		for _, id := range st.Outputs {
			v := c.value(id)
			if v == nil {
				c.errorf("step %d writes missing value %d", si, id)
				continue
			}
			if written[id] != -2 {
				c.errorf("%s is written twice (steps %d and %d)", v.Name, written[id], si)
			}
			written[id] = si
		}
		for _, id := range st.Temps {
			v := c.value(id)
			if v == nil {
				c.errorf("step %d uses missing temporary %d", si, id)
				continue
			}
			if v.Kind == KindTemp {
				written[id] = si
				lastRead[id] = max(lastRead[id], si)
			}
		}
		for _, id := range st.Weights {
			if id < 0 || id >= len(p.Weights) {
				c.errorf("step %d reads missing weight %d", si, id)
			}
		}
		for _, d := range st.Dispatches {
			for j, bd := range d.Bindings {
				c.binding(st, d, j, bd)
			}
		}
		for _, cp := range st.Copies {
			from, to := c.value(cp.From), c.value(cp.To)
			if from == nil || to == nil || cp.Bytes != from.Bytes || cp.Bytes != to.Bytes {
				c.errorf("step %d copies %d bytes from value %d to value %d, whose sizes differ", si, cp.Bytes, cp.From, cp.To)
				continue
			}
			lastRead[cp.To] = max(lastRead[cp.To], si)
		}
	}
	for _, o := range p.Outputs {
		if c.value(o.Value) == nil {
			c.errorf("output names missing value %d", o.Value)
			continue
		}
		lastRead[o.Value] = end
	}
	for _, v := range p.Values {
		if v == nil {
			continue
		}
		if v.Kind == KindStatus {
			lastRead[v.ID] = end
		}
		if w := written[v.ID]; w == -2 {
			c.errorf("value %s is never written", v.Name)
		} else if w != v.Def {
			c.errorf("value %s is written at step %d but says %d", v.Name, w, v.Def)
		}
		if r := lastRead[v.ID]; r > v.Last {
			c.errorf("value %s is read at step %d, after its live range [%d, %d]", v.Name, r, v.Def, v.Last)
		}
	}
	for _, cr := range p.Carries {
		if cr.Input < 0 || cr.Input >= len(p.Inputs) || cr.Output < 0 || cr.Output >= len(p.Outputs) {
			c.errorf("carry %q names a missing port", cr.Name)
		}
	}
}

// binding checks that a dispatch binds a value of its own step, or a
// weight, read-only.
func (c *checker) binding(st *Step, d *Dispatch, j int, bd Binding) {
	switch bd.Buffer {
	case BufWeights:
		if bd.Value < 0 || bd.Value >= len(c.p.Weights) {
			c.errorf("step %d: %s binding #%d names missing weight %d", st.Index, d.Kernel, j, bd.Value)
			return
		}
		w := c.p.Weights[bd.Value]
		if bd.Access != "read" {
			c.errorf("step %d: %s binding #%d writes weight %q", st.Index, d.Kernel, j, w.Name)
		}
		if bd.Offset != w.Offset || bd.Bytes != w.Bytes {
			c.errorf("step %d: %s binding #%d is [%d, +%d), but weight %q is [%d, +%d)", st.Index, d.Kernel, j, bd.Offset, bd.Bytes, w.Name, w.Offset, w.Bytes)
		}
	case BufArena:
		v := c.value(bd.Value)
		if v == nil {
			c.errorf("step %d: %s binding #%d names missing value %d", st.Index, d.Kernel, j, bd.Value)
			return
		}
		if bd.Offset != v.Offset || bd.Bytes != v.Bytes {
			c.errorf("step %d: %s binding #%d is [%d, +%d), but %s is [%d, +%d)", st.Index, d.Kernel, j, bd.Offset, bd.Bytes, v.Name, v.Offset, v.Bytes)
		}
		own := slices.Contains(st.Outputs, v.ID) || slices.Contains(st.Temps, v.ID)
		if !own && !slices.Contains(st.Inputs, v.ID) {
			c.errorf("step %d: %s binding #%d binds %s, which is not an input, output or temporary of the step", st.Index, d.Kernel, j, v.Name)
		}
		if bd.Access != "read" && !own {
			c.errorf("step %d: %s binding #%d writes %s, which the step only reads", st.Index, d.Kernel, j, v.Name)
		}
	default:
		c.errorf("step %d: %s binding #%d names buffer %q", st.Index, d.Kernel, j, bd.Buffer)
	}
}

// overlaps checks that values live at the same time are byte-disjoint.
func (c *checker) overlaps() {
	p := c.p
	vals := make([]*Value, 0, len(p.Values))
	for _, v := range p.Values {
		if v.Bytes > 0 {
			vals = append(vals, v)
		}
	}
	slices.SortFunc(vals, func(x, y *Value) int {
		if r := cmp.Compare(x.Def, y.Def); r != 0 {
			return r
		}
		return cmp.Compare(x.ID, y.ID)
	})
	var active []*Value
	for _, v := range vals {
		// Values whose range ended before v starts are no longer active.
		keep := active[:0]
		for _, a := range active {
			if a.Last >= v.Def {
				keep = append(keep, a)
			}
		}
		active = keep
		for _, a := range active {
			if a.Offset < v.Offset+v.Bytes+p.Guard && v.Offset < a.Offset+a.Bytes+p.Guard {
				c.errorf("%s [%d, %d) live over [%d, %d] and %s [%d, %d) live over [%d, %d] share bytes", a.Name, a.Offset, a.Offset+a.Bytes, a.Def, a.Last, v.Name, v.Offset, v.Offset+v.Bytes, v.Def, v.Last)
			}
		}
		active = append(active, v)
	}
}

// replay runs the plan over an arena of granules (Align bytes each; every
// slot starts on one, so two byte ranges overlap exactly when they share a
// granule) and checks that every read finds the value it expects. The
// granules are kept as runs between the slots' ends, so the work grows
// with the number of values, not with the arena's size.
func (c *checker) replay() {
	p := c.p
	g := p.Align
	span := func(v *Value) (int64, int64) {
		return v.Offset / g, v.Offset/g + (v.Bytes+g-1)/g
	}
	// cuts are the granules where a run starts: every slot's first granule
	// and the one after its last.
	var cuts []int64
	for _, v := range p.Values {
		if v.Bytes > 0 {
			lo, hi := span(v)
			cuts = append(cuts, lo, hi)
		}
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	owner := make([]int32, len(cuts))
	for i := range owner {
		owner[i] = -1
	}
	runs := func(v *Value) (int, int) {
		lo, hi := span(v)
		a, _ := slices.BinarySearch(cuts, lo)
		b, _ := slices.BinarySearch(cuts, hi)
		return a, b
	}
	write := func(v *Value, as int) {
		lo, hi := runs(v)
		for i := lo; i < hi; i++ {
			owner[i] = int32(as)
		}
	}
	read := func(v *Value, want int, what string) bool {
		lo, hi := runs(v)
		for i := lo; i < hi; i++ {
			if owner[i] != int32(want) {
				got := "nothing"
				if o := owner[i]; o >= 0 {
					got = p.Values[o].Name
				}
				c.errorf("%s reads %s from [%d, %d), but byte %d holds %s", what, p.Values[want].Name, v.Offset, v.Offset+v.Bytes, cuts[i]*g, got)
				return false
			}
		}
		return true
	}
	for _, v := range p.Values {
		if v.Bytes > 0 && (v.Kind == KindInput || v.Kind == KindStatus || v.Kind == KindLeaf) {
			write(v, v.ID)
		}
	}
	for _, st := range p.Steps {
		what := fmt.Sprintf("step %d (%s @%s)", st.Index, st.Kind, st.Symbol)
		for _, id := range st.Inputs {
			if v := p.Values[id]; v.Bytes > 0 {
				read(v, id, what)
			}
		}
		switch st.Kind {
		case StepMetal:
			for di, d := range st.Dispatches {
				dw := fmt.Sprintf("%s dispatch %d (%s)", what, di, d.Kernel)
				for _, bd := range d.Bindings {
					if bd.Buffer == BufArena && bd.Access != "write" && p.Values[bd.Value].Bytes > 0 {
						read(p.Values[bd.Value], bd.Value, dw)
					}
				}
				for _, bd := range d.Bindings {
					if bd.Buffer == BufArena && bd.Access != "read" && p.Values[bd.Value].Bytes > 0 {
						write(p.Values[bd.Value], bd.Value)
					}
				}
			}
		case StepMPS, StepHost:
			for _, id := range st.Outputs {
				if v := p.Values[id]; v.Bytes > 0 {
					write(v, id)
				}
			}
		case StepCopy:
			for _, cp := range st.Copies {
				from, to := p.Values[cp.From], p.Values[cp.To]
				if from.Bytes > 0 && read(from, cp.From, what) {
					write(to, cp.From)
				}
			}
		default:
			c.errorf("step %d has unknown kind %q", st.Index, st.Kind)
		}
	}
	for i, o := range p.Outputs {
		if v := p.Values[o.Value]; v.Bytes > 0 {
			read(v, o.Value, fmt.Sprintf("the host (output %d)", i))
		}
	}
	for _, v := range p.Values {
		if v.Kind == KindStatus && v.Bytes > 0 {
			read(v, v.ID, "the host (status word)")
		}
	}
	for _, cr := range p.Carries {
		in, out := p.Values[p.Inputs[cr.Input].Value], p.Outputs[cr.Output].Value
		if in.Bytes > 0 {
			read(in, out, fmt.Sprintf("the next run (carried state %q in %s)", cr.Name, in.Name))
		}
	}
}
