package metal

import (
	"fmt"

	"github.com/rlx-compiler/rlx/ir"
)

// graph.matmul: a [..., M, K] · b [..., K, N] with broadcast batch dims.
//
// GEMV (M ≤ gemvMaxRows, the decode case): gemv.go.
//
// GEMM: tiles of BM×BN results, K in steps of gemmBK staged through
// threadgroup memory (A transposed so both tiles are read along rows),
// each thread computing a 4×4 block in registers. Every result element
// accumulates in increasing k, as the reference does.

const (
	gemvMaxRows = 8
	gemmBK      = 16
	gemmBN      = 64
	gemmThreads = 256
)

// batchInfo describes a broadcast batch: the result's batch count and,
// for each operand, the expression of its batch offset given z.
type batchInfo struct {
	count      int64
	aOff, bOff string
}

// pointers writes z (the batch, tgpos.z) and ap and bp, the operands'
// matrices of batch z, of element types ae and be.
func (bi batchInfo) pointers(b *kb, ae, be elem) {
	b.l("const uint z = tgpos.z;")
	b.l("device const %s *ap = a + %s;", ae.msl(), bi.aOff)
	b.l("device const %s *bp = b + %s;", be.msl(), bi.bOff)
}

func matmulBatch(a, b, y tensorInfo) batchInfo {
	yb := y.shape[:y.rank()-2]
	bi := batchInfo{count: product(yb)}
	off := func(t tensorInfo) string {
		tb := t.shape[:t.rank()-2]
		mat := t.dim(-2) * t.dim(-1)
		bs := broadcastStrides(tb, yb)
		for i := range bs {
			bs[i] *= mat
		}
		return sumTerms(indexTerms("z", yb, bs))
	}
	bi.aOff, bi.bOff = off(a), off(b)
	return bi
}

func emitMatMul(r *regionState, op *ir.Operation) error {
	a, _ := infoOf(op.Operand(0))
	bt, _ := infoOf(op.Operand(1))
	y, _ := infoOf(op.Result(0))
	if !a.elem.isFloat() || !bt.elem.isFloat() || !y.elem.isFloat() || a.rank() < 2 || bt.rank() < 2 {
		return ir.OpError(op, "has no Metal kernel for %v · %v", op.Operand(0).Type(), op.Operand(1).Type())
	}
	if y.n == 0 {
		return nil
	}
	m, k, n := a.dim(-2), a.dim(-1), bt.dim(-1)
	bi := matmulBatch(a, bt, y)
	if m <= gemvMaxRows {
		return emitGEMV(r, op, a, bt, y, bi)
	}
	family := "gemm"
	key := keyOf(a.elem, bt.elem, y.elem, a.shape, bt.shape, y.shape)
	kern, err := r.e.kernel(op, family, key, func(b *kb) error {
		b.k.Summary = fmt.Sprintf("%s %v·%v, %s·%s", family, a.shape, bt.shape, a.elem, bt.elem)
		b.buffer("a", a, accRead)
		b.buffer("b", bt, accRead)
		b.buffer("y", y, accWrite)
		bi.pointers(b, a.elem, bt.elem)
		b.l("device %s *yp = y + z * %du;", y.elem.msl(), m*n)
		emitGEMM(b, m, k, n, int(bi.count), y.elem,
			func(b *kb) { // A tile: As[kk][i] = a[m0+i, k0+kk]
				b.l("for (uint e = tpos.x; e < %du; e += tptg.x) {", gemmBK*gemmRows(b))
				b.l("const uint i = e / %du;", gemmBK)
				b.l("const uint kk = e %% %du;", gemmBK)
				b.l("const uint gm = m0 + i;")
				b.l("const uint gk = k0 + kk;")
				b.l("As[kk * %du + i] = (gm < %du && gk < %du) ? (float)ap[gm * %du + gk] : 0.0f;", gemmRows(b), m, k, k)
				b.l("}")
			},
			func(b *kb) { // B tile: Bs[kk][j] = b[k0+kk, n0+j]
				b.l("for (uint e = tpos.x; e < %du; e += tptg.x) {", gemmBK*gemmBN)
				b.l("const uint kk = e / %du;", gemmBN)
				b.l("const uint j = e %% %du;", gemmBN)
				b.l("const uint gk = k0 + kk;")
				b.l("const uint gn = n0 + j;")
				b.l("Bs[kk * %du + j] = (gk < %du && gn < %du) ? (float)bp[gk * %du + gn] : 0.0f;", gemmBN, k, n, n)
				b.l("}")
			}, gemmBK, k)
		return nil
	})
	if err != nil {
		return err
	}
	ids, err := r.bind([]*ir.Value{op.Operand(0), op.Operand(1)}, []*ir.Value{op.Result(0)})
	if err != nil {
		return err
	}
	r.dispatch(kern, []*ir.Operation{op}, ids)
	return nil
}

// gemmRows is BM for the kernel's threadgroup: 4 rows per thread row, 16
// thread columns of 4 results each cover gemmBN.
func gemmRows(b *kb) int64 {
	return int64(4 * gemmThreadsFor(b) / 16)
}

func gemmThreadsFor(b *kb) int {
	return min(gemmThreads, b.e.opts.MaxThreadsPerThreadgroup)
}

// emitGEMM writes the tiled loop. loadA and loadB fill As (bk×BM,
// transposed) and Bs (bk×BN) for the step at k0; the result tile starts at
// row m0 and column n0.
func emitGEMM(b *kb, m, k, n int64, batch int, ye elem, loadA, loadB func(b *kb), bk, kTotal int64) {
	t := gemmThreadsFor(b)
	bm := gemmRows(b)
	b.tgmem("float", int(bk*(bm+gemmBN)*4))
	b.launch([3]int{int((n + gemmBN - 1) / gemmBN), int((m + bm - 1) / bm), batch}, [3]int{t, 1, 1}, ResizeFixed)
	b.l("threadgroup float *As = tg;")
	b.l("threadgroup float *Bs = tg + %du;", bk*bm)
	b.l("const uint m0 = tgpos.y * %du;", bm)
	b.l("const uint n0 = tgpos.x * %du;", gemmBN)
	b.l("const uint tx = tpos.x %% 16u;")
	b.l("const uint ty = tpos.x / 16u;")
	b.l("float acc[16];")
	b.l("for (uint i = 0; i < 16u; i++) {")
	b.l("acc[i] = 0.0f;")
	b.l("}")
	b.l("for (uint k0 = 0; k0 < %du; k0 += %du) {", kTotal, bk)
	loadA(b)
	loadB(b)
	b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
	b.l("for (uint kk = 0; kk < %du; kk++) {", bk)
	b.l("float af[4];")
	b.l("float bf[4];")
	b.l("for (uint i = 0; i < 4u; i++) {")
	b.l("af[i] = As[kk * %du + ty * 4u + i];", bm)
	b.l("bf[i] = Bs[kk * %du + tx * 4u + i];", gemmBN)
	b.l("}")
	b.l("for (uint i = 0; i < 4u; i++) {")
	b.l("for (uint j = 0; j < 4u; j++) {")
	b.l("acc[i * 4u + j] += af[i] * bf[j];")
	b.l("}")
	b.l("}")
	b.l("}")
	b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
	b.l("}")
	b.l("for (uint i = 0; i < 4u; i++) {")
	b.l("const uint gm = m0 + ty * 4u + i;")
	b.l("for (uint j = 0; j < 4u; j++) {")
	b.l("const uint gn = n0 + tx * 4u + j;")
	b.l("if (gm < %du && gn < %du) {", m, n)
	b.l("yp[gm * %du + gn] = (%s)acc[i * 4u + j];", n, ye.msl())
	b.l("}")
	b.l("}")
	b.l("}")
}
