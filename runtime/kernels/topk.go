package kernels

import (
	"math"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// TopKAttrs are the attributes of graph.topk.
type TopKAttrs struct {
	K int
}

// TopK returns the K largest values along the last axis of x, in
// descending order, and their indices (i32). Equal values keep their
// order, the lower index first; NaN counts as larger than every number (as
// torch.topk), and NaNs keep their order among themselves. Values are
// copied, never computed, so the values result has x's bits, rounded to dt
// only when dt is narrower than x's type.
func TopK(x *tensor.Tensor, attrs TopKAttrs, dt tensor.DType) (values, indices *tensor.Tensor, err error) {
	const name = "graph.topk"
	if err := requireFloat(name, "x", x); err != nil {
		return nil, nil, err
	}
	if err := requireFloatResult(name, dt); err != nil {
		return nil, nil, err
	}
	if x.Rank() == 0 {
		return nil, nil, errorf(name, "operand x has type %s; want rank at least 1", x.Type())
	}
	shape := x.Shape()
	n, k := shape[len(shape)-1], attrs.K
	if k < 1 || k > n {
		return nil, nil, errorf(name, "k = %d is outside [1, %d] for operand x of type %s", k, n, x.Type())
	}
	out := append(append([]int(nil), shape[:len(shape)-1]...), k)
	values = tensor.Zeros(dt, out...)
	idx := make([]int64, tensor.NumElements(out))
	xv, vv := x.Floats(), values.Floats()
	rows := x.Len() / n
	// A selection per row: k passes, each taking the first largest value
	// not yet taken, which is what "descending, ties by lower index"
	// means. k is small (experts per token), so O(k·N) beats a sort.
	taken := make([]bool, n)
	for r := range rows {
		row := xv[r*n : (r+1)*n]
		clear(taken)
		for j := range k {
			best := -1
			for i, v := range row {
				if !taken[i] && (best < 0 || greater(v, row[best])) {
					best = i
				}
			}
			taken[best] = true
			vv[r*k+j] = row[best]
			idx[r*k+j] = int64(best)
		}
	}
	tensor.RoundSlice(dt, vv)
	return values, newIntResult(tensor.I32, out, idx), nil
}

// greater orders floats for TopK: NaN above every number, and a NaN never
// greater than another NaN, so NaNs keep their index order.
func greater(a, b float32) bool {
	an, bn := math.IsNaN(float64(a)), math.IsNaN(float64(b))
	switch {
	case an:
		return !bn
	case bn:
		return false
	}
	return a > b
}
