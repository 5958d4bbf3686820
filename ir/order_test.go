package ir

import (
	"math/rand/v2"
	"testing"
)

// TestIsBeforeInBlock inserts ops at random places (front, middle, end),
// erases some, and after every step checks IsBeforeInBlock against the
// list order, so the gap-filling order indices never disagree with it.
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
