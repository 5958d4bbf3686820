package mps

import (
	"fmt"

	"github.com/rlx-compiler/rlx/ir"
)

// attrKindText is how diagnostics name an attribute kind (as MLIR's ODS
// constraint summaries do).
func attrKindText(k PrimAttrKind) string {
	switch k {
	case AttrI64:
		return "64-bit signless integer attribute"
	case AttrI64Array:
		return "i64 dense array attribute"
	case AttrF32:
		return "32-bit float attribute"
	case AttrStr:
		return "string attribute"
	}
	return "elements attribute"
}

func attrKindOK(k PrimAttrKind, a ir.Attribute) bool {
	switch k {
	case AttrI64:
		i, ok := a.(*ir.IntegerAttr)
		return ok && ir.IsInteger(i.Type, 64)
	case AttrI64Array:
		d, ok := a.(*ir.DenseArrayAttr)
		return ok && ir.IsInteger(d.Elem, 64)
	case AttrF32:
		f, ok := a.(*ir.FloatAttr)
		return ok && f.Type.Name() == "f32"
	case AttrStr:
		_, ok := a.(*ir.StringAttr)
		return ok
	case AttrElements:
		switch a.(type) {
		case *ir.DenseElementsAttr, *ir.DenseResourceElementsAttr:
			return true
		}
	}
	return false
}

// checkPrimOperands checks the operand count and types of p.
func checkPrimOperands(p *Primitive, types []ir.Type) ([]*ir.RankedTensorType, error) {
	n := len(types)
	if n < p.MinIn || (p.MaxIn >= 0 && n > p.MaxIn) {
		switch {
		case p.MinIn == p.MaxIn:
			return nil, fmt.Errorf("expected %d operands, but found %d", p.MinIn, n)
		case p.MaxIn < 0:
			return nil, fmt.Errorf("expected at least %d operands, but found %d", p.MinIn, n)
		}
		return nil, fmt.Errorf("expected %d to %d operands, but found %d", p.MinIn, p.MaxIn, n)
	}
	in := make([]*ir.RankedTensorType, n)
	for i, t := range types {
		if in[i] = staticTensor(t); in[i] == nil {
			return nil, fmt.Errorf("operand #%d must be a statically shaped tensor of %s values, but got '%s'", i, primTypesText, t)
		}
	}
	return in, nil
}

// inferPrim returns the result type of primitive p with the given operand
// types and attributes; declared is the op's own result type (nil when
// building), which placeholder, reshape, broadcast and cast take as their
// shape or element type.
func inferPrim(ctx *ir.Context, p *Primitive, types []ir.Type, attrs func(string) ir.Attribute, declared ir.Type) (*ir.RankedTensorType, error) {
	in, err := checkPrimOperands(p, types)
	if err != nil {
		return nil, err
	}
	for _, a := range p.Attrs {
		v := attrs(a.Name)
		if v == nil {
			return nil, fmt.Errorf("requires attribute '%s'", a.Name)
		}
		if !attrKindOK(a.Kind, v) {
			return nil, fmt.Errorf("attribute '%s' failed to satisfy constraint: %s", a.Name, attrKindText(a.Kind))
		}
	}
	c := &primChecker{ctx: ctx, name: p.Name, in: in, attrs: attrs}
	if declared != nil {
		if c.result = staticTensor(declared); c.result == nil {
			return nil, fmt.Errorf("result #0 must be a statically shaped tensor of %s values, but got '%s'", primTypesText, declared)
		}
	}
	return p.infer(c)
}

func verifyPrim(p *Primitive, op *ir.Operation) error {
	got := op.Result(0).Type()
	want, err := inferPrim(op.Context(), p, op.OperandTypes(), op.Attr, got)
	if err != nil {
		return ir.OpError(op, "%v", err)
	}
	if ir.Type(want) != got {
		return ir.OpError(op, "result type '%s' does not match the inferred '%s'", got, want)
	}
	return nil
}

// InferType returns the result type of the primitive name with the given
// operands and attributes. For placeholder, reshape, broadcast and cast,
// declared gives the result type (it is checked); for the others declared
// may be nil.
func InferType(ctx *ir.Context, name string, operands []ir.Type, attrs []ir.NamedAttr, declared ir.Type) (ir.Type, error) {
	p := primIndex()[name]
	if p == nil {
		return nil, fmt.Errorf("'%s' is not an mps primitive", name)
	}
	get := func(n string) ir.Attribute {
		for _, a := range attrs {
			if a.Name == n {
				return a.Value
			}
		}
		return nil
	}
	t, err := inferPrim(ctx, p, operands, get, declared)
	if err != nil {
		return nil, fmt.Errorf("'%s' op %v", name, err)
	}
	if declared != nil && ir.Type(t) != declared {
		return nil, fmt.Errorf("'%s' op result type '%s' does not match the inferred '%s'", name, declared, t)
	}
	return t, nil
}

// Build creates the primitive name at b's insertion point and returns its
// result. result may be nil for every primitive but placeholder, reshape,
// broadcast and cast, whose result type is an input; the type is inferred
// and checked as the verifier would.
func Build(b *ir.Builder, loc ir.Location, name string, operands []*ir.Value, result ir.Type, attrs ...ir.NamedAttr) (*ir.Value, error) {
	types := make([]ir.Type, len(operands))
	for i, v := range operands {
		types[i] = v.Type()
	}
	t, err := InferType(b.Ctx, name, types, attrs, result)
	if err != nil {
		return nil, err
	}
	return b.CreateOp(name, loc, operands, []ir.Type{t}, attrs...).Result(0), nil
}
