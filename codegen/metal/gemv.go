package metal

import (
	"fmt"
	"strings"

	"github.com/rlx-compiler/rlx/ir"
)

// GEMV: graph.matmul with M ≤ gemvMaxRows (the decode case), y = a·b with
// b [..., K, N] row-major, so b's rows are contiguous in N.
//
// A decode GEMV is bound by the bytes of b in flight (docs/gpu-check.md:
// on an H200 its bandwidth followed the threadgroup count almost linearly
// when each threadgroup walked the whole of K). So:
//
//   - a lane owns 4·V columns, read with V vector loads of 16 bytes
//     together per row (f32 one float4, f16 two half4 128 columns apart, so
//     each load instruction of a simdgroup reads 256 or 512 contiguous
//     bytes); a threadgroup covers 128·V columns;
//   - the simdgroups of a threadgroup take rows of K in groups of
//     gemvUnroll, loading a group's rows before using them;
//   - K is split across threadgroups into as many splits as keep the grid
//     within Options.DecodeThreadgroups threadgroups (each split at least
//     gemvMinRows rows): each split writes its partial sums
//     (f32) to a region temporary, and gemv_merge adds the splits
//     (emitSplitSum) and rounds to y's type. Without a split the first
//     kernel writes y itself.
//
// The simdgroups' partials meet in threadgroup memory. Every sum is in a
// fixed order (rows of a group, groups of a simdgroup, simdgroups, the
// merge's shares of the splits), so results do not depend on timing.
//
// That is the wide layout; the narrow one (gemv_narrow.go) gives a
// threadgroup fewer columns so that K splits fewer ways, and the deep one
// (gemv_deep.go) does not split K at all. planGEMV picks.

const (
	gemvSimds   = 4  // simdgroups per threadgroup
	gemvUnroll  = 4  // rows of b a simdgroup loads before using them
	gemvMinRows = 32 // fewest rows of K per split
	// defaultDecodeThreadgroups is Options.DecodeThreadgroups' default,
	// the most threadgroups a split GEMV launches: about what a large GPU
	// holds at once (an H200: 132 multiprocessors of 16 threadgroups of
	// 128 threads; an M2 Ultra has 76 cores). On the H200
	// (docs/gpu-check.md, "Tuning, measured") 2048 was best or within 7%
	// of best at every decode shape, against 1024 and 4096; 512 was 1.3
	// to 1.5 times slower than 1024.
	defaultDecodeThreadgroups = 2048
	// mergeThreads is the threadgroup size of attention_merge. A merge
	// has few results (4096 for 32 heads of 128), each a chain of
	// dependent loads over the splits: small threadgroups spread them
	// over more multiprocessors (on the H200, 16 threadgroups of 256 used
	// 16 of its 132).
	mergeThreads = 64
	// splitSumSimds is the most simdgroups of a gemv_merge threadgroup,
	// each adding its share of the splits (emitSplitSum).
	splitSumSimds = 8
)

// gemvShape is the launch plan of one GEMV.
type gemvShape struct {
	m, k, n, batch int64
	w, v           int64  // columns per vector load (4, or 1 without vectors), vector loads per lane and row
	cols, tiles    int64  // columns per threadgroup, threadgroups across N
	splits, kc     int64  // splits of K, rows per split
	layout         string // layoutWide, layoutNarrow or layoutDeep
}

// The GEMV layouts (Options.GEMVLayout names them).
const (
	layoutWide   = "wide"   // gemvBody
	layoutNarrow = "narrow" // gemv_narrow.go
	layoutDeep   = "deep"   // gemv_deep.go
)

// planGEMV picks the layout (Options.GEMVLayout) and plans it. "auto"
// takes, where the narrow layout applies (one row of a, N in vectors of
// 4, f16 or f32 weights) and would split K, the deep layout when its
// grid is between an eighth and a half of what the GPU holds at once
// (deepPays) and the narrow one otherwise, as measured on the H200; the
// wide layout everywhere else.
func planGEMV(m, k, n, batch int64, be elem, o *Options) gemvShape {
	target := int64(o.DecodeThreadgroups)
	switch {
	case o.GEMVLayout == layoutWide || !narrowApplies(m, n, be):
	case o.GEMVLayout == layoutDeep:
		return planDeep(m, k, n, batch)
	case o.GEMVLayout == layoutNarrow:
		return planLayout(m, k, n, batch, be, target, layoutNarrow)
	default:
		if nar := planLayout(m, k, n, batch, be, target, layoutNarrow); nar.splits > 1 {
			if deep := planDeep(m, k, n, batch); deepPays(deep, o) {
				return deep
			}
			return nar
		}
	}
	return planLayout(m, k, n, batch, be, target, layoutWide)
}

func planLayout(m, k, n, batch int64, be elem, target int64, layout string) gemvShape {
	s := gemvShape{m: m, k: k, n: n, batch: batch, w: 1, v: 1, layout: layout}
	if n%4 == 0 && (be == elemF32 || be == elemF16) {
		s.w = 4
		s.v = 16 / (4 * int64(be.size()))
	}
	s.cols = SimdWidth * s.w * s.v
	step := int64(gemvUnroll)
	if layout == layoutNarrow {
		s.v, s.cols, step = narrowVecs, narrowCols, narrowStep
	}
	s.tiles = ceilDiv(n, s.cols)
	s.splits = 1
	if base := s.tiles * batch; base < target {
		s.splits = max(1, min(target/base, k/gemvMinRows))
	}
	s.kc = ceilDiv(ceilDiv(k, s.splits), step) * step
	s.splits = ceilDiv(k, s.kc)
	return s
}

// gemvSimdsUnder is the simdgroups of a split layout's threadgroup (the
// wide and narrow layouts) under o.
func gemvSimdsUnder(o *Options) int { return min(gemvSimds, o.MaxThreadsPerThreadgroup/SimdWidth) }

// gemvStoreColumn writes the store of sum, column e of the threadgroup's
// tile (s.cols wide), to its split's partial sums or, unsplit, to y.
func gemvStoreColumn(b *kb, s *gemvShape, ye elem) {
	b.l("const uint col = tgpos.x * %du + e;", s.cols)
	b.l("if (col < %du) {", s.n)
	if s.splits > 1 {
		b.l("part[(tgpos.y * %du + z) * %du + col] = sum;", s.batch, s.n)
	} else {
		b.l("y[z * %du + col] = (%s)sum;", s.n, ye.msl())
	}
	b.l("}")
}

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }

func emitGEMV(r *regionState, op *ir.Operation, a, bt, y tensorInfo, bi batchInfo) error {
	s := planGEMV(a.dim(-2), a.dim(-1), bt.dim(-1), bi.count, bt.elem, &r.e.opts)
	key := keyOf(a.elem, bt.elem, y.elem, a.shape, bt.shape, y.shape)
	part := tensorInfo{elem: elemF32, shape: []int64{s.splits, s.batch, s.m, s.n}, n: s.splits * s.batch * s.m * s.n}
	kern, err := r.e.kernel(op, "gemv", key, func(b *kb) error {
		b.k.Summary = fmt.Sprintf("gemv %v·%v, %s·%s", a.shape, bt.shape, a.elem, bt.elem)
		if s.splits > 1 {
			b.k.Summary += fmt.Sprintf(", K in %d splits of %d", s.splits, s.kc)
		}
		if s.layout != layoutWide {
			b.k.Summary += ", " + s.layout
		}
		b.buffer("a", a, accRead)
		b.buffer("b", bt, accRead)
		if s.splits > 1 {
			b.buffer("part", part, accWrite)
		} else {
			b.buffer("y", y, accWrite)
		}
		switch s.layout {
		case layoutNarrow:
			gemvNarrowBody(b, &s, a.elem, bt.elem, y.elem, bi)
		case layoutDeep:
			gemvDeepBody(b, &s, a.elem, bt.elem, y.elem, bi)
		default:
			gemvBody(b, &s, a.elem, bt.elem, y.elem, bi)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if s.splits == 1 {
		ids, err := r.bind([]*ir.Value{op.Operand(0), op.Operand(1)}, []*ir.Value{op.Result(0)})
		if err != nil {
			return err
		}
		r.dispatch(kern, []*ir.Operation{op}, ids)
		return nil
	}
	merge, err := r.e.kernel(op, "gemv_merge", keyOf(y.elem, s.splits, part.n), func(b *kb) error {
		b.k.Summary = fmt.Sprintf("gemv_merge: %d splits of %d partial sums into %s", s.splits, part.n/s.splits, y.elem)
		b.buffer("part", part, accRead)
		b.buffer("y", y, accWrite)
		emitSplitSum(b, part.n/s.splits, s.splits, y.elem)
		return nil
	})
	if err != nil {
		return err
	}
	ids, err := r.bind([]*ir.Value{op.Operand(0), op.Operand(1)}, nil)
	if err != nil {
		return err
	}
	tmp := r.temp(part)
	r.dispatch(kern, []*ir.Operation{op}, append(ids, tmp))
	out, err := r.bind(nil, []*ir.Value{op.Result(0)})
	if err != nil {
		return err
	}
	r.dispatch(merge, []*ir.Operation{op}, append([]int{tmp}, out...))
	return nil
}

// emitSplitSum writes the merge of a split-K kernel. A threadgroup takes
// 32 results, one a lane, and its simdgroups share the splits: simdgroup
// g adds splits g, g+P, g+2P, … (P simdgroups), all of a thread's loads
// issued before the first add when they fit a chunk; then the P sums meet
// in threadgroup memory, added in simdgroup order. The sum's order
// depends on the threadgroup's size, not on timing.
//
// The first merge was one thread a result adding every split, mergeChunk
// loads at a time, in threadgroups of 64: at 4096×4096 (128 splits) four
// rounds of dependent loads a thread, in a case of 15.7 µs whose GEMV
// kernel alone took 11.5 under ncu (docs/gpu-check.md, runs 10 and 13).
// Folding the merge into the GEMV's last threadgroup of each column tile
// (fold.go) measured slower (22.2 µs in run 13): there the 128 splits'
// loads are as serial, and the GEMV's registers rose from 32 to 38,
// which cost the weight stream its occupancy (the lm head, 3 splits, went
// from 292 to 358 µs).
func emitSplitSum(b *kb, n, splits int64, ye elem) {
	nsg := max(1, min(splitSumSimds, splits, int64(b.e.opts.MaxThreadsPerThreadgroup/SimdWidth)))
	chunk := min(mergeChunk, ceilDiv(splits, nsg))
	b.tgmem("float", int(nsg*SimdWidth*4))
	b.launch([3]int{int(ceilDiv(n, SimdWidth)), 1, 1}, [3]int{int(nsg * SimdWidth), 1, 1}, ResizeRows)
	b.l("const uint t = tgpos.x * 32u + lane;")
	b.l("const uint P = tptg.x / 32u;")
	b.l("float s = 0.0f;")
	b.l("if (t < %du) {", n)
	b.l("uint sp = sg;")
	if chunk > 1 {
		b.l("for (; sp + %du * P < %du; sp += %du * P) {", chunk-1, splits, chunk)
		for i := range chunk {
			split := "sp"
			if i > 0 {
				split = fmt.Sprintf("(sp + %du * P)", i)
			}
			b.l("const float v%d = part[%s * %du + t];", i, split, n)
		}
		for i := range chunk {
			b.l("s += v%d;", i)
		}
		b.l("}")
	}
	b.l("for (; sp < %du; sp += P) {", splits)
	b.l("s += part[sp * %du + t];", n)
	b.l("}")
	b.l("}")
	b.l("tg[sg * 32u + lane] = s;")
	b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
	b.l("if (sg == 0 && t < %du) {", n)
	b.l("float sum = 0.0f;")
	b.l("for (uint g = 0; g < P; g++) {")
	b.l("sum += tg[g * 32u + lane];")
	b.l("}")
	b.l("y[t] = (%s)sum;", ye.msl())
	b.l("}")
}

func gemvBody(b *kb, s *gemvShape, ae, be, ye elem, bi batchInfo) {
	nsg := gemvSimdsUnder(&b.e.opts)
	wv := s.w * s.v
	acc := s.m * wv
	b.tgmem("float", int(int64(nsg)*acc*SimdWidth*4))
	b.launch([3]int{int(s.tiles), int(s.splits), int(s.batch)}, [3]int{nsg * SimdWidth, 1, 1}, ResizeRows)
	bi.pointers(b, ae, be)
	b.l("const uint nsg = tptg.x / 32u;")
	b.l("const uint k0 = tgpos.y * %du;", s.kc)
	b.l("const uint k1 = min(k0 + %du, %du);", s.kc, s.k)
	// A lane past the last column reads the last vector instead (the
	// loads stay in bounds without a branch) and its sums are not stored.
	b.l("const uint n0 = tgpos.x * %du + lane * %du;", s.cols, s.w)
	for v := range s.v {
		b.l("const uint c%d = min(n0 + %du, %du);", v, v*SimdWidth*s.w, s.n-s.w)
	}
	b.l("float acc[%d];", acc)
	for i := range acc {
		b.l("acc[%d] = 0.0f;", i)
	}
	vt := be.msl() + "4"
	comps := []string{"x", "y", "z", "w"}
	// row emits the loads of rows kk+u for u < rows, then their products.
	row := func(rows int64, kk string) {
		for u := range rows {
			for v := range s.v {
				if s.w == 4 {
					b.l("const %s b%d_%d = *((device const %s *)(bp + (%s + %du) * %du + c%d));", vt, u, v, vt, kk, u, s.n, v)
				} else {
					b.l("const float b%d_%d = (float)bp[(%s + %du) * %du + c%d];", u, v, kk, u, s.n, v)
				}
			}
		}
		for u := range rows {
			for mi := range s.m {
				b.l("{")
				b.l("const float av = (float)ap[%du + %s + %du];", mi*s.k, kk, u)
				for v := range s.v {
					for c := range s.w {
						bv := fmt.Sprintf("b%d_%d", u, v)
						if s.w == 4 {
							bv = fmt.Sprintf("(float)b%d_%d.%s", u, v, comps[c])
						}
						b.l("acc[%d] += av * %s;", mi*wv+v*s.w+c, bv)
					}
				}
				b.l("}")
			}
		}
	}
	b.l("uint kk = k0 + sg * %du;", gemvUnroll)
	b.l("for (; kk + %du <= k1; kk += nsg * %du) {", gemvUnroll, gemvUnroll)
	row(gemvUnroll, "kk")
	b.l("}")
	// Only the last group of a split can be short; it is this simdgroup's
	// when kk is still inside the split.
	b.l("for (; kk < k1; kk++) {")
	row(1, "kk")
	b.l("}")
	for i := range acc {
		b.l("tg[(sg * %du + %du) * 32u + lane] = acc[%d];", acc, i, i)
	}
	b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
	b.l("for (uint e = tpos.x; e < %du; e += tptg.x) {", acc*SimdWidth)
	b.l("const uint i = e / 32u;")
	b.l("const uint ln = e %% 32u;")
	b.l("float sum = 0.0f;")
	b.l("for (uint g = 0; g < nsg; g++) {")
	b.l("sum += tg[(g * %du + i) * 32u + ln];", acc)
	b.l("}")
	b.l("const uint mi = i / %du;", wv)
	b.l("const uint rem = i %% %du;", wv)
	b.l("const uint col = tgpos.x * %du + (rem / %du) * %du + ln * %du + rem %% %du;", s.cols, s.w, SimdWidth*s.w, s.w, s.w)
	b.l("if (col < %du) {", s.n)
	if s.splits > 1 {
		b.l("part[((tgpos.y * %du + z) * %du + mi) * %du + col] = sum;", s.batch, s.m, s.n)
	} else {
		b.l("y[(z * %du + mi) * %du + col] = (%s)sum;", s.m, s.n, ye.msl())
	}
	b.l("}")
	b.l("}")
}

// tensorTypeString spells a tensor type as the manifest does.
func tensorTypeString(t tensorInfo) string {
	var sb strings.Builder
	sb.WriteString("tensor<")
	for _, d := range t.shape {
		fmt.Fprintf(&sb, "%dx", d)
	}
	sb.WriteString(t.elem.String())
	sb.WriteString(">")
	return sb.String()
}
