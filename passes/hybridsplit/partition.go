package hybridsplit

import (
	"fmt"
	"slices"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/target"
)

// dag is the dependency graph of a function's compute ops (every op but
// the leaves and the terminator), in body order, in flat arrays. Leaves
// are not nodes: they are cloned into every region that uses them, so they
// constrain nothing. Building it is the only step that finds operands'
// producers (a short search per operand, see link); everything after
// works on indices.
type dag struct {
	ops    []*ir.Operation
	leaves []*ir.Operation
	// src[opOff[i]+k] says where operand k of op i comes from: j ≥ 0 is
	// compute op j, srcLeaf-l is leaf l, srcArg a function argument.
	opOff []int32
	src   []int32
	// resOff[i] numbers op i's first result among all compute results.
	resOff []int32
	// succ[succOff[i]:succOff[i+1]] are the consumers of op i, one entry
	// per use; npred[i] counts op i's operands defined by compute ops.
	succOff []int32
	succ    []int32
	npred   []int32
	native  []bool   // the op may not go in an mps.subgraph
	reason  []string // why native (only with explain)
	nleaves int      // leaves added so far
	target  *target.Target
	// spare holds the int32 arrays the steps are done with, for the
	// next steps (the outliner's tables) to reuse.
	spare spare
}

// Operand sources that are not compute ops.
const (
	srcArg  = -1
	srcLeaf = -2 // srcLeaf-l is leaf l
)

// newDAG returns an empty dag for a body of up to n ops. The body's one
// walk (split) adds each op with add or addLeaf, and link finishes the
// graph. Everything the dag needs from an op is read while the walk is at
// it: on a large body each op is far from the last one in memory, so each
// further visit is another cache miss.
func newDAG(n int, explain bool, t *target.Target) *dag {
	d := &dag{
		target: t,
		// Compute ops fill this array from the front and leaves from the
		// back (reversed into body order by link): one allocation sized
		// by the body, none growing.
		ops:    make([]*ir.Operation, 0, n),
		opOff:  make([]int32, 1, n+1),
		resOff: make([]int32, 1, n+1),
		npred:  make([]int32, 0, n),
		native: make([]bool, 0, n),
	}
	if explain {
		d.reason = make([]string, 0, n)
	}
	return d
}

// addLeaf records the next leaf.
func (d *dag) addLeaf(op *ir.Operation) {
	d.nleaves++
	all := d.ops[:cap(d.ops)]
	all[len(all)-d.nleaves] = op
}

// add appends a compute op and decides whether it must stay native (and,
// when the dag was made for explain, why).
func (d *dag) add(op *ir.Operation, forced map[string]bool) {
	explain := d.reason != nil
	i := len(d.ops)
	d.ops = append(d.ops, op)
	d.opOff = append(d.opOff, d.opOff[i]+int32(op.NumOperands()))
	d.resOff = append(d.resOff, d.resOff[i]+int32(op.NumResults()))
	// npred holds the leaves before op i until link counts predecessors.
	d.npred = append(d.npred, int32(d.nleaves))
	native, reason := false, ""
	switch {
	case forced[op.Name()]:
		native = true
		if explain {
			reason = op.Name() + " is listed in native-ops"
		}
	default:
		// Without explain no reason is formatted.
		ok, why := d.target.Capable(op, explain)
		native, reason = !ok, why
	}
	d.native = append(d.native, native)
	if explain {
		d.reason = append(d.reason, reason)
	}
}

// link lists the leaves in body order and indexes the edges between the
// compute ops, in O(ops + uses) but for a search of O(log distance) per
// operand. It finds an operand's producer without a map:
// producers come before their consumer in the body, mostly a few ops
// before, so a galloping search backward from the consumer (comparing body
// positions with IsBeforeInBlock) finds one in O(log distance) steps over
// memory just touched.
func (d *dag) link() {
	all := d.ops[:cap(d.ops)]
	leaves := all[len(all)-d.nleaves:]
	slices.Reverse(leaves)
	d.leaves = leaves
	ops := d.ops[:len(d.ops):len(d.ops)] // an append must not reach the leaves
	d.ops = ops
	n := len(ops)
	d.succOff = make([]int32, n+1)
	d.src = make([]int32, d.opOff[n])
	var body *ir.Block
	if n > 0 {
		body = ops[0].Block()
	}
	for i, op := range ops {
		nleaves := d.npred[i]
		d.npred[i] = 0
		base := d.opOff[i]
		for k := 0; k < op.NumOperands(); k++ {
			s := d.source(op.Operand(k), body, int(nleaves), i)
			d.src[base+int32(k)] = s
			if s >= 0 {
				d.npred[i]++
				d.succOff[s]++
			}
		}
	}
	// succOff[j] counts op j's uses; summed, it is where j's consumers end.
	// Placing the consumers from the last op back moves each succOff[j] to
	// where they start, and lists them in body order.
	for i := 1; i <= n; i++ {
		d.succOff[i] += d.succOff[i-1]
	}
	d.succ = make([]int32, d.succOff[n])
	for i := n - 1; i >= 0; i-- {
		for _, j := range d.src[d.opOff[i]:d.opOff[i+1]] {
			if j >= 0 {
				d.succOff[j]--
				d.succ[d.succOff[j]] = int32(i)
			}
		}
	}
}

// flat returns the number, among all compute results, of the result of
// compute op j that operand k of op i reads. Most ops have one result,
// and then the operand is not read: on a large body it is far away in
// memory, and the loops over every operand stay within the dag's arrays.
func (d *dag) flat(i, k int, j int32) int32 {
	f := d.resOff[j]
	if d.resOff[j+1]-f > 1 {
		f += int32(d.ops[i].Operand(k).Index())
	}
	return f
}

// retire hands the edge lists and predecessor counts, which only the
// partitioning reads, over to d.spare.
func (d *dag) retire() {
	d.spare.put(d.succOff, d.succ, d.npred)
	d.succOff, d.succ, d.npred = nil, nil, nil
}

// source says where v comes from (an operand source: j, srcLeaf-l or
// srcArg), searching the first nleaves leaves and the first nops compute
// ops of body, where v's producer must be.
func (d *dag) source(v *ir.Value, body *ir.Block, nleaves, nops int) int32 {
	def := v.DefiningOp()
	switch {
	case def == nil || def.Block() != body:
	case graph.IsLeaf(def):
		if l := search(d.leaves[:nleaves], def); l >= 0 {
			return srcLeaf - int32(l)
		}
	default:
		if j := search(d.ops[:nops], def); j >= 0 {
			return int32(j)
		}
	}
	return srcArg
}

// search returns the position of op in list (ops of one block, in block
// order), or -1, galloping backward from the end: steps 1, 2, 4, … until
// an op not after op, then a binary search in the last step.
func search(list []*ir.Operation, op *ir.Operation) int {
	hi := len(list) // op is at a position < hi
	lo := hi - 1
	for step := 1; lo >= 0 && list[lo] != op && op.IsBeforeInBlock(list[lo]); step *= 2 {
		hi = lo
		lo -= step
	}
	if lo < 0 {
		lo = 0
	}
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		switch m := list[mid]; {
		case m == op:
			return mid
		case m.IsBeforeInBlock(op):
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return -1
}

// partition is an assignment of compute ops to a sequence of regions:
// region[i] is op i's region, and regions are numbered in an order in
// which every region depends only on earlier ones.
type partition struct {
	region []int32
	native []bool // per region
}

func (p *partition) numRegions() int { return len(p.native) }

// waves runs the two-ready-set topological sort. Starting with the kind
// startNative, it repeatedly opens a region of the current kind, takes
// every ready op of that kind into it (including ops that become ready
// while it is open), and switches kind. It visits every op and every edge
// once. scratch (2n entries, reusable) holds the unmet-operand counts and
// the two ready sets: stacks growing from either end of one array, since
// together they never hold more than the ops left.
func (d *dag) waves(startNative bool, scratch []int32) *partition {
	n := int32(len(d.ops))
	p := &partition{region: make([]int32, n)}
	left, ready := scratch[:n], scratch[n:2*n]
	copy(left, d.npred)
	mps, nat := int32(0), n // ready[:mps] are MPS-capable, ready[nat:] native
	push := func(i int32) {
		if d.native[i] {
			nat--
			ready[nat] = i
		} else {
			ready[mps] = i
			mps++
		}
	}
	empty := func(native bool) bool {
		if native {
			return nat == n
		}
		return mps == 0
	}
	pop := func(native bool) (i int32) {
		if native {
			i, nat = ready[nat], nat+1
		} else {
			mps--
			i = ready[mps]
		}
		return i
	}
	for i := int32(0); i < n; i++ {
		if left[i] == 0 {
			push(i)
		}
	}
	native := startNative
	for done := int32(0); done < n; native = !native {
		if empty(native) {
			native = !native
			if empty(native) {
				panic("hybridsplit: dependency cycle among the ops of a function")
			}
		}
		r := int32(len(p.native))
		p.native = append(p.native, native)
		for !empty(native) {
			i := pop(native)
			p.region[i] = r
			done++
			for _, j := range d.succ[d.succOff[i]:d.succOff[i+1]] {
				left[j]--
				if left[j] == 0 {
					push(j)
				}
			}
		}
	}
	return p
}

// dependency is mode=dependency: the waves run from both starting kinds,
// keeping the one with fewer regions (ties: MPS first).
func (d *dag) dependency() *partition {
	scratch := d.spare.get(2 * len(d.ops))
	defer d.spare.put(scratch)
	m := d.waves(false, scratch)
	nat := d.waves(true, scratch)
	if nat.numRegions() < m.numRegions() {
		m, nat = nat, m
	}
	d.spare.put(nat.region)
	return m
}

// sink moves every op computed from leaves alone (a weight's transpose,
// exp(A_log), …: constants of the function) from the early region the waves
// put it in down to the latest region of its kind that comes no later
// than its first consumer's, so that its result crosses no boundary. It
// moves picked rows too: a graph.gather from such a table by any indices
// (an MoE block's chosen experts, whose index is ready long before the
// projection that reads them), when its result is not smaller than its
// indices, and the reshapes and slices of what it picked, returned or
// not; the indices then cross to it instead of the rows. The ops are visited from last to first, so consumers have their
// final region; the sequence stays valid (producers stay earlier,
// consumers later) and the region count cannot grow. Regions alternate
// kinds, so the target is the first consumer's region or the one before
// it. Regions left empty are dropped and their neighbours merged.
//
// A move can still add bytes where an op moves without its producer (a
// slice of picked rows whose sibling stays, say: the rows then cross
// instead of the slice). So the sink keeps its moves only when the
// boundary they leave (boundaryBytes) is no larger than before; failing
// that, only the moves of ops computed from leaves alone, on the same
// condition; failing that, none.
func (d *dag) sink(p *partition, ret *ir.Operation, retSrc []int32) {
	n := len(d.ops)
	derived := make([]bool, n)
	moves := make([]bool, n) // derived, or picked rows
	for i := 0; i < n; i++ {
		src := d.src[d.opOff[i]:d.opOff[i+1]]
		derived[i] = true
		for _, j := range src {
			if j == srcArg || j >= 0 && !derived[j] {
				derived[i] = false
				break
			}
		}
		switch name := d.ops[i].Name(); {
		case derived[i]:
			moves[i] = true
		case name == graph.GatherName && d.picks(i):
			moves[i] = src[0] <= srcLeaf || src[0] >= 0 && moves[src[0]]
		case name == graph.ReshapeName || name == graph.SliceName:
			moves[i] = len(src) == 1 && src[0] >= 0 && moves[src[0]]
		}
	}
	orig := slices.Clone(p.region)
	before := int64(-1)
	for _, set := range [][]bool{moves, derived} {
		if !d.sinkMoves(p, set) {
			return
		}
		if before < 0 {
			before = d.boundaryBytes(orig, ret, retSrc)
		}
		if d.boundaryBytes(p.region, ret, retSrc) <= before {
			p.compact(&d.spare)
			return
		}
		copy(p.region, orig)
	}
}

// sinkMoves moves each op that moves says may move, last to first, to the
// latest region of its kind no later than its first consumer's; it
// reports whether any op moved.
func (d *dag) sinkMoves(p *partition, moves []bool) bool {
	moved := false
	for i := len(d.ops) - 1; i >= 0; i-- {
		if !moves[i] || d.succOff[i] == d.succOff[i+1] {
			continue
		}
		first := int32(len(p.native))
		for _, j := range d.succ[d.succOff[i]:d.succOff[i+1]] {
			first = min(first, p.region[j])
		}
		t := first
		if p.native[t] != p.native[p.region[i]] {
			t--
		}
		if t > p.region[i] {
			p.region[i] = t
			moved = true
		}
	}
	return moved
}

// returnSources returns where each operand of ret, the function's
// terminator, comes from: an operand source, as src holds them.
func (d *dag) returnSources(ret *ir.Operation, body *ir.Block) []int32 {
	retSrc := make([]int32, ret.NumOperands())
	for k := range retSrc {
		retSrc[k] = d.source(ret.Operand(k), body, len(d.leaves), len(d.ops))
	}
	return retSrc
}

// markEscapes sets esc[f] to 1 for each compute result f (a flat result
// number, resOff) that escapes its region under region (a region number
// per compute op): an op of another region reads it, or ret (the
// function's terminator, whose operands' sources are retSrc) returns it.
// It leaves the other entries as they are.
func (d *dag) markEscapes(region []int32, ret *ir.Operation, retSrc, esc []int32) {
	for i := range d.ops {
		for k, j := range d.src[d.opOff[i]:d.opOff[i+1]] {
			if j >= 0 && region[j] != region[i] {
				esc[d.flat(i, k, j)] = 1
			}
		}
	}
	for k, j := range retSrc {
		if j >= 0 {
			esc[d.resOff[j]+int32(ret.Operand(k).Index())] = 1
		}
	}
}

// boundaryBytes is the size of the region results the outliner would
// make of region: each escaping result (markEscapes), once.
func (d *dag) boundaryBytes(region []int32, ret *ir.Operation, retSrc []int32) int64 {
	esc := d.spare.get(int(d.resOff[len(d.ops)]))
	defer d.spare.put(esc)
	d.markEscapes(region, ret, retSrc, esc)
	var b int64
	for i, op := range d.ops {
		for k := range op.NumResults() {
			if esc[d.resOff[i]+int32(k)] != 0 {
				b = ir.SaturatingAdd(b, sizeOf(op.Result(k).Type()))
			}
		}
	}
	return b
}

// picks reports whether graph.gather op i's result holds at least as many
// bytes as its indices, so that sinking it does not add to the boundary.
func (d *dag) picks(i int) bool {
	op := d.ops[i]
	return op.NumOperands() == 2 && op.NumResults() == 1 && sizeOf(op.Result(0).Type()) >= sizeOf(op.Operand(1).Type())
}

// compact drops empty regions and merges consecutive regions of one kind.
// Its counts come from s and go back to it.
func (p *partition) compact(s *spare) {
	size, renum := s.get(p.numRegions()), s.get(p.numRegions())
	defer s.put(size, renum)
	for _, r := range p.region {
		size[r]++
	}
	var native []bool
	for r, nat := range p.native {
		switch {
		case size[r] == 0:
			continue
		case len(native) > 0 && native[len(native)-1] == nat:
			renum[r] = int32(len(native) - 1)
		default:
			renum[r] = int32(len(native))
			native = append(native, nat)
		}
	}
	for i, r := range p.region {
		p.region[i] = renum[r]
	}
	p.native = native
}

// seed is mode=seed, the original algorithm (build_hybrid_plan) over the
// ops in body order. why (nil without explain) receives the seed-specific
// reason for ops the mode keeps native although they are MPS-capable.
func (d *dag) seed(why []string) *partition {
	n := len(d.ops)
	p := &partition{region: make([]int32, n)}
	var pending []int32
	flush := func() {
		if len(pending) == 0 {
			return
		}
		r := int32(len(p.native))
		var bad int32 = -1
		for _, i := range pending {
			p.region[i] = r
			if bad < 0 && d.native[i] {
				bad = i
			}
		}
		p.native = append(p.native, bad >= 0)
		if bad >= 0 && why != nil {
			for _, i := range pending {
				if !d.native[i] {
					why[i] = fmt.Sprintf("seed mode: its run of ops also holds %s, which MPS cannot run (%s)", d.ops[bad].Name(), d.reason[bad])
				}
			}
		}
		pending = pending[:0]
	}
	for i, op := range d.ops {
		if d.target.IsSplitPoint(op) {
			flush()
			p.region[i] = int32(len(p.native))
			p.native = append(p.native, true)
			if why != nil && !d.native[i] {
				why[i] = "seed mode: " + op.Name() + " is a split point, always a one-op thunk"
			}
			continue
		}
		pending = append(pending, int32(i))
	}
	flush()
	return p
}

// seedFinish applies the original's refusals after min-subgraph-ops: a
// function with gated_delta_net, attention or lstm, or without any MPS
// region, becomes one thunk region holding every compute op.
func (d *dag) seedFinish(p *partition, why []string) *partition {
	refusal := ""
	for _, op := range d.ops {
		if n := op.Name(); n == graph.GatedDeltaNetName || n == graph.AttentionName || n == graph.LSTMName {
			refusal = n
			break
		}
	}
	anyMPS := false
	for _, nat := range p.native {
		anyMPS = anyMPS || !nat
	}
	if refusal == "" && anyMPS {
		return p
	}
	if len(d.ops) == 0 {
		return p
	}
	one := &partition{region: make([]int32, len(d.ops)), native: []bool{true}}
	for i := range d.ops {
		if why == nil || d.native[i] {
			continue
		}
		if refusal != "" {
			why[i] = "seed mode: the function holds " + refusal + ", so every compute op goes to one thunk region (seed mode splits no function with attention, gated_delta_net or lstm, as RLX's hybrid plan did not)"
		} else if why[i] == "" {
			why[i] = "seed mode: no MPS region would form, so every compute op goes to one thunk region"
		}
	}
	return one
}

// demoteSmall makes every MPS region with fewer than min compute ops
// native. With merge, runs of consecutive native regions then become one
// region (consecutive regions of a sequence can always be merged: nothing
// outside them lies between them). why receives the reason for each
// demoted op.
func (d *dag) demoteSmall(p *partition, min int, merge bool, why []string) *partition {
	if min <= 1 {
		return p
	}
	size := make([]int, p.numRegions())
	for _, r := range p.region {
		size[r]++
	}
	demoted := false
	for r, nat := range p.native {
		if !nat && size[r] < min {
			p.native[r] = true
			demoted = true
		}
	}
	if !demoted {
		return p
	}
	for i, r := range p.region {
		if why != nil && p.native[r] && !d.native[i] && why[i] == "" {
			ops := "ops"
			if size[r] == 1 {
				ops = "op"
			}
			why[i] = fmt.Sprintf("%s: its MPS region would hold %d compute %s, fewer than min-subgraph-ops=%d", d.ops[i].Name(), size[r], ops, min)
		}
	}
	if merge {
		p.compact(&d.spare)
	}
	return p
}
