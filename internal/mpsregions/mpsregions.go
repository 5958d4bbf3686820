// Package mpsregions holds what the tests of lower-to-mps, of hybrid-split
// and of the MPSGraph emitter share to compare mps.subgraph regions: each
// region outlined as a function of its own, and the runs and the relative
// error that compare a region's lowered form with its graph form. The
// runtime's ref and sim backends use Outline too, to run one region of a
// plan through the interpreter.
package mpsregions

import (
	"fmt"
	"math"
	"slices"

	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/dialect/builtin"
	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/dialect/mps"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// NewContext returns a context with every dialect registered.
func NewContext() *ir.Context {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	return ctx
}

// Subgraphs returns the mps.subgraph ops directly in the body of the
// func.func f, in order.
func Subgraphs(f *ir.Operation) []*ir.Operation {
	var out []*ir.Operation
	for op := range (fn.Func{Op: f}).Body().Ops() {
		if op.Name() == mps.SubgraphName {
			out = append(out, op)
		}
	}
	return out
}

// Outline returns a module holding func.func @<symbol of sg> whose body
// is a copy of the region's: the region's arguments become the function's,
// and its yield a func.return.
func Outline(sg *ir.Operation) *ir.Operation {
	ctx := sg.Context()
	body := sg.Region(0).First()
	mod := builtin.NewModule(ctx, sg.Loc())
	b := ir.NewBuilder(ctx)
	b.SetInsertionPointToEnd(builtin.Body(mod))
	yield := body.Last()
	f := fn.NewFunc(b, sg.Loc(), ir.SymbolName(sg), ctx.FunctionType(body.ArgumentTypes(), yield.OperandTypes()))
	m := ir.NewValueMap()
	for i, a := range body.Arguments() {
		m.Map(a, f.Body().Argument(i))
	}
	b.SetInsertionPointToEnd(f.Body())
	for op := body.First(); op != yield; op = op.Next() {
		b.Clone(op, m)
	}
	res := make([]*ir.Value, yield.NumOperands())
	for i, v := range yield.Operands() {
		res[i] = m.Lookup(v)
	}
	b.CreateOp(fn.ReturnName, yield.Loc(), res, nil)
	return mod
}

// Outlined returns Outline of every mps.subgraph of the functions in
// module mod, in order (function by function, as codegen/mps emits
// their builders).
func Outlined(mod *ir.Operation) []*ir.Operation {
	var out []*ir.Operation
	for f := range builtin.Body(mod).Ops() {
		if f.Name() != fn.FuncName {
			continue
		}
		for _, sg := range Subgraphs(f) {
			out = append(out, Outline(sg))
		}
	}
	return out
}

// Run is one run of two functions of the same signature on the same
// inputs and weights.
type Run struct {
	Inputs  []*tensor.Tensor
	Weights ref.Weights
	A, B    []*tensor.Tensor // the results of a and of b
}

// RunBoth runs the only public function of a and of b on the same inputs
// and weights: inputs and w when given, else seeded by seed (weights are
// materialised once, so a later run can bind the same tensors).
func RunBoth(a, b *ir.Operation, inputs []*tensor.Tensor, w ref.Weights, seed uint64) (*Run, error) {
	pa, err := ref.Compile(a, "")
	if err != nil {
		return nil, err
	}
	pb, err := ref.Compile(b, "")
	if err != nil {
		return nil, err
	}
	if inputs == nil {
		if inputs, err = ref.SeededInputs(seed, pa, pb); err != nil {
			return nil, err
		}
	}
	if w == nil {
		if w, err = ref.Materialize(ref.Seeded(seed), pa, pb); err != nil {
			return nil, err
		}
	}
	r := &Run{Inputs: inputs, Weights: w}
	if r.A, err = pa.Run(inputs, w); err != nil {
		return nil, err
	}
	if r.B, err = pb.Run(inputs, w); err != nil {
		return nil, err
	}
	return r, nil
}

// RelError returns max|a−b| / max|b| over the elements of two tensors of
// one type: 0 when they are equal element by element (every NaN equal to
// every other: NaNs made by different operations differ in sign and
// payload, which no result's meaning holds), +Inf when b is all zeros (or
// not finite) and they differ, or when a NaN or an infinity stands
// against anything else.
func RelError(a, b *tensor.Tensor) float64 { return errorOver(a, b, maxAbs(b)) }

// errorOver is max|a−b| / scale, with RelError's NaNs and infinities.
func errorOver(a, b *tensor.Tensor, scale float64) float64 {
	diff := 0.0
	for i := range b.Len() {
		x, y := a.Float64(i), b.Float64(i)
		switch {
		case math.IsNaN(x) && math.IsNaN(y), x == y:
		case math.IsNaN(x), math.IsNaN(y), math.IsInf(x, 0), math.IsInf(y, 0):
			return math.Inf(1)
		default:
			diff = max(diff, math.Abs(x-y))
		}
	}
	switch {
	case diff == 0:
		return 0
	case scale == 0:
		return math.Inf(1)
	}
	return diff / scale
}

// maxAbs is the largest finite |element| of t.
func maxAbs(t *tensor.Tensor) float64 {
	m := 0.0
	for i := range t.Len() {
		if v := math.Abs(t.Float64(i)); !math.IsInf(v, 0) && !math.IsNaN(v) {
			m = max(m, v)
		}
	}
	return m
}

// gated are the ops x·g(x) whose decompositions (lower-to-mps) compute g
// in f32 from erf, tanh or a sigmoid: for negative x, 1 + erf(x/√2)
// cancels, so g is off by about ε of 1 while x·g(x) is tiny. Their error
// alone is measured against the larger of |x| and |x·g(x)|: on a tensor
// of only negative x the results alone would make a last-bit difference
// of g look like any relative error at all (the property test's seeds
// 5107, 22674, 26858 and others past 5,000).
var gated = map[string]bool{graph.GeluName: true, graph.GeluTanhName: true, graph.SiluName: true}

// Verdict is what Check found on one region.
type Verdict struct {
	// Decomposed: the region has an op that the lowering decomposes.
	Decomposed bool
	// Identical: every result of the lowered region has the graph form's
	// bits.
	Identical bool
	// RelError is the largest relative error over the results (RelError).
	RelError float64
	// OpByOp: RelError is above the tolerance, and every op of the region,
	// lowered alone and run on the values it reads in the graph form's
	// run, passed; the region's error is a few ulps of a decomposition
	// that the ops after it amplify.
	OpByOp bool
}

// Check runs the graph form g of a region (a module from Outline) and its
// lowered form low on the same inputs and weights (given, or seeded by
// seed) and checks them: bit-identical results when no op of g is
// decomposed (decomposes), else a relative error (RelError) within tol.
// When a decomposed region's error is above tol, Check looks at each op
// of g alone (Single, lowered with lower) on the values it reads in g's
// run: an op that is not decomposed must give its bits, a decomposed one
// must stay within tol; only if one does not is it an error.
func Check(g, low *ir.Operation, inputs []*tensor.Tensor, w ref.Weights, seed uint64,
	lower func(*ir.Operation) error, decomposes func(*ir.Operation) bool, tol float64) (Verdict, error) {
	var v Verdict
	g.Walk(func(op *ir.Operation) { v.Decomposed = v.Decomposed || decomposes(op) })
	run, err := RunBoth(g, low, inputs, w, seed)
	if err != nil {
		return v, err
	}
	v.Identical = true
	for k := range run.A {
		d := ref.Compare(run.B[k], run.A[k])
		if !d.SameType {
			return v, fmt.Errorf("result #%d: lowered to %s from %s", k, run.B[k].Type(), run.A[k].Type())
		}
		if !v.Decomposed && !d.BitIdentical {
			return v, fmt.Errorf("result #%d: no op is decomposed, but %d elements differ (max |Δ| %g)", k, d.Count, d.MaxAbs)
		}
		v.Identical = v.Identical && d.BitIdentical
		v.RelError = max(v.RelError, RelError(run.B[k], run.A[k]))
	}
	if v.RelError <= tol {
		return v, nil
	}
	taps, err := Taps(g, run.Inputs, run.Weights)
	if err != nil {
		return v, err
	}
	for op := range builtin.Body(g).First().Region(0).First().Ops() {
		if op.NumRegions() > 0 || op.Next() == nil || op.OpName().Dialect() != "graph" || isLeaf(op) {
			continue
		}
		single, args := Single(op)
		in := make([]*tensor.Tensor, len(args))
		for i, a := range args {
			in[i] = taps[a]
		}
		lowered := single.Clone(nil)
		if err := lower(lowered); err != nil {
			return v, fmt.Errorf("%s alone: %v", op.Name(), err)
		}
		r, err := RunBoth(single, lowered, in, run.Weights, seed)
		if err != nil {
			return v, fmt.Errorf("%s alone: %v", op.Name(), err)
		}
		for k := range r.A {
			d := ref.Compare(r.B[k], r.A[k])
			scale := maxAbs(r.A[k])
			if gated[op.Name()] {
				scale = max(scale, maxAbs(taps[op.Operand(0)]))
			}
			e := errorOver(r.B[k], r.A[k], scale)
			switch {
			case !decomposes(op) && !d.BitIdentical:
				return v, fmt.Errorf("%s alone, on the values it reads: result #%d differs though it is not decomposed (%d elements, max |Δ| %g)", op.Name(), k, d.Count, d.MaxAbs)
			case e > tol:
				return v, fmt.Errorf("%s alone, on the values it reads: result #%d has relative error %g, above %g", op.Name(), k, e, tol)
			}
		}
	}
	v.OpByOp = true
	return v, nil
}

func isLeaf(op *ir.Operation) bool {
	return op.Name() == "graph.param" || op.Name() == "graph.constant"
}

// Taps runs the function of module g and returns the value of each of its
// arguments and op results.
func Taps(g *ir.Operation, inputs []*tensor.Tensor, w ref.Weights) (map[*ir.Value]*tensor.Tensor, error) {
	ctx := g.Context()
	m := ir.NewValueMap()
	c := g.Clone(m)
	f := builtin.Body(c).First()
	body := (fn.Func{Op: f}).Body()
	var orig, vals []*ir.Value
	var types []ir.Type
	for op := range builtin.Body(g).First().Region(0).First().Ops() {
		if op.Next() == nil {
			continue
		}
		for _, r := range op.Results() {
			orig = append(orig, r)
			vals = append(vals, m.Lookup(r))
			types = append(types, r.Type())
		}
	}
	body.Last().SetOperands(vals)
	ft := (fn.Func{Op: f}).Type()
	f.SetAttr(ctx, "function_type", ctx.TypeAttr(ctx.FunctionType(ft.Inputs, types)))
	f.SetAttr(ctx, "res_attrs", nil)
	p, err := ref.Compile(c, "")
	if err != nil {
		return nil, err
	}
	res, err := p.Run(inputs, w)
	if err != nil {
		return nil, err
	}
	taps := map[*ir.Value]*tensor.Tensor{}
	for i, a := range builtin.Body(g).First().Region(0).First().Arguments() {
		taps[a] = inputs[i]
	}
	for i, v := range orig {
		taps[v] = res[i]
	}
	return taps, nil
}

// Single returns a module whose function holds op alone in an
// mps.subgraph: the function's arguments are op's operands that are not
// leaves (returned as args, in order), its leaf operands are cloned into
// the region, and it returns op's results.
func Single(op *ir.Operation) (mod *ir.Operation, args []*ir.Value) {
	ctx := op.Context()
	loc := op.Loc()
	var types []ir.Type
	for _, v := range op.Operands() {
		if d := v.DefiningOp(); d != nil && isLeaf(d) {
			continue
		}
		if !slices.Contains(args, v) {
			args = append(args, v)
			types = append(types, v.Type())
		}
	}
	mod = builtin.NewModule(ctx, loc)
	b := ir.NewBuilder(ctx)
	b.SetInsertionPointToEnd(builtin.Body(mod))
	f := fn.NewFunc(b, loc, "single", ctx.FunctionType(types, op.ResultTypes()))
	blk := ir.NewBlock(types, nil)
	for i := range types {
		blk.SetArgumentLoc(i, loc)
	}
	r := &ir.Region{}
	r.AppendBlock(blk)
	b.SetInsertionPointToEnd(f.Body())
	sg := b.Create(&ir.OperationState{
		Name: ctx.OpName(mps.SubgraphName), Loc: loc, Operands: f.Body().Arguments(), ResultTypes: op.ResultTypes(),
		Attrs: []ir.NamedAttr{{Name: "sym_name", Value: ctx.StringAttr("single_mps0")}}, Regions: []*ir.Region{r},
	})
	b.CreateOp(fn.ReturnName, loc, sg.Results(), nil)
	m := ir.NewValueMap()
	for i, a := range args {
		m.Map(a, blk.Argument(i))
	}
	b.SetInsertionPointToEnd(blk)
	for _, v := range op.Operands() {
		if d := v.DefiningOp(); d != nil && isLeaf(d) && m.LookupOrNil(v) == nil {
			b.Clone(d, m)
		}
	}
	c := b.Clone(op, m)
	b.CreateOp(mps.YieldName, loc, c.Results(), nil)
	return mod, args
}
