package mps

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/rlx-compiler/rlx/ir"
)

// constant returns the expression of an mps.constant: a splat is
// constantWithScalar:shape:dataType: (the double holds any f32, f16,
// bf16, i32 or i1 value exactly); other constants are
// constantWithData:shape:dataType:, with their bytes in a static array of
// the source when they are small (Options.MaxInlineBytes) and from the
// constants dictionary otherwise.
func (r *regionEmitter) constant(op *ir.Operation, shape, dt string) (string, error) {
	t := op.Result(0).Type().(*ir.RankedTensorType)
	raw, splat, err := elementBytes(op.Context(), op.Attr("value"), t)
	if err != nil {
		return "", ir.OpError(op, "%v", err)
	}
	if splat {
		return fmt.Sprintf("[graph constantWithScalar:%s shape:%s dataType:%s]", scalarLiteral(op.Attr("value"), t), shape, dt), nil
	}
	if len(raw) > r.opts.MaxInlineBytes {
		k := len(r.b.Constants)
		r.b.Constants = append(r.b.Constants, Constant{Key: fmt.Sprintf("%s.c%d", r.b.Symbol, k), Type: t, Data: raw})
		return fmt.Sprintf("[graph constantWithData:c%d shape:%s dataType:%s]", k, shape, dt), nil
	}
	arr := fmt.Sprintf("%s_cst%d", r.b.Function, r.next)
	fmt.Fprintf(&r.statics, "static const unsigned char %s[%d] = {", arr, len(raw))
	for i, c := range raw {
		if i%16 == 0 {
			r.statics.WriteString("\n  ")
		} else {
			r.statics.WriteString(" ")
		}
		fmt.Fprintf(&r.statics, "0x%02x,", c)
	}
	r.statics.WriteString("\n};\n")
	return fmt.Sprintf("[graph constantWithData:[NSData dataWithBytes:%s length:%d] shape:%s dataType:%s]", arr, len(raw), shape, dt), nil
}

// elementBytes returns the little-endian bytes of a constant's elements as
// MPSGraph takes them (one byte per i1), and whether the attribute is a
// splat (its bytes are then one element's).
func elementBytes(ctx *ir.Context, attr ir.Attribute, t *ir.RankedTensorType) ([]byte, bool, error) {
	n := int(ir.NumElements(t))
	size := ir.ElemBytes(t.Elem)
	var raw []byte
	switch a := attr.(type) {
	case *ir.DenseElementsAttr:
		raw = a.RawData()
		if a.Splat && len(raw) == size {
			return normI1(raw, t), true, nil
		}
	case *ir.DenseResourceElementsAttr:
		blob := ctx.Resource(a.Handle)
		if blob == nil {
			return nil, false, fmt.Errorf("dense resource %q has no data", a.Handle)
		}
		raw = blob.Data
	default:
		return nil, false, fmt.Errorf("value %v is not a dense elements attribute", attr)
	}
	if len(raw) != n*size {
		return nil, false, fmt.Errorf("value holds %d bytes, expected %d for %s", len(raw), n*size, t)
	}
	return normI1(raw, t), false, nil
}

// normI1 makes every i1 byte 0 or 1 (MPSDataTypeBool's encoding).
func normI1(raw []byte, t *ir.RankedTensorType) []byte {
	if it, ok := t.Elem.(*ir.IntegerType); !ok || it.Width != 1 {
		return raw
	}
	out := make([]byte, len(raw))
	for i, b := range raw {
		if b != 0 {
			out[i] = 1
		}
	}
	return out
}

// scalarLiteral is the double literal of a splat's element.
func scalarLiteral(attr ir.Attribute, t *ir.RankedTensorType) string {
	a, ok := attr.(*ir.DenseElementsAttr)
	switch {
	case ok && ir.IsFloat(t.Elem):
		return floatLiteral(a.FloatAt(0))
	case ok:
		v := a.IntAt(0)
		if it, _ := t.Elem.(*ir.IntegerType); it != nil && it.Width == 1 && v != 0 {
			v = 1
		}
		return strconv.FormatInt(v, 10)
	}
	return "0"
}

// floatLiteral writes v as a C double expression that reads back exactly.
func floatLiteral(v float64) string {
	switch {
	case math.IsNaN(v):
		return `__builtin_nan("")`
	case math.IsInf(v, 1):
		return "__builtin_inf()"
	case math.IsInf(v, -1):
		return "-__builtin_inf()"
	}
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	return s
}
