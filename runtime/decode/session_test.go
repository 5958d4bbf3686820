package decode

import (
	"slices"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// TestSessionSync: a session fed in parts, and brought to a longer
// sequence by Sync, ends with the logits a fresh Run of the whole
// sequence gives, bit for bit, feeding only the new tokens; a sequence
// that leaves the tokens fed goes back to the Mark when that begins it,
// else to the start.
func TestSessionSync(t *testing.T) {
	d, err := New(program(t, counter))
	if err != nil {
		t.Fatal(err)
	}
	w := &ref.TensorWeights{}
	lastRow := func(tokens []int) []float32 {
		l, err := d.Run(tokens, w)
		if err != nil {
			t.Fatal(err)
		}
		f := l.Floats()
		return f[len(f)-d.Vocab:]
	}
	s := d.NewSession(w)
	var fed []int
	s.Step = func(pos int, _ []*tensor.Tensor) { fed = append(fed, pos) }
	if err := s.Feed(3, 5); err != nil {
		t.Fatal(err)
	}
	s.Mark()
	if err := s.Feed(2); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tokens []int
		reused int
		steps  []int
	}{
		{[]int{3, 5, 2, 7}, 3, []int{3}},    // goes on
		{[]int{3, 5, 4}, 2, []int{2}},       // back to the Mark
		{[]int{3, 5, 4}, 3, nil},            // already there
		{[]int{1, 5}, 0, []int{0, 1}},       // back to the start
		{[]int{3, 5, 6, 6}, 2, []int{2, 3}}, // the Mark stays after a Reset
	} {
		fed = nil
		reused, err := s.Sync(tc.tokens)
		if err != nil {
			t.Fatal(err)
		}
		if reused != tc.reused || !slices.Equal(fed, tc.steps) || !slices.Equal(s.Tokens(), tc.tokens) {
			t.Errorf("Sync(%v): reused %d, fed positions %v, tokens %v; want %d, %v", tc.tokens, reused, fed, s.Tokens(), tc.reused, tc.steps)
		}
		if got, want := s.Logits(), lastRow(tc.tokens); !slices.Equal(got, want) {
			t.Errorf("Sync(%v): logits %v, a fresh run's %v", tc.tokens, got, want)
		}
	}
	// Past the capacity of 4: an error, the tokens before it fed.
	if _, err := s.Sync([]int{3, 5, 6, 6, 1}); err == nil || !strings.Contains(err.Error(), "5 tokens exceed the model's capacity of 4") {
		t.Errorf("Sync past the capacity: %v", err)
	}
}

// TestSessionGenerate: Generate feeds each pick, stops before a Stop
// token (naming it), at n, when emit says so, or (n < 0) at the
// model's capacity.
func TestSessionGenerate(t *testing.T) {
	d, err := New(program(t, counter))
	if err != nil {
		t.Fatal(err)
	}
	s := d.NewSession(&ref.TensorWeights{})
	if err := s.Feed(1); err != nil {
		t.Fatal(err)
	}
	// The counter's logits are [Σ tok·(pos+1)]·2: equal, so the arg-max
	// is 0 every step.
	gen, _, stopped, err := s.Generate(-1, nil)
	if err != nil || stopped || !slices.Equal(gen, []int{0, 0, 0}) || len(s.Tokens()) != 4 {
		t.Errorf("Generate(-1): %v stopped %v, %v; tokens %v", gen, stopped, err, s.Tokens())
	}
	d.Stop = []int{0}
	s.Reset()
	if err := s.Feed(1); err != nil {
		t.Fatal(err)
	}
	gen, stop, stopped, err := s.Generate(3, nil)
	if err != nil || !stopped || stop != 0 || len(gen) != 0 || len(s.Tokens()) != 1 {
		t.Errorf("Generate(3) with Stop 0: %v stop %d stopped %v, %v", gen, stop, stopped, err)
	}
	d.Stop = nil
	var seen []int
	gen, _, _, err = s.Generate(3, func(tok int) bool { seen = append(seen, tok); return len(seen) < 2 })
	if err != nil || len(gen) != 1 || len(seen) != 2 || len(s.Tokens()) != 2 {
		t.Errorf("Generate with emit ending it: %v, seen %v, %v", gen, seen, err)
	}
}
