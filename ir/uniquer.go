package ir

import (
	"hash/maphash"
	"math/big"
	"unsafe"
)

// attrUniquer hash-conses attributes: structurally equal attributes map to
// one value. Children are already uniqued, so a composite attribute hashes
// and compares its children by identity; nothing is hashed twice and no
// key strings are built. Colliding hashes chain in overflow.
type attrUniquer struct {
	seed     maphash.Seed
	table    attrTable
	overflow map[uint64][]Attribute
}

func newAttrUniquer() attrUniquer {
	return attrUniquer{seed: maphash.MakeSeed(), table: newAttrTable()}
}

// unique returns the canonical attribute equal to a. The caller holds the
// context lock.
func (u *attrUniquer) unique(a Attribute) Attribute {
	h := u.hash(a)
	if old, ok := u.table.get(h); ok {
		if attrEqual(old, a) {
			return old
		}
		for _, o := range u.overflow[h] {
			if attrEqual(o, a) {
				return o
			}
		}
		if u.overflow == nil {
			u.overflow = map[uint64][]Attribute{}
		}
		u.overflow[h] = append(u.overflow[h], a)
		return a
	}
	u.table.put(h, a)
	return a
}

// probe looks up an attribute by hash and an equality test without
// building it first; make is called only when none is found. The caller
// holds the context lock.
func (u *attrUniquer) probe(h uint64, eq func(Attribute) bool, make func() Attribute) Attribute {
	if old, ok := u.table.get(h); ok {
		if eq(old) {
			return old
		}
		for _, o := range u.overflow[h] {
			if eq(o) {
				return o
			}
		}
		a := make()
		if u.overflow == nil {
			u.overflow = map[uint64][]Attribute{}
		}
		u.overflow[h] = append(u.overflow[h], a)
		return a
	}
	a := make()
	u.table.put(h, a)
	return a
}

func (u *attrUniquer) hashDict(es []NamedAttr) uint64 {
	var h maphash.Hash
	h.SetSeed(u.seed)
	h.WriteByte(8)
	for _, e := range es {
		h.WriteString(e.Name)
		h.WriteByte(0)
		maphash.WriteComparable(&h, e.Value)
	}
	return h.Sum64()
}

func (u *attrUniquer) hashString(s []byte) uint64 {
	var h maphash.Hash
	h.SetSeed(u.seed)
	h.WriteByte(3)
	h.Write(s)
	return h.Sum64()
}

func (u *attrUniquer) hashInt(t Type, v int64) uint64 {
	var h maphash.Hash
	h.SetSeed(u.seed)
	h.WriteByte(1)
	maphash.WriteComparable(&h, t)
	maphash.WriteComparable(&h, v)
	return h.Sum64()
}

func (u *attrUniquer) hash(a Attribute) uint64 {
	var h maphash.Hash
	h.SetSeed(u.seed)
	switch a := a.(type) {
	case *IntegerAttr:
		if a.Big == nil {
			return u.hashInt(a.Type, a.Value)
		}
		h.WriteByte(1)
		maphash.WriteComparable(&h, a.Type)
		maphash.WriteComparable(&h, a.Value)
		h.Write(a.Big.Bytes())
	case *FloatAttr:
		h.WriteByte(2)
		maphash.WriteComparable(&h, a.Type)
		h.Write(a.v.encode().Bytes())
	case *StringAttr:
		if a.Type == nil {
			return u.hashString(bytesOfString(a.Value))
		}
		h.WriteByte(3)
		h.WriteString(a.Value)
		maphash.WriteComparable(&h, a.Type)
	case *UnitAttr:
		h.WriteByte(4)
	case *TypeAttr:
		h.WriteByte(5)
		maphash.WriteComparable(&h, a.Value)
	case *SymbolRefAttr:
		h.WriteByte(6)
		h.WriteString(a.Root)
		for _, n := range a.Nested {
			h.WriteByte(0)
			h.WriteString(n)
		}
	case *ArrayAttr:
		h.WriteByte(7)
		for _, e := range a.Elems {
			maphash.WriteComparable(&h, e)
		}
	case *DictAttr:
		return u.hashDict(a.Entries)
	case *DenseElementsAttr:
		h.WriteByte(9)
		maphash.WriteComparable(&h, a.Type)
		maphash.WriteComparable(&h, a.Splat)
		h.Write(a.data)
	default:
		// Other kinds are rare; their printed form identifies them.
		h.WriteByte(255)
		h.WriteString(attrKind(a))
		h.WriteString(a.String())
	}
	return h.Sum64()
}

// attrKind distinguishes attribute kinds that could print alike.
func attrKind(a Attribute) string {
	switch a.(type) {
	case *DenseStringElementsAttr:
		return "S"
	case *DenseResourceElementsAttr:
		return "R"
	case *SparseElementsAttr:
		return "P"
	case *DenseArrayAttr:
		return "A"
	case *StridedLayoutAttr:
		return "L"
	case *OpaqueAttr:
		return "O"
	case *AffineMapAttr:
		return "M"
	case *IntegerSetAttr:
		return "I"
	case Location:
		return "l"
	}
	return "?"
}

// attrEqual compares two attributes of the uniquer structurally, children
// by identity.
func attrEqual(x, y Attribute) bool {
	switch a := x.(type) {
	case *IntegerAttr:
		b, ok := y.(*IntegerAttr)
		return ok && a.Type == b.Type && a.Value == b.Value && bigEq(a.Big, b.Big)
	case *FloatAttr:
		b, ok := y.(*FloatAttr)
		return ok && a.Type == b.Type && sameBits(a.v, b.v)
	case *StringAttr:
		b, ok := y.(*StringAttr)
		return ok && a.Value == b.Value && a.Type == b.Type
	case *UnitAttr:
		_, ok := y.(*UnitAttr)
		return ok
	case *TypeAttr:
		b, ok := y.(*TypeAttr)
		return ok && a.Value == b.Value
	case *SymbolRefAttr:
		b, ok := y.(*SymbolRefAttr)
		if !ok || a.Root != b.Root || len(a.Nested) != len(b.Nested) {
			return false
		}
		for i := range a.Nested {
			if a.Nested[i] != b.Nested[i] {
				return false
			}
		}
		return true
	case *ArrayAttr:
		b, ok := y.(*ArrayAttr)
		if !ok || len(a.Elems) != len(b.Elems) {
			return false
		}
		for i := range a.Elems {
			if a.Elems[i] != b.Elems[i] {
				return false
			}
		}
		return true
	case *DictAttr:
		b, ok := y.(*DictAttr)
		if !ok || len(a.Entries) != len(b.Entries) {
			return false
		}
		for i := range a.Entries {
			if a.Entries[i].Name != b.Entries[i].Name || a.Entries[i].Value != b.Entries[i].Value {
				return false
			}
		}
		return true
	case *DenseElementsAttr:
		b, ok := y.(*DenseElementsAttr)
		return ok && a.Type == b.Type && a.Splat == b.Splat && string(a.data) == string(b.data)
	}
	return attrKind(x) == attrKind(y) && x.String() == y.String()
}

func bigEq(a, b *big.Int) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Cmp(b) == 0
}

func bytesOfString(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
