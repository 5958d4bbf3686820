package rewrite

import (
	"hash/maphash"

	"github.com/rlx-compiler/rlx/ir"
)

// EquivalenceFlags tune Equivalent and Hash.
type EquivalenceFlags uint8

const (
	// IgnoreLocations makes ops that differ only in their locations (and
	// those of their block arguments) equivalent.
	IgnoreLocations EquivalenceFlags = 1 << iota
)

// Hasher hashes ops structurally with one seed. Equivalent ops hash the
// same when their operands are hashed the same.
type Hasher struct{ seed maphash.Seed }

// NewHasher returns a hasher with a random seed.
func NewHasher() Hasher { return Hasher{maphash.MakeSeed()} }

// Hash combines op's name, attributes, properties, result types and
// operands (hashed by identity, or through operand when it is not nil),
// and its location unless flags say to ignore it. Regions are not hashed:
// Equivalent compares them.
func (h Hasher) Hash(op *ir.Operation, operand func(*ir.Value) uint64, flags EquivalenceFlags) uint64 {
	x := maphash.Comparable(h.seed, op.OpName())
	x = mix(x, h.attr(op.Attrs()))
	x = mix(x, h.attr(op.Props()))
	for i := 0; i < op.NumResults(); i++ {
		x = mix(x, maphash.Comparable(h.seed, op.Result(i).Type()))
	}
	if flags&IgnoreLocations == 0 {
		x = mix(x, maphash.Comparable(h.seed, op.Loc()))
	}
	commutative := op.HasTrait(ir.TraitCommutative)
	var sum uint64
	for i := 0; i < op.NumOperands(); i++ {
		var v uint64
		if operand != nil {
			v = operand(op.Operand(i))
		} else {
			v = maphash.Comparable(h.seed, op.Operand(i))
		}
		if commutative {
			sum += v
		} else {
			x = mix(x, v)
		}
	}
	if commutative {
		x = mix(x, sum)
	}
	return x
}

// attr hashes an attribute dictionary, treating nil and empty alike.
func (h Hasher) attr(a ir.Attribute) uint64 {
	if isEmptyAttr(a) {
		return 0
	}
	return maphash.Comparable(h.seed, a)
}

func mix(x, y uint64) uint64 {
	x ^= y + 0x9e3779b97f4a7c15 + x<<6 + x>>2
	return x
}

func isEmptyAttr(a ir.Attribute) bool {
	if a == nil {
		return true
	}
	d, ok := a.(*ir.DictAttr)
	return ok && d.Len() == 0
}

func sameAttr(a, b ir.Attribute) bool {
	if isEmptyAttr(a) || isEmptyAttr(b) {
		return isEmptyAttr(a) && isEmptyAttr(b)
	}
	return a == b
}

// Equivalent reports whether a and b are the same computation: same name,
// attributes, properties, result types and operands, and regions that are
// equivalent block by block and op by op (values defined inside the
// regions correspond by position). Successor blocks are compared only
// inside regions. This is MLIR's OperationEquivalence::isEquivalentTo.
func Equivalent(a, b *ir.Operation, flags EquivalenceFlags) bool {
	e := equivalence{flags: flags, values: map[*ir.Value]*ir.Value{}}
	return e.ops(a, b)
}

// equivalentIgnoringOperands is Equivalent except that operands (also
// those of nested ops) need only have the same types; block merging
// compares them itself.
func equivalentIgnoringOperands(a, b *ir.Operation, flags EquivalenceFlags) bool {
	e := equivalence{flags: flags, ignoreOperands: true}
	return e.ops(a, b)
}

type equivalence struct {
	flags          EquivalenceFlags
	ignoreOperands bool
	values         map[*ir.Value]*ir.Value // b's value → a's value
}

func (e *equivalence) ops(a, b *ir.Operation) bool {
	if a == b {
		return true
	}
	if a.OpName() != b.OpName() || !sameAttr(a.Attrs(), b.Attrs()) ||
		a.NumRegions() != b.NumRegions() || a.NumSuccessors() != b.NumSuccessors() ||
		a.NumOperands() != b.NumOperands() || a.NumResults() != b.NumResults() ||
		!sameAttr(a.Props(), b.Props()) {
		return false
	}
	if e.flags&IgnoreLocations == 0 && a.Loc() != b.Loc() {
		return false
	}
	for i := 0; i < a.NumOperands(); i++ {
		x, y := a.Operand(i), b.Operand(i)
		if x == y {
			continue
		}
		if x.Type() != y.Type() || !e.ignoreOperands && e.values[y] != x {
			return false
		}
	}
	for i := 0; i < a.NumResults(); i++ {
		x, y := a.Result(i), b.Result(i)
		if x.Type() != y.Type() {
			return false
		}
		e.mark(x, y)
	}
	for i := 0; i < a.NumRegions(); i++ {
		if !e.regions(a.Region(i), b.Region(i)) {
			return false
		}
	}
	return true
}

func (e *equivalence) mark(x, y *ir.Value) {
	if e.values != nil {
		if _, ok := e.values[y]; !ok {
			e.values[y] = x
		}
	}
}

func (e *equivalence) regions(ra, rb *ir.Region) bool {
	blocks := map[*ir.Block]*ir.Block{}
	ba, bb := ra.First(), rb.First()
	for ; ba != nil && bb != nil; ba, bb = ba.Next(), bb.Next() {
		if ba.NumArguments() != bb.NumArguments() {
			return false
		}
		if m, ok := blocks[ba]; ok && m != bb {
			return false
		}
		blocks[ba] = bb
		for i, x := range ba.Arguments() {
			y := bb.Argument(i)
			if x.Type() != y.Type() {
				return false
			}
			if e.flags&IgnoreLocations == 0 && ba.ArgumentLoc(i) != bb.ArgumentLoc(i) {
				return false
			}
			e.mark(x, y)
		}
		oa, ob := ba.First(), bb.First()
		for ; oa != nil && ob != nil; oa, ob = oa.Next(), ob.Next() {
			if !e.ops(oa, ob) {
				return false
			}
			for i := 0; i < oa.NumSuccessors(); i++ {
				sa, sb := oa.Successor(i), ob.Successor(i)
				if m, ok := blocks[sa]; ok && m != sb {
					return false
				}
				blocks[sa] = sb
			}
		}
		if oa != nil || ob != nil {
			return false
		}
	}
	return ba == nil && bb == nil
}
