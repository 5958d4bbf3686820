package randgraph

import (
	"fmt"
	"math/rand"
	"slices"

	"github.com/rlx-compiler/rlx/dialect/builtin"
	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// Config bounds a random function.
type Config struct {
	// Ops is the number of compute ops to make (leaves not counted).
	Ops int
	// Refusals allows attention, gated_delta_net and lstm, for which the
	// original algorithm (mode=seed) refuses a hybrid plan.
	Refusals bool
	// Plans shapes the function for the original algorithm's hybrid plans:
	// dequant_matmul, the split point that does not refuse a plan, is
	// common, and ops that stay native (no MPS lowering, casts to i64,
	// gathers with i64 indices, strided slices, rank-4 ropes) are rare, so
	// the runs between split points are mostly sub-graphs; without
	// Refusals the plan then has several steps. Plans draws its extra
	// random numbers only when set, so a function without it is the one
	// its seed always gave (and old failure reports still name it).
	Plans bool
	// Routes ends the function with a mixture of experts' router (route):
	// graph.topk of a float value's last axis, whose indices pick rows of
	// a leaf table (the picked rows hybrid-split's sink may move). Its
	// random numbers come from a stream of their own (tail), so the ops
	// before it are the ones the seed gives without it.
	Routes bool
	// Strides ends the function with strided slices of several elements
	// (steps 2 and 3), which the main ops' slices, on dims of at most 4,
	// rarely make; from a stream of its own too.
	Strides bool
	// Wide ends the function with one to three ops on a last axis of 33 to
	// 611 elements (more than a simdgroup's 32 lanes, rarely a multiple of
	// them), or a dequant_matmul of several blocks a row, which the main
	// ops, on dims of at most 4 and one block a row, never make: a
	// kernel's loop over the chunks of a row then takes more than one
	// turn and ends on a partial one. From a stream of its own too.
	Wide bool
	// Formats ends the function with one or two dequant_matmuls in the
	// GGUF formats the main ops do not draw (unitFormats: q2_k, q3_k, q5_k,
	// q4_1, q5_0, q5_1, iq4_nl, iq4_xs, mxfp4), at the shapes that take
	// their kernels' paths: one x row (the GEMV's eight rows a
	// threadgroup), two to eight (its batches) or nine to twelve (the
	// GEMM); one to ten weight rows; one to three blocks a row, or 33 to
	// 70 units of 32 weights (a GEMV row split over several simdgroups);
	// a quarter of them as an MoE block's experts (a table's rows picked
	// by a topk, read in place by the Metal kernels: one x row, and 1 to
	// 32 weight rows, as many as make a matrix a multiple of 16 bytes),
	// half of those in q4_0, q8_0, q4_k or q6_k.
	// From a stream of its own too.
	Formats bool
}

type gen struct {
	ctx   *ir.Context
	rng   *rand.Rand
	b     *ir.Builder
	entry *ir.Block
	pool  []*ir.Value // values ops may use (args, leaves, results)
	cfg   Config
	ops   int
	names int
	f32   ir.Type
}

// Build returns a module with one function @g holding about cfg.Ops
// random compute ops.
func Build(ctx *ir.Context, seed int64, cfg Config) (m *ir.Operation, err error) {
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, fmt.Errorf("randgraph: seed %d: %v", seed, r)
		}
	}()
	g := &gen{ctx: ctx, rng: rand.New(rand.NewSource(seed)), cfg: cfg, f32: ctx.F32()}
	loc := ctx.NameLoc(fmt.Sprintf("seed%d", seed), ctx.UnknownLoc())
	m = ir.NewOperation(ctx, &ir.OperationState{Name: ctx.OpName("builtin.module"), Loc: loc, NumRegions: 1})
	m.Region(0).AppendBlock(&ir.Block{})
	g.b = ir.NewBuilder(ctx)
	g.b.SetInsertionPointToEnd(m.Region(0).First())
	f := fn.NewFunc(g.b, loc, "g", ctx.FunctionType(nil, nil))
	g.entry = f.Body()
	g.b.SetInsertionPointToEnd(g.entry)
	for tries := 0; g.ops < cfg.Ops && tries < cfg.Ops*50; tries++ {
		if err := g.step(); err != nil {
			return nil, err
		}
	}
	if cfg.Routes {
		g.tail(seed*31+7, g.route)
	}
	if cfg.Strides {
		g.tail(seed*37+11, g.strides)
	}
	if cfg.Wide {
		g.tail(seed*41+13, g.wide)
	}
	if cfg.Formats {
		g.tail(seed*43+17, g.formats)
	}
	// Return the values nothing uses, and a few others.
	var rets []*ir.Value
	var rtypes []ir.Type
	for _, v := range g.pool {
		if v.DefiningOp() == nil {
			continue
		}
		if !v.HasUses() || g.rng.Intn(8) == 0 {
			rets = append(rets, v)
			rtypes = append(rtypes, v.Type())
		}
	}
	g.b.CreateOp(fn.ReturnName, loc, rets, nil)
	f.Op.SetAttr(ctx, "function_type", ctx.TypeAttr(ctx.FunctionType(g.entry.ArgumentTypes(), rtypes)))
	if err := ir.Verify(m); err != nil {
		return nil, fmt.Errorf("randgraph: seed %d: %v", seed, err)
	}
	return m, nil
}

func (g *gen) loc() ir.Location { return g.ctx.UnknownLoc() }

func (g *gen) tensor(shape []int64, elem ir.Type) ir.Type { return g.ctx.TensorType(shape, elem) }

func (g *gen) i64(v int64) ir.Attribute { return g.ctx.IntegerAttr(g.ctx.I64(), v) }

// arg adds a function argument of type t.
func (g *gen) arg(t ir.Type) *ir.Value {
	v := g.entry.AddArgument(t, g.loc())
	g.pool = append(g.pool, v)
	return v
}

// leaf makes a param or (for small float tensors) a constant of type t.
func (g *gen) leaf(t ir.Type) *ir.Value {
	rt := t.(*ir.RankedTensorType)
	if _, isFloat := rt.Elem.(*ir.FloatType); isFloat && ir.NumElements(rt) <= 16 && g.rng.Intn(3) == 0 {
		vals := make([]float64, ir.NumElements(rt))
		for i := range vals {
			vals[i] = float64(g.rng.Intn(17)-8) / 4
		}
		return g.create(graph.ConstantName, nil, nil, ir.NamedAttr{Name: "value", Value: g.ctx.DenseFloats(rt, vals)})[0]
	}
	g.names++
	return g.create(graph.ParamName, nil, []ir.Type{t}, ir.NamedAttr{Name: "name", Value: g.ctx.StringAttr(fmt.Sprintf("w%d", g.names))})[0]
}

// fresh returns a new argument or leaf of type t.
func (g *gen) fresh(t ir.Type) *ir.Value {
	if g.rng.Intn(2) == 0 {
		return g.arg(t)
	}
	return g.leaf(t)
}

// create inserts a graph op (inferring result types when results is nil)
// and adds its results to the pool. A failure here is a bug in the
// generator.
func (g *gen) create(name string, operands []*ir.Value, results []ir.Type, attrs ...ir.NamedAttr) []*ir.Value {
	op, err := graph.Create(g.b, g.loc(), name, operands, results, attrs...)
	if err != nil {
		panic(fmt.Sprintf("randgraph: %s: %v", name, err))
	}
	if !graph.IsLeaf(op) {
		g.ops++
	}
	out := op.Results()
	for _, v := range out {
		if !(graph.IsLeaf(op) && g.rng.Intn(3) == 0) {
			g.pool = append(g.pool, v)
		}
	}
	return out
}

// find returns a pool value satisfying ok (preferring recent ones), or nil.
func (g *gen) find(ok func(*ir.RankedTensorType) bool) *ir.Value {
	n := len(g.pool)
	if n == 0 {
		return nil
	}
	start := g.rng.Intn(n)
	for i := 0; i < n; i++ {
		v := g.pool[(start+i)%n]
		if rt, isT := v.Type().(*ir.RankedTensorType); isT && len(rt.Shape) > 0 && ok(rt) {
			return v
		}
	}
	return nil
}

// pick returns a pool value of type t most of the time, else a fresh one.
func (g *gen) pick(t ir.Type) *ir.Value {
	if g.rng.Intn(4) != 0 {
		if v := g.find(func(rt *ir.RankedTensorType) bool { return ir.Type(rt) == t }); v != nil {
			return v
		}
	}
	return g.fresh(t)
}

func isFloat(rt *ir.RankedTensorType) bool {
	_, ok := rt.Elem.(*ir.FloatType)
	return ok
}

// anyFloat returns a float tensor from the pool or a fresh f32 one.
func (g *gen) anyFloat() *ir.Value {
	if g.rng.Intn(5) != 0 {
		if v := g.find(isFloat); v != nil {
			return v
		}
	}
	return g.fresh(g.tensor(g.shape(1+g.rng.Intn(4)), g.f32))
}

func (g *gen) shape(rank int) []int64 {
	s := make([]int64, rank)
	for i := range s {
		s[i] = int64(1 + g.rng.Intn(4))
	}
	return s
}

func shapeOf(v *ir.Value) []int64 { return v.Type().(*ir.RankedTensorType).Shape }

func elemOf(v *ir.Value) ir.Type { return v.Type().(*ir.RankedTensorType).Elem }

// broadcastable returns a shape that broadcasts against s: a suffix of s
// with some dims set to 1.
func (g *gen) broadcastable(s []int64) []int64 {
	k := len(s) - g.rng.Intn(len(s)+1)
	if k == 0 {
		k = 1
	}
	out := append([]int64(nil), s[len(s)-k:]...)
	for i := range out {
		if g.rng.Intn(3) == 0 {
			out[i] = 1
		}
	}
	return out
}

// partner returns a value whose shape broadcasts with x's, of x's element
// type.
func (g *gen) partner(x *ir.Value) *ir.Value {
	xs := shapeOf(x)
	if g.rng.Intn(2) == 0 {
		if v := g.find(func(rt *ir.RankedTensorType) bool {
			if rt.Elem != elemOf(x) {
				return false
			}
			_, ok := graph.BroadcastShapes(rt.Shape, xs)
			return ok
		}); v != nil {
			return v
		}
	}
	return g.fresh(g.tensor(g.broadcastable(xs), elemOf(x)))
}

var unary = []string{
	graph.NegName, graph.AbsName, graph.ExpName, graph.LogName, graph.SqrtName, graph.RsqrtName,
	graph.ReciprocalName, graph.SigmoidName, graph.TanhName, graph.SinName, graph.CosName,
	graph.ReluName, graph.SoftplusName, graph.SiluName, graph.GeluName, graph.GeluTanhName,
}

var binary = []string{
	graph.AddName, graph.SubName, graph.MulName, graph.DivName, graph.MaxName, graph.MinName, graph.PowName,
}

// nativeOnly are the ops of unary and binary without an MPS lowering.
var nativeOnly = map[string]bool{graph.SoftplusName: true, graph.MaxName: true, graph.MinName: true, graph.PowName: true}

// rare reports whether a Plans function should avoid a choice that keeps
// an op native: three times in four. It draws nothing without Plans.
func (g *gen) rare() bool { return g.cfg.Plans && g.rng.Intn(4) != 0 }

// pickOp returns a random name of names, drawn again when rare says so
// for an op without an MPS lowering.
func (g *gen) pickOp(names []string) string {
	name := names[g.rng.Intn(len(names))]
	for nativeOnly[name] && g.rare() {
		name = names[g.rng.Intn(len(names))]
	}
	return name
}

// step makes one random op.
func (g *gen) step() error {
	if g.cfg.Plans && g.rng.Intn(4) == 0 {
		g.dequant()
		return nil
	}
	switch k := g.rng.Intn(100); {
	case k < 22:
		x := g.anyFloat()
		g.create(g.pickOp(unary), []*ir.Value{x}, nil)
	case k < 44:
		x := g.anyFloat()
		g.create(g.pickOp(binary), []*ir.Value{x, g.partner(x)}, nil)
	case k < 50 && g.rare():
		// cmp and select have no MPS lowering.
		return nil
	case k < 47:
		x := g.anyFloat()
		preds := []string{"eq", "ne", "lt", "le", "gt", "ge"}
		g.create(graph.CmpName, []*ir.Value{x, g.partner(x)}, nil,
			ir.NamedAttr{Name: "predicate", Value: g.ctx.StringAttr(preds[g.rng.Intn(len(preds))])})
	case k < 50:
		a := g.anyFloat()
		c := g.find(func(rt *ir.RankedTensorType) bool {
			_, ok := graph.BroadcastShapes(rt.Shape, shapeOf(a))
			return rt.Elem == g.ctx.I1() && ok
		})
		if c == nil {
			c = g.arg(g.tensor(g.broadcastable(shapeOf(a)), g.ctx.I1()))
		}
		cs, _ := graph.BroadcastShapes(shapeOf(c), shapeOf(a))
		g.create(graph.SelectName, []*ir.Value{c, a, g.fresh(g.tensor(g.broadcastable(cs), elemOf(a)))}, nil)
	case k < 54:
		x := g.anyFloat()
		elems := []ir.Type{g.f32, g.ctx.FloatType("f16"), g.ctx.FloatType("bf16"), g.ctx.I32(), g.ctx.I64()}
		elem := elems[g.rng.Intn(len(elems))]
		for elem == g.ctx.I64() && g.rare() {
			elem = elems[g.rng.Intn(len(elems))]
		}
		g.create(graph.CastName, []*ir.Value{x}, []ir.Type{g.tensor(shapeOf(x), elem)})
	case k < 60:
		g.matmul()
	case k < 63:
		x := g.anyFloat()
		s := shapeOf(x)
		d := s[len(s)-1]
		eps := ir.NamedAttr{Name: "epsilon", Value: g.ctx.FloatAttr(g.ctx.F32(), 1e-5)}
		gamma := g.pick(g.tensor([]int64{d}, elemOf(x)))
		if g.rng.Intn(2) == 0 {
			g.create(graph.RMSNormName, []*ir.Value{x, gamma}, nil, eps)
		} else {
			g.create(graph.LayerNormName, []*ir.Value{x, gamma, g.pick(g.tensor([]int64{d}, elemOf(x)))}, nil, eps)
		}
	case k < 65:
		x := g.anyFloat()
		g.create(graph.SoftmaxName, []*ir.Value{x}, nil, ir.NamedAttr{Name: "axis", Value: g.i64(int64(g.rng.Intn(len(shapeOf(x)))) - int64(len(shapeOf(x))*g.rng.Intn(2)))})
	case k < 70:
		g.reduce()
	case k < 88:
		g.shapeOp()
	case k < 91:
		g.rope()
	case k < 94:
		g.dequant()
	default:
		if !g.cfg.Refusals {
			return nil
		}
		switch g.rng.Intn(4) {
		case 0, 1:
			g.attention()
		case 2:
			g.gdn()
		default:
			g.lstm()
		}
	}
	return nil
}

func (g *gen) matmul() {
	a := g.find(func(rt *ir.RankedTensorType) bool { return len(rt.Shape) >= 2 && isFloat(rt) })
	if a == nil || g.rng.Intn(4) == 0 {
		a = g.fresh(g.tensor(g.shape(2+g.rng.Intn(2)), g.f32))
	}
	as := shapeOf(a)
	kdim := as[len(as)-1]
	var bs []int64
	if len(as) > 2 && g.rng.Intn(2) == 0 {
		bs = append(append([]int64(nil), as[:len(as)-2]...), kdim, int64(1+g.rng.Intn(4)))
	} else {
		bs = []int64{kdim, int64(1 + g.rng.Intn(4))}
	}
	b := g.pick(g.tensor(bs, elemOf(a)))
	g.create(graph.MatMulName, []*ir.Value{a, b}, nil)
}

func (g *gen) reduce() {
	x := g.anyFloat()
	if g.rng.Intn(3) == 0 {
		x = g.fresh(g.tensor(g.shape(4), g.f32))
	}
	r := len(shapeOf(x))
	var axes []int64
	for i := 0; i < r; i++ {
		if g.rng.Intn(2) == 0 {
			axes = append(axes, int64(i))
		}
	}
	if len(axes) == 0 {
		axes = []int64{int64(g.rng.Intn(r))}
	}
	kinds := []string{"sum", "mean", "max", "min", "prod"}
	g.create(graph.ReduceName, []*ir.Value{x}, nil,
		ir.NamedAttr{Name: "kind", Value: g.ctx.StringAttr(kinds[g.rng.Intn(len(kinds))])},
		ir.NamedAttr{Name: "axes", Value: g.ctx.DenseI64Array(axes)},
		ir.NamedAttr{Name: "keep_dims", Value: g.ctx.BoolAttr(g.rng.Intn(2) == 0)})
}

func (g *gen) shapeOp() {
	x := g.anyFloat()
	s := shapeOf(x)
	switch g.rng.Intn(6) {
	case 0: // reshape: a random factorisation of the element count
		n := int64(1)
		for _, d := range s {
			n *= d
		}
		var out []int64
		for n > 1 && len(out) < 3 {
			f := divisors(n)[g.rng.Intn(len(divisors(n)))]
			out = append(out, f)
			n /= f
		}
		out = append(out, n)
		g.rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		g.create(graph.ReshapeName, []*ir.Value{x}, []ir.Type{g.tensor(out, elemOf(x))})
	case 1: // broadcast
		out := append([]int64(nil), s...)
		for i := range out {
			if out[i] == 1 {
				out[i] = int64(1 + g.rng.Intn(3))
			}
		}
		if len(out) < 4 && g.rng.Intn(2) == 0 {
			out = append([]int64{2}, out...)
		}
		g.create(graph.BroadcastName, []*ir.Value{x}, []ir.Type{g.tensor(out, elemOf(x))})
	case 2: // transpose
		perm := g.rng.Perm(len(s))
		p := make([]int64, len(perm))
		for i, v := range perm {
			p[i] = int64(v)
		}
		g.create(graph.TransposeName, []*ir.Value{x}, nil, ir.NamedAttr{Name: "permutation", Value: g.ctx.DenseI64Array(p)})
	case 3: // slice, sometimes strided (native)
		axis := g.rng.Intn(len(s))
		step := int64(1)
		if g.rng.Intn(3) == 0 && !g.rare() {
			step = 2
		}
		start := int64(g.rng.Intn(int(s[axis])))
		maxLen := (s[axis]-start-1)/step + 1
		length := int64(1 + g.rng.Intn(int(maxLen)))
		attrs := []ir.NamedAttr{
			{Name: "axis", Value: g.i64(int64(axis))},
			{Name: "start", Value: g.i64(start)},
			{Name: "length", Value: g.i64(length)},
		}
		if step != 1 || g.rng.Intn(4) == 0 {
			attrs = append(attrs, ir.NamedAttr{Name: "step", Value: g.i64(step)})
		}
		g.create(graph.SliceName, []*ir.Value{x}, nil, attrs...)
	case 4: // concat
		axis := g.rng.Intn(len(s))
		ops := []*ir.Value{x}
		for n := g.rng.Intn(3); n >= 0; n-- {
			o := append([]int64(nil), s...)
			o[axis] = int64(1 + g.rng.Intn(3))
			ops = append(ops, g.pick(g.tensor(o, elemOf(x))))
		}
		g.rng.Shuffle(len(ops), func(i, j int) { ops[i], ops[j] = ops[j], ops[i] })
		g.create(graph.ConcatName, ops, nil, ir.NamedAttr{Name: "axis", Value: g.i64(int64(axis))})
	default: // gather with in-range constant indices
		axis := g.rng.Intn(len(s))
		is := g.shape(1 + g.rng.Intn(2))
		n := int64(1)
		for _, d := range is {
			n *= d
		}
		idx := make([]int64, n)
		for i := range idx {
			idx[i] = int64(g.rng.Intn(int(s[axis])))
		}
		et := g.ctx.I32()
		if g.rng.Intn(2) == 0 && !g.rare() {
			et = g.ctx.I64()
		}
		it := g.tensor(is, et)
		c := g.create(graph.ConstantName, nil, nil, ir.NamedAttr{Name: "value", Value: g.ctx.DenseInts(it.(*ir.RankedTensorType), idx)})[0]
		g.create(graph.GatherName, []*ir.Value{x, c}, nil, ir.NamedAttr{Name: "axis", Value: g.i64(int64(axis))})
	}
}

func divisors(n int64) []int64 {
	var out []int64
	for d := int64(1); d <= n; d++ {
		if n%d == 0 {
			out = append(out, d)
		}
	}
	return out
}

func (g *gen) rope() {
	d := int64(2 * (1 + g.rng.Intn(2)))
	r := d
	if d == 4 && g.rng.Intn(2) == 0 {
		r = 2
	}
	b, s, h := int64(1), int64(1+g.rng.Intn(2)), int64(1+g.rng.Intn(2))
	var x *ir.Value
	if g.rng.Intn(2) == 0 || g.rare() { // MPS ropes rank 3 only
		x = g.pick(g.tensor([]int64{b, s, h * d}, g.f32))
	} else {
		x = g.pick(g.tensor([]int64{b, s, h, d}, g.f32))
	}
	cs := g.tensor([]int64{s, r / 2}, g.f32)
	style := []string{"neox", "gptj"}[g.rng.Intn(2)]
	g.create(graph.RopeName, []*ir.Value{x, g.pick(cs), g.pick(cs)}, nil,
		ir.NamedAttr{Name: "head_dim", Value: g.i64(d)},
		ir.NamedAttr{Name: "rotary_dim", Value: g.i64(r)},
		ir.NamedAttr{Name: "style", Value: g.ctx.StringAttr(style)})
}

// packedFormats are the main ops' formats (the wide tail adds q6_k_c16);
// their block sizes come from graph.QuantFormat.Block.
var packedFormats = []graph.QuantFormat{graph.Q4_0, graph.Q8_0, graph.Q4_K, graph.Q6_K}

func (g *gen) dequant() {
	f := packedFormats[g.rng.Intn(len(packedFormats))]
	k, blockBy, _ := f.Block()
	n := int64(1 + g.rng.Intn(3))
	m := int64(1 + g.rng.Intn(2))
	x := g.pick(g.tensor([]int64{m, k}, g.f32))
	w := g.pick(g.tensor([]int64{n * blockBy}, g.ctx.IntegerType(8, ir.Unsigned)))
	g.dequantMatMul(x, w, string(f), n, k)
}

// dequantMatMul makes x · wᵀ of the [n, k] weight w packed in format.
func (g *gen) dequantMatMul(x, w *ir.Value, format string, n, k int64) {
	g.create(graph.DequantMatMulName, []*ir.Value{x, w}, nil,
		ir.NamedAttr{Name: "format", Value: g.ctx.StringAttr(format)},
		ir.NamedAttr{Name: "n", Value: g.i64(n)},
		ir.NamedAttr{Name: "k", Value: g.i64(k)})
}

// slice makes a graph.slice of x, its step attribute only when not 1.
func (g *gen) slice(x *ir.Value, axis, start, length, step int64) *ir.Value {
	attrs := []ir.NamedAttr{
		{Name: "axis", Value: g.i64(axis)},
		{Name: "start", Value: g.i64(start)},
		{Name: "length", Value: g.i64(length)},
	}
	if step != 1 {
		attrs = append(attrs, ir.NamedAttr{Name: "step", Value: g.i64(step)})
	}
	return g.create(graph.SliceName, []*ir.Value{x}, nil, attrs...)[0]
}

// tail runs build on a random stream of its own, seeded with seed, so that
// what the main stream makes is the same with it or without it.
func (g *gen) tail(seed int64, build func()) {
	main := g.rng
	g.rng = rand.New(rand.NewSource(seed))
	build()
	g.rng = main
}

// viewed returns a value of type t: a fresh argument or leaf, sometimes
// behind a reshape (so attention stays leaf-materialised), or a value
// computed from the pool (so it does not).
func (g *gen) viewed(t ir.Type) *ir.Value {
	rt := t.(*ir.RankedTensorType)
	switch g.rng.Intn(4) {
	case 0:
		n := ir.NumElements(rt)
		flat := g.fresh(g.tensor([]int64{1, n}, rt.Elem))
		return g.create(graph.ReshapeName, []*ir.Value{flat}, []ir.Type{t})[0]
	case 1:
		src := g.pick(t)
		return g.create(graph.ExpName, []*ir.Value{src}, nil)[0]
	default:
		return g.pick(t)
	}
}

func (g *gen) attention() {
	b, sq, hkv, d := int64(1), int64(1+g.rng.Intn(3)), int64(1+g.rng.Intn(2)), int64(2+2*g.rng.Intn(2))
	h := hkv * int64(1+g.rng.Intn(2))
	sk := sq
	if g.rng.Intn(3) == 0 {
		sk = sq + int64(g.rng.Intn(3))
	}
	dv := d
	if g.rng.Intn(4) == 0 {
		dv = d + 2
	}
	q := g.viewed(g.tensor([]int64{b, sq, h, d}, g.f32))
	k := g.viewed(g.tensor([]int64{b, sk, hkv, d}, g.f32))
	v := g.viewed(g.tensor([]int64{b, sk, hkv, dv}, g.f32))
	ops := []*ir.Value{q, k, v}
	masks := []string{"none", "causal", "sliding_window", "custom", "bias"}
	mask := masks[g.rng.Intn(len(masks))]
	attrs := []ir.NamedAttr{{Name: "mask", Value: g.ctx.StringAttr(mask)}}
	switch mask {
	case "sliding_window":
		attrs = append(attrs, ir.NamedAttr{Name: "window", Value: g.i64(int64(g.rng.Intn(3)))})
	case "custom":
		vals := make([]float64, b*sk)
		for i := range vals {
			vals[i] = float64(g.rng.Intn(2))
		}
		vals[len(vals)-1] = 1
		mt := g.tensor([]int64{b, sk}, g.f32).(*ir.RankedTensorType)
		ops = append(ops, g.create(graph.ConstantName, nil, nil, ir.NamedAttr{Name: "value", Value: g.ctx.DenseFloats(mt, vals)})[0])
	case "bias":
		ops = append(ops, g.pick(g.tensor([]int64{b, h, sq, sk}, g.f32)))
	}
	if g.rng.Intn(4) == 0 {
		attrs = append(attrs, ir.NamedAttr{Name: "softcap", Value: g.ctx.FloatAttr(g.ctx.F32(), 5)})
	}
	g.create(graph.AttentionName, ops, nil, attrs...)
}

func (g *gen) gdn() {
	b, s, h, n := int64(1), int64(1+g.rng.Intn(2)), int64(1+g.rng.Intn(2)), int64(2+g.rng.Intn(2))
	qt := g.tensor([]int64{b, s, h, n}, g.f32)
	perChannel := g.rng.Intn(2) == 0
	gt := g.tensor([]int64{b, s, h}, g.f32)
	if perChannel {
		gt = qt
	}
	gate := g.create(graph.NegName, []*ir.Value{g.create(graph.SoftplusName, []*ir.Value{g.pick(gt)}, nil)[0]}, nil)[0]
	beta := g.create(graph.SigmoidName, []*ir.Value{g.pick(g.tensor([]int64{b, s, h}, g.f32))}, nil)[0]
	ops := []*ir.Value{g.pick(qt), g.pick(qt), g.pick(qt), gate, beta}
	if g.rng.Intn(2) == 0 {
		ops = append(ops, g.pick(g.tensor([]int64{b, h, n, n}, g.f32)))
	}
	g.create(graph.GatedDeltaNetName, ops, nil, ir.NamedAttr{Name: "gate_per_channel", Value: g.ctx.BoolAttr(perChannel)})
}

func (g *gen) lstm() {
	b, s, in, hid := int64(1), int64(1+g.rng.Intn(2)), int64(1+g.rng.Intn(3)), int64(1+g.rng.Intn(2))
	ops := []*ir.Value{
		g.pick(g.tensor([]int64{b, s, in}, g.f32)),
		g.leaf(g.tensor([]int64{4 * hid, in}, g.f32)),
		g.leaf(g.tensor([]int64{4 * hid, hid}, g.f32)),
		g.leaf(g.tensor([]int64{4 * hid}, g.f32)),
	}
	if g.rng.Intn(2) == 0 {
		ht := g.tensor([]int64{b, hid}, g.f32)
		ops = append(ops, g.pick(ht), g.pick(ht))
	}
	g.create(graph.LSTMName, ops, nil)
}

// route makes a mixture of experts' router (Config.Routes): the top k of
// a float value's last axis (N), the rows of a leaf table [N or N + 1, d]
// that those indices pick, and then one of: the rows weighted by the top
// values, one picked row sliced out, the rows through an op without an
// MPS lowering, an MoE block's experts (a ui8 table of q8_0 matrices, one
// dequant_matmul a chosen expert through a slice and a reshape, as
// models/importer's moe), or the rows as they are. The weights and the
// experts' x come through delay, so that the rows are read regions after
// the indices are ready: the sink then moves the gather down to its
// reader, unless the rows take fewer bytes than their indices (d = 1 in
// f16 or bf16), when it must not.
func (g *gen) route() {
	x := g.find(func(rt *ir.RankedTensorType) bool { return isFloat(rt) && rt.Shape[len(rt.Shape)-1] >= 2 })
	if x == nil || g.rng.Intn(4) == 0 {
		x = g.fresh(g.tensor([]int64{int64(1 + g.rng.Intn(2)), int64(2 + g.rng.Intn(4))}, g.f32))
	}
	s, elem := shapeOf(x), elemOf(x)
	n := s[len(s)-1]
	k := int64(1 + g.rng.Intn(int(min(n, 3))))
	top := g.create(graph.TopKName, []*ir.Value{x}, nil, ir.NamedAttr{Name: "k", Value: g.i64(k)})
	lead := append(append([]int64(nil), s[:len(s)-1]...), k)
	rows := func(t ir.Type) *ir.Value {
		return g.create(graph.GatherName, []*ir.Value{g.leaf(t), top[1]}, nil, ir.NamedAttr{Name: "axis", Value: g.i64(0)})[0]
	}
	floats := []ir.Type{g.f32, g.ctx.FloatType("f16"), g.ctx.FloatType("bf16")}
	te := floats[g.rng.Intn(len(floats))]
	table := g.tensor([]int64{n + int64(g.rng.Intn(2)), int64(1 + g.rng.Intn(3))}, te)
	switch c := g.rng.Intn(5); {
	case c == 0:
		w := g.delay(top[0])
		if te != elem {
			w = g.create(graph.CastName, []*ir.Value{w}, []ir.Type{g.tensor(lead, te)})[0]
		}
		w = g.create(graph.ReshapeName, []*ir.Value{w}, []ir.Type{g.tensor(append(lead, 1), te)})[0]
		g.create(graph.MulName, []*ir.Value{rows(table), w}, nil)
	case c == 1:
		g.slice(rows(table), int64(len(lead)-1), int64(g.rng.Intn(int(k))), 1, 1)
	case c == 2:
		g.create(graph.SoftplusName, []*ir.Value{rows(table)}, nil)
	case c == 3 && ir.NumElements(x.Type().(*ir.RankedTensorType)) == n:
		// Experts of [out, 32] in q8_0 (34 bytes a block and row).
		out := int64(1 + g.rng.Intn(2))
		per := out * 34
		ui8 := g.ctx.IntegerType(8, ir.Unsigned)
		picked := rows(g.tensor([]int64{n + int64(g.rng.Intn(2)), per}, ui8))
		h := g.delay(g.pick(g.tensor([]int64{1, 32}, g.f32)))
		for j := int64(0); j < k; j++ {
			one := g.slice(picked, int64(len(lead)-1), j, 1, 1)
			w := g.create(graph.ReshapeName, []*ir.Value{one}, []ir.Type{g.tensor([]int64{per}, ui8)})[0]
			g.dequantMatMul(h, w, "q8_0", out, 32)
		}
	default:
		rows(table)
	}
}

// strides makes one to three strided slices (Config.Strides), each of a
// float pool value or a fresh one along an axis of 3 to 7 elements, step 2
// or 3, at least two elements long, sometimes of the previous slice.
func (g *gen) strides() {
	var prev *ir.Value
	for i := g.rng.Intn(3); i >= 0; i-- {
		x := prev
		if x == nil || g.rng.Intn(2) == 0 {
			x = g.find(func(rt *ir.RankedTensorType) bool { return isFloat(rt) && slices.Max(rt.Shape) >= 3 })
		}
		if x == nil || g.rng.Intn(3) == 0 {
			s := g.shape(1 + g.rng.Intn(3))
			s[g.rng.Intn(len(s))] = int64(3 + g.rng.Intn(5))
			x = g.fresh(g.tensor(s, g.f32))
		}
		s := shapeOf(x)
		var axes []int
		for a, d := range s {
			if d >= 3 {
				axes = append(axes, a)
			}
		}
		if len(axes) == 0 {
			continue
		}
		axis := axes[g.rng.Intn(len(axes))]
		step := int64(2 + g.rng.Intn(2))
		if s[axis] <= step {
			step = 2
		}
		start := int64(g.rng.Intn(int(s[axis] - step)))
		maxLen := (s[axis]-start-1)/step + 1
		length := 2 + int64(g.rng.Intn(int(maxLen-1)))
		prev = g.slice(x, int64(axis), start, length, step)
	}
}

// wide makes one to three ops on wide rows (Config.Wide), each on the
// previous one's result where that is a float value with a last axis of
// at least 33, else on a fresh [1 to 3, width] value: a reduction or
// a softmax of the last axis, an rms_norm, a matmul by a [W, 1 to 3]
// leaf, a topk of up to 8, an elementwise op, or a dequant_matmul of 2
// or 3 q4_0 or q8_0 blocks, or 2 q4_k, q6_k or q6_k_c16 blocks, a row.
func (g *gen) wide() {
	var prev *ir.Value
	for i := g.rng.Intn(3); i >= 0; i-- {
		x := prev
		if x == nil || g.rng.Intn(3) == 0 {
			x = g.fresh(g.tensor([]int64{int64(1 + g.rng.Intn(3)), g.width()}, g.f32))
		}
		s := shapeOf(x)
		last := s[len(s)-1]
		var out []*ir.Value
		switch g.rng.Intn(7) {
		case 0:
			kinds := []string{"sum", "mean", "max", "min"}
			out = g.create(graph.ReduceName, []*ir.Value{x}, nil,
				ir.NamedAttr{Name: "kind", Value: g.ctx.StringAttr(kinds[g.rng.Intn(len(kinds))])},
				ir.NamedAttr{Name: "axes", Value: g.ctx.DenseI64Array([]int64{int64(len(s) - 1)})},
				ir.NamedAttr{Name: "keep_dims", Value: g.ctx.BoolAttr(g.rng.Intn(2) == 0)})
		case 1:
			out = g.create(graph.SoftmaxName, []*ir.Value{x}, nil, ir.NamedAttr{Name: "axis", Value: g.i64(-1)})
		case 2:
			out = g.create(graph.RMSNormName, []*ir.Value{x, g.leaf(g.tensor([]int64{last}, elemOf(x)))}, nil,
				ir.NamedAttr{Name: "epsilon", Value: g.ctx.FloatAttr(g.ctx.F32(), 1e-5)})
		case 3:
			out = g.create(graph.MatMulName, []*ir.Value{x, g.leaf(g.tensor([]int64{last, int64(1 + g.rng.Intn(3))}, elemOf(x)))}, nil)
		case 4:
			out = g.create(graph.TopKName, []*ir.Value{x}, nil, ir.NamedAttr{Name: "k", Value: g.i64(int64(1 + g.rng.Intn(8)))})
		case 5:
			out = g.create(g.pickOp(unary), []*ir.Value{x}, nil)
		default:
			formats := append(packedFormats[:len(packedFormats):len(packedFormats)], graph.Q6_KC16)
			f := formats[g.rng.Intn(len(formats))]
			k, blockBy, _ := f.Block()
			most := 2 // blocks a row: q4_0 and q8_0 up to three
			if k == 32 {
				most = 3
			}
			blocks := 2 + int64(g.rng.Intn(most-1))
			n := int64(1 + g.rng.Intn(3))
			h := g.fresh(g.tensor([]int64{int64(1 + g.rng.Intn(2)), blocks * k}, g.f32))
			w := g.fresh(g.tensor([]int64{n * blocks * blockBy}, g.ctx.IntegerType(8, ir.Unsigned)))
			g.dequantMatMul(h, w, string(f), n, blocks*k)
		}
		prev = nil
		if len(out) > 0 {
			if rt := out[0].Type().(*ir.RankedTensorType); isFloat(rt) && len(rt.Shape) > 0 && rt.Shape[len(rt.Shape)-1] >= 33 {
				prev = out[0]
			}
		}
	}
}

// unitFormats are the formats of Config.Formats.
var unitFormats = []graph.QuantFormat{
	graph.Q2_K, graph.Q3_K, graph.Q5_K, graph.Q4_1, graph.Q5_0, graph.Q5_1,
	graph.IQ4_NL, graph.IQ4_XS, graph.MXFP4,
}

// formats makes Config.Formats's one or two dequant_matmuls, each on x
// from the pool where one has its shape.
func (g *gen) formats() {
	for i := g.rng.Intn(2); i >= 0; i-- {
		f := unitFormats[g.rng.Intn(len(unitFormats))]
		k, blockBy, _ := f.Block()
		blocks := int64(1 + g.rng.Intn(3))
		if g.rng.Intn(4) == 0 { // 33 to 70 units of 32 weights, rounded up to blocks
			blocks = ((33+int64(g.rng.Intn(38)))*32 + k - 1) / k
		}
		var m int64
		switch r := g.rng.Intn(4); {
		case r < 2:
			m = 1
		case r == 2:
			m = 2 + int64(g.rng.Intn(7))
		default:
			m = 9 + int64(g.rng.Intn(4))
		}
		n := int64(1 + g.rng.Intn(10))
		ui8 := g.ctx.IntegerType(8, ir.Unsigned)
		per := n * blocks * blockBy
		if g.rng.Intn(4) == 0 {
			// An MoE block's experts in f, as the Metal emitter reads them
			// in place (codegen/metal's findExpertReads): the top 1 to 3
			// of 2 to 5 logits, as a vector, pick rows of a table of [n,
			// K] matrices whose bytes are a multiple of 16, each row one
			// dequant_matmul's weight through a slice and a reshape.
			if g.rng.Intn(2) == 0 {
				// Half of them in the main ops' formats, whose experts
				// nothing else reads in place (route's q8_0 matrices are
				// 34 or 68 bytes).
				f = packedFormats[g.rng.Intn(len(packedFormats))]
				k, blockBy, _ = f.Block()
				blocks = int64(1 + g.rng.Intn(3))
			}
			row := blocks * blockBy
			n = 16 / gcd(row, 16) * int64(1+g.rng.Intn(2))
			per = n * row
			e := int64(2 + g.rng.Intn(4))
			kk := int64(1 + g.rng.Intn(int(min(e, 3))))
			top := g.create(graph.TopKName, []*ir.Value{g.fresh(g.tensor([]int64{1, e}, g.f32))}, nil,
				ir.NamedAttr{Name: "k", Value: g.i64(kk)})
			idx := g.create(graph.ReshapeName, []*ir.Value{top[1]}, []ir.Type{g.tensor([]int64{kk}, elemOf(top[1]))})[0]
			picked := g.create(graph.GatherName, []*ir.Value{g.leaf(g.tensor([]int64{e, per}, ui8)), idx}, nil,
				ir.NamedAttr{Name: "axis", Value: g.i64(0)})[0]
			x := g.pick(g.tensor([]int64{1, blocks * k}, g.f32))
			for j := range kk {
				one := g.slice(picked, 0, j, 1, 1)
				w := g.create(graph.ReshapeName, []*ir.Value{one}, []ir.Type{g.tensor([]int64{per}, ui8)})[0]
				g.dequantMatMul(x, w, string(f), n, blocks*k)
			}
			continue
		}
		x := g.pick(g.tensor([]int64{m, blocks * k}, g.f32))
		w := g.fresh(g.tensor([]int64{per}, ui8))
		g.dequantMatMul(x, w, string(f), n, blocks*k)
	}
}

// gcd is the greatest common divisor of positive a and b.
func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// width returns a wide row for Config.Wide: 33 to 80 elements (two
// simdgroups' worth or less), 256 to 335 or 512 to 611 (a row kernel
// that strides by four elements then has two or four simdgroups).
func (g *gen) width() int64 {
	switch g.rng.Intn(3) {
	case 0:
		return 33 + int64(g.rng.Intn(48))
	case 1:
		return 256 + int64(g.rng.Intn(80))
	default:
		return 512 + int64(g.rng.Intn(100))
	}
}

// delay returns v through zero to three alternations of an op without an
// MPS lowering (softplus) and one with (exp), each a region later.
func (g *gen) delay(v *ir.Value) *ir.Value {
	for i := g.rng.Intn(4); i > 0; i-- {
		v = g.create(graph.SoftplusName, []*ir.Value{v}, nil)[0]
		v = g.create(graph.ExpName, []*ir.Value{v}, nil)[0]
	}
	return v
}

// Seeded returns the random function of hybrid-split's property test for
// seed: most are small enough for the exact optimum (1 to 12 compute
// ops), every fifth has 12 to 39. Odd seeds may use attention,
// gated_delta_net and lstm; even seeds are made for the original
// algorithm's plans (Config.Plans); every third ends with a router
// (Config.Routes), the next with strided slices (Config.Strides) and the
// next with ops on wide rows (Config.Wide); every fourth, from seed 1,
// ends with dequant_matmuls in the other GGUF formats (Config.Formats).
// Other property tests (the runtime's plans) walk the same functions by
// seed.
func Seeded(ctx *ir.Context, seed int64) (*ir.Operation, error) {
	ops := 1 + int(seed*7919%12)
	if seed%5 == 0 {
		ops = 12 + int(seed*104729%28)
	}
	return Build(ctx, seed, Config{Ops: ops, Refusals: seed%2 != 0, Plans: seed%2 == 0, Routes: seed%3 == 0, Strides: seed%3 == 1, Wide: seed%3 == 2, Formats: seed%4 == 1})
}

// SeededModule returns one module holding the functions Seeded gives for
// seeds first to first+n-1, each named @g<seed>, for the tests that
// compile many of them at once.
func SeededModule(ctx *ir.Context, first, n int64) (*ir.Operation, error) {
	mod := builtin.NewModule(ctx, ctx.UnknownLoc())
	b := ir.NewBuilder(ctx)
	b.SetInsertionPointToEnd(builtin.Body(mod))
	for seed := first; seed < first+n; seed++ {
		m, err := Seeded(ctx, seed)
		if err != nil {
			return nil, err
		}
		f := builtin.Body(m).First()
		f.Remove()
		b.Insert(f)
		f.SetAttr(ctx, "sym_name", ctx.StringAttr(fmt.Sprintf("g%d", seed)))
	}
	return mod, nil
}
