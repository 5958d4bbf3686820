package posixre

import (
	"regexp"
	"sort"
	"strings"
)

// Regexp is a compiled expression.
type Regexp struct {
	nsub  int
	icase bool
	// lit is set for expressions that are a plain string, optionally
	// anchored with ^ and $; they are found with a string search.
	lit *literal
	// exact is the Go translation when there is one; otherwise tree is
	// matched by backtracking, and pre prefilters candidate start
	// positions.
	exact *regexp.Regexp
	tree  *node
	pre   *regexp.Regexp
}

// Text is a text prepared for repeated searches: for Go's engine, every
// byte >= 0x80 is rewritten as a rune of its own (highRune), so that the
// engine counts bytes, and offsets are mapped back.
type Text struct {
	s     string
	trans string // s with high bytes rewritten; s itself if it has none
	high  []int  // offsets of the bytes >= 0x80 in s
}

// NewText prepares s for searching.
func NewText(s string) *Text {
	t := &Text{s: s, trans: s}
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			t.high = append(t.high, i)
		}
	}
	if len(t.high) == 0 {
		return t
	}
	var sb strings.Builder
	sb.Grow(len(s) + len(t.high))
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			sb.WriteRune(highRune(s[i]))
		} else {
			sb.WriteByte(s[i])
		}
	}
	t.trans = sb.String()
	return t
}

// toTrans maps an offset in s to one in t.trans.
func (t *Text) toTrans(o int) int {
	return o + sort.SearchInts(t.high, o)
}

// fromTrans maps an offset in t.trans (at a rune boundary) back to s.
func (t *Text) fromTrans(x int) int {
	return sort.Search(len(t.s)+1, func(o int) bool { return t.toTrans(o) >= x })
}

// literal is an expression of the form ^?text$?.
type literal struct {
	text     string
	bol, eol bool
}

// asLiteral recognizes expressions that need no regexp engine.
func asLiteral(n *node) *literal {
	items := []*node{n}
	if n.op == opConcat {
		items = n.subs
	}
	l := &literal{}
	if len(items) > 0 && items[0].op == opBOL {
		l.bol = true
		items = items[1:]
	}
	if len(items) > 0 && items[len(items)-1].op == opEOL {
		l.eol = true
		items = items[:len(items)-1]
	}
	if len(items) == 0 {
		return nil
	}
	var buf []byte
	for _, it := range items {
		switch it.op {
		case opLit:
			buf = append(buf, it.b)
		case opLits:
			buf = append(buf, it.str...)
		default:
			return nil
		}
	}
	l.text = string(buf)
	return l
}

// find returns the leftmost occurrence of l in s.
func (l *literal) find(s string, icase bool) []int {
	for from := 0; from <= len(s); {
		var i int
		if icase {
			i = IndexFold(s[from:], l.text)
		} else {
			i = strings.Index(s[from:], l.text)
		}
		if i < 0 {
			return nil
		}
		start := from + i
		end := start + len(l.text)
		if (!l.bol || start == 0 || s[start-1] == '\n') && (!l.eol || end == len(s) || s[end] == '\n') {
			return []int{start, end}
		}
		from = start + 1
	}
	return nil
}

// IndexFold is strings.Index under ASCII case folding (REG_ICASE in the C
// locale, and LLVM's StringRef::find_insensitive).
func IndexFold(s, sub string) int {
	if sub == "" {
		return 0
	}
	first := fold(sub[0])
	for i := 0; i+len(sub) <= len(s); i++ {
		if fold(s[i]) != first {
			continue
		}
		j := 1
		for j < len(sub) && fold(s[i+j]) == fold(sub[j]) {
			j++
		}
		if j == len(sub) {
			return i
		}
	}
	return -1
}

// Check parses expr and returns its number of capturing groups, or the
// syntax error regcomp would report.
func Check(expr string) (int, error) {
	_, nsub, err := parse(expr)
	return nsub, err
}

// Compile parses expr as a REG_EXTENDED|REG_NEWLINE expression, with
// REG_ICASE if icase is set.
func Compile(expr string, icase bool) (*Regexp, error) {
	tree, nsub, err := parse(expr)
	if err != nil {
		return nil, err
	}
	r := &Regexp{nsub: nsub, icase: icase, tree: tree}
	if r.lit = asLiteral(tree); r.lit != nil {
		return r, nil
	}
	e := &emitter{groups: map[int]*node{}, icase: icase}
	if e.emit(tree) {
		if re, err := regexp.Compile(e.sb.String()); err == nil {
			re.Longest()
			r.exact = re
			return r, nil
		}
	}
	p := &emitter{prefilter: true, groups: map[int]*node{}, icase: icase}
	p.emit(tree)
	if re, err := regexp.Compile(p.sb.String()); err == nil {
		r.pre = re
	}
	return r, nil
}

// NumSubexp returns the number of capturing groups.
func (r *Regexp) NumSubexp() int { return r.nsub }

// FindStringSubmatchIndex is Find on the whole of s.
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.Find(NewText(s), 0, len(s))
}

// Find returns the leftmost-longest match of r in the text between byte
// offsets start and end, as pairs of offsets relative to start: the whole
// match first, then one pair per group (-1, -1 for a group that did not
// take part). It returns nil if there is no match. start counts as the
// start of a line and end as the end of one, as for regexec with
// REG_STARTEND.
func (r *Regexp) Find(t *Text, start, end int) []int {
	if r.lit != nil {
		return r.lit.find(t.s[start:end], r.icase)
	}
	if r.exact != nil {
		if len(t.high) == 0 {
			return r.exact.FindStringSubmatchIndex(t.s[start:end])
		}
		ts := t.toTrans(start)
		m := r.exact.FindStringSubmatchIndex(t.trans[ts:t.toTrans(end)])
		for i, x := range m {
			if x >= 0 {
				m[i] = t.fromTrans(ts+x) - start
			}
		}
		return m
	}
	s := t.s[start:end]
	m := &backtracker{text: s, icase: r.icase}
	te := t.toTrans(end)
	for from := 0; from <= len(s); from++ {
		if r.pre != nil {
			loc := r.pre.FindStringIndex(t.trans[t.toTrans(start+from):te])
			if loc == nil {
				return nil
			}
			from = t.fromTrans(t.toTrans(start+from)+loc[0]) - start
		}
		if res := m.longestAt(r.tree, r.nsub, from); res != nil {
			return res
		}
		if m.stopped {
			return nil
		}
	}
	return nil
}

// GoSyntax returns the Go regexp syntax that matches what expr matches
// (with bytes >= 0x80 spelled as highRune), and false if there is none, in
// which case expr is matched by backtracking (or expr is invalid).
func GoSyntax(expr string, icase bool) (string, bool) {
	tree, _, err := parse(expr)
	if err != nil {
		return "", false
	}
	e := &emitter{groups: map[int]*node{}, icase: icase}
	if !e.emit(tree) {
		return "", false
	}
	return e.sb.String(), true
}

// MatchString reports whether r matches somewhere in s.
func (r *Regexp) MatchString(s string) bool { return r.FindStringSubmatchIndex(s) != nil }

// QuoteMeta returns s with every character that is special in an extended
// expression escaped, as llvm::Regex::escape does.
func QuoteMeta(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(`()^$|*+?.[]\{}`, s[i]) >= 0 {
			sb.WriteByte('\\')
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}
