package jinja

import (
	"fmt"
	"strings"
	"time"
)

// Template is a parsed chat template; it is safe to render concurrently.
type Template struct {
	name string
	src  string // normalized: \n line ends, one trailing newline dropped
	body []node
}

// Error is a parse or render error at a place in a template.
type Error struct {
	Name      string // the template's name
	Line, Col int    // 1-based; the column counts bytes
	Msg       string
	// Source is the template's line holding the error, for a caret.
	Source string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.Name, e.Line, e.Col, e.Msg)
}

// Exception is the error raise_exception(message) raises: its text is the
// message alone, as transformers' TemplateError prints it.
type Exception struct {
	Msg       string
	Line, Col int
}

func (e *Exception) Error() string { return e.Msg }

func (t *Template) errorf(pos int, format string, args ...any) *Error {
	line := 1 + strings.Count(t.src[:pos], "\n")
	ls := strings.LastIndexByte(t.src[:pos], '\n') + 1
	le := strings.IndexByte(t.src[pos:], '\n')
	if le < 0 {
		le = len(t.src)
	} else {
		le += pos
	}
	return &Error{Name: t.name, Line: line, Col: pos - ls + 1, Msg: fmt.Sprintf(format, args...), Source: t.src[ls:le]}
}

// Parse parses text, a template named name in error messages.
func Parse(name, text string) (*Template, error) {
	t := &Template{name: name, src: normalizeSource(text)}
	toks, err := lex(t)
	if err != nil {
		return nil, err
	}
	p := &parser{t: t, toks: toks}
	if t.body, err = p.parseBody(); err != nil {
		return nil, err
	}
	return t, nil
}

// Render renders the template with vars as its variables; strftime_now
// reads the clock.
func (t *Template) Render(vars map[string]any) (string, error) {
	return t.RenderAt(vars, time.Now())
}

// RenderAt renders as Render does with now as strftime_now's time.
//
// Values are nil, bool, int, int64, float64, string, []any, *Dict and
// map[string]any (whose keys are taken in sorted order: pass a *Dict, or
// decode with DecodeJSON, where the order matters).
func (t *Template) RenderAt(vars map[string]any, now time.Time) (string, error) {
	r := &renderer{t: t, now: now}
	root := &frame{vars: map[string]any{}}
	for k, v := range vars {
		root.vars[k] = normalize(v)
	}
	r.root = root
	if err := r.block(t.body, root); err != nil {
		if c, ok := err.(*control); ok {
			return "", t.errorf(c.pos, "%s outside of a loop", c.kind)
		}
		return "", err
	}
	return r.out.String(), nil
}
