package graph

import (
	"github.com/rlx-compiler/rlx/ir"
)

// Shape rules of the leaves, the element-wise ops, linear algebra,
// normalisation, reductions and data movement. Each returns the inferred
// result types or an error naming the operand at fault.

func inferParam(c *checker) ([]inferred, error) {
	if attrString(c.op, "name", "") == "" {
		return nil, c.errorf("attribute 'name' must not be empty")
	}
	t, err := c.result(0)
	if err != nil {
		return nil, err
	}
	return c.one(typeOf(t))
}

func inferConstant(c *checker) ([]inferred, error) {
	ta, ok := c.op.Attr("value").(ir.TypedAttr)
	if !ok {
		return nil, c.errorf("attribute 'value' has no type")
	}
	t, ok := ta.AttrType().(*ir.RankedTensorType)
	if !ok || !ElementTypeOK(t.Elem) {
		return nil, c.errorf("attribute 'value' must be a ranked tensor of %s values, but has type '%s'", elemTypesText, ta.AttrType())
	}
	return c.one(typeOf(t))
}

func inferUnary(floatOnly bool) func(c *checker) ([]inferred, error) {
	return func(c *checker) ([]inferred, error) {
		var err error
		if floatOnly {
			err = c.floats(0)
		} else {
			err = c.numeric(0)
		}
		if err != nil {
			return nil, err
		}
		return c.one(c.like(0))
	}
}

func inferBinary(floatOnly bool) func(c *checker) ([]inferred, error) {
	return func(c *checker) ([]inferred, error) {
		var err error
		if floatOnly {
			err = c.floats(0)
		} else {
			err = c.numeric(0)
		}
		if err != nil {
			return nil, err
		}
		if err := c.sameElem(0, 1); err != nil {
			return nil, err
		}
		s, err := c.broadcast(0, 1)
		if err != nil {
			return nil, err
		}
		return c.one(c.tensor(s, c.elem(0)))
	}
}

func inferCmp(c *checker) ([]inferred, error) {
	if err := c.sameElem(0, 1); err != nil {
		return nil, err
	}
	s, err := c.broadcast(0, 1)
	if err != nil {
		return nil, err
	}
	return c.one(c.tensor(s, c.ctx.I1()))
}

func inferSelect(c *checker) ([]inferred, error) {
	if err := c.elemIs(0, c.ctx.I1()); err != nil {
		return nil, err
	}
	if err := c.sameElem(1, 2); err != nil {
		return nil, err
	}
	s, err := c.broadcast(0, 1, 2)
	if err != nil {
		return nil, err
	}
	return c.one(c.tensor(s, c.elem(1)))
}

func inferCast(c *checker) ([]inferred, error) {
	r, err := c.result(0)
	if err != nil {
		return nil, err
	}
	return c.one(c.tensor(c.shape(0), r.Elem))
}

func inferMatMul(c *checker) ([]inferred, error) {
	if err := c.rankAtLeast(0, 2); err != nil {
		return nil, err
	}
	if err := c.rankAtLeast(1, 2); err != nil {
		return nil, err
	}
	ea, eb := c.elem(0), c.elem(1)
	elem := ea
	if ea != eb {
		if !isFloat(ea) || !isFloat(eb) || (ea != c.ctx.F32() && eb != c.ctx.F32()) {
			return nil, c.errorf("operand #1 has element type %s, expected %s (or f16/bf16 against f32)", eb, ea)
		}
		elem = c.ctx.F32()
	} else if err := c.numeric(0); err != nil {
		return nil, err
	}
	a, b := c.shape(0), c.shape(1)
	ra, rb := len(a), len(b)
	m, k := a[ra-2], a[ra-1]
	if !dimsCompatible(k, b[rb-2]) {
		_, err := c.match(1, withDim(b, rb-2, k), "its rows must equal the columns of operand #0")
		return nil, err
	}
	batch, ok := BroadcastShapes(a[:ra-2], b[:rb-2])
	if !ok {
		return nil, c.errorf("operand #1 has shape %s, expected batch dims that broadcast with %s", FormatShape(b), FormatShape(a[:ra-2]))
	}
	return c.one(c.tensor(append(batch, m, b[rb-1]), elem))
}

// inferNorm covers rms_norm (x, γ) and layer_norm (x, γ, β).
func inferNorm(c *checker) ([]inferred, error) {
	if err := c.rankAtLeast(0, 1); err != nil {
		return nil, err
	}
	x := c.shape(0)
	for i := range c.in {
		if err := c.floats(i); err != nil {
			return nil, err
		}
		if i > 0 {
			if _, err := c.match(i, []int64{x[len(x)-1]}, "the last dim of operand #0"); err != nil {
				return nil, err
			}
		}
	}
	return c.one(c.like(0))
}

func inferSoftmax(c *checker) ([]inferred, error) {
	if err := c.floats(0); err != nil {
		return nil, err
	}
	if _, err := c.axis("axis", c.rank(0)); err != nil {
		return nil, err
	}
	return c.one(c.like(0))
}

func inferReduce(c *checker) ([]inferred, error) {
	if ReduceKind(attrString(c.op, "kind", "")) == ReduceMean {
		if err := c.floats(0); err != nil {
			return nil, err
		}
	} else if err := c.numeric(0); err != nil {
		return nil, err
	}
	x := c.shape(0)
	reduced, err := reducedAxes(c, len(x))
	if err != nil {
		return nil, err
	}
	keep := attrBool(c.op, "keep_dims")
	var out []int64
	for i, d := range x {
		switch {
		case !reduced[i]:
			out = append(out, d)
		case keep:
			out = append(out, 1)
		}
	}
	return c.one(c.tensor(out, c.elem(0)))
}

// reducedAxes returns a mask of the axes graph.reduce reduces.
func reducedAxes(c *checker, rank int) ([]bool, error) {
	reduced := make([]bool, rank)
	for _, a := range attrInts(c.op, "axes") {
		ax, ok := NormalizeAxis(a, rank)
		if !ok {
			return nil, c.errorf("attribute 'axes' has axis %d, out of range for operand #0 of rank %d", a, rank)
		}
		if reduced[ax] {
			return nil, c.errorf("attribute 'axes' names axis %d more than once", ax)
		}
		reduced[ax] = true
	}
	return reduced, nil
}

func inferReshape(c *checker) ([]inferred, error) {
	r, err := c.result(0)
	if err != nil {
		return nil, err
	}
	// check has made sure that neither count overflows.
	n, _ := ir.ShapeElements(c.shape(0))
	m, _ := ir.ShapeElements(r.Shape)
	if n >= 0 && m >= 0 && n != m {
		return nil, c.errorf("result shape %s has %d elements, but operand #0 (shape %s) has %d", FormatShape(r.Shape), m, FormatShape(c.shape(0)), n)
	}
	return c.one(c.tensor(r.Shape, c.elem(0)))
}

func inferBroadcast(c *checker) ([]inferred, error) {
	r, err := c.result(0)
	if err != nil {
		return nil, err
	}
	if !broadcastsTo(c.shape(0), r.Shape) {
		return nil, c.errorf("operand #0 has shape %s, which does not broadcast to the result shape %s", FormatShape(c.shape(0)), FormatShape(r.Shape))
	}
	return c.one(c.tensor(r.Shape, c.elem(0)))
}

func inferTranspose(c *checker) ([]inferred, error) {
	x := c.shape(0)
	perm := attrInts(c.op, "permutation")
	if !isPermutation(perm, len(x)) {
		return nil, c.errorf("attribute 'permutation' %s is not a permutation of the %d dims of operand #0", FormatShape(perm), len(x))
	}
	out := make([]int64, len(perm))
	for i, p := range perm {
		out[i] = x[p]
	}
	return c.one(c.tensor(out, c.elem(0)))
}

func isPermutation(perm []int64, n int) bool {
	if len(perm) != n {
		return false
	}
	seen := make([]bool, n)
	for _, p := range perm {
		if p < 0 || p >= int64(n) || seen[p] {
			return false
		}
		seen[p] = true
	}
	return true
}

func inferSlice(c *checker) ([]inferred, error) {
	x := c.shape(0)
	ax, err := c.axis("axis", len(x))
	if err != nil {
		return nil, err
	}
	start, length, step := attrInt(c.op, "start", 0), attrInt(c.op, "length", 0), attrInt(c.op, "step", 1)
	switch {
	case start < 0:
		return nil, c.errorf("attribute 'start' must be non-negative, got %d", start)
	case length < 0:
		return nil, c.errorf("attribute 'length' must be non-negative, got %d", length)
	case step < 1:
		return nil, c.errorf("attribute 'step' must be at least 1, got %d", step)
	}
	if d := x[ax]; d != dyn {
		// The last index read is start+(length-1)*step; written to avoid
		// overflow with hostile attributes.
		fits := start <= d
		if length > 0 {
			fits = start < d && (length-1) <= (d-1-start)/step
		}
		if !fits {
			return nil, c.errorf("operand #0 has shape %s, too small for %d elements from %d with step %d along axis %d", FormatShape(x), length, start, step, ax)
		}
	}
	return c.one(c.tensor(withDim(x, ax, length), c.elem(0)))
}

func inferConcat(c *checker) ([]inferred, error) {
	ax, err := c.axis("axis", c.rank(0))
	if err != nil {
		return nil, err
	}
	common := withDim(c.shape(0), ax, dyn)
	total := c.shape(0)[ax]
	for i := 1; i < len(c.in); i++ {
		if err := c.sameElem(0, i); err != nil {
			return nil, err
		}
		m, err := c.match(i, common, "operand #0's shape except along the axis")
		if err != nil {
			return nil, err
		}
		total = addDim(total, m[ax])
		common = withDim(m, ax, dyn)
	}
	return c.one(c.tensor(withDim(common, ax, total), c.elem(0)))
}

func addDim(a, b int64) int64 {
	if a == dyn || b == dyn {
		return dyn
	}
	return a + b
}

func inferGather(c *checker) ([]inferred, error) {
	if e := c.elem(1); !ir.IsInteger(e, 32) && !ir.IsInteger(e, 64) {
		return nil, c.errorf("operand #1 must have element type i32 or i64, got %s", e)
	}
	t := c.shape(0)
	ax, err := c.axis("axis", len(t))
	if err != nil {
		return nil, err
	}
	out := append(append(append([]int64(nil), t[:ax]...), c.shape(1)...), t[ax+1:]...)
	return c.one(c.tensor(out, c.elem(0)))
}
