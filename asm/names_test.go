package asm

import (
	"fmt"
	"testing"

	"github.com/rlx-compiler/rlx/ir"
)

// A large number in an SSA name must not size the dense table: it goes to
// the map, and lookups, redefinitions and deletions still find it.
func TestNameTableLargeNumbers(t *testing.T) {
	ctx := ir.NewContext()
	v := func() *ir.Value {
		return ir.NewBlock([]ir.Type{ctx.F32()}, nil).Argument(0)
	}
	var tab nameTable
	defs := map[string]valueDef{}
	set := func(name string) {
		d := valueDef{first: v(), count: 1}
		tab.set([]byte(name), d)
		defs[name] = d
	}
	check := func() {
		t.Helper()
		for name, want := range defs {
			if got, ok := tab.get([]byte(name)); !ok || got != want {
				t.Fatalf("get(%s) = %v, %v", name, got, ok)
			}
		}
	}
	set("999999999")
	set("0")
	set("v123456789")
	check()
	for _, s := range tab.prefixes {
		if cap(s.defs) > 4096 {
			t.Fatalf("prefix %q: dense table of %d entries for %d names", s.prefix, cap(s.defs), s.n)
		}
	}
	// Enough names that the dense table grows past a number first sent to
	// the map: it is found in the table once redefined, and deleting it
	// deletes it.
	set("5000")
	for i := 1; i < 3000; i++ {
		set(fmt.Sprint(i))
	}
	check()
	set("5000")
	check()
	tab.del([]byte("5000"))
	delete(defs, "5000")
	if _, ok := tab.get([]byte("5000")); ok {
		t.Fatalf("%%5000 still found after its deletion")
	}
	tab.del([]byte("999999999"))
	delete(defs, "999999999")
	if _, ok := tab.get([]byte("999999999")); ok {
		t.Fatalf("%%999999999 still found after its deletion")
	}
	check()
}
