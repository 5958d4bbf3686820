package metal

import "fmt"

// The staged dequantising GEMV: when a weight row's bytes are a multiple
// of 16 (so, with the buffer's own alignment, every row starts 16-byte
// aligned), the threadgroup copies its rows' blocks, a stage of p blocks
// a row at a time, into threadgroup memory with 16-byte loads — each
// thread issuing all of its loads of a stage before its first store —
// and the lanes then decode the staged blocks exactly as the unstaged
// kernel decodes them from device memory (same lanes a block, same parts,
// same order of sums within a stage; the prefetching kernel may take the
// stages in a rotated order, dqRotates). The 18-, 34- and 210-byte
// blocks otherwise allow only 2-byte loads, and the kernel
// waited on memory latency with too few bytes in flight a thread
// (docs/gpu-check.md, run 10). On the H200 staging paid for q4_k and q6_k
// (run 11), and for q4_0 once its x was loaded a stage ahead (run 24);
// dqLayoutOf says which formats and shapes stage.
//
// A stage holds p blocks of each of the threadgroup's rows: p is the
// block slots the threadgroup's lanes fill in one step (threads / lanes a
// block), rounded up to a whole number of 16-byte units, so every thread
// decodes one slot a stage; a shorter last stage takes the rest of the
// row. With prefetch (dqStagedPrefetch, rows of whole stages) a thread
// issues the next stage's loads right after storing this stage's, so
// they are in flight during the decode, and, with one row of x, the x
// its next block needs (dqXAhead); without it a stage's loads wait for
// the previous stage's decode.
//
// Not taken (docs/gpu-check.md, run 23, H200): two groups of simdgroups
// a threadgroup, each with its own stage buffer and taking every other
// stage (twice the warps at the same stage length), and two stage
// buffers with one barrier a stage instead of two; both were slower or
// level.

// dqStage is the plan of a staged dequantising GEMV.
type dqStage struct {
	p      int64 // blocks of each row in a full stage
	stages int64 // full stages
	rem    int64 // blocks of each row in the last, shorter stage (0: none)
}

// whole says whether the rows are whole stages, more than one: what
// dqStagedPrefetch needs.
func (st dqStage) whole() bool { return st.rem == 0 && st.stages > 1 }

// dqStaging plans the stages for rows of nb blocks, slots block slots a
// step; false when the rows cannot be staged with 16-byte loads. The tile
// is rows·p·bytes: q4_k's eight rows of 8 blocks (two simdgroups) take
// 9 KB, q6_k's of 8 blocks 13 KB, within Metal's 32 KB a threadgroup
// (the kernel check rejects more). Threadgroup memory also bounds how many threadgroups an
// Apple GPU core holds at once; nothing here measured that.
func dqStaging(f quantInfo, nb, slots int64) (dqStage, bool) {
	if nb*f.bytes%16 != 0 {
		return dqStage{}, false
	}
	g := 16 / gcd(f.bytes, 16)        // the fewest blocks that fill whole 16-byte units
	p := min(ceilDiv(slots, g)*g, nb) // nb blocks are a whole number of 16-byte units
	return dqStage{p: p, stages: nb / p, rem: nb % p}, true
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// dqStagedLoop walks the rows' blocks a stage at a time through
// threadgroup memory (tg's first rows·p·bytes bytes); threads is the
// threadgroup's size as launched (a smaller one runs the same loops with
// more steps).
func dqStagedLoop(b *kb, f quantInfo, m, n, k, rows int64, st dqStage, threads int64) {
	row16 := k / f.block * f.bytes / 16
	full16 := st.p * f.bytes / 16
	b.l("device const uint4 *wq = (device const uint4 *)w;")
	b.l("threadgroup const uchar *tb = (threadgroup const uchar *)tg;")
	switch {
	case st.stages == 1:
		b.l("{")
		dqStage1(b, f, m, n, k, rows, st.p, "0u", "0u", row16, threads)
		b.l("}")
		if st.rem > 0 {
			b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
		}
	case st.stages > 1:
		b.l("for (uint s = 0; s < %du; s++) {", st.stages)
		dqStage1(b, f, m, n, k, rows, st.p, "s * "+fmt.Sprint(st.p)+"u", "s * "+fmt.Sprint(full16)+"u", row16, threads)
		// The next stage's stores wait for every lane's reads.
		b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
		b.l("}")
	}
	if st.rem > 0 {
		b.l("{")
		dqStage1(b, f, m, n, k, rows, st.rem, fmt.Sprintf("%du", st.stages*st.p), fmt.Sprintf("%du", st.stages*full16), row16, threads)
		b.l("}")
	}
}

// dqStage1 emits one stage of p blocks a row: first is the expression of
// its first block, off16 that of its offset in a row in 16-byte units.
func dqStage1(b *kb, f quantInfo, m, n, k, rows, p int64, first, off16 string, row16, threads int64) {
	u16 := p * f.bytes / 16 // 16-byte units of a row in the stage
	q := rows * u16
	un := ceilDiv(q, threads)
	step := "tptg.x"
	if un > 1 {
		step = fmt.Sprintf("%du * tptg.x", un)
	}
	at := func(j int64) string { // the j-th unit of a thread in this step
		if j == 0 {
			return "i0"
		}
		return fmt.Sprintf("i0 + %du * tptg.x", j)
	}
	b.l("for (uint i0 = tpos.x; i0 < %du; i0 += %s) {", q, step)
	// All loads first, then the stores that are in range (past the end a
	// load rereads the last unit). Rows past the end read the last row;
	// their sums are not stored.
	for j := range un {
		if j == 0 {
			b.l("const uint e0 = i0;")
		} else {
			b.l("const uint e%d = min(%s, %du);", j, at(j), q-1)
		}
		b.l("const uint4 v%d = %s;", j, dqUnit(fmt.Sprintf("e%d", j), u16, n, row16, off16))
	}
	for j := range un {
		if j == 0 {
			b.l("tg[i0] = v0;")
			continue
		}
		b.l("if (%s < %du) {", at(j), q)
		b.l("tg[%s] = v%d;", at(j), j)
		b.l("}")
	}
	b.l("}")
	b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
	dqDecodeStage(b, f, m, k, rows, p, first, fmt.Sprintf("tptg.x / %du", dqLanes(f)), nil, nil)
}

// dqUnit is the 16-byte unit e (an expression) of a stage of the
// threadgroup's rows, u16 units a row, whose first unit is off16 (an
// expression) units into each row of row16; rows past n read the last
// row (the last unit of w when a stage is whole rows).
func dqUnit(e string, u16, n, row16 int64, off16 string) string {
	if u16 == row16 {
		// The stage is the rows themselves, consecutive in w: unit e of
		// the stage is unit e past the first row's start.
		return fmt.Sprintf("wq[min(r0 * %du + %s, %du)]", row16, e, n*row16-1)
	}
	off := ""
	if off16 != "0u" {
		off = " + " + off16
	}
	return fmt.Sprintf("wq[min(r0 + %s / %du, %du) * %du%s + %s %% %du]", e, u16, n-1, row16, off, e, u16)
}

// dqDecodeStage emits the decode of a staged stage of p blocks a row
// (first: the expression of its first block; step: the block slots a
// loop step takes; xa: the lane's x loaded ahead, or nil; sc: the
// stage's table of scales, or nil).
func dqDecodeStage(b *kb, f quantInfo, m, k, rows, p int64, first, step string, xa *dqXAhead, sc *dqScales) {
	src := dqSrc{space: "threadgroup", rows: rows, row: func(r int64) string {
		if r == 0 {
			return "tb"
		}
		return fmt.Sprintf("(tb + %du)", r*p*f.bytes)
	}, xa: xa}
	if sc != nil {
		src.scales = sc.entry
	}
	b.l("for (uint ib = tpos.x / %du; ib < %du; ib += %s) {", dqLanes(f), p, step)
	dqSlot(b, f, m, k, addExpr(first, "ib"), src)
	b.l("}")
}

// dqStagedPrefetch is dqStagedLoop with the next stage's loads issued
// before this stage's decode, into registers that the next stage then
// stores, for rows of whole stages (st.whole()) at the launched size;
// a threadgroup run with fewer threads takes dqStagedLoop.
func dqStagedPrefetch(b *kb, f quantInfo, m, n, k, rows int64, st dqStage, threads int64, sc *dqScales) {
	row16 := k / f.block * f.bytes / 16
	u16 := st.p * f.bytes / 16
	q := rows * u16
	un := ceilDiv(q, threads)
	// Each load initialises a constant that is then assigned: the CUDA
	// shim assigns vectors element by element, which would split an
	// assigned load into four (docs/gpu-check.md, run 10).
	load := func(off string) {
		for j := range un {
			b.l("{")
			b.l("const uint e = min(tpos.x + %du, %du);", j*threads, q-1)
			b.l("const uint4 t = %s;", dqUnit("e", u16, n, row16, off))
			b.l("v%d = t;", j)
			b.l("}")
		}
	}
	b.l("if (tptg.x == %du) {", threads)
	b.l("device const uint4 *wq = (device const uint4 *)w;")
	b.l("threadgroup const uchar *tb = (threadgroup const uchar *)tg;")
	// The stages a loop step decodes (cur) and loads (next), and the
	// first one loaded: in order, or from stage tgpos.x mod stages on,
	// wrapping (dqRotates).
	first, cur, next := "0u", "s", "(s + 1u)"
	at := func(stage string, per int64) string { // the stage's first unit or block
		if stage == "0u" {
			return "0u"
		}
		return fmt.Sprintf("%s * %du", stage, per)
	}
	lane := fmt.Sprintf("tpos.x / %du", dqLanes(f)) // the thread's block slot
	rot := dqRotates(f, sc)
	if rot {
		b.l("const uint s0 = tgpos.x %% %du;", st.stages)
		first, cur, next = "s0", "sr", "sn"
	}
	if sc != nil {
		b.l("threadgroup float4 *ts = (threadgroup float4 *)(tg + %du);", sc.at)
	}
	for j := range un {
		b.l("uint4 v%d;", j)
	}
	xa := dqXAheadOf(f, m, st.p, threads)
	if xa != nil {
		b.l("const uint xq = %s;", xa.base)
		for _, d := range xa.decls {
			b.l("%s", d)
		}
		for i := range xa.pieces {
			b.l("float4 xc%d;", i)
			b.l("float4 xn%d;", i)
		}
		xa.load(b, "xc", addSum(at(first, st.p), lane))
	}
	load(at(first, u16))
	b.l("for (uint s = 0; s < %du; s++) {", st.stages)
	if rot {
		b.l("const uint sr = (s + s0) %% %du;", st.stages)
		b.l("const uint sn = (s + s0 + 1u) %% %du;", st.stages)
	}
	for j := range un {
		if (j+1)*threads <= q {
			b.l("tg[tpos.x + %du] = v%d;", j*threads, j)
			continue
		}
		b.l("if (tpos.x + %du < %du) {", j*threads, q)
		b.l("tg[tpos.x + %du] = v%d;", j*threads, j)
		b.l("}")
	}
	if sc != nil {
		sc.decode(b)
	}
	b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
	b.l("if (s + 1u < %du) {", st.stages)
	load(at(next, u16))
	if xa != nil {
		xa.load(b, "xn", addSum(at(next, st.p), lane))
	}
	b.l("}")
	dqDecodeStage(b, f, m, k, rows, st.p, at(cur, st.p), fmt.Sprintf("%du", threads/dqLanes(f)), xa, sc)
	if xa != nil {
		for i := range xa.pieces {
			b.l("xc%d = xn%d;", i, i)
		}
	}
	b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
	b.l("}")
	b.l("} else {")
	dqStagedLoop(b, f, m, n, k, rows, st, threads)
	b.l("}")
}

// addSum is a + b without parentheses (b alone when a is 0u): addExpr for
// a sum its use already parenthesises (dqXAhead.load's block index), so
// that the in-order kernels' text stays as it was measured.
func addSum(a, b string) string {
	if a == "0u" {
		return b
	}
	return a + " + " + b
}

// dqRotates says whether format f's prefetching kernel (sc: its table of
// scales, or nil) takes its stages in a rotated order: threadgroup t
// from stage t mod stages on, wrapping, so that at a given moment the
// threadgroups read different columns of the matrix rather than all the
// same ones. On the H200 (docs/gpu-check.md, run 26; medians of two
// alternating rounds, µs at 4096×4096, 4096×14336, 14336×4096), rotated
// against in order:
//
//   - q4_0: 6.5, 15.5, 14.9–15.0 against 6.6, 15.9–16.0, 15.1–15.2
//     (26f);
//   - q8_0, staged at 14336×4096 only: 19.6 against 20.3–20.4 (26f);
//   - q4_k without the table (K = 4096): 7.2, 16.9 against 7.6, 17.8
//     (26f);
//   - q4_k with the table (14336×4096): 17.0 against 16.7, and q6_k 8.5,
//     21.7, 20.6 against 8.3, 21.1, 20.1 (26e): these keep the order.
//
// A rotated kernel's stages add up in a different order from the
// unstaged kernel's.
func dqRotates(f quantInfo, sc *dqScales) bool {
	switch f.name {
	case "q4_0", "q4_1", "q5_0", "q5_1", "q8_0":
		return true
	case "q4_k", "q5_k":
		return sc == nil
	}
	return false
}

// dqXAhead is how the prefetching kernel loads a lane's x a stage ahead,
// where each thread decodes one block slot a stage and there is one row
// of x (dqXAheadOf): the float4s of x that the lane's decode of its next
// block reads are loaded with that stage's weights, into registers xn…,
// and copied to xc… for the decode, which then reads no x from device
// memory. Loaded in the decode itself, x's latency (an L2 read) stalled
// the few warps a scheduler holds (q4_k on the H200: 0.9 cycles of
// every 3.6 a warp's instruction took waiting on device loads; ncu,
// docs/gpu-check.md, run 23). The pieces' offsets repeat those of
// dqLaneQ4K, dqLaneQ6K, dqLaneQ4_0 and dqLaneQ8_0Words; the op suite's
// decode cases (dequant_q4_k_1x21x4096, dequant_q6_k_1x21x4096,
// dequant_q4_0_1x21x4096, dequant_q8_0_1x21x8192) fail if they part.
type dqXAhead struct {
	base   string   // the lane's offset into its block's x, in floats, from its part p
	decls  []string // constants the offsets use
	pieces []dqXPiece
	block  int64 // floats of x a block
}

// dqXPiece is one float4 of a lane's x: float4 v of the decode's piece
// name (xfloats), off floats past the lane's base.
type dqXPiece struct {
	name string
	v    int
	off  string
}

// dqXAheadOf plans the loads of x a stage ahead for format f (nil where
// the kernel loads x in its decode: more than one row of x, or more block
// slots a stage than threads to take them, p ≠ threads / L).
func dqXAheadOf(f quantInfo, m, p, threads int64) *dqXAhead {
	if m != 1 || p != threads/dqLanes(f) {
		return nil
	}
	a := &dqXAhead{block: f.block}
	switch f.name {
	case "q4_k", "q5_k": // dqLaneQ4K, dqLaneQ5K: xl at xo, xh at xo + 32, xo = 64c + 16h
		a.base = "(p / 2u) * 64u + (p % 2u) * 16u"
		for v := range 4 {
			a.pieces = append(a.pieces, dqXPiece{"xl", v, fmt.Sprintf("%du", 4*v)})
		}
		for v := range 4 {
			a.pieces = append(a.pieces, dqXPiece{"xh", v, fmt.Sprintf("%du", 32+4*v)})
		}
	case "q6_k": // dqLaneQ6K: group g at 128·n6 + 32g + 4·j6
		a.base = "(p / 8u) * 128u + (p % 8u) * 4u"
		for g := range 4 {
			a.pieces = append(a.pieces, dqXPiece{fmt.Sprintf("x%d_", g), 0, fmt.Sprintf("%du", 32*g)})
		}
	case "q8_0": // dqLaneQ8_0Words (rows of whole stages have an even number of blocks): the pieces rotated by two on odd blocks
		if p%2 != 0 {
			return nil
		}
		a.base = "p * 16u"
		a.decls = []string{"const uint xrot = ((tpos.x / 2u) & 1u) * 2u;"}
		for s := range 4 {
			a.pieces = append(a.pieces, dqXPiece{"xr", s, fmt.Sprintf("(%du ^ xrot) * 4u", s)})
		}
	case "q4_0", "q4_1", "q5_0", "q5_1": // dqLaneQ4_0, dqLaneQ4_1, dqLaneQ5: the pieces rotated by the block's parity, which p even keeps
		if p%2 != 0 {
			return nil
		}
		a.base = "p * 8u"
		a.decls = []string{"const uint xsw = ((tpos.x / 2u) & 1u) * 4u;"}
		a.pieces = []dqXPiece{{"xl", 0, "xsw"}, {"xl", 1, "(4u - xsw)"}, {"xh", 0, "16u + xsw"}, {"xh", 1, "16u + (4u - xsw)"}}
	default:
		return nil
	}
	return a
}

// reg is the register that holds float4 v of piece name for the decode
// ("" where the plan has none, or there is no plan: the decode loads it).
func (a *dqXAhead) reg(name string, v int) string {
	if a == nil {
		return ""
	}
	for i, pc := range a.pieces {
		if pc.name == name && pc.v == v {
			return fmt.Sprintf("xc%d", i)
		}
	}
	return ""
}

// load emits the loads of the lane's x float4s of block blk (an
// expression: the block's index in the row) into registers prefix0…,
// each through a constant as dqStagedPrefetch's weights are.
func (a *dqXAhead) load(b *kb, prefix, blk string) {
	b.l("{")
	b.l("device const float *xa = x + (%s) * %du + xq;", blk, a.block)
	for i, pc := range a.pieces {
		b.l("const float4 t%d = *((device const float4 *)(xa + %s));", i, pc.off)
	}
	for i := range a.pieces {
		b.l("%s%d = t%d;", prefix, i, i)
	}
	b.l("}")
}

// dqScales is the prefetching q4_k kernel's table of scales: each stage,
// before its barrier, every thread decodes the header (d, dmin and the
// 12 bytes of 6-bit scales and minimums) of one block of the stage,
// which it stored itself, into four float4s, one a pair of sub-blocks
// (d·scale 2c, d·scale 2c + 1, dmin·minimum 2c, dmin·minimum 2c + 1),
// and the lanes' decodes read their pair's float4 instead of each
// decoding it from the block: once a block instead of once a lane and
// row of x. The table follows the tile in threadgroup memory, 64 bytes a
// block.
type dqScales struct {
	units   int64 // 16-byte units a block
	threads int64
	inv     int64 // threads⁻¹ mod units: the thread's header is its store j = (units − tpos.x mod units)·inv mod units
	rows, p int64 // the stage: p blocks of each of rows rows
	at      int64 // the table's first uint4 of tg (set by dequantGEMV)
}

// dqScalesOf plans the table for format f's prefetching kernel, or nil
// where there is none: formats other than q4_k, rows of fewer than
// dqLongStages stages, and stages where the threads' stores do not hold
// exactly one block header each (the thread then has no header of its
// own to decode before the barrier). On the H200 (run 24, µs at
// 4096×4096, 4096×14336, 14336×4096) the table measured 7.36, 18.84,
// 16.71 against 7.58, 17.84, 17.29 (24a; 7.39, 18.80, 16.73 against
// 7.60, 17.77, 17.29 in 24b): slower where 1792 threadgroups each take
// two stages. Occupancy did not change (registers allow 6 threadgroups
// a multiprocessor either way, ncu; the table's 4 KB leave 9).
// q6_k has none: its headers straddle two threads' stores, and a table
// decoded after the barrier, with a second barrier, was 7 to 10% slower
// at every real shape (run 25a; the patch is in
// bench/gpu/results/run25a).
// A thread stores units tpos.x + j·threads, j < units
// (dqStagedPrefetch, with rows·p = threads); unit e is a header when e is
// a multiple of the block's units. With threads prime to the units the
// stores' residues t + j·threads mod units are all different, so
// exactly one is a header: j = (units − tpos.x mod units)·threads⁻¹ mod
// units (TestDqScalesHeaders checks every thread).
func dqScalesOf(f quantInfo, rows int64, st dqStage, threads int64) *dqScales {
	if (f.name != "q4_k" && f.name != "q5_k") || f.bytes%16 != 0 || st.stages < dqLongStages {
		return nil
	}
	u := f.bytes / 16
	if rows*st.p != threads || gcd(threads, u) != 1 {
		return nil
	}
	sc := &dqScales{units: u, threads: threads, inv: 1, rows: rows, p: st.p}
	for (threads*sc.inv)%u != 1 {
		sc.inv++
	}
	return sc
}

// header is j of thread t's store tpos.x + j·threads that holds a block
// header (pick emits the same).
func (sc *dqScales) header(t int64) int64 {
	u := sc.units
	return (u - t%u) % u * sc.inv % u
}

// pick is the MSL expression of header(tpos.x).
func (sc *dqScales) pick() string {
	u := sc.units
	if sc.inv == 1 {
		return fmt.Sprintf("(%du - tpos.x %% %du) %% %du", u, u, u)
	}
	return fmt.Sprintf("((%du - tpos.x %% %du) * %du) %% %du", u, u, sc.inv, u)
}

// bytes is the table's size in threadgroup memory: four float4s a block.
func (sc *dqScales) bytes() int64 { return sc.rows * sc.p * 64 }

// entry is the expression of row r's float4 for the lane's pair c of its
// block slot ib in the stage's table ts (dqLaneQ4K's src.scales).
func (sc *dqScales) entry(r int64) string {
	return fmt.Sprintf("ts[(%du + ib) * 4u + c]", r*sc.p)
}

// decode emits the thread's decode of its block's header into the table
// (after its stores of the stage, before the barrier: it reads back its
// own store).
func (sc *dqScales) decode(b *kb) {
	b.l("{")
	b.l("const uint eh = tpos.x + %du * (%s);", sc.threads, sc.pick())
	b.l("const uint4 hd = tg[eh];")
	b.l("const float d = rlx_half_bits((ushort)(hd.x & 0xFFFFu));")
	b.l("const float dmin = rlx_half_bits((ushort)(hd.x >> 16));")
	b.l("threadgroup float4 *tsb = ts + (eh / %du) * 4u;", sc.units)
	for c := range 4 {
		b.l("{")
		b.l("const uint sm = rlx_q4k_pair(hd, %du);", c)
		b.l("float4 t = 0.0f;")
		b.l("t.x = d * (float)(sm & 255u);")
		b.l("t.y = d * (float)((sm >> 8) & 255u);")
		b.l("t.z = dmin * (float)((sm >> 16) & 255u);")
		b.l("t.w = dmin * (float)(sm >> 24);")
		b.l("tsb[%d] = t;", c)
		b.l("}")
	}
	b.l("}")
}
