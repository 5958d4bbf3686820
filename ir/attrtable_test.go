package ir

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// checkTable checks every key of want is found with its attribute and a
// few keys not in want are not.
func checkTable(t *testing.T, tab *attrTable, want map[uint64]Attribute, absent []uint64) {
	t.Helper()
	for h, a := range want {
		if got, ok := tab.get(h); !ok || got != a {
			t.Fatalf("get(%#x) = %v, %v; want %v (count %d, old %v)", h, got, ok, a, tab.count, tab.old != nil)
		}
	}
	for _, h := range absent {
		if _, ok := want[h]; ok {
			continue
		}
		if got, ok := tab.get(h); ok {
			t.Fatalf("get(%#x) = %v for a key never put", h, got)
		}
	}
}

func TestAttrTable(t *testing.T) {
	// Key sets: uniform hashes; hashes sharing their top 32 bits (one
	// fingerprint, told apart by the entry's full hash); top bits that put
	// every home at the end of the index, so clusters wrap around slot 0
	// while slots move.
	sets := map[string]func(r *rand.Rand, i int) uint64{
		"uniform":     func(r *rand.Rand, i int) uint64 { return r.Uint64() },
		"fingerprint": func(r *rand.Rand, i int) uint64 { return uint64(i%7)<<32 | uint64(r.Uint32()) },
		"wrap":        func(r *rand.Rand, i int) uint64 { return 0xf000_0000_0000_0000 | r.Uint64()>>4 },
	}
	for name, key := range sets {
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			// The index grows at 768 and 1,536 keys; while the first
			// 3,000 keys go in, all are checked after every put that
			// leaves old slots to move, later now and then. Skewed keys
			// make long clusters, so fewer of them.
			n := 20000
			if name != "uniform" {
				n = 1600
			}
			tab := newAttrTable()
			want := map[uint64]Attribute{}
			var absent []uint64
			grows := 0
			for i := 0; i < n; i++ {
				h := key(r, i)
				absent = append(absent, key(r, i))
				if _, ok := want[h]; ok {
					continue
				}
				if _, ok := tab.get(h); ok {
					t.Fatalf("get(%#x) found a key never put", h)
				}
				a := &StringAttr{Value: fmt.Sprint(i)}
				moved, size, moving := tab.moved, len(tab.cur), tab.old != nil
				tab.put(h, a)
				want[h] = a
				if len(tab.cur) != size {
					if moving {
						t.Fatalf("the index grew again before its old slots had moved")
					}
					grows++
				} else if tab.old != nil && tab.moved-moved > 2 {
					t.Fatalf("one put moved %d old slots, want at most 2", tab.moved-moved)
				}
				if tab.count*4 > len(tab.cur)*3 {
					t.Fatalf("index more than 3/4 full: %d entries in %d slots", tab.count, len(tab.cur))
				}
				if tab.old != nil && i < 3000 || i%997 == 0 {
					checkTable(t, &tab, want, absent[len(absent)-min(len(absent), 50):])
				}
			}
			checkTable(t, &tab, want, absent)
			if grows < 2 {
				t.Fatalf("the index grew %d times; the test must cover growing", grows)
			}
		})
	}
}

// The uniquer through its table: a context with many attributes returns
// the same attribute for equal ones and distinct ones otherwise.
func TestUniquerManyAttributes(t *testing.T) {
	ctx := NewContext()
	const n = 30000
	strs := make([]*StringAttr, n)
	dicts := make([]*DictAttr, n)
	for i := range strs {
		strs[i] = ctx.StringAttr(fmt.Sprintf("s%d", i))
		dicts[i] = ctx.Dict([]NamedAttr{{Name: "sym_name", Value: strs[i]}})
	}
	for i := range strs {
		if s := ctx.StringAttr(fmt.Sprintf("s%d", i)); s != strs[i] {
			t.Fatalf("StringAttr(s%d) is a new attribute", i)
		}
		if d := ctx.Dict([]NamedAttr{{Name: "sym_name", Value: strs[i]}}); d != dicts[i] {
			t.Fatalf("the dictionary of s%d is a new attribute", i)
		}
		if i > 0 && (strs[i] == strs[i-1] || dicts[i] == dicts[i-1]) {
			t.Fatalf("attributes %d and %d are one", i-1, i)
		}
	}
}

// FuzzAttrTable runs puts and gets from the input against a map. Each
// 9-byte record is an operation byte and a hash. With the top bit of the
// operation set, the record looks up a key already put (the hash picks
// which), so lookups land while old slots are moving; otherwise it looks
// the hash up and, when absent, puts it and (operation & 7) keys derived
// from it, so inputs reach the sizes where the index grows.
func FuzzAttrTable(f *testing.F) {
	f.Add([]byte("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x01\x01\x02\x03\x04\x05\x06\x07\x08"))
	// 200 records putting 8 keys each, every other one followed by a
	// lookup of a key put before: the index grows twice.
	var grow []byte
	for i := 0; i < 200; i++ {
		grow = append(grow, 7, 0, 0, 0, 0, 0, 0, byte(i*7), byte(i))
		grow = append(grow, 0x80, byte(i*13), byte(i*5), 0, 0, 0, 0, 0, 0)
	}
	f.Add(grow)
	f.Fuzz(func(t *testing.T, in []byte) {
		tab := newAttrTable()
		want := map[uint64]Attribute{}
		var keys []uint64
		for len(in) >= 9 {
			op := in[0]
			h := uint64(in[1]) | uint64(in[2])<<8 | uint64(in[3])<<16 | uint64(in[4])<<24 |
				uint64(in[5])<<32 | uint64(in[6])<<40 | uint64(in[7])<<48 | uint64(in[8])<<56
			in = in[9:]
			if op&0x80 != 0 {
				if len(keys) == 0 {
					continue
				}
				h = keys[h%uint64(len(keys))]
			}
			got, ok := tab.get(h)
			if w, wok := want[h]; ok != wok || got != w {
				t.Fatalf("get(%#x) = %v, %v; want %v, %v (%d keys, old slots moving: %v)", h, got, ok, w, wok, len(keys), tab.old != nil)
			}
			if ok {
				continue
			}
			for k := uint64(0); k <= uint64(op&7); k++ {
				hk := h + k*0x9e3779b97f4a7c15
				if _, ok := want[hk]; ok {
					continue
				}
				a := &StringAttr{Value: fmt.Sprint(hk)}
				tab.put(hk, a)
				want[hk] = a
				keys = append(keys, hk)
			}
		}
		checkTable(t, &tab, want, nil)
	})
}
