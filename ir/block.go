package ir

import (
	"iter"
	"unsafe"
)

// Block is a list of operations with arguments, inside a region. Ops are
// kept in an intrusive doubly linked list, so insertion and removal are
// O(1).
type Block struct {
	args []*Value
	// argLocs is nil while no argument has a location, else one per
	// argument.
	argLocs    []Location
	first      *Operation
	last       *Operation
	parent     *Region
	prev, next *Block
	// numOps counts the ops, so NumOps does not walk the list.
	numOps int32
	// orderValid says every op's order field gives its position (see
	// IsBeforeInBlock). An empty block's order is valid, and ops appended
	// keep it so, so blocks built front to back never renumber.
	orderValid bool
}

// NewBlock returns a detached block with arguments of the given types.
func NewBlock(types []Type, locs []Location) *Block {
	b := &Block{orderValid: true}
	if len(types) == 0 {
		return b
	}
	// One allocation for all the argument values; locations only if given.
	vals := make([]Value, len(types))
	b.args = make([]*Value, len(types))
	for i, t := range types {
		vals[i] = Value{typ: t, owner: unsafe.Pointer(b), index: int32(i), isArg: true}
		b.args[i] = &vals[i]
	}
	for i, l := range locs[:min(len(locs), len(types))] {
		if l != nil {
			b.SetArgumentLoc(i, l)
		}
	}
	return b
}

// Parent returns the region holding the block.
func (b *Block) Parent() *Region { return b.parent }

// ParentOp returns the op whose region holds the block.
func (b *Block) ParentOp() *Operation {
	if b.parent == nil {
		return nil
	}
	return b.parent.parent
}

// Next returns the next block in the region.
func (b *Block) Next() *Block { return b.next }

// Prev returns the previous block in the region.
func (b *Block) Prev() *Block { return b.prev }

// IsEntryBlock reports whether b is the first block of its region.
func (b *Block) IsEntryBlock() bool { return b.parent != nil && b.parent.first == b }

// NumArguments returns the number of arguments.
func (b *Block) NumArguments() int { return len(b.args) }

// Argument returns argument i.
func (b *Block) Argument(i int) *Value { return b.args[i] }

// Arguments returns the arguments. The slice must not be modified.
func (b *Block) Arguments() []*Value { return b.args }

// ArgumentLoc returns the location of argument i (nil when unknown).
func (b *Block) ArgumentLoc(i int) Location {
	_ = b.args[i] // an index out of range fails as with locations
	if b.argLocs == nil {
		return nil
	}
	return b.argLocs[i]
}

// printedArgLoc returns the location printed for argument i: loc(unknown)
// (the context's) when it has none, since in MLIR every block argument has
// a location, and its printer treats an unknown one like any other.
func (b *Block) printedArgLoc(i int) Location {
	if l := b.ArgumentLoc(i); l != nil {
		return l
	}
	if op := b.ParentOp(); op != nil {
		return op.Context().unknownLoc
	}
	return &UnknownLoc{}
}

// SetArgumentLoc sets the location of argument i.
func (b *Block) SetArgumentLoc(i int, l Location) {
	_ = b.args[i]
	if b.argLocs == nil {
		if l == nil {
			return
		}
		b.argLocs = make([]Location, len(b.args))
	}
	b.argLocs[i] = l
}

// ArgumentTypes returns the argument types (a new slice).
func (b *Block) ArgumentTypes() []Type {
	out := make([]Type, len(b.args))
	for i, a := range b.args {
		out[i] = a.typ
	}
	return out
}

// AddArgument appends an argument.
func (b *Block) AddArgument(t Type, loc Location) *Value {
	v := &Value{typ: t, owner: unsafe.Pointer(b), index: int32(len(b.args)), isArg: true}
	b.args = append(b.args, v)
	if b.argLocs != nil {
		b.argLocs = append(b.argLocs, loc)
	} else {
		b.SetArgumentLoc(len(b.args)-1, loc)
	}
	return v
}

// EraseArgument removes argument i, which must have no uses.
func (b *Block) EraseArgument(i int) {
	if b.args[i].uses != nil {
		panic("ir: erasing a block argument that still has uses")
	}
	b.args = append(b.args[:i], b.args[i+1:]...)
	if b.argLocs != nil {
		b.argLocs = append(b.argLocs[:i], b.argLocs[i+1:]...)
	}
	for j := i; j < len(b.args); j++ {
		b.args[j].index = int32(j)
	}
}

// First returns the first op, or nil.
func (b *Block) First() *Operation { return b.first }

// Last returns the last op, or nil.
func (b *Block) Last() *Operation { return b.last }

// Empty reports whether the block has no ops.
func (b *Block) Empty() bool { return b.first == nil }

// Ops returns the block's ops in order. The loop body may erase or move
// the op it is given (the next one is read before it runs), but not the
// ones after it.
func (b *Block) Ops() iter.Seq[*Operation] {
	return func(yield func(*Operation) bool) {
		for op := b.first; op != nil; {
			next := op.next
			if !yield(op) {
				return
			}
			op = next
		}
	}
}

// Backward returns the block's ops from last to first. The loop body may
// erase or move the op it is given, but not the ones before it.
func (b *Block) Backward() iter.Seq[*Operation] {
	return func(yield func(*Operation) bool) {
		for op := b.last; op != nil; {
			prev := op.prev
			if !yield(op) {
				return
			}
			op = prev
		}
	}
}

// NumOps returns the number of ops.
func (b *Block) NumOps() int { return int(b.numOps) }

// Terminator returns the last op if it is registered as a terminator (or
// is unregistered, which MLIR assumes may be one), else nil.
func (b *Block) Terminator() *Operation {
	if b.last == nil {
		return nil
	}
	if b.last.IsRegistered() && !b.last.HasTrait(TraitTerminator) {
		return nil
	}
	return b.last
}

// Append adds op at the end of the block.
func (b *Block) Append(op *Operation) { b.insertBefore(op, nil) }

// Prepend adds op at the start of the block.
func (b *Block) Prepend(op *Operation) { b.insertBefore(op, b.first) }

// InsertBefore inserts op before pos (at the end when pos is nil).
func (b *Block) InsertBefore(op, pos *Operation) { b.insertBefore(op, pos) }

func (b *Block) insertBefore(op, pos *Operation) {
	if op.block != nil {
		panic("ir: inserting an op that is already in a block")
	}
	op.block = b
	b.numOps++
	if pos == nil {
		op.prev = b.last
		op.next = nil
		if b.last != nil {
			b.last.next = op
			b.orderAfter(op, b.last)
		} else {
			b.first = op
			op.order = 0
			b.orderValid = true
		}
		b.last = op
		return
	}
	op.next = pos
	op.prev = pos.prev
	if pos.prev != nil {
		pos.prev.next = op
	} else {
		b.first = op
	}
	pos.prev = op
	if !b.orderValid {
		return
	}
	// Orders are spaced orderStride apart, so an op inserted between two
	// others usually takes the midpoint and the block keeps its order
	// (as MLIR does). Before the last op (a terminator, where builders
	// insert) the last op moves up instead; only a full gap elsewhere
	// forces a renumbering.
	lo := uint32(0)
	if op.prev != nil {
		lo = op.prev.order + 1
	}
	switch {
	case pos.order > lo:
		op.order = lo + (pos.order-lo)/2
	case pos.next == nil:
		if op.prev == nil {
			op.order = 0
		} else {
			b.orderAfter(op, op.prev)
		}
		b.orderAfter(pos, op)
	default:
		b.orderValid = false
	}
}

// orderAfter gives op, just inserted after prev, an order past prev's, or
// marks the block's order stale when the orders run out.
func (b *Block) orderAfter(op, prev *Operation) {
	if !b.orderValid {
		return
	}
	if prev.order > maxOrder {
		b.orderValid = false
		return
	}
	op.order = prev.order + orderStride
}

// orderStride is the spacing of op orders after a renumbering; maxOrder
// keeps appends from overflowing.
const (
	orderStride = 16
	maxOrder    = 1<<32 - 1 - orderStride
)

func (b *Block) insertAfter(op, pos *Operation) { b.insertBefore(op, pos.next) }

func (b *Block) unlinkOp(op *Operation) {
	b.numOps--
	if op.prev != nil {
		op.prev.next = op.next
	} else {
		b.first = op.next
	}
	if op.next != nil {
		op.next.prev = op.prev
	} else {
		b.last = op.prev
	}
	op.prev, op.next, op.block = nil, nil, nil
}

func (b *Block) recomputeOrder() {
	var i uint32
	for op := b.first; op != nil; op = op.next {
		op.order = i
		i += orderStride
	}
	b.orderValid = true
}

// Erase removes the block from its region and drops all references held
// by its ops.
func (b *Block) Erase() {
	for op := b.first; op != nil; op = op.next {
		op.DropAllReferences()
	}
	if b.parent != nil {
		b.parent.unlinkBlock(b)
	}
}

// Successors returns the successors of the block's terminator.
func (b *Block) Successors() []*Block {
	t := b.last
	if t == nil {
		return nil
	}
	out := make([]*Block, len(t.succs()))
	for i := range t.succs() {
		out[i] = t.succs()[i].block
	}
	return out
}

// PostOrder returns the blocks of entry's region that are reachable from
// entry through successors, in depth-first post-order (entry last; reverse
// it for the reverse post-order dominance and CSE visit). Successors in
// other regions, which only invalid IR has, are not followed.
func PostOrder(entry *Block) []*Block {
	if entry == nil {
		return nil
	}
	reg := entry.Parent()
	type frame struct {
		b    *Block
		succ []*Block
		i    int
	}
	var out []*Block
	seen := map[*Block]bool{entry: true}
	stack := []frame{{entry, entry.Successors(), 0}}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.i < len(f.succ) {
			s := f.succ[f.i]
			f.i++
			if s != nil && s.Parent() == reg && !seen[s] {
				seen[s] = true
				stack = append(stack, frame{s, s.Successors(), 0})
			}
			continue
		}
		out = append(out, f.b)
		stack = stack[:len(stack)-1]
	}
	return out
}

// Region is a list of blocks owned by an operation.
type Region struct {
	first, last *Block
	parent      *Operation
}

// ParentOp returns the op that owns the region.
func (r *Region) ParentOp() *Operation { return r.parent }

// Empty reports whether the region has no blocks.
func (r *Region) Empty() bool { return r.first == nil }

// First returns the entry block, or nil.
func (r *Region) First() *Block { return r.first }

// Last returns the last block, or nil.
func (r *Region) Last() *Block { return r.last }

// Blocks returns the region's blocks in order. The loop body may erase
// or move the block it is given, but not the ones after it.
func (r *Region) Blocks() iter.Seq[*Block] {
	return func(yield func(*Block) bool) {
		for b := r.first; b != nil; {
			next := b.next
			if !yield(b) {
				return
			}
			b = next
		}
	}
}

// NumBlocks counts the blocks.
func (r *Region) NumBlocks() int {
	n := 0
	for b := r.first; b != nil; b = b.next {
		n++
	}
	return n
}

// HasOneBlock reports whether the region has exactly one block.
func (r *Region) HasOneBlock() bool { return r.first != nil && r.first == r.last }

// Index returns the region's position among its parent's regions.
func (r *Region) Index() int {
	for i := range r.parent.regs() {
		if &r.parent.regs()[i] == r {
			return i
		}
	}
	return -1
}

// AppendBlock adds b at the end.
func (r *Region) AppendBlock(b *Block) { r.InsertBlockBefore(b, nil) }

// InsertBlockBefore inserts b before pos (at the end when pos is nil).
func (r *Region) InsertBlockBefore(b, pos *Block) {
	if b.parent != nil {
		panic("ir: inserting a block that is already in a region")
	}
	b.parent = r
	if pos == nil {
		b.prev = r.last
		b.next = nil
		if r.last != nil {
			r.last.next = b
		} else {
			r.first = b
		}
		r.last = b
		return
	}
	b.next = pos
	b.prev = pos.prev
	if pos.prev != nil {
		pos.prev.next = b
	} else {
		r.first = b
	}
	pos.prev = b
}

func (r *Region) unlinkBlock(b *Block) {
	if b.prev != nil {
		b.prev.next = b.next
	} else {
		r.first = b.next
	}
	if b.next != nil {
		b.next.prev = b.prev
	} else {
		r.last = b.prev
	}
	b.prev, b.next, b.parent = nil, nil, nil
}

// RemoveBlock unlinks b from the region without touching its ops.
func (r *Region) RemoveBlock(b *Block) { r.unlinkBlock(b) }

// takeBody moves all blocks of other into r.
func (r *Region) takeBody(other *Region) {
	for other.first != nil {
		b := other.first
		other.unlinkBlock(b)
		r.AppendBlock(b)
	}
}

// TakeBody moves all blocks of other into r (r must be empty).
func (r *Region) TakeBody(other *Region) { r.takeBody(other) }

// IsAncestor reports whether r contains other (or is it).
func (r *Region) IsAncestor(other *Region) bool {
	for other != nil {
		if other == r {
			return true
		}
		p := other.parent
		if p == nil {
			return false
		}
		other = p.ParentRegion()
	}
	return false
}

// FindAncestorOpInRegion returns the op in r that is op or contains it, or
// nil when op is not inside r.
func (r *Region) FindAncestorOpInRegion(op *Operation) *Operation {
	for op != nil {
		if op.ParentRegion() == r {
			return op
		}
		op = op.ParentOp()
	}
	return nil
}
