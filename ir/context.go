package ir

import (
	"sort"
	"strings"
	"sync"
)

// Context owns everything that is shared by the IR of one compilation: the
// registered dialects and op definitions, the uniqued types and attributes,
// and the blobs of dense resources. There is no global state: two Contexts
// in one process are fully independent. A Context is safe for concurrent
// use by passes running in parallel.
type Context struct {
	// AllowUnregistered lets the parser and verifier accept ops of dialects
	// that are not registered (they are kept in generic form).
	AllowUnregistered bool

	mu       sync.Mutex
	dialects map[string]*Dialect
	opNames  map[string]*OpName
	types    map[string]Type
	intTypes map[intTypeKey]*IntegerType
	attrs    attrUniquer
	distinct uint64

	diags DiagEngine
	// msgPrint is how ops print inside diagnostic messages.
	msgPrint PrintOptions

	resourceMu sync.Mutex
	resources  map[string]*ResourceBlob
	// opaqueResources holds resource groups of dialects rlx keeps opaque.
	opaqueResources map[string]map[string]string

	// Frequently used values, made once.
	unknownLoc   *UnknownLoc
	unit         *UnitAttr
	index        *IndexType
	none         *NoneType
	i1, i32, i64 *IntegerType
	f32, f64     *FloatType
	emptyDict    *DictAttr
}

// NewContext returns a context with only the builtin dialect registered.
func NewContext() *Context {
	c := &Context{
		dialects:  map[string]*Dialect{},
		opNames:   map[string]*OpName{},
		types:     map[string]Type{},
		intTypes:  map[intTypeKey]*IntegerType{},
		attrs:     newAttrUniquer(),
		resources: map[string]*ResourceBlob{},
	}
	c.unknownLoc = c.uniqueAttr(&UnknownLoc{}).(*UnknownLoc)
	c.unit = c.uniqueAttr(&UnitAttr{}).(*UnitAttr)
	c.index = c.uniqueType(&IndexType{}).(*IndexType)
	c.none = c.uniqueType(&NoneType{}).(*NoneType)
	c.i1 = c.IntegerType(1, Signless)
	c.i32 = c.IntegerType(32, Signless)
	c.i64 = c.IntegerType(64, Signless)
	c.f32 = c.FloatType("f32")
	c.f64 = c.FloatType("f64")
	c.emptyDict = c.uniqueAttr(&DictAttr{}).(*DictAttr)
	return c
}

// Trait is a property of an op definition that generic code relies on.
type Trait uint32

const (
	// TraitIsolatedFromAbove: regions may not use values defined outside.
	TraitIsolatedFromAbove Trait = 1 << iota
	// TraitTerminator: the op must be last in its block.
	TraitTerminator
	// TraitSymbolTable: the op's single region holds symbols with unique names.
	TraitSymbolTable
	// TraitSymbol: the op defines a symbol (sym_name).
	TraitSymbol
	// TraitPure: no side effects; results depend only on operands.
	TraitPure
	// TraitNoTerminator: the op's single-block regions need no terminator.
	TraitNoTerminator
	// TraitSingleBlock: each region has at most one block.
	TraitSingleBlock
	// TraitGraphRegion: the op's regions are graph regions (no dominance).
	TraitGraphRegion
	// TraitReturnLike: the op returns control and values to its parent
	// (func.return, mps.yield), MLIR's ReturnLike.
	TraitReturnLike
	// TraitConstantLike: the op has no operands and one result whose value
	// is known (MLIR's ConstantLike); the folder and CSE materialise and
	// merge such ops.
	TraitConstantLike
	// TraitCommutative: the op's operands may be reordered (MLIR's
	// Commutative); operation equivalence compares them as a multiset.
	TraitCommutative
)

// OpDef describes a registered op as data: its name, traits, verifier,
// custom assembly hooks and folder.
type OpDef struct {
	Name    string // full name, e.g. "func.return"
	Summary string
	Traits  Trait
	// InherentAttrs are the names of the op's inherent attributes, stored
	// as properties and printed in `<{…}>` in the generic form.
	InherentAttrs []string
	// PropClasses, when set, checks the class of some properties as
	// MLIR's setPropertiesFromAttr does when an op is built from its
	// generic form: a property whose attribute fails the check is an
	// "Invalid attribute … in property conversion".
	PropClasses map[string]func(Attribute) bool
	// Counts, when set, fixes the number of operands, results, regions and
	// successors; the generic verifier checks them (with MLIR's messages)
	// before Verify runs, so Verify may index them freely.
	Counts *OpCounts
	// Verify checks the op's own invariants; nil means nothing to check.
	Verify func(op *Operation) error
	// VerifyRegions runs after the regions have been verified.
	VerifyRegions func(op *Operation) error
	// VerifySymbolUses checks symbol references once the whole top-level
	// op has been verified, so symbols may be used before they are defined.
	VerifySymbolUses func(op *Operation, st *SymbolTableCollection) error
	// Parse parses the custom form after the op name; nil means the op
	// only has the generic form.
	Parse func(p OpAsmParser, st *OperationState) error
	// Print prints the custom form after the op name.
	Print func(p *OpPrinter, op *Operation)
	// Fold tries to fold the op given the constant values of its operands
	// (nil for non-constant ones). It returns one result per op result:
	// an Attribute (a constant) or a *Value (an existing value), or nil
	// when nothing folds.
	Fold func(op *Operation, operands []Attribute) []FoldResult
	// DefaultDialect is the dialect whose ops may omit their prefix inside
	// this op's regions in the custom form ("func" for func.func).
	DefaultDialect string
	// ResultNames suggests names for results in the custom form
	// (`%c0`, `%cst`); nil means plain numbers.
	ResultNames func(op *Operation) []string

	inherent map[string]bool
}

// OpCounts fixes the shape of an op. Variadic leaves a count unchecked.
type OpCounts struct {
	Operands, Results, Regions, Successors int
}

// Variadic marks a count that is not fixed.
const Variadic = -1

// FoldResult is the result of folding one op result: either a constant
// attribute or an existing value.
type FoldResult struct {
	Attr  Attribute
	Value *Value
}

func (d *OpDef) isInherent(name string) bool { return d.inherent[name] }

// Dialect groups op definitions under a namespace.
type Dialect struct {
	Name string
	Ops  []*OpDef
	// Materialize creates a constant op for a folded value, or returns nil
	// when the dialect cannot.
	Materialize func(b *Builder, value Attribute, t Type, loc Location) *Operation
}

// OpName is an interned op name. Registered names point at their
// definition.
type OpName struct {
	name    string
	dialect string
	def     *OpDef
	ctx     *Context
}

// String returns the full name.
func (n *OpName) String() string { return n.name }

// Dialect returns the dialect prefix ("" when the name has no dot).
func (n *OpName) Dialect() string { return n.dialect }

// Def returns the definition, or nil when unregistered.
func (n *OpName) Def() *OpDef { return n.def }

// RegisterDialect adds a dialect and its ops. Registering the same dialect
// twice is a no-op.
func (c *Context) RegisterDialect(d *Dialect) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.dialects[d.Name]; ok {
		return
	}
	c.dialects[d.Name] = d
	for _, def := range d.Ops {
		def.inherent = map[string]bool{}
		for _, a := range def.InherentAttrs {
			def.inherent[a] = true
		}
		n := c.opNames[def.Name]
		if n == nil {
			n = &OpName{name: def.Name, dialect: dialectOf(def.Name), ctx: c}
			c.opNames[def.Name] = n
		}
		n.def = def
	}
}

// Dialect returns a registered dialect, or nil.
func (c *Context) Dialect(name string) *Dialect {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dialects[name]
}

// Dialects returns the registered dialects sorted by name.
func (c *Context) Dialects() []*Dialect {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]*Dialect, 0, len(c.dialects))
	for _, d := range c.dialects {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// IsDialectRegistered reports whether a dialect namespace is registered.
func (c *Context) IsDialectRegistered(name string) bool { return c.Dialect(name) != nil }

// OpName interns an op name. The result carries the definition when the op
// is registered.
func (c *Context) OpName(name string) *OpName {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.opNames[name]
	if n == nil {
		n = &OpName{name: name, dialect: dialectOf(name), ctx: c}
		c.opNames[name] = n
	}
	return n
}

// OpNameBytes is OpName for a byte slice; it allocates only for a name
// not seen before.
func (c *Context) OpNameBytes(name []byte) *OpName {
	c.mu.Lock()
	n := c.opNames[string(name)]
	c.mu.Unlock()
	if n != nil {
		return n
	}
	return c.OpName(string(name))
}

// LookupOpDef returns the definition of a registered op, or nil.
func (c *Context) LookupOpDef(name string) *OpDef {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := c.opNames[name]; n != nil {
		return n.def
	}
	return nil
}

func dialectOf(name string) string {
	if i := strings.IndexByte(name, '.'); i >= 0 {
		return name[:i]
	}
	return ""
}

func (c *Context) uniqueType(t Type) Type {
	k := typeKeyOf(t)
	c.mu.Lock()
	defer c.mu.Unlock()
	if u, ok := c.types[k]; ok {
		return u
	}
	c.types[k] = t
	return t
}

func (c *Context) uniqueAttr(a Attribute) Attribute {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.attrs.unique(a)
}

// UniqueType returns the context's copy of a dialect-defined type.
func (c *Context) UniqueType(t Type) Type { return c.uniqueType(t) }

// UniqueAttr returns the context's copy of a dialect-defined attribute.
func (c *Context) UniqueAttr(a Attribute) Attribute { return c.uniqueAttr(a) }

// SetMessagePrintOptions sets how ops print inside diagnostic messages
// (always in the generic form): mlir-opt's printing flags reach those
// prints too, so a tool sets here the options it prints its output with.
func (c *Context) SetMessagePrintOptions(o PrintOptions) {
	o.ExternalResources = nil
	c.msgPrint = o
}

// MessagePrintOptions returns the options for printing an op inside a
// diagnostic message: those set with SetMessagePrintOptions, in the
// generic form, local scope, and with elements attributes of more than 16
// elements elided, as MLIR appends an op to a diagnostic.
func (c *Context) MessagePrintOptions() PrintOptions {
	o := c.msgPrint
	o.Generic = true
	o.LocalScope = true
	o.ElideElementsAttrsIfLarger, o.ElideElementsAttrs = 16, true
	return o
}
