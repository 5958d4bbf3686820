package metal

import (
	"fmt"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// Row kernels (rms_norm, layer_norm, softmax), as ggml's: one threadgroup
// per row; threads stride over the row (four elements at a time when the
// row allows), reduce with simd_sum or simd_max and then through
// threadgroup memory (rlx_tg_sum, rlx_tg_max). The threadgroup doubles from
// 32 while it is shorter than the row, up to the maximum; the kernel reads
// its size, so a runtime may run it with fewer threads (ResizeRows).

// rowThreads picks the threadgroup of a row kernel for rows of n units
// (float4 loads, or groups of four elements): it doubles from 32 while
// every thread still gets a unit, as ggml's norms choose.
func rowThreads(n int64, maxT int) int {
	t := SimdWidth
	for int64(t*2) <= n && t*2 <= maxT {
		t *= 2
	}
	return t
}

// rowScratch reserves one float per possible simdgroup.
func rowScratch(b *kb) {
	b.e.helpers.use(hTGSum)
	b.tgmem("float", 4*(b.e.opts.MaxThreadsPerThreadgroup/SimdWidth))
}

func emitNorm(r *regionState, op *ir.Operation) error {
	x, _ := infoOf(op.Operand(0))
	y, _ := infoOf(op.Result(0))
	g, _ := infoOf(op.Operand(1))
	layer := op.Name() == graph.LayerNormName
	var eps float64
	var beta tensorInfo
	if layer {
		ln, _ := graph.AsLayerNorm(op)
		eps = ln.Epsilon()
		beta, _ = infoOf(op.Operand(2))
	} else {
		rn, _ := graph.AsRMSNorm(op)
		eps = rn.Epsilon()
	}
	if x.rank() == 0 {
		return ir.OpError(op, "needs an operand of rank ≥ 1")
	}
	d := x.dim(-1)
	rows := x.n / max(d, 1)
	if x.n == 0 {
		return nil
	}
	// Rows of whole vectors are read four elements a load (float4 or
	// half4); rows of 16-bit elements are written so too where gamma,
	// beta and y have such vectors. On the H100 (run 37a, three
	// alternating rounds, 4096 rows of 4096) the vector output pass took
	// f16 rows from 66.6 µs to 42.5–42.7 but f32 rows from 56.0 to
	// 67.6–67.8, so f32 rows keep the scalar one. Many such 16-bit rows
	// (heldRowsMin) take a quarter of the threads, and rms_norm's hold
	// their vectors from the sum to the output (normHeld).
	vec := d%4 == 0 && x.elem.hasVec4()
	vecOut := vec && x.elem != elemF32 && y.elem.hasVec4() && g.elem.hasVec4() && (!layer || beta.elem.hasVec4())
	key := keyOf(layer, x.elem, y.elem, g.elem, beta.elem, rows, d, float32(eps))
	family := "rms_norm"
	if layer {
		family = "layer_norm"
	}
	k, err := r.e.kernel(op, family, key, func(b *kb) error {
		b.k.Summary = fmt.Sprintf("%s over rows of %d, %d rows, %s, epsilon %s", family, d, rows, x.elem, floatLit(float32(eps)))
		b.buffer("x", x, accRead)
		b.buffer("gamma", g, accRead)
		if layer {
			b.buffer("beta", beta, accRead)
		}
		b.buffer("y", y, accWrite)
		rowScratch(b)
		units := d
		if vec {
			units = d / 4
		}
		threads := rowThreads((d+3)/4, b.e.opts.MaxThreadsPerThreadgroup)
		held := int64(0)
		if vecOut && rows >= heldRowsMin {
			threads = rowThreads(max(units/heldVectors, 1), b.e.opts.MaxThreadsPerThreadgroup)
			if p := units / int64(threads); !layer && units%int64(threads) == 0 && p <= 2*heldVectors {
				held = p
			}
		}
		b.launch([3]int{int(rows), 1, 1}, [3]int{threads, 1, 1}, ResizeRows)
		b.l("const uint row = tgpos.x;")
		b.l("device const %s *xr = x + row * %du;", x.elem.msl(), d)
		b.l("device %s *yr = y + row * %du;", y.elem.msl(), d)
		if vec {
			b.l("device const %[1]s4 *x4 = (device const %[1]s4 *)xr;", x.elem.msl())
		}
		if held > 0 {
			normHeld(b, held, threads, d, float32(eps), x.elem, g.elem, y.elem)
		}
		if layer {
			b.l("float s = 0.0f;")
			loopUnits(b, vec, units, func(v string) { b.l("s += %s;", v) }, x.elem)
			b.l("const float mean = rlx_tg_sum(s, tg, lane, sg, tptg.x) / %s;", floatLit(float32(d)))
			b.l("float ss = 0.0f;")
			loopUnits(b, vec, units, func(v string) { b.l("const float dv = %s - mean;", v); b.l("ss += dv * dv;") }, x.elem)
			b.l("const float r = 1.0f / sqrt(rlx_tg_sum(ss, tg, lane, sg, tptg.x) / %s + %s);", floatLit(float32(d)), floatLit(float32(eps)))
		} else {
			b.l("float ss = 0.0f;")
			loopUnits(b, vec, units, func(v string) { b.l("const float xv = %s;", v); b.l("ss += xv * xv;") }, x.elem)
			b.l("const float r = 1.0f / sqrt(rlx_tg_sum(ss, tg, lane, sg, tptg.x) / %s + %s);", floatLit(float32(d)), floatLit(float32(eps)))
		}
		if vecOut {
			normOut4(b, layer, units, x.elem, g.elem, beta.elem, y.elem)
			return nil
		}
		b.l("for (uint i = tpos.x; i < %du; i += tptg.x) {", d)
		b.l("const float xv = (float)xr[i];")
		b.l("yr[i] = %s;", normOut(layer, y.elem, "xv", "(float)gamma[i]", "(float)beta[i]"))
		b.l("}")
		return nil
	})
	if err != nil {
		return err
	}
	reads := []*ir.Value{op.Operand(0), op.Operand(1)}
	if layer {
		reads = append(reads, op.Operand(2))
	}
	ids, err := r.bind(reads, []*ir.Value{op.Result(0)})
	if err != nil {
		return err
	}
	r.dispatch(k, []*ir.Operation{op}, ids)
	return nil
}

// Many rows of 16-bit elements give each thread heldVectors of its row's
// vectors (a quarter of the threads), so that more rows are in flight and
// a thread's loads overlap; rms_norm's threads hold them in registers from
// the sum to the output pass, reading x once. On the H100 (run 38b, 4096
// rows of 4096 f16, µs) that took the kernel from 42.4–42.6 to 28.5–28.6
// (0.78 of the roofline; torch's F.rms_norm 28.9), the quarter of the
// threads alone (x read twice) to 30.4, an eighth to 31.2. One row (decode)
// keeps every thread: 2.7 µs either way.
const (
	heldVectors = 4
	heldRowsMin = 64
)

// normHeld writes rms_norm's path for a launch of the planned threads,
// each holding p vectors of its row (x4[tpos.x + j·threads]); a launch of
// another size (ResizeRows) falls through to the loops after it. The
// branch is uniform over the threadgroup, so its barriers are too.
func normHeld(b *kb, p int64, threads int, d int64, eps float32, x, g, y elem) {
	b.l("if (tptg.x == %du) {", threads)
	b.l("%s4 hv[%d];", x.msl(), p)
	b.l("for (uint j = 0; j < %du; j++) { hv[j] = x4[tpos.x + j * %du]; }", p, threads)
	b.l("float ss = 0.0f;")
	b.l("for (uint j = 0; j < %du; j++) {", p)
	for _, c := range vecComps {
		b.l("{ const float xv = (float)hv[j].%s; ss += xv * xv; }", c)
	}
	b.l("}")
	b.l("const float r = 1.0f / sqrt(rlx_tg_sum(ss, tg, lane, sg, tptg.x) / %s + %s);", floatLit(float32(d)), floatLit(eps))
	normVectors(b, false, g, 0, y)
	b.l("for (uint j = 0; j < %du; j++) {", p)
	b.l("const uint i = tpos.x + j * %du;", threads)
	normStore4(b, false, "hv[j]", g, 0, y)
	b.l("}")
	b.l("return;")
	b.l("}")
}

// loopUnits writes a loop over a row held in xr (x4 when vec, vectors of
// four e), calling body with the float expression of each element.
func loopUnits(b *kb, vec bool, units int64, body func(v string), e elem) {
	b.l("for (uint i = tpos.x; i < %du; i += tptg.x) {", units)
	if vec {
		b.l("const %s4 v4 = x4[i];", e.msl())
		for _, c := range vecComps {
			b.l("{")
			body("(float)v4." + c)
			b.l("}")
		}
	} else {
		body("(float)xr[i]")
	}
	b.l("}")
}

var vecComps = [4]string{"x", "y", "z", "w"}

// normOut is the expression of one output element of type y from its
// x (xv), gamma and beta (float expressions), with mean and r in scope:
// the one formula the scalar and the vector pass share.
func normOut(layer bool, y elem, xv, gamma, beta string) string {
	if layer {
		return fmt.Sprintf("(%s)((%s - mean) * r * %s + %s)", y.msl(), xv, gamma, beta)
	}
	return fmt.Sprintf("(%s)(%s * r * %s)", y.msl(), xv, gamma)
}

// normOut4 writes a norm's output pass four elements at a time: x4 read
// again with gamma (and beta) as vectors of their own types, each
// element's arithmetic the scalar pass's (mean, r in scope).
func normOut4(b *kb, layer bool, units int64, x, g, beta, y elem) {
	normVectors(b, layer, g, beta, y)
	b.l("for (uint i = tpos.x; i < %du; i += tptg.x) {", units)
	b.l("const %s4 v4 = x4[i];", x.msl())
	normStore4(b, layer, "v4", g, beta, y)
	b.l("}")
}

// normVectors declares gamma (and beta) and the row of y as vectors of
// their own types: g4, b4, y4.
func normVectors(b *kb, layer bool, g, beta, y elem) {
	b.l("device const %[1]s4 *g4 = (device const %[1]s4 *)gamma;", g.msl())
	if layer {
		b.l("device const %[1]s4 *b4 = (device const %[1]s4 *)beta;", beta.msl())
	}
	b.l("device %[1]s4 *y4 = (device %[1]s4 *)yr;", y.msl())
}

// normStore4 writes y4[i] from the vector of x named xv, with gamma
// (and beta) at i: the output passes' one body.
func normStore4(b *kb, layer bool, xv string, g, beta, y elem) {
	b.l("const %s4 gv = g4[i];", g.msl())
	if layer {
		b.l("const %s4 bv = b4[i];", beta.msl())
	}
	b.l("%s4 o;", y.msl())
	for _, c := range vecComps {
		b.l("o.%s = %s;", c, normOut(layer, y, "(float)"+xv+"."+c, "(float)gv."+c, "(float)bv."+c))
	}
	b.l("y4[i] = o;")
}

func emitSoftmax(r *regionState, op *ir.Operation) error {
	sm, _ := graph.AsSoftmax(op)
	x, _ := infoOf(op.Operand(0))
	y, _ := infoOf(op.Result(0))
	if x.n == 0 {
		return nil
	}
	if x.rank() == 0 {
		return ir.OpError(op, "needs an operand of rank ≥ 1")
	}
	axis := sm.Axis()
	l := x.shape[axis]
	inner := product(x.shape[axis+1:])
	outer := product(x.shape[:axis])
	key := keyOf(x.elem, y.elem, outer, l, inner)
	k, err := r.e.kernel(op, "softmax", key, func(b *kb) error {
		b.k.Summary = fmt.Sprintf("softmax over axis %d of %v, %s", axis, x.shape, x.elem)
		b.buffer("x", x, accRead)
		b.buffer("y", y, accWrite)
		rowScratch(b)
		b.launch([3]int{int(outer * inner), 1, 1}, [3]int{rowThreads((l+3)/4, b.e.opts.MaxThreadsPerThreadgroup), 1, 1}, ResizeRows)
		// Row r = (o, i) starts at o*l*inner + i and steps by inner.
		if inner == 1 {
			b.l("const uint base = tgpos.x * %du;", l)
		} else {
			b.l("const uint base = (tgpos.x / %du) * %du + tgpos.x %% %du;", inner, l*inner, inner)
		}
		idx := "base + j"
		if inner != 1 {
			idx = fmt.Sprintf("base + j * %du", inner)
		}
		// The maximum skips NaNs (fmax); a NaN then reaches every output
		// through the sum, and an all -inf row gives NaN, as the reference.
		b.l("float m = -INFINITY;")
		b.l("for (uint j = tpos.x; j < %du; j += tptg.x) {", l)
		b.l("m = fmax(m, (float)x[%s]);", idx)
		b.l("}")
		b.l("m = rlx_tg_max(m, tg, lane, sg, tptg.x);")
		b.l("float s = 0.0f;")
		b.l("for (uint j = tpos.x; j < %du; j += tptg.x) {", l)
		b.l("s += exp((float)x[%s] - m);", idx)
		b.l("}")
		b.l("s = rlx_tg_sum(s, tg, lane, sg, tptg.x);")
		b.l("for (uint j = tpos.x; j < %du; j += tptg.x) {", l)
		b.l("y[%s] = (%s)(exp((float)x[%s] - m) / s);", idx, y.elem.msl(), idx)
		b.l("}")
		return nil
	})
	if err != nil {
		return err
	}
	ids, err := r.bind([]*ir.Value{op.Operand(0)}, []*ir.Value{op.Result(0)})
	if err != nil {
		return err
	}
	r.dispatch(k, []*ir.Operation{op}, ids)
	return nil
}
