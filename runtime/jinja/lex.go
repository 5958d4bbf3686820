package jinja

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

type tokKind int

const (
	tData tokKind = iota
	tVarBegin
	tVarEnd
	tBlockBegin
	tBlockEnd
	tName
	tString
	tInt
	tFloat
	tOp
	tEOF
)

var tokNames = [...]string{"text", "'{{'", "'}}'", "'{%'", "'%}'", "name", "string", "integer", "float", "operator", "end of template"}

// token is one lexeme; pos is its byte offset in the normalized source.
type token struct {
	kind tokKind
	val  string
	pos  int
	num  any // int64 or float64 for tInt and tFloat
}

func (t token) String() string {
	switch t.kind {
	case tName, tOp:
		return strconv.Quote(t.val)
	case tString:
		return "string " + strconv.Quote(t.val)
	case tData:
		return "text"
	}
	return tokNames[t.kind]
}

// normalizeSource does what jinja2 does before lexing: every \r\n and \r
// becomes \n and one trailing newline is dropped (keep_trailing_newline
// is off).
func normalizeSource(s string) string {
	if strings.ContainsRune(s, '\r') {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
	}
	return strings.TrimSuffix(s, "\n")
}

// isPySpace is Python's str.isspace for one rune.
func isPySpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x1f, 0x85:
		return true
	}
	return r > 0x7f && unicode.IsSpace(r)
}

func trimRightPySpace(s string) string { return strings.TrimRightFunc(s, isPySpace) }

// lexer splits a template as jinja2's lexer does with trim_blocks and
// lstrip_blocks on.
type lexer struct {
	t    *Template
	src  string
	pos  int
	toks []token
	// lineStarting is jinja2's line_starting: the last match ended in a
	// newline, so text before a block tag starts a line even without one.
	lineStarting bool
}

func lex(t *Template) ([]token, error) {
	lx := &lexer{t: t, src: t.src, lineStarting: true}
	if err := lx.run(); err != nil {
		return nil, err
	}
	lx.toks = append(lx.toks, token{kind: tEOF, pos: len(lx.src)})
	return lx.toks, nil
}

func (lx *lexer) run() error {
	for lx.pos < len(lx.src) {
		rest := lx.src[lx.pos:]
		i := indexTagStart(rest)
		if i < 0 {
			lx.toks = append(lx.toks, token{kind: tData, val: rest, pos: lx.pos})
			lx.pos = len(lx.src)
			return nil
		}
		text := rest[:i]
		kind := rest[i+1]
		sign := byte(0)
		if i+2 < len(rest) && (rest[i+2] == '-' || rest[i+2] == '+') {
			sign = rest[i+2]
		}
		switch {
		case sign == '-':
			text = trimRightPySpace(text)
		case sign != '+' && kind != '{':
			l := strings.LastIndexByte(text, '\n') + 1
			if l > 0 || lx.lineStarting {
				if strings.TrimLeftFunc(text[l:], isPySpace) == "" {
					text = text[:l]
				}
			}
		}
		if text != "" {
			lx.toks = append(lx.toks, token{kind: tData, val: text, pos: lx.pos})
		}
		start := lx.pos + i
		lx.pos = start + 2
		if sign != 0 {
			lx.pos++
		}
		var err error
		switch kind {
		case '#':
			err = lx.comment(start)
		case '{':
			lx.toks = append(lx.toks, token{kind: tVarBegin, pos: start})
			err = lx.tag(start, "}}", tVarEnd)
		case '%':
			if lx.isRaw() {
				return lx.t.errorf(start, "the \"raw\" block is not supported")
			}
			lx.toks = append(lx.toks, token{kind: tBlockBegin, pos: start})
			err = lx.tag(start, "%}", tBlockEnd)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// indexTagStart finds the first "{{", "{%" or "{#".
func indexTagStart(s string) int {
	off := 0
	for {
		i := strings.IndexByte(s[off:], '{')
		if i < 0 || off+i+1 >= len(s) {
			return -1
		}
		c := s[off+i+1]
		if c == '{' || c == '%' || c == '#' {
			return off + i
		}
		off += i + 1
	}
}

func (lx *lexer) isRaw() bool {
	s := strings.TrimLeft(lx.src[lx.pos:], " \t\n\r\f\v")
	if !strings.HasPrefix(s, "raw") {
		return false
	}
	s = strings.TrimLeft(s[3:], " \t\n\r\f\v")
	return strings.HasPrefix(s, "%}") || strings.HasPrefix(s, "-%}") || strings.HasPrefix(s, "+%}")
}

// endAt reports whether an end marker starts at the current position and
// consumes it with the whitespace it controls.
func (lx *lexer) endAt(end string, block bool) bool {
	s := lx.src[lx.pos:]
	switch {
	case strings.HasPrefix(s, "-"+end):
		n := len(end) + 1
		rest := s[n:]
		n += len(rest) - len(strings.TrimLeftFunc(rest, isPySpace))
		lx.lineStarting = n > 0 && s[n-1] == '\n'
		lx.pos += n
		return true
	case block && strings.HasPrefix(s, "+"+end):
		lx.pos += len(end) + 1
		lx.lineStarting = false
		return true
	case strings.HasPrefix(s, end):
		n := len(end)
		if block && strings.HasPrefix(s[n:], "\n") {
			n++
		}
		lx.lineStarting = s[n-1] == '\n'
		lx.pos += n
		return true
	}
	return false
}

func (lx *lexer) comment(start int) error {
	for lx.pos < len(lx.src) {
		if lx.endAt("#}", true) {
			return nil
		}
		lx.pos++
	}
	return lx.t.errorf(start, "the comment is not closed")
}

var operators = []string{"//", "**", "==", "!=", ">=", "<=", "+", "-", "/", "*", "%", "~", "[", "]", "(", ")", "{", "}", "<", ">", "=", ".", ":", "|", ",", ";"}

func (lx *lexer) tag(start int, end string, endKind tokKind) error {
	var depth []byte // open brackets, so a "}}" inside a dict is not the end
	for {
		for lx.pos < len(lx.src) && isPySpace(rune(lx.src[lx.pos])) {
			lx.pos++
		}
		if lx.pos >= len(lx.src) {
			what := "block tag"
			if endKind == tVarEnd {
				what = "expression"
			}
			return lx.t.errorf(start, "the %s is not closed: expected %q", what, end)
		}
		if len(depth) == 0 {
			p := lx.pos
			if lx.endAt(end, endKind == tBlockEnd) {
				lx.toks = append(lx.toks, token{kind: endKind, pos: p})
				return nil
			}
		}
		s := lx.src[lx.pos:]
		c := s[0]
		switch {
		case c == '\'' || c == '"':
			if err := lx.str(); err != nil {
				return err
			}
		case c >= '0' && c <= '9':
			lx.number()
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			n := 1
			for n < len(s) && (s[n] == '_' || s[n] >= 'a' && s[n] <= 'z' || s[n] >= 'A' && s[n] <= 'Z' || s[n] >= '0' && s[n] <= '9') {
				n++
			}
			lx.toks = append(lx.toks, token{kind: tName, val: s[:n], pos: lx.pos})
			lx.pos += n
		default:
			op := ""
			for _, o := range operators {
				if strings.HasPrefix(s, o) {
					op = o
					break
				}
			}
			if op == "" {
				r, _ := utf8.DecodeRuneInString(s)
				return lx.t.errorf(lx.pos, "unexpected character %q", r)
			}
			switch op {
			case "(", "[", "{":
				depth = append(depth, op[0])
			case ")", "]", "}":
				if len(depth) > 0 {
					depth = depth[:len(depth)-1]
				}
			}
			lx.toks = append(lx.toks, token{kind: tOp, val: op, pos: lx.pos})
			lx.pos += len(op)
		}
	}
}

func (lx *lexer) number() {
	s := lx.src[lx.pos:]
	digits := func(i int) int {
		j := i
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '_' && j > i && j+1 < len(s) && s[j+1] >= '0' && s[j+1] <= '9') {
			j++
		}
		return j
	}
	n := digits(0)
	isFloat := false
	if n+1 < len(s) && s[n] == '.' && s[n+1] >= '0' && s[n+1] <= '9' {
		n = digits(n + 1)
		isFloat = true
	}
	if n < len(s) && (s[n] == 'e' || s[n] == 'E') {
		j := n + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			n = digits(j)
			isFloat = true
		}
	}
	text := strings.ReplaceAll(s[:n], "_", "")
	tok := token{val: s[:n], pos: lx.pos}
	if isFloat {
		f, _ := strconv.ParseFloat(text, 64)
		tok.kind, tok.num = tFloat, f
	} else if i, err := strconv.ParseInt(text, 10, 64); err == nil {
		tok.kind, tok.num = tInt, i
	} else {
		f, _ := strconv.ParseFloat(text, 64)
		tok.kind, tok.num = tFloat, f
	}
	lx.toks = append(lx.toks, tok)
	lx.pos += n
}

// str reads a string literal and decodes it as Python's unicode-escape
// codec does, which is how jinja2 reads one.
func (lx *lexer) str() error {
	start := lx.pos
	q := lx.src[lx.pos]
	i := lx.pos + 1
	for i < len(lx.src) && lx.src[i] != q {
		if lx.src[i] == '\\' {
			i++
		}
		i++
	}
	if i >= len(lx.src) {
		return lx.t.errorf(start, "the string is not closed")
	}
	lx.toks = append(lx.toks, token{kind: tString, val: unescape(lx.src[start+1 : i]), pos: start})
	lx.pos = i + 1
	return nil
}

func unescape(s string) string {
	if !strings.ContainsRune(s, '\\') {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case '\n':
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case 'a':
			b.WriteByte('\a')
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if i+1+n <= len(s) {
				if v, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32); err == nil && v <= unicode.MaxRune {
					b.WriteRune(rune(v))
					i += n
					continue
				}
			}
			b.WriteByte('\\')
			b.WriteByte(e)
		default:
			if e >= '0' && e <= '7' {
				v, j := 0, i
				for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
					v = v*8 + int(s[j]-'0')
					j++
				}
				b.WriteRune(rune(v))
				i = j - 1
				continue
			}
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String()
}
