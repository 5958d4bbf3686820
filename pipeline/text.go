package pipeline

import (
	"fmt"
	"strings"

	"github.com/rlx-compiler/rlx/internal/srcline"
	"github.com/rlx-compiler/rlx/internal/suggest"
)

// SyntaxError is an error in a textual pipeline or in pass options. Pos is
// the byte offset of the offending character in Text, the whole string the
// user wrote.
type SyntaxError struct {
	Text string
	Pos  int
	Msg  string
	// Source names the text in messages; "<pass-pipeline>" by default.
	Source string
}

func (e *SyntaxError) source() string {
	if e.Source != "" {
		return e.Source
	}
	return "<pass-pipeline>"
}

// Error returns `<pass-pipeline>:1:COL: MSG`.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:1:%d: %s", e.source(), e.Pos+1, e.Msg)
}

// Render returns the error the way rlx-opt prints it: a located error
// line, the whole text, and a caret under the offending character.
func (e *SyntaxError) Render() string {
	line := strings.Map(func(r rune) rune {
		if r < 0x80 && isSpace(byte(r)) {
			return ' '
		}
		return r
	}, e.Text)
	pos := min(max(e.Pos, 0), len(line))
	src, caret := srcline.Lines(line, pos+1)
	if caret != "" {
		caret += "\n"
	}
	return fmt.Sprintf("%s:1:%d: error: %s\n%s\n%s", e.source(), pos+1, e.Msg, src, caret)
}

// Parse parses a textual pipeline with an anchor, such as
// `builtin.module(func.func(cse,canonicalize{max-iterations=3}))`.
// Passes and named pipelines are looked up in reg. Errors are
// *SyntaxError values that point into text.
func Parse(reg *Registry, text string) (*OpPassManager, error) {
	start := skipSpace(text, 0)
	open := strings.IndexByte(text, '(')
	end := len(text)
	for end > 0 && isSpace(text[end-1]) {
		end--
	}
	if open < 0 || trimSpace(text[start:open]) == "" {
		return nil, &SyntaxError{Text: text, Pos: start,
			Msg: "expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'"}
	}
	anchor := trimSpace(text[start:open])
	if err := checkName(text, start, anchor); err != nil {
		return nil, err
	}
	pm := NewOpPassManager(anchor)
	p := &textParser{reg: reg, text: text}
	pos, err := p.parseElements(pm, open+1, false)
	if err != nil {
		return nil, err
	}
	if pos >= len(text) {
		return nil, &SyntaxError{Text: text, Pos: open, Msg: "encountered unbalanced parentheses while parsing pipeline"}
	}
	if pos != end-1 {
		next := skipSpace(text, pos+1)
		if text[next] == ')' {
			return nil, &SyntaxError{Text: text, Pos: next, Msg: "encountered extra closing ')' creating unbalanced parentheses while parsing pipeline"}
		}
		return nil, &SyntaxError{Text: text, Pos: next, Msg: "unexpected text after the end of the pipeline"}
	}
	return pm, nil
}

// AddPipeline parses a comma-separated list of pipeline elements without
// an anchor (`cse,func.func(canonicalize)`) and appends them to pm.
func AddPipeline(reg *Registry, pm *OpPassManager, text string) error {
	p := &textParser{reg: reg, text: text}
	pos, err := p.parseElements(pm, 0, false)
	if err != nil {
		return err
	}
	if pos < len(text) {
		return &SyntaxError{Text: text, Pos: pos, Msg: "encountered extra closing ')' creating unbalanced parentheses while parsing pipeline"}
	}
	return nil
}

type textParser struct {
	reg  *Registry
	text string
}

func (p *textParser) errorf(pos int, format string, args ...any) error {
	return &SyntaxError{Text: p.text, Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// trimSpace trims the bytes isSpace accepts, so that every step of the
// pipeline syntax agrees on what whitespace is.
func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

// checkName rejects names with characters no pass or op name has.
func checkName(text string, pos int, name string) error {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if isSpace(c) || c == '"' || c == '\'' || c == '=' || c == '}' {
			return &SyntaxError{Text: text, Pos: pos + i, Msg: fmt.Sprintf("unexpected character '%c' in pass or op name", c)}
		}
	}
	return nil
}

// parseElements parses `elem (',' elem)*` starting at pos, up to (not
// including) the ')' that closes the list or the end of the text, and
// adds the elements to pm. It returns the position of that ')' (or
// len(text)).
func (p *textParser) parseElements(pm *OpPassManager, pos int, nested bool) (int, error) {
	text := p.text
	pos = skipSpace(text, pos)
	// The anchor's list may be empty (`builtin.module()`); a nested one
	// may not, as in MLIR, where its empty element names no pass.
	if pos < len(text) && text[pos] == ')' && !nested {
		return pos, nil
	}
	for {
		nameStart := skipSpace(text, pos)
		i := nameStart
		for i < len(text) && !strings.ContainsRune(",(){}", rune(text[i])) {
			i++
		}
		name := strings.TrimRight(text[nameStart:i], " \t\r\n")
		if err := checkName(text, nameStart, name); err != nil {
			return 0, err
		}
		if i < len(text) && text[i] == '}' {
			return 0, p.errorf(i, "unexpected '}' in pipeline")
		}
		optStart, optEnd := -1, -1
		if i < len(text) && text[i] == '{' {
			close, err := matchBrace(text, i)
			if err != nil {
				return 0, err
			}
			optStart, optEnd = i+1, close
			i = skipSpace(text, close+1)
		}
		if i < len(text) && text[i] == '(' {
			if optStart >= 0 {
				return 0, p.errorf(optStart-1, "a nested pipeline ('%s') takes no options", name)
			}
			if name == "" {
				return 0, p.errorf(i, "expected an op name or 'any' before '('")
			}
			nested := pm.Nest(name)
			close, err := p.parseElements(nested, i+1, true)
			if err != nil {
				return 0, err
			}
			if close >= len(text) {
				return 0, p.errorf(nameStart, "encountered unbalanced parentheses while parsing pipeline")
			}
			i = close + 1
		} else if err := p.addPass(pm, name, nameStart, optStart, optEnd); err != nil {
			return 0, err
		}
		i = skipSpace(text, i)
		if i >= len(text) || text[i] == ')' {
			return i, nil
		}
		if text[i] != ',' {
			return 0, p.errorf(i, "expected ',' after parsing pipeline")
		}
		pos = i + 1
	}
}

func (p *textParser) addPass(pm *OpPassManager, name string, namePos, optStart, optEnd int) error {
	if pl := p.reg.LookupPipeline(name); pl != nil {
		if optStart >= 0 && trimSpace(p.text[optStart:optEnd]) != "" {
			return p.errorf(optStart, "pass pipeline '%s' takes no options", name)
		}
		if err := pl.Build(pm); err != nil {
			return p.errorf(namePos, "failed to build pass pipeline '%s': %v", name, err)
		}
		return nil
	}
	pi := p.reg.Lookup(name)
	if pi == nil {
		msg := fmt.Sprintf("'%s' does not refer to a registered pass or pass pipeline", name)
		if s := suggest.Closest(name, p.reg.names()); s != "" && name != "" {
			msg += "; did you mean '" + s + "'?"
		}
		return p.errorf(namePos, "%s", msg)
	}
	pass := NewPass(pi)
	if optStart >= 0 {
		if err := parseOptionsAt(pass, p.text, optStart, optEnd, ""); err != nil {
			return err
		}
	}
	if err := pm.checkAnchor(pass); err != nil {
		return p.errorf(namePos, "pass '%s' runs on '%s' ops and cannot be added to a '%s' pipeline; did you mean '%s(%s)'?",
			name, pi.AnchorName(), pm.anchor, pi.AnchorName(), name)
	}
	pm.AddPass(pass)
	return nil
}

// matchBrace returns the position of the '}' closing the '{' at open,
// skipping quoted strings.
func matchBrace(text string, open int) (int, error) {
	depth := 0
	for i := open; i < len(text); i++ {
		switch c := text[i]; c {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i, nil
			}
		case '"', '\'':
			j := strings.IndexByte(text[i+1:], c)
			if j < 0 {
				return 0, &SyntaxError{Text: text, Pos: i, Msg: "unterminated quoted string in pass options"}
			}
			i += j + 1
		}
	}
	return 0, &SyntaxError{Text: text, Pos: open, Msg: "missing closing '}' while processing pass options"}
}

// ParseOptions sets p's options from text in the form used between braces
// in a pipeline: `name=value name2="a b" flag list=1,2,3`.
func ParseOptions(p Pass, text string) error {
	return parseOptionsAt(p, text, 0, len(text), "")
}

// ParseOptionsIn is ParseOptions for options that are part of a larger
// string the user wrote (a command-line flag): errors point into full,
// where the options occupy full[start:end].
func ParseOptionsIn(p Pass, full string, start, end int, source string) error {
	return parseOptionsAt(p, full, start, end, source)
}

type optToken struct {
	name     string
	namePos  int
	value    string
	valuePos int
	hasValue bool
}

func parseOptionsAt(p Pass, full string, start, end int, source string) error {
	fail := func(pos int, format string, args ...any) error {
		return &SyntaxError{Text: full, Pos: pos, Msg: fmt.Sprintf(format, args...), Source: source}
	}
	toks, err := splitOptions(full, start, end)
	if err != nil {
		err.(*SyntaxError).Source = source
		return err
	}
	d := Describe(p)
	for _, t := range toks {
		o := d.Lookup(t.name)
		if o == nil {
			names := make([]string, 0, len(d.opts))
			for _, o := range d.opts {
				names = append(names, o.Name)
			}
			msg := fmt.Sprintf("no such option '%s' for pass '%s'", t.name, p.Info().Argument)
			if s := suggest.Closest(t.name, names); s != "" {
				msg += "; did you mean '" + s + "'?"
			} else if len(names) == 0 {
				msg += " (it has no options)"
			}
			return fail(t.namePos, "%s", msg)
		}
		if !t.hasValue && !o.IsBool() {
			return fail(t.namePos, "option '%s' of pass '%s' requires a value", t.name, p.Info().Argument)
		}
		if err := o.Set(t.value); err != nil {
			return fail(t.valuePos, "invalid value for option '%s' of pass '%s': %v", t.name, p.Info().Argument, err)
		}
	}
	return nil
}

// splitOptions tokenizes full[start:end] into `name[=value]` items
// separated by whitespace. A value extends to the next whitespace outside
// quotes and braces; a value that is one quoted or braced unit is
// unwrapped.
func splitOptions(full string, start, end int) ([]optToken, error) {
	var out []optToken
	i := start
	for {
		for i < end && isSpace(full[i]) {
			i++
		}
		if i >= end {
			return out, nil
		}
		t := optToken{namePos: i}
		for i < end && !isSpace(full[i]) && full[i] != '=' {
			switch full[i] {
			case '{', '}', '"', '\'', ',':
				return nil, &SyntaxError{Text: full, Pos: i, Msg: fmt.Sprintf("unexpected '%c' in option name", full[i])}
			}
			i++
		}
		t.name = full[t.namePos:i]
		if t.name == "" {
			return nil, &SyntaxError{Text: full, Pos: i, Msg: "expected option name before '='"}
		}
		if i < end && full[i] == '=' {
			i++
			t.hasValue = true
			t.valuePos = i
			depth := 0
		value:
			for i < end {
				switch c := full[i]; {
				case isSpace(c):
					if depth == 0 {
						break value
					}
				case c == '{':
					depth++
				case c == '}':
					depth--
					if depth < 0 {
						return nil, &SyntaxError{Text: full, Pos: i, Msg: "unbalanced '}' in option value"}
					}
				case c == '"' || c == '\'':
					j := strings.IndexByte(full[i+1:end], c)
					if j < 0 {
						return nil, &SyntaxError{Text: full, Pos: i, Msg: "unterminated quoted string in option value"}
					}
					i += j + 1
				}
				i++
			}
			if depth > 0 {
				return nil, &SyntaxError{Text: full, Pos: t.valuePos, Msg: "missing closing '}' in option value"}
			}
			raw := full[t.valuePos:i]
			t.value = unwrap(raw)
			if t.value != raw {
				t.valuePos++
			}
		} else {
			t.valuePos = t.namePos
		}
		out = append(out, t)
	}
}

// isSpace is LLVM's isSpace: space, \t, \n, \v, \f and \r.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// unwrap removes one level of quotes or braces when they enclose the whole
// value.
func unwrap(v string) string {
	if len(v) < 2 {
		return v
	}
	switch open := v[0]; open {
	case '"', '\'':
		if strings.IndexByte(v[1:], open) == len(v)-2 {
			return v[1 : len(v)-1]
		}
	case '{':
		if c, err := matchBrace(v, 0); err == nil && c == len(v)-1 {
			return trimSpace(v[1 : len(v)-1])
		}
	}
	return v
}

// splitList splits a list option value on the commas that are outside
// quotes and braces, trimming and unwrapping each element.
func splitList(s string) ([]string, error) {
	s = trimSpace(s)
	if s == "" {
		return nil, nil
	}
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '{':
			depth++
		case '}':
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("unbalanced '}' in list")
			}
		case '"', '\'':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return nil, fmt.Errorf("unterminated quoted string in list")
			}
			i += j + 1
		case ',':
			if depth == 0 {
				out = append(out, unwrap(trimSpace(s[start:i])))
				start = i + 1
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("missing closing '}' in list")
	}
	return append(out, unwrap(trimSpace(s[start:]))), nil
}
