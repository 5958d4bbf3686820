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
