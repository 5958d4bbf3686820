package metal

import (
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// expertRead is a graph.dequant_matmul whose packed weight is one matrix
// of an expert stack, picked by a gather's index: its kernel reads the
// matrix in place, at stack + index[j]·per bytes, as ggml's mul_mv_id
// does, instead of from the copy a gather kernel would make (which reads
// and writes every chosen matrix once more: three times the weight
// traffic of an MoE block's experts).
type expertRead struct {
	stack *ir.Value // the gather's [E, per] table (a view of the param)
	idx   *ir.Value // the gather's indices
	j     int64     // which index picks this matrix
	count int64     // E
	per   int64     // bytes of one matrix
}

// findExpertReads returns, for a region's ops, the dequant_matmuls that
// read an expert in place and the gathers and slices this leaves without
// a kernel: a graph.gather along axis 0 of a ui8 [E, per] table (per a
// multiple of 16, so that a matrix starts as aligned as the stack), whose
// every use is a graph.slice of one row along axis 0, each slice feeding,
// through graph.reshape only, graph.dequant_matmuls as their packed
// weight and nothing else (not the region's results).
func findExpertReads(ops []*ir.Operation) (map[*ir.Operation]expertRead, map[*ir.Operation]bool) {
	var reads map[*ir.Operation]expertRead
	var absorbed map[*ir.Operation]bool
	for _, op := range ops {
		g, ok := graph.AsGather(op)
		if !ok || g.Axis() != 0 {
			continue
		}
		tab, err := infoOf(g.Table())
		if err != nil || tab.elem != elemUI8 || tab.rank() != 2 || tab.shape[1]%16 != 0 {
			continue
		}
		idx, err := infoOf(g.Indices())
		if err != nil || idx.n == 0 {
			continue
		}
		found := map[*ir.Operation]expertRead{}
		var slices []*ir.Operation
		whole := true
		for u := range op.Result(0).Uses() {
			s, ok := graph.AsSlice(u.Owner())
			if !ok || s.Axis() != 0 || s.Length() != 1 || s.Step() != 1 || s.Start() < 0 || s.Start() >= idx.n {
				whole = false
				break
			}
			at := expertRead{stack: g.Table(), idx: g.Indices(), j: s.Start(), count: tab.shape[0], per: tab.shape[1]}
			if !packedOnly(s.Op.Result(0), func(dq *ir.Operation) { found[dq] = at }) {
				whole = false
				break
			}
			slices = append(slices, s.Op)
		}
		if !whole || len(found) == 0 {
			continue
		}
		if reads == nil {
			reads, absorbed = map[*ir.Operation]expertRead{}, map[*ir.Operation]bool{}
		}
		for dq, at := range found {
			reads[dq] = at
		}
		absorbed[op] = true
		for _, s := range slices {
			absorbed[s] = true
		}
	}
	return reads, absorbed
}

// packedOnly reports whether every use of v, through reshapes, is the
// packed weight of a graph.dequant_matmul, calling found for each.
func packedOnly(v *ir.Value, found func(dq *ir.Operation)) bool {
	for u := range v.Uses() {
		owner := u.Owner()
		switch {
		case owner.Name() == graph.ReshapeName:
			if !packedOnly(owner.Result(0), found) {
				return false
			}
		case owner.Name() == graph.DequantMatMulName && u.Index() == 1:
			found(owner)
		default:
			return false
		}
	}
	return true
}

// expertBatch is the K in-place expert reads of one stack by indices
// 0 … K−1 of a region, each of one row of x: a single dispatch computes
// them all, expert j on the grid's third axis, as ggml's mul_mv_id does.
// Each keeps its own result buffer; x is one row shared by all (an MoE
// block's gate and up projections) or one buffer per expert (the down
// projection's rows).
type expertBatch struct {
	expertRead
	ops    []*ir.Operation // the dequant_matmuls, by index
	shared bool            // one x for all
}

// findExpertBatches returns the batches among reads, by the dequant_matmul
// where the batch's dispatch goes (the last of them, so that every x is
// computed), and adds the others to absorbed. A batch needs one
// dequant_matmul per index, all of one format and [n, k], each of one row
// of x, none of whose results is read before the last of them, and its
// buffers within MaxBuffers.
func findExpertBatches(ops []*ir.Operation, reads map[*ir.Operation]expertRead, absorbed map[*ir.Operation]bool) map[*ir.Operation]*expertBatch {
	if len(reads) == 0 {
		return nil
	}
	pos := make(map[*ir.Operation]int, len(ops))
	for i, op := range ops {
		pos[op] = i
	}
	type stackKey struct{ stack, idx *ir.Value }
	groups := map[stackKey][]*ir.Operation{}
	var keys []stackKey
	for _, op := range ops {
		if at, ok := reads[op]; ok {
			key := stackKey{at.stack, at.idx}
			if groups[key] == nil {
				keys = append(keys, key)
			}
			groups[key] = append(groups[key], op)
		}
	}
	var out map[*ir.Operation]*expertBatch
	for _, key := range keys {
		dqs := groups[key]
		first, _ := graph.AsDequantMatMul(dqs[0])
		idx, _ := infoOf(key.idx)
		b := &expertBatch{expertRead: reads[dqs[0]], ops: make([]*ir.Operation, idx.n), shared: true}
		ok := int64(len(dqs)) == idx.n && idx.n > 1
		last := 0
		for _, dq := range dqs {
			at := reads[dq]
			d, _ := graph.AsDequantMatMul(dq)
			x, err := infoOf(dq.Operand(0))
			if !ok || at.j >= idx.n || b.ops[at.j] != nil || err != nil || x.rank() != 2 || x.dim(0) != 1 ||
				d.N() != first.N() || d.K() != first.K() || d.Format() != first.Format() {
				ok = false
				break
			}
			b.ops[at.j] = dq
			b.shared = b.shared && dq.Operand(0) == dqs[0].Operand(0)
			last = max(last, pos[dq])
		}
		if !ok {
			continue
		}
		for _, dq := range dqs {
			for u := range dq.Result(0).Uses() {
				if p, in := pos[u.Owner()]; in && p <= last {
					ok = false
				}
			}
		}
		xs := len(dqs)
		if b.shared {
			xs = 1
		}
		if !ok || xs+len(dqs)+3 > MaxBuffers {
			continue
		}
		if out == nil {
			out = map[*ir.Operation]*expertBatch{}
		}
		out[ops[last]] = b
		for _, dq := range dqs {
			absorbed[dq] = true
		}
	}
	return out
}

// expertBase writes the start of an in-place expert read: e = eidx[j] for
// the index expression j, the status word's bit when e is outside
// [0, E), and w, the matrix e of the stack wx (expert 0 when e is out of
// range, so that no read leaves the stack).
func expertBase(b *kb, j string, at expertRead) {
	b.l("const long e = (long)eidx[%s];", j)
	b.l("const bool ein = e >= 0 && e < %d;", at.count)
	b.l("if (!ein) {")
	b.l("atomic_fetch_or_explicit(status, 1u, memory_order_relaxed);")
	b.l("}")
	b.l("device const uchar *w = wx + (ein ? (ulong)e : 0ul) * %dul;", at.per)
}
