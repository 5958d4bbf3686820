package kernels

import (
	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// DequantMatMulAttrs are the attributes of graph.dequant_matmul: the GGUF
// block format and the logical shape [N, K] of the packed weight.
type DequantMatMulAttrs struct {
	Format gguf.Format
	N, K   int
}

// dequantRows is how many weight rows are decoded and dotted together.
const dequantRows = 4

// DequantMatMul computes x·Wᵀ for x [M, K] (floating-point) and the weight
// W [N, K] packed as GGUF blocks in the ui8 tensor w (any shape; its byte
// count must be N·(K/block)·blockbytes). The result is f32 [M, N].
//
// Each weight is first decoded exactly as gguf.DequantizeMatrixRow defines, then
// every result element is Σ_k x[m,k]·W[n,k] accumulated in float32 in
// increasing k from +0, as s = s + float32(x·w), like MatMul. Rows of W are
// decoded into a small per-goroutine buffer, never the whole matrix; the work
// is split over rows of W.
func DequantMatMul(x, w *tensor.Tensor, attrs DequantMatMulAttrs) (*tensor.Tensor, error) {
	const name = "graph.dequant_matmul"
	if err := requireFloat(name, "x", x); err != nil {
		return nil, err
	}
	if w == nil || w.DType() != tensor.UI8 {
		return nil, errorf(name, "weight operand must be a ui8 tensor of packed blocks")
	}
	f, N, K := attrs.Format, attrs.N, attrs.K
	if err := gguf.CheckBytes(f, w.Bytes(), N, K); err != nil {
		return nil, errorf(name, "%v", err)
	}
	if x.Rank() != 2 || x.Shape()[1] != K {
		return nil, errorf(name, "operand x has type %s; want [M, %d]", x.Type(), K)
	}
	M := x.Shape()[0]
	r := tensor.Zeros(tensor.F32, M, N)
	xv, packed, out := x.Floats(), w.Bytes(), r.Floats()
	groups := ceilDiv(N, dequantRows)
	parallelFor(groups, 2*M*N*K+N*K*4, func(lo, hi int) {
		scratch := make([]float32, dequantRows*K)
		var rows [dequantRows][]float32
		for g := lo; g < hi; g++ {
			n0 := g * dequantRows
			nr := min(dequantRows, N-n0)
			for i := range nr {
				rows[i] = scratch[i*K : (i+1)*K]
				gguf.DequantizeMatrixRow(f, rows[i], packed, N, K, n0+i)
			}
			for m := range M {
				xr := xv[m*K : (m+1)*K]
				o := out[m*N+n0 : m*N+n0+nr]
				if nr == dequantRows {
					o[0], o[1], o[2], o[3] = dot4(xr, rows[0], rows[1], rows[2], rows[3])
					continue
				}
				for i := range nr {
					o[i] = dot(xr, rows[i])
				}
			}
		}
	})
	return r, nil
}

// dot returns Σ x[k]·y[k] in increasing k, one float32 rounding per product
// and per addition.
func dot(x, y []float32) float32 {
	y = y[:len(x)]
	var s float32
	for k, v := range x {
		s += float32(v * y[k])
	}
	return s
}

// dot4 is dot against four vectors at once, with the same order for each.
func dot4(x, y0, y1, y2, y3 []float32) (s0, s1, s2, s3 float32) {
	n := len(x)
	y0, y1, y2, y3 = y0[:n], y1[:n], y2[:n], y3[:n]
	for k, v := range x {
		s0 += float32(v * y0[k])
		s1 += float32(v * y1[k])
		s2 += float32(v * y2[k])
		s3 += float32(v * y3[k])
	}
	return
}
