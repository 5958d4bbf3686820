package lowertomps

import (
	"fmt"

	"github.com/rlx-compiler/rlx/dialect/mps"
	"github.com/rlx-compiler/rlx/ir"
)

// builder creates primitives before the graph op being lowered, at its
// location. The lowering only builds primitives whose operands it has
// checked, so a primitive that does not verify is a bug in the lowering:
// the builder panics, and Lower turns the panic into an error located at
// the graph op.
type builder struct {
	b   *ir.Builder
	ctx *ir.Context
	loc ir.Location
}

// lowerBug is the panic value of a primitive that does not verify.
type lowerBug struct{ err error }

func (l *builder) prim(name string, operands []*ir.Value, result ir.Type, attrs ...ir.NamedAttr) *ir.Value {
	v, err := mps.Build(l.b, l.loc, name, operands, result, attrs...)
	if err != nil {
		panic(lowerBug{err})
	}
	return v
}

func (l *builder) i64(name string, v int64) ir.NamedAttr {
	return ir.NamedAttr{Name: name, Value: l.ctx.IntegerAttr(l.ctx.I64(), v)}
}

func (l *builder) i64s(name string, v []int64) ir.NamedAttr {
	return ir.NamedAttr{Name: name, Value: l.ctx.DenseI64Array(v)}
}

func (l *builder) unary(name string, x *ir.Value) *ir.Value { return l.prim(name, []*ir.Value{x}, nil) }

func (l *builder) binary(name string, a, b *ir.Value) *ir.Value {
	return l.prim(name, []*ir.Value{a, b}, nil)
}

func (l *builder) add(a, b *ir.Value) *ir.Value { return l.binary(mps.AddName, a, b) }
func (l *builder) sub(a, b *ir.Value) *ir.Value { return l.binary(mps.SubName, a, b) }
func (l *builder) mul(a, b *ir.Value) *ir.Value { return l.binary(mps.MulName, a, b) }
func (l *builder) div(a, b *ir.Value) *ir.Value { return l.binary(mps.DivName, a, b) }

// scalar returns a rank-0 constant of element type elem: it broadcasts
// against any shape.
func (l *builder) scalar(elem ir.Type, v float64) *ir.Value {
	t := l.ctx.TensorType(nil, elem)
	var attr ir.Attribute
	if ir.IsFloat(elem) {
		attr = l.ctx.DenseFloats(t, []float64{v})
	} else {
		attr = l.ctx.DenseInts(t, []int64{int64(v)})
	}
	return l.prim(mps.ConstantName, nil, nil, ir.NamedAttr{Name: "value", Value: attr})
}

// constant returns a constant of the given elements.
func (l *builder) constant(a ir.Attribute) *ir.Value {
	return l.prim(mps.ConstantName, nil, nil, ir.NamedAttr{Name: "value", Value: a})
}

func (l *builder) reshape(x *ir.Value, shape []int64) *ir.Value {
	return l.prim(mps.ReshapeName, []*ir.Value{x}, l.ctx.TensorType(shape, elemOf(x)))
}

func (l *builder) broadcast(x *ir.Value, shape []int64) *ir.Value {
	return l.prim(mps.BroadcastName, []*ir.Value{x}, l.ctx.TensorType(shape, elemOf(x)))
}

func (l *builder) permute(x *ir.Value, perm []int64) *ir.Value {
	return l.prim(mps.PermuteName, []*ir.Value{x}, nil, l.i64s("permutation", perm))
}

func (l *builder) slice(x *ir.Value, dim, start, length int64) *ir.Value {
	return l.prim(mps.SliceName, []*ir.Value{x}, nil, l.i64("dimension", dim), l.i64("start", start), l.i64("length", length))
}

func (l *builder) concat(dim int64, xs ...*ir.Value) *ir.Value {
	return l.prim(mps.ConcatName, xs, nil, l.i64("dimension", dim))
}

func (l *builder) reduceSum(x *ir.Value, axes ...int64) *ir.Value {
	return l.prim(mps.ReduceSumName, []*ir.Value{x}, nil, l.i64s("axes", axes))
}

// cast converts x to element type elem; it returns x when x already has it.
func (l *builder) cast(x *ir.Value, elem ir.Type) *ir.Value {
	if elemOf(x) == elem {
		return x
	}
	return l.prim(mps.CastName, []*ir.Value{x}, l.ctx.TensorType(shapeOf(x), elem))
}

// f32 casts a float value to f32. The decompositions compute in f32 and
// round once at the end, as the graph dialect's kernels do for f16 and
// bf16 results.
func (l *builder) f32(x *ir.Value) *ir.Value { return l.cast(x, l.ctx.F32()) }

func elemOf(v *ir.Value) ir.Type { return v.Type().(*ir.RankedTensorType).Elem }

func shapeOf(v *ir.Value) []int64 { return v.Type().(*ir.RankedTensorType).Shape }

func rankOf(v *ir.Value) int { return len(shapeOf(v)) }

// catch turns a lowerBug panic into an error.
func catch(err *error) {
	if r := recover(); r != nil {
		bug, ok := r.(lowerBug)
		if !ok {
			panic(r)
		}
		*err = fmt.Errorf("built an invalid primitive (a bug in lower-to-mps): %v", bug.err)
	}
}
