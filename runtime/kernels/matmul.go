package kernels

import (
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// Blocking of the matmul loops. The per-element order does not depend on
// them (see MatMul); they only set cache reuse and the parallel grain.
const (
	panelCols = 128 // columns of C per task
	blockRows = 32  // rows of C per task
	blockK    = 256 // depth of one pass over a block of B
)

// MatMul multiplies a [..., M, K] by b [..., K, N], both of rank ≥ 2 and
// floating-point, giving [..., M, N] of element type out (floating-point).
// The batch dimensions broadcast (NumPy rules).
//
// Every result element is c = Σ_k a[m,k]·b[k,n] accumulated in float32 in
// increasing k, starting from +0, as c = c + float32(a·b): one rounding for
// each product and each addition, no fused multiply-add. The work is split
// over batches and blocks of rows and columns, which does not change any
// element's order.
func MatMul(a, b *tensor.Tensor, out tensor.DType) (*tensor.Tensor, error) {
	const name = "graph.matmul"
	if err := requireFloat(name, "#0", a); err != nil {
		return nil, err
	}
	if err := requireFloat(name, "#1", b); err != nil {
		return nil, err
	}
	if err := requireFloatResult(name, out); err != nil {
		return nil, err
	}
	as, bs := a.Shape(), b.Shape()
	if len(as) < 2 || len(bs) < 2 {
		return nil, errorf(name, "operands have types %s and %s; want rank ≥ 2", a.Type(), b.Type())
	}
	M, K := as[len(as)-2], as[len(as)-1]
	K2, N := bs[len(bs)-2], bs[len(bs)-1]
	if K != K2 {
		return nil, errorf(name, "contraction dimensions differ: %s has K = %d, %s has K = %d", a.Type(), K, b.Type(), K2)
	}
	batch, err := tensor.BroadcastShapes(as[:len(as)-2], bs[:len(bs)-2])
	if err != nil {
		return nil, errorf(name, "batch dimensions: %v", err)
	}
	r := tensor.Zeros(out, append(batch, M, N)...)
	nb := tensor.NumElements(batch)
	aOff, bOff := batchOffsets(as[:len(as)-2], batch, M*K), batchOffsets(bs[:len(bs)-2], batch, K*N)
	mBlocks, nPanels := ceilDiv(M, blockRows), ceilDiv(N, panelCols)
	tasks := nb * mBlocks * nPanels
	av, bv, cv := a.Floats(), b.Floats(), r.Floats()
	parallelFor(tasks, 2*nb*M*N*K, func(lo, hi int) {
		for t := lo; t < hi; t++ {
			bi, rest := t/(mBlocks*nPanels), t%(mBlocks*nPanels)
			m0, n0 := rest/nPanels*blockRows, rest%nPanels*panelCols
			gemmBlock(cv[bi*M*N:], av[aOff[bi]:], bv[bOff[bi]:], K, N,
				m0, min(m0+blockRows, M), n0, min(n0+panelCols, N))
		}
	})
	tensor.RoundSlice(out, cv)
	return r, nil
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// batchOffsets returns the element offset of each broadcast batch index's
// matrix in an operand with batch shape in (matrices of size mat).
func batchOffsets(in, batch []int, mat int) []int {
	n := tensor.NumElements(batch)
	st, _ := tensor.BroadcastStrides(in, batch)
	o := tensor.NewOdometer(batch, st)
	offs := make([]int, n)
	for i := range offs {
		offs[i] = o.Offset(0) * mat
		o.Next()
	}
	return offs
}

// gemmBlock accumulates rows [m0, m1) and columns [n0, n1) of c = a·b for
// row-major a [M, K], b [K, N] and c [M, N] (c zeroed), k in increasing order.
func gemmBlock(c, a, b []float32, K, N, m0, m1, n0, n1 int) {
	for k0 := 0; k0 < K; k0 += blockK {
		k1 := min(k0+blockK, K)
		m := m0
		for ; m+4 <= m1; m += 4 {
			axpy4(c[m*N+n0:m*N+n1], c[(m+1)*N+n0:(m+1)*N+n1], c[(m+2)*N+n0:(m+2)*N+n1], c[(m+3)*N+n0:(m+3)*N+n1],
				a[m*K:], a[(m+1)*K:], a[(m+2)*K:], a[(m+3)*K:], b, N, k0, k1, n0)
		}
		for ; m < m1; m++ {
			axpy1(c[m*N+n0:m*N+n1], a[m*K:], b, N, k0, k1, n0)
		}
	}
}

// axpy1 adds a[k]·b[k, n0:n0+len(c)] to c for k in [k0, k1), in order. Four
// steps of k are applied to each element while it sits in a register.
func axpy1(c, a, b []float32, N, k0, k1, n0 int) {
	n := len(c)
	k := k0
	for ; k+4 <= k1; k += 4 {
		x0, x1, x2, x3 := a[k], a[k+1], a[k+2], a[k+3]
		b0 := b[k*N+n0 : k*N+n0+n]
		b1 := b[(k+1)*N+n0 : (k+1)*N+n0+n]
		b2 := b[(k+2)*N+n0 : (k+2)*N+n0+n]
		b3 := b[(k+3)*N+n0 : (k+3)*N+n0+n]
		for j, s := range c {
			s += float32(x0 * b0[j])
			s += float32(x1 * b1[j])
			s += float32(x2 * b2[j])
			s += float32(x3 * b3[j])
			c[j] = s
		}
	}
	for ; k < k1; k++ {
		x := a[k]
		brow := b[k*N+n0 : k*N+n0+n]
		for j, bv := range brow {
			c[j] += float32(x * bv)
		}
	}
}

// axpy4 is axpy1 for four rows at once, sharing each load of b; two steps
// of k are applied per pass.
func axpy4(c0, c1, c2, c3, a0, a1, a2, a3, b []float32, N, k0, k1, n0 int) {
	n := len(c0)
	c1, c2, c3 = c1[:n], c2[:n], c3[:n]
	k := k0
	for ; k+2 <= k1; k += 2 {
		x00, x10, x20, x30 := a0[k], a1[k], a2[k], a3[k]
		x01, x11, x21, x31 := a0[k+1], a1[k+1], a2[k+1], a3[k+1]
		b0 := b[k*N+n0 : k*N+n0+n]
		b1 := b[(k+1)*N+n0 : (k+1)*N+n0+n]
		for j := range b0 {
			u, v := b0[j], b1[j]
			c0[j] = c0[j] + float32(x00*u) + float32(x01*v)
			c1[j] = c1[j] + float32(x10*u) + float32(x11*v)
			c2[j] = c2[j] + float32(x20*u) + float32(x21*v)
			c3[j] = c3[j] + float32(x30*u) + float32(x31*v)
		}
	}
	for ; k < k1; k++ {
		x0, x1, x2, x3 := a0[k], a1[k], a2[k], a3[k]
		brow := b[k*N+n0 : k*N+n0+n]
		for j, bv := range brow {
			c0[j] += float32(x0 * bv)
			c1[j] += float32(x1 * bv)
			c2[j] += float32(x2 * bv)
			c3[j] += float32(x3 * bv)
		}
	}
}
