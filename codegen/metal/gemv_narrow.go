package metal

import "fmt"

// The narrow GEMV layout: one row of a (M = 1), b's columns in tiles of
// narrowCols. The wide layout (gemvBody) gives a threadgroup 128·V
// columns, a lane 4·V of them, and its simdgroups take rows: at
// 4096×4096 that is 16 tiles, so K splits 128 ways to fill the GPU and
// 2 MB of partial sums are written and merged. Here narrowLanes lanes
// share a row (a lane two vectors of 4 columns, 32 columns apart, so the
// row's 64 columns are two loads of 8 lanes × 4 elements), a simdgroup
// takes 32/narrowLanes rows a load, and a threadgroup narrowCols
// columns: four times the tiles, a quarter of the splits and of the
// partials, which gemv_merge adds as for the wide layout.
//
// On the H200 (docs/gpu-check.md, run 14) the split narrow GEMV took
// 13.2, 32.9 and 33.1 µs at 4096×4096, 4096×14336 and 14336×4096 (K×N)
// against the wide layout's 14.1, 35.3 and 33.3, and unsplit on the lm
// head (4096×151936, 2374 threadgroups) 374 µs against the wide
// layout's 294 (there each threadgroup reads 128 bytes a row, rows
// 303 KB apart), so "auto" takes it only where K splits. Folding its
// merge into the last threadgroup of each tile (fold.go, MSL 3.2) was
// slower: 16.1, 36.3 and 39.1 µs, and still 14.8, 36.1 and 36.2 with 32
// registers and with release/acquire fences instead of seq_cst ones.
// Sixteen lanes a row (128 columns) took 13.3, 32.8 and 32.2 µs, four
// (32 columns) 15.6, 41.1 and 37.8, against eight's 13.1, 33.3 and 33.1
// in the same call; 2048 threadgroups stayed the best grid (run 14d).
//
// Every sum is in a fixed order: a thread's rows in increasing k, then
// the threads of a column (simdgroup, then row within the simdgroup's
// load) through threadgroup memory, then gemv_merge's.

const (
	narrowLanes  = 8                                     // lanes sharing a row of b
	narrowVecs   = 2                                     // vectors of 4 columns a lane, 4·narrowLanes columns apart
	narrowCols   = narrowLanes * 4 * narrowVecs          // columns a threadgroup
	narrowStep   = (SimdWidth / narrowLanes) * gemvSimds // rows a step of a full threadgroup
	narrowUnroll = 4                                     // rows a thread loads before using them
)

// narrowApplies reports whether a GEMV can take the narrow layout: one
// row of a, N in vectors of 4, f16 or f32 weights.
func narrowApplies(m, n int64, be elem) bool {
	return m == 1 && n%4 == 0 && (be == elemF32 || be == elemF16)
}

func gemvNarrowBody(b *kb, s *gemvShape, ae, be, ye elem, bi batchInfo) {
	nsg := gemvSimdsUnder(&b.e.opts)
	const acc = 4 * narrowVecs // columns a lane
	b.tgmem("float", nsg*acc*SimdWidth*4)
	b.launch([3]int{int(s.tiles), int(s.splits), int(s.batch)}, [3]int{nsg * SimdWidth, 1, 1}, ResizeRows)
	bi.pointers(b, ae, be)
	b.l("const uint nsg = tptg.x / 32u;")
	b.l("const uint R = nsg * %du;", SimdWidth/narrowLanes)
	b.l("const uint k0 = tgpos.y * %du;", s.kc)
	b.l("const uint k1 = min(k0 + %du, %du);", s.kc, s.k)
	// A lane past the last column reads the last vector instead (the
	// loads stay in bounds without a branch) and its sums are not stored.
	b.l("const uint n0 = tgpos.x * %du + (lane %% %du) * 4u;", narrowCols, narrowLanes)
	for v := range int64(narrowVecs) {
		first := "n0"
		if v > 0 {
			first = fmt.Sprintf("n0 + %du", v*narrowLanes*4)
		}
		b.l("const uint c%d = min(%s, %du);", v, first, s.n-4)
	}
	b.l("float acc[%d];", acc)
	for i := range acc {
		b.l("acc[%d] = 0.0f;", i)
	}
	vt := be.msl() + "4"
	comps := []string{"x", "y", "z", "w"}
	row := func(rows int64) {
		for u := range rows {
			for v := range int64(narrowVecs) {
				b.l("const %s b%d_%d = *((device const %s *)(bp + %s * %du + c%d));", vt, u, v, vt, narrowRow(u), s.n, v)
			}
		}
		for u := range rows {
			b.l("{")
			b.l("const float av = (float)ap[%s];", narrowRow(u))
			for v := range int64(narrowVecs) {
				for c := range 4 {
					b.l("acc[%d] += av * (float)b%d_%d.%s;", v*4+int64(c), u, v, comps[c])
				}
			}
			b.l("}")
		}
	}
	b.l("uint kk = k0 + sg * %du + lane / %du;", SimdWidth/narrowLanes, narrowLanes)
	b.l("for (; kk + %du * R < k1; kk += %du * R) {", narrowUnroll-1, narrowUnroll)
	row(narrowUnroll)
	b.l("}")
	b.l("for (; kk < k1; kk += R) {")
	row(1)
	b.l("}")
	for i := range acc {
		b.l("tg[(%du * nsg + sg) * 32u + lane] = acc[%d];", i, i)
	}
	b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
	// Column e of the tile is acc[i] of lane e%32/4 of each row group.
	b.l("for (uint e = tpos.x; e < %du; e += tptg.x) {", narrowCols)
	b.l("const uint i = (e / %du) * 4u + e %% 4u;", narrowLanes*4)
	b.l("const uint cl = (e %% %du) / 4u;", narrowLanes*4)
	b.l("float sum = 0.0f;")
	b.l("for (uint g = 0; g < R; g++) {")
	b.l("sum += tg[i * nsg * 32u + g * %du + cl];", narrowLanes)
	b.l("}")
	gemvStoreColumn(b, s, ye)
	b.l("}")
}

// narrowRow is the row of b (and element of a) of a thread's u-th load.
func narrowRow(u int64) string {
	switch u {
	case 0:
		return "kk"
	case 1:
		return "(kk + R)"
	}
	return fmt.Sprintf("(kk + %du * R)", u)
}
