package graph

import (
	"github.com/rlx-compiler/rlx/ir"
)

// parseOp parses the custom form shared by every graph op but the leaves:
//
//	graph.name %a, %b {attr = value, …} : (A, B) -> R
//	graph.name %a {…} : (A) -> (R, S)
//
// The attribute dictionary holds inherent and discardable attributes alike;
// the op's definition sorts them out.
func parseOp(p ir.OpAsmParser, st *ir.OperationState) error {
	ops, err := p.ParseOperandList()
	if err != nil {
		return err
	}
	attrs, err := p.ParseOptionalAttrDict()
	if err != nil {
		return err
	}
	ft, err := ir.ParseColonFunctionType(p)
	if err != nil {
		return err
	}
	vals, err := p.ResolveOperands(ops, ft.Inputs)
	if err != nil {
		return err
	}
	st.Operands = vals
	st.ResultTypes = ft.Results
	st.Attrs = attrs
	return nil
}

func printOp(p *ir.OpPrinter, op *ir.Operation) {
	if op.NumOperands() > 0 {
		p.WriteString(" ")
		p.PrintOperands(op.Operands())
	}
	p.PrintOptionalAttrDict(allAttrs(op))
	p.WriteString(" : ")
	p.PrintFunctionalType(op)
}

// allAttrs merges the op's properties and discardable attributes into one
// dictionary, sorted by name, as the custom form shows them.
func allAttrs(op *ir.Operation) *ir.DictAttr {
	props := op.PropsDict()
	if props.Len() == 0 {
		return op.Attrs()
	}
	if op.Attrs().Len() == 0 {
		return props
	}
	entries := append(append([]ir.NamedAttr(nil), props.Entries...), op.Attrs().Entries...)
	return op.Context().Dict(entries)
}

// parseParam parses `graph.param "name" {attrs} : type`.
func parseParam(p ir.OpAsmParser, st *ir.OperationState) error {
	name, err := p.ParseString()
	if err != nil {
		return err
	}
	attrs, err := p.ParseOptionalAttrDict()
	if err != nil {
		return err
	}
	t, err := p.ParseColonType()
	if err != nil {
		return err
	}
	st.Attrs = append(attrs, ir.NamedAttr{Name: "name", Value: p.Context().StringAttr(name)})
	st.ResultTypes = []ir.Type{t}
	return nil
}

func printParam(p *ir.OpPrinter, op *ir.Operation) {
	p.WriteString(" ")
	p.PrintString(attrString(op, "name", ""))
	p.PrintOptionalAttrDict(allAttrs(op), "name")
	p.WriteString(" : ")
	p.PrintType(op.Result(0).Type())
}

// parseConstant parses `graph.constant {attrs} dense<…> : type`, as MLIR's
// arith.constant: the value's type is the result type.
func parseConstant(p ir.OpAsmParser, st *ir.OperationState) error {
	attrs, err := p.ParseOptionalAttrDict()
	if err != nil {
		return err
	}
	loc := p.CurrentLoc()
	v, err := p.ParseAttribute(nil)
	if err != nil {
		return err
	}
	ta, ok := v.(ir.TypedAttr)
	if !ok {
		return p.ErrorAt(loc, "expected a typed elements attribute such as 'dense<1.0> : tensor<4xf32>', got %s", v)
	}
	st.Attrs = append(attrs, ir.NamedAttr{Name: "value", Value: v})
	st.ResultTypes = []ir.Type{ta.AttrType()}
	return nil
}

func printConstant(p *ir.OpPrinter, op *ir.Operation) {
	p.PrintOptionalAttrDict(allAttrs(op), "value")
	p.WriteString(" ")
	// The value carries the result type (`dense<…> : tensor<…>`). When the
	// op is invalid and they differ, the printed form reads back with the
	// value's type, and the verifier reports what is wrong with the value.
	if v := op.Attr("value"); v != nil {
		p.PrintAttr(v)
		return
	}
	p.WriteString("unit : ")
	p.PrintType(op.Result(0).Type())
}
