package kernels

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// attentionRef is a naive float64 attention written straight from the spec.
func attentionRef(q, k, v, mask *tensor.Tensor, a AttentionAttrs) []float64 {
	B, Sq, H, D := q.Shape()[0], q.Shape()[1], q.Shape()[2], q.Shape()[3]
	Sk, Hkv, Dv := k.Shape()[1], k.Shape()[2], v.Shape()[3]
	scale := float64(a.Scale)
	if scale == 0 {
		scale = 1 / math.Sqrt(float64(D))
	}
	out := make([]float64, B*Sq*H*Dv)
	for b := range B {
		for i := range Sq {
			for h := range H {
				g := h / (H / Hkv)
				pos := Sk - Sq + i
				var keys []int
				var scores []float64
				for j := range Sk {
					switch a.Mask {
					case MaskCausal:
						if j > pos {
							continue
						}
					case MaskSlidingWindow:
						if j > pos || j < pos-a.Window {
							continue
						}
					case MaskCustom:
						if mask.Float64(b*Sk+j) < 0.5 {
							continue
						}
					}
					var s float64
					for d := range D {
						s += q.Float64(((b*Sq+i)*H+h)*D+d) * k.Float64(((b*Sk+j)*Hkv+g)*D+d)
					}
					s *= scale
					if a.Softcap != 0 {
						c := float64(a.Softcap)
						s = c * math.Tanh(s/c)
					}
					if a.Mask == MaskBias {
						s += mask.Float64(((b*H+h)*Sq+i)*Sk + j)
					}
					keys, scores = append(keys, j), append(scores, s)
				}
				m := math.Inf(-1)
				for _, s := range scores {
					m = math.Max(m, s)
				}
				if math.IsInf(m, -1) {
					continue // fully masked: zeros
				}
				var den float64
				for _, s := range scores {
					den += math.Exp(s - m)
				}
				for n, j := range keys {
					p := math.Exp(scores[n]-m) / den
					for d := range Dv {
						out[((b*Sq+i)*H+h)*Dv+d] += p * v.Float64(((b*Sk+j)*Hkv+g)*Dv+d)
					}
				}
			}
		}
	}
	return out
}

func TestAttentionMasksAndGQA(t *testing.T) {
	const B, Sq, Sk, H, D, Dv = 2, 3, 7, 4, 8, 6
	rng := tensor.NewRNG(12)
	q := randF32(rng, -1, 1, B, Sq, H, D)
	custom := f32([]int{B, Sk}, 1, 0, 1, 1, 0, 1, 1, 0, 0, 1, 1, 1, 0, 1)
	bias := randF32(rng, -2, 2, B, H, Sq, Sk)
	bias.Floats()[5] = float32(math.Inf(-1))
	for _, Hkv := range []int{4, 2, 1} {
		k, v := randF32(rng, -1, 1, B, Sk, Hkv, D), randF32(rng, -1, 1, B, Sk, Hkv, Dv)
		cases := []struct {
			attrs AttentionAttrs
			mask  *tensor.Tensor
		}{
			{AttentionAttrs{Mask: MaskNone}, nil},
			{AttentionAttrs{}, nil},
			{AttentionAttrs{Mask: MaskCausal}, nil},
			{AttentionAttrs{Mask: MaskSlidingWindow, Window: 2}, nil},
			{AttentionAttrs{Mask: MaskSlidingWindow, Window: 0}, nil},
			{AttentionAttrs{Mask: MaskCustom}, custom},
			{AttentionAttrs{Mask: MaskBias}, bias},
			{AttentionAttrs{Mask: MaskCausal, Softcap: 0.5, Scale: 3}, nil},
			{AttentionAttrs{Mask: MaskBias, Softcap: 2}, bias},
		}
		for _, c := range cases {
			name := fmt.Sprintf("Hkv=%d %+v", Hkv, c.attrs)
			got := must(t)(Attention(q, k, v, c.mask, c.attrs, tensor.F32))
			if want := []int{B, Sq, H, Dv}; !tensor.ShapeEqual(got.Shape(), want) {
				t.Fatalf("%s: shape %v", name, got.Shape())
			}
			assertClose(t, name, got, attentionRef(q, k, v, c.mask, c.attrs), 2e-6, 2e-6)
		}
	}
}

func TestAttentionFullyMaskedRowsAreZero(t *testing.T) {
	rng := tensor.NewRNG(13)
	const B, H, D = 2, 2, 4
	nan := float32(math.NaN())
	// Causal with more queries than keys: the first Sq−Sk queries see no key.
	q, k, v := randF32(rng, -1, 1, B, 5, H, D), randF32(rng, -1, 1, B, 3, H, D), randF32(rng, -1, 1, B, 3, H, D)
	v.Floats()[0] = nan // never read by a masked row
	got := must(t)(Attention(q, k, v, nil, AttentionAttrs{Mask: MaskCausal}, tensor.F32))
	for i, x := range got.Floats() {
		row := i / (H * D) % 5
		if row < 2 && x != 0 {
			t.Fatalf("causal: element %d of a fully masked row = %g", i, x)
		}
	}
	// A custom mask that drops every key of batch 1.
	q, k, v = randF32(rng, -1, 1, B, 1, H, D), randF32(rng, -1, 1, B, 3, H, D), randF32(rng, -1, 1, B, 3, H, D)
	mask := f32([]int{B, 3}, 1, 0, 1, 0, 0, 0)
	got = must(t)(Attention(q, k, v, mask, AttentionAttrs{Mask: MaskCustom}, tensor.F32))
	for i, x := range got.Floats() {
		if (i >= H*D) != (x == 0) {
			t.Fatalf("custom: element %d = %g", i, x)
		}
	}
	// A bias of −∞ everywhere.
	bias := tensor.Zeros(tensor.F32, B, H, 1, 3)
	for i := range bias.Floats() {
		bias.Floats()[i] = float32(math.Inf(-1))
	}
	got = must(t)(Attention(q, k, v, bias, AttentionAttrs{Mask: MaskBias}, tensor.F32))
	for i, x := range got.Floats() {
		if x != 0 {
			t.Fatalf("bias: element %d = %g", i, x)
		}
	}
}

func TestAttentionErrors(t *testing.T) {
	rng := tensor.NewRNG(14)
	q := randF32(rng, -1, 1, 1, 2, 3, 4)
	k := randF32(rng, -1, 1, 1, 5, 2, 4)
	v := randF32(rng, -1, 1, 1, 5, 2, 4)
	kv := randF32(rng, -1, 1, 1, 5, 1, 4)
	tests := []struct {
		q, k, v, mask *tensor.Tensor
		attrs         AttentionAttrs
		want          string
	}{
		{q, k, v, nil, AttentionAttrs{}, "not a multiple"},
		{q, kv, randF32(rng, -1, 1, 1, 4, 1, 4), nil, AttentionAttrs{}, "operand v"},
		{q, kv, kv, nil, AttentionAttrs{Mask: MaskCustom}, "needs a mask operand"},
		{q, kv, kv, randF32(rng, 0, 1, 1, 4), AttentionAttrs{Mask: MaskCustom}, "want shape [1 5]"},
		{q, kv, kv, randF32(rng, 0, 1, 1, 5), AttentionAttrs{Mask: MaskCausal}, "takes no mask"},
		{q, kv, kv, nil, AttentionAttrs{Mask: "alibi"}, "unknown mask"},
		{q, kv, kv, nil, AttentionAttrs{Mask: MaskSlidingWindow, Window: -1}, "window"},
		{randF32(rng, -1, 1, 2, 3, 4), kv, kv, nil, AttentionAttrs{}, "rank 4"},
	}
	for _, tc := range tests {
		_, err := Attention(tc.q, tc.k, tc.v, tc.mask, tc.attrs, tensor.F32)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want an error containing %q", tc.attrs, err, tc.want)
		}
	}
}
