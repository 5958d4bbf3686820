package posixre

// stepBudget bounds the work of one backtracking search. Expressions that
// need back-references are rare and small in practice; the budget only
// stops pathological cases such as nested stars over long lines, in which
// case the longest match found so far is returned.
const stepBudget = 5_000_000

// backtracker matches a parsed expression against bytes with regexec's
// semantics: REG_NEWLINE, leftmost-longest, case-sensitive
// back-references.
type backtracker struct {
	text    string
	icase   bool
	caps    []int
	best    []int
	steps   int
	stopped bool
}

func isWordByte(c byte) bool { return isAlpha(c) || isDigit(c) || c == '_' }

func fold(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func swapCase(c byte) byte {
	switch {
	case 'A' <= c && c <= 'Z':
		return c + 'a' - 'A'
	case 'a' <= c && c <= 'z':
		return c - ('a' - 'A')
	}
	return c
}

// longestAt returns the submatch indices of the longest match starting at
// start, or nil.
func (m *backtracker) longestAt(tree *node, nsub, start int) []int {
	if m.caps == nil {
		m.caps = make([]int, 2*(nsub+1))
	}
	for i := range m.caps {
		m.caps[i] = -1
	}
	m.best = nil
	m.match(tree, start, func(end int) bool {
		if m.best == nil || end > m.best[1] {
			m.best = append(m.best[:0], m.caps...)
			m.best[0], m.best[1] = start, end
		}
		return end == len(m.text)
	})
	return m.best
}

// match matches n at pos and calls k with each possible end, longest
// alternatives first. It returns true to stop the whole search.
func (m *backtracker) match(n *node, pos int, k func(int) bool) bool {
	if m.stopped {
		return true
	}
	m.steps++
	if m.steps > stepBudget {
		m.stopped = true
		return true
	}
	t := m.text
	switch n.op {
	case opLit:
		if pos < len(t) && (t[pos] == n.b || (m.icase && fold(t[pos]) == fold(n.b))) {
			return k(pos + 1)
		}
		return false
	case opLits:
		if pos+len(n.str) > len(t) {
			return false
		}
		for i := 0; i < len(n.str); i++ {
			if c := t[pos+i]; c != n.str[i] && !(m.icase && fold(c) == fold(n.str[i])) {
				return false
			}
		}
		return k(pos + len(n.str))
	case opAny:
		if pos < len(t) && t[pos] != '\n' {
			return k(pos + 1)
		}
		return false
	case opSet:
		if pos >= len(t) {
			return false
		}
		c := t[pos]
		in := n.set.has(c) || (m.icase && n.set.has(swapCase(c)))
		if n.neg {
			in = !in && c != '\n'
		}
		if in {
			return k(pos + 1)
		}
		return false
	case opBOL:
		if pos == 0 || t[pos-1] == '\n' {
			return k(pos)
		}
		return false
	case opEOL:
		if pos == len(t) || t[pos] == '\n' {
			return k(pos)
		}
		return false
	case opBOW:
		if (pos == 0 || !isWordByte(t[pos-1])) && pos < len(t) && isWordByte(t[pos]) {
			return k(pos)
		}
		return false
	case opEOW:
		if pos > 0 && isWordByte(t[pos-1]) && (pos == len(t) || !isWordByte(t[pos])) {
			return k(pos)
		}
		return false
	case opEmpty:
		return k(pos)
	case opGroup:
		i := 2 * n.n
		return m.match(n.subs[0], pos, func(end int) bool {
			oldS, oldE := m.caps[i], m.caps[i+1]
			m.caps[i], m.caps[i+1] = pos, end
			if k(end) {
				return true
			}
			m.caps[i], m.caps[i+1] = oldS, oldE
			return false
		})
	case opConcat:
		return m.concat(n.subs, pos, k)
	case opAlt:
		for _, s := range n.subs {
			if m.match(s, pos, k) {
				return true
			}
		}
		return false
	case opRepeat:
		return m.repeat(n, 0, pos, k)
	case opBackref:
		s, e := m.caps[2*n.n], m.caps[2*n.n+1]
		if s < 0 {
			return false
		}
		l := e - s
		if pos+l <= len(t) && t[pos:pos+l] == t[s:e] {
			return k(pos + l)
		}
		return false
	}
	return false
}

func (m *backtracker) concat(subs []*node, pos int, k func(int) bool) bool {
	if len(subs) == 0 {
		return k(pos)
	}
	return m.match(subs[0], pos, func(p int) bool {
		return m.concat(subs[1:], p, k)
	})
}

func (m *backtracker) repeat(n *node, count, pos int, k func(int) bool) bool {
	if n.max < 0 || count < n.max {
		stop := m.match(n.subs[0], pos, func(p int) bool {
			if p == pos && count >= n.min {
				// An empty iteration cannot lead anywhere new.
				return false
			}
			return m.repeat(n, count+1, p, k)
		})
		if stop {
			return true
		}
	}
	if count >= n.min {
		return k(pos)
	}
	return false
}
