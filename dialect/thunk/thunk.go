package thunk

import (
	"github.com/rlx-compiler/rlx/dialect/regionop"
	"github.com/rlx-compiler/rlx/ir"
)

// Op names.
const (
	CallName  = "thunk.call"
	YieldName = "thunk.yield"
)

// Targets of thunk.call.
const (
	TargetMetal = "metal"
	TargetHost  = "host"
)

// Dialect returns the thunk dialect's definitions (new ones on each call).
func Dialect() *ir.Dialect {
	return &ir.Dialect{
		Name: "thunk",
		Ops: []*ir.OpDef{
			{
				Name:          CallName,
				Summary:       "A region of ops run as native kernels, one dispatch per op",
				Traits:        ir.TraitIsolatedFromAbove | ir.TraitSingleBlock | ir.TraitSymbol,
				InherentAttrs: []string{"sym_name", "target"},
				PropClasses:   map[string]func(ir.Attribute) bool{"sym_name": ir.IsStringAttr, "target": ir.IsStringAttr},
				Counts:        &ir.OpCounts{Operands: ir.Variadic, Results: ir.Variadic, Regions: 1, Successors: 0},
				Verify:        verifyCallOp,
				VerifyRegions: verifyCall,
				Parse:         regionop.ParseOutlined,
				Print:         regionop.PrintOutlined,
			},
			{
				Name:    YieldName,
				Summary: "Returns the results of a thunk.call",
				Traits:  ir.TraitTerminator | ir.TraitPure | ir.TraitReturnLike,
				Counts:  &ir.OpCounts{Operands: ir.Variadic, Results: 0, Regions: 0, Successors: 0},
				Verify:  func(op *ir.Operation) error { return regionop.VerifyYield(op, CallName) },
				Parse:   ir.ParseReturnLike,
				Print:   ir.PrintReturnLike,
			},
		},
	}
}

// Register adds the thunk dialect to ctx.
func Register(ctx *ir.Context) { ctx.RegisterDialect(Dialect()) }

// Call is a typed view of thunk.call.
type Call struct{ Op *ir.Operation }

// AsCall returns a view of op when it is a thunk.call.
func AsCall(op *ir.Operation) (Call, bool) {
	if op == nil || op.Name() != CallName {
		return Call{}, false
	}
	return Call{op}, true
}

// Symbol returns the call's symbol name (without `@`).
func (c Call) Symbol() string { return ir.SymbolName(c.Op) }

// Target returns "metal" or "host".
func (c Call) Target() string {
	if s, ok := c.Op.Attr("target").(*ir.StringAttr); ok {
		return s.Value
	}
	return ""
}

// Body returns the region's block.
func (c Call) Body() *ir.Block { return c.Op.Region(0).First() }

// Yield returns the terminator.
func (c Call) Yield() *ir.Operation { return c.Body().Last() }

// verifyCallOp checks, in ODS's order, the parent, the target attribute,
// then the operand and result types.
func verifyCallOp(op *ir.Operation) error {
	if err := regionop.VerifyParent(op); err != nil {
		return err
	}
	if err := verifyTarget(op); err != nil {
		return err
	}
	return regionop.VerifyTypes(op, regionop.AnyRankedTensor())
}

func verifyTarget(op *ir.Operation) error {
	a := op.Attr("target")
	if a == nil {
		return ir.OpError(op, "requires attribute 'target'")
	}
	s, ok := a.(*ir.StringAttr)
	if !ok || (s.Value != TargetMetal && s.Value != TargetHost) {
		return ir.OpError(op, "attribute 'target' must be \"metal\" or \"host\", got %s", a)
	}
	return nil
}

func verifyCall(op *ir.Operation) error {
	if err := regionop.VerifyOutlined(op, YieldName); err != nil {
		return err
	}
	for o := range op.Region(0).First().Ops() {
		if o.NumRegions() > 0 {
			d := ir.OpError(o, "cannot be in a thunk.call: region ops do not nest")
			d.AttachNote(op.Loc(), "in the thunk.call @"+ir.SymbolName(op))
			return d
		}
	}
	return nil
}
