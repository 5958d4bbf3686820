package metal

import (
	"fmt"
	"math"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// graph.gated_delta_net: per (batch, head) an N×N state S (row i = k
// channel, column j = v channel) updated token by token.
//
// The columns of S are independent (sk_j, d_j and o_j read only column j),
// so a threadgroup owns 32 columns of one (batch, head): lanes are columns
// (consecutive j, so loading and storing the row-major state coalesces:
// the layout choice behind metal.md §6's 15%), simdgroups split the rows,
// and each thread keeps its ceil(N/simdgroups) state values in registers
// for the whole sequence. The sums over rows meet in threadgroup memory,
// two barriers per token. With N ≤ 32 that is one threadgroup per
// (batch, head); larger states spread a decode step's few heads over
// ceil(N/32) threadgroups each, as ggml's kernel does.

func emitGatedDeltaNet(r *regionState, op *ir.Operation) error {
	g, _ := graph.AsGatedDeltaNet(op)
	q, _ := infoOf(g.Q())
	kk, _ := infoOf(g.K())
	v, _ := infoOf(g.V())
	gt, _ := infoOf(g.Gate())
	beta, _ := infoOf(g.Beta())
	out, _ := infoOf(g.Out())
	st, _ := infoOf(g.State())
	if q.rank() != 4 {
		return ir.OpError(op, "has no Metal kernel for q of type %v", g.Q().Type())
	}
	bn, s, h, n := q.shape[0], q.shape[1], q.shape[2], q.shape[3]
	perChannel := g.GatePerChannel()
	reads := []*ir.Value{g.Q(), g.K(), g.V(), g.Gate(), g.Beta()}
	var s0 tensorInfo
	if v0 := g.InitialState(); v0 != nil {
		s0, _ = infoOf(v0)
		reads = append(reads, v0)
	}
	if out.n == 0 && st.n == 0 {
		return nil
	}
	key := keyOf(q.elem, kk.elem, v.elem, gt.elem, beta.elem, s0.elem, out.elem, q.shape, perChannel, len(reads))
	k, err := r.e.kernel(op, "gated_delta_net", key, func(b *kb) error {
		// At least four rows per thread, at most 8 simdgroups: 256 threads
		// fit any Apple pipeline's maximum, so the runtime never has to
		// shrink this fixed-shape kernel (N = 256 keeps 32 state values
		// per thread in registers).
		nsg := int64(min(8, b.e.opts.MaxThreadsPerThreadgroup/SimdWidth))
		nsg = max(1, min(nsg, (n+3)/4))
		ri := (n + nsg - 1) / nsg
		gate := "scalar gate"
		if perChannel {
			gate = "per-channel gate"
		}
		b.k.Summary = fmt.Sprintf("gated delta net q%v, %s, state on chip (%d rows per thread)", q.shape, gate, ri)
		b.buffer("q", q, accRead)
		b.buffer("k", kk, accRead)
		b.buffer("v", v, accRead)
		b.buffer("g", gt, accRead)
		b.buffer("beta", beta, accRead)
		if len(reads) == 6 {
			b.buffer("s0", s0, accRead)
		}
		b.buffer("o", out, accWrite)
		b.buffer("st", st, accWrite)
		b.tgmem("float", int(2*nsg*32*4))
		b.launch([3]int{int((n + 31) / 32), int(h), int(bn)}, [3]int{int(nsg) * SimdWidth, 1, 1}, ResizeFixed)
		b.l("const uint j = tgpos.x * 32u + lane;")
		b.l("const uint hh = tgpos.y;")
		b.l("const uint bb = tgpos.z;")
		b.l("const bool col = j < %du;", n)
		b.l("const uint i0 = sg * %du;", ri)
		b.l("const uint sbase = (bb * %du + hh) * %du;", h, n*n)
		b.l("float sv[%d];", ri)
		b.l("for (uint r = 0; r < %du; r++) {", ri)
		b.l("const uint i = i0 + r;")
		if len(reads) == 6 {
			b.l("sv[r] = (col && i < %du) ? (float)s0[sbase + i * %du + j] : 0.0f;", n, n)
		} else {
			b.l("sv[r] = 0.0f;")
		}
		b.l("}")
		b.l("threadgroup float *pa = tg;")
		b.l("threadgroup float *pb = tg + %du;", nsg*32)
		b.l("const float sqrtn = %s;", floatLit(float32(sqrtInt(n))))
		b.l("for (uint t = 0; t < %du; t++) {", s)
		b.l("const uint tok = (bb * %du + t) * %du + hh;", s, h)
		if !perChannel {
			b.l("const float e = exp((float)g[tok]);")
		}
		b.l("float part = 0.0f;")
		b.l("for (uint r = 0; r < %du; r++) {", ri)
		b.l("const uint i = i0 + r;")
		b.l("if (i < %du) {", n)
		if perChannel {
			b.l("sv[r] = sv[r] * exp((float)g[tok * %du + i]);", n)
		} else {
			b.l("sv[r] = sv[r] * e;")
		}
		b.l("part += sv[r] * (float)k[tok * %du + i];", n)
		b.l("}")
		b.l("}")
		b.l("pa[sg * 32u + lane] = part;")
		b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
		b.l("float sk = 0.0f;")
		b.l("for (uint s = 0; s < %du; s++) {", nsg)
		b.l("sk += pa[s * 32u + lane];")
		b.l("}")
		b.l("const float d = col ? ((float)v[tok * %du + j] - sk) * (float)beta[tok] : 0.0f;", n)
		b.l("float opart = 0.0f;")
		b.l("for (uint r = 0; r < %du; r++) {", ri)
		b.l("const uint i = i0 + r;")
		b.l("if (i < %du) {", n)
		b.l("sv[r] = sv[r] + (float)k[tok * %du + i] * d;", n)
		b.l("opart += sv[r] * (float)q[tok * %du + i];", n)
		b.l("}")
		b.l("}")
		b.l("pb[sg * 32u + lane] = opart;")
		b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
		b.l("if (sg == 0 && col) {")
		b.l("float ot = 0.0f;")
		b.l("for (uint s = 0; s < %du; s++) {", nsg)
		b.l("ot += pb[s * 32u + lane];")
		b.l("}")
		b.l("o[tok * %du + j] = (%s)(ot / sqrtn);", n, out.elem.msl())
		b.l("}")
		b.l("}")
		b.l("for (uint r = 0; r < %du; r++) {", ri)
		b.l("const uint i = i0 + r;")
		b.l("if (col && i < %du) {", n)
		b.l("st[sbase + i * %du + j] = (%s)sv[r];", n, st.elem.msl())
		b.l("}")
		b.l("}")
		return nil
	})
	if err != nil {
		return err
	}
	ids, err := r.bind(reads, []*ir.Value{g.Out(), g.State()})
	if err != nil {
		return err
	}
	r.dispatch(k, []*ir.Operation{op}, ids)
	return nil
}

// sqrtInt is float32(√n) as the reference computes it.
func sqrtInt(n int64) float32 { return float32(math.Sqrt(float64(n))) }
