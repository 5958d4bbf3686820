package regionop

import (
	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/ir"
)

// ParseOutlined parses the custom form shared by mps.subgraph and
// thunk.call, after the op name:
//
//	@sym(%operand, …) {attrs} : (operand types) -> result types {
//	^bb0(%arg: type, …):
//	  …
//	}
//
// The attribute dictionary holds inherent attributes (thunk.call's
// target) and discardable ones alike.
func ParseOutlined(p ir.OpAsmParser, st *ir.OperationState) error {
	name, err := ir.ParseCallLike(p, st, "sym_name")
	if err != nil {
		return err
	}
	body := &ir.Region{}
	if err := p.ParseRegion(body, nil); err != nil {
		return err
	}
	st.Attrs = append(st.Attrs, ir.NamedAttr{Name: "sym_name", Value: p.Context().StringAttr(name)})
	st.Regions = []*ir.Region{body}
	return nil
}

// PrintOutlined prints the form ParseOutlined reads.
func PrintOutlined(p *ir.OpPrinter, op *ir.Operation) {
	p.WriteString(" ")
	p.PrintSymbolName(ir.SymbolName(op))
	p.WriteString("(")
	p.PrintOperands(op.Operands())
	p.WriteString(")")
	p.PrintOptionalAttrs(op.AllAttrEntries(), "sym_name")
	p.WriteString(" : ")
	p.PrintFunctionalType(op)
	p.WriteString(" ")
	p.PrintRegion(op.Region(0), true, true)
}

// VerifyOutlined checks the outlined-region form of op: one block whose
// arguments match the operands, ending in the terminator yieldName whose
// operands match the results.
func VerifyOutlined(op *ir.Operation, yieldName string) error {
	r := op.Region(0)
	if r.Empty() {
		return ir.OpError(op, "expects a non-empty region")
	}
	entry := r.First()
	if n := entry.NumArguments(); n != op.NumOperands() {
		return ir.OpError(op, "has %d operands, but its region takes %d arguments", op.NumOperands(), n)
	}
	for i := 0; i < op.NumOperands(); i++ {
		if at, ot := entry.Argument(i).Type(), op.Operand(i).Type(); at != ot {
			return ir.OpError(op, "region argument #%d has type '%s', but operand #%d has type '%s'", i, at, i, ot)
		}
	}
	term := entry.Last()
	if term == nil || term.Name() != yieldName {
		return ir.OpError(op, "region must end in '%s'", yieldName)
	}
	if term.NumOperands() != op.NumResults() {
		return ir.OpError(term, "yields %d values, but the enclosing '%s' has %d results", term.NumOperands(), op.Name(), op.NumResults())
	}
	for i := 0; i < op.NumResults(); i++ {
		if yt, rt := term.Operand(i).Type(), op.Result(i).Type(); yt != rt {
			return ir.OpError(term, "operand #%d has type '%s', but result #%d of the enclosing '%s' has type '%s'", i, yt, i, op.Name(), rt)
		}
	}
	return nil
}

// A TypeConstraint is a predicate on the types of a region op's operands
// and results, with the summary MLIR's ODS prints for it.
type TypeConstraint struct {
	Summary string
	Holds   func(ir.Type) bool
}

// AnyRankedTensor is ODS's AnyRankedTensor: any tensor type with a rank.
func AnyRankedTensor() TypeConstraint {
	return TypeConstraint{
		Summary: "ranked tensor of any type values",
		Holds: func(t ir.Type) bool {
			_, ok := t.(*ir.RankedTensorType)
			return ok
		},
	}
}

// AnyStaticShapeTensor is ODS's AnyStaticShapeTensor: a ranked tensor
// type without dynamic dims.
func AnyStaticShapeTensor() TypeConstraint {
	return TypeConstraint{
		Summary: "statically shaped tensor of any type values",
		Holds: func(t ir.Type) bool {
			rt, ok := t.(*ir.RankedTensorType)
			if !ok {
				return false
			}
			for _, d := range rt.Shape {
				if d == ir.Dynamic {
					return false
				}
			}
			return true
		},
	}
}

// VerifyParent checks the HasParent<"func::FuncOp"> trait of a region
// op, in MLIR's words: the op sits directly in a func.func. Region ops
// make up a partitioned function's body; they do not nest.
func VerifyParent(op *ir.Operation) error {
	if p := op.ParentOp(); p == nil || p.Name() != fn.FuncName {
		return ir.OpError(op, "expects parent op '%s'", fn.FuncName)
	}
	return nil
}

// VerifyTypes checks what MLIR's ODS checks for a region op declared with
// Variadic<c> operands and results, in the same order and words: every
// operand, then every result, satisfies c.
func VerifyTypes(op *ir.Operation, c TypeConstraint) error {
	for i := 0; i < op.NumOperands(); i++ {
		if t := op.Operand(i).Type(); !c.Holds(t) {
			return ir.OpError(op, "operand #%d must be variadic of %s, but got '%s'", i, c.Summary, t)
		}
	}
	for i := 0; i < op.NumResults(); i++ {
		if t := op.Result(i).Type(); !c.Holds(t) {
			return ir.OpError(op, "result #%d must be variadic of %s, but got '%s'", i, c.Summary, t)
		}
	}
	return nil
}

// VerifyYield checks that a yield op sits directly in a parentName op.
func VerifyYield(op *ir.Operation, parentName string) error {
	if p := op.ParentOp(); p == nil || p.Name() != parentName {
		return ir.OpError(op, "expects parent op '%s'", parentName)
	}
	return nil
}

// A Violation says which part of the outlined-region rule an op breaks.
type Violation uint8

// The parts of the rule, in the order Check tests them.
const (
	// Outlined: the op has the outlined-region form.
	Outlined Violation = iota
	// NotOneBlock: the op has other than one region, or its region other
	// than one block.
	NotOneBlock
	// ArgumentsDiffer: the block's arguments do not match the op's
	// operands one to one (count and types).
	ArgumentsDiffer
	// YieldDiffers: the block has no terminator, or the terminator has
	// results, or its operands do not match the op's results one to one.
	YieldDiffers
)

// String describes the violation as the reference interpreter reports it.
func (v Violation) String() string {
	switch v {
	case NotOneBlock:
		return "a region op needs exactly one region with one block"
	case ArgumentsDiffer:
		return "the block arguments of a region op must match its operands one to one"
	case YieldDiffers:
		return "the terminator of a region op must yield values matching its results"
	}
	return "outlined"
}

// Check tests op against the outlined-region rule (see the package doc)
// and returns the first part it breaks, or Outlined. It reads only
// counts and uniqued types, so it is cheap enough to ask of every op.
func Check(op *ir.Operation) Violation {
	if op.NumRegions() != 1 || !op.Region(0).HasOneBlock() {
		return NotOneBlock
	}
	b := op.Region(0).First()
	if b.NumArguments() != op.NumOperands() {
		return ArgumentsDiffer
	}
	for i := 0; i < b.NumArguments(); i++ {
		if b.Argument(i).Type() != op.Operand(i).Type() {
			return ArgumentsDiffer
		}
	}
	t := b.Last()
	if t == nil || t.NumResults() != 0 || t.NumOperands() != op.NumResults() {
		return YieldDiffers
	}
	for i := 0; i < t.NumOperands(); i++ {
		if t.Operand(i).Type() != op.Result(i).Type() {
			return YieldDiffers
		}
	}
	return Outlined
}

// IsOutlined reports whether op has the outlined-region form (Check finds
// nothing broken). mps.subgraph and thunk.call have it once verified.
func IsOutlined(op *ir.Operation) bool { return Check(op) == Outlined }

// Source follows v back across outlined-region boundaries: a region
// argument becomes the region op's operand, and a region op's result
// becomes the operand of its terminator, until v is neither. In the
// function before partitioning every value is its own source.
func Source(v *ir.Value) *ir.Value {
	// The bound only matters for IR whose dominance is broken (op
	// verifiers run before the dominance check), where a value could
	// reach itself.
	for steps := 0; steps < 1<<20; steps++ {
		if def := v.DefiningOp(); def != nil {
			if !IsOutlined(def) {
				return v
			}
			v = def.Region(0).First().Last().Operand(v.Index())
			continue
		}
		b := v.OwnerBlock()
		if b == nil || b.ParentOp() == nil || !IsOutlined(b.ParentOp()) {
			return v
		}
		v = b.ParentOp().Operand(v.Index())
	}
	return v
}
