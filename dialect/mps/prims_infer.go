package mps

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rlx-compiler/rlx/ir"
)

// primChecker holds one primitive while its result type is inferred: the
// operand types (checked to be static ranked tensors of a type MPSGraph
// takes), the attributes, and the declared result type for the ops whose
// result type is an input (placeholder, reshape, broadcast, cast).
type primChecker struct {
	ctx    *ir.Context
	name   string
	in     []*ir.RankedTensorType
	attrs  func(name string) ir.Attribute
	result *ir.RankedTensorType
}

func (c *primChecker) errorf(format string, args ...any) error {
	return fmt.Errorf(format, args...)
}

// ElemTypeOK reports whether MPSGraph takes the element type: f32, f16,
// bf16, i32, or i1 (MPSDataTypeBool, the result of comparisons).
func ElemTypeOK(t ir.Type) bool {
	switch t := t.(type) {
	case *ir.FloatType:
		switch t.Name() {
		case "f32", "f16", "bf16":
			return true
		}
	case *ir.IntegerType:
		return (t.Width == 32 || t.Width == 1) && t.IsSignless()
	}
	return false
}

const primTypesText = "f32, f16, bf16, i32 or i1"

// staticTensor returns t as a ranked tensor of static shape and an element
// type MPSGraph takes, or nil.
func staticTensor(t ir.Type) *ir.RankedTensorType {
	rt, ok := t.(*ir.RankedTensorType)
	if !ok || !ElemTypeOK(rt.Elem) {
		return nil
	}
	for _, d := range rt.Shape {
		if d == ir.Dynamic {
			return nil
		}
	}
	return rt
}

func isFloatElem(t ir.Type) bool { _, ok := t.(*ir.FloatType); return ok }

func isI1(t ir.Type) bool {
	it, ok := t.(*ir.IntegerType)
	return ok && it.Width == 1
}

func shapeText(s []int64) string {
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = strconv.FormatInt(d, 10)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func (c *primChecker) tensor(shape []int64, elem ir.Type) *ir.RankedTensorType {
	return c.ctx.TensorType(shape, elem)
}

func (c *primChecker) i64(name string) int64 {
	if a, ok := c.attrs(name).(*ir.IntegerAttr); ok {
		return a.Value
	}
	return 0
}

func (c *primChecker) i64s(name string) []int64 {
	if a, ok := c.attrs(name).(*ir.DenseArrayAttr); ok {
		return a.Ints
	}
	return nil
}

// numeric requires operand i not to be i1.
func (c *primChecker) numeric(i int) error {
	if isI1(c.in[i].Elem) {
		return c.errorf("operand #%d has element type i1, expected a number", i)
	}
	return nil
}

func (c *primChecker) float(i int) error {
	if !isFloatElem(c.in[i].Elem) {
		return c.errorf("operand #%d has element type %s, expected a float", i, c.in[i].Elem)
	}
	return nil
}

func (c *primChecker) sameElem(idx ...int) error {
	for _, i := range idx[1:] {
		if c.in[i].Elem != c.in[idx[0]].Elem {
			return c.errorf("operand #%d has element type %s, but operand #%d has %s (MPSGraph does not mix element types)",
				i, c.in[i].Elem, idx[0], c.in[idx[0]].Elem)
		}
	}
	return nil
}

// BroadcastShapes returns MPSGraph's broadcast of two shapes: the shorter
// is left-padded with 1s, then in each position the dims must be equal or
// one of them 1.
func BroadcastShapes(a, b []int64) ([]int64, bool) {
	if len(a) < len(b) {
		a, b = b, a
	}
	out := append([]int64(nil), a...)
	off := len(a) - len(b)
	for i, d := range b {
		switch o := out[off+i]; {
		case o == d || d == 1:
		case o == 1:
			out[off+i] = d
		default:
			return nil, false
		}
	}
	return out, true
}

func (c *primChecker) broadcast(idx ...int) ([]int64, error) {
	s := c.in[idx[0]].Shape
	for _, i := range idx[1:] {
		r, ok := BroadcastShapes(s, c.in[i].Shape)
		if !ok {
			return nil, c.errorf("operand #%d has shape %s, which does not broadcast with %s", i, shapeText(c.in[i].Shape), shapeText(s))
		}
		s = r
	}
	return s, nil
}

// axis normalises an axis of a rank-r tensor; negative ones count from the
// end when neg is set.
func (c *primChecker) axis(what string, a int64, r int, neg bool) (int, error) {
	lo := int64(0)
	if neg {
		lo = -int64(r)
	}
	if a < lo || a >= int64(r) {
		if neg {
			return 0, c.errorf("%s %d is out of range for rank %d (expected %d to %d)", what, a, r, -r, r-1)
		}
		return 0, c.errorf("%s %d is out of range for rank %d (expected 0 to %d)", what, a, r, r-1)
	}
	if a < 0 {
		a += int64(r)
	}
	return int(a), nil
}

func inferPlaceholder(c *primChecker) (*ir.RankedTensorType, error) {
	if s, ok := c.attrs("name").(*ir.StringAttr); !ok || s.Value == "" {
		return nil, c.errorf("needs a non-empty name")
	}
	if c.result == nil {
		return nil, c.errorf("needs a result type")
	}
	return c.result, nil
}

func inferConstant(c *primChecker) (*ir.RankedTensorType, error) {
	var t ir.Type
	switch v := c.attrs("value").(type) {
	case *ir.DenseElementsAttr:
		t = v.Type
	case *ir.DenseResourceElementsAttr:
		t = v.AttrType()
	default:
		return nil, c.errorf("value must be a dense elements attribute")
	}
	rt := staticTensor(t)
	if rt == nil {
		return nil, c.errorf("value has type %s, expected a static tensor of %s", t, primTypesText)
	}
	return rt, nil
}

func inferBinary(floatOnly bool) func(c *primChecker) (*ir.RankedTensorType, error) {
	return func(c *primChecker) (*ir.RankedTensorType, error) {
		check := c.numeric
		if floatOnly {
			check = c.float
		}
		if err := check(0); err != nil {
			return nil, err
		}
		if err := c.sameElem(0, 1); err != nil {
			return nil, err
		}
		s, err := c.broadcast(0, 1)
		if err != nil {
			return nil, err
		}
		return c.tensor(s, c.in[0].Elem), nil
	}
}

func inferCompare(c *primChecker) (*ir.RankedTensorType, error) {
	if err := c.sameElem(0, 1); err != nil {
		return nil, err
	}
	s, err := c.broadcast(0, 1)
	if err != nil {
		return nil, err
	}
	return c.tensor(s, c.ctx.I1()), nil
}

func inferSelect(c *primChecker) (*ir.RankedTensorType, error) {
	if !isI1(c.in[0].Elem) {
		return nil, c.errorf("operand #0 (the predicate) has element type %s, expected i1", c.in[0].Elem)
	}
	if err := c.sameElem(1, 2); err != nil {
		return nil, err
	}
	s, err := c.broadcast(0, 1, 2)
	if err != nil {
		return nil, err
	}
	return c.tensor(s, c.in[1].Elem), nil
}

func inferUnary(floatOnly bool) func(c *primChecker) (*ir.RankedTensorType, error) {
	return func(c *primChecker) (*ir.RankedTensorType, error) {
		if floatOnly {
			if err := c.float(0); err != nil {
				return nil, err
			}
		} else if err := c.numeric(0); err != nil {
			return nil, err
		}
		return c.in[0], nil
	}
}

// ReducedShape returns the shape of a reduction of shape over axes as
// MPSGraph gives it (reduced axes kept with size 1), or an error for a bad
// axis list.
func ReducedShape(shape []int64, axes []int64) ([]int64, error) {
	c := &primChecker{}
	return c.reduced(shape, axes)
}

func (c *primChecker) reduced(shape []int64, axes []int64) ([]int64, error) {
	out := append([]int64(nil), shape...)
	seen := make([]bool, len(shape))
	for _, a := range axes {
		ax, err := c.axis("axis", a, len(shape), true)
		if err != nil {
			return nil, err
		}
		if seen[ax] {
			return nil, c.errorf("axis %d is listed twice", ax)
		}
		seen[ax] = true
		out[ax] = 1
	}
	return out, nil
}

func inferReduction(mean bool) func(c *primChecker) (*ir.RankedTensorType, error) {
	return func(c *primChecker) (*ir.RankedTensorType, error) {
		check := c.numeric
		if mean {
			check = c.float
		}
		if err := check(0); err != nil {
			return nil, err
		}
		s, err := c.reduced(c.in[0].Shape, c.i64s("axes"))
		if err != nil {
			return nil, err
		}
		return c.tensor(s, c.in[0].Elem), nil
	}
}

func inferSoftmax(c *primChecker) (*ir.RankedTensorType, error) {
	if err := c.float(0); err != nil {
		return nil, err
	}
	if _, err := c.axis("axis", c.i64("axis"), len(c.in[0].Shape), true); err != nil {
		return nil, err
	}
	return c.in[0], nil
}

func inferMatMul(c *primChecker) (*ir.RankedTensorType, error) {
	if err := c.float(0); err != nil {
		return nil, err
	}
	if err := c.sameElem(0, 1); err != nil {
		return nil, err
	}
	a, b := c.in[0].Shape, c.in[1].Shape
	if len(a) < 2 || len(b) < 2 {
		return nil, c.errorf("operands have shapes %s and %s, expected rank ≥ 2", shapeText(a), shapeText(b))
	}
	m, k, k2, n := a[len(a)-2], a[len(a)-1], b[len(b)-2], b[len(b)-1]
	if k != k2 {
		return nil, c.errorf("operand #1 has %d rows, but operand #0 has %d columns", k2, k)
	}
	batch, ok := BroadcastShapes(a[:len(a)-2], b[:len(b)-2])
	if !ok {
		return nil, c.errorf("batch dims %s and %s do not broadcast", shapeText(a[:len(a)-2]), shapeText(b[:len(b)-2]))
	}
	return c.tensor(append(batch, m, n), c.in[0].Elem), nil
}

func numElements(s []int64) int64 {
	n := int64(1)
	for _, d := range s {
		n *= d
	}
	return n
}

func (c *primChecker) declared() (*ir.RankedTensorType, error) {
	if c.result == nil {
		return nil, c.errorf("needs a result type")
	}
	return c.result, nil
}

func inferReshape(c *primChecker) (*ir.RankedTensorType, error) {
	r, err := c.declared()
	if err != nil {
		return nil, err
	}
	if r.Elem != c.in[0].Elem {
		return nil, c.errorf("result element type %s differs from the operand's %s", r.Elem, c.in[0].Elem)
	}
	if numElements(r.Shape) != numElements(c.in[0].Shape) {
		return nil, c.errorf("result shape %s has %d elements, the operand %s has %d",
			shapeText(r.Shape), numElements(r.Shape), shapeText(c.in[0].Shape), numElements(c.in[0].Shape))
	}
	return r, nil
}

func inferBroadcast(c *primChecker) (*ir.RankedTensorType, error) {
	r, err := c.declared()
	if err != nil {
		return nil, err
	}
	if r.Elem != c.in[0].Elem {
		return nil, c.errorf("result element type %s differs from the operand's %s", r.Elem, c.in[0].Elem)
	}
	s, ok := BroadcastShapes(c.in[0].Shape, r.Shape)
	if !ok || len(s) != len(r.Shape) || shapeText(s) != shapeText(r.Shape) {
		return nil, c.errorf("operand shape %s does not broadcast to %s", shapeText(c.in[0].Shape), shapeText(r.Shape))
	}
	return r, nil
}

func inferTranspose(c *primChecker) (*ir.RankedTensorType, error) {
	s := append([]int64(nil), c.in[0].Shape...)
	a, err := c.axis("dimension", c.i64("dimension"), len(s), false)
	if err != nil {
		return nil, err
	}
	b, err := c.axis("with_dimension", c.i64("with_dimension"), len(s), false)
	if err != nil {
		return nil, err
	}
	s[a], s[b] = s[b], s[a]
	return c.tensor(s, c.in[0].Elem), nil
}

func inferPermute(c *primChecker) (*ir.RankedTensorType, error) {
	in := c.in[0].Shape
	p := c.i64s("permutation")
	if len(p) != len(in) {
		return nil, c.errorf("permutation has %d entries for rank %d", len(p), len(in))
	}
	seen := make([]bool, len(in))
	out := make([]int64, len(in))
	for i, a := range p {
		if a < 0 || a >= int64(len(in)) || seen[a] {
			return nil, c.errorf("permutation %v is not a permutation of 0 to %d", p, len(in)-1)
		}
		seen[a] = true
		out[i] = in[a]
	}
	return c.tensor(out, c.in[0].Elem), nil
}

func inferSlice(c *primChecker) (*ir.RankedTensorType, error) {
	s := append([]int64(nil), c.in[0].Shape...)
	ax, err := c.axis("dimension", c.i64("dimension"), len(s), false)
	if err != nil {
		return nil, err
	}
	start, length := c.i64("start"), c.i64("length")
	d := s[ax]
	if start < -d || start >= d {
		return nil, c.errorf("start %d is out of range for dimension %d of size %d", start, ax, d)
	}
	if start < 0 {
		start += d
	}
	if length < 1 || start+length > d {
		return nil, c.errorf("length %d from %d leaves dimension %d of size %d", length, start, ax, d)
	}
	s[ax] = length
	return c.tensor(s, c.in[0].Elem), nil
}

// StridedSliceBounds returns, for one axis of size d, the first index and
// the count of MPSGraph's strided slice from start to end every stride
// (stride ≥ 1): negative start and end count from the end, then both are
// clamped to [0, d].
func StridedSliceBounds(d, start, end, stride int64) (first, count int64) {
	norm := func(x int64) int64 {
		if x < 0 {
			x += d
		}
		return min(max(x, 0), d)
	}
	s, e := norm(start), norm(end)
	if e <= s {
		return s, 0
	}
	return s, (e - s + stride - 1) / stride
}

func inferStridedSlice(c *primChecker) (*ir.RankedTensorType, error) {
	in := c.in[0].Shape
	starts, ends, strides := c.i64s("starts"), c.i64s("ends"), c.i64s("strides")
	if len(starts) != len(in) || len(ends) != len(in) || len(strides) != len(in) {
		return nil, c.errorf("starts, ends and strides need %d entries each (the rank), got %d, %d and %d",
			len(in), len(starts), len(ends), len(strides))
	}
	out := make([]int64, len(in))
	for i, d := range in {
		if strides[i] < 1 {
			return nil, c.errorf("stride %d of axis %d is not ≥ 1 (negative strides are not used here)", strides[i], i)
		}
		_, out[i] = StridedSliceBounds(d, starts[i], ends[i], strides[i])
		if out[i] == 0 {
			return nil, c.errorf("axis %d of size %d keeps no element from %d to %d", i, d, starts[i], ends[i])
		}
	}
	return c.tensor(out, c.in[0].Elem), nil
}

func inferConcat(c *primChecker) (*ir.RankedTensorType, error) {
	first := c.in[0].Shape
	ax, err := c.axis("dimension", c.i64("dimension"), len(first), true)
	if err != nil {
		return nil, err
	}
	out := append([]int64(nil), first...)
	for i := 1; i < len(c.in); i++ {
		if err := c.sameElem(0, i); err != nil {
			return nil, err
		}
		s := c.in[i].Shape
		if len(s) != len(first) {
			return nil, c.errorf("operand #%d has rank %d, operand #0 has rank %d", i, len(s), len(first))
		}
		for j := range s {
			if j != ax && s[j] != first[j] {
				return nil, c.errorf("operand #%d has shape %s, which differs from %s outside dimension %d", i, shapeText(s), shapeText(first), ax)
			}
		}
		out[ax] += s[ax]
	}
	return c.tensor(out, c.in[0].Elem), nil
}

func inferGather(c *primChecker) (*ir.RankedTensorType, error) {
	upd, idx := c.in[0].Shape, c.in[1].Shape
	if it, ok := c.in[1].Elem.(*ir.IntegerType); !ok || it.Width != 32 {
		return nil, c.errorf("operand #1 (the indices) has element type %s, expected i32", c.in[1].Elem)
	}
	if b := c.i64("batch_dimensions"); b != 0 {
		return nil, c.errorf("batch_dimensions %d is not supported (only 0)", b)
	}
	ax, err := c.axis("axis", c.i64("axis"), len(upd), false)
	if err != nil {
		return nil, err
	}
	out := append(append(append([]int64(nil), upd[:ax]...), idx...), upd[ax+1:]...)
	return c.tensor(out, c.in[0].Elem), nil
}

func inferCast(c *primChecker) (*ir.RankedTensorType, error) {
	r, err := c.declared()
	if err != nil {
		return nil, err
	}
	if shapeText(r.Shape) != shapeText(c.in[0].Shape) {
		return nil, c.errorf("result shape %s differs from the operand's %s", shapeText(r.Shape), shapeText(c.in[0].Shape))
	}
	return r, nil
}

func inferSDPA(c *primChecker) (*ir.RankedTensorType, error) {
	for i := range 3 {
		if len(c.in[i].Shape) != 4 {
			return nil, c.errorf("operand #%d has shape %s, expected rank 4 [B, H, S, D]", i, shapeText(c.in[i].Shape))
		}
		if err := c.float(i); err != nil {
			return nil, err
		}
	}
	idx := []int{0, 1, 2}
	if len(c.in) == 4 {
		idx = append(idx, 3)
	}
	if err := c.sameElem(idx...); err != nil {
		return nil, err
	}
	q, k, v := c.in[0].Shape, c.in[1].Shape, c.in[2].Shape
	if k[0] != q[0] || k[1] != q[1] || k[3] != q[3] {
		return nil, c.errorf("k has shape %s, expected [%d, %d, Sk, %d] for q %s", shapeText(k), q[0], q[1], q[3], shapeText(q))
	}
	if v[0] != q[0] || v[1] != q[1] || v[2] != k[2] {
		return nil, c.errorf("v has shape %s, expected [%d, %d, %d, Dv]", shapeText(v), q[0], q[1], k[2])
	}
	if _, ok := c.attrs("scale").(*ir.FloatAttr); !ok {
		return nil, c.errorf("needs a scale")
	}
	if len(c.in) == 4 {
		scores := []int64{q[0], q[1], q[2], k[2]}
		if s, ok := BroadcastShapes(c.in[3].Shape, scores); !ok || shapeText(s) != shapeText(scores) {
			return nil, c.errorf("mask has shape %s, which does not broadcast to the scores %s", shapeText(c.in[3].Shape), shapeText(scores))
		}
	}
	return c.tensor([]int64{q[0], q[1], q[2], v[3]}, c.in[0].Elem), nil
}
