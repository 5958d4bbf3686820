package kernels

import (
	"math"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// GatedDeltaNetAttrs are the attributes of graph.gated_delta_net.
type GatedDeltaNetAttrs struct {
	GatePerChannel bool
}

// GatedDeltaNet runs the gated delta rule over q, k, v [B, S, H, N], gate g
// ([B, S, H], or [B, S, H, N] with GatePerChannel) and β [B, S, H], from
// state₀ [B, H, N, N] (nil means zeros). It returns out [B, S, H, N] and the
// final state [B, H, N, N], both rounded to the element type dt.
//
// Per batch and head, for each token t in order, in float32 (S[i][j] is the
// state, row i indexed by k's channel, column j by v's):
//
//	decay     S[i][j] = S[i][j]·e, e = exp(g) (per channel e_i = exp(g_i)), exp rounded once
//	sk_j      = Σ_i float32(S[i][j]·k_i), increasing i from +0
//	d_j       = float32((v_j − sk_j)·β)
//	update    S[i][j] = S[i][j] + float32(k_i·d_j)
//	o_j       = (Σ_i float32(S[i][j]·q_i), increasing i from +0) / float32(√N)
//
// The state stays float32 between tokens; only the results are rounded.
func GatedDeltaNet(q, k, v, g, beta, state0 *tensor.Tensor, attrs GatedDeltaNetAttrs, dt tensor.DType) (out, state *tensor.Tensor, err error) {
	const name = "graph.gated_delta_net"
	if err := requireFloats(name, operand{"q", q}, operand{"k", k}, operand{"v", v}, operand{"g", g}, operand{"beta", beta}); err != nil {
		return nil, nil, err
	}
	if err := requireFloatResult(name, dt); err != nil {
		return nil, nil, err
	}
	if err := requireRank(name, "q", q, 4); err != nil {
		return nil, nil, err
	}
	qs := q.Shape()
	B, S, H, N := qs[0], qs[1], qs[2], qs[3]
	if err := requireShape(name, "k", k, qs...); err != nil {
		return nil, nil, err
	}
	if err := requireShape(name, "v", v, qs...); err != nil {
		return nil, nil, err
	}
	gShape := []int{B, S, H}
	if attrs.GatePerChannel {
		gShape = qs
	}
	if err := requireShape(name, "g", g, gShape...); err != nil {
		return nil, nil, err
	}
	if err := requireShape(name, "beta", beta, B, S, H); err != nil {
		return nil, nil, err
	}
	state = tensor.Zeros(dt, B, H, N, N)
	if state0 != nil {
		if err := requireFloat(name, "state", state0); err != nil {
			return nil, nil, err
		}
		if err := requireShape(name, "state", state0, B, H, N, N); err != nil {
			return nil, nil, err
		}
		copy(state.Floats(), state0.Floats())
	}
	out = tensor.Zeros(dt, qs...)
	qv, kv, vv, gv, bv := q.Floats(), k.Floats(), v.Floats(), g.Floats(), beta.Floats()
	sv, ov := state.Floats(), out.Floats()
	sqrtN := float32(math.Sqrt(float64(N)))
	parallelFor(B*H, 6*B*H*S*N*N, func(lo, hi int) {
		sk := make([]float32, N)
		decay := make([]float32, N)
		for bh := lo; bh < hi; bh++ {
			b, h := bh/H, bh%H
			st := sv[bh*N*N : (bh+1)*N*N]
			for t := range S {
				tok := (b*S+t)*H + h // index into [B, S, H]
				if attrs.GatePerChannel {
					for i := range decay {
						decay[i] = exp32(gv[tok*N+i])
					}
				} else {
					e := exp32(gv[tok])
					for i := range decay {
						decay[i] = e
					}
				}
				kt, qt := kv[tok*N:(tok+1)*N], qv[tok*N:(tok+1)*N]
				vt, ot := vv[tok*N:(tok+1)*N], ov[tok*N:(tok+1)*N]
				clear(sk)
				for i, ki := range kt {
					row := st[i*N : (i+1)*N]
					for j := range row {
						row[j] *= decay[i]
						sk[j] += float32(row[j] * ki)
					}
				}
				bt := bv[tok]
				for j := range sk {
					sk[j] = float32((vt[j] - sk[j]) * bt) // sk now holds d
				}
				for i, ki := range kt {
					row := st[i*N : (i+1)*N]
					qi := qt[i]
					for j, d := range sk {
						row[j] += float32(ki * d)
						ot[j] += float32(row[j] * qi)
					}
				}
				for j := range ot {
					ot[j] /= sqrtN
				}
			}
		}
	})
	tensor.RoundSlice(dt, ov)
	tensor.RoundSlice(dt, sv)
	return out, state, nil
}

// LSTM runs one layer of a unidirectional LSTM with PyTorch's gate order
// (i, f, g, o) over x [B, S, I], with w_ih [4H, I], w_hh [4H, H] and one
// combined bias [4H], from h₀ and c₀ [B, H] (nil means zeros). It returns
// y [B, S, H] (every step's h), and the final h and c [B, H], all rounded to
// the element type dt.
//
// Per batch and step, in float32, for gate row r:
//
//	z_r = (Σ_k w_ih[r,k]·x_k + Σ_k w_hh[r,k]·h_k) + bias_r
//
// where each sum runs in increasing k from +0 (products rounded) and the two
// sums are added before the bias. Then i = σ(z_i), f = σ(z_f), g = tanh(z_g),
// o = σ(z_o) (each rounded once, as graph.sigmoid and graph.tanh),
// c' = float32(f·c) + float32(i·g) and h' = o·tanh(c').
func LSTM(x, wIH, wHH, bias, h0, c0 *tensor.Tensor, dt tensor.DType) (y, h, c *tensor.Tensor, err error) {
	const name = "graph.lstm"
	if err := requireFloats(name, operand{"x", x}, operand{"w_ih", wIH}, operand{"w_hh", wHH}, operand{"bias", bias}); err != nil {
		return nil, nil, nil, err
	}
	if err := requireFloatResult(name, dt); err != nil {
		return nil, nil, nil, err
	}
	if err := requireRank(name, "x", x, 3); err != nil {
		return nil, nil, nil, err
	}
	B, S, I := x.Shape()[0], x.Shape()[1], x.Shape()[2]
	if err := requireRank(name, "w_hh", wHH, 2); err != nil {
		return nil, nil, nil, err
	}
	H := wHH.Shape()[1]
	if err := requireShape(name, "w_hh", wHH, 4*H, H); err != nil {
		return nil, nil, nil, err
	}
	if err := requireShape(name, "w_ih", wIH, 4*H, I); err != nil {
		return nil, nil, nil, err
	}
	if err := requireShape(name, "bias", bias, 4*H); err != nil {
		return nil, nil, nil, err
	}
	h, c = tensor.Zeros(tensor.F32, B, H), tensor.Zeros(tensor.F32, B, H)
	for _, init := range []operand{{"h0", h0}, {"c0", c0}} {
		if init.t == nil {
			continue
		}
		if err := requireFloat(name, init.role, init.t); err != nil {
			return nil, nil, nil, err
		}
		if err := requireShape(name, init.role, init.t, B, H); err != nil {
			return nil, nil, nil, err
		}
	}
	if h0 != nil {
		copy(h.Floats(), h0.Floats())
	}
	if c0 != nil {
		copy(c.Floats(), c0.Floats())
	}
	y = tensor.Zeros(dt, B, S, H)
	xv, wi, wh, bv := x.Floats(), wIH.Floats(), wHH.Floats(), bias.Floats()
	hv, cv, yv := h.Floats(), c.Floats(), y.Floats()
	z := make([]float32, B*4*H)
	for t := range S {
		parallelFor(B*4*H, 2*B*4*H*(I+H), func(lo, hi int) {
			for br := lo; br < hi; br++ {
				b, r := br/(4*H), br%(4*H)
				xt := xv[(b*S+t)*I : (b*S+t+1)*I]
				sx := dot(wi[r*I:(r+1)*I], xt)
				sh := dot(wh[r*H:(r+1)*H], hv[b*H:(b+1)*H])
				z[br] = (sx + sh) + bv[r]
			}
		})
		for b := range B {
			zb := z[b*4*H : (b+1)*4*H]
			for u := range H {
				ig, fg := sigmoid32(zb[u]), sigmoid32(zb[H+u])
				gg, og := tanh32(zb[2*H+u]), sigmoid32(zb[3*H+u])
				cn := float32(fg*cv[b*H+u]) + float32(ig*gg)
				cv[b*H+u] = cn
				hv[b*H+u] = og * tanh32(cn)
			}
			copy(yv[(b*S+t)*H:(b*S+t+1)*H], hv[b*H:(b+1)*H])
		}
	}
	tensor.RoundSlice(dt, yv)
	if h, err = Cast(h, dt); err != nil {
		return nil, nil, nil, err
	}
	if c, err = Cast(c, dt); err != nil {
		return nil, nil, nil, err
	}
	return y, h, c, nil
}
