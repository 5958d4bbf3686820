package kernels

import (
	"math"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// NormAttrs are the attributes of graph.rms_norm and graph.layer_norm.
type NormAttrs struct {
	Epsilon float32
}

// rsqrt32 is 1/√x evaluated in float64 and rounded once, as graph.rsqrt.
func rsqrt32(x float32) float32 { return float32(1 / math.Sqrt(float64(x))) }

// normRows validates x and its [D] parameters and returns (rows, D).
func normRows(name string, x *tensor.Tensor, out tensor.DType, params ...operand) (int, int, error) {
	if err := requireFloat(name, "x", x); err != nil {
		return 0, 0, err
	}
	if x.Rank() < 1 {
		return 0, 0, errorf(name, "operand x has type %s; want rank ≥ 1", x.Type())
	}
	if err := requireFloatResult(name, out); err != nil {
		return 0, 0, err
	}
	D := x.Shape()[x.Rank()-1]
	for _, p := range params {
		if err := requireFloat(name, p.role, p.t); err != nil {
			return 0, 0, err
		}
		if err := requireShape(name, p.role, p.t, D); err != nil {
			return 0, 0, err
		}
	}
	if D == 0 {
		return 0, 0, nil
	}
	return x.Len() / D, D, nil
}

// RMSNorm normalises x over its last axis (size D) and scales by gamma [D]:
// per row, ss = Σ_i float32(x_i·x_i) summed in increasing i, mean = ss/D,
// r = rsqrt(mean + ε) (rounded once, as graph.rsqrt), and
// y_i = float32(x_i·r)·γ_i, rounded to out.
func RMSNorm(x, gamma *tensor.Tensor, attrs NormAttrs, out tensor.DType) (*tensor.Tensor, error) {
	const name = "graph.rms_norm"
	rows, D, err := normRows(name, x, out, operand{"gamma", gamma})
	if err != nil {
		return nil, err
	}
	r := tensor.Zeros(out, x.Shape()...)
	xv, g, y := x.Floats(), gamma.Floats(), r.Floats()
	parallelFor(rows, 4*rows*D, func(lo, hi int) {
		for row := lo; row < hi; row++ {
			xr, yr := xv[row*D:(row+1)*D], y[row*D:(row+1)*D]
			var ss float32
			for _, v := range xr {
				ss += float32(v * v)
			}
			inv := rsqrt32(ss/float32(D) + attrs.Epsilon)
			for i, v := range xr {
				yr[i] = float32(v*inv) * g[i]
			}
			tensor.RoundSlice(out, yr)
		}
	})
	return r, nil
}

// LayerNorm normalises x over its last axis (size D) with biased variance:
// per row, mean = (Σ_i x_i)/D, var = (Σ_i float32(d_i·d_i))/D with
// d_i = x_i − mean, both sums in increasing i, r = rsqrt(var + ε), and
// y_i = float32(float32(d_i·r)·γ_i) + β_i, rounded to out.
func LayerNorm(x, gamma, beta *tensor.Tensor, attrs NormAttrs, out tensor.DType) (*tensor.Tensor, error) {
	const name = "graph.layer_norm"
	rows, D, err := normRows(name, x, out, operand{"gamma", gamma}, operand{"beta", beta})
	if err != nil {
		return nil, err
	}
	r := tensor.Zeros(out, x.Shape()...)
	xv, g, b, y := x.Floats(), gamma.Floats(), beta.Floats(), r.Floats()
	parallelFor(rows, 6*rows*D, func(lo, hi int) {
		for row := lo; row < hi; row++ {
			xr, yr := xv[row*D:(row+1)*D], y[row*D:(row+1)*D]
			var sum float32
			for _, v := range xr {
				sum += v
			}
			mean := sum / float32(D)
			var ss float32
			for _, v := range xr {
				d := v - mean
				ss += float32(d * d)
			}
			inv := rsqrt32(ss/float32(D) + attrs.Epsilon)
			for i, v := range xr {
				yr[i] = float32(float32((v-mean)*inv)*g[i]) + b[i]
			}
			tensor.RoundSlice(out, yr)
		}
	})
	return r, nil
}

// SoftmaxAttrs are the attributes of graph.softmax.
type SoftmaxAttrs struct {
	Axis int // may be negative
}

// Softmax computes the max-subtracted softmax of x along one axis: for each
// vector along the axis, m = max_i x_i (NaNs skipped), e_i = exp(x_i − m)
// (the subtraction in float32, exp rounded once), s = Σ_i e_i in increasing
// i, and y_i = e_i/s, rounded to out. A NaN in the vector makes every output
// NaN, and so does a vector of only −∞ (as in PyTorch).
func Softmax(x *tensor.Tensor, attrs SoftmaxAttrs, out tensor.DType) (*tensor.Tensor, error) {
	const name = "graph.softmax"
	if err := requireFloat(name, "x", x); err != nil {
		return nil, err
	}
	if err := requireFloatResult(name, out); err != nil {
		return nil, err
	}
	axis, err := tensor.NormalizeAxis(attrs.Axis, x.Rank())
	if err != nil {
		return nil, errorf(name, "%v", err)
	}
	shape := x.Shape()
	n := shape[axis]
	inner := tensor.NumElements(shape[axis+1:])
	outer := tensor.NumElements(shape[:axis])
	r := tensor.Zeros(out, shape...)
	xv, y := x.Floats(), r.Floats()
	parallelFor(outer*inner, 24*x.Len(), func(lo, hi int) {
		for v := lo; v < hi; v++ {
			base := v/inner*n*inner + v%inner
			m := float32(math.Inf(-1))
			for i := range n {
				if xi := xv[base+i*inner]; xi > m {
					m = xi
				}
			}
			var s float32
			for i := range n {
				e := exp32(xv[base+i*inner] - m)
				y[base+i*inner] = e
				s += e
			}
			for i := range n {
				y[base+i*inner] = tensor.RoundFloat(out, y[base+i*inner]/s)
			}
		}
	})
	return r, nil
}
