package metal

import (
	"fmt"
	"strings"
)

// The dequantising GEMV (dequant_matmul with M ≤ gemvMaxRows): y[m, n] =
// Σ_k x[m, k]·W[n, k], W's rows stored as GGUF blocks.
//
// A threadgroup is one simdgroup and owns R consecutive weight rows. Its
// lanes walk the rows' blocks together: L lanes share a block (lane l
// takes part l % L of block l / L, then 32/L blocks further, …), so a
// simdgroup reads neighbouring bytes of each row. For each block a lane
// loads its slice of x once and uses it for all R rows.
//
// Decoding is arithmetic-heavy for the bytes it reads (three instructions
// a weight at best), and a first design on an H200 spent as long computing
// as loading, in turns: every threadgroup loaded, then computed, then
// exited. So the loop is software-pipelined: a step's weight words are
// loaded into registers one step ahead, and the loads of step s+1 are in
// flight while step s is decoded. Threadgroups of one simdgroup need no
// barrier; the sums end in simd_sum.
//
// Decoding follows ggml's mul_mv (metal.md §1.3) in spirit: the x slice is
// pre-scaled by 1, 1/16, 1/256 or 1/4096 so that a 4-bit or 8-bit value
// masked in place inside a 16-bit word needs no shift, and offsets are
// folded out of the sum — q4_0's −8 as d·(acc − 8·Σx), q8_0's sign as
// (q + 128) − 128, q4_k's minimum as −dmin·m·Σx, q6_k's −32 as −32·Σx.
// The masked words become floats through rlx_u2f (the bits of 2²³ + q,
// minus 2²³) instead of integer-to-float conversions, which run at a
// fraction of the FMA rate on some GPUs.
//
// Per format, the lanes L per block, rows R per threadgroup and a lane's
// part of a block:
//
//	q4_0  L = 2   R = 4  8 bytes of qs (16 weights), four 2-byte loads, and d
//	q8_0  L = 2   R = 2  16 bytes of qs (16 weights), eight 2-byte loads, and d
//	q4_k  L = 8   R = 4  16 bytes of one 32-byte chunk (32 weights of two
//	                     sub-blocks) and the 16-byte header, two 16-byte loads
//	q6_k  L = 16  R = 2  4 bytes each of ql (twice) and qh (16 weights of four
//	                     groups), six 2-byte loads, four scales and d
//
// The 2-byte loads are what the 18-, 34- and 210-byte blocks allow (their
// alignment alternates between blocks); q4_k's 144-byte blocks keep
// 16-byte alignment. Every sum is in a fixed order.

// dqLayout is a format's lanes per block and rows per threadgroup.
func dqLayout(f quantInfo) (lanes, rows int64) {
	switch f.name {
	case "q4_k":
		return 8, 4
	case "q6_k":
		return 16, 2
	case "q8_0":
		return 2, 2
	}
	return 2, 4
}

// dqReg is one register of a lane's raw block data for one row: its MSL
// type, its name (a row and stage prefix is added) and the expression
// that loads it, given the row's pointer and the block index.
type dqReg struct {
	typ, name string
	load      func(row, ib string) string
}

// dqRegs lists a format's raw registers per row.
func dqRegs(f quantInfo) []dqReg {
	us := func(bytes int64, idx string) func(row, ib string) string {
		return func(row, ib string) string {
			return fmt.Sprintf("((device const ushort *)(%s + %s * %du))[%s]", row, ib, bytes, idx)
		}
	}
	var regs []dqReg
	switch f.name {
	case "q4_0":
		regs = append(regs, dqReg{"ushort", "d", us(18, "0")})
		for i := range 4 {
			regs = append(regs, dqReg{"ushort", fmt.Sprintf("q%d", i), us(18, fmt.Sprintf("1u + p * 4u + %du", i))})
		}
	case "q8_0":
		regs = append(regs, dqReg{"ushort", "d", us(34, "0")})
		for i := range 8 {
			regs = append(regs, dqReg{"ushort", fmt.Sprintf("q%d", i), us(34, fmt.Sprintf("1u + p * 8u + %du", i))})
		}
	case "q4_k":
		regs = append(regs,
			dqReg{"uint4", "hd", func(row, ib string) string {
				return fmt.Sprintf("*((device const uint4 *)(%s + %s * 144u))", row, ib)
			}},
			dqReg{"uint4", "qv", func(row, ib string) string {
				return fmt.Sprintf("*((device const uint4 *)(%s + %s * 144u + 16u + (p / 2u) * 32u + (p %% 2u) * 16u))", row, ib)
			}})
	case "q6_k":
		// Words of ql (low nibbles of l, then of l+32) and qh, as 2-byte
		// halves; the four scales; d.
		for _, w := range []struct {
			name string
			base string
		}{{"a", "n6 * 32u"}, {"b", "n6 * 32u + 16u"}, {"h", "64u + n6 * 16u"}} {
			for half := range 2 {
				regs = append(regs, dqReg{"ushort", fmt.Sprintf("%s%d", w.name, half), us(210, fmt.Sprintf("%s + j6 * 2u + %du", w.base, half))})
			}
		}
		for g := range 4 {
			regs = append(regs, dqReg{"char", fmt.Sprintf("s%d", g), func(row, ib string) string {
				return fmt.Sprintf("((device const char *)(%s + %s * 210u))[192u + n6 * 8u + j6 / 4u + %du]", row, ib, 2*g)
			}})
		}
		regs = append(regs, dqReg{"ushort", "d", us(210, "104u")})
	}
	return regs
}

// dequantGEMV writes the body of a dequantising GEMV kernel (buffers x, w
// and y bound).
func dequantGEMV(b *kb, f quantInfo, m, n, k int64) {
	L, R := dqLayout(f)
	nb := k / f.block
	rowBytes := nb * f.bytes
	bps := SimdWidth / L // blocks per step
	steps := ceilDiv(nb, bps)
	regs := dqRegs(f)
	b.launch([3]int{int(ceilDiv(n, R)), 1, 1}, [3]int{SimdWidth, 1, 1}, ResizeFixed)
	b.l("const uint r0 = tgpos.x * %du;", R)
	b.l("const uint p = lane %% %du;", L)
	if f.name == "q6_k" {
		b.l("const uint n6 = p / 8u;")
		b.l("const uint j6 = p %% 8u;")
	}
	// Rows past the end read the last row; their sums are not stored.
	for r := range R {
		b.l("device const uchar *w%d = w + min(r0 + %du, %du) * %du;", r, r, n-1, rowBytes)
	}
	b.l("float acc[%d];", R*m)
	for i := range R * m {
		b.l("acc[%d] = 0.0f;", i)
	}
	// Blocks past the last are loaded as the last and not used.
	b.l("uint ib = lane / %du;", L)
	b.l("const uint ib0 = min(ib, %du);", nb-1)
	for r := range R {
		for _, g := range regs {
			b.l("%s c%s_%d = %s;", g.typ, g.name, r, g.load(fmt.Sprintf("w%d", r), "ib0"))
		}
	}
	b.l("for (uint s = 0; s < %du; s++) {", steps)
	b.l("const uint ibn = min(ib + %du, %du);", bps, nb-1)
	for r := range R {
		for _, g := range regs {
			b.l("%s n%s_%d = c%s_%d;", g.typ, g.name, r, g.name, r)
		}
	}
	b.l("if (s + 1u < %du) {", steps)
	for r := range R {
		for _, g := range regs {
			b.l("n%s_%d = %s;", g.name, r, g.load(fmt.Sprintf("w%d", r), "ibn"))
		}
	}
	b.l("}")
	b.l("if (ib < %du) {", nb)
	for mi := range m {
		b.l("{")
		b.l("device const float *xb = x + %du + ib * %du;", mi*k, f.block)
		switch f.name {
		case "q4_0":
			dqStepQ4_0(b, mi, m, R)
		case "q8_0":
			dqStepQ8_0(b, mi, m, R)
		case "q4_k":
			dqStepQ4K(b, mi, m, R)
		case "q6_k":
			dqStepQ6K(b, mi, m, R)
		}
		b.l("}")
	}
	b.l("}")
	for r := range R {
		for _, g := range regs {
			b.l("c%s_%d = n%s_%d;", g.name, r, g.name, r)
		}
	}
	b.l("ib += %du;", bps)
	b.l("}")
	// Every lane reaches the sums (the loop bound is uniform).
	for r := range R {
		for mi := range m {
			b.l("{")
			b.l("const float s = simd_sum(acc[%d]);", r*m+mi)
			b.l("if (lane == 0 && r0 + %du < %du) {", r, n)
			b.l("y[%du + r0 + %du] = s;", mi*n, r)
			b.l("}")
			b.l("}")
		}
	}
}

// xfloats loads count floats of xb from offset off as float4s into
// scalars named name0…, each multiplied by scale(i).
func xfloats(b *kb, name string, off string, count int, scale func(i int) string) {
	comps := []string{"x", "y", "z", "w"}
	for v := range count / 4 {
		b.l("const float4 %sv%d = *((device const float4 *)(xb + %s + %du));", name, v, off, 4*v)
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
	var terms []string
	for v := range vecs {
		terms = append(terms, fmt.Sprintf("(%sv%d.x + %sv%d.y + %sv%d.z + %sv%d.w)", src, v, src, v, src, v, src, v))
	}
	b.l("const float %s = %s;", name, strings.Join(terms, " + "))
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
func dqStepQ4_0(b *kb, mi, m, rows int64) {
	xfloats(b, "xl", "p * 8u", 8, func(i int) string { return pick(i, "", "0.00390625f") })
	xfloats(b, "xh", "p * 8u + 16u", 8, func(i int) string { return pick(i, "0.0625f", "0.000244140625f") })
	sumOf(b, "sxl", "xl", 2)
	sumOf(b, "sxh", "xh", 2)
	for r := range rows {
		b.l("{")
		b.l("float a = 0.0f;")
		for i := range 4 {
			b.l("{")
			b.l("const uint u = cq%d_%d;", i, r)
			b.l("a += xl%d * rlx_u2f(u & 0x000Fu) + xl%d * rlx_u2f(u & 0x0F00u);", 2*i, 2*i+1)
			b.l("a += xh%d * rlx_u2f(u & 0x00F0u) + xh%d * rlx_u2f(u & 0xF000u);", 2*i, 2*i+1)
			b.l("}")
		}
		b.l("acc[%d] += rlx_half_bits(cd_%d) * (a - 8.0f * (sxl + sxh));", r*m+mi, r)
		b.l("}")
	}
}

// q8_0: lane part p (0 or 1) holds qs bytes 16p..16p+15, weights 16p+j;
// word i holds weights 16p+2i and 16p+2i+1. XOR 0x80 turns a signed byte
// q into q + 128.
func dqStepQ8_0(b *kb, mi, m, rows int64) {
	xfloats(b, "xs", "p * 16u", 16, func(i int) string { return pick(i, "", "0.00390625f") })
	sumOf(b, "sx", "xs", 4)
	for r := range rows {
		b.l("{")
		b.l("float a = 0.0f;")
		for i := range 8 {
			b.l("{")
			b.l("const uint u = (uint)cq%d_%d ^ 0x8080u;", i, r)
			b.l("a += xs%d * rlx_u2f(u & 0x00FFu) + xs%d * rlx_u2f(u & 0xFF00u);", 2*i, 2*i+1)
			b.l("}")
		}
		b.l("acc[%d] += rlx_half_bits(cd_%d) * (a - 128.0f * sx);", r*m+mi, r)
		b.l("}")
	}
}

// q4_k: lane part p = 2c + h: chunk c (32 bytes of qs: low nibbles
// sub-block 2c, high nibbles sub-block 2c+1), bytes 16h..16h+15 of it,
// that is weights 16h+j of both sub-blocks.
func dqStepQ4K(b *kb, mi, m, rows int64) {
	b.l("const uint c = p / 2u;")
	b.l("const uint xo = c * 64u + (p %% 2u) * 16u;")
	// Byte j of a 4-byte word: j = 0, 1 masked in place, j = 2, 3 after a
	// shift by 16, so the scales alternate between even and odd bytes.
	xfloats(b, "xl", "xo", 16, func(i int) string { return pick(i, "", "0.00390625f") })
	xfloats(b, "xh", "xo + 32u", 16, func(i int) string { return pick(i, "0.0625f", "0.000244140625f") })
	sumOf(b, "sxl", "xl", 4)
	sumOf(b, "sxh", "xh", 4)
	for r := range rows {
		b.l("{")
		b.l("const uint sm0 = rlx_q4k_scale_min(chd_%d, 2u * c);", r)
		b.l("const uint sm1 = rlx_q4k_scale_min(chd_%d, 2u * c + 1u);", r)
		b.l("const float d = rlx_half_bits((ushort)(chd_%d.x & 0xFFFFu));", r)
		b.l("const float dmin = rlx_half_bits((ushort)(chd_%d.x >> 16));", r)
		b.l("float al = 0.0f;")
		b.l("float ah = 0.0f;")
		for e, comp := range []string{"x", "y", "z", "w"} {
			b.l("{")
			b.l("const uint u0 = cqv_%d.%s;", r, comp)
			b.l("const uint u1 = cqv_%d.%s >> 16;", r, comp)
			for half := range 2 {
				j := 4*e + 2*half
				b.l("al += xl%d * rlx_u2f(u%d & 0x000Fu) + xl%d * rlx_u2f(u%d & 0x0F00u);", j, half, j+1, half)
				b.l("ah += xh%d * rlx_u2f(u%d & 0x00F0u) + xh%d * rlx_u2f(u%d & 0xF000u);", j, half, j+1, half)
			}
			b.l("}")
		}
		b.l("acc[%d] += d * ((float)(sm0 & 255u) * al + (float)(sm1 & 255u) * ah) - dmin * ((float)(sm0 >> 8) * sxl + (float)(sm1 >> 8) * sxh);", r*m+mi)
		b.l("}")
	}
}

// q6_k: lane part p = 8n + j: half n of the block, l = 4j..4j+3 of it,
// that is weights 128n + 32g + l of the four groups g. Each group's four
// 6-bit values are assembled bytewise in one 32-bit word from ql (low
// nibbles of l for g = 0, of l+32 for g = 1, high nibbles for g = 2, 3)
// and qh (bits 2g, 2g+1).
func dqStepQ6K(b *kb, mi, m, rows int64) {
	for g := range 4 {
		xfloats(b, fmt.Sprintf("x%d_", g), fmt.Sprintf("n6 * 128u + %du + j6 * 4u", 32*g), 4,
			func(i int) string { return pick(i, "", "0.00390625f") })
		sumOf(b, fmt.Sprintf("sx%d", g), fmt.Sprintf("x%d_", g), 1)
	}
	for r := range rows {
		b.l("{")
		b.l("const uint qa = (uint)ca0_%d | ((uint)ca1_%d << 16);", r, r)
		b.l("const uint qb = (uint)cb0_%d | ((uint)cb1_%d << 16);", r, r)
		b.l("const uint qh = (uint)ch0_%d | ((uint)ch1_%d << 16);", r, r)
		b.l("const uint q0 = (qa & 0x0F0F0F0Fu) | ((qh & 0x03030303u) << 4);")
		b.l("const uint q1 = (qb & 0x0F0F0F0Fu) | ((qh & 0x0C0C0C0Cu) << 2);")
		b.l("const uint q2 = ((qa >> 4) & 0x0F0F0F0Fu) | (qh & 0x30303030u);")
		b.l("const uint q3 = ((qb >> 4) & 0x0F0F0F0Fu) | ((qh >> 2) & 0x30303030u);")
		b.l("float a = 0.0f;")
		for g := range 4 {
			b.l("{")
			b.l("const uint lo = q%d;", g)
			b.l("const uint hi = q%d >> 16;", g)
			b.l("const float t = x%d_0 * rlx_u2f(lo & 0x00FFu) + x%d_1 * rlx_u2f(lo & 0xFF00u) + x%d_2 * rlx_u2f(hi & 0x00FFu) + x%d_3 * rlx_u2f(hi & 0xFF00u);", g, g, g, g)
			b.l("a += (float)cs%d_%d * (t - 32.0f * sx%d);", g, r, g)
			b.l("}")
		}
		b.l("acc[%d] += rlx_half_bits(cd_%d) * a;", r*m+mi, r)
		b.l("}")
	}
}
