package metal

import (
	"fmt"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// emitTopK emits graph.topk: one threadgroup per row of x [..., N], K
// passes over the row. Each element is a pair of 32-bit keys, its value
// mapped to an order-preserving integer (NaN highest) and its index
// complemented, so that top-k's order (larger first, NaN above numbers,
// equal values by lower index) is the pairs' descending order and a pick
// is a maximum. Pass j takes the largest pair below pass j−1's pick:
// since the order is total, that is the j-th element, with no list of
// taken indices. In a pass each thread keeps its best pair, a butterfly
// of simd_shuffle_xor gives lane 0 its simdgroup's, and simdgroup 0 folds
// the simdgroups' pairs with a second butterfly and hands the pick to
// every thread through threadgroup memory (two barriers a pass). Values
// are copied from x (converted only to a narrower result type), as
// kernels.TopK does. K is a router's experts per token, so K passes over
// a row of N beat a sort. (The first kernel compared floats with NaN and
// tie rules in every step and had every thread fold every simdgroup's
// pick: 24 µs for the top 10 of 512 on the H200, run 31.) Rows of up to
// 1024 elements (a router's experts) take topkSimd instead: one
// simdgroup, its keys in registers.
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
		if n <= SimdWidth*topkLaneKeys {
			topkSimd(b, y, rows, n, k)
			return nil
		}
		slots := b.e.opts.MaxThreadsPerThreadgroup / SimdWidth
		b.tgmem("uint", 4*(2*slots+2)) // a pair per simdgroup (high words, then low), then the pick
		b.launch([3]int{int(rows), 1, 1}, [3]int{rowThreads(n, b.e.opts.MaxThreadsPerThreadgroup), 1, 1}, ResizeRows)
		b.l("const uint base = tgpos.x * %du;", n)
		b.l("const uint nsg = (tptg.x + 31u) / 32u;")
		topkPasses(b, y, k, "tpos.x == 0", func() {
			b.l("for (uint i = tpos.x; i < %du; i += tptg.x) {", n)
			b.l("const uint h = rlx_topk_key((float)x[base + i]);")
			b.l("const uint l = ~i;")
		}, func() {
			// Simdgroup 0 folds the simdgroups' pairs and hands the
			// pick to every thread.
			b.l("if (nsg > 1u) {")
			b.l("if (lane == 0) {")
			b.l("tg[sg] = bh;")
			b.l("tg[%du + sg] = bl;", slots)
			b.l("}")
			b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
			b.l("if (sg == 0) {")
			b.l("bh = lane < nsg ? tg[lane] : 0u;")
			b.l("bl = lane < nsg ? tg[%du + lane] : 0u;", slots)
			foldPair(b)
			b.l("if (lane == 0) {")
			b.l("tg[%du] = bh;", 2*slots)
			b.l("tg[%du] = bl;", 2*slots+1)
			b.l("}")
			b.l("}")
			b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
			b.l("bh = tg[%du];", 2*slots)
			b.l("bl = tg[%du];", 2*slots+1)
			b.l("}")
		})
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

// foldPair leaves in every lane the largest (bh, bl) pair of its
// simdgroup: a butterfly of simd_shuffle_xor over both words.
func foldPair(b *kb) {
	b.l("for (ushort d = 16; d > 0; d >>= 1) {")
	b.l("const uint oh = simd_shuffle_xor(bh, d);")
	b.l("const uint ol = simd_shuffle_xor(bl, d);")
	b.l("if (rlx_topk_above(oh, ol, bh, bl)) {")
	b.l("bh = oh;")
	b.l("bl = ol;")
	b.l("}")
	b.l("}")
}

// topkLaneKeys is the most keys a lane of topkSimd holds in registers: a
// row of up to 32·topkLaneKeys elements is one simdgroup's.
const topkLaneKeys = 32

// topkSimd writes topk for rows of at most SimdWidth·topkLaneKeys
// elements (a router's experts): one simdgroup a row, each lane holding
// its elements' keys in registers (element lane + 32e), so a pass is the
// lane's compares and one butterfly, with no threadgroup memory, no
// barrier and no reload of x.
func topkSimd(b *kb, y tensorInfo, rows, n, k int64) {
	e := ceilDiv(n, SimdWidth)
	b.launch([3]int{int(rows), 1, 1}, [3]int{SimdWidth, 1, 1}, ResizeFixed)
	b.l("const uint base = tgpos.x * %du;", n)
	b.l("uint kh[%d];", e)
	b.l("for (uint e = 0; e < %du; e++) {", e)
	b.l("const uint i = lane + 32u * e;")
	b.l("kh[e] = i < %du ? rlx_topk_key((float)x[base + i]) : 0u;", n)
	b.l("}")
	topkPasses(b, y, k, "lane == 0", func() {
		b.l("for (uint e = 0; e < %du; e++) {", e)
		b.l("const uint i = lane + 32u * e;")
		b.l("const uint h = kh[e];")
		b.l("const uint l = i < %du ? ~i : 0u;", n)
	}, nil)
}

// topkPasses writes the k passes of a topk kernel. Pass j starts with
// the thread's best pair (bh, bl) empty; scan opens the loop over the
// thread's elements and defines each one's pair (h, l), which is kept as
// the best when it comes after the previous pick (ph, pl) and before the
// best; foldPair then gives each simdgroup's lanes its best, and
// combine, when not nil, makes that the row's in every thread. The
// thread for which writer holds writes the pick's value (copied from x)
// and index, and every thread carries the pick to the next pass.
func topkPasses(b *kb, y tensorInfo, k int64, writer string, scan, combine func()) {
	b.l("uint ph = 0u;")
	b.l("uint pl = 0u;")
	b.l("for (uint j = 0; j < %du; j++) {", k)
	b.l("uint bh = 0u;")
	b.l("uint bl = 0u;")
	scan()
	b.l("if ((j == 0u || rlx_topk_above(ph, pl, h, l)) && rlx_topk_above(h, l, bh, bl)) {")
	b.l("bh = h;")
	b.l("bl = l;")
	b.l("}")
	b.l("}")
	foldPair(b)
	if combine != nil {
		combine()
	}
	b.l("if (%s) {", writer)
	b.l("y[tgpos.x * %du + j] = (%s)x[base + ~bl];", k, y.elem.msl())
	b.l("idx[tgpos.x * %du + j] = (int)(~bl);", k)
	b.l("}")
	b.l("ph = bh;")
	b.l("pl = bl;")
	b.l("}")
}
