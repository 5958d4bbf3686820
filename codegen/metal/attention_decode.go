package metal

import (
	"fmt"
	"strings"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// Attention decode (Sq ≤ attnDecodeMax): flash-decoding. This file holds
// the plan, the per-key layout described here, and what both layouts
// share (the prologue, the simdgroups' combine, the merge); the tiled
// layout is in attention_tiled.go.
//
// A decode step reads the whole KV cache once and does little arithmetic
// per byte, so the kernel is bound by the bytes in flight. One
// threadgroup per query and head walking every key (the first design)
// left an H200 at 1% of its bandwidth: 32 threadgroups, and each key's
// loads waited for the previous key's online-softmax update. So:
//
//   - the keys are split into ranges across threadgroups (splits chosen
//     so that the grid reaches about an eighth of
//     Options.DecodeThreadgroups, each range at least attnMinKeys keys);
//     each range's (max, sum, weighted values) go to a region temporary,
//     and attention_merge combines the ranges, mergeChunk at a time, as
//     ggml's vector kernel and MLX's 2-pass kernel do for long caches;
//   - a threadgroup serves hb query heads that share one KV head (GQA), so
//     their keys and values are read once for all of them;
//   - KL lanes share a key, each holding a slice of D (and of Dv), so a
//     simdgroup scores 32/KL keys a step and each lane group takes
//     attnUnroll keys; a score needs log2(KL) shuffles, and the running
//     max is shared by the whole simdgroup, so the lane groups' sums add
//     up at the end;
//   - the loop is software-pipelined (the next step's K and V rows load
//     while this step's keys are scored), scores are in log2 units for
//     exp2, and the running sums are rescaled only when the max grows;
//   - the simdgroups take steps in turn and merge through threadgroup
//     memory.
//
// A masked key's own row is never read: its lanes load a kept row
// instead (attnSafeRow; cached, and weighted by exactly 0), so that the
// K and V loads need no branch. A range with no key kept contributes
// nothing (max −∞); a row that keeps no key is zeros, as the reference.

const (
	attnMinKeys = 64 // fewest keys per split
	attnUnroll  = 2  // keys a lane group loads before using them
	attnSimds   = 4  // simdgroups per threadgroup
	attnRegs    = 64 // floats of q and o a lane may hold for its heads
	// attnLaneElems is about how many elements of a head dim a lane
	// holds, which sets how many lanes share a key (8 at D = 128).
	attnLaneElems = 16
	// attnGridDiv: attention decode aims for DecodeThreadgroups /
	// attnGridDiv threadgroups (256 by default).
	attnGridDiv = 8
)

// attnDecodePlan is the launch plan of one decode attention.
type attnDecodePlan struct {
	tiled      bool  // the tiled layout (attention_tiled.go)
	kl, kpw    int64 // lanes per key, keys per simdgroup step
	vecQ, vecV bool  // four-wide loads of q and k, of v
	pairK      bool  // the tiled layout's K rows in 16-byte loads (attnSlice.pair)
	qShared    bool  // the tiled layout's q: one copy a threadgroup, not one a simdgroup (attnTiledQ)
	nq, nv     int64 // elements of D and Dv a lane holds
	hb         int64 // query heads per threadgroup
	splits, ks int64 // key ranges, keys per range
	nsg        int
	tgStride   int64 // floats per (simdgroup, head) in threadgroup memory
	headBlocks int64 // H / hb
	partRow    int64 // floats of one row (range, query, head) of the partials
	// fold: the last threadgroup of each (query, head block, batch entry)
	// merges the ranges (fold.go); quads: its partials are float4s, a
	// row (m, l, 0, 0, o…) so that o's quads are aligned.
	fold, quads bool
}

// setFold makes the plan fold its merge, with float4 partials when Dv
// allows.
func (p *attnDecodePlan) setFold(s *attnShape) {
	p.fold = true
	p.quads = s.dv%4 == 0
	if p.quads {
		p.partRow = 4 + s.dv
	}
}

// partVec is the unit of the partials and of the loops over them: four
// elements of Dv as a float4, or one float.
func (p *attnDecodePlan) partVec() (int64, string) {
	if p.quads {
		return 4, "float4"
	}
	return 1, "float"
}

// groups is the number of arrival counters of a folded attention.
func (p *attnDecodePlan) groups(s *attnShape) int64 { return s.b * s.sq * p.headBlocks }

func planAttnDecode(s *attnShape, maxThreads int, target int64) attnDecodePlan {
	var p attnDecodePlan
	// KL: the power of two (at most 32) that leaves about attnLaneElems
	// elements of the larger head dim to each lane.
	p.kl = 1
	for p.kl < 32 && p.kl*attnLaneElems < max(s.d, s.dv) {
		p.kl *= 2
	}
	p.kpw = SimdWidth / p.kl
	// Four-wide loads when the dim allows and the type has vectors.
	p.vecQ = s.d%4 == 0 && s.q.elem.hasVec4() && s.k.elem.hasVec4()
	p.vecV = s.dv%4 == 0 && s.v.elem.hasVec4()
	p.nq, p.nv = attnSliceLen(s.d, p.kl, p.vecQ), attnSliceLen(s.dv, p.kl, p.vecV)
	p.nsg = max(1, min(attnSimds, maxThreads/SimdWidth))
	p.tgStride = 2 + s.dv
	p.fit(s, func(hb int64) bool { return hb*(p.nq+p.nv) <= attnRegs },
		func(hb int64) int64 { return int64(p.nsg) * hb * p.tgStride })
	p.split(s, target)
	return p
}

// fit chooses hb, the most query heads of a KV head a threadgroup serves
// (a divisor of H/Hkv) whose registers fit (regs) and whose threadgroup
// memory, floats(hb) for p.nsg simdgroups, is within the limit; then
// halves the simdgroups until one head's memory is.
func (p *attnDecodePlan) fit(s *attnShape, regs func(hb int64) bool, floats func(hb int64) int64) {
	g := s.h / s.hkv
	p.hb = 1
	for c := g; c >= 1; c-- {
		if g%c == 0 && regs(c) && floats(c)*4 <= MaxThreadgroupMemory {
			p.hb = c
			break
		}
	}
	for p.nsg > 1 && floats(p.hb)*4 > MaxThreadgroupMemory {
		p.nsg /= 2
	}
}

// split sets the head blocks and the key ranges, once hb is chosen: as
// many ranges (each at least attnMinKeys keys) as bring the grid to about
// target threadgroups.
func (p *attnDecodePlan) split(s *attnShape, target int64) {
	p.headBlocks = s.h / p.hb
	base := s.sq * p.headBlocks * s.b
	p.splits = 1
	if base < target {
		p.splits = max(1, min(ceilDiv(target, base), ceilDiv(s.sk, attnMinKeys)))
	}
	// At most as many ranges as a folded merge's weights, hb·(splits + 2)
	// floats, fit in threadgroup memory (attnFoldWeights); the same cap
	// with or without the fold, so that folding changes no plan.
	p.splits = min(p.splits, MaxThreadgroupMemory/4/p.hb-2)
	p.ks = ceilDiv(s.sk, p.splits)
	p.splits = ceilDiv(s.sk, p.ks)
	p.partRow = 2 + s.dv
}

func emitAttnDecode(r *regionState, op *ir.Operation, s *attnShape, reads []*ir.Value, key string) error {
	// Attention's threadgroups hold the state of their heads and the next
	// step's rows (191 registers a thread on an H200 at D = 128, hb = 2,
	// KL = 8, six times a GEMV thread's): they aim for an eighth of the
	// grid, 256 threadgroups by default. On the H200 (docs/gpu-check.md,
	// run 10: 8k and 32k keys, GQA 32/8, D = 128), eight lanes a key and
	// two heads at 256 threadgroups (22.3 and 63.1 µs) beat the same at 512
	// (27.6, 70.8) and 1024, one head at 512 (22.4, 66.7: as fast at 8k,
	// 6% slower at 32k), 256 and 1024, sixteen lanes a key and two heads at
	// 512 (23.9, 70.3), 256 and 1024, and sixteen lanes with four heads
	// (154 registers) at 256 to 1024; runs 3, 5 and 6 measured the designs
	// before it.
	target := max(1, int64(r.e.opts.DecodeThreadgroups)/attnGridDiv)
	p := planAttnTiled(s, r.e.opts.MaxThreadsPerThreadgroup, target)
	if l := r.e.opts.AttentionLayout; l == "per-key" || l == "auto" && !p.tiledPays() {
		p = planAttnDecode(s, r.e.opts.MaxThreadsPerThreadgroup, target)
	}
	if p.splits > 1 && r.e.opts.foldsMerges() {
		p.setFold(s)
	}
	part := tensorInfo{elem: elemF32, shape: []int64{p.splits, s.b, s.sq, s.h, p.partRow}, n: p.splits * s.b * s.sq * s.h * p.partRow}
	k, err := r.e.kernel(op, "attention_decode", key, func(b *kb) error {
		b.k.Summary = fmt.Sprintf("attention_decode q%v k%v v%v, mask %s, scale %s, softcap %s",
			s.q.shape, s.k.shape, s.v.shape, s.kind, floatLit(s.scale), floatLit(s.softcap))
		if p.splits > 1 {
			b.k.Summary += fmt.Sprintf(", keys in %d ranges of %d", p.splits, p.ks)
		}
		if p.tiled {
			b.k.Summary += ", tiled"
		}
		if p.fold {
			b.k.Summary += ", merge folded"
		}
		b.buffer("q", s.q, accRead)
		b.buffer("k", s.k, accRead)
		b.buffer("v", s.v, accRead)
		if len(reads) == 4 {
			b.buffer("mask", s.mask, accRead)
		}
		switch {
		case p.fold:
			_, vt := p.partVec()
			b.coherentBuffer("part", part, vt)
			b.buffer("y", s.y, accWrite)
			b.arrive(p.groups(s))
		case p.splits > 1:
			b.buffer("part", part, accWrite)
		default:
			b.buffer("y", s.y, accWrite)
		}
		if p.tiled {
			attnTiledBody(b, s, &p)
		} else {
			attnDecodeBody(b, s, &p)
		}
		if p.fold {
			attnFold(b, s, &p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if p.splits == 1 {
		ids, err := r.bind(reads, []*ir.Value{op.Result(0)})
		if err != nil {
			return err
		}
		r.dispatch(k, []*ir.Operation{op}, ids)
		return nil
	}
	ids, err := r.bind(reads, nil)
	if err != nil {
		return err
	}
	tmp := r.temp(part)
	out, err := r.bind(nil, []*ir.Value{op.Result(0)})
	if err != nil {
		return err
	}
	if p.fold {
		r.dispatch(k, []*ir.Operation{op}, append(append(ids, tmp), out[0], r.arrivals(p.groups(s))))
		return nil
	}
	merge, err := r.e.kernel(op, "attention_merge", keyOf(s.y.elem, s.y.shape, p.splits), func(b *kb) error {
		b.k.Summary = fmt.Sprintf("attention_merge: %d key ranges into y%v", p.splits, s.y.shape)
		b.buffer("part", part, accRead)
		b.buffer("y", s.y, accWrite)
		attnMergeBody(b, s, &p)
		return nil
	})
	if err != nil {
		return err
	}
	r.dispatch(k, []*ir.Operation{op}, append(ids, tmp))
	r.dispatch(merge, []*ir.Operation{op}, append([]int{tmp}, out...))
	return nil
}

// attnSlice describes the elements of a head dim that lane l (the MSL
// variable named by lane) of KL holds: with vectors, element e of the
// lane is 4·l + 4·KL·(e/4) + e%4; without, l + KL·e.
type attnSlice struct {
	dim, kl int64
	lane    string
	vec     bool
	// pair: the lane's vectors are adjacent two by two (8 elements of a
	// 2-byte type), each pair one 16-byte load; the dim is whole pairs
	// of every lane (pairFits).
	pair bool
	n    int64 // elements per lane
}

// run is how many of a lane's elements are adjacent in the row: 4 for
// vectors, 8 for pairs of them, 1 for scalars.
func (a attnSlice) run() int64 {
	switch {
	case a.pair:
		return 8
	case a.vec:
		return 4
	}
	return 1
}

// pairFits reports whether a slice of dim over kl lanes can load its
// vectors in pairs: 2-byte elements, the dim whole pairs of every lane.
func pairFits(dim, kl int64, et elem) bool { return et.size() == 2 && dim%(8*kl) == 0 }

// vecStart is the first dim index of the lane's vector v.
func (a attnSlice) vecStart(v int64) string { return a.index(4 * v) }

// full reports whether every lane's vector v is inside the dim.
func (a attnSlice) full(v int64) bool {
	r := a.run()
	return r*a.kl*(4*v/r+1) <= a.dim
}

// load writes the loads of a lane's slice of row (an element offset
// expression) of buf into floats name0…; out-of-range elements are 0.
// cond, when not empty, guards every load.
func (a attnSlice) load(b *kb, buf string, et elem, row, name, cond string) {
	comps := []string{"x", "y", "z", "w"}
	for e := range a.n {
		b.l("float %s%d = 0.0f;", name, e)
	}
	if a.vec {
		vt := et.msl() + "4"
		for v := range a.n / 4 {
			c := cond
			if !a.full(v) {
				c = joinCond(c, fmt.Sprintf("%s < %du", a.vecStart(v), a.dim))
			}
			if c != "" {
				b.l("if (%s) {", c)
			} else {
				b.l("{")
			}
			b.l("const %s t = *((device const %s *)(%s + %s + %s));", vt, vt, buf, row, a.vecStart(v))
			for i, comp := range comps {
				b.l("%s%d = (float)t.%s;", name, 4*v+int64(i), comp)
			}
			b.l("}")
		}
		return
	}
	for e := range a.n {
		c := a.elemCond(cond, e)
		if c != "" {
			b.l("if (%s) {", c)
			b.l("%s%d = (float)%s[%s + %s + %du];", name, e, buf, row, a.lane, a.kl*e)
			b.l("}")
		} else {
			b.l("%s%d = (float)%s[%s + %s + %du];", name, e, buf, row, a.lane, a.kl*e)
		}
	}
}

// declRaw declares the registers of a lane's slice in the storage type:
// vectors name0… of four, or scalars name0….
func (a attnSlice) declRaw(b *kb, et elem, name string) {
	if a.vec {
		for v := range a.n / 4 {
			b.l("%s4 %s%d;", et.msl(), name, v)
		}
		return
	}
	for e := range a.n {
		b.l("%s %s%d;", et.msl(), name, e)
	}
}

// loadRaw loads a lane's slice of row (an element offset expression) of
// buf into the registers declRaw declared. keep is the key's condition.
// When guard is false, row names a row inside buf even for a masked key
// (the caller points it at a kept row), and full vectors load without a
// branch; otherwise, and for vectors that reach past the dim and scalar
// slices, elements load only when keep holds and they exist, and are 0
// otherwise, never left undefined (a masked key's weight is 0, and 0
// times a non-finite value would not be).
//
// A branch around each load (the first form, with the load assigned to
// the register inside it) was 1.36 and 1.48 times slower on the H200 at
// 8k and 32k keys once the loads were vectors (docs/gpu-check.md, run
// 10); the CUDA shim assigns vectors element by element, so the load
// initialises a constant first, or it becomes four 2-byte loads.
func (a attnSlice) loadRaw(b *kb, buf string, et elem, row, name, keep string, guard bool) {
	zero := "(" + et.msl() + ")0.0f"
	if a.pair {
		if guard {
			panic("attnSlice: a guarded load of pairs")
		}
		vt := et.msl() + "4"
		for v := int64(0); v < a.n/4; v += 2 {
			b.l("{")
			b.l("const uint4 t = *((device const uint4 *)(%s + %s + %s));", buf, row, a.vecStart(v))
			b.l("%s%d = as_type<%s>(t.xy);", name, v, vt)
			b.l("%s%d = as_type<%s>(t.zw);", name, v+1, vt)
			b.l("}")
		}
		return
	}
	if a.vec {
		vt := et.msl() + "4"
		for v := range a.n / 4 {
			if a.full(v) && !guard {
				b.l("{")
				b.l("const %s t = *((device const %s *)(%s + %s + %s));", vt, vt, buf, row, a.vecStart(v))
				b.l("%s%d = t;", name, v)
				b.l("}")
				continue
			}
			c := keep
			if !a.full(v) {
				c = joinCond(c, fmt.Sprintf("%s < %du", a.vecStart(v), a.dim))
			}
			b.l("if (%s) {", c)
			b.l("const %s t = *((device const %s *)(%s + %s + %s));", vt, vt, buf, row, a.vecStart(v))
			b.l("%s%d = t;", name, v)
			b.l("} else {")
			for i := range 4 {
				b.l("%s%d[%d] = %s;", name, v, i, zero)
			}
			b.l("}")
		}
		return
	}
	for e := range a.n {
		b.l("%s%d = (%s) ? %s[%s + %s + %du] : %s;", name, e, a.elemCond(keep, e), buf, row, a.lane, a.kl*e, zero)
	}
}

// mayExceed reports whether element e of some lane may lie past the dim.
func (a attnSlice) mayExceed(e int64) bool {
	if a.vec {
		return !a.full(e / 4)
	}
	return a.kl*(e+1) > a.dim
}

// elemCond is cond joined with the bound check of a lane's scalar element
// e, where the last lanes' elements may lie past the dim.
func (a attnSlice) elemCond(cond string, e int64) string {
	if a.mayExceed(e) {
		return joinCond(cond, fmt.Sprintf("%s + %du < %du", a.lane, a.kl*e, a.dim))
	}
	return cond
}

// copyRaw copies the registers of slice src to dst.
func (a attnSlice) copyRaw(b *kb, dst, src string) {
	n := a.n
	if a.vec {
		n = a.n / 4
	}
	for i := range n {
		b.l("%s%d = %s%d;", dst, i, src, i)
	}
}

// elem is element e of the raw slice name, as a float.
func (a attnSlice) elem(name string, e int64) string {
	if a.vec {
		return fmt.Sprintf("(float)%s%d.%s", name, e/4, []string{"x", "y", "z", "w"}[e%4])
	}
	return fmt.Sprintf("(float)%s%d", name, e)
}

// index is the dim index of the lane's element e.
func (a attnSlice) index(e int64) string {
	if r := a.run(); r > 1 {
		return fmt.Sprintf("%s * %du + %du", a.lane, r, r*a.kl*(e/r)+e%r)
	}
	return fmt.Sprintf("%s + %du", a.lane, a.kl*e)
}

func joinCond(a, b string) string {
	if a == "" {
		return b
	}
	return a + " && " + b
}

func attnDecodeBody(b *kb, s *attnShape, p *attnDecodePlan) {
	qs := attnSlice{dim: s.d, kl: p.kl, lane: "kl", vec: p.vecQ, n: p.nq}
	vs := attnSlice{dim: s.dv, kl: p.kl, lane: "kl", vec: p.vecV, n: p.nv}
	step := p.kpw * attnUnroll
	b.tgmem("float", int(int64(p.nsg)*p.hb*p.tgStride*4))
	attnDecodePrologue(b, s, p)
	for hh := range p.hb {
		qs.load(b, "q", s.q.elem, fmt.Sprintf("((bb * %du + i) * %du + h0 + %du) * %du", s.sq, s.h, hh, s.d), fmt.Sprintf("q%d_", hh), "")
		b.l("float m%d = -INFINITY;", hh)
		b.l("float l%d = 0.0f;", hh)
		for e := range p.nv {
			b.l("float o%d_%d = 0.0f;", hh, e)
		}
	}
	// The loop is software-pipelined: the K and V rows of the next step
	// are loaded (raw, converted at use) before this step's keys are
	// scored, so their loads are in flight during the arithmetic.
	key := func(j, keep, first string) {
		for u := range int64(attnUnroll) {
			b.l("%s%d = %s + grp + %du;", j, u, first, u*p.kpw)
			b.l("%s%d = %s%d < jhi && %s;", keep, u, j, u, attnKeepAt(s, fmt.Sprintf("%s%d", j, u)))
		}
	}
	// A masked key reads a kept row of its batch and head (in bounds, and
	// cached), not its own.
	safe, kept := attnSafeRow(s)
	rows := func(stage, j, keep string) {
		for u := range int64(attnUnroll) {
			kr := fmt.Sprintf("((bb * %du + (%s%d ? %s%d : %s)) * %du + hk)", s.sk, keep, u, j, u, safe, s.hkv)
			k := fmt.Sprintf("%s%d", keep, u)
			qs.loadRaw(b, "k", s.k.elem, kr+fmt.Sprintf(" * %du", s.d), fmt.Sprintf("%sk%d_", stage, u), k, false)
			vs.loadRaw(b, "v", s.v.elem, kr+fmt.Sprintf(" * %du", s.dv), fmt.Sprintf("%sv%d_", stage, u), k, !kept)
		}
	}
	decl := func(stage, j, keep string) {
		for u := range int64(attnUnroll) {
			b.l("uint %s%d;", j, u)
			b.l("bool %s%d;", keep, u)
			qs.declRaw(b, s.k.elem, fmt.Sprintf("%sk%d_", stage, u))
			vs.declRaw(b, s.v.elem, fmt.Sprintf("%sv%d_", stage, u))
		}
	}
	b.l("uint jb = jlo + sg * %du;", step)
	decl("c", "j", "keep")
	key("j", "keep", "jb")
	rows("c", "j", "keep")
	b.l("for (; jb < jhi; jb += nsg * %du) {", step)
	b.l("const uint jn = jb + nsg * %du;", step)
	decl("n", "jn", "keepn")
	key("jn", "keepn", "jn")
	rows("n", "jn", "keepn")
	// Scores are kept in log2 units (exp2 is cheaper than exp): the
	// running max m, the scores s and the partial maxima are all scaled by
	// log2(e).
	for hh := range p.hb {
		b.l("{")
		for u := range int64(attnUnroll) {
			terms := make([]string, p.nq)
			for e := range p.nq {
				terms[e] = fmt.Sprintf("q%d_%d * %s", hh, e, qs.elem(fmt.Sprintf("ck%d_", u), e))
			}
			b.l("float s%d = %s;", u, strings.Join(terms, " + "))
			for off := p.kl / 2; off >= 1; off /= 2 {
				b.l("s%d += simd_shuffle_xor(s%d, %du);", u, u, off)
			}
			b.l("s%d *= %s;", u, floatLit(s.scale))
			if s.softcap != 0 {
				b.l("s%d = %s * tanh(s%d / %s);", u, floatLit(s.softcap), u, floatLit(s.softcap))
			}
			if s.kind == graph.MaskBias {
				b.l("if (keep%d) {", u)
				b.l("s%d += (float)mask[((bb * %du + h0 + %du) * %du + i) * %du + j%d];", u, s.h, hh, s.sq, s.sk, u)
				b.l("}")
			}
			b.l("s%d = keep%d ? s%d * 1.44269504f : -INFINITY;", u, u, u)
		}
		mx := "s0"
		for u := 1; u < attnUnroll; u++ {
			mx = fmt.Sprintf("fmax(%s, s%d)", mx, u)
		}
		b.l("float mx = %s;", mx)
		for off := p.kl; off < SimdWidth; off *= 2 {
			b.l("mx = fmax(mx, simd_shuffle_xor(mx, %du));", off)
		}
		// The max is the simdgroup's, so this branch is uniform; it is
		// rarely taken once the first keys are in.
		b.l("if (mx > m%d) {", hh)
		b.l("const float corr = exp2(m%d - mx);", hh)
		b.l("l%d *= corr;", hh)
		for e := range p.nv {
			b.l("o%d_%d *= corr;", hh, e)
		}
		b.l("m%d = mx;", hh)
		b.l("}")
		var psum []string
		for u := range int64(attnUnroll) {
			b.l("const float p%d = s%d == -INFINITY ? 0.0f : exp2(s%d - m%d);", u, u, u, hh)
			psum = append(psum, fmt.Sprintf("p%d", u))
		}
		b.l("l%d += %s;", hh, strings.Join(psum, " + "))
		for e := range p.nv {
			t := fmt.Sprintf("o%d_%d", hh, e)
			for u := range int64(attnUnroll) {
				t += fmt.Sprintf(" + p%d * %s", u, vs.elem(fmt.Sprintf("cv%d_", u), e))
			}
			b.l("o%d_%d = %s;", hh, e, t)
		}
		b.l("}")
	}
	for u := range int64(attnUnroll) {
		b.l("j%d = jn%d;", u, u)
		b.l("keep%d = keepn%d;", u, u)
		qs.copyRaw(b, fmt.Sprintf("ck%d_", u), fmt.Sprintf("nk%d_", u))
		vs.copyRaw(b, fmt.Sprintf("cv%d_", u), fmt.Sprintf("nv%d_", u))
	}
	b.l("}")
	// The lane groups of a simdgroup share the running max, so their sums
	// add; then the simdgroups meet in threadgroup memory:
	// tg[(sg * hb + hh) * stride] = m, +1 = l, +2.. = o.
	for hh := range p.hb {
		for off := p.kl; off < SimdWidth; off *= 2 {
			b.l("l%d += simd_shuffle_xor(l%d, %du);", hh, hh, off)
			for e := range p.nv {
				b.l("o%d_%d += simd_shuffle_xor(o%d_%d, %du);", hh, e, hh, e, off)
			}
		}
	}
	attnCombine(b, s, p, "tg", vs, "grp == 0")
}

// attnDecodePrologue starts a decode kernel: the threadgroup's key range
// [jlo, jhi), query i, first head h0 and KV head hk; a lane's key group
// grp and its place kl in it; absq, the query's absolute position.
func attnDecodePrologue(b *kb, s *attnShape, p *attnDecodePlan) {
	// The grid's x is the (query, head block): the threadgroups that
	// start together, neighbours in the dispatch order, read the same
	// keys' rows of neighbouring KV heads. With the key range in x, on
	// the H200 1k, 8k and 32k keys took 8.99, 15.87 and 40.2 µs against
	// 8.90, 15.70 and 40.05 (docs/gpu-check.md, run 22b, the order made
	// by a remap in the kernel; the same with the axes swapped, 22c).
	b.launch([3]int{int(s.sq * p.headBlocks), int(p.splits), int(s.b)}, [3]int{p.nsg * SimdWidth, 1, 1}, ResizeRows)
	b.l("const uint split = tgpos.y;")
	b.l("const uint i = tgpos.x / %du;", p.headBlocks)
	b.l("const uint h0 = (tgpos.x %% %du) * %du;", p.headBlocks, p.hb)
	b.l("const uint bb = tgpos.z;")
	b.l("const uint hk = h0 / %du;", s.h/s.hkv)
	b.l("const uint nsg = tptg.x / 32u;")
	b.l("const uint grp = lane / %du;", p.kl)
	b.l("const uint kl = lane %% %du;", p.kl)
	b.l("const long absq = %d + (long)i;", s.sk-s.sq)
	b.l("const uint jlo = split * %du;", p.ks)
	b.l("const uint jhi = min(jlo + %du, %du);", p.ks, s.sk)
}

// attnCombine ends a decode kernel: every simdgroup puts its (m, l, o)
// for each head at ms[(sg·hb + hh)·tgStride] (ms names the region of
// threadgroup memory; lane 0 writes m and l, the lanes where oCond holds
// their slice vs of o), then the threadgroup combines them and writes
// its range's partial, or y when there is one range.
func attnCombine(b *kb, s *attnShape, p *attnDecodePlan, ms string, vs attnSlice, oCond string) {
	for hh := range p.hb {
		b.l("{")
		b.l("threadgroup float *mine = %s + (sg * %du + %du) * %du;", ms, p.hb, hh, p.tgStride)
		b.l("if (lane == 0) {")
		// A NaN score (NaN keys or q) leaves l NaN but skips fmax, so
		// the max could stay at −∞, which the combine and the merges take
		// for a fully masked range (weight 0, output 0): a max of +∞
		// makes every weight of it exp2(+∞ − +∞), NaN, so the NaN reaches
		// y as the reference's does (random function 7255).
		b.l("mine[0] = isnan(l%d) ? INFINITY : m%d;", hh, hh)
		b.l("mine[1] = l%d;", hh)
		b.l("}")
		if oCond != "" {
			b.l("if (%s) {", oCond)
		}
		for e := range p.nv {
			idx := vs.index(e)
			if vs.mayExceed(e) {
				b.l("if (%s < %du) {", idx, s.dv)
				b.l("mine[2u + %s] = o%d_%d;", idx, hh, e)
				b.l("}")
			} else {
				b.l("mine[2u + %s] = o%d_%d;", idx, hh, e)
			}
		}
		if oCond != "" {
			b.l("}")
		}
		b.l("}")
	}
	b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
	// A thread combines one element of Dv of one head, or four with
	// float4 partials.
	unit, ot := p.partVec()
	attnDvLoop(b, s, p, unit)
	b.l("float gm = -INFINITY;")
	b.l("for (uint g = 0; g < nsg; g++) {")
	b.l("gm = fmax(gm, %s[(g * %du + hh) * %du]);", ms, p.hb, p.tgStride)
	b.l("}")
	b.l("float gl = 0.0f;")
	b.l("%s o = 0.0f;", ot)
	b.l("for (uint g = 0; g < nsg; g++) {")
	b.l("threadgroup float *t = %s + (g * %du + hh) * %du;", ms, p.hb, p.tgStride)
	b.l("if (t[0] != -INFINITY) {")
	b.l("const float c = exp2(t[0] - gm);")
	b.l("gl += t[1] * c;")
	if unit == 1 {
		b.l("o += t[2u + d] * c;")
	} else {
		for c, comp := range []string{"x", "y", "z", "w"} {
			b.l("o.%s += t[%du + d] * c;", comp, 2+c)
		}
	}
	b.l("}")
	b.l("}")
	b.l("const uint h = h0 + hh;")
	switch {
	case p.quads:
		// The row (m, l, 0, 0, o…) as float4s; a coherent(device) buffer
		// is indexed, not pointed into.
		b.l("const uint pr = (((split * %du + bb) * %du + i) * %du + h) * %du;", s.b, s.sq, s.h, p.partRow/4)
		b.l("if (d == 0) {")
		b.l("float4 ml = 0.0f;")
		b.l("ml.x = gm;")
		b.l("ml.y = gl;")
		b.l("part[pr] = ml;")
		b.l("}")
		b.l("part[pr + 1u + d / 4u] = o;")
	case p.fold:
		b.l("const uint pr = (((split * %du + bb) * %du + i) * %du + h) * %du;", s.b, s.sq, s.h, p.partRow)
		b.l("if (d == 0) {")
		b.l("part[pr] = gm;")
		b.l("part[pr + 1u] = gl;")
		b.l("}")
		b.l("part[pr + 2u + d] = o;")
	case p.splits > 1:
		b.l("device float *pr = part + (((split * %du + bb) * %du + i) * %du + h) * %du;", s.b, s.sq, s.h, p.partRow)
		b.l("if (d == 0) {")
		b.l("pr[0] = gm;")
		b.l("pr[1] = gl;")
		b.l("}")
		b.l("pr[2u + d] = o;")
	default:
		b.l("y[((bb * %du + i) * %du + h) * %du + d] = (%s)(gm == -INFINITY ? 0.0f : o / gl);", s.sq, s.h, s.dv, s.y.elem.msl())
	}
	b.l("}")
}

// attnMergeBody combines the key ranges: one thread per result element,
// the ranges in order.
func attnMergeBody(b *kb, s *attnShape, p *attnDecodePlan) {
	total := s.b * s.sq * s.h * s.dv
	rows := s.b * s.sq * s.h
	b.launchThreads(total, min(mergeThreads, b.e.opts.MaxThreadsPerThreadgroup))
	b.l("const uint t = tgpos.x * tptg.x + tpos.x;")
	b.l("if (t < %du) {", total)
	b.l("const uint row = t / %du;", s.dv)
	b.l("const uint d = t %% %du;", s.dv)
	// One pass over the ranges, mergeChunk at a time (their loads before
	// their use), with a running max as in the kernel itself.
	attnMergeRanges(b, p.splits, mergeChunk, "float", func(i int64, first string) {
		b.l("device const float *pr%d = part + ((%s + %du) * %du + row) * %du;", i, first, i, rows, p.partRow)
		b.l("const float m%d = pr%d[0];", i, i)
		b.l("const float l%d = pr%d[1];", i, i)
		b.l("const float o%d = pr%d[2u + d];", i, i)
	})
	b.l("y[t] = (%s)(gm == -INFINITY ? 0.0f : o / gl);", s.y.elem.msl())
	b.l("}")
}

// attnMergeRanges emits the merge of splits key ranges into gm, gl and o
// (of MSL type ot: float, or float4 for four elements of Dv): chunk
// ranges at a time, load(i, first) declaring range first+i's m<i>, l<i>
// and o<i> before any is used, with a running max as in the kernel.
func attnMergeRanges(b *kb, splits, chunk int64, ot string, load func(i int64, first string)) {
	b.l("float gm = -INFINITY;")
	b.l("float gl = 0.0f;")
	b.l("%s o = 0.0f;", ot)
	chunks(b, splits, chunk, func(first string, k int64) {
		for i := range k {
			load(i, first)
		}
		mx := "gm"
		for i := range k {
			mx = fmt.Sprintf("fmax(%s, m%d)", mx, i)
		}
		b.l("const float nm = %s;", mx)
		b.l("if (nm != -INFINITY) {")
		b.l("const float sc = gm == nm ? 1.0f : exp2(gm - nm);")
		b.l("gl *= sc;")
		b.l("o *= sc;")
		for i := range k {
			b.l("if (m%d != -INFINITY) {", i)
			b.l("const float c = exp2(m%d - nm);", i)
			b.l("gl += l%d * c;", i)
			b.l("o += o%d * c;", i)
			b.l("}")
		}
		b.l("gm = nm;")
		b.l("}")
	})
}

// attnDvLoop opens the loop of a threadgroup's threads over the elements
// of Dv of its hb heads, unit at a time: head hh, first element d.
func attnDvLoop(b *kb, s *attnShape, p *attnDecodePlan, unit int64) {
	b.l("for (uint e = tpos.x; e < %du; e += tptg.x) {", p.hb*s.dv/unit)
	attnDvIndex(b, s, unit)
}

// attnDvIndex declares the head hh and the first element d of Dv of the
// threadgroup's element e.
func attnDvIndex(b *kb, s *attnShape, unit int64) {
	b.l("const uint hh = e / %du;", s.dv/unit)
	if unit == 1 {
		b.l("const uint d = e %% %du;", s.dv)
	} else {
		b.l("const uint d = (e %% %du) * %du;", s.dv/unit, unit)
	}
}

// attnFoldChunk is how many ranges' o a folded merge thread loads
// before using any.
const attnFoldChunk = 32

// attnFold ends a folded attention decode: the last range of each
// (query, head block, batch entry) merges the group's ranges in two
// passes: attnFoldWeights, then a thread an element of Dv (four with
// float4 partials) of one head adds w·o over the ranges.
func attnFold(b *kb, s *attnShape, p *attnDecodePlan) {
	group := fmt.Sprintf("bb * %du + tgpos.x", s.sq*p.headBlocks)
	foldArrive(b, group, p.splits)
	unit, ot := p.partVec()
	rows := s.b * s.sq * s.h
	// Where range r's row for head row starts, in part's units.
	rowAt := func(r string) string {
		if p.quads {
			q := p.partRow / 4
			return fmt.Sprintf("%s * %du + row * %du", r, rows*q, q)
		}
		return fmt.Sprintf("(%s * %du + row) * %du", r, rows, p.partRow)
	}
	stride := p.splits + 2
	n := p.hb * s.dv / unit
	oAt := func(r string) string {
		if p.quads {
			return fmt.Sprintf("part[%s + 1u + d / 4u]", rowAt(r))
		}
		return fmt.Sprintf("part[%s + 2u + d]", rowAt(r))
	}
	// Where the ranges are one chunk, a thread's first element's o rows
	// load during the first pass, into po<r>, right after its simdgroup's
	// loads of m and l (first, below; after the pass in a simdgroup with
	// no head), so that the weights do not wait behind them; later
	// elements of the thread load theirs in the loop. Loaded before the
	// first pass (until run 17), 8k and 32k keys took 16.0 and 41.5 µs on
	// the H200 against 15.9 and 40.4 (docs/gpu-check.md, run 17).
	early := p.splits <= attnFoldChunk
	// loadO loads every range's o of element (hh, d) into po<r>, each
	// whole into a constant first (the CUDA shim assigns vectors element
	// by element).
	loadO := func() {
		for r := range p.splits {
			b.l("const %s t%d = %s;", ot, r, oAt(fmt.Sprintf("%du", r)))
		}
		for r := range p.splits {
			b.l("po%d = t%d;", r, r)
		}
	}
	var first func()
	if early {
		for r := range p.splits {
			b.l("%s po%d;", ot, r)
		}
		first = func() {
			b.l("if (tpos.x < %du) {", n)
			b.l("const uint e = tpos.x;")
			attnDvIndex(b, s, unit)
			b.l("const uint row = (bb * %du + i) * %du + h0 + hh;", s.sq, s.h)
			loadO()
			b.l("}")
		}
	}
	attnFoldWeights(b, s, p, rowAt, first)
	attnDvLoop(b, s, p, unit)
	b.l("const uint row = (bb * %du + i) * %du + h0 + hh;", s.sq, s.h)
	b.l("threadgroup const float *wr = tg + hh * %du;", stride)
	b.l("const float gm = wr[0];")
	b.l("const float gl = wr[1];")
	b.l("%s o = 0.0f;", ot)
	if early {
		b.l("if (e != tpos.x) {")
		loadO()
		b.l("}")
		for r := range p.splits {
			b.l("o += wr[%du] * po%d;", 2+r, r)
		}
	} else {
		chunks(b, p.splits, attnFoldChunk, func(first string, k int64) {
			for i := range k {
				b.l("const %s o%d = %s;", ot, i, oAt(addExpr(first, fmt.Sprintf("%du", i))))
			}
			for i := range k {
				b.l("o += wr[2u + %s] * o%d;", addExpr(first, fmt.Sprintf("%du", i)), i)
			}
		})
	}
	b.l("device %s *yr = y + row * %du + d;", s.y.elem.msl(), s.dv)
	if p.quads {
		for c, comp := range []string{"x", "y", "z", "w"} {
			b.l("yr[%d] = (%s)(gm == -INFINITY ? 0.0f : o.%s / gl);", c, s.y.elem.msl(), comp)
		}
	} else {
		b.l("yr[0] = (%s)(gm == -INFINITY ? 0.0f : o / gl);", s.y.elem.msl())
	}
	b.l("}")
	foldDone(b, group)
}

// attnFoldWeights is the folded merge's first pass: a simdgroup a head
// (of the threadgroup's hb), a lane a range (and every 32nd after it),
// the ranges' maxima meeting in simd_max and their sums in simd_sum. It
// leaves, at tg + hh·(splits + 2), the head's max gm, its sum gl of
// l·w, and each range's weight w = exp2(m − gm) (0 for a range that
// kept no key), so that the second pass only adds w·o: its loads of o
// wait on nothing, and no rescale waits on the one before. On the H200
// the serial merge of 32 ranges took 4.1 µs of an 8k-key attention
// decode's 20.3 (docs/gpu-check.md, run 16). first, where not nil,
// emits code that each thread runs once, after its simdgroup's loads of
// m and l (in the loop's first pass, or after the loop in a simdgroup
// that has no head).
func attnFoldWeights(b *kb, s *attnShape, p *attnDecodePlan, rowAt func(r string) string, first func()) {
	stride := p.splits + 2
	if need := int(p.hb * stride * 4); need > b.k.ThreadgroupMemory {
		b.tgmem("float", need)
	}
	per := ceilDiv(p.splits, SimdWidth)
	b.l("for (uint hh = sg; hh < %du; hh += nsg) {", p.hb)
	b.l("const uint row = (bb * %du + i) * %du + h0 + hh;", s.sq, s.h)
	b.l("threadgroup float *wr = tg + hh * %du;", stride)
	for k := range per {
		r := "lane"
		if k > 0 {
			r = fmt.Sprintf("lane + %du", k*SimdWidth)
		}
		b.l("const uint r%d = %s;", k, r)
		b.l("float m%d = -INFINITY;", k)
		b.l("float l%d = 0.0f;", k)
		b.l("if (r%d < %du) {", k, p.splits)
		if p.quads {
			b.l("const float4 ml = part[%s];", rowAt(fmt.Sprintf("r%d", k)))
			b.l("m%d = ml.x;", k)
			b.l("l%d = ml.y;", k)
		} else {
			b.l("m%d = part[%s];", k, rowAt(fmt.Sprintf("r%d", k)))
			b.l("l%d = part[%s + 1u];", k, rowAt(fmt.Sprintf("r%d", k)))
		}
		b.l("}")
	}
	if first != nil {
		b.l("if (hh == sg) {")
		first()
		b.l("}")
	}
	mx := "m0"
	for k := int64(1); k < per; k++ {
		mx = fmt.Sprintf("fmax(%s, m%d)", mx, k)
	}
	b.l("const float gm = simd_max(%s);", mx)
	var sum []string
	for k := range per {
		b.l("const float w%d = m%d == -INFINITY ? 0.0f : exp2(m%d - gm);", k, k, k)
		b.l("if (r%d < %du) {", k, p.splits)
		b.l("wr[2u + r%d] = w%d;", k, k)
		b.l("}")
		sum = append(sum, fmt.Sprintf("l%d * w%d", k, k))
	}
	b.l("const float gl = simd_sum(%s);", strings.Join(sum, " + "))
	b.l("if (lane == 0) {")
	b.l("wr[0] = gm;")
	b.l("wr[1] = gl;")
	b.l("}")
	b.l("}")
	// A simdgroup with no head runs first after the pass: before it,
	// the 1k-key decode (two heads, four simdgroups) took 9.1 to 9.2 µs on
	// the H200 against 9.0 (docs/gpu-check.md, run 17).
	if first != nil && int64(p.nsg) > p.hb {
		b.l("if (sg >= %du) {", p.hb)
		first()
		b.l("}")
	}
	b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
}

// mergeChunk is how many partials a merge thread loads at once: an
// attention_merge thread's ranges, at most a gemv_merge thread's splits.
const mergeChunk = 32

// chunks emits body for the ranges 0..splits-1 in chunks of chunk:
// a loop over the whole chunks (first is the chunk's first range), then
// the rest; body gets the first range's expression and the chunk's size.
func chunks(b *kb, splits, chunk int64, body func(first string, k int64)) {
	if full := splits / chunk; full > 0 {
		b.l("for (uint c = 0; c < %du; c++) {", full)
		body(fmt.Sprintf("c * %du", chunk), chunk)
		b.l("}")
	}
	if rest := splits % chunk; rest > 0 {
		b.l("{")
		body(fmt.Sprintf("%du", splits-rest), rest)
		b.l("}")
	}
}

// attnSafeRow is the row a masked key of the decode loop reads instead of
// its own (the key may lie past the cache), and whether that row is one
// the query keeps: then its values meet a weight of exactly 0 and are
// finite wherever the result is, so they need not be zeroed. The range's
// first key is kept without a mask or with a bias; the first key of the cache (causal)
// or of the window (sliding) is kept when the query's absolute position
// is not negative, which sk ≥ sq ensures; a custom mask keeps no row
// known here.
func attnSafeRow(s *attnShape) (string, bool) {
	switch s.kind {
	case graph.MaskNone, graph.MaskBias:
		return "jlo", true
	case graph.MaskCausal:
		return "0u", s.sk >= s.sq
	case graph.MaskSlidingWindow:
		return fmt.Sprintf("(absq > %d ? (uint)(absq - %d) : 0u)", s.window, s.window), s.sk >= s.sq
	}
	return "0u", false
}

// attnKeepAt is attnKeep for the key index expression j.
func attnKeepAt(s *attnShape, j string) string {
	switch s.kind {
	case graph.MaskCausal:
		return fmt.Sprintf("(long)%s <= absq", j)
	case graph.MaskSlidingWindow:
		return fmt.Sprintf("(long)%s <= absq && (long)%s >= absq - %d", j, j, s.window)
	case graph.MaskCustom:
		if s.mask.elem.isFloat() {
			return fmt.Sprintf("(float)mask[bb * %du + %s] >= 0.5f", s.sk, j)
		}
		return fmt.Sprintf("mask[bb * %du + %s] != 0", s.sk, j)
	}
	return "true"
}
