package asm

import "unsafe"

// nameTable maps SSA names (without '%') to their definitions. Generated
// IR names values `%123` or `%v123`; such names (a short prefix and a
// decimal number without leading zeros) are kept in dense slices indexed
// by the number, which is several times smaller and faster than a map for
// the million-value functions rlx parses. Other names go to a map, and so
// do numbers far beyond the names a slice holds (`%999999999` alone must
// not allocate a billion entries): a slice grows only to a size
// proportional to the names in it.
type nameTable struct {
	byName   map[string]valueDef
	prefixes []numbered
	// sizeHint is the expected number of names, from the source size, so
	// the first numbered table is allocated once instead of doubling.
	sizeHint int
}

type numbered struct {
	prefix string
	defs   []valueDef
	n      int  // names set in defs, so its size can stay proportional
	spilt  bool // some numbers of this prefix went to the map
}

// maxPrefixes bounds the prefixes with a dense table: names of further
// prefixes go to the map, so a file of many prefixes (`%a1`, `%b1`, …)
// neither makes each lookup scan them all nor allocates a table apiece.
const maxPrefixes = 16

// denseSlack is how far beyond four times its names a dense slice may grow.
const denseSlack = 1024

// splitNumbered splits `v123` into "v" and 123. ok is false for names
// that do not end in a canonical decimal number or have a long prefix.
func splitNumbered(name []byte) (prefix []byte, n int, ok bool) {
	i := len(name)
	for i > 0 && isDigit(name[i-1]) {
		i--
	}
	digits := name[i:]
	if len(digits) == 0 || len(digits) > 9 || (digits[0] == '0' && len(digits) > 1) || i > 8 {
		return nil, 0, false
	}
	for _, c := range digits {
		n = n*10 + int(c-'0')
	}
	return name[:i], n, true
}

func (t *nameTable) slot(prefix []byte) *numbered {
	if i := t.slotIndex(prefix, false); i >= 0 {
		return &t.prefixes[i]
	}
	return nil
}

// slotIndex returns the index of prefix's dense table, creating it if
// create is set, or -1.
func (t *nameTable) slotIndex(prefix []byte, create bool) int {
	for i := range t.prefixes {
		if t.prefixes[i].prefix == string(prefix) {
			return i
		}
	}
	if !create || len(t.prefixes) == maxPrefixes {
		return -1
	}
	t.prefixes = append(t.prefixes, numbered{prefix: string(prefix)})
	if len(t.prefixes) == 1 && t.sizeHint > 0 {
		t.prefixes[0].defs = make([]valueDef, 0, t.sizeHint)
	}
	return len(t.prefixes) - 1
}

func (t *nameTable) get(name []byte) (valueDef, bool) {
	if pre, n, ok := splitNumbered(name); ok {
		if s := t.slot(pre); s != nil && n < len(s.defs) && s.defs[n].first != nil {
			return s.defs[n], true
		}
	}
	d, ok := t.byName[string(name)]
	return d, ok
}

// set binds name to d. It returns where the name went, for del: a dense
// slot (slot index and number packed in dense, ok true) or the map (key,
// the map's own copy of the name).
func (t *nameTable) set(name []byte, d valueDef) (dense uint64, key string, ok bool) {
	if pre, n, isNum := splitNumbered(name); isNum {
		if i := t.slotIndex(pre, true); i >= 0 {
			s := &t.prefixes[i]
			if n < max(cap(s.defs), 4*s.n+denseSlack) {
				if n >= len(s.defs) {
					if n >= cap(s.defs) {
						grown := make([]valueDef, n+1, max(2*cap(s.defs), n+1, 64))
						copy(grown, s.defs)
						s.defs = grown
					}
					s.defs = s.defs[:n+1]
				}
				if s.defs[n].first == nil {
					s.n++
				}
				s.defs[n] = d
				if s.spilt {
					delete(t.byName, string(name)) // an older definition, now shadowed
				}
				return uint64(i)<<32 | uint64(n), "", true
			}
			s.spilt = true
		}
	}
	if t.byName == nil {
		t.byName = make(map[string]valueDef)
	}
	key = string(name)
	t.byName[key] = d
	return 0, key, false
}

// delDense forgets the name set returned dense for.
func (t *nameTable) delDense(dense uint64) {
	s := &t.prefixes[dense>>32]
	if n := int(uint32(dense)); n < len(s.defs) && s.defs[n].first != nil {
		s.defs[n] = valueDef{}
		s.n--
	}
}

// delKey forgets the name set returned key for.
func (t *nameTable) delKey(key string) { delete(t.byName, key) }

// bytesOf views a string as bytes without copying; the result must not be
// modified.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
