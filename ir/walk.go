package ir

import "iter"

// Walk calls fn for op and every op nested in it, in pre-order. fn may not
// erase the op it is given (use WalkPostOrder for that).
func (op *Operation) Walk(fn func(*Operation)) {
	fn(op)
	for i := range op.regs() {
		for b := op.regs()[i].first; b != nil; b = b.next {
			for o := b.first; o != nil; o = o.next {
				o.Walk(fn)
			}
		}
	}
}

// PreOrder returns op and every op nested in it, in pre-order, each with
// a function that skips the ops nested in it:
//
//	for o, skip := range op.PreOrder() {
//		if o.Name() == "mps.subgraph" {
//			skip() // its body is not visited
//		}
//	}
//
// The loop body may not erase or move the op it is given (use
// WalkPostOrder for that), but may change its attributes and operands.
func (op *Operation) PreOrder() iter.Seq2[*Operation, func()] {
	return func(yield func(*Operation, func()) bool) {
		op.preOrder(yield)
	}
}

// preOrder is PreOrder's walk; it reports whether to go on.
func (op *Operation) preOrder(yield func(*Operation, func()) bool) bool {
	skipped := false
	if !yield(op, func() { skipped = true }) {
		return false
	}
	if skipped {
		return true
	}
	for i := range op.regs() {
		for b := op.regs()[i].first; b != nil; b = b.next {
			for o := b.first; o != nil; o = o.next {
				if !o.preOrder(yield) {
					return false
				}
			}
		}
	}
	return true
}

// WalkPostOrder calls fn for every op nested in op and then op itself;
// fn may erase the op it is given.
func (op *Operation) WalkPostOrder(fn func(*Operation)) {
	for i := range op.regs() {
		for b := op.regs()[i].first; b != nil; b = b.next {
			for o := b.first; o != nil; {
				next := o.next
				o.WalkPostOrder(fn)
				o = next
			}
		}
	}
	fn(op)
}

// WalkResult steers an interruptible walk.
type WalkResult uint8

const (
	// WalkAdvance continues the walk.
	WalkAdvance WalkResult = iota
	// WalkSkip does not visit the current op's regions.
	WalkSkip
	// WalkInterrupt stops the walk.
	WalkInterrupt
)

// WalkInterruptible walks in pre-order and lets fn skip regions or stop.
// It reports whether the walk was interrupted.
func (op *Operation) WalkInterruptible(fn func(*Operation) WalkResult) bool {
	switch fn(op) {
	case WalkInterrupt:
		return true
	case WalkSkip:
		return false
	}
	for i := range op.regs() {
		for b := op.regs()[i].first; b != nil; b = b.next {
			for o := b.first; o != nil; o = o.next {
				if o.WalkInterruptible(fn) {
					return true
				}
			}
		}
	}
	return false
}

// walkInterruptible is Operation.WalkInterruptible over the ops of r.
func (r *Region) walkInterruptible(fn func(*Operation) WalkResult) bool {
	for b := r.first; b != nil; b = b.next {
		for o := b.first; o != nil; o = o.next {
			if o.WalkInterruptible(fn) {
				return true
			}
		}
	}
	return false
}

// Walk calls fn for every op in the region, in pre-order.
func (r *Region) Walk(fn func(*Operation)) {
	for b := r.first; b != nil; b = b.next {
		for o := b.first; o != nil; o = o.next {
			o.Walk(fn)
		}
	}
}

// WalkSubElements calls fnT and fnA for the types and attributes that t or
// a (whichever is not nil) refers to directly: element types, dictionary
// and array entries, nested locations, and so on.
func WalkSubElements(t Type, a Attribute, fnT func(Type), fnA func(Attribute)) {
	if t != nil {
		t.walkSubElements(fnT, fnA)
	}
	if a != nil {
		a.walkSubElements(fnT, fnA)
	}
}
