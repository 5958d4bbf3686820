package hybridsplit

import (
	"fmt"
	"strings"

	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/dialect/mps"
	"github.com/rlx-compiler/rlx/dialect/regionop"
	"github.com/rlx-compiler/rlx/dialect/thunk"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/target"
)

// This file holds the structural checks of the property tests: they look
// at a function before and after Split and check every rule of the output
// form, independently of how the pass computes it.

// leafID identifies a leaf by what it computes (attributes and types are
// uniqued, so pointer equality is value equality).
type leafID struct {
	name  string
	props ir.Attribute
	attrs *ir.DictAttr
	typ   ir.Type
}

// source is where an operand comes from, across region boundaries.
type source struct {
	arg  int           // function argument number, or -1
	op   *ir.Operation // compute op, or nil
	res  int           // result number of op
	leaf leafID        // for leaves
}

func (r source) String() string {
	switch {
	case r.op != nil:
		return fmt.Sprintf("%s#%d", r.op.Name(), r.res)
	case r.arg >= 0:
		return fmt.Sprintf("arg%d", r.arg)
	}
	return "leaf " + r.leaf.name
}

// snapshot is what a function computes, recorded before Split: its compute
// ops in body order, where each operand and returned value comes from,
// and whether each op must stay native.
type snapshot struct {
	fn       *ir.Operation
	ops      []*ir.Operation
	index    map[*ir.Operation]int
	native   []bool
	operands [][]source
	rets     []source
}

func refOf(f *ir.Operation, v *ir.Value) source {
	v = regionop.Source(v)
	def := v.DefiningOp()
	switch {
	case def == nil:
		if v.OwnerBlock() != nil && v.OwnerBlock().ParentOp() == f {
			return source{arg: v.Index()}
		}
		return source{arg: -2}
	case graph.IsLeaf(def):
		return source{arg: -1, leaf: leafID{def.Name(), def.Props(), def.Attrs(), v.Type()}}
	}
	return source{arg: -1, op: def, res: v.Index()}
}

func takeSnapshot(f *ir.Operation, forced map[string]bool) *snapshot {
	s := &snapshot{fn: f, index: map[*ir.Operation]int{}}
	body := f.Region(0).First()
	for op := range body.Ops() {
		if op.Name() == fn.ReturnName {
			for i := 0; i < op.NumOperands(); i++ {
				s.rets = append(s.rets, refOf(f, op.Operand(i)))
			}
			continue
		}
		if graph.IsLeaf(op) {
			continue
		}
		s.index[op] = len(s.ops)
		s.ops = append(s.ops, op)
		ok := defaultMPS.IsCapable(op)
		s.native = append(s.native, !ok || forced[op.Name()])
		var rs []source
		for i := 0; i < op.NumOperands(); i++ {
			rs = append(rs, refOf(f, op.Operand(i)))
		}
		s.operands = append(s.operands, rs)
	}
	return s
}

// region is one region op of a split function.
type region struct {
	op     *ir.Operation
	native bool
	ops    []int // snapshot indices of its compute ops, in body order
}

// checkSplit checks the split function against its snapshot and returns
// its regions. It checks: the body holds only region ops, leaves used by
// func.return, and func.return; symbols are numbered in order; every
// compute op is in exactly one region, of a kind it may be in; operands
// are distinct, never leaves, and in order of first use; every leaf a
// region uses is cloned into it once; results are distinct values of the
// region, each used after it, in order of definition; and every operand
// of every op, and every returned value, comes from where it came from
// before (so the function computes the same values, given the same ops).
func checkSplit(s *snapshot) ([]region, error) {
	f := s.fn
	prefix := ir.SymbolName(f)
	body := f.Region(0).First()
	seen := make([]int, len(s.ops))
	var regions []region
	for op := range body.Ops() {
		switch {
		case op.Name() == fn.ReturnName:
			continue
		case graph.IsLeaf(op):
			bad := false
			for u := range op.Result(0).Uses() {
				bad = bad || u.Owner().Name() != fn.ReturnName
			}
			if bad || !op.Result(0).HasUses() {
				return nil, fmt.Errorf("leaf %s left in the function body, used by more than func.return", op.Name())
			}
			continue
		case op.Name() != mps.SubgraphName && op.Name() != thunk.CallName:
			return nil, fmt.Errorf("%s left outside the regions", op.Name())
		}
		r := region{op: op, native: op.Name() == thunk.CallName}
		kind := "_mps"
		if r.native {
			kind = "_thunk"
			if t, _ := thunk.AsCall(op); t.Target() != thunk.TargetMetal {
				return nil, fmt.Errorf("thunk target %q", t.Target())
			}
		}
		if want := fmt.Sprintf("%s%s%d", prefix, kind, len(regions)); ir.SymbolName(op) != want {
			return nil, fmt.Errorf("region %d is @%s, want @%s", len(regions), ir.SymbolName(op), want)
		}
		if err := checkRegion(s, &r, seen); err != nil {
			return nil, fmt.Errorf("@%s: %v", ir.SymbolName(op), err)
		}
		regions = append(regions, r)
	}
	for i, n := range seen {
		if n != 1 {
			return nil, fmt.Errorf("%s (op %d) is in %d regions", s.ops[i].Name(), i, n)
		}
	}
	for i, op := range s.ops {
		for k := 0; k < op.NumOperands(); k++ {
			if got := refOf(f, op.Operand(k)); got != s.operands[i][k] {
				return nil, fmt.Errorf("operand #%d of %s (op %d) comes from %v, was %v", k, op.Name(), i, got, s.operands[i][k])
			}
		}
	}
	ret := body.Last()
	for k := 0; k < ret.NumOperands(); k++ {
		if got := refOf(f, ret.Operand(k)); got != s.rets[k] {
			return nil, fmt.Errorf("returned value #%d comes from %v, was %v", k, got, s.rets[k])
		}
	}
	return regions, nil
}

func checkRegion(s *snapshot, r *region, seen []int) error {
	op := r.op
	block := op.Region(0).First()
	operands := map[*ir.Value]bool{}
	for i := 0; i < op.NumOperands(); i++ {
		v := op.Operand(i)
		if operands[v] {
			return fmt.Errorf("operand #%d is a duplicate", i)
		}
		operands[v] = true
		if d := regionop.Source(v).DefiningOp(); d != nil && graph.IsLeaf(d) {
			return fmt.Errorf("operand #%d is a leaf, which should have been cloned in", i)
		}
	}
	leaves := map[leafID]bool{}
	nextArg := 0
	pos := map[*ir.Operation]int{}
	n := 0
	for o := range block.Ops() {
		pos[o] = n
		n++
		if o.Name() == mps.YieldName || o.Name() == thunk.YieldName {
			continue
		}
		for k := 0; k < o.NumOperands(); k++ {
			v := o.Operand(k)
			if v.OwnerBlock() == block && v.Index() >= nextArg {
				if v.Index() != nextArg {
					return fmt.Errorf("operands are not in order of first use: argument #%d is used before #%d", v.Index(), nextArg)
				}
				nextArg++
			}
		}
		if graph.IsLeaf(o) {
			id := leafID{o.Name(), o.Props(), o.Attrs(), o.Result(0).Type()}
			if leaves[id] {
				return fmt.Errorf("leaf %s cloned twice", o.Name())
			}
			leaves[id] = true
			if !o.Result(0).HasUses() {
				return fmt.Errorf("leaf %s cloned in but not used", o.Name())
			}
			continue
		}
		i, ok := s.index[o]
		if !ok {
			return fmt.Errorf("%s is not an op of the original function", o.Name())
		}
		seen[i]++
		r.ops = append(r.ops, i)
		if !r.native && s.native[i] {
			return fmt.Errorf("%s (op %d) may not be in an mps.subgraph", o.Name(), i)
		}
		if len(r.ops) > 1 && i < r.ops[len(r.ops)-2] {
			return fmt.Errorf("ops not in their original order")
		}
	}
	if nextArg != op.NumOperands() {
		return fmt.Errorf("argument #%d is never used", nextArg)
	}
	if len(r.ops) == 0 {
		return fmt.Errorf("region without compute ops")
	}
	yield := block.Last()
	yielded := map[*ir.Value]bool{}
	last := -1
	for k := 0; k < yield.NumOperands(); k++ {
		v := yield.Operand(k)
		d := v.DefiningOp()
		if d == nil || d.Block() != block || graph.IsLeaf(d) {
			return fmt.Errorf("result #%d is not computed in the region", k)
		}
		if yielded[v] {
			return fmt.Errorf("result #%d is a duplicate", k)
		}
		yielded[v] = true
		if p := pos[d]*1024 + v.Index(); p < last {
			return fmt.Errorf("results are not in order of definition")
		} else {
			last = p
		}
		if !op.Result(k).HasUses() {
			return fmt.Errorf("result #%d is never used", k)
		}
	}
	for o := block.First(); o != yield; o = o.Next() {
		for k := 0; k < o.NumResults(); k++ {
			used := false
			for u := range o.Result(k).Uses() {
				used = used || u.Owner() == yield
			}
			if used != yielded[o.Result(k)] {
				return fmt.Errorf("inconsistent yield")
			}
		}
	}
	return nil
}

// describe prints the regions compactly, for failure messages.
func describe(s *snapshot, regions []region) string {
	var sb strings.Builder
	for _, r := range regions {
		if r.native {
			sb.WriteString("N{")
		} else {
			sb.WriteString("M{")
		}
		for j, i := range r.ops {
			if j > 0 {
				sb.WriteString(" ")
			}
			fmt.Fprintf(&sb, "%d:%s", i, strings.TrimPrefix(s.ops[i].Name(), "graph."))
		}
		sb.WriteString("} ")
	}
	return sb.String()
}

// defaultMPS is the capability table of the default target, which the
// checks judge placements by.
var defaultMPS = target.MustLookup(target.Default).MPS
