package filecheck

import (
	"sort"
	"strings"
)

// checkKind is the kind of a directive.
type checkKind int

const (
	kindNone checkKind = iota
	kindPlain
	kindNext
	kindSame
	kindNot
	kindDAG
	kindLabel
	kindEmpty
	kindComment
	// kindEOF is the implicit pattern that matches the end of the input,
	// added to carry trailing CHECK-NOT and CHECK-DAG directives.
	kindEOF
	kindBadNot
	kindBadCount
	kindMisspelled
)

// checkType is a directive kind with its modifiers.
type checkType struct {
	kind    checkKind
	count   int // CHECK-COUNT-n; 1 otherwise
	literal bool
}

// description is how diagnostics name the directive, e.g. "CHECK-NEXT" or
// "CHECK-COUNT{LITERAL}".
func (t checkType) description(prefix string) string {
	mods := ""
	if t.literal {
		mods = "{LITERAL}"
	}
	switch t.kind {
	case kindNone:
		return "invalid"
	case kindMisspelled:
		return "misspelled"
	case kindPlain:
		if t.count > 1 {
			return prefix + "-COUNT" + mods
		}
		return prefix + mods
	case kindNext:
		return prefix + "-NEXT" + mods
	case kindSame:
		return prefix + "-SAME" + mods
	case kindNot:
		return prefix + "-NOT" + mods
	case kindDAG:
		return prefix + "-DAG" + mods
	case kindLabel:
		return prefix + "-LABEL" + mods
	case kindEmpty:
		return prefix + "-EMPTY" + mods
	case kindComment:
		return prefix
	case kindEOF:
		return "implicit EOF"
	case kindBadNot:
		return "bad NOT"
	case kindBadCount:
		return "bad COUNT"
	}
	return "unknown"
}

// abbreviation is the label used in the input dump ("check", "next", ...).
func (t checkType) abbreviation() string {
	switch t.kind {
	case kindPlain:
		if t.count > 1 {
			return "count"
		}
		return "check"
	case kindNext:
		return "next"
	case kindSame:
		return "same"
	case kindNot:
		return "not"
	case kindDAG:
		return "dag"
	case kindLabel:
		return "label"
	case kindEmpty:
		return "empty"
	case kindComment:
		return "com"
	case kindEOF:
		return "eof"
	case kindBadNot:
		return "bad-not"
	case kindBadCount:
		return "bad-count"
	case kindMisspelled:
		return "misspelled"
	}
	return "none"
}

func isPartOfWord(c byte) bool {
	return isAlnum(c) || c == '-' || c == '_'
}

func isAlnum(c byte) bool {
	return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// findCheckType classifies the directive that starts with prefix at the
// front of buf (which begins with prefix). It returns the type and the
// text after the directive's colon. Misspelled reports an underscore
// instead of a hyphen ("CHECK_NEXT:").
func findCheckType(buf, prefix string, isComment bool) (checkType, int, bool) {
	none := checkType{kind: kindNone}
	if len(buf) <= len(prefix) {
		return none, -1, false
	}
	rest := buf[len(prefix):]
	at := func() int { return len(buf) - len(rest) }
	if isComment {
		if strings.HasPrefix(rest, ":") {
			rest = rest[1:]
			return checkType{kind: kindComment, count: 1}, at(), false
		}
		return none, -1, false
	}

	consumeModifiers := func(t checkType) (checkType, int) {
		if strings.HasPrefix(rest, ":") {
			rest = rest[1:]
			return t, at()
		}
		if !strings.HasPrefix(rest, "{") {
			return none, -1
		}
		rest = rest[1:]
		for {
			rest = strings.TrimLeft(rest, " \t\n\v\f\r")
			if !strings.HasPrefix(rest, "LITERAL") {
				return none, at()
			}
			rest = rest[len("LITERAL"):]
			t.literal = true
			rest = strings.TrimLeft(rest, " \t\n\v\f\r")
			if !strings.HasPrefix(rest, ",") {
				break
			}
			rest = rest[1:]
		}
		if !strings.HasPrefix(rest, "}:") {
			return none, at()
		}
		rest = rest[2:]
		return t, at()
	}

	plain := checkType{kind: kindPlain, count: 1}
	if strings.HasPrefix(rest, ":") {
		rest = rest[1:]
		return plain, at(), false
	}
	if rest[0] == '{' {
		t, a := consumeModifiers(plain)
		return t, a, false
	}

	misspelled := false
	switch {
	case strings.HasPrefix(rest, "_"):
		misspelled = true
	case strings.HasPrefix(rest, "-"):
	default:
		return none, -1, false
	}
	rest = rest[1:]

	if strings.HasPrefix(rest, "COUNT-") {
		rest = rest[len("COUNT-"):]
		n, used := parseDecimalPrefix(rest)
		if used == 0 {
			return checkType{kind: kindBadCount}, at(), misspelled
		}
		rest = rest[used:]
		if n <= 0 || n > 1<<31-1 || rest == "" || (rest[0] != ':' && rest[0] != '{') {
			return checkType{kind: kindBadCount}, at(), misspelled
		}
		t, a := consumeModifiers(checkType{kind: kindPlain, count: int(n)})
		return t, a, misspelled
	}

	for _, combo := range []string{"DAG-NOT:", "NOT-DAG:", "NEXT-NOT:", "NOT-NEXT:", "SAME-NOT:", "NOT-SAME:", "EMPTY-NOT:", "NOT-EMPTY:"} {
		if strings.HasPrefix(rest, combo) {
			return checkType{kind: kindBadNot}, at(), misspelled
		}
	}
	for _, s := range suffixKinds {
		if strings.HasPrefix(rest, s.name) {
			rest = rest[len(s.name):]
			t, a := consumeModifiers(checkType{kind: s.kind, count: 1})
			return t, a, misspelled
		}
	}
	return none, at(), false
}

// suffixKinds are the directive suffixes in the order LLVM tries them.
var suffixKinds = []struct {
	name string
	kind checkKind
}{
	{"NEXT", kindNext}, {"SAME", kindSame}, {"NOT", kindNot},
	{"DAG", kindDAG}, {"LABEL", kindLabel}, {"EMPTY", kindEmpty},
}

// parseDecimalPrefix parses the leading decimal digits of s the way
// StringRef::consumeInteger(10) does for an int64: it reports the value
// and the number of bytes used, and fails (used 0) on overflow.
func parseDecimalPrefix(s string) (int64, int) {
	var n int64
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		d := int64(s[i] - '0')
		if n > (1<<63-1-d)/10 {
			return 0, 0
		}
		n = n*10 + d
		i++
	}
	return n, i
}

// prefixMatcher finds the next occurrence of any check or comment prefix,
// remembering each prefix's next position so the scan stays linear.
type prefixMatcher struct {
	input    string
	prefixes []string
	pos      []int // next occurrence of prefixes[i] at or after the last query, -1 if none
}

func newPrefixMatcher(check, comment []string, input string) *prefixMatcher {
	all := append(append([]string(nil), check...), comment...)
	sort.SliceStable(all, func(i, j int) bool { return len(all[i]) > len(all[j]) })
	m := &prefixMatcher{input: input, prefixes: all, pos: make([]int, len(all))}
	for i, p := range all {
		m.pos[i] = strings.Index(input, p)
	}
	return m
}

// match returns the offset and the prefix of the first occurrence of any
// prefix at or after from, preferring the longest prefix at a position.
func (m *prefixMatcher) match(from int) (int, string) {
	best, bestPrefix := -1, ""
	for i, p := range m.prefixes {
		if m.pos[i] >= 0 && m.pos[i] < from {
			if j := strings.Index(m.input[from:], p); j >= 0 {
				m.pos[i] = from + j
			} else {
				m.pos[i] = -1
			}
		}
		if m.pos[i] >= 0 && (best < 0 || m.pos[i] < best) {
			best, bestPrefix = m.pos[i], p
		}
	}
	return best, bestPrefix
}
