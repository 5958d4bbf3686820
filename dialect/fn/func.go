package fn

import (
	"fmt"
	"strings"

	"github.com/rlx-compiler/rlx/ir"
)

// Op names.
const (
	FuncName         = "func.func"
	ReturnName       = "func.return"
	CallName         = "func.call"
	CallIndirectName = "func.call_indirect"
	ConstantName     = "func.constant"
)

// Dialect returns the func dialect's definitions (new ones on each call).
func Dialect() *ir.Dialect {
	return &ir.Dialect{
		Name:        "func",
		Materialize: materialize,
		Ops: []*ir.OpDef{
			{
				Name:          FuncName,
				Summary:       "An operation with a name containing a single SSACFG region",
				Traits:        ir.TraitIsolatedFromAbove | ir.TraitSymbol,
				Counts:        &ir.OpCounts{Operands: 0, Results: 0, Regions: 1, Successors: 0},
				InherentAttrs: []string{"sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs"},
				PropClasses: map[string]func(ir.Attribute) bool{
					"sym_name": ir.IsStringAttr, "function_type": ir.IsTypeAttr, "sym_visibility": ir.IsStringAttr,
					"arg_attrs": ir.IsArrayAttr, "res_attrs": ir.IsArrayAttr,
				},
				Verify:         verifyFunc,
				Parse:          parseFunc,
				Print:          printFunc,
				DefaultDialect: "func",
			},
			{
				Name:    ReturnName,
				Summary: "Function return operation",
				Traits:  ir.TraitTerminator | ir.TraitPure | ir.TraitReturnLike,
				Counts:  &ir.OpCounts{Operands: ir.Variadic, Results: 0, Regions: 0, Successors: 0},
				Verify:  verifyReturn,
				Parse:   ir.ParseReturnLike,
				Print:   ir.PrintReturnLike,
			},
			{
				Name:             CallName,
				Summary:          "Call operation",
				InherentAttrs:    []string{"callee"},
				PropClasses:      map[string]func(ir.Attribute) bool{"callee": ir.IsFlatSymbolRef},
				Counts:           &ir.OpCounts{Operands: ir.Variadic, Results: ir.Variadic, Regions: 0, Successors: 0},
				Verify:           verifyCallAttrs,
				VerifySymbolUses: verifyCallSymbol,
				Parse:            parseCall,
				Print:            printCall,
			},
			{
				Name:    CallIndirectName,
				Summary: "Indirect call operation",
				Counts:  &ir.OpCounts{Operands: ir.Variadic, Results: ir.Variadic, Regions: 0, Successors: 0},
				Verify:  verifyCallIndirect,
				Parse:   parseCallIndirect,
				Print:   printCallIndirect,
			},
			{
				Name:          ConstantName,
				Summary:       "Constant",
				Traits:        ir.TraitPure | ir.TraitConstantLike,
				InherentAttrs: []string{"value"},
				PropClasses:   map[string]func(ir.Attribute) bool{"value": ir.IsFlatSymbolRef},
				Counts:        &ir.OpCounts{Operands: 0, Results: 1, Regions: 0, Successors: 0},
				// MLIR 19 checks the reference in the op's own verifier, so
				// its error comes in op order, before those of later ops.
				Verify: func(op *ir.Operation) error {
					return verifyConstantSymbol(op, ir.NewSymbolTableCollection())
				},
				Fold: func(op *ir.Operation, _ []ir.Attribute) []ir.FoldResult {
					return []ir.FoldResult{{Attr: op.Attr("value")}}
				},
				Parse:       parseConstant,
				Print:       printConstant,
				ResultNames: func(*ir.Operation) []string { return []string{"f"} },
			},
		},
	}
}

// Register adds the func dialect to ctx.
func Register(ctx *ir.Context) { ctx.RegisterDialect(Dialect()) }

// Func is a typed view of a func.func op.
type Func struct{ Op *ir.Operation }

// AsFunc returns a view of op when it is a func.func.
func AsFunc(op *ir.Operation) (Func, bool) {
	if op == nil || op.Name() != FuncName {
		return Func{}, false
	}
	return Func{op}, true
}

// Name returns the symbol name.
func (f Func) Name() string {
	if s, ok := f.Op.Attr("sym_name").(*ir.StringAttr); ok {
		return s.Value
	}
	return ""
}

// Type returns the function type (nil when malformed).
func (f Func) Type() *ir.FunctionType {
	t, _ := f.Op.Attr("function_type").(*ir.TypeAttr)
	if t == nil {
		return nil
	}
	ft, _ := t.Value.(*ir.FunctionType)
	return ft
}

// Visibility returns "public", "private" or "nested".
func (f Func) Visibility() string {
	if s, ok := f.Op.Attr("sym_visibility").(*ir.StringAttr); ok {
		return s.Value
	}
	return "public"
}

// IsDeclaration reports whether the function has no body.
func (f Func) IsDeclaration() bool { return f.Op.Region(0).Empty() }

// Body returns the entry block (nil for a declaration).
func (f Func) Body() *ir.Block { return f.Op.Region(0).First() }

// ArgAttrs returns the attributes of argument i (nil when none).
func (f Func) ArgAttrs(i int) *ir.DictAttr { return indexedDict(f.Op.Attr("arg_attrs"), i) }

// ResultAttrs returns the attributes of result i (nil when none).
func (f Func) ResultAttrs(i int) *ir.DictAttr { return indexedDict(f.Op.Attr("res_attrs"), i) }

func indexedDict(a ir.Attribute, i int) *ir.DictAttr {
	arr, ok := a.(*ir.ArrayAttr)
	if !ok || i >= len(arr.Elems) {
		return nil
	}
	d, _ := arr.Elems[i].(*ir.DictAttr)
	return d
}

// NewFunc creates a func.func with an entry block whose arguments match
// the function type, inserted by b.
func NewFunc(b *ir.Builder, loc ir.Location, name string, ft *ir.FunctionType) Func {
	ctx := b.Ctx
	op := b.Create(&ir.OperationState{
		Name: ctx.OpName(FuncName),
		Loc:  loc,
		Attrs: []ir.NamedAttr{
			{Name: "sym_name", Value: ctx.StringAttr(name)},
			{Name: "function_type", Value: ctx.TypeAttr(ft)},
		},
		NumRegions: 1,
	})
	locs := make([]ir.Location, len(ft.Inputs))
	for i := range locs {
		locs[i] = loc
	}
	op.Region(0).AppendBlock(ir.NewBlock(ft.Inputs, locs))
	return Func{op}
}

func verifyFunc(op *ir.Operation) error {
	f := Func{op}
	if p := op.ParentOp(); p != nil && p.IsRegistered() && !p.HasTrait(ir.TraitSymbolTable) {
		return ir.OpError(op, "symbol's parent must have the SymbolTable trait")
	}
	ta, ok := op.Attr("function_type").(*ir.TypeAttr)
	if !ok {
		return ir.OpError(op, "requires attribute 'function_type'")
	}
	ft, ok := ta.Value.(*ir.FunctionType)
	if !ok {
		return ir.OpError(op, "attribute 'function_type' failed to satisfy constraint: type attribute of function type")
	}
	if _, ok := op.Attr("sym_name").(*ir.StringAttr); !ok {
		return ir.OpError(op, "requires attribute 'sym_name'")
	}
	if v := op.Attr("sym_visibility"); v != nil {
		s, ok := v.(*ir.StringAttr)
		if !ok || (s.Value != "public" && s.Value != "private" && s.Value != "nested") {
			return ir.OpError(op, "visibility expected to be one of [\"public\", \"private\", \"nested\"], but got %s", v)
		}
	}
	if err := checkAttrArray(op, "arg_attrs", len(ft.Inputs), "argument", "arguments"); err != nil {
		return err
	}
	if err := checkAttrArray(op, "res_attrs", len(ft.Results), "result", "results"); err != nil {
		return err
	}
	if f.IsDeclaration() {
		if f.Visibility() == "public" {
			return ir.OpError(op, "symbol declaration cannot have public visibility")
		}
		return nil
	}
	entry := f.Body()
	if entry.NumArguments() != len(ft.Inputs) {
		return ir.OpError(op, "entry block must have %d arguments to match function signature", len(ft.Inputs))
	}
	for i, t := range ft.Inputs {
		if at := entry.Argument(i).Type(); at != t {
			return ir.OpError(op, "type of entry block argument #%d('%s') must match the type of the corresponding argument in function signature('%s')", i, at, t)
		}
	}
	return nil
}

func checkAttrArray(op *ir.Operation, name string, n int, what, whats string) error {
	a := op.Attr(name)
	if a == nil {
		return nil
	}
	arr, ok := a.(*ir.ArrayAttr)
	if !ok {
		return ir.OpError(op, "expects %s attribute array to be an array attribute", what)
	}
	if len(arr.Elems) != n {
		return ir.OpError(op, "expects %s attribute array to have the same number of elements as the number of function %s, got %d, but expected %d", what, whats, len(arr.Elems), n)
	}
	for _, e := range arr.Elems {
		d, ok := e.(*ir.DictAttr)
		if !ok {
			return ir.OpError(op, "expects %s attribute dictionary to be a DictionaryAttr, but got `%s`", what, e)
		}
		for _, a := range d.Entries {
			if !strings.Contains(a.Name, ".") {
				return ir.OpError(op, "%s may only have dialect attributes", whats)
			}
		}
	}
	return nil
}

func verifyReturn(op *ir.Operation) error {
	parent := op.ParentOp()
	f, ok := AsFunc(parent)
	if !ok {
		return ir.OpError(op, "expects parent op 'func.func'")
	}
	ft := f.Type()
	if ft == nil {
		return nil
	}
	if op.NumOperands() != len(ft.Results) {
		return ir.OpError(op, "has %d operands, but enclosing function (@%s) returns %d", op.NumOperands(), f.Name(), len(ft.Results))
	}
	for i, t := range ft.Results {
		if ot := op.Operand(i).Type(); ot != t {
			return ir.OpErrorPlain(op, "type of return operand %d ('%s') doesn't match function result type ('%s') in function @%s", i, ot, t, f.Name())
		}
	}
	return nil
}

func verifyCallAttrs(op *ir.Operation) error {
	if _, ok := op.Attr("callee").(*ir.SymbolRefAttr); !ok {
		return ir.OpError(op, "requires attribute 'callee'")
	}
	return nil
}

func verifyCallSymbol(op *ir.Operation, st *ir.SymbolTableCollection) error {
	ref := op.Attr("callee").(*ir.SymbolRefAttr)
	target := st.LookupNearest(op, ref)
	f, ok := AsFunc(target)
	if !ok {
		return ir.OpError(op, "'%s' does not reference a valid function", ref.Root)
	}
	ft := f.Type()
	if ft == nil {
		return nil
	}
	if len(ft.Inputs) != op.NumOperands() {
		return ir.OpError(op, "incorrect number of operands for callee")
	}
	for i, t := range ft.Inputs {
		if ot := op.Operand(i).Type(); ot != t {
			return ir.OpError(op, "operand type mismatch: expected operand type '%s', but provided '%s' for operand number %d", t, ot, i)
		}
	}
	if len(ft.Results) != op.NumResults() {
		return ir.OpError(op, "incorrect number of results for callee")
	}
	for i, t := range ft.Results {
		if rt := op.Result(i).Type(); rt != t {
			d := ir.OpError(op, "result type mismatch at index %d", i)
			d.AttachNote(op.Loc(), fmt.Sprintf("      op result types: %s", typeList(op.ResultTypes())))
			d.AttachNote(op.Loc(), fmt.Sprintf("function result types: %s", typeList(ft.Results)))
			return d
		}
	}
	return nil
}

func typeList(ts []ir.Type) string {
	s := ""
	for i, t := range ts {
		if i > 0 {
			s += ", "
		}
		s += "'" + t.String() + "'"
	}
	return s
}

func verifyCallIndirect(op *ir.Operation) error {
	if op.NumOperands() == 0 {
		return ir.OpError(op, "requires a callee operand")
	}
	ft, ok := op.Operand(0).Type().(*ir.FunctionType)
	if !ok {
		return ir.OpError(op, "operand #0 must be function type, but got '%s'", op.Operand(0).Type())
	}
	if len(ft.Inputs) != op.NumOperands()-1 {
		return ir.OpError(op, "incorrect number of operands for callee")
	}
	for i, t := range ft.Inputs {
		if op.Operand(i+1).Type() != t {
			return ir.OpError(op, "operand type mismatch: expected operand type '%s', but provided '%s' for operand number %d", t, op.Operand(i+1).Type(), i)
		}
	}
	if len(ft.Results) != op.NumResults() {
		return ir.OpError(op, "incorrect number of results for callee")
	}
	for i, t := range ft.Results {
		if op.Result(i).Type() != t {
			return ir.OpError(op, "result type mismatch at index %d", i)
		}
	}
	return nil
}

func verifyConstantSymbol(op *ir.Operation, st *ir.SymbolTableCollection) error {
	ref, ok := op.Attr("value").(*ir.SymbolRefAttr)
	if !ok {
		return ir.OpError(op, "requires attribute 'value'")
	}
	f, ok := AsFunc(st.LookupNearest(op, ref))
	if !ok {
		return ir.OpError(op, "reference to undefined function '%s'", ref.Root)
	}
	if op.NumResults() != 1 || op.Result(0).Type() != ir.Type(f.Type()) {
		return ir.OpError(op, "reference to function with mismatched type")
	}
	return nil
}

// materialize makes a func.constant for a folded symbol reference of
// function type, as MLIR's func dialect does.
func materialize(b *ir.Builder, value ir.Attribute, t ir.Type, loc ir.Location) *ir.Operation {
	ref, ok := value.(*ir.SymbolRefAttr)
	if _, isFn := t.(*ir.FunctionType); !ok || !isFn || len(ref.Nested) > 0 {
		return nil
	}
	return b.CreateOp(ConstantName, loc, nil, []ir.Type{t}, ir.NamedAttr{Name: "value", Value: ref})
}
