package models

import (
	"fmt"
	"math"

	"github.com/rlx-compiler/rlx/dialect/builtin"
	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// builder builds one decode function op by op. The model builders read as
// straight-line code: an op that fails to build (which a validated config
// never causes) panics with a buildError, and build turns it back into an
// error.
type builder struct {
	ctx  *ir.Context
	b    *ir.Builder
	mod  *ir.Operation
	fn   fn.Func
	loc  ir.Location
	f32  ir.Type
	i32  ir.Type
	proj projection

	model *Model
	seen  map[string]bool
	outs  []*ir.Value
}

type buildError struct{ err error }

// build runs body with a fresh builder for the function @decode and returns
// the verified model.
func build(ctx *ir.Context, name string, proj projection, body func(g *builder)) (m *Model, err error) {
	g := &builder{ctx: ctx, f32: ctx.F32(), i32: ctx.I32(), proj: proj, seen: map[string]bool{}}
	g.loc = ctx.UnknownLoc()
	g.mod = builtin.NewModule(ctx, g.loc)
	g.b = ir.NewBuilder(ctx)
	g.b.SetInsertionPointToEnd(builtin.Body(g.mod))
	g.fn = fn.NewFunc(g.b, g.loc, FuncName, ctx.FunctionType(nil, nil))
	g.b.SetInsertionPointToEnd(g.fn.Body())
	g.model = &Model{Name: name, Module: g.mod}
	defer func() {
		if r := recover(); r != nil {
			be, ok := r.(buildError)
			if !ok {
				panic(r)
			}
			m, err = nil, be.err
		}
	}()
	body(g)
	g.finish()
	if err := ir.Verify(g.mod); err != nil {
		return nil, fmt.Errorf("%s: built IR does not verify: %w", name, err)
	}
	return g.model, nil
}

func (g *builder) fail(format string, args ...any) {
	panic(buildError{fmt.Errorf(g.model.Name+": "+format, args...)})
}

// at sets the location of the ops built next to a name such as "l3.attn",
// which shows in diagnostics and with --mlir-print-debuginfo.
func (g *builder) at(name string) { g.loc = g.ctx.NameLoc(name, g.ctx.UnknownLoc()) }

// finish adds func.return and writes the function type and the names of
// the arguments and results (as rlx.name argument and result attributes).
func (g *builder) finish() {
	g.b.CreateOp(fn.ReturnName, g.loc, g.outs, nil)
	var ins, outs []ir.Type
	var inAttrs, outAttrs []ir.Attribute
	for _, p := range g.model.Inputs {
		ins = append(ins, p.Type)
		inAttrs = append(inAttrs, g.nameDict(p.Name))
	}
	for i, p := range g.model.Outputs {
		outs = append(outs, g.outs[i].Type())
		outAttrs = append(outAttrs, g.nameDict(p.Name))
	}
	op := g.fn.Op
	op.SetAttr(g.ctx, "function_type", g.ctx.TypeAttr(g.ctx.FunctionType(ins, outs)))
	if len(inAttrs) > 0 {
		op.SetAttr(g.ctx, "arg_attrs", g.ctx.ArrayAttr(inAttrs))
	}
	if len(outAttrs) > 0 {
		op.SetAttr(g.ctx, "res_attrs", g.ctx.ArrayAttr(outAttrs))
	}
}

func (g *builder) nameDict(name string) ir.Attribute {
	return g.ctx.Dict([]ir.NamedAttr{{Name: NameAttr, Value: g.ctx.StringAttr(name)}})
}

func (g *builder) claim(kind, name string) {
	if g.seen[kind+" "+name] {
		g.fail("two %ss named %q", kind, name)
	}
	g.seen[kind+" "+name] = true
}

// input adds a function argument.
func (g *builder) input(name string, shape []int64, elem ir.Type, gen InputGen) *ir.Value {
	g.claim("input", name)
	t := g.ctx.TensorType(shape, elem)
	g.model.Inputs = append(g.model.Inputs, Port{Name: name, Type: t, Gen: gen})
	return g.fn.Body().AddArgument(t, g.loc)
}

// output adds a function result.
func (g *builder) output(name string, v *ir.Value) {
	g.claim("output", name)
	g.model.Outputs = append(g.model.Outputs, Port{Name: name, Type: v.Type().(*ir.RankedTensorType)})
	g.outs = append(g.outs, v)
}

// outputFirst adds a function result before all others.
func (g *builder) outputFirst(name string, v *ir.Value) {
	g.output(name, v)
	n := len(g.outs) - 1
	g.outs = append([]*ir.Value{g.outs[n]}, g.outs[:n]...)
	g.model.Outputs = append([]Port{g.model.Outputs[n]}, g.model.Outputs[:n]...)
}

// param adds a graph.param with its initialiser.
func (g *builder) param(name string, shape []int64, elem ir.Type, init Init) *ir.Value {
	g.claim("param", name)
	t := g.ctx.TensorType(shape, elem)
	g.model.Params = append(g.model.Params, ParamSpec{Name: name, Type: t, Init: init})
	return g.create(graph.ParamName, nil, []ir.Type{t}, g.strAttr("name", name)).Result(0)
}

// packed adds a graph.param holding an [n, k] weight as GGUF blocks.
func (g *builder) packed(name string, f graph.QuantFormat, n, k int64) *ir.Value {
	g.claim("param", name)
	t := g.ctx.TensorType([]int64{f.PackedBytes(n, k)}, g.ctx.IntegerType(8, ir.Unsigned))
	g.model.Params = append(g.model.Params, ParamSpec{Name: name, Type: t, Init: linearInit(k), Format: f, N: n, K: k})
	return g.create(graph.ParamName, nil, []ir.Type{t}, g.strAttr("name", name)).Result(0)
}

func (g *builder) create(name string, operands []*ir.Value, results []ir.Type, attrs ...ir.NamedAttr) *ir.Operation {
	op, err := graph.Create(g.b, g.loc, name, operands, results, attrs...)
	if err != nil {
		g.fail("%v", err)
	}
	return op
}

// op builds a one-result graph op with an inferred result type.
func (g *builder) op(name string, attrs []ir.NamedAttr, operands ...*ir.Value) *ir.Value {
	return g.create(name, operands, nil, attrs...).Result(0)
}

// Attribute helpers.

func (g *builder) strAttr(name, v string) ir.NamedAttr {
	return ir.NamedAttr{Name: name, Value: g.ctx.StringAttr(v)}
}

func (g *builder) intAttr(name string, v int64) ir.NamedAttr {
	return ir.NamedAttr{Name: name, Value: g.ctx.IntegerAttr(g.ctx.I64(), v)}
}

func (g *builder) floatAttr(name string, v float64) ir.NamedAttr {
	return ir.NamedAttr{Name: name, Value: g.ctx.FloatAttr(g.ctx.F32(), v)}
}

func (g *builder) boolAttr(name string, v bool) ir.NamedAttr {
	return ir.NamedAttr{Name: name, Value: g.ctx.BoolAttr(v)}
}

func (g *builder) intsAttr(name string, v ...int64) ir.NamedAttr {
	return ir.NamedAttr{Name: name, Value: g.ctx.DenseI64Array(v)}
}

// Op helpers, one per graph op the models use.

func (g *builder) unary(name string, x *ir.Value) *ir.Value { return g.op(name, nil, x) }
func (g *builder) add(a, b *ir.Value) *ir.Value             { return g.op(graph.AddName, nil, a, b) }
func (g *builder) sub(a, b *ir.Value) *ir.Value             { return g.op(graph.SubName, nil, a, b) }
func (g *builder) mul(a, b *ir.Value) *ir.Value             { return g.op(graph.MulName, nil, a, b) }
func (g *builder) div(a, b *ir.Value) *ir.Value             { return g.op(graph.DivName, nil, a, b) }
func (g *builder) max(a, b *ir.Value) *ir.Value             { return g.op(graph.MaxName, nil, a, b) }
func (g *builder) min(a, b *ir.Value) *ir.Value             { return g.op(graph.MinName, nil, a, b) }
func (g *builder) pow(a, b *ir.Value) *ir.Value             { return g.op(graph.PowName, nil, a, b) }
func (g *builder) silu(x *ir.Value) *ir.Value               { return g.unary(graph.SiluName, x) }
func (g *builder) sigmoid(x *ir.Value) *ir.Value            { return g.unary(graph.SigmoidName, x) }
func (g *builder) matmul(a, b *ir.Value) *ir.Value          { return g.op(graph.MatMulName, nil, a, b) }

func (g *builder) cmp(pred graph.CmpPredicate, a, b *ir.Value) *ir.Value {
	return g.op(graph.CmpName, []ir.NamedAttr{g.strAttr("predicate", string(pred))}, a, b)
}

func (g *builder) sel(c, a, b *ir.Value) *ir.Value { return g.op(graph.SelectName, nil, c, a, b) }

func (g *builder) cast(x *ir.Value, elem ir.Type) *ir.Value {
	return g.create(graph.CastName, []*ir.Value{x}, []ir.Type{g.ctx.TensorType(shapeOf(x), elem)}).Result(0)
}

func (g *builder) reshape(x *ir.Value, shape ...int64) *ir.Value {
	return g.create(graph.ReshapeName, []*ir.Value{x}, []ir.Type{g.ctx.TensorType(shape, elemOf(x))}).Result(0)
}

func (g *builder) broadcast(x *ir.Value, shape ...int64) *ir.Value {
	return g.create(graph.BroadcastName, []*ir.Value{x}, []ir.Type{g.ctx.TensorType(shape, elemOf(x))}).Result(0)
}

func (g *builder) transpose(x *ir.Value, perm ...int64) *ir.Value {
	return g.op(graph.TransposeName, []ir.NamedAttr{g.intsAttr("permutation", perm...)}, x)
}

func (g *builder) slice(x *ir.Value, axis, start, length int64) *ir.Value {
	return g.op(graph.SliceName, []ir.NamedAttr{g.intAttr("axis", axis), g.intAttr("start", start), g.intAttr("length", length)}, x)
}

func (g *builder) concat(axis int64, xs ...*ir.Value) *ir.Value {
	return g.op(graph.ConcatName, []ir.NamedAttr{g.intAttr("axis", axis)}, xs...)
}

func (g *builder) gather(table, idx *ir.Value, axis int64) *ir.Value {
	return g.op(graph.GatherName, []ir.NamedAttr{g.intAttr("axis", axis)}, table, idx)
}

func (g *builder) reduce(x *ir.Value, kind graph.ReduceKind, keep bool, axes ...int64) *ir.Value {
	attrs := []ir.NamedAttr{g.strAttr("kind", string(kind)), g.intsAttr("axes", axes...)}
	if keep {
		attrs = append(attrs, g.boolAttr("keep_dims", true))
	}
	return g.op(graph.ReduceName, attrs, x)
}

func (g *builder) softmax(x *ir.Value, axis int64) *ir.Value {
	return g.op(graph.SoftmaxName, []ir.NamedAttr{g.intAttr("axis", axis)}, x)
}

func (g *builder) rmsNorm(x, gamma *ir.Value, eps float64) *ir.Value {
	return g.op(graph.RMSNormName, []ir.NamedAttr{g.floatAttr("epsilon", eps)}, x, gamma)
}

func (g *builder) layerNorm(x, gamma, beta *ir.Value, eps float64) *ir.Value {
	return g.op(graph.LayerNormName, []ir.NamedAttr{g.floatAttr("epsilon", eps)}, x, gamma, beta)
}

func (g *builder) rope(x, cos, sin *ir.Value, headDim, rotaryDim int64, style graph.RopeStyle) *ir.Value {
	return g.op(graph.RopeName, []ir.NamedAttr{g.intAttr("head_dim", headDim), g.intAttr("rotary_dim", rotaryDim), g.strAttr("style", string(style))}, x, cos, sin)
}

// attention builds graph.attention; mask is nil unless kind takes an
// operand.
func (g *builder) attention(q, k, v, mask *ir.Value, kind graph.MaskKind) *ir.Value {
	operands := []*ir.Value{q, k, v}
	if mask != nil {
		operands = append(operands, mask)
	}
	var attrs []ir.NamedAttr
	if kind != graph.MaskNone {
		attrs = append(attrs, g.strAttr("mask", string(kind)))
	}
	return g.op(graph.AttentionName, attrs, operands...)
}

// gdn builds graph.gated_delta_net with an initial state and returns the
// output and the new state.
func (g *builder) gdn(q, k, v, gate, beta, state *ir.Value, perChannel bool) (out, newState *ir.Value) {
	var attrs []ir.NamedAttr
	if perChannel {
		attrs = append(attrs, g.boolAttr("gate_per_channel", true))
	}
	op := g.create(graph.GatedDeltaNetName, []*ir.Value{q, k, v, gate, beta, state}, nil, attrs...)
	return op.Result(0), op.Result(1)
}

// constF32 builds a graph.constant of f32 values.
func (g *builder) constF32(shape []int64, vals ...float64) *ir.Value {
	t := g.ctx.TensorType(shape, g.f32)
	return g.create(graph.ConstantName, nil, nil, ir.NamedAttr{Name: "value", Value: g.ctx.DenseFloats(t, vals)}).Result(0)
}

// constI32 builds a graph.constant of i32 values.
func (g *builder) constI32(shape []int64, vals ...int64) *ir.Value {
	t := g.ctx.TensorType(shape, g.i32)
	return g.create(graph.ConstantName, nil, nil, ir.NamedAttr{Name: "value", Value: g.ctx.DenseInts(t, vals)}).Result(0)
}

// scalar is a one-element f32 constant, broadcast by the element-wise ops.
func (g *builder) scalar(v float64) *ir.Value { return g.constF32([]int64{1}, v) }

// norm adds a normalisation weight γ of size d, initialised near 1.
func (g *builder) norm(name string, d int64) *ir.Value {
	return g.param(name, []int64{d}, g.f32, Init{Lo: 0.9, Hi: 1.1})
}

// linear applies the projection `name` from the last dim of x to out
// features, in the model's projection kind: a dense f32 matmul with an
// [in, out] weight, a half-precision matmul between casts, or a
// dequant_matmul with an [out, in] GGUF weight. Inputs of rank above 2 are
// flattened to rows and reshaped back.
func (g *builder) linear(x *ir.Value, name string, out int64) *ir.Value {
	return g.linearAs(g.proj, x, name, out)
}

// dense is linear with a plain f32 weight, for the small projections that
// quantised checkpoints keep in full precision.
func (g *builder) dense(x *ir.Value, name string, out int64) *ir.Value {
	return g.linearAs(projection{}, x, name, out)
}

func (g *builder) linearAs(p projection, x *ir.Value, name string, out int64) *ir.Value {
	shape := shapeOf(x)
	in := shape[len(shape)-1]
	rows := int64(1)
	for _, d := range shape[:len(shape)-1] {
		rows *= d
	}
	x2 := x
	if len(shape) != 2 {
		x2 = g.reshape(x, rows, in)
	}
	var y *ir.Value
	switch {
	case p.quant != "":
		y = g.op(graph.DequantMatMulName, []ir.NamedAttr{g.strAttr("format", string(p.quant)), g.intAttr("n", out), g.intAttr("k", in)},
			x2, g.packed(name, p.quant, out, in))
	case p.half != "":
		ht := g.ctx.FloatType(p.half)
		w := g.param(name, []int64{in, out}, ht, linearInit(in))
		y = g.cast(g.matmul(g.cast(x2, ht), w), g.f32)
	default:
		y = g.matmul(x2, g.param(name, []int64{in, out}, g.f32, linearInit(in)))
	}
	if len(shape) != 2 {
		y = g.reshape(y, append(append([]int64(nil), shape[:len(shape)-1]...), out)...)
	}
	return y
}

// l2normRsqrt normalises the last axis as x·rsqrt(Σx² + ε) (Qwen3-Next's
// l2norm).
func (g *builder) l2normRsqrt(x *ir.Value, eps float64) *ir.Value {
	ss := g.reduce(g.mul(x, x), graph.ReduceSum, true, -1)
	return g.mul(x, g.unary(graph.RsqrtName, g.add(ss, g.scalar(eps))))
}

// l2normDiv normalises the last axis as x / max(‖x‖₂, ε) (PyTorch's
// F.normalize, as the Kimi/FLA kernels write it).
func (g *builder) l2normDiv(x *ir.Value, eps float64) *ir.Value {
	ss := g.reduce(g.pow(x, g.scalar(2)), graph.ReduceSum, true, -1)
	return g.div(x, g.max(g.unary(graph.SqrtName, ss), g.scalar(eps)))
}

// causalConv is the decode step of a depthwise causal conv1d with kernel K
// over C channels: the window is the K−1 previous inputs (the conv state,
// a function argument) followed by the new one; the output is
// silu(Σ_t window[t]·w[t]) and the new state is the last K−1 window rows.
func (g *builder) causalConv(x *ir.Value, prefix string, kernel int64) *ir.Value {
	c := shapeOf(x)[1]
	state := g.input(prefix+"conv_state", []int64{1, kernel - 1, c}, g.f32, uniformInput(-1, 1))
	window := g.concat(1, state, g.reshape(x, 1, 1, c))
	g.output(prefix+"conv_state", g.slice(window, 1, 1, kernel-1))
	w := g.param(prefix+"conv_w", []int64{kernel, c}, g.f32, linearInit(kernel))
	return g.silu(g.reduce(g.mul(window, w), graph.ReduceSum, false, 1))
}

// swiglu is the SwiGLU feed-forward block with its pre-norm and residual.
func (g *builder) swiglu(x *ir.Value, prefix string, ffn int64, eps float64) *ir.Value {
	e := shapeOf(x)[1]
	h := g.rmsNorm(x, g.norm(prefix+"ffn_norm", e), eps)
	gate := g.linear(h, prefix+"ffn_gate", ffn)
	up := g.linear(h, prefix+"ffn_up", ffn)
	return g.add(x, g.linear(g.mul(g.silu(gate), up), prefix+"ffn_down", e))
}

func shapeOf(v *ir.Value) []int64 { return v.Type().(*ir.RankedTensorType).Shape }
func elemOf(v *ir.Value) ir.Type  { return v.Type().(*ir.RankedTensorType).Elem }

// linearInit is the usual uniform ±1/√fanIn initialisation.
func linearInit(fanIn int64) Init {
	s := float32(1 / math.Sqrt(float64(fanIn)))
	return Init{Lo: -s, Hi: s}
}
