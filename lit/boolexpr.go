package lit

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// A BoolExpr is a parsed REQUIRES, UNSUPPORTED or XFAIL condition, or the
// condition of a %if substitution. The grammar is lit's:
//
//	expr       ::= and ('||' and)*
//	and        ::= not ('&&' not)*
//	not        ::= '!' not | '(' expr ')' | match
//	match      ::= (identifier | '{{' regex '}}')+
//	identifier ::= [-+=._a-zA-Z0-9]+
//
// A match is true when it matches a whole feature name; "true" is always a
// feature.
type BoolExpr struct {
	root boolNode
}

type boolNode interface {
	eval(features map[string]bool) bool
}

type (
	boolOr    struct{ l, r boolNode }
	boolAnd   struct{ l, r boolNode }
	boolNot   struct{ x boolNode }
	boolMatch struct {
		literal string         // set when the match has no regex part
		re      *regexp.Regexp // anchored at both ends otherwise
	}
)

func (n boolOr) eval(f map[string]bool) bool  { return n.l.eval(f) || n.r.eval(f) }
func (n boolAnd) eval(f map[string]bool) bool { return n.l.eval(f) && n.r.eval(f) }
func (n boolNot) eval(f map[string]bool) bool { return !n.x.eval(f) }

func (n boolMatch) eval(f map[string]bool) bool {
	if n.re == nil {
		return n.literal == "true" || f[n.literal]
	}
	if n.re.MatchString("true") {
		return true
	}
	for name := range f {
		if n.re.MatchString(name) {
			return true
		}
	}
	return false
}

// Eval reports whether the expression holds when exactly the given features
// are available.
func (e *BoolExpr) Eval(features map[string]bool) bool { return e.root.eval(features) }

// EvalBool parses and evaluates s in one step.
func EvalBool(s string, features map[string]bool) (bool, error) {
	e, err := ParseBool(s)
	if err != nil {
		return false, err
	}
	return e.Eval(features), nil
}

// ParseBool parses a boolean feature expression. Errors read like lit's.
func ParseBool(s string) (*BoolExpr, error) {
	toks, err := tokenizeBool(s)
	if err != nil {
		return nil, fmt.Errorf("%v\nin expression: %q", err, s)
	}
	p := &boolParser{toks: toks}
	n, err := p.parseOr(0)
	if err == nil && p.pos < len(p.toks) {
		err = fmt.Errorf("expected: <end of expression>\nhave: %q", p.toks[p.pos])
	}
	if err != nil {
		return nil, fmt.Errorf("%v\nin expression: %q", err, s)
	}
	return &BoolExpr{root: n}, nil
}

func isPySpace(c rune) bool { return unicode.IsSpace(c) || c >= 0x1c && c <= 0x1f }

func isIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-+=._", c) >= 0
}

// tokenizeBool splits s like lit's BooleanExpression.tokenize, which matches
// \A\s*(token)\s*(.*)\Z where '.' stops at a newline.
func tokenizeBool(s string) ([]string, error) {
	var toks []string
	rest := strings.TrimLeftFunc(s, isPySpace)
	for rest != "" {
		n := boolTokenLen(rest)
		if n == 0 {
			return nil, fmt.Errorf("couldn't parse text: %q", rest)
		}
		tok := rest[:n]
		after := strings.TrimLeftFunc(rest[n:], isPySpace)
		if strings.Contains(after, "\n") {
			return nil, fmt.Errorf("couldn't parse text: %q", rest)
		}
		toks = append(toks, tok)
		rest = after
	}
	return toks, nil
}

// boolTokenLen returns the length of the token at the start of s, or 0.
func boolTokenLen(s string) int {
	switch {
	case s[0] == '(' || s[0] == ')' || s[0] == '!':
		return 1
	case strings.HasPrefix(s, "&&") || strings.HasPrefix(s, "||"):
		return 2
	}
	i := 0
	for i < len(s) {
		if isIdentByte(s[i]) {
			i++
			continue
		}
		if strings.HasPrefix(s[i:], "{{") {
			// '{{' .+? '}}' with '.' not matching a newline.
			end := -1
			for j := i + 3; j+1 < len(s); j++ {
				if s[j-1] == '\n' {
					break
				}
				if s[j] == '}' && s[j+1] == '}' {
					end = j + 2
					break
				}
			}
			if end < 0 {
				break
			}
			i = end
			continue
		}
		break
	}
	return i
}

type boolParser struct {
	toks []string
	pos  int
}

const maxBoolDepth = 1000

func (p *boolParser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *boolParser) quoted() string {
	if p.pos < len(p.toks) {
		return fmt.Sprintf("%q", p.toks[p.pos])
	}
	return "<end of expression>"
}

func (p *boolParser) parseOr(depth int) (boolNode, error) {
	l, err := p.parseAnd(depth)
	if err != nil {
		return nil, err
	}
	for p.peek() == "||" {
		p.pos++
		r, err := p.parseAnd(depth)
		if err != nil {
			return nil, err
		}
		l = boolOr{l, r}
	}
	return l, nil
}

func (p *boolParser) parseAnd(depth int) (boolNode, error) {
	l, err := p.parseNot(depth)
	if err != nil {
		return nil, err
	}
	for p.peek() == "&&" {
		p.pos++
		r, err := p.parseNot(depth)
		if err != nil {
			return nil, err
		}
		l = boolAnd{l, r}
	}
	return l, nil
}

func (p *boolParser) parseNot(depth int) (boolNode, error) {
	if depth > maxBoolDepth {
		return nil, fmt.Errorf("expression nested too deeply")
	}
	switch p.peek() {
	case "!":
		p.pos++
		x, err := p.parseNot(depth + 1)
		if err != nil {
			return nil, err
		}
		return boolNot{x}, nil
	case "(":
		p.pos++
		x, err := p.parseOr(depth + 1)
		if err != nil {
			return nil, err
		}
		if p.peek() != ")" {
			return nil, fmt.Errorf("expected: \")\"\nhave: %s", p.quoted())
		}
		p.pos++
		return x, nil
	case "", "&&", "||", ")":
		return nil, fmt.Errorf("expected: '!', '(', '{{', or identifier\nhave: %s", p.quoted())
	}
	tok := p.toks[p.pos]
	p.pos++
	return parseMatch(tok)
}

func parseMatch(tok string) (boolNode, error) {
	if !strings.Contains(tok, "{{") {
		return boolMatch{literal: tok}, nil
	}
	var re strings.Builder
	re.WriteString(`^(?:`)
	for tok != "" {
		i := strings.Index(tok, "{{")
		if i != 0 {
			if i < 0 {
				i = len(tok)
			}
			re.WriteString(regexp.QuoteMeta(tok[:i]))
			tok = tok[i:]
			continue
		}
		// tokenizeBool guarantees the closing braces, at least one
		// character after the opening ones.
		j := strings.Index(tok[3:], "}}") + 3
		re.WriteString("(?:" + tok[2:j] + ")")
		tok = tok[j+2:]
	}
	re.WriteString(`)$`)
	r, err := regexp.Compile(re.String())
	if err != nil {
		return nil, fmt.Errorf("bad regex: %v", err)
	}
	return boolMatch{re: r}, nil
}
