package mutate

import (
	"bytes"
	"fmt"
	"math/rand/v2"
)

// Kind is the kind of a mutation.
type Kind int

// The kinds of mutation, in the order Mutate draws them.
const (
	Replace   Kind = iota // one byte replaced by another
	Insert                // one byte inserted
	Delete                // one token deleted
	Duplicate             // one token written twice
)

var kindNames = [...]string{"replace", "insert", "delete", "duplicate"}

func (k Kind) String() string { return kindNames[k] }

// Mutation says what Mutate did, for reports.
type Mutation struct {
	Kind Kind
	// Offset is where in the original text the mutation applies.
	Offset int
	// Old is the text removed or duplicated (a byte or a token); New the
	// text that replaced or was added.
	Old, New string
}

func (m Mutation) String() string {
	return fmt.Sprintf("%s at byte %d: %q -> %q", m.Kind, m.Offset, m.Old, m.New)
}

// Mutate returns src with one mutation drawn from r, and the mutation. The
// result always differs from src unless src is empty.
func Mutate(r *rand.Rand, src []byte) ([]byte, Mutation) {
	if len(src) == 0 {
		b := randomByte(r)
		return []byte{b}, Mutation{Kind: Insert, New: string(b)}
	}
	for {
		out, m := mutateOnce(r, src)
		if !bytes.Equal(out, src) {
			return out, m
		}
	}
}

func mutateOnce(r *rand.Rand, src []byte) ([]byte, Mutation) {
	switch k := Kind(r.IntN(4)); k {
	case Replace:
		i := r.IntN(len(src))
		b := randomByte(r)
		out := bytes.Clone(src)
		out[i] = b
		return out, Mutation{Kind: k, Offset: i, Old: string(src[i]), New: string(b)}
	case Insert:
		i := r.IntN(len(src) + 1)
		b := randomByte(r)
		return splice(src, i, i, []byte{b}), Mutation{Kind: k, Offset: i, New: string(b)}
	default:
		toks := Tokens(src)
		if len(toks) == 0 {
			return mutateOnce(r, src)
		}
		t := toks[r.IntN(len(toks))]
		tok := src[t.Start:t.End]
		if k == Delete {
			return splice(src, t.Start, t.End, nil), Mutation{Kind: k, Offset: t.Start, Old: string(tok)}
		}
		// A duplicate is written right after the token or after a space,
		// so both "foofoo" and "foo foo" occur.
		dup := tok
		if r.IntN(2) == 0 {
			dup = append([]byte{' '}, tok...)
		}
		return splice(src, t.End, t.End, dup), Mutation{Kind: k, Offset: t.Start, Old: string(tok), New: string(dup)}
	}
}

func splice(src []byte, from, to int, with []byte) []byte {
	out := make([]byte, 0, len(src)-(to-from)+len(with))
	out = append(out, src[:from]...)
	out = append(out, with...)
	return append(out, src[to:]...)
}

// punct are the bytes MLIR's grammar gives a meaning to.
const punct = `()[]{}<>,:;=%^#!@"'.-+*?/\`

// randomByte draws a replacement or inserted byte: punctuation half the
// time, then letters and digits, whitespace, and rarely a byte no MLIR
// text contains.
func randomByte(r *rand.Rand) byte {
	switch n := r.IntN(100); {
	case n < 50:
		return punct[r.IntN(len(punct))]
	case n < 70:
		const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$"
		return alnum[r.IntN(len(alnum))]
	case n < 85:
		return byte('0' + r.IntN(10))
	case n < 95:
		return " \n\t\r"[r.IntN(4)]
	default:
		return []byte{0, 0x7f, 0x80, 0xc3, 0xff, 0x01}[r.IntN(6)]
	}
}
