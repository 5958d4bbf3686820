package metal

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// Element-wise fusion (MLX's compiled kernels, ggml's binary chains): a run
// of element-wise ops of one result shape becomes one kernel that reads
// each outside operand once and writes only the values used after the run;
// everything in between lives in registers. Each thread computes one
// element, or four with vector loads and stores when every operand is
// full-size, a scalar or a row repeated along the leading dims.

// ewInput is an operand read from a buffer.
type ewInput struct {
	v    *ir.Value
	t    tensorInfo
	kind int     // ewFull, ewScalar, ewSuffix, ewGeneral
	bstr []int64 // ewGeneral: stride per result dim (0 where broadcast)
}

const (
	ewFull = iota
	ewScalar
	ewSuffix // the operand's elements repeat along the leading result dims
	ewGeneral
)

func (r *regionState) emitFused(ops []*ir.Operation) error {
	var group []*ir.Operation
	in := map[*ir.Operation]int{}
	for _, op := range ops {
		if !isLeaf(op) {
			in[op] = len(group)
			group = append(group, op)
		}
	}
	outT, err := infoOf(group[0].Result(0))
	if err != nil {
		return ir.OpError(group[0], "%v", err)
	}
	if outT.n == 0 {
		return nil
	}
	if outT.n >= 1<<31 {
		return ir.OpError(group[0], "has %d elements; Metal kernels here index with 32 bits", outT.n)
	}
	var inputs []ewInput
	// An input is the buffer behind reshapes (root) as one shape: a
	// buffer read as two shapes (x and a reshape of it) broadcasts
	// each its own way, so it is two inputs.
	type inputKey struct {
		root  *ir.Value
		shape string
	}
	inputOf := map[inputKey]int{}
	desc := []any{outT.shape}
	// operand refs: "o<k>" a group value, "i<k>" an input, or a literal.
	ref := func(v *ir.Value) (string, error) {
		if def := v.DefiningOp(); def != nil {
			if k, ok := in[def]; ok {
				return "o" + strconv.Itoa(k), nil
			}
			if lit, ok := splatLiteral(def); ok {
				return lit, nil
			}
		}
		t, err := infoOf(v)
		if err != nil {
			return "", err
		}
		key := inputKey{root(v), fmt.Sprint(t.shape)}
		if k, ok := inputOf[key]; ok {
			return "i" + strconv.Itoa(k), nil
		}
		x := ewInput{v: v, t: t, kind: broadcastKind(t.shape, outT.shape)}
		if x.kind == ewGeneral {
			x.bstr = broadcastStrides(t.shape, outT.shape)
		}
		inputOf[key] = len(inputs)
		inputs = append(inputs, x)
		desc = append(desc, "in", t.elem, t.shape)
		return "i" + strconv.Itoa(len(inputs)-1), nil
	}
	type step struct {
		op   *ir.Operation
		args []string
		out  elem
	}
	steps := make([]step, len(group))
	needStatus := false
	for k, op := range group {
		st := step{op: op}
		for _, v := range op.Operands() {
			a, err := ref(v)
			if err != nil {
				return ir.OpError(op, "%v", err)
			}
			st.args = append(st.args, a)
		}
		st.out = elemOf(op.Result(0).Type())
		if op.Name() == graph.DivName && st.out.isInt() {
			needStatus = true
		}
		desc = append(desc, op.Name(), st.out)
		for _, a := range st.args {
			desc = append(desc, a)
		}
		if c, ok := graph.AsCmp(op); ok {
			desc = append(desc, string(c.Predicate()))
		}
		steps[k] = st
	}
	// Results used after the run are written.
	var outs []int
	for k, op := range group {
		used := false
		for u := range op.Result(0).Uses() {
			if _, ok := in[u.Owner()]; !ok {
				used = true
			}
		}
		if used {
			outs = append(outs, k)
			desc = append(desc, "out", k)
		}
	}
	vec := outT.n%4 == 0
	for _, x := range inputs {
		vec = vec && vecElem(x.t.elem) && (x.kind == ewFull || x.kind == ewScalar || (x.kind == ewSuffix && x.t.n%4 == 0))
	}
	for _, k := range outs {
		vec = vec && vecElem(steps[k].out)
	}
	desc = append(desc, vec)

	k, err := r.e.kernel(group[0], "ew", keyOf(desc...), func(b *kb) error {
		names := make([]string, 0, len(group))
		for _, op := range group {
			names = append(names, strings.TrimPrefix(op.Name(), "graph."))
		}
		b.k.Summary = fmt.Sprintf("fused element-wise %s over %v", strings.Join(names, ", "), outT.shape)
		for i, x := range inputs {
			b.buffer("in"+strconv.Itoa(i), x.t, accRead)
		}
		for _, k := range outs {
			t, _ := infoOf(group[k].Result(0))
			b.buffer("out"+strconv.Itoa(k), t, accWrite)
		}
		if needStatus {
			b.status()
		}
		w := 1
		if vec {
			w = 4
		}
		total := outT.n / int64(w)
		b.launchThreads(total, min(256, b.e.opts.MaxThreadsPerThreadgroup))
		b.l("const uint t = tgpos.x * tptg.x + tpos.x;")
		b.l("if (t >= %du) {", total)
		b.l("return;")
		b.l("}")
		if vec {
			for i, x := range inputs {
				vt := x.t.elem.msl() + "4"
				switch x.kind {
				case ewFull:
					b.l("const %s x%d = ((device const %s *)in%d)[t];", vt, i, vt, i)
				case ewSuffix:
					b.l("const %s x%d = ((device const %s *)in%d)[t %% %du];", vt, i, vt, i, x.t.n/4)
				case ewScalar:
					b.l("const %s x%d = (%s)in%d[0];", x.t.elem.compute(), i, x.t.elem.compute(), i)
				}
			}
			for _, k := range outs {
				b.l("%s y%d;", steps[k].out.msl()+"4", k)
			}
			b.l("for (uint c = 0; c < 4u; c++) {")
		} else {
			for i, x := range inputs {
				b.l("const %s x%d = (%s)in%d[%s];", x.t.elem.compute(), i, x.t.elem.compute(), i, scalarIndex(x, outT))
			}
		}
		arg := func(a string) string {
			switch {
			case strings.HasPrefix(a, "i"):
				i, _ := strconv.Atoi(a[1:])
				if vec && inputs[i].kind != ewScalar {
					return "(" + inputs[i].t.elem.compute() + ")x" + a[1:] + "[c]"
				}
				return "x" + a[1:]
			case strings.HasPrefix(a, "o"):
				return "v" + a[1:]
			}
			return a
		}
		for k, st := range steps {
			args := make([]string, len(st.args))
			argT := make([]elem, len(st.args))
			for i, a := range st.args {
				args[i] = arg(a)
				argT[i] = elemOf(st.op.Operand(i).Type())
			}
			expr, err := ewExpr(b, st.op, args, argT, st.out)
			if err != nil {
				return err
			}
			if st.out == elemI1 && (st.op.Name() == graph.CmpName || st.op.Name() == graph.CastName) {
				b.l("%s v%d = %s;", st.out.compute(), k, expr) // already 0 or 1
			} else {
				b.l("%s v%d = %s;", st.out.compute(), k, roundTo(expr, st.out))
			}
		}
		for _, k := range outs {
			if vec {
				b.l("y%d[c] = (%s)v%d;", k, steps[k].out.msl(), k)
			} else {
				b.l("out%d[t] = (%s)v%d;", k, steps[k].out.msl(), k)
			}
		}
		if vec {
			b.l("}")
			for _, k := range outs {
				vt := steps[k].out.msl() + "4"
				b.l("((device %s *)out%d)[t] = y%d;", vt, k, k)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	var reads, writes []*ir.Value
	for _, x := range inputs {
		reads = append(reads, x.v)
	}
	for _, k := range outs {
		writes = append(writes, group[k].Result(0))
	}
	if needStatus {
		writes = append(writes, nil)
	}
	ids, err := r.bind(reads, writes)
	if err != nil {
		return err
	}
	r.dispatch(k, group, ids)
	return nil
}

// vecElem reports whether a type has MSL vectors of four used here.
func vecElem(e elem) bool { return e != elemI64 && e != elemBF16 }

// broadcastKind classifies how an operand of shape in maps onto out.
func broadcastKind(in, out []int64) int {
	n := product(in)
	if n == product(out) {
		return ewFull
	}
	if n == 1 {
		return ewScalar
	}
	// Suffix: after dropping leading 1s, in equals out's trailing dims.
	i := 0
	for i < len(in) && in[i] == 1 {
		i++
	}
	rest := in[i:]
	if len(rest) <= len(out) {
		tail := out[len(out)-len(rest):]
		same := true
		for j := range rest {
			same = same && rest[j] == tail[j]
		}
		if same {
			return ewSuffix
		}
	}
	return ewGeneral
}

// broadcastStrides returns, per dim of out, the operand's stride (0 where
// it broadcasts).
func broadcastStrides(in, out []int64) []int64 {
	st := strides(in)
	b := make([]int64, len(out))
	off := len(out) - len(in)
	for d := range out {
		if d < off || in[d-off] == 1 {
			continue
		}
		b[d] = st[d-off]
	}
	return b
}

// scalarIndex is the operand index of result element t.
func scalarIndex(x ewInput, out tensorInfo) string {
	switch x.kind {
	case ewFull:
		return "t"
	case ewScalar:
		return "0"
	case ewSuffix:
		return fmt.Sprintf("t %% %du", x.t.n)
	}
	os := strides(out.shape)
	var terms []string
	for d := range out.shape {
		if x.bstr[d] == 0 {
			continue
		}
		c := "t"
		if os[d] != 1 {
			c = fmt.Sprintf("t / %du", os[d])
		}
		if d > 0 {
			c = fmt.Sprintf("(%s) %% %du", c, out.shape[d])
		}
		if x.bstr[d] != 1 {
			c = fmt.Sprintf("(%s) * %du", c, x.bstr[d])
		}
		terms = append(terms, c)
	}
	if len(terms) == 0 {
		return "0"
	}
	return strings.Join(terms, " + ")
}

// splatLiteral returns a splat graph.constant's value as a literal of its
// compute type.
func splatLiteral(op *ir.Operation) (string, bool) {
	if op.Name() != graph.ConstantName {
		return "", false
	}
	a, ok := op.Attr("value").(*ir.DenseElementsAttr)
	if !ok {
		return "", false
	}
	if !a.Splat && a.NumElements() != 1 {
		return "", false
	}
	e := elemOf(op.Result(0).Type())
	switch {
	case e.isFloat():
		return floatLit(float32(a.FloatAt(0))), true
	case e.isInt():
		return "(long)" + strconv.FormatInt(a.IntAt(0), 10), true
	}
	return "", false
}

// floatLit spells a float32 as an MSL float literal.
func floatLit(f float32) string {
	switch {
	case math.IsNaN(float64(f)):
		return "NAN"
	case math.IsInf(float64(f), 1):
		return "INFINITY"
	case math.IsInf(float64(f), -1):
		return "(-INFINITY)"
	}
	s := strconv.FormatFloat(float64(f), 'g', -1, 32)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	if strings.HasPrefix(s, "-") {
		return "(" + s + "f)"
	}
	return s + "f"
}

// roundTo rounds a compute-type expression to element type e, as the
// reference does when each op finishes.
func roundTo(x string, e elem) string {
	switch e {
	case elemF16:
		return "(float)(half)(" + x + ")"
	case elemBF16:
		return "(float)(bfloat)(" + x + ")"
	case elemI32:
		return "(long)(int)(" + x + ")"
	case elemI8:
		return "(long)(char)(" + x + ")"
	case elemUI8:
		return "(long)(uchar)(" + x + ")"
	case elemI1:
		return "((" + x + ") != 0 ? (long)1 : (long)0)"
	}
	return x
}

// ewExpr is the compute-type expression of one element-wise op.
func ewExpr(b *kb, op *ir.Operation, a []string, at []elem, out elem) (string, error) {
	name := op.Name()
	h := &b.e.helpers
	if len(a) == 1 && name != graph.CastName && name != graph.BroadcastName {
		x := a[0]
		if at[0].isInt() {
			switch name {
			case graph.NegName:
				return "(long)(0ul - (ulong)" + x + ")", nil
			case graph.AbsName:
				return "(" + x + " < 0 ? (long)(0ul - (ulong)" + x + ") : " + x + ")", nil
			case graph.ReluName:
				return "(" + x + " > 0 ? " + x + " : (long)0)", nil
			}
			return "", ir.OpError(op, "has no Metal kernel for integer operands")
		}
		switch name {
		case graph.NegName:
			return "-" + x, nil
		case graph.AbsName:
			return "fabs(" + x + ")", nil
		case graph.ExpName, graph.LogName, graph.SqrtName, graph.TanhName, graph.SinName, graph.CosName:
			return strings.TrimPrefix(name, "graph.") + "(" + x + ")", nil
		case graph.RsqrtName:
			return "1.0f / sqrt(" + x + ")", nil
		case graph.ReciprocalName:
			return "1.0f / " + x, nil
		case graph.ReluName, graph.SigmoidName, graph.SiluName, graph.SoftplusName, graph.GeluName, graph.GeluTanhName:
			h.use(hUnary)
			return "rlx_" + strings.TrimPrefix(name, "graph.") + "(" + x + ")", nil
		}
		return "", ir.OpError(op, "has no Metal kernel")
	}
	switch name {
	case graph.BroadcastName:
		return a[0], nil
	case graph.CastName:
		return castExpr(b, a[0], at[0], out), nil
	case graph.SelectName:
		return "(" + a[0] + " != 0 ? " + a[1] + " : " + a[2] + ")", nil
	case graph.CmpName:
		c, _ := graph.AsCmp(op)
		sym := map[graph.CmpPredicate]string{"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}[c.Predicate()]
		if sym == "" {
			return "", ir.OpError(op, "has an unknown predicate %q", c.Predicate())
		}
		return "(" + a[0] + " " + sym + " " + a[1] + " ? (long)1 : (long)0)", nil
	}
	x, y := a[0], a[1]
	if at[0].isInt() {
		switch name {
		case graph.AddName:
			return "(long)((ulong)" + x + " + (ulong)" + y + ")", nil
		case graph.SubName:
			return "(long)((ulong)" + x + " - (ulong)" + y + ")", nil
		case graph.MulName:
			return "(long)((ulong)" + x + " * (ulong)" + y + ")", nil
		case graph.DivName:
			h.use(hIntOps)
			return "rlx_idiv(" + x + ", " + y + ", status)", nil
		case graph.MaxName:
			return "max(" + x + ", " + y + ")", nil
		case graph.MinName:
			return "min(" + x + ", " + y + ")", nil
		case graph.PowName:
			h.use(hIntOps)
			return "rlx_ipow(" + x + ", " + y + ")", nil
		}
		return "", ir.OpError(op, "has no Metal kernel for integer operands")
	}
	switch name {
	case graph.AddName:
		return x + " + " + y, nil
	case graph.SubName:
		return x + " - " + y, nil
	case graph.MulName:
		return x + " * " + y, nil
	case graph.DivName:
		return x + " / " + y, nil
	case graph.MaxName:
		h.use(hFMinMax)
		return "rlx_fmax(" + x + ", " + y + ")", nil
	case graph.MinName:
		h.use(hFMinMax)
		return "rlx_fmin(" + x + ", " + y + ")", nil
	case graph.PowName:
		h.use(hPow)
		return "rlx_pow(" + x + ", " + y + ")", nil
	}
	return "", ir.OpError(op, "has no Metal kernel")
}

// castExpr converts x of type from (in its compute type) to to's compute
// type; roundTo then rounds it to the storage type.
func castExpr(b *kb, x string, from, to elem) string {
	switch {
	case from.isFloat() && to.isFloat():
		return x
	case from.isInt() && to.isFloat():
		return "(float)" + x
	case from.isInt() && to == elemI1:
		return "(" + x + " != 0 ? (long)1 : (long)0)"
	case from.isInt() && to.isInt():
		return x
	}
	// float to integer: truncate toward zero, saturate, NaN to 0; i1 is x != 0.
	if to == elemI1 {
		return "(" + x + " != 0.0f ? (long)1 : (long)0)"
	}
	b.e.helpers.use(hCast)
	lo, hi, ilo, ihi := intRange(to)
	return fmt.Sprintf("rlx_f2i(%s, %s, %s, %s, %s)", x, lo, hi, ilo, ihi)
}

// intRange returns the saturation bounds of float-to-integer casts:
// values at or below lo give ilo, at or above hi give ihi (hi is the first
// float past the type's maximum where that maximum is not a float).
func intRange(e elem) (lo, hi, ilo, ihi string) {
	switch e {
	case elemI32:
		return "-2147483648.0f", "2147483648.0f", "(long)(-2147483647 - 1)", "(long)2147483647"
	case elemI64:
		return "-9223372036854775808.0f", "9223372036854775808.0f", "(long)(-9223372036854775807L - 1)", "(long)9223372036854775807L"
	case elemI8:
		return "-128.0f", "127.0f", "(long)(-128)", "(long)127"
	}
	return "0.0f", "255.0f", "(long)0", "(long)255" // ui8
}
