package graph

import (
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/rlx-compiler/rlx/ir"
)

// ElementTypeOK reports whether t is one of the dialect's element types:
// f32, f16, bf16, i32, i64, i1, i8 or ui8.
func ElementTypeOK(t ir.Type) bool {
	switch t := t.(type) {
	case *ir.FloatType:
		switch t.Name() {
		case "f32", "f16", "bf16":
			return true
		}
	case *ir.IntegerType:
		switch t.Width {
		case 1, 32, 64:
			return t.IsSignless()
		case 8:
			return t.Signedness != ir.Signed
		}
	}
	return false
}

const elemTypesText = "f32, f16, bf16, i32, i64, i1, i8 or ui8"

// checker holds one op while its verifier or shape inference runs. The
// operand types have been checked to be ranked tensors of the dialect's
// element types, and the attributes to match their specs.
type checker struct {
	op  *ir.Operation
	ctx *ir.Context
	in  []*ir.RankedTensorType
	// out holds the result types that are valid ranked tensors (nil
	// entries for the others); only checked when verifying.
	out []*ir.RankedTensorType
	// Backing arrays for in and out, so the common op needs one
	// allocation.
	inBuf  [6]*ir.RankedTensorType
	outBuf [3]*ir.RankedTensorType
	resBuf [1]inferred
}

// checkers reuses checkers across ops: verification runs once per op of
// graphs with millions of ops, and a checker is too big to be free.
var checkers = sync.Pool{New: func() any { return new(checker) }}

// check verifies op against its row of the op table and returns the
// inferred result types. With results false, the op's result types are
// not checked (only read by ops whose result type is an input: reshape,
// broadcast, cast and the leaves).
func check(info *opInfo, op *ir.Operation, results bool) ([]inferred, error) {
	if err := checkCounts(info, op); err != nil {
		return nil, err
	}
	c := checkers.Get().(*checker)
	*c = checker{op: op, ctx: op.Context()}
	defer checkers.Put(c)
	c.in = sized(c.inBuf[:], op.NumOperands())
	c.out = sized(c.outBuf[:], op.NumResults())
	for i := range c.in {
		t, ok := op.Operand(i).Type().(*ir.RankedTensorType)
		if !ok || !ElementTypeOK(t.Elem) {
			return nil, c.errorf("operand #%d must be a ranked tensor of %s values, but got '%s'", i, elemTypesText, op.Operand(i).Type())
		}
		if _, ok := ir.ShapeElements(t.Shape); !ok {
			return nil, c.errorf("operand #%d type '%s' has more elements than fit in 64 bits", i, t)
		}
		c.in[i] = t
	}
	for i := range c.out {
		t, ok := op.Result(i).Type().(*ir.RankedTensorType)
		if ok && ElementTypeOK(t.Elem) {
			if _, fits := ir.ShapeElements(t.Shape); !fits {
				return nil, c.errorf("result #%d type '%s' has more elements than fit in 64 bits", i, t)
			}
			c.out[i] = t
		} else if results {
			return nil, c.errorf("result #%d must be a ranked tensor of %s values, but got '%s'", i, elemTypesText, op.Result(i).Type())
		}
	}
	for _, s := range info.attrs {
		if err := s.check(op, op.Attr(s.Name)); err != nil {
			return nil, err
		}
	}
	inferred, err := info.infer(c)
	for i := 0; err == nil && i < len(inferred); i++ {
		// An inferred type must be one the verifier accepts: a gather
		// of big enough tensors, say, would overflow.
		if _, fits := ir.ShapeElements(inferred[i].shape); !fits {
			err = c.errorf("result #%d would be %v of %s, more elements than fit in 64 bits", i, inferred[i].shape, inferred[i].elem)
		}
	}
	if err != nil || !results {
		// The inferred types may live in c, which goes back to the pool.
		return slices.Clone(inferred), err
	}
	for i, want := range inferred {
		got := c.out[i]
		label := "result"
		if len(inferred) > 1 {
			label = "result #" + strconv.Itoa(i)
		}
		if !shapesCompatible(got.Shape, want.shape) {
			return nil, c.errorf("%s shape %s does not match inferred %s", label, FormatShape(got.Shape), FormatShape(want.shape))
		}
		if got.Elem != want.elem {
			return nil, c.errorf("%s element type %s does not match inferred %s", label, got.Elem, want.elem)
		}
	}
	return inferred, nil
}

// sized returns buf[:n], or a new slice when buf is too short.
func sized(buf []*ir.RankedTensorType, n int) []*ir.RankedTensorType {
	if n <= len(buf) {
		return buf[:n]
	}
	return make([]*ir.RankedTensorType, n)
}

// VerifyCounts checks op's operand and result counts against the op
// table, in the verifier's words, without the rest of the verifier: the
// passes and the target layer ask it before reading operands by index.
// An op that is not a graph op passes.
func VerifyCounts(op *ir.Operation) error {
	info := lookup(op.Name())
	if info == nil {
		return nil
	}
	return checkCounts(info, op)
}

func checkCounts(info *opInfo, op *ir.Operation) error {
	n := op.NumOperands()
	if n < info.minIn || (info.maxIn >= 0 && n > info.maxIn) {
		var want string
		switch {
		case info.maxIn < 0:
			want = "at least " + plural(info.minIn, "operand")
		case info.minIn == info.maxIn:
			want = plural(info.minIn, "operand")
		case info.maxIn == info.minIn+1:
			want = fmt.Sprintf("%d or %d operands", info.minIn, info.maxIn)
		default:
			want = fmt.Sprintf("%d to %d operands", info.minIn, info.maxIn)
		}
		return ir.OpError(op, "expected %s, but found %d", want, n)
	}
	if op.NumResults() != info.numOut {
		return ir.OpError(op, "expected %s, but found %d", plural(info.numOut, "result"), op.NumResults())
	}
	return nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// InferResultTypes returns the result types op must have given its
// operands and attributes, with `?` where the operands leave a dim
// unknown. It checks everything the verifier checks except the op's
// current result types, so builders can create an op with placeholder
// results and fix them with Value.SetType (Create does this). graph.param,
// graph.reshape and graph.broadcast take their result type as an input and
// return it, graph.cast takes its element type from it, and graph.constant
// returns the type of its value.
func InferResultTypes(op *ir.Operation) ([]ir.Type, error) {
	info := lookup(op.Name())
	if info == nil {
		return nil, ir.OpError(op, "is not a graph op")
	}
	ts, err := check(info, op, false)
	if err != nil {
		return nil, err
	}
	out := make([]ir.Type, len(ts))
	for i, t := range ts {
		out[i] = op.Context().TensorType(t.shape, t.elem)
	}
	return out, nil
}

func (c *checker) errorf(format string, args ...any) error {
	return ir.OpError(c.op, format, args...)
}

func (c *checker) shape(i int) []int64 { return c.in[i].Shape }
func (c *checker) elem(i int) ir.Type  { return c.in[i].Elem }
func (c *checker) rank(i int) int      { return len(c.in[i].Shape) }

// inferred is an inferred result type. It is not uniqued in the context:
// the verifier only compares it with the op's result type.
type inferred struct {
	shape []int64
	elem  ir.Type
}

func (c *checker) tensor(shape []int64, elem ir.Type) inferred { return inferred{shape, elem} }

// like returns operand i's type.
func (c *checker) like(i int) inferred { return inferred{c.in[i].Shape, c.in[i].Elem} }

func typeOf(t *ir.RankedTensorType) inferred { return inferred{t.Shape, t.Elem} }

// one wraps a single inferred type.
func (c *checker) one(t inferred) ([]inferred, error) {
	c.resBuf[0] = t
	return c.resBuf[:1], nil
}

// result returns result i's type, which ops whose result type is an input
// need.
func (c *checker) result(i int) (*ir.RankedTensorType, error) {
	if t := c.out[i]; t != nil {
		return t, nil
	}
	return nil, c.errorf("result #%d must be a ranked tensor of %s values, but got '%s'", i, elemTypesText, c.op.Result(i).Type())
}

// match checks operand i's shape against want, where `?` in want leaves a
// dim unconstrained, and returns the shape with every dim as precise as
// either side knows it. The error names the operand and the expected
// shape (the operand's own dims where want leaves them open); why, when
// given, says where the expectation comes from.
func (c *checker) match(i int, want []int64, why ...string) ([]int64, error) {
	got := c.shape(i)
	if shapesCompatible(got, want) {
		out := make([]int64, len(got))
		for j := range got {
			out[j] = mergeDim(got[j], want[j])
		}
		return out, nil
	}
	exp := want
	if len(got) == len(want) {
		exp = make([]int64, len(want))
		for j := range want {
			exp[j] = mergeDim(want[j], got[j])
		}
	}
	msg := fmt.Sprintf("operand #%d has shape %s, expected %s", i, FormatShape(got), FormatShape(exp))
	if len(why) > 0 {
		msg += " (" + why[0] + ")"
	}
	return nil, c.errorf("%s", msg)
}

// rankIn checks that operand i's rank is one of ranks.
func (c *checker) rankIn(i int, ranks ...int) error {
	r := c.rank(i)
	for _, want := range ranks {
		if r == want {
			return nil
		}
	}
	want := "rank " + strconv.Itoa(ranks[0])
	for k, x := range ranks[1:] {
		if k == len(ranks)-2 {
			want += " or " + strconv.Itoa(x)
		} else {
			want += ", " + strconv.Itoa(x)
		}
	}
	return c.errorf("operand #%d has shape %s, expected %s", i, FormatShape(c.shape(i)), want)
}

// rankAtLeast checks that operand i has rank at least n.
func (c *checker) rankAtLeast(i, n int) error {
	if c.rank(i) >= n {
		return nil
	}
	return c.errorf("operand #%d has shape %s, expected rank at least %d", i, FormatShape(c.shape(i)), n)
}

// isFloat reports whether t is one of the float element types.
func isFloat(t ir.Type) bool { return ir.IsFloat(t) }

// floats checks that the given operands have float element types.
func (c *checker) floats(idx ...int) error {
	for _, i := range idx {
		if !isFloat(c.elem(i)) {
			return c.errorf("operand #%d must have a float element type, got %s", i, c.elem(i))
		}
	}
	return nil
}

// numeric checks that the given operands are not i1.
func (c *checker) numeric(idx ...int) error {
	for _, i := range idx {
		if ir.IsInteger(c.elem(i), 1) {
			return c.errorf("operand #%d must have a numeric element type, got i1", i)
		}
	}
	return nil
}

// sameElem checks that the given operands share operand first's element
// type.
func (c *checker) sameElem(first int, idx ...int) error {
	for _, i := range idx {
		if c.elem(i) != c.elem(first) {
			return c.errorf("operand #%d has element type %s, expected %s (the element type of operand #%d)", i, c.elem(i), c.elem(first), first)
		}
	}
	return nil
}

// elemIs checks that operand i has element type want.
func (c *checker) elemIs(i int, want ir.Type) error {
	if c.elem(i) != want {
		return c.errorf("operand #%d must have element type %s, got %s", i, want, c.elem(i))
	}
	return nil
}

// broadcast returns the broadcast of the given operands' shapes.
func (c *checker) broadcast(idx ...int) ([]int64, error) {
	acc := c.shape(idx[0])
	for _, i := range idx[1:] {
		r, ok := BroadcastShapes(acc, c.shape(i))
		if !ok {
			return nil, c.errorf("operand #%d has shape %s, expected a shape that broadcasts with %s", i, FormatShape(c.shape(i)), FormatShape(acc))
		}
		acc = r
	}
	return acc, nil
}

// axis reads the i64 attribute name as an axis of a rank-r tensor.
func (c *checker) axis(name string, r int) (int, error) {
	a := attrInt(c.op, name, 0)
	ax, ok := NormalizeAxis(a, r)
	if !ok {
		return 0, c.errorf("attribute '%s' (%d) is out of range for operand #0 of rank %d", name, a, r)
	}
	return ax, nil
}

// Attribute readers over validated attributes, shared with the typed views.

func attrInt(op *ir.Operation, name string, def int64) int64 {
	if a, ok := op.Attr(name).(*ir.IntegerAttr); ok {
		return a.Value
	}
	return def
}

func attrFloat(op *ir.Operation, name string) (float64, bool) {
	if a, ok := op.Attr(name).(*ir.FloatAttr); ok {
		return a.Float(), true
	}
	return 0, false
}

func attrString(op *ir.Operation, name, def string) string {
	if a, ok := op.Attr(name).(*ir.StringAttr); ok {
		return a.Value
	}
	return def
}

func attrBool(op *ir.Operation, name string) bool {
	a, ok := op.Attr(name).(*ir.IntegerAttr)
	return ok && a.Value != 0
}

func attrInts(op *ir.Operation, name string) []int64 {
	if a, ok := op.Attr(name).(*ir.DenseArrayAttr); ok {
		return append([]int64(nil), a.Ints...)
	}
	return nil
}
