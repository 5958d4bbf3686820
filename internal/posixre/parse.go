package posixre

// op is the kind of a node in the parsed expression.
type op uint8

const (
	opLit     op = iota // one byte, node.b
	opLits              // a run of literal bytes, node.str
	opAny               // '.', any byte but '\n'
	opSet               // bracket expression, node.set
	opBOL               // '^'
	opEOL               // '$'
	opBOW               // [[:<:]]
	opEOW               // [[:>:]]
	opEmpty             // the empty body of "()"
	opGroup             // capturing group node.n around node.subs[0]
	opConcat            // node.subs in sequence
	opAlt               // one of node.subs
	opRepeat            // node.subs[0] repeated node.min..node.max times (max -1: unbounded)
	opBackref           // the text captured by group node.n
)

// node is one element of a parsed expression.
type node struct {
	op       op
	b        byte
	str      string
	set      *byteSet
	neg      bool // opSet: written as a non-matching list "[^...]"
	n        int
	min, max int
	subs     []*node
}

// byteSet is a set of bytes. For a non-matching list it holds the listed
// bytes; the node's neg flag says the set is to be complemented.
type byteSet [4]uint64

func (s *byteSet) add(c byte)      { s[c>>6] |= 1 << (c & 63) }
func (s *byteSet) has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }

// Error codes, numbered as in regcomp's regex.h.
const (
	errCollate = 3
	errCtype   = 4
	errEscape  = 5
	errSubreg  = 6
	errBrack   = 7
	errParen   = 8
	errBrace   = 9
	errBadBR   = 10
	errRange   = 11
	errBadRpt  = 13
	errEmpty   = 14
)

var errMessages = map[int]string{
	errCollate: "invalid collating element",
	errCtype:   "invalid character class",
	errEscape:  `trailing backslash (\)`,
	errSubreg:  "invalid backreference number",
	errBrack:   "brackets ([ ]) not balanced",
	errParen:   "parentheses not balanced",
	errBrace:   "braces not balanced",
	errBadBR:   "invalid repetition count(s)",
	errRange:   "invalid character range",
	errBadRpt:  "repetition-operator operand invalid",
	errEmpty:   "empty (sub)expression",
}

// Error is a syntax error in an expression. Its message is the one
// regerror gives for the same mistake, e.g. "parentheses not balanced".
type Error struct {
	Code int
}

func (e *Error) Error() string { return errMessages[e.Code] }

// dupMax is RE_DUP_MAX, the largest repetition count a bound may give.
const dupMax = 255

// parser is a recursive-descent version of regcomp's p_ere.
type parser struct {
	s      string
	pos    int
	nsub   int
	closed [10]bool // closed[i]: group i (1..9) has been closed, so \i is valid
	err    *Error
}

func (p *parser) more() bool      { return p.pos < len(p.s) }
func (p *parser) more2() bool     { return p.pos+1 < len(p.s) }
func (p *parser) peek() byte      { return p.s[p.pos] }
func (p *parser) peek2() byte     { return p.s[p.pos+1] }
func (p *parser) see(c byte) bool { return p.more() && p.peek() == c }
func (p *parser) seeTwo(a, b byte) bool {
	return p.more2() && p.peek() == a && p.peek2() == b
}

func (p *parser) eat(c byte) bool {
	if p.see(c) {
		p.pos++
		return true
	}
	return false
}

func (p *parser) eatTwo(a, b byte) bool {
	if p.seeTwo(a, b) {
		p.pos += 2
		return true
	}
	return false
}

func (p *parser) fail(code int) {
	if p.err == nil {
		p.err = &Error{Code: code}
	}
	p.pos = len(p.s)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isAlpha(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// parse parses a whole expression. It returns the tree and the number of
// capturing groups.
func parse(s string) (*node, int, error) {
	p := &parser{s: s}
	n := p.ere(-1)
	if p.err != nil {
		return nil, 0, p.err
	}
	return n, p.nsub, nil
}

// ere parses alternatives up to the byte stop (-1: end of input).
func (p *parser) ere(stop int) *node {
	var alts []*node
	for {
		var items []*node
		emitted := false
		var run []byte
		flush := func() {
			if len(run) > 0 {
				items = append(items, &node{op: opLits, str: string(run)})
				run = run[:0]
			}
		}
		for p.more() && p.peek() != '|' && int(p.peek()) != stop {
			if c, n := p.plainLiteral(); n > 0 {
				run = append(run, c)
				p.pos += n
				emitted = true
				continue
			}
			flush()
			n, ok := p.exp()
			if p.err != nil {
				return nil
			}
			if ok {
				emitted = true
				if n != nil {
					items = append(items, n)
				}
			}
		}
		flush()
		if !emitted {
			p.fail(errEmpty)
			return nil
		}
		alts = append(alts, concat(items))
		if !p.eat('|') {
			break
		}
	}
	if len(alts) == 1 {
		return alts[0]
	}
	return &node{op: opAlt, subs: alts}
}

func concat(items []*node) *node {
	switch len(items) {
	case 0:
		return &node{op: opEmpty}
	case 1:
		return items[0]
	}
	return &node{op: opConcat, subs: items}
}

// plainLiteral reports whether the next atom is an ordinary or escaped
// character without a repetition; it returns the character and the
// number of bytes it takes. This fast path keeps long literal runs from
// costing one node per byte.
func (p *parser) plainLiteral() (byte, int) {
	c, n := p.s[p.pos], 1
	switch c {
	case '(', ')', '^', '$', '|', '*', '+', '?', '.', '[', '{':
		return 0, 0
	case '\\':
		if p.pos+1 >= len(p.s) {
			return 0, 0
		}
		c, n = p.s[p.pos+1], 2
		if '1' <= c && c <= '9' {
			return 0, 0
		}
	}
	if next := p.pos + n; next < len(p.s) {
		switch p.s[next] {
		case '*', '+', '?':
			return 0, 0
		case '{':
			if next+1 < len(p.s) && isDigit(p.s[next+1]) {
				return 0, 0
			}
		}
	}
	return c, n
}

// exp parses one atom and its optional repetition (regcomp's p_ere_exp). The
// second result reports whether regcomp would have emitted anything: an
// atom repeated {0} is dropped, which matters for the "empty (sub)expression"
// check. A dropped atom is returned as nil.
func (p *parser) exp() (*node, bool) {
	c := p.s[p.pos]
	p.pos++
	var atom *node
	wasCaret := false
	switch c {
	case '(':
		if !p.more() {
			p.fail(errParen)
			return nil, false
		}
		p.nsub++
		sub := p.nsub
		var body *node
		if !p.see(')') {
			body = p.ere(')')
			if p.err != nil {
				return nil, false
			}
		} else {
			body = &node{op: opEmpty}
		}
		if sub < len(p.closed) {
			p.closed[sub] = true
		}
		if !p.eat(')') {
			p.fail(errParen)
			return nil, false
		}
		atom = &node{op: opGroup, n: sub, subs: []*node{body}}
	case ')':
		p.fail(errParen)
		return nil, false
	case '^':
		atom = &node{op: opBOL}
		wasCaret = true
	case '$':
		atom = &node{op: opEOL}
	case '|':
		p.fail(errEmpty)
		return nil, false
	case '*', '+', '?':
		p.fail(errBadRpt)
		return nil, false
	case '.':
		atom = &node{op: opAny}
	case '[':
		atom = p.bracket()
		if p.err != nil {
			return nil, false
		}
	case '\\':
		if !p.more() {
			p.fail(errEscape)
			return nil, false
		}
		c = p.s[p.pos]
		p.pos++
		if '1' <= c && c <= '9' {
			n := int(c - '0')
			if !p.closed[n] {
				p.fail(errSubreg)
				return nil, false
			}
			atom = &node{op: opBackref, n: n}
		} else {
			atom = &node{op: opLit, b: c}
		}
	case '{':
		if p.more() && isDigit(p.peek()) {
			p.fail(errBadRpt)
			return nil, false
		}
		atom = &node{op: opLit, b: c}
	default:
		atom = &node{op: opLit, b: c}
	}

	if !p.more() {
		return atom, true
	}
	c = p.peek()
	if !(c == '*' || c == '+' || c == '?' || (c == '{' && p.more2() && isDigit(p.peek2()))) {
		return atom, true
	}
	p.pos++
	if wasCaret {
		p.fail(errBadRpt)
		return nil, false
	}
	rep := &node{op: opRepeat, subs: []*node{atom}}
	switch c {
	case '*':
		rep.min, rep.max = 0, -1
	case '+':
		rep.min, rep.max = 1, -1
	case '?':
		rep.min, rep.max = 0, 1
	case '{':
		lo := p.count()
		if p.err != nil {
			return nil, false
		}
		hi := lo
		if p.eat(',') {
			if p.more() && isDigit(p.peek()) {
				hi = p.count()
				if p.err != nil {
					return nil, false
				}
				if lo > hi {
					p.fail(errBadBR)
					return nil, false
				}
			} else {
				hi = -1
			}
		}
		if !p.eat('}') {
			for p.more() && p.peek() != '}' {
				p.pos++
			}
			if !p.more() {
				p.fail(errBrace)
			} else {
				p.fail(errBadBR)
			}
			return nil, false
		}
		rep.min, rep.max = lo, hi
	}
	if p.more() {
		c = p.peek()
		if c == '*' || c == '+' || c == '?' || (c == '{' && p.more2() && isDigit(p.peek2())) {
			p.fail(errBadRpt)
			return nil, false
		}
	}
	if rep.min == 0 && rep.max == 0 {
		return nil, false
	}
	return rep, true
}

// count parses the number in a bound (regcomp's p_count).
func (p *parser) count() int {
	n, digits := 0, 0
	for p.more() && isDigit(p.peek()) && n <= dupMax {
		n = n*10 + int(p.peek()-'0')
		p.pos++
		digits++
	}
	if digits == 0 || n > dupMax {
		p.fail(errBadBR)
	}
	return n
}

// bracket parses a bracket expression after its '[' (regcomp's p_bracket).
func (p *parser) bracket() *node {
	rest := p.s[p.pos:]
	if len(rest) >= 6 && rest[:6] == "[:<:]]" {
		p.pos += 6
		return &node{op: opBOW}
	}
	if len(rest) >= 6 && rest[:6] == "[:>:]]" {
		p.pos += 6
		return &node{op: opEOW}
	}
	set := new(byteSet)
	neg := p.eat('^')
	if p.eat(']') {
		set.add(']')
	} else if p.eat('-') {
		set.add('-')
	}
	for p.more() && p.peek() != ']' && !p.seeTwo('-', ']') {
		p.term(set)
		if p.err != nil {
			return nil
		}
	}
	if p.eat('-') {
		set.add('-')
	}
	if !p.eat(']') {
		p.fail(errBrack)
		return nil
	}
	return &node{op: opSet, set: set, neg: neg}
}

// term parses one element of a bracket expression (regcomp's p_b_term).
func (p *parser) term(set *byteSet) {
	var c byte
	switch {
	case p.see('['):
		if p.more2() {
			c = p.peek2()
		}
	case p.see('-'):
		p.fail(errRange)
		return
	}
	switch c {
	case ':':
		p.pos += 2
		if !p.more() {
			p.fail(errBrack)
			return
		}
		if c := p.peek(); c == '-' || c == ']' {
			p.fail(errCtype)
			return
		}
		start := p.pos
		for p.more() && isAlpha(p.peek()) {
			p.pos++
		}
		members, ok := classes[p.s[start:p.pos]]
		if !ok {
			p.fail(errCtype)
			return
		}
		for i := 0; i < 256; i++ {
			if members(byte(i)) {
				set.add(byte(i))
			}
		}
		if !p.more() {
			p.fail(errBrack)
			return
		}
		if !p.eatTwo(':', ']') {
			p.fail(errCtype)
		}
	case '=':
		p.pos += 2
		if !p.more() {
			p.fail(errBrack)
			return
		}
		if c := p.peek(); c == '-' || c == ']' {
			p.fail(errCollate)
			return
		}
		e := p.collElem('=')
		if p.err != nil {
			return
		}
		set.add(e)
		if !p.more() {
			p.fail(errBrack)
			return
		}
		if !p.eatTwo('=', ']') {
			p.fail(errCollate)
		}
	default:
		start := p.symbol()
		if p.err != nil {
			return
		}
		finish := start
		if p.see('-') && p.more2() && p.peek2() != ']' {
			p.pos++
			if p.eat('-') {
				finish = '-'
			} else {
				finish = p.symbol()
				if p.err != nil {
					return
				}
			}
		}
		// regcomp compares plain chars, which are signed on the platforms
		// LLVM's FileCheck runs on.
		if int8(start) > int8(finish) {
			p.fail(errRange)
			return
		}
		for i := int(int8(start)); i <= int(int8(finish)); i++ {
			set.add(byte(int8(i)))
		}
	}
}

// symbol parses a bracket-expression symbol: a byte or [.name.].
func (p *parser) symbol() byte {
	if !p.more() {
		p.fail(errBrack)
		return 0
	}
	if !p.eatTwo('[', '.') {
		c := p.peek()
		p.pos++
		return c
	}
	v := p.collElem('.')
	if p.err != nil {
		return 0
	}
	if !p.eatTwo('.', ']') {
		p.fail(errCollate)
	}
	return v
}

// collElem parses a collating element name ended by end followed by ']'.
func (p *parser) collElem(end byte) byte {
	start := p.pos
	for p.more() && !p.seeTwo(end, ']') {
		p.pos++
	}
	if !p.more() {
		p.fail(errBrack)
		return 0
	}
	name := p.s[start:p.pos]
	if c, ok := collNames[name]; ok {
		return c
	}
	if len(name) == 1 {
		return name[0]
	}
	p.fail(errCollate)
	return 0
}
