package metal

import (
	"fmt"
	"math"
)

// unitGEMV reports whether the format's GEMV is dequantGEMVUnits': the
// formats without a lane of their own (dqSlot).
func (f quantInfo) unitGEMV() bool {
	switch f.name {
	case "q2_k", "q3_k", "iq4_nl", "iq4_xs", "mxfp4":
		return true
	}
	return false
}

// unitSliced reports whether the format's GEMV decodes slices
// (rlx_gv_*) instead of units of 32 consecutive weights: q2_k and q3_k,
// whose units share their quant bytes (each byte holds 2 bits of four
// units, q3_k's hmask bytes 1 bit of eight). At M = 1 their slices are
// factored dots (rlx_gd_*): each weight's field masked where it sits in
// its word and multiplied by x prescaled by the field's place, the
// scales and offsets applied to sums. Run 47a (H100, two alternating
// rounds against rlx_gv_*'s values): q2_k 20.3 against 24.3 µs at
// 4096×14336, q3_k 10.5 / 29.7 / 31.9 against 11.2 / 29.0 / 34.4 at the
// three shapes. (q5_1's factored dot, 25.5 against 26.8, gave way to
// dqLaneQ5 at run 48a.)
func (f quantInfo) unitSliced() bool { return f.name == "q2_k" || f.name == "q3_k" }

// unitRows is the weight rows a threadgroup of dequantGEMVUnits owns: 8
// at M = 1, where x's 32 values a unit stay in registers for all of
// them, and 4 for the batches, which read x again for each row.
func unitRows(m int64) int64 {
	if m == 1 {
		return 8
	}
	return 4
}

// dequantGEMVUnits writes the GEMV of a unit format: a threadgroup of up
// to four simdgroups (no more than a row has units of 32 weights, so that
// gpt-oss's K = 2880, 90 units, keeps three busy) owns unitRows rows;
// thread t takes units t, t + T, … of each row (a simdgroup's lanes read
// neighbouring units), decodes each through the format's helper into 32
// values in registers (rlx_dq32_*, the GEMM's; for q2_k and q3_k the
// slice rlx_gv_*, whose x is eight runs of four; for the formats with
// levels rlx_gv_*, which read them from a table of 16 floats the
// threadgroup writes first: unitLevels) and adds their products with
// x's 32 values, read as float4s, into the row's sum; the sums meet as
// dequantGEMV's do (dqStore). At M = 1 a unit's x is read once for all
// the rows. docs/gpu-check.md, run 45b, has the variants timed.
func dequantGEMVUnits(b *kb, f quantInfo, m, n, k int64) {
	rows := unitRows(m)
	units := k / 32
	nsg := int(min(4, ceilDiv(units, SimdWidth), int64(b.e.opts.MaxThreadsPerThreadgroup/SimdWidth)))
	rm := rows * m
	rowBytes := k / f.block * f.bytes
	level, levels := unitLevels(f)
	tgFloats := int64(nsg) * rm
	if levels {
		tgFloats += 16
	}
	b.tgmem("float", int(tgFloats*4))
	b.launch([3]int{int(ceilDiv(n, rows)), 1, 1}, [3]int{nsg * SimdWidth, 1, 1}, ResizeRows)
	b.l("const uint r0 = tgpos.x * %du;", rows)
	b.l("float acc[%d];", rm)
	for i := range rm {
		b.l("acc[%d] = 0.0f;", i)
	}
	// Rows past the end read the last row; their sums are not stored.
	for r := range rows {
		b.l("device const uchar *w%d = w + min(r0 + %du, %du) * %du;", r, r, n-1, rowBytes)
	}
	decode := "rlx_dq32_" + f.name
	table := ""
	if levels {
		// The levels after the sums' slots (dqStore's), written before
		// any thread reads them.
		b.l("threadgroup float *lv = tg + %du;", int64(nsg)*rm)
		b.l("if (tpos.x < 16u) {")
		b.l("lv[tpos.x] = %s(tpos.x);", level)
		b.l("}")
		b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
		decode, table = "rlx_gv_"+f.name, ", lv"
	}
	// x's four values for wv[4v..4v+3] of unit u, from xm (x's row).
	xAt := func(xm string, v int) string { return fmt.Sprintf("%s + u * 32u + %d", xm, 4*v) }
	if f.unitSliced() {
		decode = "rlx_gv_" + f.name
		xAt = func(xm string, v int) string {
			return fmt.Sprintf("%s + (u / 8u) * 256u + (u %% 8u) * 4u + %d", xm, 128*(v/4)+32*(v%4))
		}
	}
	// x0..x7: x's 32 values of unit u from xm (x's row), as float4s.
	loadX := func(xm string) {
		for v := range 8 {
			b.l("const float4 x%d = *((device const float4 *)(%s));", v, xAt(xm, v))
		}
	}
	// acc[i] += the products of wv with x0..x7.
	dot := func(i int64) {
		b.l("{")
		b.l("float s = 0.0f;")
		for v := range 8 {
			b.l("s += x%d.x * wv[%d] + x%d.y * wv[%d] + x%d.z * wv[%d] + x%d.w * wv[%d];", v, 4*v, v, 4*v+1, v, 4*v+2, v, 4*v+3)
		}
		b.l("acc[%d] += s;", i)
		b.l("}")
	}
	b.l("for (uint u = tpos.x; u < %du; u += tptg.x) {", units)
	if m == 1 {
		loadX("x")
	}
	if m == 1 && f.unitSliced() {
		// x prescaled by each field's place (rlx_gd_*), and its eight
		// runs' sums.
		prescale := func(name string, v int, e func(c int) int) {
			b.l("%s[%d] = x%d;", name, v, v)
			b.l("%s[%d].x *= %s; %s[%d].y *= %s; %s[%d].z *= %s; %s[%d].w *= %s;", name, v, pow2(e(0)), name, v, pow2(e(1)), name, v, pow2(e(2)), name, v, pow2(e(3)))
		}
		bit := f.name == "q3_k"
		b.l("float4 xs[8];")
		if bit {
			b.l("float4 xh[8];")
		}
		b.l("float xsum[8];")
		for v := range 8 {
			// Run v = 4h + s: 2 bits at 8c + 2s, q3_k's hmask bit (worth
			// 4) at 8c + 4h + s.
			prescale("xs", v, func(c int) int { return -8*c - 2*(v%4) })
			if bit {
				prescale("xh", v, func(c int) int { return 2 - 8*c - 4*(v/4) - v%4 })
			}
			b.l("xsum[%d] = (x%d.x + x%d.y) + (x%d.z + x%d.w);", v, v, v, v, v)
		}
		xh := ""
		if bit {
			xh = "xh, "
		}
		for r := range rows {
			b.l("acc[%d] += rlx_gd_%s(w%d, u, xs, %sxsum);", r, f.name, r, xh)
		}
		b.l("}")
		dqStore(b, "tg", rm, m, n)
		return
	}
	for r := range rows {
		b.l("{")
		b.l("float wv[32];")
		b.l("%s(w%d, u, wv%s);", decode, r, table)
		if m == 1 {
			dot(r)
		} else {
			for mi := range m {
				b.l("{")
				b.l("device const float *xm = x + %du;", mi*k)
				loadX("xm")
				dot(accIndex(r, mi, m))
				b.l("}")
			}
		}
		b.l("}")
	}
	b.l("}")
	dqStore(b, "tg", rm, m, n)
}

// unitLevels names the MSL function of the format's 16 levels, for the
// formats whose GEMV reads them from a table in threadgroup memory
// (rlx_gv_iq4_nl, rlx_gv_iq4_xs, rlx_gv_mxfp4).
func unitLevels(f quantInfo) (string, bool) {
	switch f.name {
	case "iq4_nl", "iq4_xs":
		return "rlx_iq4_level", true
	case "mxfp4":
		return "rlx_mxfp4_level", true
	}
	return "", false
}

// pow2 is 2^e as an MSL float literal (exact).
func pow2(e int) string { return floatLit(float32(math.Ldexp(1, e))) }
