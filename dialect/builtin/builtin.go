package builtin

import (
	"slices"
	"strings"

	"github.com/rlx-compiler/rlx/ir"
)

// Op names.
const (
	ModuleName = "builtin.module"
	CastName   = "builtin.unrealized_conversion_cast"
)

// Dialect returns the builtin dialect's definitions. Each call returns new
// definitions, so contexts never share mutable state.
func Dialect() *ir.Dialect {
	return &ir.Dialect{
		Name: "builtin",
		Ops: []*ir.OpDef{
			{
				Name:    ModuleName,
				Summary: "A top level container operation",
				Traits: ir.TraitIsolatedFromAbove | ir.TraitSymbolTable | ir.TraitNoTerminator |
					ir.TraitSingleBlock | ir.TraitGraphRegion,
				InherentAttrs:  []string{"sym_name", "sym_visibility"},
				PropClasses:    map[string]func(ir.Attribute) bool{"sym_name": ir.IsStringAttr, "sym_visibility": ir.IsStringAttr},
				Counts:         &ir.OpCounts{Operands: 0, Results: 0, Regions: 1, Successors: 0},
				Verify:         verifyModule,
				Parse:          parseModule,
				Print:          printModule,
				DefaultDialect: "builtin",
			},
			{
				Name:    CastName,
				Summary: "An unrealized conversion from one set of types to another",
				Traits:  ir.TraitPure,
				Counts:  &ir.OpCounts{Operands: ir.Variadic, Results: ir.Variadic, Regions: 0, Successors: 0},
				Fold:    foldCast,
				Parse:   parseCast,
				Print:   printCast,
			},
		},
	}
}

// Register adds the builtin dialect to ctx.
func Register(ctx *ir.Context) { ctx.RegisterDialect(Dialect()) }

// NewModule returns an empty module with one block.
func NewModule(ctx *ir.Context, loc ir.Location) *ir.Operation {
	op := ir.NewOperation(ctx, &ir.OperationState{Name: ctx.OpName(ModuleName), Loc: loc, NumRegions: 1})
	op.Region(0).AppendBlock(&ir.Block{})
	return op
}

// Body returns the module's block.
func Body(module *ir.Operation) *ir.Block { return module.Region(0).First() }

// verifyModule checks a module in the order of MLIR's verifier: the
// declared attributes (ODS), the region, the NoRegionArguments trait, the
// symbol interface, then ModuleOp::verify's own rule.
func verifyModule(op *ir.Operation) error {
	for _, name := range []string{"sym_name", "sym_visibility"} {
		if a := op.Attr(name); a != nil {
			if _, ok := a.(*ir.StringAttr); !ok {
				return ir.OpError(op, "attribute '%s' failed to satisfy constraint: string attribute", name)
			}
		}
	}
	if op.Region(0).NumBlocks() != 1 {
		return ir.OpError(op, "region #0 ('bodyRegion') failed to verify constraint: region with 1 blocks")
	}
	if b := op.Region(0).First(); b.NumArguments() != 0 {
		return ir.OpError(op, "expects region to have no arguments")
	}
	if s, ok := op.Attr("sym_name").(*ir.StringAttr); ok && s.Value == "" {
		// MLIR accepts an empty name but cannot print it back.
		return ir.OpError(op, "requires a non-empty symbol name")
	}
	// The symbol interface checks the visibility of a named module only.
	if v, ok := op.Attr("sym_visibility").(*ir.StringAttr); ok && op.Attr("sym_name") != nil && v.Value != "public" && v.Value != "private" && v.Value != "nested" {
		return ir.OpError(op, "visibility expected to be one of [\"public\", \"private\", \"nested\"], but got %s", v)
	}
	if d := op.Attrs(); d != nil {
		for _, e := range d.Entries {
			if !strings.Contains(e.Name, ".") {
				return ir.OpError(op, "can only contain attributes with dialect-prefixed names, found: '%s'", e.Name)
			}
		}
	}
	return nil
}

func parseModule(p ir.OpAsmParser, st *ir.OperationState) error {
	if name, ok, err := p.ParseOptionalSymbolName(); err != nil {
		return err
	} else if ok {
		st.Attrs = append(st.Attrs, ir.NamedAttr{Name: "sym_name", Value: p.Context().StringAttr(name)})
	}
	dictLoc := p.CurrentLoc()
	attrs, err := p.ParseOptionalAttrDictWithKeyword()
	if err != nil {
		return err
	}
	// As MLIR's generated parser, the inherent attributes given in the
	// dictionary are checked before the region is read.
	for _, a := range attrs {
		if (a.Name == "sym_name" || a.Name == "sym_visibility") && !ir.IsStringAttr(a.Value) {
			return p.ErrorAt(dictLoc, "'%s' op attribute '%s' failed to satisfy constraint: string attribute", ModuleName, a.Name)
		}
	}
	st.Attrs = append(st.Attrs, attrs...)
	r := &ir.Region{}
	if err := p.ParseRegion(r, nil); err != nil {
		return err
	}
	if r.Empty() {
		r.AppendBlock(&ir.Block{})
	}
	st.Regions = []*ir.Region{r}
	return nil
}

func printModule(p *ir.OpPrinter, op *ir.Operation) {
	if s, ok := op.Attr("sym_name").(*ir.StringAttr); ok {
		p.WriteString(" ")
		p.PrintSymbolName(s.Value)
	}
	p.PrintOptionalAttrDictWithKeyword(op.AllAttrs(), "sym_name")
	p.WriteString(" ")
	p.PrintRegion(op.Region(0), false, false)
}

func parseCast(p ir.OpAsmParser, st *ir.OperationState) error {
	ops, err := p.ParseOperandList()
	if err != nil {
		return err
	}
	var in []ir.Type
	if len(ops) > 0 {
		if in, err = p.ParseColonTypeList(); err != nil {
			return err
		}
	}
	if err := p.ParseKeyword("to"); err != nil {
		return err
	}
	out := []ir.Type{}
	for {
		t, err := p.ParseType()
		if err != nil {
			return err
		}
		out = append(out, t)
		if !p.ParseOptionalPunct(",") {
			break
		}
	}
	attrs, err := p.ParseOptionalAttrDict()
	if err != nil {
		return err
	}
	vals, err := p.ResolveOperands(ops, in)
	if err != nil {
		return err
	}
	st.Operands = vals
	st.ResultTypes = out
	st.Attrs = attrs
	return nil
}

func printCast(p *ir.OpPrinter, op *ir.Operation) {
	if op.NumOperands() > 0 {
		p.WriteString(" ")
		p.PrintOperands(op.Operands())
		p.WriteString(" : ")
		p.PrintTypes(op.OperandTypes())
	}
	p.WriteString(" to ")
	p.PrintTypes(op.ResultTypes())
	p.PrintOptionalAttrDict(op.Attrs())
}

// foldCast folds like MLIR's UnrealizedConversionCastOp::fold: a cast to
// its own operand types folds to its operands, and a cast that undoes
// another cast (all of that cast's results, back to its operand types)
// folds to the first cast's operands.
func foldCast(op *ir.Operation, _ []ir.Attribute) []ir.FoldResult {
	values := func(vs []*ir.Value) []ir.FoldResult {
		out := make([]ir.FoldResult, len(vs))
		for i, v := range vs {
			out[i] = ir.FoldResult{Value: v}
		}
		return out
	}
	if op.NumOperands() == 0 {
		return nil
	}
	if slices.Equal(op.OperandTypes(), op.ResultTypes()) {
		return values(op.Operands())
	}
	in := op.Operand(0).DefiningOp()
	if in == nil || in.OpName() != op.OpName() || in.NumResults() != op.NumOperands() ||
		!slices.Equal(in.OperandTypes(), op.ResultTypes()) {
		return nil
	}
	for i := 0; i < op.NumOperands(); i++ {
		if op.Operand(i) != in.Result(i) {
			return nil
		}
	}
	// In a graph region two casts may feed each other; folding op to its
	// own results would claim a change that did not happen.
	if in.Operand(0) == op.Result(0) {
		return nil
	}
	return values(in.Operands())
}
