package metal

import (
	"fmt"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// graph.attention: q [B,Sq,H,D], k [B,Sk,Hkv,D], v [B,Sk,Hkv,Dv], every
// mask kind, GQA (query head h reads kv head h/(H/Hkv)), softcap, Dv ≠ D.
// Scores never leave registers: each simdgroup folds its keys with an
// online softmax (running max m, sum l, weighted values o), lanes holding
// D/32 and Dv/32 elements, score dots reduced with simd_sum. Masked keys
// are skipped whole (their k and v rows are never read), and a row that
// keeps no key, or only keys scoring −∞, is zeros, as the reference.
//
// Decode (Sq ≤ attnDecodeMax): flash-decoding, attention_decode.go.
//
// General: one threadgroup per attnQueries queries of a head, one
// simdgroup per query; tiles of keys and values are staged through
// threadgroup memory once for all of them.

const (
	attnDecodeMax = 8
	attnQueries   = 4
	attnTileBytes = 16384
)

type attnShape struct {
	b, sq, h, d, sk, hkv, dv int64
	kind                     graph.MaskKind
	window                   int64
	scale, softcap           float32
	q, k, v, mask, y         tensorInfo
}

func emitAttention(r *regionState, op *ir.Operation) error {
	at, _ := graph.AsAttention(op)
	var s attnShape
	s.q, _ = infoOf(at.Q())
	s.k, _ = infoOf(at.K())
	s.v, _ = infoOf(at.V())
	s.y, _ = infoOf(op.Result(0))
	if s.q.rank() != 4 || s.k.rank() != 4 || s.v.rank() != 4 || !s.q.elem.isFloat() || !s.k.elem.isFloat() || !s.v.elem.isFloat() {
		return ir.OpError(op, "has no Metal kernel for these operand types")
	}
	s.b, s.sq, s.h, s.d = s.q.shape[0], s.q.shape[1], s.q.shape[2], s.q.shape[3]
	s.sk, s.hkv, s.dv = s.k.shape[1], s.k.shape[2], s.v.shape[3]
	s.kind, s.window = at.MaskKind(), at.Window()
	s.scale, s.softcap = float32(at.Scale()), float32(at.Softcap())
	if s.hkv == 0 || s.h%s.hkv != 0 {
		return ir.OpError(op, "q has %d heads, not a multiple of the %d kv heads", s.h, s.hkv)
	}
	reads := []*ir.Value{at.Q(), at.K(), at.V()}
	if m := at.Mask(); m != nil {
		s.mask, _ = infoOf(m)
		reads = append(reads, m)
	}
	if s.y.n == 0 {
		return nil
	}
	key := keyOf(s.q.elem, s.k.elem, s.v.elem, s.y.elem, s.mask.elem, s.q.shape, s.k.shape, s.v.shape, s.mask.shape,
		string(s.kind), s.window, s.scale, s.softcap)
	if s.sq <= attnDecodeMax {
		return emitAttnDecode(r, op, &s, reads, key)
	}
	family := "attention"
	k, err := r.e.kernel(op, family, key, func(b *kb) error {
		b.k.Summary = fmt.Sprintf("%s q%v k%v v%v, mask %s, scale %s, softcap %s", family, s.q.shape, s.k.shape, s.v.shape, s.kind, floatLit(s.scale), floatLit(s.softcap))
		b.buffer("q", s.q, accRead)
		b.buffer("k", s.k, accRead)
		b.buffer("v", s.v, accRead)
		if len(reads) == 4 {
			b.buffer("mask", s.mask, accRead)
		}
		b.buffer("y", s.y, accWrite)
		return attnGeneral(b, &s)
	})
	if err != nil {
		return err
	}
	ids, err := r.bind(reads, []*ir.Value{op.Result(0)})
	if err != nil {
		return err
	}
	r.dispatch(k, []*ir.Operation{op}, ids)
	return nil
}

func ceil32(n int64) int64 { return (n + 31) / 32 }

// attnPrologue declares the query row (lanes hold d = lane + 32·j) and the
// running softmax state; i, h and bb must be defined.
func attnPrologue(b *kb, s *attnShape, qValid string) {
	dj, vj := ceil32(s.d), ceil32(s.dv)
	b.l("const uint hk = h / %du;", s.h/s.hkv)
	b.l("const long absq = %d + (long)i;", s.sk-s.sq)
	b.l("float qv[%d];", dj)
	b.l("for (uint j = 0; j < %du; j++) {", dj)
	b.l("const uint d = lane + 32u * j;")
	b.l("qv[j] = (%s && d < %du) ? (float)q[((bb * %du + i) * %du + h) * %du + d] : 0.0f;", qValid, s.d, s.sq, s.h, s.d)
	b.l("}")
	b.l("float m = -INFINITY;")
	b.l("float l = 0.0f;")
	b.l("float ov[%d];", vj)
	b.l("for (uint j = 0; j < %du; j++) {", vj)
	b.l("ov[j] = 0.0f;")
	b.l("}")
}

// attnKeep is the condition under which query i keeps key j.
func attnKeep(s *attnShape) string {
	switch s.kind {
	case graph.MaskCausal:
		return "(long)j <= absq"
	case graph.MaskSlidingWindow:
		return fmt.Sprintf("(long)j <= absq && (long)j >= absq - %d", s.window)
	case graph.MaskCustom:
		if s.mask.elem.isFloat() {
			return fmt.Sprintf("(float)mask[bb * %du + j] >= 0.5f", s.sk)
		}
		return fmt.Sprintf("mask[bb * %du + j] != 0", s.sk)
	}
	return "true"
}

// attnStep folds key j into (m, l, ov); kf(d) and vf(d) are the
// expressions of k[j][d] and v[j][d]. The caller has checked the mask, so
// the branch is uniform in the simdgroup.
func attnStep(b *kb, s *attnShape, kf, vf func(d string) string) {
	dj, vj := ceil32(s.d), ceil32(s.dv)
	b.l("float dot = 0.0f;")
	b.l("for (uint jj = 0; jj < %du; jj++) {", dj)
	b.l("const uint d = lane + 32u * jj;")
	b.l("if (d < %du) {", s.d)
	b.l("dot += qv[jj] * %s;", kf("d"))
	b.l("}")
	b.l("}")
	b.l("float sc = simd_sum(dot) * %s;", floatLit(s.scale))
	if s.softcap != 0 {
		b.l("sc = %s * tanh(sc / %s);", floatLit(s.softcap), floatLit(s.softcap))
	}
	if s.kind == graph.MaskBias {
		b.l("sc += (float)mask[((bb * %du + h) * %du + i) * %du + j];", s.h, s.sq, s.sk)
	}
	b.l("if (sc != -INFINITY) {")
	b.l("const float mn = fmax(m, sc);")
	b.l("const float corr = exp(m - mn);")
	b.l("const float p = exp(sc - mn);")
	b.l("l = l * corr + p;")
	b.l("for (uint jj = 0; jj < %du; jj++) {", vj)
	b.l("const uint d = lane + 32u * jj;")
	b.l("ov[jj] = ov[jj] * corr + (d < %du ? p * %s : 0.0f);", s.dv, vf("d"))
	b.l("}")
	b.l("m = mn;")
	b.l("}")
}

func attnGeneral(b *kb, s *attnShape) error {
	nq := min(attnQueries, b.e.opts.MaxThreadsPerThreadgroup/SimdWidth)
	bk := max(1, min(32, attnTileBytes/(4*(s.d+s.dv))))
	b.tgmem("float", int(bk*(s.d+s.dv)*4))
	b.launch([3]int{int((s.sq + int64(nq) - 1) / int64(nq)), int(s.h), int(s.b)}, [3]int{nq * SimdWidth, 1, 1}, ResizeFixed)
	b.l("const uint i = tgpos.x * %du + sg;", nq)
	b.l("const uint h = tgpos.y;")
	b.l("const uint bb = tgpos.z;")
	b.l("const bool valid = i < %du;", s.sq)
	attnPrologue(b, s, "valid")
	b.l("threadgroup float *ks = tg;")
	b.l("threadgroup float *vs = tg + %du;", bk*s.d)
	b.l("for (uint j0 = 0; j0 < %du; j0 += %du) {", s.sk, bk)
	b.l("const uint nk = min(%du, %du - j0);", bk, s.sk)
	// All threads stage the tile, whichever queries keep which keys.
	b.l("for (uint e = tpos.x; e < nk * %du; e += tptg.x) {", s.d)
	b.l("const uint jj = e / %du;", s.d)
	b.l("ks[e] = (float)k[((bb * %du + j0 + jj) * %du + hk) * %du + e %% %du];", s.sk, s.hkv, s.d, s.d)
	b.l("}")
	b.l("for (uint e = tpos.x; e < nk * %du; e += tptg.x) {", s.dv)
	b.l("const uint jj = e / %du;", s.dv)
	b.l("vs[e] = (float)v[((bb * %du + j0 + jj) * %du + hk) * %du + e %% %du];", s.sk, s.hkv, s.dv, s.dv)
	b.l("}")
	b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
	b.l("for (uint jt = 0; jt < nk; jt++) {")
	b.l("const uint j = j0 + jt;")
	b.l("if (valid && %s) {", attnKeep(s))
	attnStep(b, s,
		func(d string) string { return fmt.Sprintf("ks[jt * %du + %s]", s.d, d) },
		func(d string) string { return fmt.Sprintf("vs[jt * %du + %s]", s.dv, d) })
	b.l("}")
	b.l("}")
	b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
	b.l("}")
	b.l("if (valid) {")
	b.l("for (uint jj = 0; jj < %du; jj++) {", ceil32(s.dv))
	b.l("const uint d = lane + 32u * jj;")
	b.l("if (d < %du) {", s.dv)
	// A row of only NaN scores keeps m at −∞ (fmax skips a NaN) but
	// makes l NaN: it gives NaN, not a masked row's 0.
	b.l("y[((bb * %du + i) * %du + h) * %du + d] = (%s)(m == -INFINITY && !isnan(l) ? 0.0f : ov[jj] / l);", s.sq, s.h, s.dv, s.y.elem.msl())
	b.l("}")
	b.l("}")
	b.l("}")
	return nil
}
