package kernels

import (
	"fmt"
	"math"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// gdnRef runs the gated delta rule in float64 with the state as a matrix of
// rows, straight from the spec.
func gdnRef(q, k, v, g, beta, state0 *tensor.Tensor, perChannel bool) (out, state []float64) {
	B, S, H, N := q.Shape()[0], q.Shape()[1], q.Shape()[2], q.Shape()[3]
	out = make([]float64, B*S*H*N)
	state = make([]float64, B*H*N*N)
	for b := range B {
		for h := range H {
			st := make([][]float64, N)
			for i := range st {
				st[i] = make([]float64, N)
				if state0 != nil {
					for j := range N {
						st[i][j] = state0.Float64(((b*H+h)*N+i)*N + j)
					}
				}
			}
			for t := range S {
				at := func(x *tensor.Tensor, i int) float64 { return x.Float64(((b*S+t)*H+h)*N + i) }
				for i := range N {
					gi := g.Float64((b*S+t)*H + h)
					if perChannel {
						gi = at(g, i)
					}
					for j := range N {
						st[i][j] *= math.Exp(gi)
					}
				}
				bt := beta.Float64((b*S+t)*H + h)
				d := make([]float64, N)
				for j := range N {
					var sk float64
					for i := range N {
						sk += st[i][j] * at(k, i)
					}
					d[j] = (at(v, j) - sk) * bt
				}
				for i := range N {
					for j := range N {
						st[i][j] += at(k, i) * d[j]
					}
				}
				for j := range N {
					var o float64
					for i := range N {
						o += st[i][j] * at(q, i)
					}
					out[((b*S+t)*H+h)*N+j] = o / math.Sqrt(float64(N))
				}
			}
			for i := range N {
				for j := range N {
					state[((b*H+h)*N+i)*N+j] = st[i][j]
				}
			}
		}
	}
	return out, state
}

func TestGatedDeltaNet(t *testing.T) {
	const B, S, H, N = 2, 5, 3, 8
	rng := tensor.NewRNG(15)
	q, k, v := randF32(rng, -0.4, 0.4, B, S, H, N), randF32(rng, -0.4, 0.4, B, S, H, N), randF32(rng, -1, 1, B, S, H, N)
	beta := randF32(rng, 0, 1, B, S, H)
	for _, perChannel := range []bool{false, true} {
		g := randF32(rng, -2, -0.2, B, S, H)
		if perChannel {
			g = randF32(rng, -2, -0.2, B, S, H, N)
		}
		for _, state0 := range []*tensor.Tensor{nil, randF32(rng, -1, 1, B, H, N, N)} {
			name := fmt.Sprintf("per-channel=%v state=%v", perChannel, state0 != nil)
			out, state, err := GatedDeltaNet(q, k, v, g, beta, state0, GatedDeltaNetAttrs{GatePerChannel: perChannel}, tensor.F32)
			if err != nil {
				t.Fatal(err)
			}
			wantOut, wantState := gdnRef(q, k, v, g, beta, state0, perChannel)
			assertClose(t, name+" out", out, wantOut, 1e-5, 1e-6)
			assertClose(t, name+" state", state, wantState, 1e-5, 1e-6)
		}
	}
	// Running the sequence in two halves, carrying the state, gives the same bits.
	g := randF32(rng, -2, -0.2, B, S, H)
	full, fullState, _ := GatedDeltaNet(q, k, v, g, beta, nil, GatedDeltaNetAttrs{}, tensor.F32)
	first := func(x *tensor.Tensor, n int) *tensor.Tensor {
		return must(t)(Slice(x, SliceAttrs{Axis: 1, Start: 0, Length: n}))
	}
	rest := func(x *tensor.Tensor, n int) *tensor.Tensor {
		return must(t)(Slice(x, SliceAttrs{Axis: 1, Start: n, Length: S - n}))
	}
	o1, s1, _ := GatedDeltaNet(first(q, 2), first(k, 2), first(v, 2), first(g, 2), first(beta, 2), nil, GatedDeltaNetAttrs{}, tensor.F32)
	o2, s2, _ := GatedDeltaNet(rest(q, 2), rest(k, 2), rest(v, 2), rest(g, 2), rest(beta, 2), s1, GatedDeltaNetAttrs{}, tensor.F32)
	joined := must(t)(Concat([]*tensor.Tensor{o1, o2}, ConcatAttrs{Axis: 1}))
	if !tensor.BitsEqual(joined, full) || !tensor.BitsEqual(s2, fullState) {
		t.Error("carrying the state across two calls changed the result")
	}
	if _, _, err := GatedDeltaNet(q, k, v, g, beta, nil, GatedDeltaNetAttrs{GatePerChannel: true}, tensor.F32); err == nil {
		t.Error("a scalar gate with gate_per_channel succeeded")
	}
}

// lstmRef is PyTorch's LSTM cell in float64.
func lstmRef(x, wih, whh, bias, h0, c0 *tensor.Tensor) (y, h, c []float64) {
	B, S, I := x.Shape()[0], x.Shape()[1], x.Shape()[2]
	H := whh.Shape()[1]
	h, c = make([]float64, B*H), make([]float64, B*H)
	if h0 != nil {
		h, c = f64s(h0), f64s(c0)
	}
	y = make([]float64, B*S*H)
	sig := func(z float64) float64 { return 1 / (1 + math.Exp(-z)) }
	for t := range S {
		for b := range B {
			z := make([]float64, 4*H)
			for r := range z {
				z[r] = bias.Float64(r)
				for i := range I {
					z[r] += wih.Float64(r*I+i) * x.Float64((b*S+t)*I+i)
				}
				for i := range H {
					z[r] += whh.Float64(r*H+i) * h[b*H+i]
				}
			}
			for u := range H {
				ig, fg, gg, og := sig(z[u]), sig(z[H+u]), math.Tanh(z[2*H+u]), sig(z[3*H+u])
				c[b*H+u] = fg*c[b*H+u] + ig*gg
				h[b*H+u] = og * math.Tanh(c[b*H+u])
				y[(b*S+t)*H+u] = h[b*H+u]
			}
		}
	}
	return y, h, c
}

func TestLSTM(t *testing.T) {
	const B, S, I, H = 2, 4, 5, 3
	rng := tensor.NewRNG(16)
	x := randF32(rng, -1, 1, B, S, I)
	wih, whh, bias := randF32(rng, -0.5, 0.5, 4*H, I), randF32(rng, -0.5, 0.5, 4*H, H), randF32(rng, -0.5, 0.5, 4*H)
	for _, withState := range []bool{false, true} {
		var h0, c0 *tensor.Tensor
		if withState {
			h0, c0 = randF32(rng, -1, 1, B, H), randF32(rng, -1, 1, B, H)
		}
		y, h, c, err := LSTM(x, wih, whh, bias, h0, c0, tensor.F32)
		if err != nil {
			t.Fatal(err)
		}
		wy, wh, wc := lstmRef(x, wih, whh, bias, h0, c0)
		name := fmt.Sprintf("state=%v", withState)
		assertClose(t, name+" y", y, wy, 1e-5, 1e-6)
		assertClose(t, name+" h", h, wh, 1e-5, 1e-6)
		assertClose(t, name+" c", c, wc, 1e-5, 1e-6)
	}
	if _, _, _, err := LSTM(x, randF32(rng, 0, 1, 4*H, I+1), whh, bias, nil, nil, tensor.F32); err == nil {
		t.Error("a w_ih of the wrong width succeeded")
	}
}
