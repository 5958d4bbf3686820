package posixre

import (
	"fmt"
	"strings"
)

// highRune maps a byte >= 0x80 to the rune Go's engine sees for it. regexec
// works on bytes, Go's regexp on UTF-8 runes; spelling each high byte as a
// rune of its own, in the expression and in the searched text (see Text),
// makes '.', bracket expressions and repetitions count bytes as regexec
// does. ASCII is left alone.
func highRune(b byte) rune { return 0x100 + rune(b) }

// emitter writes a parsed expression in Go's regexp syntax, with high
// bytes spelled by highRune.
//
// In exact mode it fails (returns false) on the constructs Go lacks:
// back-references and the word-boundary kludges. In prefilter mode it
// never fails: a back-reference becomes a copy of its group and a word
// boundary becomes \b, so the result accepts a superset of the language
// and can be used to skip positions where no match can start.
type emitter struct {
	sb        strings.Builder
	prefilter bool
	// icase spells REG_ICASE out as [aA] classes: Go's (?i) would also fold
	// non-ASCII letters (k with the Kelvin sign), which regexec does not.
	icase  bool
	groups map[int]*node // group bodies, for copying into back-references
}

func (e *emitter) emit(n *node) bool {
	switch n.op {
	case opLit:
		e.byte(n.b)
	case opLits:
		for i := 0; i < len(n.str); i++ {
			e.byte(n.str[i])
		}
	case opAny:
		e.sb.WriteString(`[^\n]`)
	case opSet:
		e.set(n)
	case opBOL:
		e.sb.WriteString(`(?m:^)`)
	case opEOL:
		e.sb.WriteString(`(?m:$)`)
	case opBOW, opEOW:
		if !e.prefilter {
			return false
		}
		e.sb.WriteString(`\b`)
	case opEmpty:
		e.sb.WriteString(`(?:)`)
	case opGroup:
		e.groups[n.n] = n.subs[0]
		e.sb.WriteByte('(')
		if !e.emit(n.subs[0]) {
			return false
		}
		e.sb.WriteByte(')')
	case opConcat:
		for _, s := range n.subs {
			if !e.emit(s) {
				return false
			}
		}
	case opAlt:
		e.sb.WriteString(`(?:`)
		for i, s := range n.subs {
			if i > 0 {
				e.sb.WriteByte('|')
			}
			if !e.emit(s) {
				return false
			}
		}
		e.sb.WriteByte(')')
	case opRepeat:
		e.sb.WriteString(`(?:`)
		if !e.emit(n.subs[0]) {
			return false
		}
		e.sb.WriteByte(')')
		switch {
		case n.min == 0 && n.max < 0:
			e.sb.WriteByte('*')
		case n.min == 1 && n.max < 0:
			e.sb.WriteByte('+')
		case n.min == 0 && n.max == 1:
			e.sb.WriteByte('?')
		case n.max < 0:
			fmt.Fprintf(&e.sb, "{%d,}", n.min)
		case n.min == n.max:
			fmt.Fprintf(&e.sb, "{%d}", n.min)
		default:
			fmt.Fprintf(&e.sb, "{%d,%d}", n.min, n.max)
		}
	case opBackref:
		if !e.prefilter {
			return false
		}
		body := e.groups[n.n]
		if body == nil {
			e.sb.WriteString(`(?s:.*)`)
			return true
		}
		e.sb.WriteString(`(?:`)
		e.emit(body)
		e.sb.WriteByte(')')
	}
	return true
}

// byte writes one literal byte.
func (e *emitter) byte(b byte) {
	switch {
	case b >= 0x80:
		fmt.Fprintf(&e.sb, `\x{%x}`, highRune(b))
	case e.icase && isAlpha(b):
		e.sb.WriteByte('[')
		e.sb.WriteByte(b)
		e.sb.WriteByte(swapCase(b))
		e.sb.WriteByte(']')
	case b < ' ' || b == 0x7f:
		fmt.Fprintf(&e.sb, `\x{%x}`, b)
	case strings.IndexByte(`\.+*?()|[]{}^$-`, b) >= 0:
		e.sb.WriteByte('\\')
		e.sb.WriteByte(b)
	default:
		e.sb.WriteByte(b)
	}
}

// set writes a bracket expression as a class of bytes (runes by highRune).
func (e *emitter) set(n *node) {
	in := func(c int) bool {
		return n.set.has(byte(c)) || (e.icase && n.set.has(swapCase(byte(c))))
	}
	e.sb.WriteByte('[')
	if n.neg {
		e.sb.WriteString(`^\n`)
	}
	for c := 0; c < 0x100; {
		if !in(c) {
			c++
			continue
		}
		lo := c
		for c < 0x100 && in(c) && (c < 0x80) == (lo < 0x80) {
			c++
		}
		hi := c - 1
		r := func(c int) rune {
			if c >= 0x80 {
				return highRune(byte(c))
			}
			return rune(c)
		}
		fmt.Fprintf(&e.sb, `\x{%x}`, r(lo))
		if hi > lo {
			fmt.Fprintf(&e.sb, `-\x{%x}`, r(hi))
		}
	}
	e.sb.WriteByte(']')
}
