package ir

import (
	"iter"
	"unsafe"
)

// Value is an SSA value: the result of an operation or an argument of a
// block. Every use of a value is an OpOperand on its use list, so replacing
// all uses and checking for uses cost O(uses).
type Value struct {
	typ  Type
	uses *OpOperand // head of the use list
	// owner is the defining *Operation of a result, or the *Block of a
	// block argument (isArg); one field keeps Values small on large graphs.
	owner unsafe.Pointer
	index int32 // result number or argument number
	isArg bool
}

// defOp returns the defining op of a result, or nil.
func (v *Value) defOp() *Operation {
	if v.isArg {
		return nil
	}
	return (*Operation)(v.owner)
}

// argBlock returns the block of a block argument, or nil.
func (v *Value) argBlock() *Block {
	if !v.isArg {
		return nil
	}
	return (*Block)(v.owner)
}

// OpOperand is one use of a value: operand number Index of Owner.
type OpOperand struct {
	value      *Value
	owner      *Operation
	next, prev *OpOperand
}

// Type returns the value's type.
func (v *Value) Type() Type { return v.typ }

// SetType changes the value's type. The caller keeps the IR valid.
func (v *Value) SetType(t Type) { v.typ = t }

// DefiningOp returns the operation whose result this is, or nil for a block
// argument.
func (v *Value) DefiningOp() *Operation { return v.defOp() }

// OwnerBlock returns the block of a block argument, or nil for a result.
func (v *Value) OwnerBlock() *Block { return v.argBlock() }

// IsBlockArgument reports whether v is a block argument.
func (v *Value) IsBlockArgument() bool { return v.isArg }

// Index returns the result number or argument number.
func (v *Value) Index() int { return int(v.index) }

// ParentBlock returns the block that defines v: its owner for an argument,
// the block of its defining op for a result.
func (v *Value) ParentBlock() *Block {
	if v.isArg {
		return (*Block)(v.owner)
	}
	return (*Operation)(v.owner).block
}

// ParentRegion returns the region that defines v.
func (v *Value) ParentRegion() *Region {
	if b := v.ParentBlock(); b != nil {
		return b.parent
	}
	return nil
}

// HasUses reports whether v has any use.
func (v *Value) HasUses() bool { return v.uses != nil }

// HasOneUse reports whether v has exactly one use.
func (v *Value) HasOneUse() bool { return v.uses != nil && v.uses.next == nil }

// Uses returns v's uses. The loop body may remove the use it is given
// (set it to another value), but not the others.
func (v *Value) Uses() iter.Seq[*OpOperand] {
	return func(yield func(*OpOperand) bool) {
		for u := v.uses; u != nil; {
			next := u.next
			if !yield(u) {
				return
			}
			u = next
		}
	}
}

// NumUses counts the uses of v in O(uses).
func (v *Value) NumUses() int {
	n := 0
	for u := v.uses; u != nil; u = u.next {
		n++
	}
	return n
}

// Users returns the operations that use v, one per use (an op using v
// twice comes twice). The loop body may remove the use it is given.
func (v *Value) Users() iter.Seq[*Operation] {
	return func(yield func(*Operation) bool) {
		for u := v.uses; u != nil; {
			next := u.next
			if !yield(u.owner) {
				return
			}
			u = next
		}
	}
}

// ReplaceAllUsesWith makes every use of v use w instead, in O(uses).
func (v *Value) ReplaceAllUsesWith(w *Value) {
	if v == w {
		return
	}
	for v.uses != nil {
		v.uses.Set(w)
	}
}

// ReplaceUsesIf replaces the uses for which keep returns true.
func (v *Value) ReplaceUsesIf(w *Value, pred func(*OpOperand) bool) {
	for u := v.uses; u != nil; {
		next := u.next
		if pred(u) {
			u.Set(w)
		}
		u = next
	}
}

// Get returns the used value.
func (o *OpOperand) Get() *Value { return o.value }

// Owner returns the operation that uses the value.
func (o *OpOperand) Owner() *Operation { return o.owner }

// Index returns the operand number within its owner.
func (o *OpOperand) Index() int {
	ops := o.owner.opnds()
	// Operands are stored contiguously, so the position follows from the
	// address.
	if len(ops) == 0 {
		return -1
	}
	d := uintptr(unsafe.Pointer(o)) - uintptr(unsafe.Pointer(&ops[0]))
	return int(d / unsafe.Sizeof(ops[0]))
}

// Set makes the operand use v.
func (o *OpOperand) Set(v *Value) {
	o.unlink()
	o.link(v)
}

func (o *OpOperand) link(v *Value) {
	o.value = v
	if v == nil {
		return
	}
	o.next = v.uses
	o.prev = nil
	if v.uses != nil {
		v.uses.prev = o
	}
	v.uses = o
}

func (o *OpOperand) unlink() {
	v := o.value
	if v == nil {
		return
	}
	if o.prev != nil {
		o.prev.next = o.next
	} else {
		v.uses = o.next
	}
	if o.next != nil {
		o.next.prev = o.prev
	}
	o.next, o.prev, o.value = nil, nil, nil
}

// FirstUse returns the first use of v, or nil; with NextUse it walks the
// use list and can stop early.
func (v *Value) FirstUse() *OpOperand { return v.uses }

// NextUse returns the next use of the same value, or nil.
func (o *OpOperand) NextUse() *OpOperand { return o.next }
