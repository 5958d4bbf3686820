package kernels

import (
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// RopeStyle names how graph.rope pairs the rotated dimensions.
type RopeStyle string

// The rotary embedding styles.
const (
	RopeNeoX RopeStyle = "neox" // pairs (i, i+R/2)
	RopeGPTJ RopeStyle = "gptj" // pairs (2i, 2i+1)
)

// RopeAttrs are the attributes of graph.rope.
type RopeAttrs struct {
	HeadDim   int // D
	RotaryDim int // R: even, 0 ≤ R ≤ D
	Style     RopeStyle
}

// Rope applies rotary position embeddings to x, which is [B, S, H, D] or
// packed [B, S, H·D] with D = HeadDim, using cos and sin tables of shape
// [S, R/2]. In each head, pair p (0 ≤ p < R/2) is dimensions (p, p+R/2) for
// neox or (2p, 2p+1) for gptj; with c = cos[s, p] and n = sin[s, p],
//
//	x1' = float32(x1·c) − float32(x2·n)
//	x2' = float32(x2·c) + float32(x1·n)
//
// and dimensions ≥ R are copied. The result, like x, is rounded to out.
func Rope(x, cos, sin *tensor.Tensor, attrs RopeAttrs, out tensor.DType) (*tensor.Tensor, error) {
	const name = "graph.rope"
	if err := requireFloats(name, operand{"x", x}, operand{"cos", cos}, operand{"sin", sin}); err != nil {
		return nil, err
	}
	if err := requireFloatResult(name, out); err != nil {
		return nil, err
	}
	D, R := attrs.HeadDim, attrs.RotaryDim
	if D <= 0 || R < 0 || R > D || R%2 != 0 {
		return nil, errorf(name, "head_dim %d and rotary_dim %d: want 0 ≤ rotary_dim ≤ head_dim, rotary_dim even", D, R)
	}
	if attrs.Style != RopeNeoX && attrs.Style != RopeGPTJ {
		return nil, errorf(name, "unknown style %q (want neox or gptj)", attrs.Style)
	}
	xs := x.Shape()
	switch {
	case x.Rank() == 4 && xs[3] == D:
	case x.Rank() == 3 && xs[2]%D == 0:
	default:
		return nil, errorf(name, "operand x has type %s; want [B, S, H, %d] or [B, S, H·%d]", x.Type(), D, D)
	}
	S, half := xs[1], R/2
	if err := requireShape(name, "cos", cos, S, half); err != nil {
		return nil, err
	}
	if err := requireShape(name, "sin", sin, S, half); err != nil {
		return nil, err
	}
	r := tensor.Zeros(out, xs...)
	xv, cv, sv, y := x.Floats(), cos.Floats(), sin.Floats(), r.Floats()
	copy(y, xv)
	heads := x.Len() / max(D, 1) // B·S·H rows of D
	perPos := heads / max(xs[0]*S, 1)
	for row := range heads {
		s := row / perPos % S
		yr := y[row*D : (row+1)*D]
		c, n := cv[s*half:(s+1)*half], sv[s*half:(s+1)*half]
		for p := range half {
			i1, i2 := p, p+half
			if attrs.Style == RopeGPTJ {
				i1, i2 = 2*p, 2*p+1
			}
			x1, x2 := yr[i1], yr[i2]
			yr[i1] = float32(x1*c[p]) - float32(x2*n[p])
			yr[i2] = float32(x2*c[p]) + float32(x1*n[p])
		}
	}
	tensor.RoundSlice(out, y)
	return r, nil
}
