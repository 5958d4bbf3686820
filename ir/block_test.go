package ir

import "testing"

// Argument locations are stored only once one is set; reading them must
// not depend on that.
func TestBlockArgumentLocs(t *testing.T) {
	ctx := NewContext()
	f32 := ctx.F32()
	l1, l2 := ctx.FileLineColLoc("a.mlir", 1, 2), ctx.FileLineColLoc("a.mlir", 3, 4)
	locs := func(b *Block) []Location {
		var out []Location
		for i := range b.NumArguments() {
			out = append(out, b.ArgumentLoc(i))
		}
		return out
	}
	same := func(got []Location, want ...Location) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("locations %v, want %v", got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("locations %v, want %v", got, want)
			}
		}
	}

	b := NewBlock([]Type{f32, f32}, nil)
	same(locs(b), nil, nil)
	b.AddArgument(f32, nil)
	same(locs(b), nil, nil, nil)
	b.SetArgumentLoc(1, l1)
	same(locs(b), nil, l1, nil)
	b.AddArgument(f32, l2)
	same(locs(b), nil, l1, nil, l2)
	b.EraseArgument(0)
	same(locs(b), l1, nil, l2)

	c := NewBlock([]Type{f32}, nil)
	c.AddArgument(f32, l2)
	same(locs(c), nil, l2)
	c.EraseArgument(1)
	c.EraseArgument(0)
	same(locs(c))

	// Fewer locations than types: the rest have none.
	same(locs(NewBlock([]Type{f32, f32}, []Location{l1})), l1, nil)

	// A clone keeps them.
	r := &Region{}
	r.AppendBlock(b)
	var dst Region
	r.CloneInto(&dst, NewValueMap())
	same(locs(dst.First()), l1, nil, l2)
}
