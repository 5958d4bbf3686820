package ir

import (
	"math"
	"slices"
	"strings"
)

// Type is an MLIR type. Types are immutable and uniqued by a Context, so two
// types are equal exactly when they are the same value; compare them with ==.
//
// Builtin types are the concrete pointer types of this file. Types of other
// dialects are either *OpaqueType (the dialect is not registered, and the
// body is kept as text) or a type a dialect package defines by embedding
// TypeBase and implementing DialectType.
type Type interface {
	// String returns the type in MLIR syntax, without aliases.
	String() string
	// key returns a string that identifies the type among all types.
	key() string
	// walkSubElements visits the types and attributes the type refers to.
	walkSubElements(fnT func(Type), fnA func(Attribute))
}

// Dynamic marks a dynamic dimension (`?`) or a dynamic stride or offset.
const Dynamic int64 = math.MinInt64

// Signedness of an integer type.
type Signedness uint8

const (
	Signless Signedness = iota
	Signed
	Unsigned
)

// IntegerType is `iN`, `siN` or `uiN`.
type IntegerType struct {
	Width      int
	Signedness Signedness
}

// MaxIntegerWidth is the widest integer type MLIR accepts.
const MaxIntegerWidth = 1<<24 - 1

// IndexType is `index`.
type IndexType struct{}

// NoneType is `none`.
type NoneType struct{}

// FloatType is one of the builtin float types (`f32`, `bf16`, `f8E4M3FN`, …).
type FloatType struct {
	Sem *FloatSemantics
}

// ComplexType is `complex<T>`.
type ComplexType struct {
	Elem Type
}

// TupleType is `tuple<T, …>`.
type TupleType struct {
	Types []Type
}

// FunctionType is `(inputs) -> results`.
type FunctionType struct {
	Inputs  []Type
	Results []Type
}

// VectorType is `vector<4x[8]xf32>`; Scalable marks the dimensions written in
// brackets.
type VectorType struct {
	Shape    []int64
	Scalable []bool
	Elem     Type
}

// RankedTensorType is `tensor<2x?xf32, #encoding>`.
type RankedTensorType struct {
	Shape    []int64
	Elem     Type
	Encoding Attribute // nil when absent
}

// UnrankedTensorType is `tensor<*xf32>`.
type UnrankedTensorType struct {
	Elem Type
}

// MemRefType is `memref<4x?xf32, layout, memory-space>`. Layout is nil for
// the identity layout.
type MemRefType struct {
	Shape       []int64
	Elem        Type
	Layout      Attribute
	MemorySpace Attribute
}

// UnrankedMemRefType is `memref<*xf32, memory-space>`.
type UnrankedMemRefType struct {
	Elem        Type
	MemorySpace Attribute
}

// OpaqueType is a type of an unregistered dialect, kept as the text of its
// body: `!foo.bar<1, 2>` has Dialect "foo" and Data "bar<1, 2>".
type OpaqueType struct {
	Dialect string
	Data    string
}

// DialectType is implemented by types that registered dialects define.
// Such types embed TypeBase and print themselves after `!dialect.`.
type DialectType interface {
	Type
	// DialectNamespace returns the dialect prefix.
	DialectNamespace() string
	// PrintBody prints the part after `!dialect.`.
	PrintBody(p *AsmPrinter)
}

// ShapedType is implemented by vectors, tensors and memrefs.
type ShapedType interface {
	Type
	ElementType() Type
	// HasRank reports whether the shape is known.
	HasRank() bool
	// Dims returns the shape (nil when unranked).
	Dims() []int64
}

func (*RankedTensorType) HasRank() bool   { return true }
func (*UnrankedTensorType) HasRank() bool { return false }
func (*MemRefType) HasRank() bool         { return true }
func (*UnrankedMemRefType) HasRank() bool { return false }
func (*VectorType) HasRank() bool         { return true }

func (t *RankedTensorType) ElementType() Type   { return t.Elem }
func (t *UnrankedTensorType) ElementType() Type { return t.Elem }
func (t *MemRefType) ElementType() Type         { return t.Elem }
func (t *UnrankedMemRefType) ElementType() Type { return t.Elem }
func (t *VectorType) ElementType() Type         { return t.Elem }

func (t *RankedTensorType) Dims() []int64 { return t.Shape }
func (*UnrankedTensorType) Dims() []int64 { return nil }
func (t *MemRefType) Dims() []int64       { return t.Shape }
func (*UnrankedMemRefType) Dims() []int64 { return nil }
func (t *VectorType) Dims() []int64       { return t.Shape }

// NumElements returns the product of the dimensions, or -1 when a dimension
// is dynamic, the shape is unranked, or the product does not fit in an
// int64 (see ShapeElements).
func NumElements(t ShapedType) int64 {
	if !t.HasRank() {
		return -1
	}
	n, ok := ShapeElements(t.Dims())
	if !ok {
		return -1
	}
	return n
}

// ShapeElements returns the number of elements of a shape: the product of
// its dims, computed with overflow checks. It is the one place where rlx
// multiplies dims, so a shape like 4611686018427387905x4 cannot wrap around
// to 4 elements anywhere. A dynamic dim makes the count unknown (-1). ok
// is false when the product of the known dims does not fit in an int64, or
// a dim is negative; a zero dim makes the count 0 whatever the others.
func ShapeElements(dims []int64) (n int64, ok bool) {
	dynamic := false
	for _, d := range dims {
		switch {
		case d == 0:
			if slices.Contains(dims, Dynamic) {
				return -1, true
			}
			return 0, true
		case d == Dynamic:
			dynamic = true
		case d < 0:
			return -1, false
		}
	}
	n = 1
	for _, d := range dims {
		if d == Dynamic {
			continue
		}
		if n > math.MaxInt64/d {
			return -1, false
		}
		n *= d
	}
	if dynamic {
		return -1, true
	}
	return n, true
}

// MulSize multiplies two non-negative sizes (an element count and a byte
// width, say) with an overflow check.
func MulSize(a, b int64) (int64, bool) {
	if a < 0 || b < 0 || a != 0 && b > math.MaxInt64/a {
		return -1, false
	}
	return a * b, true
}

// SaturatingAdd returns a+b for non-negative a and b, or math.MaxInt64
// (which stands for "more than fits") when the sum does not fit: how
// statistics and byte counts add up.
func SaturatingAdd(a, b int64) int64 {
	if b > math.MaxInt64-a {
		return math.MaxInt64
	}
	return a + b
}

// HasStaticShape reports whether a shaped type is ranked with no dynamic
// dimension.
func HasStaticShape(t ShapedType) bool {
	return t.HasRank() && !slices.Contains(t.Dims(), Dynamic)
}

// IsSignless reports whether t is a signless integer type.
func (t *IntegerType) IsSignless() bool { return t.Signedness == Signless }

// Width returns the storage width of a float type in bits.
func (t *FloatType) Width() int { return t.Sem.Bits }

// Name returns the type's MLIR spelling.
func (t *FloatType) Name() string { return t.Sem.Name }

func (t *IntegerType) String() string        { return typeString(t) }
func (t *IndexType) String() string          { return "index" }
func (t *NoneType) String() string           { return "none" }
func (t *FloatType) String() string          { return t.Sem.Name }
func (t *ComplexType) String() string        { return typeString(t) }
func (t *TupleType) String() string          { return typeString(t) }
func (t *FunctionType) String() string       { return typeString(t) }
func (t *VectorType) String() string         { return typeString(t) }
func (t *RankedTensorType) String() string   { return typeString(t) }
func (t *UnrankedTensorType) String() string { return typeString(t) }
func (t *MemRefType) String() string         { return typeString(t) }
func (t *UnrankedMemRefType) String() string { return typeString(t) }
func (t *OpaqueType) String() string         { return typeString(t) }

func (t *IntegerType) key() string        { return t.String() }
func (t *IndexType) key() string          { return "index" }
func (t *NoneType) key() string           { return "none" }
func (t *FloatType) key() string          { return t.Sem.Name }
func (t *ComplexType) key() string        { return t.String() }
func (t *TupleType) key() string          { return t.String() }
func (t *FunctionType) key() string       { return t.String() }
func (t *VectorType) key() string         { return t.String() }
func (t *RankedTensorType) key() string   { return t.String() }
func (t *UnrankedTensorType) key() string { return t.String() }
func (t *MemRefType) key() string         { return t.String() }
func (t *UnrankedMemRefType) key() string { return t.String() }
func (t *OpaqueType) key() string         { return t.String() }

func (t *IntegerType) walkSubElements(func(Type), func(Attribute)) {}
func (t *IndexType) walkSubElements(func(Type), func(Attribute))   {}
func (t *NoneType) walkSubElements(func(Type), func(Attribute))    {}
func (t *FloatType) walkSubElements(func(Type), func(Attribute))   {}
func (t *ComplexType) walkSubElements(fn func(Type), _ func(Attribute)) {
	fn(t.Elem)
}
func (t *TupleType) walkSubElements(fn func(Type), _ func(Attribute)) {
	for _, e := range t.Types {
		fn(e)
	}
}
func (t *FunctionType) walkSubElements(fn func(Type), _ func(Attribute)) {
	for _, e := range t.Inputs {
		fn(e)
	}
	for _, e := range t.Results {
		fn(e)
	}
}
func (t *VectorType) walkSubElements(fn func(Type), _ func(Attribute)) { fn(t.Elem) }
func (t *RankedTensorType) walkSubElements(fn func(Type), fa func(Attribute)) {
	fn(t.Elem)
	if t.Encoding != nil {
		fa(t.Encoding)
	}
}
func (t *UnrankedTensorType) walkSubElements(fn func(Type), _ func(Attribute)) { fn(t.Elem) }
func (t *MemRefType) walkSubElements(fn func(Type), fa func(Attribute)) {
	fn(t.Elem)
	if t.Layout != nil {
		fa(t.Layout)
	}
	if t.MemorySpace != nil {
		fa(t.MemorySpace)
	}
}
func (t *UnrankedMemRefType) walkSubElements(fn func(Type), fa func(Attribute)) {
	fn(t.Elem)
	if t.MemorySpace != nil {
		fa(t.MemorySpace)
	}
}
func (t *OpaqueType) walkSubElements(func(Type), func(Attribute)) {}

// TypeBase is embedded by types that dialect packages define. It provides
// the unexported parts of the Type interface; the uniquing key is the
// printed form.
type TypeBase struct{}

//lint:ignore U1000 used by dialect types that embed TypeBase
func (TypeBase) walkSubElements(func(Type), func(Attribute)) {}

// typeString prints a type without aliases.
func typeString(t Type) string {
	var sb strings.Builder
	p := newPlainPrinter(&sb)
	p.PrintType(t)
	p.flush()
	return sb.String()
}

// IsFloat reports whether t is a builtin float type.
func IsFloat(t Type) bool {
	_, ok := t.(*FloatType)
	return ok
}

// IsInteger reports whether t is an integer type of the given width (any
// width when width is 0).
func IsInteger(t Type, width int) bool {
	it, ok := t.(*IntegerType)
	return ok && (width == 0 || it.Width == width)
}

// IsIntOrIndex reports whether t is an integer or index type.
func IsIntOrIndex(t Type) bool {
	switch t.(type) {
	case *IntegerType, *IndexType:
		return true
	}
	return false
}

//lint:ignore U1000 used by dialect types that embed TypeBase
func (TypeBase) key() string { return "" }
