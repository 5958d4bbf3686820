package mps

import (
	"github.com/rlx-compiler/rlx/dialect/regionop"
	"github.com/rlx-compiler/rlx/ir"
)

// Op names.
const (
	SubgraphName = "mps.subgraph"
	YieldName    = "mps.yield"
)

// A Placer decides what an mps.subgraph may hold: it returns "" when op
// may be in one, else why not. What MPSGraph can run is the target
// layer's knowledge (target.MPSPlaceable), given to the dialect where the
// dialects are registered, so that this package knows nothing of devices.
type Placer func(op *ir.Operation) string

// Dialect returns the mps dialect's definitions (new ones on each call).
// The mps.subgraph verifier asks place about every op of a region; with a
// nil place it checks the region's form only.
func Dialect(place Placer) *ir.Dialect {
	return &ir.Dialect{
		Name: "mps",
		Ops: append([]*ir.OpDef{
			{
				Name:          SubgraphName,
				Summary:       "A region of graph ops run as one MPSGraph dispatch",
				Traits:        ir.TraitIsolatedFromAbove | ir.TraitSingleBlock | ir.TraitSymbol,
				InherentAttrs: []string{"sym_name"},
				PropClasses:   map[string]func(ir.Attribute) bool{"sym_name": ir.IsStringAttr},
				Counts:        &ir.OpCounts{Operands: ir.Variadic, Results: ir.Variadic, Regions: 1, Successors: 0},
				Verify:        verifySubgraphOp,
				VerifyRegions: func(op *ir.Operation) error { return verifySubgraph(op, place) },
				Parse:         regionop.ParseOutlined,
				Print:         regionop.PrintOutlined,
			},
			{
				Name:    YieldName,
				Summary: "Returns the results of an mps.subgraph",
				Traits:  ir.TraitTerminator | ir.TraitPure | ir.TraitReturnLike,
				Counts:  &ir.OpCounts{Operands: ir.Variadic, Results: 0, Regions: 0, Successors: 0},
				Verify:  func(op *ir.Operation) error { return regionop.VerifyYield(op, SubgraphName) },
				Parse:   ir.ParseReturnLike,
				Print:   ir.PrintReturnLike,
			},
		}, primitiveDefs()...),
	}
}

// Register adds the mps dialect to ctx, with place as the rule on what a
// region may hold (see Dialect).
func Register(ctx *ir.Context, place Placer) { ctx.RegisterDialect(Dialect(place)) }

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
	if err := regionop.VerifyParent(op); err != nil {
		return err
	}
	return regionop.VerifyTypes(op, regionop.AnyStaticShapeTensor())
}

func verifySubgraph(op *ir.Operation, place Placer) error {
	if err := regionop.VerifyOutlined(op, YieldName); err != nil {
		return err
	}
	for o := range op.Region(0).First().Ops() {
		if o.Name() == YieldName || IsPrimitive(o) {
			continue
		}
		if o.Def() == nil || o.OpName().Dialect() != "graph" {
			return placeError(op, o, "'"+o.Name()+"' is not a graph op")
		}
		if place == nil {
			continue
		}
		if why := place(o); why != "" {
			return placeError(op, o, why)
		}
	}
	return nil
}

func placeError(region, op *ir.Operation, why string) error {
	d := ir.OpError(op, "cannot be in an mps.subgraph: %s", why)
	d.AttachNote(region.Loc(), "in the mps.subgraph @"+ir.SymbolName(region))
	return d
}
