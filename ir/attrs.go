package ir

import (
	"math/big"
	"strings"
	"sync/atomic"
)

// Attribute is an MLIR attribute: a compile-time constant value. Attributes
// are immutable and uniqued by a Context (except DistinctAttr, which is
// unique by construction), so equal attributes are the same value; compare
// them with ==.
type Attribute interface {
	// String returns the attribute in MLIR syntax, without aliases.
	String() string
	walkSubElements(fnT func(Type), fnA func(Attribute))
}

// TypedAttr is implemented by attributes that carry a type.
type TypedAttr interface {
	Attribute
	AttrType() Type
}

// IntegerAttr is an integer of an integer or index type (`42 : i32`,
// `true`). Values wider than 64 bits are held in Big.
type IntegerAttr struct {
	Type  Type
	Value int64    // the value, sign-extended from its width
	Big   *big.Int // non-nil when the width exceeds 64 bits
}

// FloatAttr is a float of a float type (`1.5 : f32`).
type FloatAttr struct {
	Type *FloatType
	v    apfloat
	// printed caches the MLIR spelling, which takes exact decimal
	// arithmetic to find; the same attribute is printed many times.
	printed atomic.Pointer[floatText]
}

type floatText struct {
	s   string
	hex bool
}

// text returns the value as MLIR prints it and whether that is hex.
func (a *FloatAttr) text() (string, bool) {
	if t := a.printed.Load(); t != nil {
		return t.s, t.hex
	}
	s, hex := formatFloatMLIR(a.v)
	a.printed.Store(&floatText{s, hex})
	return s, hex
}

// StringAttr is a string (`"abc"`), optionally typed (`"abc" : i32`). Type is
// nil for an untyped string.
type StringAttr struct {
	Value string
	Type  Type
}

// UnitAttr is `unit`, the value of an attribute that is present or absent.
type UnitAttr struct{}

// TypeAttr wraps a type used as an attribute.
type TypeAttr struct {
	Value Type
}

// SymbolRefAttr is `@root` or `@root::@nested::@leaf`.
type SymbolRefAttr struct {
	Root   string
	Nested []string
}

// ArrayAttr is `[a, b, …]`.
type ArrayAttr struct {
	Elems []Attribute
}

// NamedAttr is one entry of a dictionary.
type NamedAttr struct {
	Name  string
	Value Attribute
}

// DictAttr is `{a = 1, b}`, with entries sorted by name and names unique.
type DictAttr struct {
	Entries []NamedAttr
}

// DenseArrayAttr is `array<i64: 1, 2>`: a flat array of integers or floats
// of one element type. Integer values are in Ints, float values in Floats.
type DenseArrayAttr struct {
	Elem   Type
	Ints   []int64
	Floats []apfloat
}

// StridedLayoutAttr is `strided<[s0, s1], offset: o>`; Dynamic marks `?`.
type StridedLayoutAttr struct {
	Strides []int64
	Offset  int64
}

// DistinctAttr is `distinct[N]<attr>`: an attribute that is unique even when
// its referenced attribute is equal to another's. The printer renumbers them.
type DistinctAttr struct {
	Referenced Attribute
	id         uint64
}

// OpaqueAttr is an attribute of an unregistered dialect, kept as text:
// `#foo.bar<1>` has Dialect "foo" and Data "bar<1>". Type is nil unless a
// `: type` suffix was given.
type OpaqueAttr struct {
	Dialect string
	Data    string
	Type    Type
}

// DialectAttr is implemented by attributes that registered dialects define.
// Such attributes embed AttrBase and print themselves after `#dialect.`.
type DialectAttr interface {
	Attribute
	DialectNamespace() string
	PrintBody(p *AsmPrinter)
}

// AttrBase is embedded by attributes that dialect packages define.
type AttrBase struct{}

//lint:ignore U1000 used by dialect attributes that embed AttrBase
func (AttrBase) walkSubElements(func(Type), func(Attribute)) {}

// Float returns the value as a float64 (rounded for wider types).
func (a *FloatAttr) Float() float64 { return a.v.float64Value() }

// AttrType returns the attribute's type.
func (a *FloatAttr) AttrType() Type { return a.Type }

// AttrType returns the attribute's type.
func (a *IntegerAttr) AttrType() Type { return a.Type }

// BigValue returns the value as a big.Int.
func (a *IntegerAttr) BigValue() *big.Int {
	if a.Big != nil {
		return new(big.Int).Set(a.Big)
	}
	return big.NewInt(a.Value)
}

// Get returns the value of the named entry, or nil.
func (d *DictAttr) Get(name string) Attribute {
	if d == nil {
		return nil
	}
	// Dictionaries are short; a linear scan beats a binary search below
	// about eight entries and is simpler.
	if len(d.Entries) < 8 {
		for i := range d.Entries {
			if d.Entries[i].Name == name {
				return d.Entries[i].Value
			}
		}
		return nil
	}
	lo, hi := 0, len(d.Entries)
	for lo < hi {
		m := (lo + hi) / 2
		if d.Entries[m].Name < name {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(d.Entries) && d.Entries[lo].Name == name {
		return d.Entries[lo].Value
	}
	return nil
}

// Len returns the number of entries (0 for a nil dictionary).
func (d *DictAttr) Len() int {
	if d == nil {
		return 0
	}
	return len(d.Entries)
}

func (a *IntegerAttr) String() string       { return attrString(a) }
func (a *FloatAttr) String() string         { return attrString(a) }
func (a *StringAttr) String() string        { return attrString(a) }
func (a *UnitAttr) String() string          { return "unit" }
func (a *TypeAttr) String() string          { return attrString(a) }
func (a *SymbolRefAttr) String() string     { return attrString(a) }
func (a *ArrayAttr) String() string         { return attrString(a) }
func (a *DictAttr) String() string          { return attrString(a) }
func (a *DenseArrayAttr) String() string    { return attrString(a) }
func (a *StridedLayoutAttr) String() string { return attrString(a) }
func (a *DistinctAttr) String() string      { return attrString(a) }
func (a *OpaqueAttr) String() string        { return attrString(a) }

func (a *IntegerAttr) walkSubElements(fn func(Type), _ func(Attribute)) { fn(a.Type) }
func (a *FloatAttr) walkSubElements(fn func(Type), _ func(Attribute))   { fn(a.Type) }
func (a *StringAttr) walkSubElements(fn func(Type), _ func(Attribute)) {
	if a.Type != nil {
		fn(a.Type)
	}
}
func (a *UnitAttr) walkSubElements(func(Type), func(Attribute))      {}
func (a *TypeAttr) walkSubElements(fn func(Type), _ func(Attribute)) { fn(a.Value) }
func (a *SymbolRefAttr) walkSubElements(func(Type), func(Attribute)) {}
func (a *ArrayAttr) walkSubElements(_ func(Type), fa func(Attribute)) {
	for _, e := range a.Elems {
		fa(e)
	}
}
func (a *DictAttr) walkSubElements(_ func(Type), fa func(Attribute)) {
	for _, e := range a.Entries {
		fa(e.Value)
	}
}
func (a *DenseArrayAttr) walkSubElements(fn func(Type), _ func(Attribute)) { fn(a.Elem) }
func (a *StridedLayoutAttr) walkSubElements(func(Type), func(Attribute))   {}
func (a *DistinctAttr) walkSubElements(_ func(Type), fa func(Attribute)) {
	fa(a.Referenced)
}
func (a *OpaqueAttr) walkSubElements(fn func(Type), _ func(Attribute)) {
	if a.Type != nil {
		fn(a.Type)
	}
}

func attrString(a Attribute) string {
	var sb strings.Builder
	p := newPlainPrinter(&sb)
	p.PrintAttr(a)
	p.flush()
	return sb.String()
}

func typeKeyOf(t Type) string {
	if k := t.key(); k != "" {
		return k
	}
	return t.String()
}

// IsStringAttr, IsTypeAttr, IsArrayAttr and IsFlatSymbolRef test an
// attribute's class, as properties are checked when set from the generic
// form (OpDef.PropClasses).
func IsStringAttr(a Attribute) bool { _, ok := a.(*StringAttr); return ok }

// IsTypeAttr reports whether a is a type attribute.
func IsTypeAttr(a Attribute) bool { _, ok := a.(*TypeAttr); return ok }

// IsArrayAttr reports whether a is an array attribute.
func IsArrayAttr(a Attribute) bool { _, ok := a.(*ArrayAttr); return ok }

// IsFlatSymbolRef reports whether a is a symbol reference without nested
// references (MLIR's FlatSymbolRefAttr).
func IsFlatSymbolRef(a Attribute) bool {
	r, ok := a.(*SymbolRefAttr)
	return ok && len(r.Nested) == 0
}
