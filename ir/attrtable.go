package ir

// attrTable maps attribute hashes to attributes for the uniquer. Entries
// (hash and attribute) are appended to fixed-size chunks, so they never
// move; an open-addressing index over them (linear probing, at most 3/4
// full) holds 8-byte slots: the top 32 bits of the hash and the entry's
// number.
//
// The index grows incrementally: when it doubles, the old slots move over
// two per insert, so no insert does more than a constant amount of work.
// A Go map grows by rehashing its tables, and with a uniform hash all of
// them fill and split at about the same time: the cost of moving every
// attribute made so far falls on whichever inserts cross the threshold,
// so a pass adding a few attributes to a large context could pay for
// rehashing everything the parser made. A slot's position comes from the
// top bits of the hash, so the slots at old position i land near
// positions 2i and 2i+1 of the doubled index, and moving old slots needs
// nothing but the slots.
type attrTable struct {
	cur  []uint64 // fp<<32 | entry number+1; 0: empty
	bits uint     // len(cur) == 1<<bits
	// old is the index before the last doubling while its slots move;
	// nil otherwise. Old slots are only read, never cleared: slots from
	// start up to moved (circularly) have been copied to cur, and so have
	// all entries whose home slot lies before done, the end of the last
	// cluster (run of full slots) copied whole.
	old                []uint64
	oldBits            uint
	start, moved, done int

	chunks [][]attrEntry // attrChunk entries each; the last one filling
	count  int
}

type attrEntry struct {
	h uint64
	a Attribute
}

const (
	attrTableMinBits = 10
	attrChunkBits    = 12
	attrChunk        = 1 << attrChunkBits
)

func newAttrTable() attrTable {
	return attrTable{cur: make([]uint64, 1<<attrTableMinBits), bits: attrTableMinBits}
}

// home returns the first slot to probe for fingerprint fp in an index of
// 1<<bits slots.
func home(fp uint32, bits uint) int { return int(fp >> (32 - bits)) }

func (t *attrTable) entry(slot uint64) *attrEntry {
	n := int(uint32(slot)) - 1
	return &t.chunks[n>>attrChunkBits][n&(attrChunk-1)]
}

// get returns the attribute stored under h.
func (t *attrTable) get(h uint64) (Attribute, bool) {
	fp := uint32(h >> 32)
	if a, ok := t.lookup(t.cur, t.bits, fp, h); ok {
		return a, true
	}
	if t.old == nil || t.copied(home(fp, t.oldBits)) {
		return nil, false
	}
	return t.lookup(t.old, t.oldBits, fp, h)
}

func (t *attrTable) lookup(index []uint64, bits uint, fp uint32, h uint64) (Attribute, bool) {
	mask := len(index) - 1
	for i := home(fp, bits); ; i = (i + 1) & mask {
		s := index[i]
		if s == 0 {
			return nil, false
		}
		if uint32(s>>32) == fp {
			if e := t.entry(s); e.h == h {
				return e.a, true
			}
		}
	}
}

// copied says every entry of the old index whose home slot is i is in
// cur. Positions count circularly from start.
func (t *attrTable) copied(i int) bool {
	mask := len(t.old) - 1
	return (i-t.start)&mask < (t.done-t.start)&mask
}

// put stores a under h, which get has just not found.
func (t *attrTable) put(h uint64, a Attribute) {
	if t.old != nil {
		t.step(2)
	}
	if (t.count+1)*4 > len(t.cur)*3 {
		if t.old != nil {
			t.step(len(t.old)) // not reached: two per insert finish first
		}
		t.grow()
	}
	if t.count&(attrChunk-1) == 0 {
		t.chunks = append(t.chunks, make([]attrEntry, attrChunk))
	}
	t.chunks[len(t.chunks)-1][t.count&(attrChunk-1)] = attrEntry{h, a}
	t.count++
	insert(t.cur, t.bits, uint64(h>>32<<32)|uint64(t.count))
}

func insert(index []uint64, bits uint, slot uint64) {
	mask := len(index) - 1
	i := home(uint32(slot>>32), bits)
	for index[i] != 0 {
		i = (i + 1) & mask
	}
	index[i] = slot
}

// grow doubles the index; the old slots move over in later puts,
// starting at an empty slot so that clusters move whole.
func (t *attrTable) grow() {
	t.old, t.oldBits = t.cur, t.bits
	t.bits++
	// Not cleared by hand: fresh memory is zero, and a clear of a large
	// index in one call cannot be preempted, which stalls a collection
	// that waits to scan this goroutine.
	t.cur = make([]uint64, 1<<t.bits)
	t.start = 0
	for t.old[t.start] != 0 {
		t.start++ // an index at most 3/4 full has an empty slot
	}
	t.done, t.moved = t.start, 0
}

// step moves up to n old slots into cur, dropping the old index once all
// have moved.
func (t *attrTable) step(n int) {
	mask := len(t.old) - 1
	for ; n > 0 && t.moved < len(t.old); n-- {
		i := (t.start + t.moved) & mask
		t.moved++
		if s := t.old[i]; s != 0 {
			insert(t.cur, t.bits, s)
		} else {
			t.done = i
		}
	}
	if t.moved == len(t.old) {
		t.old = nil
	}
}
