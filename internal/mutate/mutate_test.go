package mutate

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

func TestTokens(t *testing.T) {
	src := []byte(`%0 = "test.op"(%a) <{x = 1.5 : f32}> : (i32) -> !t.ty // c
^bb1: {-# x #-} ... @f`)
	var got []string
	for _, tok := range Tokens(src) {
		got = append(got, string(src[tok.Start:tok.End]))
	}
	want := []string{"%0", "=", `"test.op"`, "(", "%a", ")", "<", "{", "x", "=", "1.5", ":", "f32", "}", ">", ":", "(", "i32", ")", "->", "!t.ty", "^bb1", ":", "{-#", "x", "#-}", "...", "@f"}
	if len(got) != len(want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("token %d: got %q, want %q (all: %q)", i, got[i], want[i], got)
		}
	}
}

// TestMutate checks that every mutant differs from its source, that the
// same seed gives the same mutant, and that the reported mutation is the
// change that was made.
func TestMutate(t *testing.T) {
	src := []byte("func.func @f(%a: i32) -> i32 {\n  return %a : i32\n}\n")
	kinds := map[Kind]int{}
	for seed := range uint64(400) {
		a, m := Mutate(rand.New(rand.NewPCG(seed, 0)), src)
		b, _ := Mutate(rand.New(rand.NewPCG(seed, 0)), src)
		if !bytes.Equal(a, b) {
			t.Fatalf("seed %d: two different mutants", seed)
		}
		if bytes.Equal(a, src) {
			t.Fatalf("seed %d: mutant equals its source", seed)
		}
		kinds[m.Kind]++
		var undone []byte
		switch m.Kind {
		case Replace:
			undone = splice(a, m.Offset, m.Offset+1, []byte(m.Old))
		case Insert:
			undone = splice(a, m.Offset, m.Offset+1, nil)
		case Delete:
			undone = splice(a, m.Offset, m.Offset, []byte(m.Old))
		case Duplicate:
			end := m.Offset + len(m.Old)
			undone = splice(a, end, end+len(m.New), nil)
		}
		if !bytes.Equal(undone, src) {
			t.Fatalf("seed %d: %v does not undo to the source: %q", seed, m, undone)
		}
	}
	for k := Replace; k <= Duplicate; k++ {
		if kinds[k] < 50 {
			t.Errorf("%v drawn %d times in 400", k, kinds[k])
		}
	}
}
