package plan

import (
	"cmp"
	"slices"
)

// liveness sets every value's Last: the last step that reads it, or the
// end of the run for function outputs and status words.
func (b *builder) liveness() {
	for _, st := range b.p.Steps {
		for _, id := range st.Inputs {
			v := b.p.Values[id]
			v.Last = max(v.Last, st.Index)
		}
	}
	b.extendToEnd()
}

// extendToEnd makes outputs and status words live to the end of the run
// (after the last step, where the host reads them).
func (b *builder) extendToEnd() {
	end := len(b.p.Steps)
	for _, o := range b.p.Outputs {
		b.p.Values[o.Value].Last = end
	}
	for _, v := range b.p.Values {
		if v.Kind == KindStatus {
			v.Last = end
		}
	}
}

// carry pairs decode states (an argument and a result with the same name
// and type) so that the result ends the run in the argument's slot.
func (b *builder) carry() {
	isOutput := map[int]bool{}
	for _, o := range b.p.Outputs {
		isOutput[o.Value] = true
	}
	claimed := map[int]bool{}
	var copies []Copy
	copyIdx := len(b.p.Steps)
	for i, in := range b.p.Inputs {
		if in.Name == "" {
			continue
		}
		j := slices.IndexFunc(b.p.Outputs, func(o Port) bool { return o.Name == in.Name })
		if j < 0 || b.p.Outputs[j].Type != in.Type {
			continue
		}
		a, r := in.Value, b.p.Outputs[j].Value
		// A state returned unchanged is already in place; an argument the
		// host reads back after the run cannot be overwritten.
		if a == r || isOutput[a] {
			continue
		}
		va, vr := b.p.Values[a], b.p.Values[r]
		mode := CarryCopy
		if vr.Kind == KindResult && !claimed[r] && va.Last < vr.Def {
			mode = CarryAlias
			claimed[r] = true
			b.alias[r] = a
		} else {
			copies = append(copies, Copy{From: r, To: a, Bytes: va.Bytes})
			// The copy writes a's slot at the end: nothing else may hold
			// it from a's last read until then.
			va.Last = copyIdx
		}
		b.p.Carries = append(b.p.Carries, Carry{Name: in.Name, Input: i, Output: j, Mode: mode})
	}
	if len(copies) > 0 {
		st := &Step{Index: copyIdx, Kind: StepCopy, Inputs: []int{}, Outputs: []int{}, Copies: copies}
		for _, c := range copies {
			st.Inputs = append(st.Inputs, c.From)
		}
		b.p.Steps = append(b.p.Steps, st)
		for _, c := range copies {
			v := b.p.Values[c.From]
			v.Last = max(v.Last, copyIdx)
		}
		b.extendToEnd()
	}
}

// unit is a set of values that share one slot: a value, or a carried
// state's argument and result.
type unit struct {
	values    []int
	size      int64 // bytes of the largest value, plus the guard
	raw       int64 // bytes of the largest value
	def, last int
	offset    int64
}

// allocate gives every value its offset: greedy by size with best fit.
// Units are placed largest first (ties: earliest first), each at the
// lowest-waste gap between the units already placed that are live at the
// same time, or after them all.
func (b *builder) allocate() error {
	units := b.units()
	order := make([]*unit, len(units))
	copy(order, units)
	slices.SortStableFunc(order, func(x, y *unit) int {
		if c := cmp.Compare(y.size, x.size); c != 0 {
			return c
		}
		return cmp.Compare(x.def, y.def)
	})
	a := b.p.Align
	var placed []*unit
	var overlap []*unit
	var end int64
	for _, u := range order {
		if u.raw == 0 {
			continue // no bytes: offset 0 overlaps nothing
		}
		overlap = overlap[:0]
		for _, q := range placed {
			if q.def <= u.last && u.def <= q.last {
				overlap = append(overlap, q)
			}
		}
		slices.SortFunc(overlap, func(x, y *unit) int { return cmp.Compare(x.offset, y.offset) })
		best, bestWaste := int64(-1), int64(-1)
		var prevEnd int64
		for _, q := range overlap {
			start := alignUp(prevEnd, a)
			if gap := q.offset - start; gap >= u.size && (best < 0 || gap-u.size < bestWaste) {
				best, bestWaste = start, gap-u.size
			}
			prevEnd = max(prevEnd, q.offset+q.size)
		}
		if best < 0 {
			best = alignUp(prevEnd, a)
		}
		u.offset = best
		end = max(end, best+u.size)
		placed = append(placed, u)
	}
	b.p.ArenaBytes = alignUp(end, a)
	for _, u := range units {
		for _, id := range u.values {
			b.p.Values[id].Offset = u.offset
		}
	}
	b.p.LowerBound = lowerBound(units, len(b.p.Steps))
	return nil
}

// units groups the values by shared slot.
func (b *builder) units() []*unit {
	var units []*unit
	byValue := make([]*unit, len(b.p.Values))
	for _, v := range b.p.Values {
		if t := b.alias[v.ID]; t >= 0 {
			continue
		}
		u := &unit{values: []int{v.ID}, raw: v.Bytes, size: v.Bytes + b.p.Guard, def: v.Def, last: v.Last}
		byValue[v.ID] = u
		units = append(units, u)
	}
	for _, v := range b.p.Values {
		t := b.alias[v.ID]
		if t < 0 {
			continue
		}
		u := byValue[t]
		u.values = append(u.values, v.ID)
		u.raw = max(u.raw, v.Bytes)
		u.size = max(u.size, v.Bytes+b.p.Guard)
		u.def, u.last = min(u.def, v.Def), max(u.last, v.Last)
	}
	return units
}

// lowerBound returns the largest sum of the bytes of the units live at
// one time, from -1 (the host's writes) to steps (its reads).
func lowerBound(units []*unit, steps int) int64 {
	delta := make([]int64, steps+3) // index t+1 for t in [-1, steps]
	for _, u := range units {
		delta[u.def+1] += u.raw
		delta[u.last+2] -= u.raw
	}
	var live, peak int64
	for _, d := range delta {
		live += d
		peak = max(peak, live)
	}
	return peak
}

// layoutWeights places the weights one after another, aligned, in the
// order the steps first read them.
func (b *builder) layoutWeights() {
	var off int64
	for _, w := range b.p.Weights {
		off = alignUp(off, b.p.Align)
		w.Offset = off
		off += w.Bytes
	}
	b.p.WeightBytes = alignUp(off, b.p.Align)
}

// resolveBindings fills every binding's offset and size from the value or
// weight it names.
func (b *builder) resolveBindings() {
	for _, st := range b.p.Steps {
		for _, d := range st.Dispatches {
			for i := range d.Bindings {
				bd := &d.Bindings[i]
				if bd.Buffer == BufWeights {
					w := b.p.Weights[bd.Value]
					bd.Offset, bd.Bytes = w.Offset, w.Bytes
				} else {
					v := b.p.Values[bd.Value]
					bd.Offset, bd.Bytes = v.Offset, v.Bytes
				}
			}
		}
	}
}
