package metal

import (
	"fmt"
	"strings"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// Data movement: transpose, slice, concat, gather and the copy of a region
// result. Each thread writes one result element (consecutive threads write
// consecutive elements, so stores coalesce) and reads its source through
// an index computed with literal strides; values move in their storage
// type, exactly. Reshape has no kernel: it is a view of its operand's
// buffer (see root in emit.go).

const moveThreads = 256

// coord returns the expression of result coordinate d of element t.
func coord(shape []int64, d int) string {
	st := strides(shape)
	c := "t"
	if st[d] != 1 {
		c = fmt.Sprintf("(t / %du)", st[d])
	}
	if d > 0 {
		c = fmt.Sprintf("(%s %% %du)", c, shape[d])
	}
	return c
}

// moveKernel emits the common frame of a data-movement kernel: bounds,
// then body, which writes y[t].
func moveKernel(r *regionState, op *ir.Operation, family, key string, summary func() string, ins []*ir.Value, status bool, body func(b *kb, ins []tensorInfo, y tensorInfo)) error {
	y, _ := infoOf(op.Result(0))
	if y.n == 0 {
		return nil
	}
	if y.n >= 1<<31 {
		return ir.OpError(op, "has %d elements; Metal kernels here index with 32 bits", y.n)
	}
	infos := make([]tensorInfo, len(ins))
	for i, v := range ins {
		infos[i], _ = infoOf(v)
	}
	k, err := r.e.kernel(op, family, key, func(b *kb) error {
		b.k.Summary = summary()
		for i, t := range infos {
			b.buffer(fmt.Sprintf("x%d", i), t, accRead)
		}
		b.buffer("y", y, accWrite)
		if status {
			b.status()
		}
		b.launchThreads(y.n, min(moveThreads, b.e.opts.MaxThreadsPerThreadgroup))
		b.l("const uint t = tgpos.x * tptg.x + tpos.x;")
		b.l("if (t >= %du) {", y.n)
		b.l("return;")
		b.l("}")
		body(b, infos, y)
		return nil
	})
	if err != nil {
		return err
	}
	writes := []*ir.Value{op.Result(0)}
	if status {
		writes = append(writes, nil)
	}
	ids, err := r.bind(ins, writes)
	if err != nil {
		return err
	}
	r.dispatch(k, []*ir.Operation{op}, ids)
	return nil
}

func emitTranspose(r *regionState, op *ir.Operation) error {
	tr, _ := graph.AsTranspose(op)
	perm := tr.Permutation()
	x, _ := infoOf(op.Operand(0))
	key := keyOf(x.elem, x.shape, perm)
	return moveKernel(r, op, "transpose", key, func() string { return fmt.Sprintf("transpose %v by %v, %s", x.shape, perm, x.elem) },
		[]*ir.Value{op.Operand(0)}, false, func(b *kb, ins []tensorInfo, y tensorInfo) {
			xs := strides(x.shape)
			var terms []string
			for i, p := range perm {
				if y.shape[i] == 1 {
					continue
				}
				if xs[p] == 1 {
					terms = append(terms, coord(y.shape, i))
				} else {
					terms = append(terms, fmt.Sprintf("%s * %du", coord(y.shape, i), xs[p]))
				}
			}
			b.l("y[t] = x0[%s];", sumTerms(terms))
		})
}

func sumTerms(terms []string) string {
	if len(terms) == 0 {
		return "0"
	}
	return strings.Join(terms, " + ")
}

// splitAxis describes a result element t as (outer, c, inner) around an
// axis of length n with inner elements after it.
func splitAxis(b *kb, n, inner int64) {
	b.l("const uint inner = t %% %du;", inner)
	b.l("const uint c = (t / %du) %% %du;", inner, n)
	b.l("const uint outer = t / %du;", inner*n)
}

func emitSlice(r *regionState, op *ir.Operation) error {
	s, _ := graph.AsSlice(op)
	x, _ := infoOf(op.Operand(0))
	axis, start, length, step := s.Axis(), s.Start(), s.Length(), s.Step()
	if step < 1 {
		step = 1
	}
	inner := product(x.shape[axis+1:])
	l := x.shape[axis]
	key := keyOf(x.elem, x.shape, axis, start, length, step)
	return moveKernel(r, op, "slice", key, func() string {
		return fmt.Sprintf("slice %v axis %d from %d, %d every %d, %s", x.shape, axis, start, length, step, x.elem)
	},
		[]*ir.Value{op.Operand(0)}, false, func(b *kb, ins []tensorInfo, y tensorInfo) {
			splitAxis(b, length, inner)
			b.l("y[t] = x0[outer * %du + (%du + c * %du) * %du + inner];", l*inner, start, step, inner)
		})
}

func emitConcat(r *regionState, op *ir.Operation) error {
	c, _ := graph.AsConcat(op)
	axis := c.Axis()
	y, _ := infoOf(op.Result(0))
	inner := product(y.shape[axis+1:])
	parts := []any{y.elem, y.shape, axis}
	for _, v := range op.Operands() {
		t, _ := infoOf(v)
		parts = append(parts, t.shape)
	}
	key := keyOf(parts...)
	return moveKernel(r, op, "concat", key, func() string {
		return fmt.Sprintf("concat of %d along axis %d into %v, %s", op.NumOperands(), axis, y.shape, y.elem)
	},
		op.Operands(), false, func(b *kb, ins []tensorInfo, y tensorInfo) {
			splitAxis(b, y.shape[axis], inner)
			off := int64(0)
			for i, t := range ins {
				n := t.shape[axis]
				if n == 0 {
					continue
				}
				cond := fmt.Sprintf("if (c < %du) {", off+n)
				if i == len(ins)-1 {
					cond = "{"
				}
				b.l("%s", cond)
				b.l("y[t] = x%d[outer * %du + (c - %du) * %du + inner];", i, n*inner, off, inner)
				b.l("return;")
				b.l("}")
				off += n
			}
		})
}

func emitGather(r *regionState, op *ir.Operation) error {
	g, _ := graph.AsGather(op)
	tab, _ := infoOf(op.Operand(0))
	idx, _ := infoOf(op.Operand(1))
	axis := g.Axis()
	n := tab.shape[axis]
	inner := product(tab.shape[axis+1:])
	key := keyOf(tab.elem, tab.shape, idx.elem, idx.shape, axis)
	return moveKernel(r, op, "gather", key, func() string {
		return fmt.Sprintf("gather from %v along axis %d by %s%v", tab.shape, axis, idx.elem, idx.shape)
	},
		op.Operands(), true, func(b *kb, ins []tensorInfo, y tensorInfo) {
			splitAxis(b, idx.n, inner)
			b.l("const long i = (long)x1[c];")
			b.l("if (i < 0 || i >= %d) {", n)
			b.l("atomic_fetch_or_explicit(status, 1u, memory_order_relaxed);")
			b.l("y[t] = (%s)0;", tab.elem.msl())
			b.l("return;")
			b.l("}")
			b.l("y[t] = x0[outer * %du + (uint)i * %du + inner];", n*inner, inner)
		})
}

// emitCopy copies v into a region output (a region operand or a weight
// returned as is, or a value returned twice).
func (r *regionState) emitCopy(at *ir.Operation, v *ir.Value, out int) error {
	x, _ := infoOf(v)
	if x.n == 0 {
		return nil
	}
	k, err := r.e.kernel(at, "copy", keyOf(x.elem, x.n), func(b *kb) error {
		b.k.Summary = fmt.Sprintf("copy %d elements of %s", x.n, x.elem)
		b.buffer("x", x, accRead)
		b.buffer("y", x, accWrite)
		b.launchThreads(x.n, min(moveThreads, b.e.opts.MaxThreadsPerThreadgroup))
		b.l("const uint t = tgpos.x * tptg.x + tpos.x;")
		b.l("if (t < %du) {", x.n)
		b.l("y[t] = x[t];")
		b.l("}")
		return nil
	})
	if err != nil {
		return err
	}
	src, err := r.read(v)
	if err != nil {
		return err
	}
	r.dispatch(k, []*ir.Operation{at}, []int{src, out})
	return nil
}
