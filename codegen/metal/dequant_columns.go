package metal

import "fmt"

// The GEMV of q6_k_c16 (dequant_gemv_q6_k_c16): q6_k's bytes rearranged
// over the whole [n, k] weight into columns of 16 weights (runtime/gguf's
// Q6_KC16: four arrays, ql, qh, sc and d, every part of a column an
// aligned load), for an x-stationary walk. A lane owns a column c of 16
// weights: it loads its 16 x values (for each row of x) into registers
// once, then walks the threadgroup's rows (colRows, colRowsNarrow for a
// narrow threadgroup), colAhead rows ahead: each row is one 8-byte load
// of the column's low nibbles, one 4-byte load of their top two bits,
// its scale byte and its block's d, and the lanes of a simdgroup read
// neighbouring columns, so each load is contiguous across the simdgroup.
// Where the rows fill the threadgroups, a lane reads them through
// pointers that each turn moves on (colPlan.stepped). After every
// colAhead rows the simdgroup's lanes fold their row sums (simdFold) into
// threadgroup memory, one slot a simdgroup and row; the slots meet at the
// end in simdgroup order. A threadgroup has a lane a column up to the thread
// limit; a longer row takes more column passes, each adding into the
// same slots, so the kernel also runs with fewer threads than it asks
// for (ResizeRows).
//
// Each field is read as 128 + q without a subtraction (rlx_b128, as
// dqLaneQ6K): the byte moved to bits 16-23 and ORed with 128's exponent
// bits; the column's sum takes 160·Σx off once (q − 32 = (128 + q) −
// 160).
//
// On the H200 the CUDA probe's version of this kernel (bench/gpu/dqprobe,
// xs6h_r32_d4_c2, run 30) took 16.6–16.8 µs at 14336×4096 against the
// GGUF-layout kernel's 19.2, and 18.9–19.2 at 4096×14336 against 20.1
// (docs/gpu-check.md, run 30). The emitted kernel (run 31a) took 18.6
// µs at 14336×4096 against q6_k's 19.3, but 21.4 at 4096×14336 against
// 20.2 and 10.3 at 4096×4096 against 8.2, so nothing selects it by
// itself (rlx-import --q6k-columns asks); docs/gpu-check.md, What is not
// done, says what differs from the probe. Where the rows fill the
// threadgroups they are read through pointers each turn moves on, as the
// probe's are, instead of a row index times the columns (stop 50): on the
// H200 that is 6% faster at 14336×4096 and 1% at 4096×14336 (run 34a:
// 17.4 against 18.6 µs, 21.1 against 21.4), on an H100 18% and 2% slower
// (run 33c); bench/gpu/variants/c16-indexed.patch keeps the indexed
// rows.

// colRows is the weight rows a threadgroup of the q6_k_c16 GEMV walks
// with one x row, colRowsNarrow the same for a threadgroup of at most
// colNarrow lanes (K ≤ 4096) and one row of x, and colAhead how many rows
// ahead a lane loads. (More rows of x keep colRows: each lane loads 64
// bytes of x a row of x a threadgroup, against 13 bytes of weight a
// weight row, so fewer weight rows would read more x than weights; not
// measured.) A threadgroup of a few hundred lanes shares a core with others
// (three of 256 lanes at the 72 registers the CUDA build takes), so
// fewer rows make a grid of several full waves instead of one and a thin
// second: on an H100 (run 35a) 8 rows took 8.1 µs at 4096×4096 and 20.2
// at 4096×14336 against 32 rows' 10.3 and 24.7 (16 rows: 8.5, 21.8). A
// threadgroup of 896 lanes (K = 14336) fills a core alone: there 16 rows
// (two waves) took 22.3 µs and 8 took 24.1 against 32 rows' 20.6.
const (
	colRows       = 32
	colRowsNarrow = 8
	colNarrow     = 256
	colAhead      = 4
)

// colPlan is the shape of a q6_k_c16 GEMV.
type colPlan struct {
	m, n, k int64
	cols    int64 // columns of 16 weights a row
	rows    int64 // weight rows a threadgroup owns, a multiple of colAhead
	threads int64
}

func planColumns(m, n, k int64, maxThreads int) colPlan {
	cols := k / 16
	threads := min(ceilDiv(cols, SimdWidth)*SimdWidth, int64(maxThreads)/SimdWidth*SimdWidth)
	budget := int64(colRows)
	if threads <= colNarrow && m == 1 {
		budget = colRowsNarrow
	}
	rows := max(colAhead, min(budget/m/colAhead*colAhead, ceilDiv(n, colAhead)*colAhead))
	return colPlan{m: m, n: n, k: k, cols: cols, rows: rows, threads: threads}
}

// dequantGEMVColumns writes the body of the q6_k_c16 GEMV (buffers x, w
// and y bound).
func dequantGEMVColumns(b *kb, m, n, k int64) {
	p := planColumns(m, n, k, b.e.opts.MaxThreadsPerThreadgroup)
	rm := p.rows * m
	nsg := p.threads / SimdWidth
	b.tgmem("float", int(nsg*rm*4))
	// One row of threadgroups: tgpos.y is a zero the compiler cannot see
	// (the exponents come from registers, as in dqLaneQ6K).
	b.launch([3]int{int(ceilDiv(n, p.rows)), 1, 1}, [3]int{int(p.threads), 1, 1}, ResizeRows)
	nk16 := n * p.cols
	b.l("device const uint2 *qlw = (device const uint2 *)w;")
	b.l("device const uint *qhw = (device const uint *)(w + %du);", 8*nk16)
	b.l("device const uchar *scw = w + %du;", 12*nk16)
	b.l("device const ushort *dw = (device const ushort *)(w + %du);", 13*nk16)
	b.l("const uint r0 = tgpos.x * %du;", p.rows)
	b.l("const uint e128 = 0x43000000u + tgpos.y;")
	b.l("const uint mg = 0x4B000000u | tgpos.y;")
	b.l("for (uint c0 = 0u; c0 < %du; c0 += tptg.x) {", p.cols)
	// A lane past the last column reads the last one with zero x.
	b.l("const bool live = c0 + tpos.x < %du;", p.cols)
	b.l("const uint c = min(c0 + tpos.x, %du);", p.cols-1)
	comps := []string{"x", "y", "z", "w"}
	for mi := range m {
		for v := range 4 {
			b.l("const float4 xr%d_%d = *((device const float4 *)(x + %du + c * 16u + %du));", mi, v, mi*k, 4*v)
			for j, comp := range comps {
				b.l("const float x%d_%d = live ? xr%d_%d.%s : 0.0f;", mi, 4*v+j, mi, v, comp)
			}
		}
		terms := make([]string, 4)
		for v := range terms {
			terms[v] = fmt.Sprintf("(x%[1]d_%[2]d + x%[1]d_%[3]d + x%[1]d_%[4]d + x%[1]d_%[5]d)", mi, 4*v, 4*v+1, 4*v+2, 4*v+3)
		}
		b.l("const float cx%d = 160.0f * (%s);", mi, sumTerms(terms))
	}
	if p.stepped() {
		// The column's parts in the threadgroup's first row; each turn
		// moves them on colAhead rows.
		b.l("device const uint2 *qlr = qlw + (r0 * %du + c);", p.cols)
		b.l("device const uint *qhr = qhw + (r0 * %du + c);", p.cols)
		b.l("device const uchar *scr = scw + (r0 * %du + c);", p.cols)
		b.l("device const ushort *dr = dw + (r0 * %du + c / 16u);", p.k/256)
	}
	for i := range int64(colAhead) {
		b.l("uint2 ql%d;", i)
		b.l("uint qh%d;", i)
		b.l("uint sc%d;", i)
		b.l("ushort d%d;", i)
		colLoad(b, p, i, "", i)
	}
	b.l("for (uint rt = 0u; rt < %du; rt += %du) {", p.rows-colAhead, colAhead)
	colTurn(b, p, "rt", true)
	b.l("}")
	colTurn(b, p, fmt.Sprintf("%du", p.rows-colAhead), false)
	b.l("}")
	b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
	// One thread a result, the simdgroups' slots in order.
	b.l("for (uint i = tpos.x; i < %du; i += tptg.x) {", rm)
	b.l("const uint row = r0 + i / %du;", m)
	b.l("if (row < %du) {", n)
	b.l("float s = 0.0f;")
	b.l("for (uint g = 0u; g < tptg.x / 32u; g++) {")
	b.l("s += tg[g * %du + i];", rm)
	b.l("}")
	b.l("y[(i %% %du) * %du + row] = s;", m, n)
	b.l("}")
	b.l("}")
}

// stepped reports whether the threadgroups' rows fill n exactly, so that
// a lane reads its rows through pointers that each turn moves on: every
// load is then a pointer and a constant (the row's offset in the turn),
// which a compiler folds into the load's address, where a row index
// times the columns, computed in 32 bits, costs a multiply and a 64-bit
// add a load (the CUDA probe's xs6h steps its pointers so).
func (p colPlan) stepped() bool { return p.n%p.rows == 0 }

// colLoad emits the loads of ahead-slot i's weight row, ahead rows on
// from the turn's first (rt, an expression; "" for the loads before the
// first turn), into the slot's registers ql<i>, qh<i>, sc<i>, d<i>:
// through the stepped pointers, which stand at the turn's first row; or
// by the row's index, clamped to the last row (the rows do not fill the
// threadgroups).
func colLoad(b *kb, p colPlan, i int64, rt string, ahead int64) {
	b.l("{")
	var ql, qh, sc, d string
	if p.stepped() {
		o := fmt.Sprintf("%du", ahead*p.cols)
		ql, qh, sc = "qlr["+o+"]", "qhr["+o+"]", "scr["+o+"]"
		d = fmt.Sprintf("dr[%du]", ahead*p.k/256)
	} else {
		row := fmt.Sprintf("r0 + %du", ahead)
		if rt != "" {
			row = fmt.Sprintf("r0 + %s + %du", rt, ahead)
		}
		b.l("const uint rr = min(%s, %du);", row, p.n-1)
		b.l("const uint o = rr * %du + c;", p.cols)
		ql, qh, sc = "qlw[o]", "qhw[o]", "scw[o]"
		d = fmt.Sprintf("dw[rr * %du + c / 16u]", p.k/256)
	}
	// Loaded into a const first: the CUDA shim's vector assignment
	// copies element by element (rlx_copy_storage), which split the
	// 8-byte load in two; the copy construction is one load.
	b.l("const uint2 lq = %s;", ql)
	b.l("ql%d = lq;", i)
	b.l("qh%d = %s;", i, qh)
	b.l("sc%d = %s;", i, sc)
	b.l("d%d = %s;", i, d)
	b.l("}")
}

// colTurn emits colAhead rows from rt: each takes its registers, loads
// its slot's next row when more follows, and adds its products; then
// the simdgroup folds the rows' sums into its slots.
func colTurn(b *kb, p colPlan, rt string, more bool) {
	b.l("{")
	b.l("float part[%d];", colAhead*p.m)
	for i := range int64(colAhead) {
		b.l("{")
		b.l("const uint2 q = ql%d;", i)
		b.l("const uint h = qh%d;", i)
		b.l("const uint s = sc%d;", i)
		b.l("const ushort dh = d%d;", i)
		if more {
			colLoad(b, p, i, rt, colAhead+i)
		}
		b.l("const uint l0 = (q.x & 0x0F0F0F0Fu) | (h & 0x30303030u);")
		b.l("const uint h0 = ((q.x >> 4) & 0x0F0F0F0Fu) | ((h >> 2) & 0x30303030u);")
		b.l("const uint l1 = (q.y & 0x0F0F0F0Fu) | ((h << 4) & 0x30303030u);")
		b.l("const uint h1 = ((q.y >> 4) & 0x0F0F0F0Fu) | ((h << 2) & 0x30303030u);")
		b.l("const float sd = %s;", mfo("(s ^ 0x80u) | mg", 128))
		b.l("const float d = rlx_half_bits(dh);")
		shifts := []string{" << 16", " << 8", "", " >> 8"}
		for mi := range p.m {
			b.l("{")
			for j := range 8 {
				lw, hw := fmt.Sprintf("l%d", j/4), fmt.Sprintf("h%d", j/4)
				xl, xh := fmt.Sprintf("x%d_%d", mi, j), fmt.Sprintf("x%d_%d", mi, 8+j)
				decl, op := "", "+="
				if j == 0 {
					decl, op = "float ", "="
				}
				b.l("%sa0 %s %s * rlx_b128(%s%s, e128);", decl, op, xl, lw, shifts[j%4])
				b.l("%sa1 %s %s * rlx_b128(%s%s, e128);", decl, op, xh, hw, shifts[j%4])
			}
			b.l("part[%d] = d * (sd * ((a0 + a1) - cx%d));", i*p.m+mi, mi)
			b.l("}")
		}
		b.l("}")
	}
	if more && p.stepped() {
		b.l("qlr += %du;", colAhead*p.cols)
		b.l("qhr += %du;", colAhead*p.cols)
		b.l("scr += %du;", colAhead*p.cols)
		b.l("dr += %du;", colAhead*p.k/256)
	}
	rm := p.rows * p.m
	simdFold(b, "part", colAhead*p.m, func(idx, v string) {
		at := fmt.Sprintf("sg * %du + %s * %du + %s", rm, rt, p.m, idx)
		b.l("if (c0 == 0u) {")
		b.l("tg[%s] = %s;", at, v)
		b.l("} else {")
		b.l("tg[%s] += %s;", at, v)
		b.l("}")
	})
	b.l("}")
}
