package metal

import (
	"fmt"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// graph.rope, both styles and partial rotary dims. One thread per result
// element (so stores coalesce): an element of a rotated pair reads its
// partner and the position's cos and sin; elements at or past the rotary
// dim are copied. x is [B,S,H,D] or packed [B,S,H·D]; the position of a
// row is its S index.

func emitRope(r *regionState, op *ir.Operation) error {
	rp, _ := graph.AsRope(op)
	x, _ := infoOf(op.Operand(0))
	cs, _ := infoOf(op.Operand(1))
	y, _ := infoOf(op.Result(0))
	d, rot, style := rp.HeadDim(), rp.RotaryDim(), rp.Style()
	if x.rank() < 3 || d <= 0 || rot%2 != 0 || rot > d {
		return ir.OpError(op, "has no Metal kernel for operand %v with head_dim %d and rotary_dim %d", op.Operand(0).Type(), d, rot)
	}
	if y.n == 0 {
		return nil
	}
	s := x.shape[1]
	rowLen := product(x.shape[2:]) // H·D elements per (b, s)
	half := rot / 2
	key := keyOf(x.elem, cs.elem, y.elem, x.shape, d, rot, string(style))
	k, err := r.e.kernel(op, "rope", key, func(b *kb) error {
		b.k.Summary = fmt.Sprintf("rope %s over %v, head_dim %d, rotary_dim %d, %s", style, x.shape, d, rot, x.elem)
		b.buffer("x", x, accRead)
		b.buffer("cosv", cs, accRead)
		b.buffer("sinv", cs, accRead)
		b.buffer("y", y, accWrite)
		b.launchThreads(y.n, min(256, b.e.opts.MaxThreadsPerThreadgroup))
		b.l("const uint t = tgpos.x * tptg.x + tpos.x;")
		b.l("if (t >= %du) {", y.n)
		b.l("return;")
		b.l("}")
		b.l("const uint d = t %% %du;", d)
		b.l("const uint pos = (t / %du) %% %du;", rowLen, s)
		b.l("const float xv = (float)x[t];")
		b.l("float out = xv;")
		if rot > 0 {
			b.l("if (d < %du) {", rot)
			if style == graph.RopeGPTJ {
				b.l("const uint p = d / 2u;")
				b.l("const float c = (float)cosv[pos * %du + p];", half)
				b.l("const float sn = (float)sinv[pos * %du + p];", half)
				b.l("if ((d & 1u) == 0u) {")
				b.l("out = xv * c - (float)x[t + 1u] * sn;")
				b.l("} else {")
				b.l("out = xv * c + (float)x[t - 1u] * sn;")
				b.l("}")
			} else {
				b.l("const uint p = d < %du ? d : d - %du;", half, half)
				b.l("const float c = (float)cosv[pos * %du + p];", half)
				b.l("const float sn = (float)sinv[pos * %du + p];", half)
				b.l("if (d < %du) {", half)
				b.l("out = xv * c - (float)x[t + %du] * sn;", half)
				b.l("} else {")
				b.l("out = xv * c + (float)x[t - %du] * sn;", half)
				b.l("}")
			}
			b.l("}")
		}
		b.l("y[t] = (%s)out;", y.elem.msl())
		return nil
	})
	if err != nil {
		return err
	}
	ids, err := r.bind([]*ir.Value{op.Operand(0), op.Operand(1), op.Operand(2)}, []*ir.Value{op.Result(0)})
	if err != nil {
		return err
	}
	r.dispatch(k, []*ir.Operation{op}, ids)
	return nil
}
