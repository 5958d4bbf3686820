package ir

// OpAsmParser is what a custom-form parse hook (OpDef.Parse) uses to read
// the text after the op name. The asm package implements it; the methods
// mirror MLIR's OpAsmParser. Parse* methods fail with a located error when
// the input does not match; ParseOptional* methods report whether the item
// was present and fail only on malformed input.
type OpAsmParser interface {
	Context() *Context
	// Errorf returns an error located at the current token.
	Errorf(format string, args ...any) error
	// ErrorAt returns an error located at loc.
	ErrorAt(loc Location, format string, args ...any) error
	// CurrentLoc returns the location of the current token.
	CurrentLoc() Location

	ParseOperand() (UnresolvedOperand, error)
	ParseOptionalOperand() (UnresolvedOperand, bool, error)
	// ParseOperandList parses a comma-separated list of operands, possibly
	// empty.
	ParseOperandList() ([]UnresolvedOperand, error)
	ResolveOperand(u UnresolvedOperand, t Type) (*Value, error)
	ResolveOperands(us []UnresolvedOperand, ts []Type) ([]*Value, error)

	ParseType() (Type, error)
	ParseColonType() (Type, error)
	ParseColonTypeList() ([]Type, error)
	// ParseTypeList parses `T` or `(T, U, …)` (possibly empty parentheses).
	ParseTypeList() ([]Type, error)
	// ParseOptionalArrowTypeList parses `-> T` or `-> (T, …)`; nil when absent.
	ParseOptionalArrowTypeList() ([]Type, error)

	// ParseAttribute parses an attribute; t, when not nil, is the type of
	// untyped literals.
	ParseAttribute(t Type) (Attribute, error)
	ParseOptionalAttrDict() ([]NamedAttr, error)
	ParseOptionalAttrDictWithKeyword() ([]NamedAttr, error)

	// ParseSymbolName parses `@name`, as a symbol's own name is read.
	ParseSymbolName() (string, error)
	// ParseFlatSymbolRef parses an attribute that must be a symbol
	// reference without nested references, as ODS reads a
	// FlatSymbolRefAttr: any attribute is read first (typed none), so a
	// wrong one fails as an attribute of that kind would.
	ParseFlatSymbolRef() (*SymbolRefAttr, error)
	ParseOptionalSymbolName() (string, bool, error)
	ParseKeyword(kw string) error
	ParseOptionalKeyword(kw string) bool
	// ParseKeywordToken parses any bare identifier and returns it.
	ParseKeywordToken() (string, error)
	ParseOptionalKeywordToken() (string, bool)
	ParseString() (string, error)
	ParseOptionalString() (string, bool, error)
	ParseInteger() (int64, error)
	// ParsePunct parses one of ( ) [ ] { } < > , : = -> * ? + ...
	ParsePunct(p string) error
	ParseOptionalPunct(p string) bool

	// ParseRegion parses `{…}` into r. args, when not nil, become the
	// entry block's arguments (the region then may not declare its own).
	ParseRegion(r *Region, args []Argument) error
	ParseOptionalRegion(r *Region, args []Argument) (bool, error)
	// ParseArgument parses `%name` with `: type` when withType, then
	// optional `{attrs}` when withAttrs, and an optional `loc(…)`.
	ParseArgument(withType, withAttrs bool) (Argument, error)
	ParseOptionalArgument(withType, withAttrs bool) (Argument, bool, error)
	ParseOptionalLocationSpecifier() (Location, error)
}

// UnresolvedOperand is a value reference read by a custom parser before its
// type is known: `%name` or `%name#N`.
type UnresolvedOperand struct {
	Name   string
	Number int
	// Pos is the byte offset of the reference in the source; the parser
	// uses it to locate errors.
	Pos int
}

// Argument is a region argument read by a custom parser.
type Argument struct {
	Name  UnresolvedOperand
	Type  Type
	Attrs *DictAttr
	Loc   Location // explicit loc(…), or nil
}

// ParseColonFunctionType parses `: (A, B) -> R`, the functional type that
// custom forms write after a colon. Another kind of type is an error at
// the type, in MLIR's words.
func ParseColonFunctionType(p OpAsmParser) (*FunctionType, error) {
	if err := p.ParsePunct(":"); err != nil {
		return nil, err
	}
	loc := p.CurrentLoc()
	t, err := p.ParseType()
	if err != nil {
		return nil, err
	}
	ft, ok := t.(*FunctionType)
	if !ok {
		return nil, p.ErrorAt(loc, "invalid kind of type specified")
	}
	return ft, nil
}

// ParseReturnLike parses the form of return-like terminators (func.return,
// mps.yield, thunk.yield), MLIR's `attr-dict ($operands^ : type($operands))?`:
// `{attrs} %a, %b : T, U`, with neither operands nor types when there are
// no operands. PrintReturnLike prints it.
func ParseReturnLike(p OpAsmParser, st *OperationState) error {
	attrs, err := p.ParseOptionalAttrDict()
	if err != nil {
		return err
	}
	ops, err := p.ParseOperandList()
	if err != nil {
		return err
	}
	var ts []Type
	if len(ops) > 0 {
		if ts, err = p.ParseColonTypeList(); err != nil {
			return err
		}
	}
	vals, err := p.ResolveOperands(ops, ts)
	if err != nil {
		return err
	}
	st.Operands = vals
	st.Attrs = attrs
	return nil
}

// PrintReturnLike prints the form ParseReturnLike reads.
func PrintReturnLike(p *OpPrinter, op *Operation) {
	p.PrintOptionalAttrDict(op.Attrs())
	if op.NumOperands() > 0 {
		p.WriteString(" ")
		p.PrintOperands(op.Operands())
		p.WriteString(" : ")
		p.PrintTypes(op.OperandTypes())
	}
}

// ParseCallLike parses the form of func.call and of the outlined region
// ops' headers, `@sym(%a, %b) {attrs} : (A, B) -> R`, into st: the
// operands resolved with the function type's inputs, its results as the
// result types, the attribute dictionary. It returns the symbol name.
// The dictionary may not hold the names in inferred, which the custom form
// spells out (an outlined region op's sym_name): that is an error, worded
// as func.func's.
func ParseCallLike(p OpAsmParser, st *OperationState, inferred ...string) (string, error) {
	name, err := p.ParseSymbolName()
	if err != nil {
		return "", err
	}
	return name, ParseCallOperands(p, st, inferred...)
}

// ParseCallOperands parses what follows the symbol in ParseCallLike's
// form: `(%a, %b) {attrs} : (A, B) -> R`.
func ParseCallOperands(p OpAsmParser, st *OperationState, inferred ...string) error {
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
	dictLoc := p.CurrentLoc()
	attrs, err := p.ParseOptionalAttrDict()
	if err != nil {
		return err
	}
	for _, a := range attrs {
		for _, n := range inferred {
			if a.Name == n {
				return p.ErrorAt(dictLoc, "'%s' is an inferred attribute and should not be specified in the explicit attribute dictionary", n)
			}
		}
	}
	ft, err := ParseColonFunctionType(p)
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
