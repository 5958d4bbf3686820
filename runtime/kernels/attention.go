package kernels

import (
	"math"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// MaskKind names the mask of graph.attention.
type MaskKind string

// The attention masks.
const (
	MaskNone          MaskKind = "none"
	MaskCausal        MaskKind = "causal"
	MaskSlidingWindow MaskKind = "sliding_window"
	MaskCustom        MaskKind = "custom"
	MaskBias          MaskKind = "bias"
)

// AttentionAttrs are the attributes of graph.attention.
type AttentionAttrs struct {
	Mask    MaskKind // "" means none
	Window  int      // for sliding_window, ≥ 0
	Scale   float32  // 0 means the default 1/√D
	Softcap float32  // 0 means off
}

// Attention computes scaled dot-product attention for q [B, Sq, H, D],
// k [B, Sk, Hkv, D] and v [B, Sk, Hkv, Dv], giving [B, Sq, H, Dv] rounded to
// out. Query head h reads kv head h/(H/Hkv) (H must be a multiple of Hkv).
//
// Query i sits at absolute position a = Sk − Sq + i. Key j is kept when:
//   - none, bias: always;
//   - causal: j ≤ a;
//   - sliding_window: a − Window ≤ j ≤ a;
//   - custom: mask[b, j] (shape [B, Sk]) is ≥ 0.5 for a floating-point mask
//     or non-zero for an integer one (1 keeps, 0 drops).
//
// For each (b, i, h), in float32: s_j = Σ_d q_d·k_jd in increasing d from
// +0; s_j = float32(s_j·scale); with a softcap c, s_j = c·tanh(s_j/c) (tanh
// rounded once); with a bias mask (shape [B, H, Sq, Sk]), s_j = s_j + bias.
// Over the kept keys only: m = max s_j (NaNs skipped), e_j = exp(s_j − m),
// t = Σ e_j and p_j = e_j/t, in increasing j; the output is
// o_d = Σ_j float32(p_j·v_jd) in increasing j from +0.
//
// Fully masked rows: when no key is kept, or every kept score is −∞ (a bias
// of −∞), the output row is all zeros, where a plain softmax would give NaN.
// Masked keys are skipped entirely, so their v rows are never read.
func Attention(q, k, v, mask *tensor.Tensor, attrs AttentionAttrs, out tensor.DType) (*tensor.Tensor, error) {
	const name = "graph.attention"
	for _, o := range []operand{{"q", q}, {"k", k}, {"v", v}} {
		if err := requireFloat(name, o.role, o.t); err != nil {
			return nil, err
		}
		if err := requireRank(name, o.role, o.t, 4); err != nil {
			return nil, err
		}
	}
	if err := requireFloatResult(name, out); err != nil {
		return nil, err
	}
	qs, ks, vs := q.Shape(), k.Shape(), v.Shape()
	B, Sq, H, D := qs[0], qs[1], qs[2], qs[3]
	Sk, Hkv, Dv := ks[1], ks[2], vs[3]
	if ks[0] != B || ks[3] != D {
		return nil, errorf(name, "operand k has type %s; want [%d, Sk, Hkv, %d] to match q %s", k.Type(), B, D, q.Type())
	}
	if vs[0] != B || vs[1] != Sk || vs[2] != Hkv {
		return nil, errorf(name, "operand v has type %s; want [%d, %d, %d, Dv] to match k %s", v.Type(), B, Sk, Hkv, k.Type())
	}
	if Hkv == 0 || H%Hkv != 0 {
		return nil, errorf(name, "q has %d heads, not a multiple of the %d kv heads", H, Hkv)
	}
	kind := attrs.Mask
	if kind == "" {
		kind = MaskNone
	}
	switch kind {
	case MaskNone, MaskCausal, MaskSlidingWindow:
		if mask != nil {
			return nil, errorf(name, "mask %q takes no mask operand", kind)
		}
		if kind == MaskSlidingWindow && attrs.Window < 0 {
			return nil, errorf(name, "window %d must be ≥ 0", attrs.Window)
		}
	case MaskCustom, MaskBias:
		if mask == nil {
			return nil, errorf(name, "mask %q needs a mask operand", kind)
		}
		want := []int{B, Sk}
		if kind == MaskBias {
			want = []int{B, H, Sq, Sk}
			if err := requireFloat(name, "mask", mask); err != nil {
				return nil, err
			}
		}
		if err := requireShape(name, "mask", mask, want...); err != nil {
			return nil, err
		}
	default:
		return nil, errorf(name, "unknown mask %q", kind)
	}
	scale := attrs.Scale
	if scale == 0 {
		scale = float32(1 / math.Sqrt(float64(D)))
	}
	r := tensor.Zeros(out, B, Sq, H, Dv)
	a := attnArgs{q: q.Floats(), k: k.Floats(), v: v.Floats(), y: r.Floats(), mask: mask, kind: kind,
		Sq: Sq, Sk: Sk, H: H, Hkv: Hkv, D: D, Dv: Dv, window: attrs.Window, scale: scale, softcap: attrs.Softcap}
	rows := B * Sq * H
	parallelFor(rows, 2*rows*Sk*(D+Dv), func(lo, hi int) {
		scores := make([]float32, Sk)
		keep := make([]bool, Sk)
		for row := lo; row < hi; row++ {
			a.row(row, scores, keep)
		}
	})
	tensor.RoundSlice(out, r.Floats())
	return r, nil
}

type attnArgs struct {
	q, k, v, y            []float32
	mask                  *tensor.Tensor
	kind                  MaskKind
	Sq, Sk, H, Hkv, D, Dv int
	window                int
	scale, softcap        float32
}

// row computes output row (b, i, h), numbered in [B, Sq, H] order.
func (a *attnArgs) row(row int, scores []float32, keep []bool) {
	h, i, b := row%a.H, row/a.H%a.Sq, row/(a.H*a.Sq)
	kvh := h / (a.H / a.Hkv)
	absQ := a.Sk - a.Sq + i
	qr := a.q[row*a.D : (row+1)*a.D]
	yr := a.y[row*a.Dv : (row+1)*a.Dv]
	m := float32(math.Inf(-1))
	nan := false
	for j := range a.Sk {
		keep[j] = a.keeps(b, j, absQ)
		if !keep[j] {
			continue
		}
		kr := a.k[((b*a.Sk+j)*a.Hkv+kvh)*a.D:][:a.D]
		s := float32(dot(qr, kr) * a.scale)
		if a.softcap != 0 {
			s = a.softcap * tanh32(s/a.softcap)
		}
		if a.kind == MaskBias {
			s += a.mask.Floats()[((b*a.H+h)*a.Sq+i)*a.Sk+j]
		}
		scores[j] = s
		if s > m {
			m = s
		}
		nan = nan || s != s
	}
	if math.IsInf(float64(m), -1) && !nan {
		return // fully masked: the row stays zero
	}
	var t float32
	for j := range a.Sk {
		if keep[j] {
			scores[j] = exp32(scores[j] - m)
			t += scores[j]
		}
	}
	for j := range a.Sk {
		if !keep[j] {
			continue
		}
		p := scores[j] / t
		vr := a.v[((b*a.Sk+j)*a.Hkv+kvh)*a.Dv:][:len(yr)]
		for d, x := range vr {
			yr[d] += float32(p * x)
		}
	}
}

// keeps reports whether query (b, absQ) attends to key j.
func (a *attnArgs) keeps(b, j, absQ int) bool {
	switch a.kind {
	case MaskCausal:
		return j <= absQ
	case MaskSlidingWindow:
		return j <= absQ && j >= absQ-a.window
	case MaskCustom:
		i := b*a.Sk + j
		if a.mask.DType().IsFloat() {
			return a.mask.Floats()[i] >= 0.5
		}
		return a.mask.Float64(i) != 0
	}
	return true
}
