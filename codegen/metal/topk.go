package metal

import (
	"fmt"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// emitTopK emits graph.topk: one threadgroup per row of x [..., N], K
// passes over the row. Pass j takes the first element, in top-k's order
// (larger first, NaN above numbers, equal values by lower index), of
// those after pass j−1's pick in that order: since the order is total,
// that is the j-th largest, with no list of taken indices. In a pass each
// thread keeps its best, a butterfly of simd_shuffle_xor gives every lane
// its simdgroup's, and every thread folds the simdgroups' picks from
// threadgroup memory in the same order, so all agree on the pick. Values
// are copied from x (converted only to a narrower result type), as
// kernels.TopK does. K is a router's experts per token, so K passes over
// a row of N beat a sort.
func emitTopK(r *regionState, op *ir.Operation) error {
	tk, _ := graph.AsTopK(op)
	x, _ := infoOf(tk.Input())
	y, _ := infoOf(tk.Values())
	ix, _ := infoOf(tk.Indices())
	if x.rank() == 0 {
		return ir.OpError(op, "needs an operand of rank ≥ 1")
	}
	n, k := x.dim(-1), tk.K()
	if x.n == 0 || k == 0 {
		return nil
	}
	if n >= 1<<31 {
		return ir.OpError(op, "has rows of %d elements; the Metal kernel indexes them with 32-bit positions", n)
	}
	rows := x.n / n
	key := keyOf(x.elem, y.elem, rows, n, k)
	kern, err := r.e.kernel(op, "topk", key, func(b *kb) error {
		b.k.Summary = fmt.Sprintf("top %d of the last axis of %v, %s", k, x.shape, x.elem)
		b.buffer("x", x, accRead)
		b.buffer("y", y, accWrite)
		b.buffer("idx", ix, accWrite)
		b.h().use(hTopK)
		slots := b.e.opts.MaxThreadsPerThreadgroup / SimdWidth
		b.tgmem("uint", 4*2*slots) // a pick per simdgroup: value bits, then index
		b.launch([3]int{int(rows), 1, 1}, [3]int{rowThreads(n, b.e.opts.MaxThreadsPerThreadgroup), 1, 1}, ResizeRows)
		b.l("const uint base = tgpos.x * %du;", n)
		b.l("const uint nsg = (tptg.x + 31u) / 32u;")
		b.l("float pv = 0.0f;")
		b.l("uint pi = 0xffffffffu;")
		b.l("for (uint j = 0; j < %du; j++) {", k)
		b.l("float bv = 0.0f;")
		b.l("uint bi = 0xffffffffu;")
		b.l("for (uint i = tpos.x; i < %du; i += tptg.x) {", n)
		b.l("const float v = (float)x[base + i];")
		b.l("if ((pi == 0xffffffffu || rlx_topk_before(pv, pi, v, i)) && rlx_topk_before(v, i, bv, bi)) {")
		b.l("bv = v;")
		b.l("bi = i;")
		b.l("}")
		b.l("}")
		b.l("for (ushort d = 16; d > 0; d >>= 1) {")
		b.l("const float ov = simd_shuffle_xor(bv, d);")
		b.l("const uint oi = simd_shuffle_xor(bi, d);")
		b.l("if (rlx_topk_before(ov, oi, bv, bi)) {")
		b.l("bv = ov;")
		b.l("bi = oi;")
		b.l("}")
		b.l("}")
		b.l("if (lane == 0) {")
		b.l("tg[sg] = as_type<uint>(bv);")
		b.l("tg[%du + sg] = bi;", slots)
		b.l("}")
		b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
		b.l("for (uint s = 0; s < nsg; s++) {")
		b.l("const float sv = as_type<float>(tg[s]);")
		b.l("const uint si = tg[%du + s];", slots)
		b.l("if (rlx_topk_before(sv, si, bv, bi)) {")
		b.l("bv = sv;")
		b.l("bi = si;")
		b.l("}")
		b.l("}")
		b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
		b.l("if (tpos.x == 0) {")
		b.l("y[tgpos.x * %du + j] = (%s)x[base + bi];", k, y.elem.msl())
		b.l("idx[tgpos.x * %du + j] = (int)bi;", k)
		b.l("}")
		b.l("pv = bv;")
		b.l("pi = bi;")
		b.l("}")
		return nil
	})
	if err != nil {
		return err
	}
	ids, err := r.bind([]*ir.Value{op.Operand(0)}, []*ir.Value{op.Result(0), op.Result(1)})
	if err != nil {
		return err
	}
	r.dispatch(kern, []*ir.Operation{op}, ids)
	return nil
}
