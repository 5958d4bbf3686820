package metal

import "fmt"

// The staged dequantising GEMV: when a weight row's bytes are a multiple
// of 16 (so, with the buffer's own alignment, every row starts 16-byte
// aligned), the threadgroup copies its rows' blocks, a stage of p blocks
// a row at a time, into threadgroup memory with 16-byte loads — each
// thread issuing all of its loads of a stage before its first store —
// and the lanes then decode the staged blocks exactly as the unstaged
// kernel decodes them from device memory (same lanes a block, same parts,
// same order of sums, so the results are the same bits). The 18-, 34-
// and 210-byte blocks otherwise allow only 2-byte loads, and the kernel
// waited on memory latency with too few bytes in flight a thread
// (docs/gpu-check.md, run 10). On the H200 staging paid for q4_k and q6_k
// only (run 11; dqLayoutOf says which formats stage).
//
// A stage holds p blocks of each of the threadgroup's rows: p is the
// block slots the threadgroup's lanes fill in one step (threads / lanes a
// block), rounded up to a whole number of 16-byte units, so every thread
// decodes one slot a stage; a shorter last stage takes the rest of the
// row. With prefetch (dqStagedPrefetch, rows of whole stages) a thread
// issues the next stage's loads right after storing this stage's, so
// they are in flight during the decode; without it a stage's loads wait
// for the previous stage's decode.

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
	dqDecodeStage(b, f, m, k, rows, p, first, fmt.Sprintf("tptg.x / %du", dqLanes(f)))
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
// loop step takes).
func dqDecodeStage(b *kb, f quantInfo, m, k, rows, p int64, first, step string) {
	src := dqSrc{"threadgroup", rows, func(r int64) string {
		if r == 0 {
			return "tb"
		}
		return fmt.Sprintf("(tb + %du)", r*p*f.bytes)
	}}
	b.l("for (uint ib = tpos.x / %du; ib < %du; ib += %s) {", dqLanes(f), p, step)
	dqSlot(b, f, m, k, addExpr(first, "ib"), src)
	b.l("}")
}

// dqStagedPrefetch is dqStagedLoop with the next stage's loads issued
// before this stage's decode, into registers that the next stage then
// stores, for rows of whole stages (st.whole()) at the launched size;
// a threadgroup run with fewer threads takes dqStagedLoop.
func dqStagedPrefetch(b *kb, f quantInfo, m, n, k, rows int64, st dqStage, threads int64) {
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
	for j := range un {
		b.l("uint4 v%d;", j)
	}
	load("0u")
	b.l("for (uint s = 0; s < %du; s++) {", st.stages)
	for j := range un {
		if (j+1)*threads <= q {
			b.l("tg[tpos.x + %du] = v%d;", j*threads, j)
			continue
		}
		b.l("if (tpos.x + %du < %du) {", j*threads, q)
		b.l("tg[tpos.x + %du] = v%d;", j*threads, j)
		b.l("}")
	}
	b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
	b.l("if (s + 1u < %du) {", st.stages)
	load(fmt.Sprintf("(s + 1u) * %du", u16))
	b.l("}")
	dqDecodeStage(b, f, m, k, rows, st.p, fmt.Sprintf("s * %du", st.p), fmt.Sprintf("%du", threads/dqLanes(f)))
	b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
	b.l("}")
	b.l("} else {")
	dqStagedLoop(b, f, m, n, k, rows, st, threads)
	b.l("}")
}
