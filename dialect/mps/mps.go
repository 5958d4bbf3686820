package mps

import (
	"strconv"
	"strings"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// Op names.
const (
	SubgraphName = "mps.subgraph"
	YieldName    = "mps.yield"
)

// Dialect returns the mps dialect's definitions (new ones on each call).
func Dialect() *ir.Dialect {
	return &ir.Dialect{
		Name: "mps",
		Ops: append([]*ir.OpDef{
			{
				Name:          SubgraphName,
				Summary:       "A region of graph ops run as one MPSGraph dispatch",
				Traits:        ir.TraitIsolatedFromAbove | ir.TraitSingleBlock | ir.TraitSymbol,
				InherentAttrs: []string{"sym_name"},
				Counts:        &ir.OpCounts{Operands: ir.Variadic, Results: ir.Variadic, Regions: 1, Successors: 0},
				Verify:        verifySubgraphOp,
				VerifyRegions: verifySubgraph,
				Parse:         ParseOutlined,
				Print:         PrintOutlined,
			},
			{
				Name:    YieldName,
				Summary: "Returns the results of an mps.subgraph",
				Traits:  ir.TraitTerminator | ir.TraitPure | ir.TraitReturnLike,
				Counts:  &ir.OpCounts{Operands: ir.Variadic, Results: 0, Regions: 0, Successors: 0},
				Verify:  func(op *ir.Operation) error { return VerifyYield(op, SubgraphName) },
				Parse:   ir.ParseReturnLike,
				Print:   ir.PrintReturnLike,
			},
		}, primitiveDefs()...),
	}
}

// Register adds the mps dialect to ctx.
func Register(ctx *ir.Context) { ctx.RegisterDialect(Dialect()) }

// Subgraph is a typed view of mps.subgraph.
type Subgraph struct{ Op *ir.Operation }

// AsSubgraph returns a view of op when it is an mps.subgraph.
func AsSubgraph(op *ir.Operation) (Subgraph, bool) {
	if op == nil || op.Name() != SubgraphName {
		return Subgraph{}, false
	}
	return Subgraph{op}, true
}

// Symbol returns the subgraph's symbol name (without `@`).
func (s Subgraph) Symbol() string { return ir.SymbolName(s.Op) }

// Body returns the region's block.
func (s Subgraph) Body() *ir.Block { return s.Op.Region(0).First() }

// Yield returns the terminator.
func (s Subgraph) Yield() *ir.Operation { return s.Body().Last() }

// verifySubgraphOp checks the parent, then the operand and result types:
// MPSGraph takes tensors of static shape only.
func verifySubgraphOp(op *ir.Operation) error {
	if err := VerifyParent(op); err != nil {
		return err
	}
	return VerifyTypes(op, AnyStaticShapeTensor())
}

func verifySubgraph(op *ir.Operation) error {
	if err := VerifyOutlined(op, YieldName); err != nil {
		return err
	}
	for o := op.Region(0).First().First(); o != nil; o = o.Next() {
		if o.Name() == YieldName || IsPrimitive(o) {
			continue
		}
		if why := Placeable(o); why != "" {
			d := ir.OpError(o, "cannot be in an mps.subgraph: %s", why)
			d.AttachNote(op.Loc(), "in the mps.subgraph @"+ir.SymbolName(op))
			return d
		}
	}
	return nil
}

// Placeable returns "" when op may be in an mps.subgraph, else why not:
// op must be a graph op that MPSGraph can run, or a leaf of a type
// MPSGraph takes. For attention, q, k and v are followed across region
// boundaries (Source), so the answer is the one graph.MPSCapable gives
// for the op in the function before partitioning.
func Placeable(op *ir.Operation) string {
	if op.Def() == nil || op.OpName().Dialect() != "graph" {
		return "'" + op.Name() + "' is not a graph op"
	}
	if graph.IsLeaf(op) && op.NumResults() == 1 {
		// graph.MPSCapable passes every leaf, since hybrid-split clones
		// leaves rather than placing them; but a leaf inside a region
		// becomes an MPSGraph constant or placeholder, so it meets the
		// rule on types every other op meets.
		return graph.MPSTypeOK(op.Result(0).Type(), "result #0")
	}
	if op.Name() == graph.AttentionName && op.NumOperands() >= 3 {
		return attentionPlaceable(op)
	}
	ok, why := graph.MPSCapable(op)
	if ok {
		return ""
	}
	return strings.TrimPrefix(why, op.Name()+": ")
}

// attentionPlaceable checks attention's leaf-materialised rule across
// region boundaries and then asks graph.MPSCapable about the rest on a
// detached probe whose q, k and v (and mask) are params of the same types:
// the rule's other conditions look only at types and attributes.
func attentionPlaceable(op *ir.Operation) string {
	names := []string{"q", "k", "v"}
	for i := 0; i < 3; i++ {
		if why := leafMaterialised(op.Operand(i)); why != "" {
			return "operand #" + strconv.Itoa(i) + " (" + names[i] + ") " + why +
				"; MPSGraph attention over slices of computed tensors gives wrong values"
		}
	}
	ctx := op.Context()
	m := ir.NewValueMap()
	for i := 0; i < op.NumOperands(); i++ {
		p := ir.NewOperation(ctx, &ir.OperationState{
			Name:        ctx.OpName(graph.ParamName),
			Operands:    nil,
			ResultTypes: []ir.Type{op.Operand(i).Type()},
			Attrs:       []ir.NamedAttr{{Name: "name", Value: ctx.StringAttr("probe")}},
		})
		m.Map(op.Operand(i), p.Result(0))
	}
	probe := op.Clone(m)
	defer probe.DropAllReferences()
	ok, why := graph.MPSCapable(probe)
	if ok {
		return ""
	}
	return strings.TrimPrefix(why, op.Name()+": ")
}

// leafMaterialised follows v through region boundaries and view ops
// (reshape, transpose, cast, slice) and returns "" when it reaches a
// function argument, a param or a constant.
func leafMaterialised(v *ir.Value) string {
	for steps := 0; steps < 1<<16; steps++ {
		v = Source(v)
		def := v.DefiningOp()
		if def == nil {
			if b := v.OwnerBlock(); b != nil && b.ParentOp() != nil && b.ParentOp().Name() == "func.func" {
				return ""
			}
			return "is a block argument of a region other than a function body"
		}
		switch def.Name() {
		case graph.ParamName, graph.ConstantName:
			return ""
		case graph.ReshapeName, graph.TransposeName, graph.CastName, graph.SliceName:
			if def.NumOperands() != 1 {
				break
			}
			v = def.Operand(0)
			continue
		}
		return "is computed by " + def.Name() + ", not read from a function argument, param or constant through reshape/transpose/cast/slice only"
	}
	return "is not reached from a leaf"
}
