package metal

import "fmt"

// The dequantising GEMV (dequant_matmul with M ≤ gemvMaxRows): y[m, n] =
// Σ_k x[m, k]·W[n, k], W's rows stored as GGUF blocks.
//
// A threadgroup owns a few consecutive weight rows (four, eight for
// q4_k, q6_k and q4_0 staged or at wide N, sixteen for q4_0 staged on
// long rows: dqLayoutOf), and all its threads walk
// those rows' blocks together: thread t takes part t % L of blocks t / L,
// t / L + T / L, … (L lanes share a block, T threads), so the lanes of a
// simdgroup read neighbouring bytes of a row. For each block a lane loads its slice of x
// once, into registers, and uses it for every row of the threadgroup, so
// x is read once per threadgroup instead of once per row. The loop is the
// same for any T that is a multiple of 32, so the kernel may run with
// fewer threads than it asks for (resize "rows").
//
// A software-pipelined variant (one simdgroup a threadgroup, each step's
// weight words loaded one step ahead) measured slower on the H200 at 10
// of the 12 decode shapes, most at K = 14336 (0.22 of the roofline
// against 0.35 for q4_0), in a device call whose raw output was not kept;
// 8 or 2 rows a threadgroup were slower too (docs/gpu-check.md, run 8).
//
// Decoding follows ggml's mul_mv (metal.md §1.3) in spirit: the x slice is
// pre-scaled by 1, 1/16, 1/256 or 1/4096 so that a 4-bit or 8-bit value
// masked in place inside a 16-bit word needs no shift, and offsets are
// folded out of the sum: q4_0's −8 and q8_0's 128 (its bytes XORed with
// 0x80, q + 128) go with the subtraction of 2²³ below (rlx_mfo, run 21c:
// −1 to −4%, the lanes no longer sum their x); q4_k's minimum is
// −dmin·m·Σx. (Since run 29 q4_0's and q4_k's nibbles take a shift a
// byte instead and no subtraction, their x unscaled: dqShiftedDecode;
// since run 30 q6_k's bytes likewise, as 128 + q: dqLaneQ6K.) The masked
// words become floats through rlx_mf (the bits of 2²³ + q, minus 2²³)
// instead of integer-to-float conversions, which run at a fraction of
// the FMA rate on some GPUs: a loaded word is ORed with 2²³'s
// bits once, and each field is then one AND (with 2²³'s bits and the
// field's mask), one subtraction and one multiply-add into a running sum
// (two sums a row, for the latency). Against the first form (each field
// masked, ORed, subtracted, and products added to the sum in pairs: 387
// instructions a step of q4_0's loop on the H200, 6 a weight) it cut the
// instructions by about a third and the time by −11% (q8_0) to +3%. The
// counters then said the kernels wait on memory latency (ncu,
// docs/gpu-check.md, run 10), but staging the rows through threadgroup
// memory with 16-byte loads (dequant_stage.go) left q4_0 and q8_0 as
// slow or slower (run 11). Run 18's CUDA probe (bench/gpu/dqprobe) found
// two limits of about the same height for q4_0 on the H200: this
// layout's 2-byte loads alone take 91 to 93% of the kernel's time, and
// with the rows staged the float decode alone takes as long (10.4 to
// 12.1 million warp instructions at 4096×14336); q8_0 is bound by its
// loads alone. q4_k (−18% at 14336×4096, its stalls on loads from 4.8 to
// 1.6 cycles an instruction) and q6_k (−11% there, with the next stage's
// loads issued before this stage's decode) are staged, on eight rows.
// Run 19's counters put half of q4_0's and q8_0's L1 passes in bank
// conflicts of their x loads (a load's lanes on the same 16-byte places
// of 16 lines); their lanes now take their x pieces in an order that
// changes from block to block (dqLaneQ4_0, dqLaneQ8_0): q8_0 −3 to −13%,
// q4_0 level to −6%. Run 20: q8_0 reads its weights as 4-byte words
// (dqLaneQ8_0Words, a fifth fewer L1 passes) and, with q4_0, takes more
// block slots a step (dqSlotsOf; ncu had q8_0 waiting on memory latency,
// with 42% of an SM's warp slots in use): q8_0 8.9, 21.3, 22.1 µs
// (0.69 and 0.67 of the roofline at the real shapes), q4_0 7.6, 18.2,
// 18.7. Run 21: the rows' sums meet in one butterfly (simdFold), a
// lane's last blocks go in one step (dqTailOf) and the offsets with the
// float conversion: q8_0 8.3, 20.4, 20.8 µs (0.72 and 0.71 of the
// roofline), q4_0 7.0, 17.3, 18.4, q6_k 9.4, 23.0, 23.2
// (docs/gpu-check.md, run 21d); q4_k, with its scales two sub-blocks at
// a time (rlx_q4k_pair), 8.5, 21.5, 21.0 against 9.8, 22.6, 25.5 (run
// 21e). Run 22: q4_k on two simdgroups, with stages of 8 blocks that
// it prefetches, 8.2, 19.6, 19.0 (dqSimdsOf). Run 23: the staged
// kernels load a lane's x a stage ahead too (dqXAhead): q4_k 7.6,
// 17.8, 17.3, q6_k 8.3, 21.0, 20.1 (0.54 and 0.56 of the roofline).
//
// Per format, the lanes L per block and a lane's part:
//
//	q4_0  L = 2   8 bytes of qs (16 weights), four 2-byte loads, and d
//	q8_0  L = 2   16 bytes of qs (16 weights), five 4-byte loads (rows of
//	              an even number of blocks) or eight 2-byte loads, and d
//	q4_k  L = 8   16 bytes of one 32-byte chunk (32 weights of two
//	              sub-blocks) and the 16-byte header, two 16-byte loads
//	q6_k  L = 16  4 bytes each of ql (twice) and qh (16 weights of four
//	              groups), six 2-byte loads, four scales and d
//
// The 2-byte loads are what the 18-, 34- and 210-byte blocks allow (their
// alignment alternates between blocks), except that q8_0's pairs of
// blocks are 68 bytes, so its rows of an even number of blocks allow
// 4-byte words; q4_k's 144-byte blocks keep 16-byte alignment. Staged
// formats read the same parts from threadgroup memory. The threadgroup's
// sums meet through simd_sum and threadgroup memory, each in a fixed
// order.

// dqLayout is how a format's kernel walks its weight rows.
type dqLayout struct {
	rows     int64   // weight rows a threadgroup owns
	staged   bool    // through threadgroup memory (dequant_stage.go), in the stages st
	prefetch bool    // staged in whole stages, the next stage's loads issued before this stage's decode
	st       dqStage // the stages, where staged
}

// dqLayoutOf is the layout of each format, as measured on the H200
// (docs/gpu-check.md, run 11; µs at 4096×4096, 4096×14336, 14336×4096,
// K × N). q4_k: staged on 8 rows 10.4, 24.3, 25.6 against 10.9, 24.6,
// 31.2 unstaged on 4 rows and 10.0, 26.6, 26.4 unstaged on 8; since run
// 22 on two simdgroups, whose stages are whole at the real shapes, with
// prefetch (dqSimdsOf).
// q6_k: staged with prefetch on 8 rows 10.1, 24.3, 24.1 against 9.8,
// 25.1, 27.2 unstaged on 4 rows (10.4, 25.1, 26.7 staged on 8 without
// prefetch). q4_0 and q8_0 stay unstaged on 4 rows: staged they were
// slower or level (q4_0 8.6, 23.2, 22.4 on 4 rows, 8.4, 20.3, 19.4 with
// prefetch on 8, against 8.0, 20.1, 20.4; q8_0 at best 10.7, 29.5, 24.7
// against 9.5, 26.4, 24.7). q4_0 takes 8 rows where they still make
// dqWideGrid threadgroups or more (n weight rows): at 4096×14336 16.2 µs
// against 17.2 on 4, but 22.2 against 18.3 at 14336×4096 and 7.4
// against 7.0 at 4096×4096, 512 threadgroups; q8_0 on 8 rows was slower
// at all three (8.9, 22.5, 21.6 against 8.3, 20.6, 21.0; run 22c).
// Since run 24 q4_0 with one row of x (m = 1) and rows of whole stages
// (slots block slots a step, dqStaging) is staged with prefetch on 8 rows,
// x loaded a stage ahead (dqXAhead): 6.6, 15.9, 15.1 against 7.0, 16.2,
// 18.3 (on 4 rows 7.6, 17.6, 18.3; run 24a, three alternating rounds);
// since run 27 on 16 rows where its rows are long (dqStagedRows).
// Staged with x loaded in the decode it had lost (run 11, above); other
// shapes and small batches keep the unstaged layout. q8_0 is staged so
// (8 rows, x ahead) only where its rows are dqLongStages stages or more:
// 20.35 µs against 21.00 at 14336×4096 (seven stages), but 8.85 and
// 21.65 against 8.31 and 20.68 at K = 4096 (two; on 4 rows 9.26, 25.06,
// 22.03; run 24b, two alternating rounds).
// q4_k with one row of x whose rows are one stage (K = 2048 on two
// simdgroups) is staged on 4 rows, twice the threadgroups with half the decode each: ten
// dispatches of [512, 2048] took 31.4–31.5 µs against 35.5 on 8 rows,
// and the batched experts case (moe_experts_q4_k_512x512x2048_top10)
// 11.0 against 11.1; on 2 rows 29.7–29.8 and 11.9 (run 32b, two
// alternating rounds). q6_k's one-stage rows were not measured.
// q4_k and q6_k on 4 rows where 8 make only 512 threadgroups (N = 4096)
// were slower (run 25c: q4_k 7.97 and 18.92 µs against 7.62 and 16.77
// at 4096×4096 and 14336×4096; q6_k 8.77 and 21.78 against 8.25 and
// 20.18): more warps, but 25% more instructions.
func dqLayoutOf(f quantInfo, m, n, nb, slots int64) dqLayout {
	st, ok := dqStaging(f, nb, slots)
	switch f.name {
	case "q4_k", "q5_k", "q6_k":
		if !ok {
			return dqLayout{rows: 8}
		}
		if f.name != "q6_k" && m == 1 && st.stages == 1 && st.rem == 0 {
			return dqLayout{rows: 4, staged: true, st: st}
		}
		return dqLayout{rows: 8, staged: true, prefetch: st.whole(), st: st}
	case "q4_0", "q4_1", "q5_0", "q5_1", "q8_0":
		if ok && st.whole() && m == 1 && st.stages >= dqStagedFrom(f) {
			return dqLayout{rows: dqStagedRows(f, st), staged: true, prefetch: true, st: st}
		}
		if f.q4_0Lane() && ceilDiv(n, 8) >= dqWideGrid {
			return dqLayout{rows: 8}
		}
	}
	return dqLayout{rows: 4}
}

// dqStagedRows is the rows a threadgroup of the staged q4_0 or q8_0
// GEMV owns: q4_0 takes 16 where its rows are dqLongStages stages or
// more, so that each lane's x, loaded once a stage, serves twice the
// weights (18 KB of tile; x crosses the L1 pipe as many bytes as the
// weights, docs/gpu-check.md, run 26). On the H200 (run 27, medians of
// alternating rounds, µs at 4096×4096, 4096×14336, 14336×4096), 16 rows
// at every shape against 8: 6.4, 15.5–15.6, 14.3–14.4 against 6.4,
// 15.4–15.5, 14.9–15.0 (27a, 27b); 16 rows at K = 14336 only (this
// rule): 14.3–14.5 against 15.0–15.1 (27c). Without the decode (loads
// only, 27a): 12.3–12.4 against 13.5 at 14336×4096, 12.9–13.0 against
// 13.0 and 5.8 against 5.6–5.7 at K = 4096. With 256 threadgroups at
// N = 4096 the grid holds about two a multiprocessor, and their 119
// registers a thread do not limit it (ncu, 27d). q8_0's 16 rows
// need 34 KB of tile, over Metal's 32 KB; q4_k and q6_k on 16 rows were
// slower at every shape (27c: q4_k 10.6, 21.2, 27.7 against 7.2, 17.0,
// 16.8; q6_k 9.0, 21.6, 21.3 against 8.3, 21.0, 20.2).
func dqStagedRows(f quantInfo, st dqStage) int64 {
	if f.q4_0Lane() && st.stages >= dqLongStages {
		return 16
	}
	return 8
}

// dqStagedFrom is the fewest stages a row at which q4_0 and q8_0 (one
// row of x) are staged: q4_0 from two (every whole-stage row), q8_0
// from dqLongStages (dqLayoutOf's measurements).
func dqStagedFrom(f quantInfo) int64 {
	if f.name == "q8_0" {
		return dqLongStages
	}
	return 2
}

// dqLongStages is the fewest stages a row for the choices that paid only
// on long rows on the H200 (run 24): q8_0's staged layout and q4_k's
// table of scales (dqScalesOf) were faster with seven stages a row (K =
// 14336) and slower with two (K = 4096) at 4096×14336; nothing between
// was measured.
const dqLongStages = 4

// dqWideGrid is the fewest threadgroups of 8 rows that q4_0 takes
// (dqLayoutOf): 1792 at N = 14336 are enough, 512 at N = 4096 too few.
const dqWideGrid = 1024

// dqSimdsOf is the simdgroups of a format's threadgroup. A staged
// format's stage is as many blocks a row as its threads fill in one step
// (dqStaging), so fewer simdgroups make shorter stages: q4_k on two has
// stages of 8 blocks, whole at both real K (two at 4096, seven at
// 14336), so it prefetches (dqLayoutOf). On the H200 (docs/gpu-check.md,
// runs 22a and 22b, two alternating repeats; µs at 4096×4096,
// 4096×14336, 14336×4096):
//
//   - q4_k: two simdgroups 8.18, 19.6, 19.0; four (stages of 16 blocks,
//     no prefetch at the real shapes) 8.59, 21.5, 21.1; one (stages of
//     4) 9.03, 19.5, 23.8; two on 4 rows 8.47, 20.3, 20.2.
//   - q6_k on two: 10.0, 26.1, 26.8 against 9.3, 23.0, 23.1 on four;
//     on two with eight lanes a block (dqLanes; a lane 32 weights, two
//     words of each region, stages of 8 blocks) 9.30, 24.47, 22.47
//     against 9.35, 23.04, 23.18 (run 22e, one round).
//   - q4_0 and q8_0 (unstaged) on two: q4_0 7.6, 17.3, 20.2 against
//     7.0, 17.3, 18.4; q8_0 8.3, 20.1, 22.7 against 8.3, 20.5, 20.8.
func dqSimdsOf(f quantInfo) int {
	if f.name == "q4_k" || f.name == "q5_k" {
		return 2
	}
	return 4
}

// dqSlotsOf is how many block slots a lane takes a loop step in the
// unstaged kernel: each slot's loads are issued before the first slot's
// arithmetic, so more slots put more bytes in flight a thread, at the
// cost of registers. On the H200 (µs at 4096×4096, 4096×14336,
// 14336×4096):
//
//   - q8_0, 4-byte words (dqLaneQ8_0Words): 2 slots 8.9, 22.8, 23.1; 3
//     slots 9.0, 21.3, 21.8; 4 slots 8.9, 21.1, 21.9; 6 slots 9.0, 21.2,
//     21.7 (docs/gpu-check.md, run 20b and 20c, two alternating repeats
//     each). Before the words, with 2-byte loads, one slot had measured
//     faster than two until the x loads were rotated (runs 10f, 19e).
//   - q4_0: 2 slots 7.9, 20.0, 19.1; 3 slots 7.6, 18.3, 18.9; 4 slots 7.7,
//     18.5, 19.6; 6 slots 7.5, 18.9, 19.0 (run 20c). One slot measured 8.8,
//     22.0, 22.1 (run 10f).
//   - q4_k and q6_k are staged (dqLayoutOf); their unstaged fallback keeps
//     two slots. Unstaged on 3 or 4 slots they were slower than staged at
//     the real shapes (run 20c: q4_k 25.6 to 27.4 and 28.3 to 32.0 µs
//     against 24.2 and 25.7; q6_k faster only at 4096×4096).
func dqSlotsOf(f quantInfo) int64 {
	switch f.name {
	case "q4_0", "q4_1", "q5_0", "q5_1":
		return 3
	case "q8_0":
		return 4
	}
	return 2
}

// dqTailOf is the fewest blocks that the unstaged kernel's lanes take in
// one step when, after their dqSlotsOf steps, fewer than a step's slots
// are left to a lane; fewer are taken one at a time.
// On the H200 (docs/gpu-check.md, run 21a; µs at 4096×4096, 4096×14336,
// 14336×4096, two alternating repeats, with simdFold's sums):
//
//   - q4_0 (3 slots): one at a time 7.1, 17.8, 19.0; from 2 blocks 7.4,
//     17.2, 18.9 (4096×14336: two blocks a lane in one step).
//   - q8_0 (4 slots): one at a time 8.5, 20.7, 21.6; from 2 blocks 8.7,
//     21.1, 21.4: the three blocks left at 14336×4096 gain in one step,
//     the two at 4096×14336 lose, so q8_0 takes them from 3.
func dqTailOf(f quantInfo) int64 {
	if f.name == "q8_0" {
		return 3
	}
	return 2
}

// dqLanes is L, the lanes that share one block, per format.
func dqLanes(f quantInfo) int64 {
	switch f.name {
	case "q4_k", "q5_k":
		return 8
	case "q6_k":
		return 16
	}
	return 2
}

// dqSrc is where a lane's decode reads the threadgroup's weight rows
// from: the address space, the number of rows and the expression of row
// r's first block.
type dqSrc struct {
	space string
	rows  int64
	row   func(r int64) string
	// xa, where set, holds the lane's x, loaded a stage ahead
	// (dqXAhead); nil: the lane loads it.
	xa *dqXAhead
	// scales, where set, is the expression of row r's current block's
	// float4 of scales in the stage's table (dqScales); nil: the lane
	// decodes them from the block.
	scales func(r int64) string
}

// dequantGEMV writes the body of a dequantising GEMV kernel (buffers x, w
// and y bound).
func dequantGEMV(b *kb, f quantInfo, m, n, k int64) {
	nsg := min(dqSimdsOf(f), b.e.opts.MaxThreadsPerThreadgroup/SimdWidth)
	L := dqLanes(f)
	nb := k / f.block
	threads := int64(nsg) * SimdWidth
	lay := dqLayoutOf(f, m, n, nb, threads/L)
	rows, st := lay.rows, lay.st
	rm := rows * m
	red := "tg"
	var sc *dqScales
	if lay.prefetch {
		sc = dqScalesOf(f, rows, st, threads)
	}
	if lay.staged {
		tile := rows * st.p * f.bytes
		if sc != nil {
			sc.at = tile / 16
			tile += sc.bytes()
		}
		b.tgmem("uint4", int(tile+int64(nsg)*rm*4))
		red = "red"
		b.l("threadgroup float *red = (threadgroup float *)(tg + %du);", tile/16)
	} else {
		b.tgmem("float", int(int64(nsg)*rm*4))
	}
	// One row of threadgroups: dqLaneQ6K and dqNibbleExponents read
	// tgpos.y as a zero the compiler cannot see.
	b.launch([3]int{int(ceilDiv(n, rows)), 1, 1}, [3]int{nsg * SimdWidth, 1, 1}, ResizeRows)
	b.l("const uint r0 = tgpos.x * %du;", rows)
	b.l("const uint p = tpos.x %% %du;", L)
	b.l("float acc[%d];", rm)
	for i := range rm {
		b.l("acc[%d] = 0.0f;", i)
	}
	switch {
	case lay.prefetch:
		dqStagedPrefetch(b, f, m, n, k, rows, st, threads, sc)
	case lay.staged:
		dqStagedLoop(b, f, m, n, k, rows, st, threads)
	default:
		dqDirectLoop(b, f, m, n, k, rows)
	}
	// Every lane reaches the sums (the loop bounds are uniform); the
	// simdgroups' totals meet in threadgroup memory. One butterfly for
	// all rows instead of a simd_sum each: 6 shuffles instead of 20 for
	// four rows, 9 instead of 40 for eight (run 21a, with the staging
	// change of dqUnit: q4_k and q6_k −6 to −7% at 4096×4096 and
	// 4096×14336, q8_0 and q4_0 −2 to −6%).
	dqStore(b, red, rm, m, n)
}

// dqStore meets the threadgroup's sums (acc, rows·m of them a lane, in
// red, one per simdgroup and sum) and writes y.
func dqStore(b *kb, red string, rm, m, n int64) {
	simdFold(b, "acc", rm, func(idx, v string) {
		b.l("%s[sg * %du + %s] = %s;", red, rm, idx, v)
	})
	b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
	// One thread a result. A threadgroup has at least one simdgroup
	// (resized or emitted for one), so up to 32 results need no loop;
	// more (rows·M = 40 at M = 5) do.
	i := "tpos.x"
	if rm > SimdWidth {
		i = "i"
		b.l("for (uint i = tpos.x; i < %du; i += tptg.x) {", rm)
	} else {
		b.l("if (tpos.x < %du) {", rm)
	}
	b.l("float s = 0.0f;")
	b.l("for (uint g = 0; g < tptg.x / 32u; g++) {")
	b.l("s += %s[g * %du + %s];", red, rm, i)
	b.l("}")
	b.l("const uint row = r0 + %s / %du;", i, m)
	b.l("if (row < %du) {", n)
	b.l("y[(%s %% %du) * %du + row] = s;", i, m, n)
	b.l("}")
	b.l("}")
}

// dqSlot emits the work of the block slot ib (a local const uint) for
// every row of x: blk is the expression of the slot's block index within
// the row (for x), src where the weight rows are read from.
func dqSlot(b *kb, f quantInfo, m, k int64, blk string, src dqSrc) {
	for mi := range m {
		b.l("{")
		b.l("device const float *xb = x + %du + %s * %du;", mi*k, blk, f.block)
		switch f.name {
		case "q4_0":
			dqLaneQ4_0(b, mi, m, src)
		case "q4_1":
			dqLaneQ4_1(b, mi, m, src)
		case "q5_0", "q5_1":
			dqLaneQ5(b, f, mi, m, src)
		case "q8_0":
			// Rows of an even number of blocks are 4-byte aligned.
			if k/f.block%2 == 0 {
				dqLaneQ8_0Words(b, mi, m, src)
			} else {
				dqLaneQ8_0(b, mi, m, src)
			}
		case "q4_k":
			dqLaneQ4K(b, mi, m, src)
		case "q5_k":
			dqLaneQ5K(b, mi, m, src)
		case "q6_k":
			dqLaneQ6K(b, mi, m, src)
		}
		b.l("}")
	}
}

// dqDirectLoop walks the rows' blocks straight from device memory, with
// the 2-byte loads the blocks' alignment allows (q8_0 rows of an even
// number of blocks: 4-byte words, dqLaneQ8_0Words).
func dqDirectLoop(b *kb, f quantInfo, m, n, k, rows int64) {
	L := dqLanes(f)
	nb := k / f.block
	rowBytes := nb * f.bytes
	// Rows past the end read the last row; their sums are not stored.
	for r := range rows {
		b.l("device const uchar *w%d = w + min(r0 + %du, %du) * %du;", r, r, n-1, rowBytes)
	}
	src := dqSrc{space: "device", rows: rows, row: func(r int64) string { return fmt.Sprintf("w%d", r) }}
	// dqSlotsOf slots a step, in one basic block, so that the compiler can
	// issue the later slots' loads before the first slot's arithmetic; the
	// slots still add up in order. Then the rest (dqTailOf).
	b.l("const uint stride = tptg.x / %du;", L)
	b.l("uint ib0 = tpos.x / %du;", L)
	slots := dqSlotsOf(f)
	b.l("for (; ib0 + %du * stride < %du; ib0 += %du * stride) {", slots-1, nb, slots)
	for u := range slots {
		b.l("{")
		b.l("const uint ib = ib0 + %du * stride;", u)
		dqSlot(b, f, m, k, "ib", src)
		b.l("}")
	}
	b.l("}")
	// Fewer than slots blocks are left to a lane: when they are at least
	// dqTailOf(f), the step that takes them all; fewer go one at a time.
	kw := "if"
	for s := slots - 1; s >= max(dqTailOf(f), 2); s-- {
		b.l("%s (ib0 + %du * stride < %du) {", kw, s-1, nb)
		for u := range s {
			b.l("{")
			b.l("const uint ib = ib0 + %du * stride;", u)
			dqSlot(b, f, m, k, "ib", src)
			b.l("}")
		}
		b.l("ib0 += %du * stride;", s)
		kw = "} else if"
	}
	if kw != "if" {
		b.l("}")
	}
	b.l("for (; ib0 < %du; ib0 += stride) {", nb)
	b.l("{")
	b.l("const uint ib = ib0;")
	dqSlot(b, f, m, k, "ib", src)
	b.l("}")
	b.l("}")
}

// accIndex is the accumulator of row r and x row mi.
func accIndex(r, mi, m int64) int64 { return r*m + mi }

// dqRowSums emits one weight row's part of a block slot for q4_0 and
// q8_0: head loads the row's words and its scale d, body adds the
// products into the two running sums s0 and s1 (two, for the latency),
// and the row's accumulator acc takes d · (s0 + s1), or d · ((s0 + s1) −
// off) where off is set (q4_0's shifted decode, dqShiftedDecode).
func dqRowSums(b *kb, acc int64, s0, s1, off string, head, body func()) {
	b.l("{")
	head()
	b.l("float %s = 0.0f;", s0)
	b.l("float %s = 0.0f;", s1)
	body()
	if off != "" {
		b.l("acc[%d] += d * ((%s + %s) - %s);", acc, s0, s1, off)
	} else {
		b.l("acc[%d] += d * (%s + %s);", acc, s0, s1)
	}
	b.l("}")
}

// dqHalfWords emits the head of row r's block ib for blocks of bytes
// bytes that start with their half scale d (q4_0, q8_0): the block as
// 2-byte words q, and d = q[0].
func dqHalfWords(b *kb, src dqSrc, r, bytes int64) {
	b.l("%s const ushort *q = (%s const ushort *)(%s + ib * %du);", src.space, src.space, src.row(r), bytes)
	b.l("const float d = rlx_half_bits(q[0]);")
}

// xfloats loads count floats of xb from offset off as float4s into
// scalars named name0…, each multiplied by scale(i).
func xfloats(b *kb, src dqSrc, name string, off string, count int, scale func(i int) string) {
	offs := make([]string, count/4)
	for v := range offs {
		offs[v] = fmt.Sprintf("%s + %du", off, 4*v)
	}
	xfloatsAt(b, src, name, offs, scale)
}

// xfloatsAt is xfloats with the float4s at the offsets offs of xb.
func xfloatsAt(b *kb, src dqSrc, name string, offs []string, scale func(i int) string) {
	comps := []string{"x", "y", "z", "w"}
	for v, off := range offs {
		if r := src.xa.reg(name, v); r != "" {
			b.l("const float4 %sv%d = %s;", name, v, r)
		} else {
			b.l("const float4 %sv%d = *((device const float4 *)(xb + %s));", name, v, off)
		}
		for c := range 4 {
			i := 4*v + c
			if s := scale(i); s != "" {
				b.l("const float %s%d = %sv%d.%s * %s;", name, i, name, v, comps[c], s)
			} else {
				b.l("const float %s%d = %sv%d.%s;", name, i, name, v, comps[c])
			}
		}
	}
}

// sumOf writes const float <name> = the sum of the unscaled x slice: the
// float4s loaded by xfloats.
func sumOf(b *kb, name, src string, vecs int) {
	b.l("const float %s = %s;", name, xSum(src, vecs))
}

// xSum is the expression of that sum: vecs float4s src…v0, src…v1, ….
func xSum(src string, vecs int) string {
	terms := make([]string, vecs)
	for v := range terms {
		terms[v] = fmt.Sprintf("(%sv%d.x + %sv%d.y + %sv%d.z + %sv%d.w)", src, v, src, v, src, v, src, v)
	}
	return sumTerms(terms)
}

func pick(i int, a, b string) string {
	if i%2 == 0 {
		return a
	}
	return b
}

// q4_0: lane part p (0 or 1) holds qs bytes 8p..8p+7: the low nibbles are
// weights 8p+j, the high nibbles weights 16+8p+j. 2-byte word i holds
// bytes 8p+2i (bits 0-7) and 8p+2i+1 (bits 8-15).
//
// The lane's x is four float4 pieces: bytes 8p..8p+3 and 8p+4..8p+7 (words
// 0-1 and 2-3), low and high nibbles. Piece slot s holds piece s ^ (ib & 1)
// with the words that go with it, so that in one load neighbouring
// blocks' lanes read different 16-byte places of their x lines (four
// places a load instead of two: fewer bank conflicts on the H200,
// docs/gpu-check.md, run 19); any ib gives the same sums. The fields
// become floats as dqShiftedDecode says.
func dqLaneQ4_0(b *kb, mi, m int64, src dqSrc) {
	dqNibblePieces(b, src)
	// The low nibbles come out as 256 + q, the high ones as 16 + q
	// (rlx_n256, rlx_n16): q − 8 is the sums less 264·Σxl and 24·Σxh.
	b.l("const float xo = 264.0f * sxl + 24.0f * sxh;")
	b.l("const uint wq = 1u + p * 4u;")
	b.l("const uint ws = sw / 2u;")
	for r := range src.rows {
		dqRowSums(b, accIndex(r, mi, m), "al", "ah", "xo", func() { dqHalfWords(b, src, r, 18) }, func() {
			for i := range 4 {
				b.l("{")
				b.l("const uint u = q[wq + (%du ^ ws)];", i)
				// Each byte to bits 15-22: its low nibble at 15-18, its high at 19-22.
				dqShiftedDecode(b, "u", 2)
				b.l("al += xl%d * rlx_n256(v0, e256);", 2*i)
				b.l("al += xl%d * rlx_n256(v1, e256);", 2*i+1)
				b.l("ah += xh%d * rlx_n16(v0, e16);", 2*i)
				b.l("ah += xh%d * rlx_n16(v1, e16);", 2*i+1)
				b.l("}")
			}
		})
	}
}

// dqLanePieces declares q4_0's lane x (dqLaneQ4_0): the four float4
// pieces xl0…xl7 and xh0…xh7, swapped by the block's parity sw.
func dqLanePieces(b *kb, src dqSrc) {
	b.l("const uint sw = (ib & 1u) * 4u;")
	xfloatsAt(b, src, "xl", []string{"p * 8u + sw", "p * 8u + (4u - sw)"}, noScale)
	xfloatsAt(b, src, "xh", []string{"p * 8u + 16u + sw", "p * 8u + 16u + (4u - sw)"}, noScale)
}

// dqNibblePieces is dqLanePieces with the pieces' sums sxl and sxh and
// the exponents of the nibbles' decode (dqNibbleExponents): q4_0's and
// q4_1's lanes.
func dqNibblePieces(b *kb, src dqSrc) {
	dqLanePieces(b, src)
	sumOf(b, "sxl", "xl", 2)
	sumOf(b, "sxh", "xh", 2)
	dqNibbleExponents(b)
}

// q4_0Lane reports whether the format's GEMV takes q4_0's x pieces and
// layout choices (dqLayoutOf, dqStagedRows, dqSlotsOf, dqRotates,
// dqXAheadOf): q4_0, q4_1 (dqLaneQ4_1: q4_0's nibbles with a minimum),
// and q5_0 and q5_1 (dqLaneQ5: q4_0's nibbles with a fifth bit a
// weight).
func (f quantInfo) q4_0Lane() bool {
	switch f.name {
	case "q4_0", "q4_1", "q5_0", "q5_1":
		return true
	}
	return false
}

// q4_1: a block is d and m (halves, one 4-byte word) and qs, 16 bytes as
// q4_0's (weight j = d·q + m). Its 20-byte blocks keep every word 4-byte
// aligned, so lane part p reads qs bytes 8p..8p+7 as the two words 1 + 2p
// and 2 + 2p: word j holds weights 8p + 4j + c in its bytes' low nibbles
// and 16 + 8p + 4j + c in their high ones. x is q4_0's four pieces,
// swapped by the block's parity (dqLaneQ4_0), word j going with piece
// j ^ (ib & 1); the nibbles become floats as dqShiftedDecode says, and
// the sums take 256·Σxl + 16·Σxh off before d, then m·Σx.
func dqLaneQ4_1(b *kb, mi, m int64, src dqSrc) {
	dqNibblePieces(b, src)
	b.l("const float xo = 256.0f * sxl + 16.0f * sxh;")
	b.l("const float sx = sxl + sxh;")
	b.l("const uint wq = 1u + p * 2u;")
	b.l("const uint ws = sw / 4u;")
	for r := range src.rows {
		b.l("{")
		b.l("%s const uint *q = (%s const uint *)(%s + ib * 20u);", src.space, src.space, src.row(r))
		b.l("const uint dm = q[0];")
		b.l("float al = 0.0f;")
		b.l("float ah = 0.0f;")
		for i := range 2 {
			b.l("{")
			b.l("const uint u = q[wq + (%du ^ ws)];", i)
			dqShiftedDecode(b, "u", 4)
			for c := range 4 {
				b.l("al += xl%d * rlx_n256(v%d, e256);", 4*i+c, c)
			}
			for c := range 4 {
				b.l("ah += xh%d * rlx_n16(v%d, e16);", 4*i+c, c)
			}
			b.l("}")
		}
		b.l("acc[%d] += rlx_half_bits((ushort)(dm & 0xFFFFu)) * ((al + ah) - xo) + rlx_half_bits((ushort)(dm >> 16)) * sx;", accIndex(r, mi, m))
		b.l("}")
	}
}

// q5_0, q5_1: a block is d (q5_0: a half; q5_1: d and m, one 4-byte
// word), qh (32 bits: bit j is weight j's fifth bit) and qs, 16 bytes as
// q4_0's; weight j is d·(q − 16) (q5_0) or d·q + m (q5_1). Lane part p
// reads qs bytes 8p..8p+7 as two words (q5_1's 24-byte blocks keep them
// 4-byte aligned; q5_0's 22-byte ones are read in 2-byte halves): word j
// holds weights 8p + 4j + c in its bytes' low nibbles and 16 + 8p + 4j + c
// in their high ones, whose fifth bits are qh's four bits at 8p + 4j and
// at 16 + 8p + 4j. Each four bits are spread to bits 4, 12, 20 and 28 (a
// multiply by 0x204081 puts bit c at 8c) and ORed into the nibbles, so
// that a word holds four 5-bit values in its bytes, which become floats
// as q5_k's (rlx_b128: each byte moved to bits 16-23, 128 + q). x is
// q4_0's four pieces swapped by the block's parity (dqLaneQ4_0), word j
// going with piece j ^ (ib & 1); the sums take 128·Σx (q5_0: 144·Σx,
// its −16 with it) off before d, and q5_1's add m·Σx.
func dqLaneQ5(b *kb, f quantInfo, mi, m int64, src dqSrc) {
	dqLanePieces(b, src)
	b.l("const float sx = %s;", sumTerms([]string{xSum("xl", 2), xSum("xh", 2)}))
	b.l("const uint e128 = 0x43000000u + tgpos.y;")
	b.l("const uint ws = sw / 4u;")
	for r := range src.rows {
		b.l("{")
		if f.name == "q5_1" {
			b.l("%s const uint *q = (%s const uint *)(%s + ib * 24u);", src.space, src.space, src.row(r))
			b.l("const uint qh = q[1] >> (p * 8u);")
		} else {
			b.l("%s const ushort *q = (%s const ushort *)(%s + ib * 22u);", src.space, src.space, src.row(r))
			b.l("const uint qh = ((uint)q[1] | ((uint)q[2] << 16)) >> (p * 8u);")
		}
		b.l("float al = 0.0f;")
		b.l("float ah = 0.0f;")
		for i := range 2 {
			b.l("{")
			b.l("const uint j = %du ^ ws;", i)
			if f.name == "q5_1" {
				b.l("const uint u = q[2u + p * 2u + j];")
			} else {
				b.l("const uint u = (uint)q[3u + p * 4u + j * 2u] | ((uint)q[4u + p * 4u + j * 2u] << 16);")
			}
			b.l("const uint lo = (u & 0x0F0F0F0Fu) | ((((qh >> (4u * j)) & 15u) * 0x204081u & 0x01010101u) << 4);")
			b.l("const uint hi = ((u >> 4) & 0x0F0F0F0Fu) | ((((qh >> (16u + 4u * j)) & 15u) * 0x204081u & 0x01010101u) << 4);")
			for k, sh := range []string{" << 16", " << 8", "", " >> 8"} {
				b.l("al += xl%d * rlx_b128(lo%s, e128);", 4*i+k, sh)
				b.l("ah += xh%d * rlx_b128(hi%s, e128);", 4*i+k, sh)
			}
			b.l("}")
		}
		if f.name == "q5_1" {
			b.l("acc[%d] += rlx_half_bits((ushort)(q[0] & 0xFFFFu)) * ((al + ah) - 128.0f * sx) + rlx_half_bits((ushort)(q[0] >> 16)) * sx;", accIndex(r, mi, m))
		} else {
			b.l("acc[%d] += rlx_half_bits(q[0]) * ((al + ah) - 144.0f * sx);", accIndex(r, mi, m))
		}
		b.l("}")
	}
}

// dqShiftedDecode: q4_0's and q4_k's nibbles become floats with no
// subtraction and no conversion (run 29h). Each byte is shifted to bits
// 15-22; with 256's exponent bits ORed in, the low nibble (bits 15-18,
// the others masked off) reads as 256 + q, and with 16's the high one
// (bits 19-22) as 16 + q (rlx_n256, rlx_n16), so a field is a shift a
// byte, one AND-OR and the multiply-add: 2.5 instructions a weight
// instead of 3. The sums take 256·Σx and 16·Σx (q4_0: 264 and 24, its
// −8 with them) back off once a block and row. The exponents come from
// registers (dqNibbleExponents): with two constants a field an sm_90
// LOP3, which takes one, splits in two (run 27b, where this form lost
// 3–10% for that). On the H200 (run 29h, three alternating rounds, µs at
// 4096×4096, 4096×14336, 14336×4096) q4_0 6.3, 14.5–14.6, 13.9 against
// 6.4, 15.5, 14.3–14.5 and q4_k 7.0, 16.0, 15.4 against 7.3, 16.9,
// 16.7–16.8, with 15% and 17% fewer instructions (ncu at 14336×4096:
// 6.84 million against 8.05, 6.99 against 8.41). The values a sum meets
// are up to 271·|x| rather than 15·|x|, so its rounding is coarser: NMSE
// 1e-11 to 3e-11 on the op suite against 2e-14 to 3e-12 (limit 1e-8).
// q6_k's 6-bit fields, whole bytes, go to bits 16-23 as 128 + q
// (dqLaneQ6K, rlx_b128): a shift for three bytes of four.
//
// It declares v0…v(bytes−1): byte k of word at bits 15-22 of vk (the
// word's other bytes land outside them, where every mask clears them).
func dqShiftedDecode(b *kb, word string, bytes int) {
	for k, sh := range []string{"<< 15", "<< 7", ">> 1", ">> 9"}[:bytes] {
		b.l("const uint v%d = %s %s;", k, word, sh)
	}
}

// dqNibbleExponents declares e256 and e16, the exponents rlx_n256 and
// rlx_n16 OR in, as constants plus tgpos.y (0 in the one-row grid of
// the dequantising GEMV) so that the compiler keeps each in a register.
func dqNibbleExponents(b *kb) {
	b.l("const uint e256 = 0x43800000u + tgpos.y;")
	b.l("const uint e16 = 0x41800000u + tgpos.y;")
}

// noScale is xfloats' scale for x taken as it is.
func noScale(int) string { return "" }

// q8_0: lane part p (0 or 1) holds qs bytes 16p..16p+15, weights 16p+j;
// word i holds weights 16p+2i and 16p+2i+1. XOR 0x80 turns a signed byte
// q into q + 128. The lane's x is four float4 pieces (weights 16p+4c ..,
// words 2c, 2c+1); piece slot s holds piece (s + ib) % 4 with its words,
// so that one load's lanes spread over eight 16-byte places of their x
// lines instead of two (as q4_0's, run 19). Rows of an even number of
// blocks take dqLaneQ8_0Words instead (dqSlot).
func dqLaneQ8_0(b *kb, mi, m int64, src dqSrc) {
	b.l("const uint rot = ib & 3u;")
	var offs []string
	for s := range 4 {
		b.l("const uint pc%d = (%du + rot) & 3u;", s, s)
		offs = append(offs, fmt.Sprintf("p * 16u + pc%d * 4u", s))
	}
	xfloatsAt(b, src, "xs", offs, func(i int) string { return pick(i, "", "0.00390625f") })
	for r := range src.rows {
		dqRowSums(b, accIndex(r, mi, m), "a0", "a1", "", func() { dqHalfWords(b, src, r, 34) }, func() {
			for i := range 8 {
				b.l("{")
				b.l("const uint u = q[1u + p * 8u + pc%d * 2u + %du] ^ 0x4B008080u;", i/2, i%2)
				b.l("a0 += xs%d * %s;", 2*i, mfo("u & 0x4B0000FFu", 128))
				b.l("a1 += xs%d * %s;", 2*i+1, mfo("u & 0x4B00FF00u", 128<<8))
				b.l("}")
			}
		})
	}
}

// dqLaneQ8_0Words is dqLaneQ8_0 with the weights read as 4-byte words,
// for rows of an even number of blocks (68-byte pairs, so every row
// starts 4-byte aligned). A lane's 16 bytes of qs start at qa = 34·ib + 2
// + 16p: 4-byte aligned when ib is odd, 2 bytes past a word when ib is
// even. The lane loads the five words from (qa − 2) rounded down to a
// word and funnels each neighbouring pair right by 32 or 16 bits into
// the four words of its qs: five loads a row and slot instead of eight.
// The 20 bytes lie inside the row in both cases (they reach into the
// block before an odd ib, into the block after an even ib, which exists
// as nb is even).
//
// The x pieces are rotated as in dqLaneQ8_0, but by two pieces on odd
// blocks only (slot s holds piece s ^ rot, rot 0 or 2), and put back in
// order with one select a float, shared by the threadgroup's rows: the
// funnelled words then need no rotation. On the H200 (run 20a; µs at
// 4096×14336, 14336×4096, two slots a step) this measured 22.8, 23.1
// against 23.1, 23.8 for the 2-byte loads, 22.5, 23.6 with the rotation
// by ib % 4 (two selects a float) and 23.7, 24.0 with none. ncu at
// 4096×14336 counted 3.1 million L1 wavefronts against 3.9 for the 2-byte
// loads (2.6 with the rotation by ib % 4) and 1% more instructions (7%).
func dqLaneQ8_0Words(b *kb, mi, m int64, src dqSrc) {
	b.l("const uint rot = (ib & 1u) * 2u;")
	var offs []string
	for s := range 4 {
		offs = append(offs, fmt.Sprintf("p * 16u + (%du ^ rot) * 4u", s))
	}
	xfloatsAt(b, src, "xr", offs, func(i int) string { return pick(i, "", "0.00390625f") })
	// Piece v is in slot v ^ rot: float i of the pieces in order is float
	// i ^ 8 of the slots when rot is 2.
	for i := range 16 {
		b.l("const float xs%d = rot != 0u ? xr%d : xr%d;", i, i^8, i)
	}
	b.l("const uint qa = ib * 34u + 2u + p * 16u;")
	b.l("const uint wb = (qa - 2u) / 4u;")
	b.l("const uint sh = 32u - (qa & 2u) * 8u;")
	for r := range src.rows {
		dqRowSums(b, accIndex(r, mi, m), "a0", "a1", "", func() {
			b.l("%s const uint *q = (%s const uint *)%s + wb;", src.space, src.space, src.row(r))
			b.l("const float d = rlx_half_bits(((%s const ushort *)(%s + ib * 34u))[0]);", src.space, src.row(r))
			for i := range 5 {
				b.l("const uint qw%d = q[%d];", i, i)
			}
		}, func() {
			for i := range 4 {
				b.l("{")
				b.l("const uint v = (uint)((((ulong)qw%d << 32) | (ulong)qw%d) >> sh) ^ 0x80808080u;", i+1, i)
				b.l("const uint lo = v | 0x4B000000u;")
				b.l("const uint hi = (v >> 16) | 0x4B000000u;")
				b.l("a0 += xs%d * %s;", 4*i, mfo("lo & 0x4B0000FFu", 128))
				b.l("a1 += xs%d * %s;", 4*i+1, mfo("lo & 0x4B00FF00u", 128<<8))
				b.l("a0 += xs%d * %s;", 4*i+2, mfo("hi & 0x4B0000FFu", 128))
				b.l("a1 += xs%d * %s;", 4*i+3, mfo("hi & 0x4B00FF00u", 128<<8))
				b.l("}")
			}
		})
	}
}

// q4_k: lane part p = 2c + h: chunk c (32 bytes of qs: low nibbles
// sub-block 2c, high nibbles sub-block 2c+1), bytes 16h..16h+15 of it,
// that is weights 16h+j of both sub-blocks.
//
// Its x loads take 16 L1 passes each (the 32 lanes read 16 different
// lines, the four blocks' four chunks). Spreading them over the banks as
// q8_0's are did not help (run 20a): with a lane taking the words j =
// (2e + h + 2·(ib & 3)) & 7 of its chunk (four 4-byte reads of the
// staged words instead of one 16-byte read) ncu counted the same L1
// wavefronts, and the kernel measured 11.0, 24.1, 27.8 µs against 10.5,
// 24.2, 25.7.
func dqLaneQ4K(b *kb, mi, m int64, src dqSrc) { dqLaneK(b, mi, m, src, false) }

// q5_k: q4_k's lane (dqLaneQ4K: chunk c, bytes 16h..16h+15 of it, the
// same x and the same header) over its 176-byte blocks, whose qs start at
// byte 48 and whose qh[16h..16h+15] (bytes 16 + 16h, a 16-byte load)
// hold each weight's fifth bit: bit 2c for sub-block 2c, 2c + 1 for
// 2c + 1. A word of qs and its word of qh make the four 5-bit values of
// each sub-block in the bytes of one word, which become floats as q6_k's
// (rlx_b128: each byte moved to bits 16-23, 128 + q); the sums take
// 128·Σx back off.
func dqLaneQ5K(b *kb, mi, m int64, src dqSrc) { dqLaneK(b, mi, m, src, true) }

// dqLaneK is the lane of q4_k or, with fifth, of q5_k.
func dqLaneK(b *kb, mi, m int64, src dqSrc, fifth bool) {
	bytes, qs := 144, 16
	if fifth {
		bytes, qs = 176, 48
	}
	b.l("const uint c = p / 2u;")
	b.l("const uint h = p %% 2u;")
	b.l("const uint xo = c * 64u + h * 16u;")
	xfloats(b, src, "xl", "xo", 16, noScale)
	xfloats(b, src, "xh", "xo + 32u", 16, noScale)
	sumOf(b, "sxl", "xl", 4)
	sumOf(b, "sxh", "xh", 4)
	if fifth {
		b.l("const uint e128 = 0x43000000u + tgpos.y;")
	} else {
		dqNibbleExponents(b)
	}
	for r := range src.rows {
		b.l("{")
		b.l("%s const uchar *blk = %s + ib * %du;", src.space, src.row(r), bytes)
		if src.scales == nil {
			b.l("const uint4 hd = *((%s const uint4 *)blk);", src.space)
		}
		if fifth {
			b.l("const uint4 hv = *((%s const uint4 *)(blk + 16u + h * 16u));", src.space)
		}
		b.l("const uint4 qv = *((%s const uint4 *)(blk + %du + c * 32u + h * 16u));", src.space, qs)
		if src.scales == nil {
			b.l("const uint sm = rlx_q4k_pair(hd, c);")
			b.l("const float d = rlx_half_bits((ushort)(hd.x & 0xFFFFu));")
			b.l("const float dmin = rlx_half_bits((ushort)(hd.x >> 16));")
		}
		b.l("float al = 0.0f;")
		b.l("float ah = 0.0f;")
		for e, comp := range []string{"x", "y", "z", "w"} {
			b.l("{")
			if fifth {
				// The four 5-bit values of each sub-block in one word's
				// bytes, each moved to bits 16-23: 128 + q.
				b.l("const uint lo = (qv.%s & 0x0F0F0F0Fu) | (((hv.%s >> (2u * c)) & 0x01010101u) << 4);", comp, comp)
				b.l("const uint hi = ((qv.%s >> 4) & 0x0F0F0F0Fu) | (((hv.%s >> (2u * c + 1u)) & 0x01010101u) << 4);", comp, comp)
				for k, sh := range []string{" << 16", " << 8", "", " >> 8"} {
					b.l("al += xl%d * rlx_b128(lo%s, e128);", 4*e+k, sh)
					b.l("ah += xh%d * rlx_b128(hi%s, e128);", 4*e+k, sh)
				}
			} else {
				// Byte k of the word to bits 15-22: its low nibble
				// (sub-block 2c) at 15-18, its high one (2c + 1) at 19-22
				// (dqShiftedDecode).
				dqShiftedDecode(b, "qv."+comp, 4)
				for k := range 4 {
					b.l("al += xl%d * rlx_n256(v%d, e256);", 4*e+k, k)
					b.l("ah += xh%d * rlx_n16(v%d, e16);", 4*e+k, k)
				}
			}
			b.l("}")
		}
		if fifth {
			// The fields came out as 128 + q.
			b.l("al -= 128.0f * sxl;")
			b.l("ah -= 128.0f * sxh;")
		} else {
			// The nibbles came out as 256 + q and 16 + q.
			b.l("al -= 256.0f * sxl;")
			b.l("ah -= 16.0f * sxh;")
		}
		if src.scales != nil {
			b.l("const float4 sc = %s;", src.scales(r))
			b.l("acc[%d] += (sc.x * al + sc.y * ah) - (sc.z * sxl + sc.w * sxh);", accIndex(r, mi, m))
		} else {
			b.l("acc[%d] += d * ((float)(sm & 255u) * al + (float)((sm >> 8) & 255u) * ah) - dmin * ((float)((sm >> 16) & 255u) * sxl + (float)(sm >> 24) * sxh);",
				accIndex(r, mi, m))
		}
		b.l("}")
	}
}

// q6_k: lane part p = 8n + j: half n of the block, l = 4j..4j+3 of it,
// that is weights 128n + 32g + l of the four groups g. Each group's four
// 6-bit values are assembled bytewise in one 32-bit word from ql (low
// nibbles of l for g = 0, of l+32 for g = 1, high nibbles for g = 2, 3)
// and qh (bits 2g, 2g+1).
//
// Each field is moved to bits 16-23 (a shift, except byte 2, already
// there) and becomes 128 + q with 128's exponent bits ORed in
// (rlx_b128): no subtraction, x unscaled; the group's sum takes 160·Σx
// (c_g, the −32 with it, once a block for all rows) off before its
// scale multiplies it. The scale (XORed with 0x80: s + 128) becomes a
// float through 2²³'s bits, its −128 folded into the subtraction
// (rlx_mfo). Both exponents come from registers (mg, e128: constants
// with tgpos.y, which is 0 in the one-row grid, so the compiler cannot
// fold them): on the H200 a field is then one three-input AND-OR (an
// sm_90 LOP3 takes one immediate, the mask), where a constant would need
// a second instruction. Run 28 took the register and the folds (12.5
// million instructions at 14336×4096 against 13.2); run 30a the 128 + q
// form, in place of each field's subtraction of 2²³ + 32 (µs at 4096²,
// 4096×14336, 14336×4096, three alternating rounds): 8.1, 20.2,
// 19.2–19.3 against 8.2–8.3, 20.6, 19.9–20.0, with 3% fewer instructions
// (12.16 million): the moved bytes' shifts take most of what the
// subtractions gave back. A byte put in place through uchar4 (to invite
// one byte permute) compiled to the same instruction counts and ran
// slower at 4096×14336.
func dqLaneQ6K(b *kb, mi, m int64, src dqSrc) {
	b.l("const uint n6 = p / 8u;")
	b.l("const uint j6 = p %% 8u;")
	b.l("const uint mg = 0x4B000000u | tgpos.y;")
	b.l("const uint e128 = 0x43000000u + tgpos.y;")
	for g := range 4 {
		xg := fmt.Sprintf("x%d_", g)
		xfloats(b, src, xg, fmt.Sprintf("n6 * 128u + %du + j6 * 4u", 32*g), 4, noScale)
		b.l("const float c%d = 160.0f * %s;", g, xSum(xg, 1))
	}
	for r := range src.rows {
		b.l("{")
		b.l("%s const uchar *blk = %s + ib * 210u;", src.space, src.row(r))
		b.l("%s const ushort *hw = (%s const ushort *)blk;", src.space, src.space)
		b.l("const uint qa = (uint)hw[n6 * 32u + j6 * 2u] | ((uint)hw[n6 * 32u + j6 * 2u + 1u] << 16);")
		b.l("const uint qb = (uint)hw[n6 * 32u + 16u + j6 * 2u] | ((uint)hw[n6 * 32u + 16u + j6 * 2u + 1u] << 16);")
		b.l("const uint qh = (uint)hw[64u + n6 * 16u + j6 * 2u] | ((uint)hw[64u + n6 * 16u + j6 * 2u + 1u] << 16);")
		b.l("%s const uchar *sc = blk + 192u + n6 * 8u + j6 / 4u;", src.space)
		b.l("const float d = rlx_half_bits(hw[104]);")
		b.l("const uint q0 = (qa & 0x0F0F0F0Fu) | ((qh & 0x03030303u) << 4);")
		b.l("const uint q1 = (qb & 0x0F0F0F0Fu) | ((qh & 0x0C0C0C0Cu) << 2);")
		b.l("const uint q2 = ((qa >> 4) & 0x0F0F0F0Fu) | (qh & 0x30303030u);")
		b.l("const uint q3 = ((qb >> 4) & 0x0F0F0F0Fu) | ((qh >> 2) & 0x30303030u);")
		b.l("float a = 0.0f;")
		for g := range 4 {
			b.l("{")
			b.l("float t = x%d_0 * rlx_b128(q%d << 16, e128);", g, g)
			b.l("t += x%d_1 * rlx_b128(q%d << 8, e128);", g, g)
			b.l("t += x%d_2 * rlx_b128(q%d, e128);", g, g)
			b.l("t += x%d_3 * rlx_b128(q%d >> 8, e128);", g, g)
			b.l("a += %s * (t - c%d);", mfo(fmt.Sprintf("((uint)sc[%d] ^ 0x80u) | mg", 2*g), 128), g)
			b.l("}")
		}
		b.l("acc[%d] += d * a;", accIndex(r, mi, m))
		b.l("}")
	}
}

// mfo is the float of a field masked in place in a word ORed with 2²³'s
// bits (rlx_mfo), less off (the field's offset, in its place: q4_0's 8
// in the nibble at bits 4–7 is 128): the subtraction of 2²³ that makes
// the float takes the offset with it, so the sums need no Σx term.
func mfo(field string, off int64) string {
	return fmt.Sprintf("rlx_mfo(%s, %d.0f)", field, 1<<23+off)
}
