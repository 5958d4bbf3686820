package mps

import "github.com/rlx-compiler/rlx/ir"

// The primitives' custom form is the graph dialect's:
//
//	%2 = mps.add %0, %1 : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
//	%3 = mps.reduce_sum %2 {axes = array<i64: 1>} : (tensor<1x64xf32>) -> tensor<1x1xf32>
//	%w = mps.placeholder "l0.wq" : tensor<64x64xf32>
//	%cst = mps.constant dense<0.5> : tensor<f32>
//
// with inherent and discardable attributes together in the dictionary.

func parsePrim(p ir.OpAsmParser, st *ir.OperationState) error {
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
	st.Operands, st.ResultTypes, st.Attrs = vals, ft.Results, attrs
	return nil
}

func printPrim(p *ir.OpPrinter, op *ir.Operation) {
	if op.NumOperands() > 0 {
		p.WriteString(" ")
		p.PrintOperands(op.Operands())
	}
	p.PrintOptionalAttrs(op.AllAttrEntries())
	p.WriteString(" : ")
	p.PrintFunctionalType(op)
}

func parsePlaceholder(p ir.OpAsmParser, st *ir.OperationState) error {
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

func printPlaceholder(p *ir.OpPrinter, op *ir.Operation) {
	p.WriteString(" ")
	name := ""
	if s, ok := op.Attr("name").(*ir.StringAttr); ok {
		name = s.Value
	}
	p.PrintString(name)
	p.PrintOptionalAttrs(op.AllAttrEntries(), "name")
	p.WriteString(" : ")
	p.PrintType(op.Result(0).Type())
}

// parseConstant parses `mps.constant {attrs} dense<…> : type`, as MLIR's
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
	p.PrintOptionalAttrs(op.AllAttrEntries(), "value")
	p.WriteString(" ")
	if v := op.Attr("value"); v != nil {
		p.PrintAttr(v)
		return
	}
	p.WriteString("unit : ")
	p.PrintType(op.Result(0).Type())
}
