package importer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rlx-compiler/rlx/dialect/builtin"
	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/decode"
	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/tensor"
	"github.com/rlx-compiler/rlx/runtime/weights"
)

// builder builds @decode op by op. Like the models package's builders it
// reads as straight-line code: a failure panics with an importError that
// build turns back into an error.
type builder struct {
	ctx  *ir.Context
	b    *ir.Builder
	mod  *ir.Operation
	fn   fn.Func
	loc  ir.Location
	f32  ir.Type
	i32  ir.Type
	s    *spec
	n    naming
	src  *weights.Source
	args []string // argument names, in order
	outs []output
	// params maps a weight name to its graph.param (one op per weight).
	params map[string]*ir.Value
	// bound lists the weights the module binds, in order of first use.
	bound []string
	// cols caches x [1, in] reshaped to [in, 1] for the projections of x.
	cols map[*ir.Value]*ir.Value
	// qTemp is Llama 4's temperature tuning at this position, [1]: the
	// NoPE layers' q × this (nil: none).
	qTemp *ir.Value
}

type output struct {
	name string
	v    *ir.Value
}

type importError struct{ err error }

func (g *builder) fail(format string, args ...any) {
	panic(importError{fmt.Errorf(format, args...)})
}

// build builds the module for s with tensors from src.
func build(ctx *ir.Context, s *spec, n naming, src *weights.Source) (m *ir.Operation, bound []string, err error) {
	n.kinds = s.layerTypes
	g := &builder{ctx: ctx, s: s, n: n, src: src, f32: ctx.F32(), i32: ctx.I32(), params: map[string]*ir.Value{}, cols: map[*ir.Value]*ir.Value{}}
	g.loc = ctx.UnknownLoc()
	g.mod = builtin.NewModule(ctx, g.loc)
	g.b = ir.NewBuilder(ctx)
	g.b.SetInsertionPointToEnd(builtin.Body(g.mod))
	g.fn = fn.NewFunc(g.b, g.loc, "decode", ctx.FunctionType(nil, nil))
	g.b.SetInsertionPointToEnd(g.fn.Body())
	defer func() {
		if r := recover(); r != nil {
			ie, ok := r.(importError)
			if !ok {
				panic(r)
			}
			m, bound, err = nil, nil, ie.err
		}
	}()
	if s.experts > 0 && !s.oss {
		// Fused experts as published ([E, in, out]: Qwen3-VL-MoE's, Llama
		// 4's) or as transformers 5 writes them ([E, out, in]), told
		// apart by the tensors (gpt-oss's experts read their own way).
		s.expertsInOut = publishedExperts(s, n, src)
	}
	g.model()
	g.finish()
	if err := ir.Verify(g.mod); err != nil {
		return nil, nil, fmt.Errorf("%s: the built module does not verify: %w", s.arch, err)
	}
	return g.mod, g.bound, nil
}

// at locates the ops built next ("l3.attn"), which diagnostics and
// --mlir-print-debuginfo show.
func (g *builder) at(name string) { g.loc = g.ctx.NameLoc(name, g.ctx.UnknownLoc()) }

func (g *builder) finish() {
	vals := make([]*ir.Value, len(g.outs))
	for i, o := range g.outs {
		vals[i] = o.v
	}
	g.b.CreateOp(fn.ReturnName, g.loc, vals, nil)
	var ins, outs []ir.Type
	var inAttrs, outAttrs []ir.Attribute
	for i, name := range g.args {
		ins = append(ins, g.fn.Body().Argument(i).Type())
		inAttrs = append(inAttrs, g.nameDict(name))
	}
	for _, o := range g.outs {
		outs = append(outs, o.v.Type())
		outAttrs = append(outAttrs, g.nameDict(o.name))
	}
	op := g.fn.Op
	op.SetAttr(g.ctx, "function_type", g.ctx.TypeAttr(g.ctx.FunctionType(ins, outs)))
	op.SetAttr(g.ctx, "arg_attrs", g.ctx.ArrayAttr(inAttrs))
	op.SetAttr(g.ctx, "res_attrs", g.ctx.ArrayAttr(outAttrs))
	op.SetAttr(g.ctx, decode.MaxTokensAttr, g.ctx.IntegerAttr(g.ctx.I64(), int64(g.s.maxTokens)))
}

func (g *builder) nameDict(name string) ir.Attribute {
	return g.ctx.Dict([]ir.NamedAttr{{Name: decode.NameAttr, Value: g.ctx.StringAttr(name)}})
}

// input adds a function argument.
func (g *builder) input(name string, shape []int64, elem ir.Type) *ir.Value {
	g.args = append(g.args, name)
	return g.fn.Body().AddArgument(g.ctx.TensorType(shape, elem), g.loc)
}

// output adds a function result.
func (g *builder) output(name string, v *ir.Value) { g.outs = append(g.outs, output{name, v}) }

// has reports whether the checkpoint holds tensor name.
func (g *builder) has(name string) bool {
	_, ok := g.src.Info(name)
	return ok
}

// info returns the checkpoint's tensor name, or fails naming it.
func (g *builder) info(name string) weights.Info {
	i, ok := g.src.Info(name)
	if !ok {
		g.fail("%s: missing tensor %q (%s needs it)", g.src.Path, name, g.s.arch)
	}
	return i
}

// sameSqueezed reports whether two shapes agree once their size-1 dims are
// dropped: [C, 1, K] (conv1d in transformers) against [C, K] (llama.cpp).
func sameSqueezed(a, b []int) bool {
	sq := func(s []int) []int {
		return slices.DeleteFunc(slices.Clone(s), func(d int) bool { return d == 1 })
	}
	return slices.Equal(sq(a), sq(b))
}

func int64s(s []int) []int64 {
	out := make([]int64, len(s))
	for i, d := range s {
		out[i] = int64(d)
	}
	return out
}

// param returns the graph.param of a float tensor, in the file's element
// type and shape, after checking that shape against want (size-1 dims
// aside). A quantised tensor is refused here: only linear reads those.
func (g *builder) param(name string, want ...int) (*ir.Value, weights.Info) {
	i := g.info(name)
	if !sameSqueezed(i.Shape, want) {
		g.fail("%s: tensor %q is %s, expected shape %v", i.File, name, i, want)
	}
	if i.DType != tensor.F32 && i.DType != tensor.F16 && i.DType != tensor.BF16 {
		g.fail("%s: tensor %q is %s; rlx reads it as F32, F16 or BF16", i.File, name, i)
	}
	return g.paramOf(name, i.Shape, g.elem(i.DType)), i
}

// paramOf returns the one graph.param of name, creating it on first use.
// A weight is read as one type only: the interpreter binds it by name.
func (g *builder) paramOf(name string, shape []int, elem ir.Type) *ir.Value {
	t := g.ctx.TensorType(int64s(shape), elem)
	if v, ok := g.params[name]; ok {
		if v.Type() != t {
			panic(fmt.Sprintf("importer: weight %q read as %v and as %v", name, v.Type(), t))
		}
		return v
	}
	op, err := graph.Create(g.b, g.loc, graph.ParamName, nil, []ir.Type{t}, ir.NamedAttr{Name: "name", Value: g.ctx.StringAttr(name)})
	if err != nil {
		g.fail("%v", err)
	}
	g.params[name] = op.Result(0)
	g.bound = append(g.bound, name)
	return op.Result(0)
}

func (g *builder) elem(dt tensor.DType) ir.Type {
	switch dt {
	case tensor.F16:
		return g.ctx.FloatType("f16")
	case tensor.BF16:
		return g.ctx.FloatType("bf16")
	}
	return g.f32
}

// weight returns a float tensor as f32 of shape want (cast and reshaped
// as needed).
func (g *builder) weight(name string, want ...int) *ir.Value {
	p, _ := g.param(name, want...)
	if elemOf(p) != g.f32 {
		p = g.cast(p, g.f32)
	}
	if !slices.Equal(shapeInts(p), want) {
		p = g.reshape(p, want...)
	}
	return p
}

// linear applies the projection name ([out, in] as transformers and
// llama.cpp store it) to x [1, in]: W·xᵀ for a float weight (a bf16 or
// f16 weight multiplies an f32 x directly), graph.dequant_matmul for a
// quantised one, and for a GPTQ module in desc_act's order the
// dequant_matmul of its ordered blocks on x's columns gathered in that
// order (weights.Ordered).
func (g *builder) linear(x *ir.Value, name string, out, in int) *ir.Value {
	i := g.info(name)
	if !sameSqueezed(i.Shape, []int{out, in}) {
		g.fail("%s: tensor %q is %s, expected shape [%d, %d]", i.File, name, i, out, in)
	}
	if o, ok := g.src.Info(name + weights.Ordered); ok && o.Alt == name && sameSqueezed(o.Shape, []int{out, in}) {
		// A GPTQ module in desc_act's order: x's columns in the blocks'
		// order, then the blocks (weights.Ordered).
		order := g.paramOf(name+weights.Order, []int{in}, g.i32)
		return g.dequantMatMul(g.gather(x, order, 1), g.quantParam(name+weights.Ordered, o), g.readAs(o.Quant), out, in)
	}
	if i.Quant.Valid() {
		return g.dequantMatMul(x, g.quantParam(name, i), g.readAs(i.Quant), out, in)
	}
	w, _ := g.param(name, out, in)
	if !slices.Equal(shapeInts(w), []int{out, in}) {
		w = g.reshape(w, out, in)
	}
	col, ok := g.cols[x]
	if !ok {
		col = g.reshape(x, in, 1)
		g.cols[x] = col
	}
	return g.reshape(g.matmul(w, col), 1, out)
}

// readAs is the format a graph.dequant_matmul reads weights stored as f
// in: q6_k as q6_k_c16 under Options.Q6KColumns (the weights binder
// rearranges the blocks at load), every other format as stored.
func (g *builder) readAs(f gguf.Format) gguf.Format {
	if f == gguf.Q6_K && g.s.q6Columns {
		return gguf.Q6_KC16
	}
	return f
}

// quantParam is a quantised tensor's raw blocks as a ui8 param.
func (g *builder) quantParam(name string, i weights.Info) *ir.Value {
	rows := 1
	for _, d := range i.Shape[:len(i.Shape)-1] {
		rows *= d
	}
	k := i.Shape[len(i.Shape)-1]
	if k%i.Quant.BlockSize() != 0 {
		g.fail("%s: tensor %q is %s; its rows are not whole %v blocks", i.File, name, i, i.Quant)
	}
	return g.paramOf(name, []int{rows * (k / i.Quant.BlockSize()) * i.Quant.BlockBytes()}, g.ctx.IntegerType(8, ir.Unsigned))
}

// dequantMatMul reads w, an [out, in] weight's blocks, in format f.
func (g *builder) dequantMatMul(x, w *ir.Value, f gguf.Format, out, in int) *ir.Value {
	return g.op(graph.DequantMatMulName, []ir.NamedAttr{
		g.strAttr("format", f.String()), g.intAttr("n", int64(out)), g.intAttr("k", int64(in)),
	}, x, w)
}

// Ops.

func (g *builder) create(name string, operands []*ir.Value, results []ir.Type, attrs ...ir.NamedAttr) *ir.Operation {
	op, err := graph.Create(g.b, g.loc, name, operands, results, attrs...)
	if err != nil {
		panic(fmt.Sprintf("importer: %s: %v", g.s.arch, err)) // a bug: the spec was checked
	}
	return op
}

func (g *builder) op(name string, attrs []ir.NamedAttr, operands ...*ir.Value) *ir.Value {
	return g.create(name, operands, nil, attrs...).Result(0)
}

func (g *builder) strAttr(name, v string) ir.NamedAttr {
	return ir.NamedAttr{Name: name, Value: g.ctx.StringAttr(v)}
}

func (g *builder) intAttr(name string, v int64) ir.NamedAttr {
	return ir.NamedAttr{Name: name, Value: g.ctx.IntegerAttr(g.ctx.I64(), v)}
}

func (g *builder) floatAttr(name string, v float64) ir.NamedAttr {
	return ir.NamedAttr{Name: name, Value: g.ctx.FloatAttr(g.ctx.F32(), v)}
}

func (g *builder) unary(name string, x *ir.Value) *ir.Value { return g.op(name, nil, x) }
func (g *builder) add(a, b *ir.Value) *ir.Value             { return g.op(graph.AddName, nil, a, b) }
func (g *builder) mul(a, b *ir.Value) *ir.Value             { return g.op(graph.MulName, nil, a, b) }
func (g *builder) div(a, b *ir.Value) *ir.Value             { return g.op(graph.DivName, nil, a, b) }
func (g *builder) matmul(a, b *ir.Value) *ir.Value          { return g.op(graph.MatMulName, nil, a, b) }
func (g *builder) silu(x *ir.Value) *ir.Value               { return g.unary(graph.SiluName, x) }
func (g *builder) sigmoid(x *ir.Value) *ir.Value            { return g.unary(graph.SigmoidName, x) }

func (g *builder) cast(x *ir.Value, elem ir.Type) *ir.Value {
	return g.create(graph.CastName, []*ir.Value{x}, []ir.Type{g.ctx.TensorType(shapeOf(x), elem)}).Result(0)
}

func (g *builder) reshape(x *ir.Value, shape ...int) *ir.Value {
	return g.create(graph.ReshapeName, []*ir.Value{x}, []ir.Type{g.ctx.TensorType(int64s(shape), elemOf(x))}).Result(0)
}

func (g *builder) broadcast(x *ir.Value, shape ...int) *ir.Value {
	return g.create(graph.BroadcastName, []*ir.Value{x}, []ir.Type{g.ctx.TensorType(int64s(shape), elemOf(x))}).Result(0)
}

func (g *builder) transpose(x *ir.Value, perm ...int64) *ir.Value {
	return g.op(graph.TransposeName, []ir.NamedAttr{{Name: "permutation", Value: g.ctx.DenseI64Array(perm)}}, x)
}

func (g *builder) slice(x *ir.Value, axis, start, length int) *ir.Value {
	return g.op(graph.SliceName, []ir.NamedAttr{g.intAttr("axis", int64(axis)), g.intAttr("start", int64(start)), g.intAttr("length", int64(length))}, x)
}

func (g *builder) concat(axis int, xs ...*ir.Value) *ir.Value {
	return g.op(graph.ConcatName, []ir.NamedAttr{g.intAttr("axis", int64(axis))}, xs...)
}

func (g *builder) gather(table, idx *ir.Value, axis int) *ir.Value {
	return g.op(graph.GatherName, []ir.NamedAttr{g.intAttr("axis", int64(axis))}, table, idx)
}

func (g *builder) sum(x *ir.Value, keep bool, axes ...int64) *ir.Value {
	attrs := []ir.NamedAttr{g.strAttr("kind", string(graph.ReduceSum)), {Name: "axes", Value: g.ctx.DenseI64Array(axes)}}
	if keep {
		attrs = append(attrs, ir.NamedAttr{Name: "keep_dims", Value: g.ctx.BoolAttr(true)})
	}
	return g.op(graph.ReduceName, attrs, x)
}

func (g *builder) cmp(pred graph.CmpPredicate, a, b *ir.Value) *ir.Value {
	return g.op(graph.CmpName, []ir.NamedAttr{g.strAttr("predicate", string(pred))}, a, b)
}

func (g *builder) sel(c, a, b *ir.Value) *ir.Value { return g.op(graph.SelectName, nil, c, a, b) }

func (g *builder) rmsNorm(x, gamma *ir.Value) *ir.Value { return g.rmsNormEps(x, gamma, g.s.eps) }

// rmsNormEps is rmsNorm with its own epsilon.
func (g *builder) rmsNormEps(x, gamma *ir.Value, eps float64) *ir.Value {
	return g.op(graph.RMSNormName, []ir.NamedAttr{g.floatAttr("epsilon", eps)}, x, gamma)
}

// hiddenNorm is the norm of a hidden state x [1, hidden] by the weight
// name: an RMSNorm, or a LayerNorm (Cohere's with no bias, StarCoder2's
// with one; Nemotron's LayerNorm1P scales by 1 + w).
func (g *builder) hiddenNorm(x *ir.Value, name string) *ir.Value {
	d := g.s.hidden
	if g.s.layerNorm {
		beta := g.broadcast(g.scalar(0), d)
		if g.s.normBias {
			beta = g.weight(strings.TrimSuffix(name, ".weight")+".bias", d)
		}
		return g.op(graph.LayerNormName, []ir.NamedAttr{g.floatAttr("epsilon", g.s.eps)}, x, g.norm(name, d), beta)
	}
	return g.rmsNorm(x, g.norm(name, d))
}

func (g *builder) rope(x, cos, sin *ir.Value) *ir.Value {
	return g.op(graph.RopeName, []ir.NamedAttr{
		g.intAttr("head_dim", int64(g.s.headDim)), g.intAttr("rotary_dim", int64(g.s.rotaryDim)), g.strAttr("style", string(g.s.ropeStyle)),
	}, x, cos, sin)
}

func (g *builder) constF32(shape []int, vals ...float64) *ir.Value {
	t := g.ctx.TensorType(int64s(shape), g.f32)
	return g.create(graph.ConstantName, nil, nil, ir.NamedAttr{Name: "value", Value: g.ctx.DenseFloats(t, vals)}).Result(0)
}

func (g *builder) constI32(shape []int, vals ...int64) *ir.Value {
	t := g.ctx.TensorType(int64s(shape), g.i32)
	return g.create(graph.ConstantName, nil, nil, ir.NamedAttr{Name: "value", Value: g.ctx.DenseInts(t, vals)}).Result(0)
}

// scalar is a one-element f32 constant that element-wise ops broadcast.
func (g *builder) scalar(v float64) *ir.Value { return g.constF32([]int{1}, v) }

func shapeOf(v *ir.Value) []int64 { return v.Type().(*ir.RankedTensorType).Shape }
func elemOf(v *ir.Value) ir.Type  { return v.Type().(*ir.RankedTensorType).Elem }

func shapeInts(v *ir.Value) []int {
	s := shapeOf(v)
	out := make([]int, len(s))
	for i, d := range s {
		out[i] = int(d)
	}
	return out
}
