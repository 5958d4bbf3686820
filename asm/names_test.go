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
	type where struct {
		dense uint64
		key   string
		ok    bool
	}
	at := map[string]where{}
	set := func(name string) {
		d := valueDef{first: v(), count: 1}
		dense, key, ok := tab.set([]byte(name), d)
		defs[name] = d
		at[name] = where{dense, key, ok}
	}
	del := func(name string) {
		if w := at[name]; w.ok {
			tab.delDense(w.dense)
		} else {
			tab.delKey(w.key)
		}
		delete(defs, name)
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
	if !at["5000"].ok {
		t.Fatalf("%%5000 redefined went to the map, not the dense table")
	}
	del("5000")
	if _, ok := tab.get([]byte("5000")); ok {
		t.Fatalf("%%5000 still found after its deletion")
	}
	del("999999999")
	if _, ok := tab.get([]byte("999999999")); ok {
		t.Fatalf("%%999999999 still found after its deletion")
	}
	check()
}

// Names of many prefixes (`%a1`, `%b1`, …) must not each get a dense
// table: lookups scanned the prefixes one by one, so parsing a function of
// 20,000 such names took 9 s, and each table took a kilobyte or more.
func TestNameTableManyPrefixes(t *testing.T) {
	ctx := ir.NewContext()
	var tab nameTable
	defs := map[string]valueDef{}
	for i := range 1000 {
		name := fmt.Sprintf("p%d_%d", i, i%7)
		d := valueDef{first: ir.NewBlock([]ir.Type{ctx.F32()}, nil).Argument(0), count: 1}
		tab.set([]byte(name), d)
		defs[name] = d
	}
	if len(tab.prefixes) > 100 {
		t.Fatalf("%d prefixes with a dense table for 1000 names", len(tab.prefixes))
	}
	for name, want := range defs {
		if got, ok := tab.get([]byte(name)); !ok || got != want {
			t.Fatalf("get(%s) = %v, %v", name, got, ok)
		}
	}
}
