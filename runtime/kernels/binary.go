package kernels

import (
	"math"

	"github.com/rlx-compiler/rlx/runtime/kernels/internal/fmath"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// BinaryOp names an element-wise binary op by its graph-dialect name without
// the "graph." prefix.
type BinaryOp string

// The binary ops.
const (
	Add BinaryOp = "add"
	Sub BinaryOp = "sub"
	Mul BinaryOp = "mul"
	Div BinaryOp = "div"
	Max BinaryOp = "max"
	Min BinaryOp = "min"
	Pow BinaryOp = "pow"
)

// BinaryFunc returns the float32 function that op applies, or nil for an
// unknown op. add, sub, mul and div are single IEEE float32 operations. max
// and min return NaN if either operand is NaN and order −0 below +0 (IEEE
// 754-2019 maximum/minimum, like torch.maximum). pow evaluates x**y in
// float64 (internal/fmath, IEEE special cases) and rounds once.
func BinaryFunc(op BinaryOp) func(a, b float32) float32 {
	switch op {
	case Add:
		return func(a, b float32) float32 { return a + b }
	case Sub:
		return func(a, b float32) float32 { return a - b }
	case Mul:
		return func(a, b float32) float32 { return a * b }
	case Div:
		return func(a, b float32) float32 { return a / b }
	case Max:
		return maximum
	case Min:
		return minimum
	case Pow:
		return func(a, b float32) float32 { return float32(fmath.Pow(float64(a), float64(b))) }
	}
	return nil
}

func maximum(a, b float32) float32 {
	switch {
	case a != a || b != b:
		return float32(math.NaN())
	case a > b:
		return a
	case b > a:
		return b
	case math.Signbit(float64(a)):
		return b
	}
	return a
}

func minimum(a, b float32) float32 {
	switch {
	case a != a || b != b:
		return float32(math.NaN())
	case a < b:
		return a
	case b < a:
		return b
	case math.Signbit(float64(a)):
		return a
	}
	return b
}

// Binary applies op element-wise to a and b broadcast together (NumPy rules)
// and returns a tensor of element type out. Floating-point operands (any mix
// of f32, f16 and bf16) compute in float32 and round to the floating-point
// result type. Integer operands compute exactly in int64 and wrap to the
// integer result type; div truncates toward zero and a zero divisor is an
// error, and pow needs non-negative exponents.
func Binary(op BinaryOp, a, b *tensor.Tensor, out tensor.DType) (*tensor.Tensor, error) {
	name := "graph." + string(op)
	f := BinaryFunc(op)
	if f == nil {
		return nil, errorf("graph.binary", "unknown binary op %q", op)
	}
	shape, float, err := elementwiseOperands(name, a, b)
	if err != nil {
		return nil, err
	}
	if err := requireResultClass(name, out, float); err != nil {
		return nil, err
	}
	o, err := broadcastWalker(name, shape, a, b)
	if err != nil {
		return nil, err
	}
	n := tensor.NumElements(shape)
	if !float {
		return binaryInt(name, op, a, b, out, shape, o)
	}
	r := tensor.Zeros(out, shape...)
	av, bv, dst := a.Floats(), b.Floats(), r.Floats()
	for i := range n {
		dst[i] = f(av[o.Offset(0)], bv[o.Offset(1)])
		o.Next()
	}
	tensor.RoundSlice(out, dst)
	return r, nil
}

// elementwiseOperands checks that the operands are all floating-point or all
// integer and returns their broadcast shape.
func elementwiseOperands(op string, operands ...*tensor.Tensor) (shape []int, float bool, err error) {
	shapes := make([][]int, len(operands))
	for k, t := range operands {
		if t == nil {
			return nil, false, errorf(op, "missing operand #%d", k)
		}
		shapes[k] = t.Shape()
		if k > 0 && t.DType().IsFloat() != operands[0].DType().IsFloat() {
			return nil, false, errorf(op, "operands have types %s and %s; mixing integer and floating-point operands needs a graph.cast", operands[0].Type(), t.Type())
		}
	}
	shape, err = tensor.BroadcastShapes(shapes...)
	if err != nil {
		return nil, false, errorf(op, "%v", err)
	}
	return shape, operands[0].DType().IsFloat(), nil
}

func binaryInt(name string, op BinaryOp, a, b *tensor.Tensor, out tensor.DType, shape []int, o *tensor.Odometer) (*tensor.Tensor, error) {
	av, bv := intValues(a), intValues(b)
	vals := make([]int64, tensor.NumElements(shape))
	for i := range vals {
		x, y := av[o.Offset(0)], bv[o.Offset(1)]
		o.Next()
		switch op {
		case Add:
			vals[i] = x + y
		case Sub:
			vals[i] = x - y
		case Mul:
			vals[i] = x * y
		case Div:
			if y == 0 {
				return nil, errorf(name, "integer division by zero at element %d", i)
			}
			vals[i] = x / y
		case Max:
			vals[i] = max(x, y)
		case Min:
			vals[i] = min(x, y)
		case Pow:
			if y < 0 {
				return nil, errorf(name, "integer power with negative exponent %d at element %d", y, i)
			}
			vals[i] = ipow(x, y)
		}
	}
	return newIntResult(out, shape, vals), nil
}

// ipow returns x**y for y ≥ 0 by repeated squaring, wrapping in int64.
func ipow(x, y int64) int64 {
	r := int64(1)
	for y > 0 {
		if y&1 == 1 {
			r *= x
		}
		x *= x
		y >>= 1
	}
	return r
}

// Predicate names a graph.cmp predicate.
type Predicate string

// The comparison predicates.
const (
	Eq Predicate = "eq"
	Ne Predicate = "ne"
	Lt Predicate = "lt"
	Le Predicate = "le"
	Gt Predicate = "gt"
	Ge Predicate = "ge"
)

// CmpAttrs are the attributes of graph.cmp.
type CmpAttrs struct {
	Predicate Predicate
}

// Cmp compares a and b element-wise (broadcasting) and returns an i1 tensor
// of 0s and 1s. Floating-point comparisons follow IEEE 754: every predicate
// is false when an operand is NaN, except ne, which is true. Integers compare
// exactly (also i64 values beyond 2^53).
func Cmp(a, b *tensor.Tensor, attrs CmpAttrs) (*tensor.Tensor, error) {
	const name = "graph.cmp"
	shape, float, err := elementwiseOperands(name, a, b)
	if err != nil {
		return nil, err
	}
	holds, ok := map[Predicate]func(order int) bool{
		Eq: func(o int) bool { return o == 0 },
		Ne: func(o int) bool { return o != 0 },
		Lt: func(o int) bool { return o == -1 },
		Le: func(o int) bool { return o == -1 || o == 0 },
		Gt: func(o int) bool { return o == 1 },
		Ge: func(o int) bool { return o == 1 || o == 0 },
	}[attrs.Predicate]
	if !ok {
		return nil, errorf(name, "unknown predicate %q (want eq, ne, lt, le, gt or ge)", attrs.Predicate)
	}
	o, err := broadcastWalker(name, shape, a, b)
	if err != nil {
		return nil, err
	}
	r := tensor.Zeros(tensor.I1, shape...)
	dst := r.Ints()
	var av, bv []int64
	if !float {
		av, bv = intValues(a), intValues(b)
	}
	for i := range dst {
		var order int
		if float {
			order = compareFloats(a.Floats()[o.Offset(0)], b.Floats()[o.Offset(1)])
		} else {
			order = compareInts(av[o.Offset(0)], bv[o.Offset(1)])
		}
		if holds(order) {
			dst[i] = 1
		}
		o.Next()
	}
	return r, nil
}

// compareFloats returns −1, 0 or 1, or 2 when x and y are unordered (a NaN).
func compareFloats(x, y float32) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	case x == y:
		return 0
	}
	return 2
}

// compareInts returns −1, 0 or 1.
func compareInts(x, y int64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// Select returns c ? a : b element-wise, with all three broadcast together.
// c may have any element type (non-zero, including NaN, selects a); a and b
// must both be floating-point or both integer, and out must match them.
func Select(c, a, b *tensor.Tensor, out tensor.DType) (*tensor.Tensor, error) {
	const name = "graph.select"
	if c == nil {
		return nil, errorf(name, "missing condition operand")
	}
	shape, float, err := elementwiseOperands(name, a, b)
	if err != nil {
		return nil, err
	}
	if shape, err = tensor.BroadcastShapes(c.Shape(), shape); err != nil {
		return nil, errorf(name, "%v", err)
	}
	if err := requireResultClass(name, out, float); err != nil {
		return nil, err
	}
	o, err := broadcastWalker(name, shape, c, a, b)
	if err != nil {
		return nil, err
	}
	n := tensor.NumElements(shape)
	if float {
		r := tensor.Zeros(out, shape...)
		dst := r.Floats()
		for i := range n {
			if truthy(c, o.Offset(0)) {
				dst[i] = a.Floats()[o.Offset(1)]
			} else {
				dst[i] = b.Floats()[o.Offset(2)]
			}
			o.Next()
		}
		tensor.RoundSlice(out, dst)
		return r, nil
	}
	av, bv := intValues(a), intValues(b)
	vals := make([]int64, n)
	for i := range vals {
		if truthy(c, o.Offset(0)) {
			vals[i] = av[o.Offset(1)]
		} else {
			vals[i] = bv[o.Offset(2)]
		}
		o.Next()
	}
	return newIntResult(out, shape, vals), nil
}
