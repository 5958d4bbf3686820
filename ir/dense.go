package ir

import (
	"encoding/binary"
	"math"
	"math/big"
)

// DenseElementsAttr is `dense<…>` over integer, index, float or complex
// elements. Elements are stored little-endian, each scalar in
// ElemBytes(elementType) bytes (complex values as two scalars). A splat
// stores one element.
type DenseElementsAttr struct {
	Type  ShapedType
	Splat bool
	data  []byte
}

// DenseStringElementsAttr is `dense<["a", "b"]>` over a non-numeric element
// type.
type DenseStringElementsAttr struct {
	Type   ShapedType
	Splat  bool
	Values []string
}

// DenseResourceElementsAttr is `dense_resource<handle> : type`, whose data
// lives in the file's `{-# dialect_resources: {builtin: …} #-}` section.
type DenseResourceElementsAttr struct {
	Type   ShapedType
	Handle string
}

// SparseElementsAttr is `sparse<indices, values> : type`.
type SparseElementsAttr struct {
	Type    ShapedType
	Indices Attribute // DenseElementsAttr of i64
	Values  Attribute // DenseElementsAttr or DenseStringElementsAttr
}

// ElemBytes returns the storage size of one scalar of an element type of a
// dense attribute (the real part for complex types), or 0 when the type
// cannot be stored densely.
func ElemBytes(t Type) int {
	switch t := t.(type) {
	case *IntegerType:
		return (t.Width + 7) / 8
	case *IndexType:
		return 8
	case *FloatType:
		return (t.Sem.Bits + 7) / 8
	case *ComplexType:
		return ElemBytes(t.Elem)
	}
	return 0
}

// RawData returns the stored bytes. The slice must not be modified.
func (a *DenseElementsAttr) RawData() []byte { return a.data }

// NumElements returns the element count of the attribute's type.
func (a *DenseElementsAttr) NumElements() int64 { return NumElements(a.Type) }

func (a *DenseElementsAttr) scalarBytes() int { return ElemBytes(a.Type.ElementType()) }

func (a *DenseElementsAttr) isComplex() bool {
	_, ok := a.Type.ElementType().(*ComplexType)
	return ok
}

// elemOffset returns the byte offset of scalar k of element i (k is 1 for
// the imaginary part).
func (a *DenseElementsAttr) elemOffset(i int64, k int) int {
	if a.Splat {
		i = 0
	}
	sb := a.scalarBytes()
	per := sb
	if a.isComplex() {
		per *= 2
	}
	return int(i)*per + k*sb
}

// scalarBig reads an integer scalar as an unsigned pattern of width bits.
func readBits(b []byte, width int) *big.Int {
	be := make([]byte, len(b))
	for i := range b {
		be[len(b)-1-i] = b[i]
	}
	v := new(big.Int).SetBytes(be)
	if width < len(b)*8 {
		v.And(v, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(width)), big.NewInt(1)))
	}
	return v
}

func writeBits(dst []byte, v *big.Int) {
	// Two's complement, little-endian, truncated to len(dst).
	m := new(big.Int).Lsh(big.NewInt(1), uint(len(dst)*8))
	x := new(big.Int).Mod(v, m)
	be := x.Bytes()
	for i := range dst {
		dst[i] = 0
	}
	for i := range be {
		dst[i] = be[len(be)-1-i]
	}
}

// IntAt returns integer element i, sign- or zero-extended according to the
// element type (unsigned types are zero-extended; others sign-extended).
// Values that do not fit in 64 bits are truncated; use BigIntAt for those.
func (a *DenseElementsAttr) IntAt(i int64) int64 {
	off := a.elemOffset(i, 0)
	sb := a.scalarBytes()
	b := a.data[off : off+sb]
	width := 64
	signed := true
	if it, ok := a.Type.ElementType().(*IntegerType); ok {
		width = it.Width
		signed = it.Signedness != Unsigned && it.Width != 1
	}
	if sb <= 8 {
		var buf [8]byte
		copy(buf[:], b)
		u := binary.LittleEndian.Uint64(buf[:])
		if width < 64 {
			u &= 1<<uint(width) - 1
			if signed && u>>(uint(width)-1)&1 == 1 {
				u |= ^uint64(0) << uint(width)
			}
		}
		return int64(u)
	}
	return a.BigIntAt(i).Int64()
}

// BigIntAt returns integer element i as a big.Int, interpreted according to
// the element type's signedness.
func (a *DenseElementsAttr) BigIntAt(i int64) *big.Int {
	off := a.elemOffset(i, 0)
	sb := a.scalarBytes()
	width := 64
	signed := true
	if it, ok := a.Type.ElementType().(*IntegerType); ok {
		width = it.Width
		signed = it.Signedness != Unsigned && it.Width != 1
	}
	v := readBits(a.data[off:off+sb], width)
	if signed && width > 0 && v.Bit(width-1) == 1 {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), uint(width)))
	}
	return v
}

// floatAt decodes float scalar k of element i.
func (a *DenseElementsAttr) floatAt(i int64, k int, sem *FloatSemantics) apfloat {
	off := a.elemOffset(i, k)
	sb := a.scalarBytes()
	return decodeFloat(sem, readBits(a.data[off:off+sb], sem.Bits))
}

// FloatAt returns float element i as a float64.
func (a *DenseElementsAttr) FloatAt(i int64) float64 {
	ft, ok := a.Type.ElementType().(*FloatType)
	if !ok {
		return math.NaN()
	}
	if ft.Sem == semF32 {
		off := a.elemOffset(i, 0)
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(a.data[off:])))
	}
	if ft.Sem == semF64 {
		off := a.elemOffset(i, 0)
		return math.Float64frombits(binary.LittleEndian.Uint64(a.data[off:]))
	}
	return a.floatAt(i, 0, ft.Sem).float64Value()
}

// DenseBuilder accumulates the elements of a dense attribute.
type DenseBuilder struct {
	typ  ShapedType
	data []byte
	sb   int
}

// NewDenseBuilder starts a dense attribute of type t.
func NewDenseBuilder(t ShapedType) *DenseBuilder {
	return &DenseBuilder{typ: t, sb: ElemBytes(t.ElementType())}
}

// AppendInt appends an integer scalar (truncated to the element width).
func (b *DenseBuilder) AppendInt(v int64) {
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], uint64(v))
	if b.sb <= 8 {
		b.data = append(b.data, buf[:b.sb]...)
		return
	}
	b.AppendBigInt(big.NewInt(v))
}

// AppendBigInt appends an integer scalar of any width.
func (b *DenseBuilder) AppendBigInt(v *big.Int) {
	n := len(b.data)
	b.data = append(b.data, make([]byte, b.sb)...)
	writeBits(b.data[n:], v)
}

// AppendFloat appends a float scalar, rounding a float64 to the element's
// float format.
func (b *DenseBuilder) AppendFloat(v float64) {
	et := b.typ.ElementType()
	if ct, ok := et.(*ComplexType); ok {
		et = ct.Elem
	}
	ft := et.(*FloatType)
	b.appendAPFloat(floatFromFloat64(ft.Sem, v))
}

func (b *DenseBuilder) appendAPFloat(f apfloat) {
	n := len(b.data)
	b.data = append(b.data, make([]byte, b.sb)...)
	writeBits(b.data[n:], f.encode())
}

// AppendRaw appends raw little-endian bytes of one or more scalars.
func (b *DenseBuilder) AppendRaw(p []byte) { b.data = append(b.data, p...) }

// Len returns the number of scalars appended.
func (b *DenseBuilder) Len() int {
	if b.sb == 0 {
		return 0
	}
	return len(b.data) / b.sb
}

// Build returns the uniqued attribute. When all elements are equal it is
// stored as a splat, as MLIR does.
func (b *DenseBuilder) Build(ctx *Context) *DenseElementsAttr {
	return ctx.denseFromData(b.typ, b.data)
}

// DenseFromRaw makes a dense attribute from raw little-endian data holding
// either every element or exactly one (a splat).
func (c *Context) DenseFromRaw(t ShapedType, data []byte) *DenseElementsAttr {
	return c.denseFromData(t, append([]byte(nil), data...))
}

func (c *Context) denseFromData(t ShapedType, data []byte) *DenseElementsAttr {
	per := ElemBytes(t.ElementType())
	if _, ok := t.ElementType().(*ComplexType); ok {
		per *= 2
	}
	splat := len(data) > 0
	if per > 0 && len(data) > per {
		first := data[:per]
		for off := per; off < len(data); off += per {
			if string(data[off:off+per]) != string(first) {
				splat = false
				break
			}
		}
		if splat {
			data = data[:per]
		}
	}
	a := &DenseElementsAttr{Type: t, Splat: splat, data: data}
	return c.uniqueAttr(a).(*DenseElementsAttr)
}

// DenseFloats makes a dense float attribute of type t from float64 values,
// rounding each to the element type.
func (c *Context) DenseFloats(t ShapedType, vals []float64) *DenseElementsAttr {
	b := NewDenseBuilder(t)
	for _, v := range vals {
		b.AppendFloat(v)
	}
	return b.Build(c)
}

// DenseInts makes a dense integer attribute of type t.
func (c *Context) DenseInts(t ShapedType, vals []int64) *DenseElementsAttr {
	b := NewDenseBuilder(t)
	for _, v := range vals {
		b.AppendInt(v)
	}
	return b.Build(c)
}

// DenseStrings makes a dense string attribute.
func (c *Context) DenseStrings(t ShapedType, vals []string) *DenseStringElementsAttr {
	splat := len(vals) > 0
	for _, v := range vals[min(1, len(vals)):] {
		if v != vals[0] {
			splat = false
			break
		}
	}
	if splat {
		vals = vals[:1]
	}
	a := &DenseStringElementsAttr{Type: t, Splat: splat, Values: append([]string(nil), vals...)}
	return c.uniqueAttr(a).(*DenseStringElementsAttr)
}

func (a *DenseElementsAttr) String() string         { return attrString(a) }
func (a *DenseStringElementsAttr) String() string   { return attrString(a) }
func (a *DenseResourceElementsAttr) String() string { return attrString(a) }
func (a *SparseElementsAttr) String() string        { return attrString(a) }

func (a *DenseElementsAttr) walkSubElements(fn func(Type), _ func(Attribute)) { fn(a.Type) }
func (a *DenseStringElementsAttr) walkSubElements(fn func(Type), _ func(Attribute)) {
	fn(a.Type)
}
func (a *DenseResourceElementsAttr) walkSubElements(fn func(Type), _ func(Attribute)) {
	fn(a.Type)
}
func (a *SparseElementsAttr) walkSubElements(fn func(Type), fa func(Attribute)) {
	fn(a.Type)
	fa(a.Indices)
	fa(a.Values)
}

func (a *DenseElementsAttr) AttrType() Type       { return a.Type }
func (a *DenseStringElementsAttr) AttrType() Type { return a.Type }
func (a *DenseResourceElementsAttr) AttrType() Type {
	return a.Type
}
func (a *SparseElementsAttr) AttrType() Type { return a.Type }

// AppendFloatBits appends a float scalar given as its bit pattern.
func (b *DenseBuilder) AppendFloatBits(bits *big.Int) {
	n := len(b.data)
	b.data = append(b.data, make([]byte, b.sb)...)
	writeBits(b.data[n:], bits)
}

// AppendBool appends an i1 scalar.
func (b *DenseBuilder) AppendBool(v bool) {
	if v {
		b.AppendInt(1)
	} else {
		b.AppendInt(0)
	}
}

// DenseFloatArrayFromAttrs returns `array<fN: …>` holding the values of
// float attributes of type elem.
func (c *Context) DenseFloatArrayFromAttrs(elem *FloatType, vals []*FloatAttr) *DenseArrayAttr {
	fs := make([]apfloat, len(vals))
	for i, v := range vals {
		fs[i] = v.v
	}
	return c.uniqueAttr(&DenseArrayAttr{Elem: elem, Floats: fs}).(*DenseArrayAttr)
}
