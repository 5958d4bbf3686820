package fn

import (
	"github.com/rlx-compiler/rlx/ir"
)

// parseFunc parses
//
//	func.func [private|public|nested] @name(%a: T {attrs} loc(…), …) [-> results] [attributes {…}] [{ body }]
//
// A declaration lists only types: `func.func private @f(i32, f32) -> i1`.
func parseFunc(p ir.OpAsmParser, st *ir.OperationState) error {
	ctx := p.Context()
	for _, vis := range []string{"private", "public", "nested"} {
		if p.ParseOptionalKeyword(vis) {
			st.Attrs = append(st.Attrs, ir.NamedAttr{Name: "sym_visibility", Value: ctx.StringAttr(vis)})
			break
		}
	}
	name, err := p.ParseSymbolName()
	if err != nil {
		return err
	}
	if err := p.ParsePunct("("); err != nil {
		return err
	}
	var args []ir.Argument
	var inputs []ir.Type
	var argAttrs []*ir.DictAttr
	named := false
	if !p.ParseOptionalPunct(")") {
		for i := 0; ; i++ {
			a, isNamed, err := p.ParseOptionalArgument(true, true)
			if err != nil {
				return err
			}
			if i == 0 {
				named = isNamed
			} else if isNamed != named {
				return p.Errorf("expected SSA identifier")
			}
			if !isNamed {
				t, err := p.ParseType()
				if err != nil {
					return err
				}
				a.Type = t
				d, err := p.ParseOptionalAttrDict()
				if err != nil {
					return err
				}
				if len(d) > 0 {
					a.Attrs = ctx.Dict(d)
				}
				// A declaration's argument locations are read and dropped,
				// as in MLIR.
				if _, err := p.ParseOptionalLocationSpecifier(); err != nil {
					return err
				}
			}
			args = append(args, a)
			inputs = append(inputs, a.Type)
			argAttrs = append(argAttrs, a.Attrs)
			if !p.ParseOptionalPunct(",") {
				break
			}
		}
		if err := p.ParsePunct(")"); err != nil {
			return err
		}
	}
	var results []ir.Type
	var resAttrs []*ir.DictAttr
	if p.ParseOptionalPunct("->") {
		if p.ParseOptionalPunct("(") {
			if !p.ParseOptionalPunct(")") {
				for {
					t, err := p.ParseType()
					if err != nil {
						return err
					}
					d, err := p.ParseOptionalAttrDict()
					if err != nil {
						return err
					}
					results = append(results, t)
					var da *ir.DictAttr
					if len(d) > 0 {
						da = ctx.Dict(d)
					}
					resAttrs = append(resAttrs, da)
					if !p.ParseOptionalPunct(",") {
						break
					}
				}
				if err := p.ParsePunct(")"); err != nil {
					return err
				}
			}
		} else {
			t, err := p.ParseType()
			if err != nil {
				return err
			}
			results = []ir.Type{t}
			resAttrs = []*ir.DictAttr{nil}
		}
	}
	st.Attrs = append(st.Attrs,
		ir.NamedAttr{Name: "sym_name", Value: ctx.StringAttr(name)},
		ir.NamedAttr{Name: "function_type", Value: ctx.TypeAttr(ctx.FunctionType(inputs, results))})
	if a := dictArray(ctx, argAttrs); a != nil {
		st.Attrs = append(st.Attrs, ir.NamedAttr{Name: "arg_attrs", Value: a})
	}
	if a := dictArray(ctx, resAttrs); a != nil {
		st.Attrs = append(st.Attrs, ir.NamedAttr{Name: "res_attrs", Value: a})
	}
	dictLoc := p.CurrentLoc()
	extra, err := p.ParseOptionalAttrDictWithKeyword()
	if err != nil {
		return err
	}
	// The custom form spells these out; the dictionary may not repeat them.
	for _, e := range extra {
		switch e.Name {
		case "sym_visibility", "sym_name", "function_type":
			return p.ErrorAt(dictLoc, "'%s' is an inferred attribute and should not be specified in the explicit attribute dictionary", e.Name)
		}
	}
	st.Attrs = append(st.Attrs, extra...)
	body := &ir.Region{}
	bodyLoc := p.CurrentLoc()
	// With named arguments they become the entry block's; with types only
	// (the older form) the body's entry block declares them itself.
	var entryArgs []ir.Argument
	if named {
		entryArgs = args
	}
	present, err := p.ParseOptionalRegion(body, entryArgs)
	if err != nil {
		return err
	}
	if present && body.First() == nil || present && body.First().Empty() && body.NumBlocks() == 1 && len(args) == 0 {
		return p.ErrorAt(bodyLoc, "expected non-empty function body")
	}
	st.Regions = []*ir.Region{body}
	return nil
}

// dictArray returns an array of the dictionaries, or nil when all are
// empty (MLIR leaves arg_attrs out then).
func dictArray(ctx *ir.Context, ds []*ir.DictAttr) ir.Attribute {
	any := false
	for _, d := range ds {
		if d.Len() > 0 {
			any = true
		}
	}
	if !any {
		return nil
	}
	elems := make([]ir.Attribute, len(ds))
	for i, d := range ds {
		if d == nil {
			d = ctx.Dict(nil)
		}
		elems[i] = d
	}
	return ctx.ArrayAttr(elems)
}

func printFunc(p *ir.OpPrinter, op *ir.Operation) {
	f := Func{op}
	ft := f.Type()
	if v, ok := op.Attr("sym_visibility").(*ir.StringAttr); ok {
		p.WriteString(" ")
		p.WriteString(v.Value)
	}
	p.WriteString(" ")
	p.PrintSymbolName(f.Name())
	p.WriteString("(")
	decl := f.IsDeclaration()
	if ft != nil {
		for i, t := range ft.Inputs {
			if i > 0 {
				p.WriteString(", ")
			}
			if decl {
				p.PrintType(t)
				p.PrintOptionalAttrDict(f.ArgAttrs(i))
			} else {
				p.PrintRegionArgument(f.Body().Argument(i), f.ArgAttrs(i))
			}
		}
	}
	p.WriteString(")")
	if ft != nil && len(ft.Results) > 0 {
		p.WriteString(" -> ")
		anyAttrs := false
		for i := range ft.Results {
			if f.ResultAttrs(i).Len() > 0 {
				anyAttrs = true
			}
		}
		_, isFn := ft.Results[0].(*ir.FunctionType)
		if len(ft.Results) == 1 && !anyAttrs && !isFn {
			p.PrintType(ft.Results[0])
		} else {
			p.WriteString("(")
			for i, t := range ft.Results {
				if i > 0 {
					p.WriteString(", ")
				}
				p.PrintType(t)
				p.PrintOptionalAttrDict(f.ResultAttrs(i))
			}
			p.WriteString(")")
		}
	}
	p.PrintOptionalAttrDictWithKeyword(op.Attrs())
	if !decl {
		p.WriteString(" ")
		p.PrintRegion(op.Region(0), false, true)
	}
}

// parseCall parses `call @f(%a, %b) {attrs} : (T, U) -> R`.
func parseCall(p ir.OpAsmParser, st *ir.OperationState) error {
	callee, err := p.ParseFlatSymbolRef()
	if err != nil {
		return err
	}
	if err := ir.ParseCallOperands(p, st); err != nil {
		return err
	}
	st.Attrs = append(st.Attrs, ir.NamedAttr{Name: "callee", Value: callee})
	return nil
}

func printCall(p *ir.OpPrinter, op *ir.Operation) {
	p.WriteString(" ")
	if ref, ok := op.Attr("callee").(*ir.SymbolRefAttr); ok {
		p.PrintAttr(ref)
	}
	p.WriteString("(")
	p.PrintOperands(op.Operands())
	p.WriteString(")")
	p.PrintOptionalAttrDict(op.Attrs())
	p.WriteString(" : ")
	p.PrintFunctionalType(op)
}

// parseCallIndirect parses `call_indirect %f(%a) : (T) -> R`.
func parseCallIndirect(p ir.OpAsmParser, st *ir.OperationState) error {
	callee, err := p.ParseOperand()
	if err != nil {
		return err
	}
	if err := p.ParsePunct("("); err != nil {
		return err
	}
	ops, err := p.ParseOperandList()
	if err != nil {
		return err
	}
	if err := p.ParsePunct(")"); err != nil {
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
	cv, err := p.ResolveOperand(callee, ft)
	if err != nil {
		return err
	}
	vals, err := p.ResolveOperands(ops, ft.Inputs)
	if err != nil {
		return err
	}
	st.Operands = append([]*ir.Value{cv}, vals...)
	st.ResultTypes = ft.Results
	st.Attrs = attrs
	return nil
}

func printCallIndirect(p *ir.OpPrinter, op *ir.Operation) {
	p.WriteString(" ")
	p.PrintOperand(op.Operand(0))
	p.WriteString("(")
	p.PrintOperands(op.Operands()[1:])
	p.WriteString(")")
	p.PrintOptionalAttrDict(op.Attrs())
	p.WriteString(" : ")
	p.PrintType(op.Operand(0).Type())
}

// parseConstant parses `constant {attrs} @f : (T) -> R` (MLIR's format:
// the attribute dictionary comes first).
func parseConstant(p ir.OpAsmParser, st *ir.OperationState) error {
	attrs, err := p.ParseOptionalAttrDict()
	if err != nil {
		return err
	}
	value, err := p.ParseFlatSymbolRef()
	if err != nil {
		return err
	}
	// `type(results)`, as MLIR's format has it: a list, so `: T, U` makes
	// two results (which the count bound by `%f =` or the verifier
	// rejects).
	ts, err := p.ParseColonTypeList()
	if err != nil {
		return err
	}
	st.Attrs = append(attrs, ir.NamedAttr{Name: "value", Value: value})
	st.ResultTypes = ts
	return nil
}

func printConstant(p *ir.OpPrinter, op *ir.Operation) {
	p.PrintOptionalAttrDict(op.Attrs())
	p.WriteString(" ")
	p.PrintAttr(op.Attr("value"))
	p.WriteString(" : ")
	p.PrintType(op.Result(0).Type())
}
