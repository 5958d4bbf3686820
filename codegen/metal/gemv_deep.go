package metal

import "fmt"

// The deep GEMV layout: one row of a (M = 1), N in vectors of 4, f16 or
// f32 weights, as the narrow layout (narrowApplies), but K is never split
// across threadgroups. A threadgroup of deepSimds simdgroups owns
// deepCols columns and walks all of K: deepLanes lanes share a row of b
// (a vector of 4 columns a lane), so a simdgroup loads deepRows rows at
// once, and each thread takes deepUnroll consecutive rows a step, all
// loaded before any is used (with a's elements of the step as vectors of
// 4 where K keeps them aligned); a step of the threadgroup covers
// R = deepRows·deepUnroll·simdgroups rows. The sums meet inside the
// threadgroup — the four lanes of a column vector through
// simd_shuffle_xor, the simdgroups through threadgroup memory — so there
// is no partial-sum buffer and no second dispatch.
//
// It pays where the grid is small: where the narrow layout would split K
// (few column tiles) and the deep grid still spreads over the GPU
// (deepPays). On the H200 (docs/gpu-check.md, run 15; µs at 4096×4096,
// 4096×14336, 14336×4096, K × N) it took 11.0, 33.3 (forced; "auto"
// keeps the narrow layout there, 448 threadgroups) and 31.0 against the
// split narrow layout's 13.2, 33.4 and 33.3. Consecutive rows a thread
// beat rows R apart (the narrow layout's order) at 8 rows a step: 10.8
// against 12.8 µs at 4096×4096; 4 rows a step took 11.8 either way, 16
// 10.9, 6 12.8. 16 simdgroups, 4 lanes a row (16 columns) and 16-byte
// loads of 8 halves a lane were slower.
//
// Every sum is in a fixed order: a thread's rows in increasing k, then
// the butterfly over the lanes of a column vector (lane ^ 8, then
// lane ^ 16: every lane of the four ends with the same bits), then the
// simdgroups in order.

const (
	deepLanes  = 8                     // lanes sharing a row of b, a vector of 4 columns each
	deepCols   = deepLanes * 4         // columns a threadgroup
	deepRows   = SimdWidth / deepLanes // rows a simdgroup loads at once
	deepSimds  = 32                    // simdgroups a threadgroup, at most
	deepUnroll = 8                     // consecutive rows a thread takes a step
)

// planDeep plans the deep layout.
func planDeep(m, k, n, batch int64) gemvShape {
	return gemvShape{m: m, k: k, n: n, batch: batch, w: 4, v: 1, cols: deepCols,
		tiles: ceilDiv(n, deepCols), splits: 1, kc: k, layout: layoutDeep}
}

// deepThreads is a deep threadgroup's size under o.
func deepThreads(o *Options) int64 {
	return int64(min(deepSimds, o.MaxThreadsPerThreadgroup/SimdWidth)) * SimdWidth
}

// deepPays reports whether "auto" takes the deep layout s: its threads
// are between an eighth and a half of what the GPU holds at once
// (Options.DecodeThreadgroups threadgroups of the split layouts' size). More than half measured slower than the split
// narrow layout on the H200 (4096×14336: 448 threadgroups of 1024
// threads, 34.3 against 33.4 µs; each multiprocessor holds one); the
// eighth keeps a grid of a few threadgroups, most of the GPU idle, from
// walking a long K alone (a bound not measured).
func deepPays(s gemvShape, o *Options) bool {
	capacity := int64(o.DecodeThreadgroups) * int64(gemvSimdsUnder(o)) * SimdWidth
	t := s.tiles * s.batch * deepThreads(o)
	return 8*t >= capacity && 2*t <= capacity
}

func gemvDeepBody(b *kb, s *gemvShape, ae, be, ye elem, bi batchInfo) {
	nsg := deepThreads(&b.e.opts) / SimdWidth
	const U = int64(deepUnroll)
	b.tgmem("float", int(nsg*deepCols*4))
	b.launch([3]int{int(s.tiles), 1, int(s.batch)}, [3]int{int(nsg * SimdWidth), 1, 1}, ResizeRows)
	bi.pointers(b, ae, be)
	b.l("const uint R = (tptg.x / 32u) * %du;", deepRows*U)
	// A lane past the last column reads the last vector instead (the
	// loads stay in bounds without a branch) and its sums are not stored.
	b.l("const uint c0 = min(tgpos.x * %du + (lane %% %du) * 4u, %du);", deepCols, deepLanes, s.n-4)
	b.l("float acc[4];")
	for i := range 4 {
		b.l("acc[%d] = 0.0f;", i)
	}
	vt := be.msl() + "4"
	comps := []string{"x", "y", "z", "w"}
	rowOf := func(u int64) string {
		if u == 0 {
			return "kk"
		}
		return fmt.Sprintf("(kk + %du)", u)
	}
	// a's elements of a step load as vectors of 4 where K keeps them
	// aligned (the short last step loads them one at a time).
	avec := s.k%4 == 0 && (ae == elemF16 || ae == elemF32)
	rows := func(n int64, step bool) {
		for u := range n {
			b.l("const %s b%d = *((device const %s *)(bp + %s * %du + c0));", vt, u, vt, rowOf(u), s.n)
		}
		if step && avec {
			for v := range n / 4 {
				b.l("const %s4 a%d = *((device const %s4 *)(ap + kk + %du));", ae.msl(), v, ae.msl(), 4*v)
			}
		}
		for u := range n {
			b.l("{")
			if step && avec {
				b.l("const float av = (float)a%d.%s;", u/4, comps[u%4])
			} else {
				b.l("const float av = (float)ap[%s];", rowOf(u))
			}
			for c := range 4 {
				b.l("acc[%d] += av * (float)b%d.%s;", c, u, comps[c])
			}
			b.l("}")
		}
	}
	b.l("uint kk = (sg * %du + lane / %du) * %du;", deepRows, deepLanes, U)
	b.l("for (; kk + %du < %du; kk += R) {", U-1, s.k)
	rows(U, true)
	b.l("}")
	// The step K ends in, one row at a time.
	b.l("for (; kk < %du; kk++) {", s.k)
	rows(1, false)
	b.l("}")
	// Every lane reaches the shuffles (the loop bounds are uniform).
	for off := deepLanes; off < SimdWidth; off *= 2 {
		for i := range 4 {
			b.l("acc[%d] += simd_shuffle_xor(acc[%d], %du);", i, i, off)
		}
	}
	b.l("if (lane < %du) {", deepLanes)
	for i := range 4 {
		b.l("tg[sg * %du + lane * 4u + %du] = acc[%d];", deepCols, i, i)
	}
	b.l("}")
	b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
	b.l("for (uint e = tpos.x; e < %du; e += tptg.x) {", deepCols)
	b.l("float sum = 0.0f;")
	b.l("for (uint g = 0; g < tptg.x / 32u; g++) {")
	b.l("sum += tg[g * %du + e];", deepCols)
	b.l("}")
	gemvStoreColumn(b, s, ye)
	b.l("}")
}
