package metal

import (
	"fmt"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// graph.reduce. Each result element folds the operand over the reduced
// axes. Long folds (at least reduceRowMin elements) take one threadgroup
// each, as ggml's and MLX's row reductions: threads stride over the
// elements, float partials combine with simd_sum, simd_product or
// simd_max/simd_min (NaNs propagated) and then through threadgroup memory,
// which thread 0 folds in simdgroup order; integer partials go through
// threadgroup memory directly. Short folds take one thread each, in the
// reference's order.

const reduceRowMin = 64

func emitReduce(r *regionState, op *ir.Operation) error {
	rd, _ := graph.AsReduce(op)
	x, _ := infoOf(op.Operand(0))
	y, _ := infoOf(op.Result(0))
	kind := rd.Kind()
	axes := rd.Axes()
	isRed := make([]bool, x.rank())
	for _, a := range axes {
		isRed[a] = true
	}
	xs := strides(x.shape)
	var keptDims, keptStr, redDims, redStr []int64
	for i, d := range x.shape {
		if isRed[i] {
			redDims, redStr = append(redDims, d), append(redStr, xs[i])
		} else {
			keptDims, keptStr = append(keptDims, d), append(keptStr, xs[i])
		}
	}
	count := product(redDims)
	if y.n == 0 {
		return nil
	}
	if count == 0 && (kind == graph.ReduceMax || kind == graph.ReduceMin) {
		return ir.OpError(op, "%s over an empty axis is not defined", kind)
	}
	float := x.elem.isFloat()
	// The contiguous case: the reduced axes are the trailing ones.
	contiguous := true
	for i, a := range axes {
		contiguous = contiguous && a == x.rank()-len(axes)+i
	}
	perGroup := count >= reduceRowMin
	key := keyOf(string(kind), x.elem, y.elem, x.shape, axes)
	k, err := r.e.kernel(op, "reduce", key, func(b *kb) error {
		b.k.Summary = fmt.Sprintf("reduce %s of %v over axes %v, %s", kind, x.shape, axes, x.elem)
		b.buffer("x", x, accRead)
		b.buffer("y", y, accWrite)
		ct := x.elem.compute()
		init, fold := reduceFold(b, kind, float)
		base := sumTerms(indexTerms("o", keptDims, keptStr))
		off := "j"
		if !contiguous {
			off = sumTerms(indexTerms("j", redDims, redStr))
		}
		finish := func(v string) string {
			if kind == graph.ReduceMean {
				return fmt.Sprintf("%s / %s", v, floatLit(float32(count)))
			}
			return v
		}
		if !perGroup {
			b.launchThreads(y.n, min(256, b.e.opts.MaxThreadsPerThreadgroup))
			b.l("const uint o = tgpos.x * tptg.x + tpos.x;")
			b.l("if (o >= %du) {", y.n)
			b.l("return;")
			b.l("}")
			b.l("const uint base = %s;", base)
			b.l("%s acc = %s;", ct, init)
			b.l("for (uint j = 0; j < %du; j++) {", count)
			b.l("acc = %s;", fold("acc", fmt.Sprintf("(%s)x[base + %s]", ct, off)))
			b.l("}")
			b.l("y[o] = (%s)(%s);", y.elem.msl(), roundTo(finish("acc"), y.elem))
			return nil
		}
		maxT := b.e.opts.MaxThreadsPerThreadgroup
		b.launch([3]int{int(y.n), 1, 1}, [3]int{rowThreads((count+3)/4, maxT), 1, 1}, ResizeRows)
		b.l("const uint o = tgpos.x;")
		b.l("const uint base = %s;", base)
		b.l("%s acc = %s;", ct, init)
		b.l("for (uint j = tpos.x; j < %du; j += tptg.x) {", count)
		b.l("acc = %s;", fold("acc", fmt.Sprintf("(%s)x[base + %s]", ct, off)))
		b.l("}")
		nparts := "(tptg.x + 31u) / 32u"
		if float {
			b.tgmem("float", 4*(maxT/SimdWidth))
			switch kind {
			case graph.ReduceSum, graph.ReduceMean:
				b.l("acc = simd_sum(acc);")
			case graph.ReduceProd:
				b.l("acc = simd_product(acc);")
			default:
				// simd_max and simd_min skip NaNs; the reduction propagates them.
				b.l("const bool has_nan = simd_any(isnan(acc));")
				b.l("acc = has_nan ? NAN : simd_%s(acc);", kind)
			}
			b.l("if (lane == 0) {")
			b.l("tg[sg] = acc;")
			b.l("}")
		} else {
			b.tgmem("long", 8*maxT)
			b.l("tg[tpos.x] = acc;")
			nparts = "tptg.x"
		}
		b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
		b.l("if (tpos.x == 0) {")
		b.l("%s t = %s;", ct, init)
		b.l("for (uint s = 0; s < %s; s++) {", nparts)
		b.l("t = %s;", fold("t", "tg[s]"))
		b.l("}")
		b.l("y[o] = (%s)(%s);", y.elem.msl(), roundTo(finish("t"), y.elem))
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

// reduceFold returns a kind's initial value and its fold step.
func reduceFold(b *kb, kind graph.ReduceKind, float bool) (string, func(acc, v string) string) {
	if float {
		switch kind {
		case graph.ReduceProd:
			return "1.0f", func(a, v string) string { return a + " * " + v }
		case graph.ReduceMax:
			b.e.helpers.use(hFMinMax)
			return "(-INFINITY)", func(a, v string) string { return "rlx_fmax(" + a + ", " + v + ")" }
		case graph.ReduceMin:
			b.e.helpers.use(hFMinMax)
			return "INFINITY", func(a, v string) string { return "rlx_fmin(" + a + ", " + v + ")" }
		}
		return "0.0f", func(a, v string) string { return a + " + " + v }
	}
	switch kind {
	case graph.ReduceProd:
		return "(long)1", func(a, v string) string { return "(long)((ulong)" + a + " * (ulong)" + v + ")" }
	case graph.ReduceMax:
		return "(long)(-9223372036854775807L - 1)", func(a, v string) string { return "max(" + a + ", " + v + ")" }
	case graph.ReduceMin:
		return "(long)9223372036854775807L", func(a, v string) string { return "min(" + a + ", " + v + ")" }
	}
	return "(long)0", func(a, v string) string { return "(long)((ulong)" + a + " + (ulong)" + v + ")" }
}

// indexTerms are the terms of Σ coord_i·stride_i for a linear index v over
// dims (row-major), skipping dims of size 1.
func indexTerms(v string, dims, str []int64) []string {
	ds := strides(dims)
	var terms []string
	for i, d := range dims {
		if d == 1 || str[i] == 0 {
			continue
		}
		c := v
		if ds[i] != 1 {
			c = fmt.Sprintf("(%s / %du)", v, ds[i])
		}
		if i > 0 {
			c = fmt.Sprintf("(%s %% %du)", c, d)
		}
		if str[i] != 1 {
			c = fmt.Sprintf("%s * %du", c, str[i])
		}
		terms = append(terms, c)
	}
	return terms
}
