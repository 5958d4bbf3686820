package metal

import (
	"fmt"
	"strings"

	"github.com/rlx-compiler/rlx/dialect/graph"
)

// Attention decode, tiled: the layout the decode kernel takes where each
// simdgroup has two steps of keys or more (tiledPays; --attention-layout
// forces either).
//
// The per-key layout (attnDecodeBody) lets KL lanes share a key both for
// its score and for its values, so every lane group holds a slice of o
// for each of its heads, and a score costs log2(KL) shuffles a head and
// key. On the H200 that kernel held 191 registers at two heads a
// threadgroup (two warps a scheduler) and waited on its shuffles and
// dependency chains (docs/gpu-check.md, runs 10 and 11). Here a
// simdgroup takes a tile of kpw = 32/KL keys a step in two phases:
//
//   - scores: KL lanes (2 at D = 128) share a key, each holding a slice of
//     the key's row; q of the threadgroup's heads is read from the
//     simdgroup's copy in threadgroup memory (attnTiledQ; each lane group
//     reads the same address: a broadcast), so the scores do not hold q
//     in registers and one threadgroup serves every query head of its
//     KV head, reading each K and V row once (K in 16-byte loads
//     where pairFits); the running max moves only when a score of the
//     tile passes it by more than attnLazyLog2 (one simd_any a step,
//     the tile's max and rescale only then), and the weights p go to
//     the simdgroup's slot of threadgroup memory;
//   - values: every lane holds Dv/32 elements of o for each head and adds
//     p·v for each key of the tile (32 lanes read a V row's contiguous
//     bytes), a key's weights read back as a broadcast.
//
// The steps are software-pipelined: the first step's rows load while q
// is loaded, and each step loads the next step's rows before its own
// arithmetic (the first step stores q after those loads). With q copied
// once a threadgroup behind a threadgroup barrier (until run 17),
// loading the first two steps' rows before that barrier, each step then
// loading the step after next, was slower: 18.0 µs at 8k keys against
// 16.4 (the barrier waited behind twice the rows; run 16). The loop
// takes two steps, the two stages' registers swapping roles, so that no
// row is copied from one stage to the other (on the H200 the copies were
// half-word moves of the CUDA shim's half4; without them a step is 1,170
// SASS instructions instead of 1,293, and 8k and 32k keys took 20.6 and
// 49.8 µs against 20.9 and 50.9, docs/gpu-check.md, run 15). The two
// stages' rows are most of the kernel's registers (174 at D = 128 on the
// H200 in run 15, 201 after run 16, 254 after run 17: two threadgroups a
// multiprocessor each time); pipelining only K took it to 144, three
// threadgroups a multiprocessor, and was no faster at 8k keys at 256,
// 384 or 512 threadgroups (run 14e). Loading a step's V rows from one
// base where all its keys are kept (no per-key test and select) was
// slower: 25.3 and 62.8 µs (run 15).
//
// A simdgroup's lanes meet only in its own slot of threadgroup memory
// (two simdgroup barriers a step); the simdgroups combine at the end as
// in the per-key layout (attnCombine), and so do the ranges
// (attention_merge). Masked keys read a kept row as there (attnSafeRow).

const (
	// attnTiledLaneElems is the most elements of a K row a lane holds
	// when scoring: KL is the least power of two, at least 2, that keeps
	// a lane's slice within it. At D = 128 four lanes a key (32
	// elements, half the registers) was slower than two at every grid
	// on the H200 (docs/gpu-check.md, run 12): its steps are half as
	// long and each pays the tile's max and two barriers.
	attnTiledLaneElems = 64
	// attnTiledORegs is the most floats of o a lane holds for the heads
	// of its threadgroup (Dv/32 a head).
	attnTiledORegs = 32
	// attnQVecs is how many vectors of four of q a lane loads before the
	// first step's rows, to store after them (the rest, where q is
	// longer, are copied after the rows).
	attnQVecs = 4
	// attnLazyLog2 is how far, in log2 units, a score may pass the
	// running max before the max moves: below it a key's weight is at
	// most 2^attnLazyLog2 (256) and o and l keep their scale, so most
	// steps pay one simd_any instead of the tile's max (log2(32/KL)
	// shuffles a head) and the rescale. The weights are relative to any
	// max the sums share, so the result is the same softmax; the
	// combine and the merge scale by the m each range kept.
	attnLazyLog2 = 8.0
)

// planAttnTiled is the tiled layout's launch plan.
func planAttnTiled(s *attnShape, maxThreads int, target int64) attnDecodePlan {
	p := attnDecodePlan{tiled: true}
	p.kl = 2
	for p.kl < SimdWidth && p.kl*attnTiledLaneElems < s.d {
		p.kl *= 2
	}
	p.kpw = SimdWidth / p.kl
	p.vecQ = s.d%4 == 0 && s.k.elem.hasVec4()
	p.pairK = p.vecQ && pairFits(s.d, p.kl, s.k.elem)
	p.vecV = s.dv%4 == 0 && s.v.elem.hasVec4()
	p.nq = attnSliceLen(s.d, p.kl, p.vecQ)
	p.nv = attnSliceLen(s.dv, SimdWidth, p.vecV)
	p.tgStride = 2 + s.dv
	p.nsg = max(1, min(attnSimds, maxThreads/SimdWidth))
	// The heads and simdgroups as with one copy of q; then a copy a
	// simdgroup where it fits.
	p.fit(s, func(hb int64) bool { return hb*p.nv <= attnTiledORegs },
		func(hb int64) int64 { return p.tiledFloats(hb, 1) })
	p.qShared = p.tiledFloats(p.hb, int64(p.nsg))*4 > MaxThreadgroupMemory
	p.split(s, target)
	return p
}

// tiledPays reports whether the tiled layout is the one to take: when
// each simdgroup takes at least two steps of its range, so that the
// pipeline has a step to overlap. On the H200 (GQA 32/8, D = 128;
// docs/gpu-check.md, run 12) it took 32k keys from 63.4 to 51.6 µs and
// 8k from 22.3 to 22.0, and with one step a range (1k keys, 64 keys a
// range) it was slower than the per-key layout (11.5 and, without the
// pipeline, 10.7 µs against 10.0), which has twice the threadgroups.
func (p *attnDecodePlan) tiledPays() bool {
	return p.ks >= 2*int64(p.nsg)*p.kpw
}

// attnSliceLen is how many elements of a dim of n a lane of kl holds
// (attnSlice.n): whole vectors of four, or single elements.
func attnSliceLen(n, kl int64, vec bool) int64 {
	if vec {
		return 4 * ceilDiv(n, 4*kl)
	}
	return ceilDiv(n, kl)
}

// The tiled layout's threadgroup memory, in floats: q of hb heads, padded
// to dq = KL·nq a head (zeros past D), a copy for each simdgroup or, with
// qShared, one for the threadgroup; then each simdgroup's weights, kpw
// keys of hb heads; then each simdgroup's (m, l, o) for attnCombine. The
// heads a threadgroup serves are chosen with one copy (so that the copies
// never cost a plan its heads), and each simdgroup gets its own where
// they fit.
func (p *attnDecodePlan) dq() int64 { return p.kl * p.nq }
func (p *attnDecodePlan) qCopies() int64 {
	if p.qShared {
		return 1
	}
	return int64(p.nsg)
}
func (p *attnDecodePlan) pOff() int64 { return p.qCopies() * p.hb * p.dq() }
func (p *attnDecodePlan) mOff() int64 { return p.pOff() + int64(p.nsg)*p.kpw*p.hb }
func (p *attnDecodePlan) tiledFloats(hb, qCopies int64) int64 {
	return qCopies*hb*p.dq() + int64(p.nsg)*hb*(p.kpw+p.tgStride)
}

func attnTiledBody(b *kb, s *attnShape, p *attnDecodePlan) {
	ks := attnSlice{dim: s.d, kl: p.kl, lane: "kl", vec: p.vecQ, pair: p.pairK, n: p.nq}
	vs := attnSlice{dim: s.dv, kl: SimdWidth, lane: "lane", vec: p.vecV, n: p.nv}
	b.tgmem("float", int(p.tiledFloats(p.hb, p.qCopies())*4))
	attnDecodePrologue(b, s, p)
	safe, kept := attnSafeRow(s)
	row := func(j, keep string, dim int64) string {
		return fmt.Sprintf("((bb * %du + (%s ? %s : %s)) * %du + hk) * %du", s.sk, keep, j, safe, s.hkv, dim)
	}
	// A step's loads: the lane group's K row, then every key's V slice,
	// into registers named with the stage's prefix (jk, keepk, k_, v0_…).
	decl := func(st string) {
		b.l("uint %sjk;", st)
		b.l("bool %skeepk;", st)
		ks.declRaw(b, s.k.elem, st+"k_")
		for t := range p.kpw {
			vs.declRaw(b, s.v.elem, fmt.Sprintf("%sv%d_", st, t))
		}
	}
	load := func(st, jb string) {
		b.l("%sjk = %s + grp;", st, jb)
		b.l("%skeepk = %sjk < jhi && %s;", st, st, attnKeepAt(s, st+"jk"))
		ks.loadRaw(b, "k", s.k.elem, row(st+"jk", st+"keepk", s.d), st+"k_", st+"keepk", false)
		for t := range p.kpw {
			b.l("{")
			b.l("const uint j = %s + %du;", jb, t)
			b.l("const bool keep = j < jhi && %s;", attnKeepAt(s, "j"))
			vs.loadRaw(b, "v", s.v.elem, row("j", "keep", s.dv), fmt.Sprintf("%sv%d_", st, t), "keep", !kept)
			b.l("}")
		}
	}
	// Software-pipelined: the first step's rows load while q is copied,
	// and each step starts by loading the next step's rows (a step past
	// the range loads kept rows, unused). Where a lane's share of q is
	// held in registers (attnTiledQ), the first step stores it after the
	// second step's loads, so that both steps' rows are in flight while
	// q arrives.
	b.l("uint jb = jlo + sg * %du;", p.kpw)
	next := fmt.Sprintf("(jb + nsg * %du)", p.kpw)
	decl("c")
	qStore := attnTiledQ(b, s, p, func() { load("c", "jb") })
	if qStore != nil {
		b.l("bool qdue = true;")
	}
	b.l("threadgroup float *ps = tg + %du + sg * %du;", p.pOff(), p.kpw*p.hb)
	for hh := range p.hb {
		b.l("float m%d = -INFINITY;", hh)
		b.l("float l%d = 0.0f;", hh)
		for e := range p.nv {
			b.l("float o%d_%d = 0.0f;", hh, e)
		}
	}
	// A step: the next step's rows into the registers of stage nxt, then
	// this step's scores and values from those of stage cur. The loop
	// takes two steps, the stages swapping roles, so that no register is
	// copied from one stage to the other.
	step := func(cur, nxt string) {
		b.l("{")
		load(nxt, next)
		// Only the loop's first step can be the first.
		if qStore != nil && cur == "c" {
			b.l("if (qdue) {")
			b.l("qdue = false;")
			qStore()
			b.l("simdgroup_barrier(mem_flags::mem_threadgroup);")
			b.l("}")
		}
		attnTiledStep(b, s, p, ks, vs, cur)
		b.l("jb += nsg * %du;", p.kpw)
		b.l("}")
	}
	decl("n")
	b.l("while (jb < jhi) {")
	step("c", "n")
	b.l("if (jb >= jhi) {")
	b.l("break;")
	b.l("}")
	step("n", "c")
	b.l("}")
	b.l("threadgroup float *ms = tg + %du;", p.mOff())
	attnCombine(b, s, p, "ms", vs, "")
}

// attnTiledQ copies q of the threadgroup's hb heads (contiguous in q) to
// threadgroup memory, qs, as floats, padded to dq a head with zeros;
// loadRows emits the first step's loads. Each simdgroup copies all of q
// to its own region and reads only that, so that a simdgroup barrier,
// not a threadgroup barrier, orders the copy: on the H200 a threadgroup
// barrier after the first step's loads passed 2 to 3 µs into an 8k-key
// decode, about when those rows had arrived (docs/gpu-check.md, run 16),
// and each step's loads then waited for it. With qShared (the copies do
// not fit) the threadgroup copies it once, behind a threadgroup barrier.
//
// Four at a time where the dims allow. With a copy a simdgroup, a lane's
// first attnQVecs vectors load before the rows, into registers, and the
// returned function stores them (the caller puts it, and the simdgroup
// barrier after it, behind the next step's loads); the rest, if any, are
// copied after the rows. On the H200 at 8k and 32k keys (run 17): 15.8
// and 39.9 µs so, 15.8 to 15.9 and 40.1 storing them before the loop,
// 16.0 and 40.0 with one copy a threadgroup. Otherwise (one copy, or q
// element by element) the copy and its barrier come right after the rows,
// a thread's first vector loaded before them, and the function is nil.
func attnTiledQ(b *kb, s *attnShape, p *attnDecodePlan, loadRows func()) func() {
	dq := p.dq()
	n := p.hb * dq
	qrow := fmt.Sprintf("((bb * %du + i) * %du + h0) * %du", s.sq, s.h, s.d)
	// The first element a thread copies, and the threads that copy.
	first, threads, barrier := "lane", fmt.Sprintf("%du", SimdWidth), "simdgroup_barrier"
	if p.qShared {
		first, threads, barrier = "tpos.x", "tptg.x", "threadgroup_barrier"
		b.l("threadgroup float *qs = tg;")
	} else {
		b.l("threadgroup float *qs = tg + sg * %du;", n)
	}
	if !p.vecQ || (s.q.elem != elemF32 && s.q.elem != elemF16) {
		loadRows()
		b.l("for (uint e = %s; e < %du; e += %s) {", first, n, threads)
		b.l("const uint d = e %% %du;", dq)
		b.l("qs[e] = d < %du ? (float)q[%s + (e / %du) * %du + d] : 0.0f;", s.d, qrow, dq, s.d)
		b.l("}")
		b.l("%s(mem_flags::mem_threadgroup);", barrier)
		return nil
	}
	vt := s.q.elem.msl() + "4"
	qAt := func(e string) string {
		return fmt.Sprintf("*((device const %s *)(q + %s + (%s / %du) * %du + %s %% %du))", vt, qrow, e, dq, s.d, e, dq)
	}
	store := func(e, v string) {
		for c, comp := range []string{"x", "y", "z", "w"} {
			b.l("qs[%s + %du] = (float)%s.%s;", e, c, v, comp)
		}
	}
	inDim := func(e string) string { return "" }
	if dq > s.d {
		inDim = func(e string) string { return fmt.Sprintf(" && %s %% %du < %du", e, dq, s.d) }
	}
	// A thread's first u vectors load before the rows, into registers,
	// each whole into a constant first (the CUDA shim assigns vectors
	// element by element: a load assigned straight to qv became four
	// 2-byte loads); at(v) is the thread's v-th vector, step the stride
	// of the rest. With one copy the threadgroup's size is not known here:
	// a thread loads one vector first.
	per := 4 * int64(SimdWidth)
	u := min(ceilDiv(n, per), attnQVecs)
	at := func(v int64) string { return fmt.Sprintf("lane * 4u + %du", v*per) }
	step := fmt.Sprintf("%du", per)
	if p.qShared {
		u, step = 1, "tptg.x * 4u"
		at = func(v int64) string {
			if v == 0 {
				return "tpos.x * 4u"
			}
			return "tpos.x * 4u + " + step
		}
	}
	// rest copies the vectors from e0 on, step apart, after the rows.
	rest := func(e0 string) {
		b.l("for (uint e = %s; e < %du; e += %s) {", e0, n, step)
		b.l("%s t = %s(0.0f);", vt, vt)
		if dq > s.d {
			b.l("if (e %% %du < %du) {", dq, s.d)
			b.l("t = %s;", qAt("e"))
			b.l("}")
		} else {
			b.l("t = %s;", qAt("e"))
		}
		store("e", "t")
		b.l("}")
	}
	for v := range u {
		b.l("%s qv%d = %s(0.0f);", vt, v, vt)
		b.l("{")
		b.l("const uint e = %s;", at(v))
		b.l("if (e < %du%s) {", n, inDim("e"))
		b.l("const %s t = %s;", vt, qAt("e"))
		b.l("qv%d = t;", v)
		b.l("}")
		b.l("}")
	}
	loadRows()
	stores := func() {
		for v := range u {
			b.l("{")
			b.l("const uint e = %s;", at(v))
			b.l("if (e < %du) {", n)
			store("e", fmt.Sprintf("qv%d", v))
			b.l("}")
			b.l("}")
		}
	}
	if p.qShared {
		stores()
		rest(at(1))
		b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
		return nil
	}
	if ceilDiv(n, per) > u {
		rest(at(u))
	}
	return stores
}

// attnTiledStep writes a step's arithmetic on the rows in the registers
// of stage cur: the scores, the tile's max, the weights to the
// simdgroup's slot and the values.
func attnTiledStep(b *kb, s *attnShape, p *attnDecodePlan, ks, vs attnSlice, cur string) {
	dq := p.dq()
	comps := []string{"x", "y", "z", "w"}
	// Scores in log2 units, as in the per-key layout. Each head's dot is
	// four interleaved partial sums (a chain of D/KL/4 dependent
	// multiply-adds, not D/KL), and the heads' steps are emitted side by
	// side, so that their latencies overlap.
	for hh := range p.hb {
		b.l("float sc%d;", hh)
		b.l("{")
		chains := make([][]string, 4)
		if ks.vec {
			for v := range ks.n / 4 {
				b.l("const float4 q%d = *((threadgroup const float4 *)(qs + %du + %s));", v, hh*dq, ks.vecStart(v))
				for c, comp := range comps {
					chains[c] = append(chains[c], fmt.Sprintf("q%d.%s * %s", v, comp, ks.elem(cur+"k_", 4*v+int64(c))))
				}
			}
		} else {
			for e := range ks.n {
				chains[e%4] = append(chains[e%4], fmt.Sprintf("qs[%du + %s] * %s", hh*dq, ks.index(e), ks.elem(cur+"k_", e)))
			}
		}
		var sums []string
		for c, ch := range chains {
			if len(ch) > 0 {
				b.l("const float d%d = %s;", c, strings.Join(ch, " + "))
				sums = append(sums, fmt.Sprintf("d%d", c))
			}
		}
		b.l("sc%d = %s;", hh, pairSum(sums))
		b.l("}")
	}
	for off := p.kl / 2; off >= 1; off /= 2 {
		for hh := range p.hb {
			b.l("sc%d += simd_shuffle_xor(sc%d, %du);", hh, hh, off)
		}
	}
	for hh := range p.hb {
		b.l("sc%d *= %s;", hh, floatLit(s.scale))
		if s.softcap != 0 {
			b.l("sc%d = %s * tanh(sc%d / %s);", hh, floatLit(s.softcap), hh, floatLit(s.softcap))
		}
		if s.kind == graph.MaskBias {
			b.l("if (%skeepk) {", cur)
			b.l("sc%d += (float)mask[((bb * %du + h0 + %du) * %du + i) * %du + %sjk];", hh, s.h, hh, s.sq, s.sk, cur)
			b.l("}")
		}
		b.l("sc%d = %skeepk ? sc%d * 1.44269504f : -INFINITY;", hh, cur, hh)
	}
	// The running max moves only when a score passes it by more than
	// attnLazyLog2 (one vote a step); the tile's max, its shuffles and
	// the rescale run only then.
	grow := make([]string, p.hb)
	for hh := range p.hb {
		grow[hh] = fmt.Sprintf("sc%d > m%d + %s", hh, hh, floatLit(attnLazyLog2))
	}
	b.l("if (simd_any(%s)) {", strings.Join(grow, " || "))
	for hh := range p.hb {
		b.l("float mx%d = sc%d;", hh, hh)
	}
	for off := p.kl; off < SimdWidth; off *= 2 {
		for hh := range p.hb {
			b.l("mx%d = fmax(mx%d, simd_shuffle_xor(mx%d, %du));", hh, hh, hh, off)
		}
	}
	// The tile's max is the simdgroup's, so these branches are uniform.
	for hh := range p.hb {
		b.l("if (mx%d > m%d) {", hh, hh)
		b.l("const float corr = exp2(m%d - mx%d);", hh, hh)
		b.l("l%d *= corr;", hh)
		for e := range p.nv {
			b.l("o%d_%d *= corr;", hh, e)
		}
		b.l("m%d = mx%d;", hh, hh)
		b.l("}")
	}
	b.l("}")
	// Each key's weight once, to the simdgroup's slot.
	for hh := range p.hb {
		b.l("const float pk%d = sc%d == -INFINITY ? 0.0f : exp2(sc%d - m%d);", hh, hh, hh, hh)
	}
	b.l("if (kl == 0u) {")
	for hh := range p.hb {
		b.l("ps[grp * %du + %du] = pk%d;", p.hb, hh, hh)
	}
	b.l("}")
	b.l("simdgroup_barrier(mem_flags::mem_threadgroup);")
	// A key at a time (its weights read once, as a float4 for each four
	// heads), so that one key's weights are live, not the tile's. Every
	// lane adds each key's weight to its l too, so that l needs no
	// shuffles at the end: 16.0 µs at 8k keys against 16.2 to 16.3 with
	// one lane of each key's group adding its own and five shuffles a
	// head after the loop (docs/gpu-check.md, run 16).
	for t := range p.kpw {
		b.l("{")
		pw := func(hh int64) string { return fmt.Sprintf("ps[%du]", t*p.hb+hh) }
		if p.hb%4 == 0 {
			for c := range p.hb / 4 {
				b.l("const float4 p%d = *((threadgroup const float4 *)(ps + %du));", c, t*p.hb+4*c)
			}
			pw = func(hh int64) string { return fmt.Sprintf("p%d.%s", hh/4, comps[hh%4]) }
		}
		for hh := range p.hb {
			b.l("l%d += %s;", hh, pw(hh))
			for e := range p.nv {
				b.l("o%d_%d += %s * %s;", hh, e, pw(hh), vs.elem(fmt.Sprintf("%sv%d_", cur, t), e))
			}
		}
		b.l("}")
	}
	// The slot is written again in the next step.
	b.l("simdgroup_barrier(mem_flags::mem_threadgroup);")
}

// pairSum is the MSL sum of terms added in halves, each half the same
// way: "(a + b) + (c + d)" for four, "(a + b) + c" for three.
func pairSum(terms []string) string {
	if len(terms) == 1 {
		return terms[0]
	}
	h := (len(terms) + 1) / 2
	side := func(t []string) string {
		if len(t) == 1 {
			return t[0]
		}
		return "(" + pairSum(t) + ")"
	}
	return side(terms[:h]) + " + " + side(terms[h:])
}
