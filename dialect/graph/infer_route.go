package graph

// Shape rule of graph.topk, the routing step of a mixture of experts.

func inferTopK(c *checker) ([]inferred, error) {
	if err := c.floats(0); err != nil {
		return nil, err
	}
	x := c.shape(0)
	if len(x) == 0 {
		return nil, c.errorf("operand #0 must have rank at least 1, but has rank 0")
	}
	k, n := attrInt(c.op, "k", 0), x[len(x)-1]
	switch {
	case k < 1:
		return nil, c.errorf("attribute 'k' must be at least 1, got %d", k)
	case n != dyn && k > n:
		return nil, c.errorf("attribute 'k' (%d) exceeds the last dim of operand #0 (%d)", k, n)
	}
	out := withDim(x, len(x)-1, k)
	return []inferred{c.tensor(out, c.elem(0)), c.tensor(out, c.ctx.I32())}, nil
}
