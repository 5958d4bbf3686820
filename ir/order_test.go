package ir

import (
	"math/rand/v2"
	"testing"
)

// TestIsBeforeInBlock inserts ops at random places (front, middle, before
// the last op, end), erases some, and after every step checks
// IsBeforeInBlock against the list order, so the gap-filling order indices
// never disagree with it, and NumOps against the list's length.
func TestIsBeforeInBlock(t *testing.T) {
	ctx := NewContext()
	ctx.AllowUnregistered = true
	name := ctx.OpName("test.op")
	b := NewBlock(nil, nil)
	var ops []*Operation
	rng := rand.New(rand.NewPCG(1, 2))
	check := func(step int) {
		var list []*Operation
		for o := b.First(); o != nil; o = o.Next() {
			list = append(list, o)
		}
		if b.NumOps() != len(list) {
			t.Fatalf("step %d: NumOps = %d, the list has %d", step, b.NumOps(), len(list))
		}
		for k := 0; k < 20 && len(list) > 1; k++ {
			i, j := rng.IntN(len(list)), rng.IntN(len(list))
			if got, want := list[i].IsBeforeInBlock(list[j]), i < j; got != want {
				t.Fatalf("step %d: ops %d and %d of %d: IsBeforeInBlock = %v, want %v", step, i, j, len(list), got, want)
			}
		}
	}
	for step := 0; step < 3000; step++ {
		op := NewOperation(ctx, &OperationState{Name: name, Loc: ctx.UnknownLoc()})
		switch r := rng.IntN(10); {
		case len(ops) == 0 || r < 3:
			b.Append(op)
		case r < 5:
			b.InsertBefore(op, b.First())
		case r < 7:
			b.InsertBefore(op, b.Last())
		case r < 9:
			b.InsertBefore(op, ops[rng.IntN(len(ops))])
		default:
			victim := rng.IntN(len(ops))
			ops[victim].Erase()
			ops = append(ops[:victim], ops[victim+1:]...)
			b.Append(op)
		}
		ops = append(ops, op)
		check(step)
	}
}

// TestBlockOrderStaysValid: a block built front to back, then grown before
// its last op (where builders insert before a terminator), never needs its
// order recomputed, so IsBeforeInBlock on a freshly parsed body does not
// walk it. Moving ops out keeps it valid too.
func TestBlockOrderStaysValid(t *testing.T) {
	ctx := NewContext()
	ctx.AllowUnregistered = true
	name := ctx.OpName("test.op")
	newOp := func() *Operation { return NewOperation(ctx, &OperationState{Name: name}) }
	for _, b := range []*Block{NewBlock(nil, nil), {}} {
		for range 100 {
			b.Append(newOp())
		}
		ret := b.Last()
		var inserted []*Operation
		for range 1000 {
			op := newOp()
			b.InsertBefore(op, ret)
			inserted = append(inserted, op)
		}
		for _, op := range inserted[:500] {
			op.Remove()
		}
		if !b.orderValid {
			t.Fatal("the block's order went stale")
		}
		if b.NumOps() != 600 {
			t.Fatalf("NumOps = %d, want 600", b.NumOps())
		}
		prev := b.First()
		for op := prev.Next(); op != nil; op = op.Next() {
			if !prev.IsBeforeInBlock(op) || op.IsBeforeInBlock(prev) {
				t.Fatalf("orders out of sequence: %d then %d", prev.order, op.order)
			}
			prev = op
		}
	}
	// A block whose only op gets one before it.
	b := NewBlock(nil, nil)
	last, first := newOp(), newOp()
	b.Append(last)
	b.InsertBefore(first, last)
	if !first.IsBeforeInBlock(last) || !b.orderValid {
		t.Fatal("an op inserted before the only op is not before it")
	}
}
