package graph

import (
	"fmt"

	"github.com/rlx-compiler/rlx/ir"
)

// Shape rules of the ML blocks: rope, attention, gated_delta_net, lstm and
// dequant_matmul.

func inferRope(c *checker) ([]inferred, error) {
	if err := c.rankIn(0, 3, 4); err != nil {
		return nil, err
	}
	if err := c.floats(0, 1, 2); err != nil {
		return nil, err
	}
	d, r := attrInt(c.op, "head_dim", 0), attrInt(c.op, "rotary_dim", 0)
	if d <= 0 {
		return nil, c.errorf("attribute 'head_dim' must be positive, got %d", d)
	}
	if r <= 0 || r%2 != 0 || r > d {
		return nil, c.errorf("attribute 'rotary_dim' (%d) must be even and in [2, head_dim = %d]", r, d)
	}
	x := c.shape(0)
	last := x[len(x)-1]
	if len(x) == 4 {
		if _, err := c.match(0, withDim(x, 3, d), "head_dim"); err != nil {
			return nil, err
		}
	} else if last != dyn && last%d != 0 {
		return nil, c.errorf("operand #0 has shape %s, expected a last dim that is a multiple of head_dim %d", FormatShape(x), d)
	}
	for i := 1; i <= 2; i++ {
		if _, err := c.match(i, []int64{x[1], r / 2}, "[S, rotary_dim/2]"); err != nil {
			return nil, err
		}
	}
	return c.one(c.like(0))
}

func inferAttention(c *checker) ([]inferred, error) {
	for i := 0; i < 3; i++ {
		if err := c.rankIn(i, 4); err != nil {
			return nil, err
		}
	}
	if err := c.floats(0); err != nil {
		return nil, err
	}
	if err := c.sameElem(0, 1, 2); err != nil {
		return nil, err
	}
	q := c.shape(0)
	b, sq, h, d := q[0], q[1], q[2], q[3]
	k, err := c.match(1, []int64{b, dyn, dyn, d}, "[B, Sk, Hkv, D] with q's B and D")
	if err != nil {
		return nil, err
	}
	b, sk, hkv := k[0], k[1], k[2]
	v, err := c.match(2, []int64{b, sk, hkv, dyn}, "[B, Sk, Hkv, Dv] with k's B, Sk and Hkv")
	if err != nil {
		return nil, err
	}
	if h != dyn && hkv != dyn && (hkv == 0 || h%hkv != 0) {
		return nil, c.errorf("operand #1 has %d kv heads, expected a divisor of the %d query heads of operand #0", hkv, h)
	}
	mask := MaskKind(attrString(c.op, "mask", string(MaskNone)))
	switch {
	case mask.HasOperand() && len(c.in) != 4:
		return nil, c.errorf("mask \"%s\" requires a mask operand (operand #3)", mask)
	case !mask.HasOperand() && len(c.in) == 4:
		return nil, c.errorf("mask \"%s\" takes no mask operand, but found 4 operands", mask)
	}
	switch mask {
	case MaskCustom:
		if _, err := c.match(3, []int64{b, sk}, "[B, Sk]"); err != nil {
			return nil, err
		}
	case MaskBias:
		if err := c.floats(3); err != nil {
			return nil, err
		}
		if _, err := c.match(3, []int64{b, h, sq, sk}, "[B, H, Sq, Sk]"); err != nil {
			return nil, err
		}
	}
	w := c.op.Attr("window")
	switch {
	case mask == MaskSlidingWindow && w == nil:
		return nil, c.errorf("mask \"sliding_window\" requires attribute 'window'")
	case mask != MaskSlidingWindow && w != nil:
		return nil, c.errorf("attribute 'window' is only valid with mask \"sliding_window\"")
	case w != nil && attrInt(c.op, "window", 0) < 0:
		return nil, c.errorf("attribute 'window' must be non-negative, got %d", attrInt(c.op, "window", 0))
	}
	if s, ok := attrFloat(c.op, "softcap"); ok && !(s >= 0) {
		return nil, c.errorf("attribute 'softcap' must be non-negative (0 turns it off), got %g", s)
	}
	return c.one(c.tensor([]int64{b, sq, h, v[3]}, c.elem(0)))
}

func inferGatedDeltaNet(c *checker) ([]inferred, error) {
	if err := c.rankIn(0, 4); err != nil {
		return nil, err
	}
	for i := range c.in {
		if err := c.floats(i); err != nil {
			return nil, err
		}
	}
	q := c.shape(0)
	var err error
	for i := 1; i <= 2; i++ {
		if q, err = c.match(i, q, "[B, S, H, N] like operand #0"); err != nil {
			return nil, err
		}
	}
	b, s, h, n := q[0], q[1], q[2], q[3]
	gate := []int64{b, s, h}
	why := "[B, S, H]"
	if attrBool(c.op, "gate_per_channel") {
		gate, why = q, "[B, S, H, N] with gate_per_channel"
	}
	if _, err := c.match(3, gate, why); err != nil {
		return nil, err
	}
	if _, err := c.match(4, []int64{b, s, h}, "[B, S, H]"); err != nil {
		return nil, err
	}
	state := []int64{b, h, n, n}
	if len(c.in) == 6 {
		if state, err = c.match(5, state, "[B, H, N, N]"); err != nil {
			return nil, err
		}
	}
	return []inferred{c.tensor(q, c.elem(0)), c.tensor(state, c.elem(0))}, nil
}

func inferLSTM(c *checker) ([]inferred, error) {
	if len(c.in) == 5 {
		return nil, c.errorf("expected 4 operands, or 6 with h0 and c0, but found 5")
	}
	if err := c.rankIn(0, 3); err != nil {
		return nil, err
	}
	if err := c.rankIn(2, 2); err != nil {
		return nil, err
	}
	for i := range c.in {
		if err := c.floats(i); err != nil {
			return nil, err
		}
	}
	x, whh := c.shape(0), c.shape(2)
	hid := whh[1]
	if hid == dyn && whh[0] != dyn && whh[0]%4 == 0 {
		hid = whh[0] / 4
	}
	h4, ok := mulDim(4, hid)
	if !ok {
		return nil, c.errorf("operand #2 hidden size %d is too large: 4H does not fit in 64 bits", hid)
	}
	if _, err := c.match(1, []int64{h4, x[2]}, "[4H, I] with H from operand #2 and I from operand #0"); err != nil {
		return nil, err
	}
	if _, err := c.match(2, []int64{h4, hid}, "[4H, H]"); err != nil {
		return nil, err
	}
	if _, err := c.match(3, []int64{h4}, "[4H]"); err != nil {
		return nil, err
	}
	for i := 4; i < len(c.in); i++ {
		if _, err := c.match(i, []int64{x[0], hid}, "[B, H]"); err != nil {
			return nil, err
		}
	}
	e := c.elem(0)
	return []inferred{
		c.tensor([]int64{x[0], x[1], hid}, e),
		c.tensor([]int64{x[0], hid}, e),
		c.tensor([]int64{x[0], hid}, e),
	}, nil
}

func inferDequantMatMul(c *checker) ([]inferred, error) {
	f32 := c.ctx.F32()
	if err := c.rankIn(0, 2); err != nil {
		return nil, err
	}
	if err := c.elemIs(0, f32); err != nil {
		return nil, err
	}
	if err := c.rankIn(1, 1); err != nil {
		return nil, err
	}
	if err := c.elemIs(1, c.ctx.IntegerType(8, ir.Unsigned)); err != nil {
		return nil, err
	}
	f := QuantFormat(attrString(c.op, "format", ""))
	n, k := attrInt(c.op, "n", 0), attrInt(c.op, "k", 0)
	elems, nbytes, _ := f.Block()
	switch {
	case n <= 0:
		return nil, c.errorf("attribute 'n' must be positive, got %d", n)
	case k <= 0:
		return nil, c.errorf("attribute 'k' must be positive, got %d", k)
	case k%elems != 0:
		return nil, c.errorf("attribute 'k' (%d) is not a multiple of the %s block size %d", k, f, elems)
	}
	blocks := k / elems
	if n > (1<<62)/blocks/nbytes {
		return nil, c.errorf("attributes 'n' (%d) and 'k' (%d) describe a weight too large to address", n, k)
	}
	x := c.shape(0)
	if _, err := c.match(0, []int64{x[0], k}, "[M, k]"); err != nil {
		return nil, err
	}
	why := fmt.Sprintf("n·k/%d blocks of %d bytes for %s", elems, nbytes, f)
	if _, err := c.match(1, []int64{n * blocks * nbytes}, why); err != nil {
		return nil, err
	}
	return c.one(c.tensor([]int64{x[0], n}, f32))
}
