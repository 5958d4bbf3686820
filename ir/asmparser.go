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

	ParseSymbolName() (string, error)
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
