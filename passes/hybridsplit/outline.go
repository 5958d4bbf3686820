package hybridsplit

import (
	"hash/maphash"
	"math"
	"strconv"

	"github.com/rlx-compiler/rlx/dialect/mps"
	"github.com/rlx-compiler/rlx/dialect/thunk"
	"github.com/rlx-compiler/rlx/ir"
)

// outliner rewrites a function body into the regions of a partition. Ops
// are moved, never copied, so they keep their identity and location;
// leaves are cloned into each region that uses them. It works on the
// dag's indices: the value an op reads from another region is found
// through the op's operand sources, never through use lists or maps.
type outliner struct {
	ctx    *ir.Context
	d      *dag
	p      *partition
	body   *ir.Block
	ret    *ir.Operation
	retSrc []int32 // where each of ret's operands comes from (dag.returnSources)
	prefix string  // the function's name

	// esc[f] (f a flat result number, dag.resOff) numbers the results read
	// outside their region, -1 for the others; outer[esc[f]] is then the
	// region op's result that carries f. Only a minority of results
	// escape, so the arrays indexed by escape number stay small.
	esc   []int32
	outer []*ir.Value
	// resArg (by escape number) and argArg (by function argument) give
	// the block argument of an external compute result or function
	// argument in the region being built, as 1 + its number among the
	// block arguments of all regions so far. An entry no greater than
	// base, the number made before the region being built, is from an
	// earlier region (or unset), so the tables are never cleared.
	resArg, argArg []int32
	base           int32
	// canon maps each leaf to the first leaf of the body that computes the
	// same value, so identical leaves are cloned into a region once.
	// cloneOp[l] is canonical leaf l's clone in region cloneAt[l]-1 (0:
	// none yet).
	canon   []int32
	cloneAt []int32
	cloneOp []*ir.Operation
	// move[l] says canonical leaf l is used by one region only (and not
	// returned): it is moved there instead of cloned.
	move []bool

	subgraph, call, mpsYield, thunkYield *ir.OpName
	thunkAt                              ir.Attribute // the thunk.call target attribute

	// Scratch slices reused by every region (the IR copies what it keeps).
	operands, results  []*ir.Value
	leaves, escaping   []int32
	types, resultTypes []ir.Type
	attrs              []ir.NamedAttr

	res Result
}

func newOutliner(d *dag, p *partition, body *ir.Block, ret *ir.Operation, retSrc []int32, prefix string) *outliner {
	ctx := ret.Context()
	nres := d.resOff[len(d.ops)]
	// The int32 tables reuse the arrays the partitioning is done with.
	o := &outliner{
		ctx: ctx, d: d, p: p, body: body, ret: ret, retSrc: retSrc, prefix: prefix,
		esc:        d.spare.get(int(nres)),
		argArg:     make([]int32, body.NumArguments()),
		canon:      d.spare.get(len(d.leaves)),
		cloneAt:    d.spare.get(len(d.leaves)),
		cloneOp:    make([]*ir.Operation, len(d.leaves)),
		move:       make([]bool, len(d.leaves)),
		subgraph:   ctx.OpName(mps.SubgraphName),
		call:       ctx.OpName(thunk.CallName),
		mpsYield:   ctx.OpName(mps.YieldName),
		thunkYield: ctx.OpName(thunk.YieldName),
		thunkAt:    ctx.StringAttr(d.target.Thunk),
	}
	o.canonLeaves()
	return o
}

// canonLeaves fills canon. Leaves are keyed by their properties (the
// uniqued {name} of a param, {value} of a constant); the type and
// discardable attributes must match too, or the leaf stays its own. An
// open-addressing table, from d.spare, finds the first leaf with each key:
// slot i holds 1 + the leaf's number at 2i and the top half of its key's
// hash at 2i+1, so a probe reads another leaf only when the hashes match.
func (o *outliner) canonLeaves() {
	d := o.d
	size := 1
	for size < len(d.leaves)+len(d.leaves)/2 { // at most 2/3 full
		size *= 2
	}
	table := d.spare.get(2 * size)
	defer d.spare.put(table)
	seed, mask := maphash.MakeSeed(), uint64(size-1)
	for l, op := range d.leaves {
		o.canon[l] = int32(l)
		k := op.PropsDict()
		if k == nil {
			continue
		}
		h := maphash.Comparable(seed, k)
		tag := int32(h >> 32)
		for i := h & mask; ; i = (i + 1) & mask {
			c := table[2*i] - 1
			if c < 0 {
				table[2*i], table[2*i+1] = int32(l)+1, tag
				break
			}
			f := d.leaves[c]
			if table[2*i+1] != tag || f.PropsDict() != k {
				continue
			}
			if f.Attrs() == op.Attrs() && f.Result(0).Type() == op.Result(0).Type() && f.OpName() == op.OpName() {
				o.canon[l] = c
			}
			break
		}
	}
}

// run outlines every region in order, points func.return at the region
// results, and erases the leaves that no longer have uses.
func (o *outliner) run() {
	d, p := o.d, o.p
	retSrc := o.retSrc
	// A result escapes when an op of another region reads it, or the
	// function returns it: mark those, then number them.
	d.markEscapes(p.region, o.ret, retSrc, o.esc)
	nesc := int32(0)
	for f, e := range o.esc {
		if e == 0 {
			o.esc[f] = -1
			continue
		}
		o.esc[f] = nesc
		nesc++
	}
	o.outer = make([]*ir.Value, nesc)
	o.resArg = d.spare.get(int(nesc))
	// A canonical leaf read by the ops of one region only, and not
	// returned, moves into that region: most weights are read once.
	firstRegion := d.spare.get(len(d.leaves))
	for l := range firstRegion {
		firstRegion[l] = -1
		o.move[l] = o.canon[l] == int32(l)
	}
	for i := range d.ops {
		for _, j := range d.src[d.opOff[i]:d.opOff[i+1]] {
			if j > srcLeaf {
				continue
			}
			l := o.canon[srcLeaf-j]
			switch r := p.region[i]; firstRegion[l] {
			case -1:
				firstRegion[l] = r
			case r:
			default:
				o.move[l] = false
			}
		}
	}
	d.spare.put(firstRegion)
	for _, j := range retSrc {
		if j <= srcLeaf { // a returned leaf stays in the body
			o.move[o.canon[srcLeaf-j]] = false
		}
	}
	n := p.numRegions()
	// Bucket the ops by region, keeping body order inside each.
	off := d.spare.get(n + 1)
	for _, r := range p.region {
		off[r+1]++
	}
	for r := 0; r < n; r++ {
		off[r+1] += off[r]
	}
	order, fill := d.spare.get(len(p.region)), d.spare.get(n)
	copy(fill, off[:n])
	for i, r := range p.region {
		order[fill[r]] = int32(i)
		fill[r]++
	}
	for r := 0; r < n; r++ {
		o.outline(int32(r), order[off[r]:off[r+1]])
	}
	for k, j := range retSrc {
		if j >= 0 {
			o.ret.SetOperand(k, o.outer[o.esc[d.resOff[j]+int32(o.ret.Operand(k).Index())]])
		}
	}
	for _, l := range d.leaves {
		if l.Block() == o.body && !l.Result(0).HasUses() {
			l.Erase()
		}
	}
}

// outline builds region r from its ops (indices in body order): it
// computes the operands (external values in order of first use) and the
// results (values used after the region, in order of definition), creates
// the region op before the terminator, clones the leaves in and moves the
// ops, pointing their operands at block arguments and clones.
func (o *outliner) outline(r int32, ops []int32) {
	base := o.base
	operands, leaves := o.regionInputs(r, ops)
	results, escaping := o.regionOutputs(ops)
	block := o.newRegionOp(r, ops, operands, results, escaping)
	o.fillBody(r, ops, base, block, leaves, results)
	o.operands, o.leaves = operands[:0], leaves[:0]
	o.results, o.escaping = results[:0], escaping[:0]
}

// regionInputs returns the operands of region r's op (the values computed
// outside r, or function arguments, that its ops read; each once, in the
// order of first use) and the canonical leaves its ops read. It numbers
// each operand's block argument in resArg and argArg, past o.base.
func (o *outliner) regionInputs(r int32, ops []int32) (operands []*ir.Value, leaves []int32) {
	d, p, base := o.d, o.p, o.base
	operands, leaves = o.operands[:0], o.leaves[:0]
	for _, i := range ops {
		op := d.ops[i]
		for k, j := range d.src[d.opOff[i]:d.opOff[i+1]] {
			switch {
			case j <= srcLeaf:
				l := o.canon[srcLeaf-j]
				if o.cloneAt[l] != r+1 {
					o.cloneAt[l] = r + 1
					leaves = append(leaves, l)
				}
			case j >= 0:
				if p.region[j] == r {
					continue
				}
				e := o.esc[d.flat(int(i), k, j)]
				if o.resArg[e] <= base {
					operands = append(operands, o.outer[e])
					o.resArg[e] = base + int32(len(operands))
				}
			default:
				a := op.Operand(k).Index()
				if o.argArg[a] <= base {
					operands = append(operands, op.Operand(k))
					o.argArg[a] = base + int32(len(operands))
				}
			}
		}
	}
	return operands, leaves
}

// regionOutputs returns the results of r's ops that are read outside r,
// in order of definition, and their escape numbers.
func (o *outliner) regionOutputs(ops []int32) (results []*ir.Value, escaping []int32) {
	d := o.d
	results, escaping = o.results[:0], o.escaping[:0]
	for _, i := range ops {
		base := d.resOff[i]
		for k := int32(0); k < d.resOff[i+1]-base; k++ {
			if e := o.esc[base+k]; e >= 0 {
				results = append(results, d.ops[i].Result(int(k)))
				escaping = append(escaping, e)
			}
		}
	}
	return results, escaping
}

// newRegionOp inserts region r's op (an mps.subgraph, or a thunk.call
// with the target's thunk attribute) before the function's terminator,
// with an empty entry block taking the operands, makes its results stand
// for the escaping values outside, and returns the block.
func (o *outliner) newRegionOp(r int32, ops []int32, operands, results []*ir.Value, escaping []int32) *ir.Block {
	st := ir.OperationState{Loc: o.d.ops[ops[0]].Loc(), Operands: operands, NumRegions: 1}
	st.ResultTypes = o.resultTypes[:0]
	for _, v := range results {
		st.ResultTypes = append(st.ResultTypes, v.Type())
		o.res.BoundaryValues++
		o.res.BoundaryBytes = ir.SaturatingAdd(o.res.BoundaryBytes, sizeOf(v.Type()))
	}
	o.resultTypes = st.ResultTypes[:0]
	if o.p.native[r] {
		sym := o.prefix + "_thunk" + strconv.Itoa(int(r))
		st.Name = o.call
		o.attrs = append(o.attrs[:0], ir.NamedAttr{Name: "sym_name", Value: o.ctx.StringAttr(sym)}, ir.NamedAttr{Name: "target", Value: o.thunkAt})
		o.res.ThunkRegions++
		o.res.ThunkOps += len(ops)
	} else {
		sym := o.prefix + "_mps" + strconv.Itoa(int(r))
		st.Name = o.subgraph
		o.attrs = append(o.attrs[:0], ir.NamedAttr{Name: "sym_name", Value: o.ctx.StringAttr(sym)})
		o.res.MPSRegions++
		o.res.MPSOps += len(ops)
	}
	// The attributes are inherent, and the symbol makes them unique to the
	// op: it keeps them as its own properties, not uniqued in the context
	// (NewOperation copies the scratch slice).
	st.PropEntries = o.attrs
	types := o.types[:0]
	for _, v := range operands {
		types = append(types, v.Type())
	}
	o.types = types[:0]
	o.base += int32(len(operands))
	region := ir.NewOperation(o.ctx, &st)
	block := ir.NewBlock(types, nil)
	region.Region(0).AppendBlock(block)
	o.body.InsertBefore(region, o.ret)
	for k, e := range escaping {
		o.outer[e] = region.Result(k)
	}
	return block
}

// fillBody fills region r's block: its leaves (moved when only r reads
// them, else cloned), then its ops in order with their operands remapped
// to the leaves and the block arguments (numbered past base), then the
// terminator yielding results.
func (o *outliner) fillBody(r int32, ops []int32, base int32, block *ir.Block, leaves []int32, results []*ir.Value) {
	d, p := o.d, o.p
	for _, l := range leaves {
		src := d.leaves[l]
		if o.move[l] {
			src.Remove()
			block.Append(src)
			o.cloneOp[l] = src
			continue
		}
		c := ir.NewOperation(o.ctx, &ir.OperationState{
			Name: src.OpName(), Loc: src.Loc(), ResultTypes: []ir.Type{src.Result(0).Type()}, Props: src.Props(), AttrDict: src.Attrs(),
		})
		block.Append(c)
		o.cloneOp[l] = c
	}
	for _, i := range ops {
		op := d.ops[i]
		op.Remove()
		block.Append(op)
		for k, j := range d.src[d.opOff[i]:d.opOff[i+1]] {
			switch {
			case j <= srcLeaf:
				op.SetOperand(k, o.cloneOp[o.canon[srcLeaf-j]].Result(0))
			case j >= 0:
				if p.region[j] != r {
					e := o.esc[d.flat(int(i), k, j)]
					op.SetOperand(k, block.Argument(int(o.resArg[e]-base-1)))
				}
			default:
				op.SetOperand(k, block.Argument(int(o.argArg[op.Operand(k).Index()]-base-1)))
			}
		}
	}
	yield := o.mpsYield
	if p.native[r] {
		yield = o.thunkYield
	}
	block.Append(ir.NewOperation(o.ctx, &ir.OperationState{Name: yield, Loc: d.ops[ops[0]].Loc(), Operands: results}))
}

// sizeOf returns the size in bytes of a tensor value of type t, 0 when its
// shape is not static, and math.MaxInt64 when the size does not fit in an
// int64 (the boundary-bytes statistic saturates there).
func sizeOf(t ir.Type) int64 {
	rt, ok := t.(*ir.RankedTensorType)
	if !ok {
		return 0
	}
	n, fits := ir.ShapeElements(rt.Shape)
	if !fits {
		return math.MaxInt64
	}
	if n < 0 {
		return 0
	}
	var bits int64
	switch e := rt.Elem.(type) {
	case *ir.FloatType:
		bits = int64(e.Width())
	case *ir.IntegerType:
		bits = int64(e.Width)
	default:
		return 0
	}
	size, fits := ir.MulSize(n, (bits+7)/8)
	if !fits {
		return math.MaxInt64
	}
	return size
}
