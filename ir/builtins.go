package ir

import (
	"math/big"
	"slices"
	"strings"
)

// IntegerType returns `iN`, `siN` or `uiN`.
func (c *Context) IntegerType(width int, s Signedness) *IntegerType {
	k := intTypeKey{width, s}
	c.mu.Lock()
	t := c.intTypes[k]
	c.mu.Unlock()
	if t != nil {
		return t
	}
	t = c.uniqueType(&IntegerType{Width: width, Signedness: s}).(*IntegerType)
	c.mu.Lock()
	c.intTypes[k] = t
	c.mu.Unlock()
	return t
}

type intTypeKey struct {
	width int
	s     Signedness
}

// I1, I32, I64, Index, None, F32 and F64 return common types.
func (c *Context) I1() *IntegerType     { return c.i1 }
func (c *Context) I32() *IntegerType    { return c.i32 }
func (c *Context) I64() *IntegerType    { return c.i64 }
func (c *Context) Index() *IndexType    { return c.index }
func (c *Context) None() *NoneType      { return c.none }
func (c *Context) F32() *FloatType      { return c.f32 }
func (c *Context) F64() *FloatType      { return c.f64 }
func (c *Context) UnknownLoc() Location { return c.unknownLoc }

// FloatType returns the float type with the given MLIR spelling (nil when
// there is no such type).
func (c *Context) FloatType(name string) *FloatType {
	s := floatSemanticsByName(name)
	if s == nil {
		return nil
	}
	return c.uniqueType(&FloatType{Sem: s}).(*FloatType)
}

// ComplexType returns `complex<elem>`.
func (c *Context) ComplexType(elem Type) *ComplexType {
	return c.uniqueType(&ComplexType{Elem: elem}).(*ComplexType)
}

// TupleType returns `tuple<…>`.
func (c *Context) TupleType(types []Type) *TupleType {
	return c.uniqueType(&TupleType{Types: append([]Type(nil), types...)}).(*TupleType)
}

// FunctionType returns `(inputs) -> results`.
func (c *Context) FunctionType(inputs, results []Type) *FunctionType {
	return c.uniqueType(&FunctionType{Inputs: append([]Type(nil), inputs...), Results: append([]Type(nil), results...)}).(*FunctionType)
}

// VectorType returns `vector<…>`; scalable may be nil.
func (c *Context) VectorType(shape []int64, scalable []bool, elem Type) *VectorType {
	sc := make([]bool, len(shape))
	copy(sc, scalable)
	return c.uniqueType(&VectorType{Shape: append([]int64(nil), shape...), Scalable: sc, Elem: elem}).(*VectorType)
}

// TensorType returns a ranked tensor type without encoding.
func (c *Context) TensorType(shape []int64, elem Type) *RankedTensorType {
	return c.RankedTensorType(shape, elem, nil)
}

// RankedTensorType returns `tensor<shape x elem, encoding>`.
func (c *Context) RankedTensorType(shape []int64, elem Type, encoding Attribute) *RankedTensorType {
	return c.uniqueType(&RankedTensorType{Shape: append([]int64{}, shape...), Elem: elem, Encoding: encoding}).(*RankedTensorType)
}

// UnrankedTensorType returns `tensor<*xelem>`.
func (c *Context) UnrankedTensorType(elem Type) *UnrankedTensorType {
	return c.uniqueType(&UnrankedTensorType{Elem: elem}).(*UnrankedTensorType)
}

// MemRefType returns `memref<…>`; layout nil means identity. An identity
// affine map layout is dropped, as MLIR does.
func (c *Context) MemRefType(shape []int64, elem Type, layout, memSpace Attribute) *MemRefType {
	if m, ok := layout.(*AffineMapAttr); ok && m.Map.IsIdentity() {
		layout = nil
	}
	if ia, ok := memSpace.(*IntegerAttr); ok && ia.Big == nil && ia.Value == 0 {
		if it, ok := ia.Type.(*IntegerType); ok && it.Width == 64 && it.Signedness == Signless {
			memSpace = nil
		}
	}
	return c.uniqueType(&MemRefType{Shape: append([]int64{}, shape...), Elem: elem, Layout: layout, MemorySpace: memSpace}).(*MemRefType)
}

// UnrankedMemRefType returns `memref<*xelem, memSpace>`.
func (c *Context) UnrankedMemRefType(elem Type, memSpace Attribute) *UnrankedMemRefType {
	if ia, ok := memSpace.(*IntegerAttr); ok && ia.Big == nil && ia.Value == 0 {
		if it, ok := ia.Type.(*IntegerType); ok && it.Width == 64 && it.Signedness == Signless {
			memSpace = nil
		}
	}
	return c.uniqueType(&UnrankedMemRefType{Elem: elem, MemorySpace: memSpace}).(*UnrankedMemRefType)
}

// OpaqueType returns a type of an unregistered dialect.
func (c *Context) OpaqueType(dialect, data string) *OpaqueType {
	return c.uniqueType(&OpaqueType{Dialect: dialect, Data: data}).(*OpaqueType)
}

// IntegerAttr returns an integer attribute of an integer or index type. The
// value is truncated to the type's width and sign- or zero-extended back
// (zero for unsigned types).
func (c *Context) IntegerAttr(t Type, v int64) *IntegerAttr {
	if it, ok := t.(*IntegerType); ok && it.Width > 64 {
		return c.BigIntegerAttr(t, big.NewInt(v))
	}
	v = normalizeInt(t, v)
	c.mu.Lock()
	defer c.mu.Unlock()
	h := c.attrs.hashInt(t, v)
	return c.attrs.probe(h, func(a Attribute) bool {
		i, ok := a.(*IntegerAttr)
		return ok && i.Type == t && i.Value == v && i.Big == nil
	}, func() Attribute { return &IntegerAttr{Type: t, Value: v} }).(*IntegerAttr)
}

func normalizeInt(t Type, v int64) int64 {
	it, ok := t.(*IntegerType)
	if !ok || it.Width >= 64 {
		return v
	}
	w := uint(it.Width)
	u := uint64(v) & (1<<w - 1)
	// Signless i1 keeps 0 or 1 (printed as false/true); other signless and
	// signed types are sign-extended, so si1 holds 0 or -1.
	signed := it.Signedness == Signed || it.Signedness == Signless && it.Width > 1
	if signed && u>>(w-1)&1 == 1 {
		u |= ^uint64(0) << w
	}
	return int64(u)
}

// BigIntegerAttr returns an integer attribute whose value may exceed 64
// bits. The value is reduced to the type's width.
func (c *Context) BigIntegerAttr(t Type, v *big.Int) *IntegerAttr {
	it, ok := t.(*IntegerType)
	if !ok || it.Width <= 64 {
		if ok && it.Width < 64 {
			return c.IntegerAttr(t, truncBig(v, it.Width, it.Signedness).Int64())
		}
		// 64-bit or index: keep the low 64 bits as a two's complement value.
		x := truncBig(v, 64, Signed)
		if ok && it.Signedness == Unsigned {
			x = truncBig(v, 64, Unsigned)
			return c.uniqueAttr(&IntegerAttr{Type: t, Value: int64(x.Uint64())}).(*IntegerAttr)
		}
		return c.uniqueAttr(&IntegerAttr{Type: t, Value: x.Int64()}).(*IntegerAttr)
	}
	x := truncBig(v, it.Width, it.Signedness)
	return c.uniqueAttr(&IntegerAttr{Type: t, Value: x.Int64(), Big: x}).(*IntegerAttr)
}

// truncBig reduces v modulo 2^width and reinterprets it as signed (for
// signless and signed types) or unsigned.
func truncBig(v *big.Int, width int, s Signedness) *big.Int {
	m := new(big.Int).Lsh(big.NewInt(1), uint(width))
	x := new(big.Int).Mod(v, m)
	if s != Unsigned && width > 1 && x.Bit(width-1) == 1 {
		x.Sub(x, m)
	}
	return x
}

// BoolAttr returns `true` or `false` (an i1 integer attribute).
func (c *Context) BoolAttr(b bool) *IntegerAttr {
	if b {
		return c.IntegerAttr(c.i1, 1)
	}
	return c.IntegerAttr(c.i1, 0)
}

// FloatAttr returns a float attribute, rounding v to the type.
func (c *Context) FloatAttr(t *FloatType, v float64) *FloatAttr {
	return c.uniqueAttr(&FloatAttr{Type: t, v: floatFromFloat64(t.Sem, v)}).(*FloatAttr)
}

func (c *Context) floatAttrAP(t *FloatType, v apfloat) *FloatAttr {
	return c.uniqueAttr(&FloatAttr{Type: t, v: v}).(*FloatAttr)
}

// FloatAttrFromBits returns a float attribute with the given bit pattern.
func (c *Context) FloatAttrFromBits(t *FloatType, bits *big.Int) *FloatAttr {
	return c.floatAttrAP(t, decodeFloat(t.Sem, bits))
}

// StringAttr returns an untyped string attribute.
func (c *Context) StringAttr(s string) *StringAttr {
	return c.StringAttrBytes(bytesOfString(s))
}

// StringAttrBytes is StringAttr for a byte slice; the bytes are copied only
// when the string is new.
func (c *Context) StringAttrBytes(b []byte) *StringAttr {
	c.mu.Lock()
	defer c.mu.Unlock()
	h := c.attrs.hashString(b)
	return c.attrs.probe(h, func(a Attribute) bool {
		s, ok := a.(*StringAttr)
		return ok && s.Type == nil && s.Value == string(b)
	}, func() Attribute { return &StringAttr{Value: string(b)} }).(*StringAttr)
}

// TypedStringAttr returns `"s" : t`.
func (c *Context) TypedStringAttr(s string, t Type) *StringAttr {
	return c.uniqueAttr(&StringAttr{Value: s, Type: t}).(*StringAttr)
}

// UnitAttr returns `unit`.
func (c *Context) UnitAttr() *UnitAttr { return c.unit }

// TypeAttr wraps a type.
func (c *Context) TypeAttr(t Type) *TypeAttr {
	return c.uniqueAttr(&TypeAttr{Value: t}).(*TypeAttr)
}

// SymbolRef returns `@root::@nested…`.
func (c *Context) SymbolRef(root string, nested ...string) *SymbolRefAttr {
	return c.uniqueAttr(&SymbolRefAttr{Root: root, Nested: append([]string(nil), nested...)}).(*SymbolRefAttr)
}

// ArrayAttr returns `[…]`.
func (c *Context) ArrayAttr(elems []Attribute) *ArrayAttr {
	return c.uniqueAttr(&ArrayAttr{Elems: append([]Attribute(nil), elems...)}).(*ArrayAttr)
}

// Dict returns a dictionary of the entries, sorted by name. When a name
// repeats, the last entry wins.
func (c *Context) Dict(entries []NamedAttr) *DictAttr {
	if len(entries) == 0 {
		return c.emptyDict
	}
	es := sortedEntries(entries, true)
	c.mu.Lock()
	defer c.mu.Unlock()
	h := c.attrs.hashDict(es)
	return c.attrs.probe(h, func(a Attribute) bool {
		d, ok := a.(*DictAttr)
		if !ok || len(d.Entries) != len(es) {
			return false
		}
		for i := range es {
			if d.Entries[i] != es[i] {
				return false
			}
		}
		return true
	}, func() Attribute {
		if &es[0] == &entries[0] {
			// Sorted already, so still the caller's slice.
			es = append([]NamedAttr(nil), es...)
		}
		return &DictAttr{Entries: es}
	}).(*DictAttr)
}

// sortedEntries returns entries sorted by name, duplicates keeping the
// last value. It copies them unless they are sorted already and mayAlias
// says the caller does not keep the result.
func sortedEntries(entries []NamedAttr, mayAlias bool) []NamedAttr {
	sorted := true
	for i := 1; i < len(entries); i++ {
		if entries[i-1].Name >= entries[i].Name {
			sorted = false
			break
		}
	}
	if sorted && mayAlias {
		return entries
	}
	es := append([]NamedAttr(nil), entries...)
	if sorted {
		return es
	}
	slices.SortStableFunc(es, func(a, b NamedAttr) int { return strings.Compare(a.Name, b.Name) })
	out := es[:0]
	for i, e := range es {
		if i+1 < len(es) && es[i+1].Name == e.Name {
			continue
		}
		out = append(out, e)
	}
	return out
}

// setInDict returns d with name set to value (removed when value is nil).
func (c *Context) setInDict(d *DictAttr, name string, value Attribute) *DictAttr {
	var es []NamedAttr
	if d != nil {
		for _, e := range d.Entries {
			if e.Name != name {
				es = append(es, e)
			}
		}
	}
	if value != nil {
		es = append(es, NamedAttr{Name: name, Value: value})
	}
	return c.Dict(es)
}

// DenseI64Array returns `array<i64: …>`.
func (c *Context) DenseI64Array(vals []int64) *DenseArrayAttr {
	return c.DenseIntArray(c.i64, vals)
}

// DenseIntArray returns `array<iN: …>` (also used for i1 arrays).
func (c *Context) DenseIntArray(elem Type, vals []int64) *DenseArrayAttr {
	return c.uniqueAttr(&DenseArrayAttr{Elem: elem, Ints: append([]int64{}, vals...)}).(*DenseArrayAttr)
}

// DenseFloatArray returns `array<f32: …>` or `array<f64: …>`.
func (c *Context) DenseFloatArray(elem *FloatType, vals []float64) *DenseArrayAttr {
	fs := make([]apfloat, len(vals))
	for i, v := range vals {
		fs[i] = floatFromFloat64(elem.Sem, v)
	}
	return c.uniqueAttr(&DenseArrayAttr{Elem: elem, Floats: fs}).(*DenseArrayAttr)
}

// FloatValues returns the values of a float dense array.
func (a *DenseArrayAttr) FloatValues() []float64 {
	out := make([]float64, len(a.Floats))
	for i, f := range a.Floats {
		out[i] = f.float64Value()
	}
	return out
}

// Len returns the number of elements.
func (a *DenseArrayAttr) Len() int {
	if a.Floats != nil {
		return len(a.Floats)
	}
	return len(a.Ints)
}

// StridedLayout returns `strided<[…], offset: …>`.
func (c *Context) StridedLayout(strides []int64, offset int64) *StridedLayoutAttr {
	return c.uniqueAttr(&StridedLayoutAttr{Strides: append([]int64{}, strides...), Offset: offset}).(*StridedLayoutAttr)
}

// Distinct returns a new distinct attribute referring to a.
func (c *Context) Distinct(a Attribute) *DistinctAttr {
	c.mu.Lock()
	c.distinct++
	id := c.distinct
	c.mu.Unlock()
	return &DistinctAttr{Referenced: a, id: id}
}

// OpaqueAttr returns an attribute of an unregistered dialect.
func (c *Context) OpaqueAttr(dialect, data string, t Type) *OpaqueAttr {
	return c.uniqueAttr(&OpaqueAttr{Dialect: dialect, Data: data, Type: t}).(*OpaqueAttr)
}

// FileLineColLoc returns `loc("file":line:col)`.
func (c *Context) FileLineColLoc(file string, line, col int) *FileLineColLoc {
	return c.uniqueAttr(&FileLineColLoc{File: file, Line: int32(line), Col: int32(col)}).(*FileLineColLoc)
}

// NameLoc returns `loc("name")` or `loc("name"(child))`.
func (c *Context) NameLoc(name string, child Location) *NameLoc {
	return c.uniqueAttr(&NameLoc{Name: name, Child: child}).(*NameLoc)
}

// CallSiteLoc returns `loc(callsite(callee at caller))`.
func (c *Context) CallSiteLoc(callee, caller Location) *CallSiteLoc {
	return c.uniqueAttr(&CallSiteLoc{Callee: callee, Caller: caller}).(*CallSiteLoc)
}

// FusedLoc returns `loc(fused<metadata>[…])`, simplified as MLIR does:
// unknown locations are dropped, duplicates removed and nested fused
// locations with the same metadata flattened; an empty list gives unknown and a
// single location without metadata gives that location.
func (c *Context) FusedLoc(locs []Location, metadata Attribute) Location {
	var out []Location
	seen := map[Location]bool{}
	add := func(l Location) {
		if _, ok := l.(*UnknownLoc); ok {
			return
		}
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	for _, l := range locs {
		if f, ok := l.(*FusedLoc); ok && f.Metadata == metadata {
			for _, n := range f.Locations {
				add(n)
			}
			continue
		}
		add(l)
	}
	if len(out) == 0 {
		if metadata == nil {
			return c.unknownLoc
		}
		return c.uniqueAttr(&FusedLoc{Locations: []Location{c.unknownLoc}, Metadata: metadata}).(*FusedLoc)
	}
	if len(out) == 1 && metadata == nil {
		return out[0]
	}
	return c.uniqueAttr(&FusedLoc{Locations: out, Metadata: metadata}).(*FusedLoc)
}

// DenseResource returns `dense_resource<handle> : t`.
func (c *Context) DenseResource(t ShapedType, handle string) *DenseResourceElementsAttr {
	return c.uniqueAttr(&DenseResourceElementsAttr{Type: t, Handle: handle}).(*DenseResourceElementsAttr)
}

// Sparse returns `sparse<indices, values> : t`.
func (c *Context) Sparse(t ShapedType, indices, values Attribute) *SparseElementsAttr {
	return c.uniqueAttr(&SparseElementsAttr{Type: t, Indices: indices, Values: values}).(*SparseElementsAttr)
}
