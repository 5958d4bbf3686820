package metal

import (
	"fmt"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// graph.lstm: one layer, one direction, PyTorch's gate order (i, f, g, o).
// Two dispatches:
//
//   - lstm_input: the input projections of every step at once,
//     xw[b,t,r] = Σ_k w_ih[r,k]·x[b,t,k], one simdgroup per gate row (w_ih
//     rows are contiguous), lanes over k, simd_sum; into a temporary.
//   - lstm_steps: one threadgroup per batch element runs the recurrence.
//     h (twice, current and next) and c live in threadgroup memory;
//     simdgroups take hidden units in turn and, for each, the four gate
//     rows' w_hh·h with simd_sum; one barrier per step.
//
// z_r = (xw[r] + Σ_k w_hh[r,k]·h_k) + bias_r, as the reference groups it.

func emitLSTM(r *regionState, op *ir.Operation) error {
	l, _ := graph.AsLSTM(op)
	x, _ := infoOf(l.Input())
	wih, _ := infoOf(l.WIH())
	whh, _ := infoOf(l.WHH())
	bias, _ := infoOf(l.Bias())
	y, _ := infoOf(op.Result(0))
	hOut, _ := infoOf(op.Result(1))
	cOut, _ := infoOf(op.Result(2))
	if x.rank() != 3 || !x.elem.isFloat() {
		return ir.OpError(op, "has no Metal kernel for x of type %v", l.Input().Type())
	}
	bn, s, in := x.shape[0], x.shape[1], x.shape[2]
	hid := whh.shape[1]
	var h0, c0 tensorInfo
	if v := l.H0(); v != nil {
		h0, _ = infoOf(v)
	}
	if v := l.C0(); v != nil {
		c0, _ = infoOf(v)
	}
	maxSG := b2sg(r.e.opts.MaxThreadsPerThreadgroup)
	xw := tensorInfo{elem: elemF32, shape: []int64{bn, s, 4 * hid}, n: bn * s * 4 * hid}
	if xw.n == 0 {
		return nil
	}
	// lstm_input
	// Each simdgroup computes lstmRows gate rows of one step.
	nsg := min(4, maxSG)
	rowsPerTG := int64(nsg * lstmRows)
	k1, err := r.e.kernel(op, "lstm_input", keyOf(x.elem, wih.elem, x.shape, wih.shape), func(b *kb) error {
		b.k.Summary = fmt.Sprintf("lstm input projections x%v · w_ih%vᵀ", x.shape, wih.shape)
		b.buffer("x", x, accRead)
		b.buffer("w", wih, accRead)
		b.buffer("xw", xw, accWrite)
		b.launch([3]int{int((4*hid + rowsPerTG - 1) / rowsPerTG), int(bn * s), 1}, [3]int{nsg * SimdWidth, 1, 1}, ResizeFixed)
		b.l("const uint bt = tgpos.y;")
		b.l("for (uint rr = 0; rr < %du; rr++) {", lstmRows)
		b.l("const uint row = (tgpos.x * %du + sg) * %du + rr;", nsg, lstmRows)
		b.l("if (row < %du) {", 4*hid)
		b.l("float acc = 0.0f;")
		b.l("for (uint kk = lane; kk < %du; kk += 32u) {", in)
		b.l("acc += (float)w[row * %du + kk] * (float)x[bt * %du + kk];", in, in)
		b.l("}")
		b.l("acc = simd_sum(acc);")
		b.l("if (lane == 0) {")
		b.l("xw[bt * %du + row] = acc;", 4*hid)
		b.l("}")
		b.l("}")
		b.l("}")
		return nil
	})
	if err != nil {
		return err
	}
	scratch := r.temp(xw)
	in1, err := r.bind([]*ir.Value{l.Input(), l.WIH()}, nil)
	if err != nil {
		return err
	}
	r.dispatch(k1, []*ir.Operation{op}, append(in1, scratch))

	// lstm_steps
	reads := []*ir.Value{l.WHH(), l.Bias()}
	if l.H0() != nil {
		reads = append(reads, l.H0())
	}
	if l.C0() != nil {
		reads = append(reads, l.C0())
	}
	// Four hidden units per simdgroup, at most 32 simdgroups.
	nsg2 := int(max(1, min(int64(min(32, maxSG)), (hid+3)/4)))
	key := keyOf(whh.elem, bias.elem, h0.elem, c0.elem, y.elem, x.shape, whh.shape, len(reads))
	k2, err := r.e.kernel(op, "lstm_steps", key, func(b *kb) error {
		b.k.Summary = fmt.Sprintf("lstm recurrence over %d steps, hidden %d, batch %d", s, hid, bn)
		b.h().use(hUnary)
		b.rawBuffer("xw", "device const float *", "f32", xw.shape, xw.bytes(), accRead)
		b.buffer("whh", whh, accRead)
		b.buffer("bias", bias, accRead)
		if l.H0() != nil {
			b.buffer("h0", h0, accRead)
		}
		if l.C0() != nil {
			b.buffer("c0", c0, accRead)
		}
		b.buffer("y", y, accWrite)
		b.buffer("hout", hOut, accWrite)
		b.buffer("cout", cOut, accWrite)
		b.tgmem("float", int(3*hid*4))
		b.launch([3]int{int(bn), 1, 1}, [3]int{nsg2 * SimdWidth, 1, 1}, ResizeRows)
		b.l("const uint bb = tgpos.x;")
		b.l("const uint nsg = tptg.x / 32u;")
		b.l("threadgroup float *cs = tg + %du;", 2*hid)
		b.l("for (uint u = tpos.x; u < %du; u += tptg.x) {", hid)
		if l.H0() != nil {
			b.l("tg[u] = (float)h0[bb * %du + u];", hid)
		} else {
			b.l("tg[u] = 0.0f;")
		}
		if l.C0() != nil {
			b.l("cs[u] = (float)c0[bb * %du + u];", hid)
		} else {
			b.l("cs[u] = 0.0f;")
		}
		b.l("}")
		b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
		b.l("for (uint t = 0; t < %du; t++) {", s)
		b.l("threadgroup float *hp = tg + (t %% 2u) * %du;", hid)
		b.l("threadgroup float *hn = tg + ((t + 1u) %% 2u) * %du;", hid)
		b.l("device const float *xr = xw + (bb * %du + t) * %du;", s, 4*hid)
		b.l("for (uint u = sg; u < %du; u += nsg) {", hid)
		b.l("float z[4];")
		b.l("for (uint gi = 0; gi < 4u; gi++) {")
		b.l("const uint row = gi * %du + u;", hid)
		b.l("float acc = 0.0f;")
		b.l("for (uint kk = lane; kk < %du; kk += 32u) {", hid)
		b.l("acc += (float)whh[row * %du + kk] * hp[kk];", hid)
		b.l("}")
		b.l("z[gi] = (xr[row] + simd_sum(acc)) + (float)bias[row];")
		b.l("}")
		b.l("const float ig = rlx_sigmoid(z[0]);")
		b.l("const float fg = rlx_sigmoid(z[1]);")
		b.l("const float gg = tanh(z[2]);")
		b.l("const float og = rlx_sigmoid(z[3]);")
		b.l("const float c = fg * cs[u] + ig * gg;")
		b.l("const float hv = og * tanh(c);")
		// Every lane has read cs[u] before lane 0 replaces it.
		b.l("simdgroup_barrier(mem_flags::mem_threadgroup);")
		b.l("if (lane == 0) {")
		b.l("cs[u] = c;")
		b.l("hn[u] = hv;")
		b.l("y[(bb * %du + t) * %du + u] = (%s)hv;", s, hid, y.elem.msl())
		b.l("}")
		b.l("}")
		b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
		b.l("}")
		b.l("for (uint u = tpos.x; u < %du; u += tptg.x) {", hid)
		b.l("hout[bb * %du + u] = (%s)tg[(%du %% 2u) * %du + u];", hid, hOut.elem.msl(), s, hid)
		b.l("cout[bb * %du + u] = (%s)cs[u];", hid, cOut.elem.msl())
		b.l("}")
		return nil
	})
	if err != nil {
		return err
	}
	in2, err := r.bind(reads, op.Results())
	if err != nil {
		return err
	}
	r.dispatch(k2, []*ir.Operation{op}, append([]int{scratch}, in2...))
	return nil
}

const lstmRows = 4

func b2sg(maxThreads int) int { return maxThreads / SimdWidth }

func (b *kb) h() *helperSet { return &b.e.helpers }
