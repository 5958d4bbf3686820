package lit

import (
	"fmt"
	"strconv"
	"strings"
)

// A Node is a parsed shell command line: a *Seq or a *Pipeline.
type Node interface{ node() }

// A Seq joins two command lines with an operator: ";", "&", "||" or "&&".
// Like lit's ShParser, operators have no precedence and associate to the
// left, so "a || b && c" is ((a || b) && c).
type Seq struct {
	LHS Node
	Op  string
	RHS Node
}

// A Pipeline is commands joined by "|". With PipeFail its status is the last
// non-zero status of its commands, else the status of the last command.
type Pipeline struct {
	Commands []*Command
	PipeFail bool
}

// A Command is one simple command: its words and its redirections, in order.
type Command struct {
	Args      []Word
	Redirects []Redirect
}

// A Word is one argument after quote removal. Glob is set when the word had
// an unquoted '*' or '?', in which case it is expanded against the working
// directory when the command runs.
type Word struct {
	Text string
	Glob bool
}

// A Redirect is an operator such as ">", ">>", "<", ">&" or "&>", the file
// descriptor written before it (-1 when none, as in "2>" versus ">"), and
// its target word.
type Redirect struct {
	Op     string
	FD     int
	Target Word
}

func (*Seq) node()      {}
func (*Pipeline) node() {}

// A token is what shLexer yields: a word, or an operator with an optional
// file descriptor (fd is -1 unless the operator is a redirection written as
// "2>").
type token struct {
	op   string // empty for a word
	fd   int
	word Word
}

// shLexer splits a command line into words and operators exactly as lit's
// ShLexer does (lit/ShUtil.py, LLVM 19), including its quirks: a backslash
// that starts a word is literal; inside double quotes a backslash escapes
// only '"' and '\'; "2>" is one token only when the digits come right before
// the operator.
type shLexer struct {
	data []rune
	pos  int
}

func (l *shLexer) eat() rune {
	c := l.data[l.pos]
	l.pos++
	return c
}

func (l *shLexer) maybeEat(c rune) bool {
	if l.pos < len(l.data) && l.data[l.pos] == c {
		l.pos++
		return true
	}
	return false
}

func (l *shLexer) lexQuoted(delim rune) (string, error) {
	var b strings.Builder
	for l.pos < len(l.data) {
		c := l.eat()
		switch {
		case c == delim:
			return b.String(), nil
		case c == '\\' && delim == '"':
			if l.pos == len(l.data) {
				return "", fmt.Errorf("escape at end of quoted argument")
			}
			c = l.eat()
			if c != '"' && c != '\\' {
				b.WriteRune('\\')
			}
			b.WriteRune(c)
		default:
			b.WriteRune(c)
		}
	}
	return "", fmt.Errorf("missing quote character")
}

// lexArg lexes a word whose first character c has been eaten.
func (l *shLexer) lexArg(c rune) (token, error) {
	// lit's fast path: a chunk up to the next space without special
	// characters is the word, a glob if it has '*' or '?'. (The slow path
	// below, like lit's, does not look for a glob in the first character.)
	end := l.pos - 1
	for end < len(l.data) && !isPySpace(l.data[end]) {
		end++
	}
	chunk := string(l.data[l.pos-1 : end])
	if !strings.ContainsAny(chunk, "|&<>'\";\\") {
		l.pos = end
		return token{fd: -1, word: Word{Text: chunk, Glob: strings.ContainsAny(chunk, "*?")}}, nil
	}
	var b strings.Builder
	digits := true // the word so far is all ASCII digits (and not empty)
	if c == '\'' || c == '"' {
		s, err := l.lexQuoted(c)
		if err != nil {
			return token{}, err
		}
		b.WriteString(s)
		digits = isDigits(s)
	} else {
		b.WriteRune(c)
		digits = c >= '0' && c <= '9'
	}
	quotedGlob, unquotedGlob := false, false
	for l.pos < len(l.data) {
		c := l.data[l.pos]
		switch {
		case isPySpace(c) || c == '|' || c == '&' || c == ';':
			return l.word(b.String(), quotedGlob, unquotedGlob)
		case c == '>' || c == '<':
			if !digits {
				return l.word(b.String(), quotedGlob, unquotedGlob)
			}
			fd, err := strconv.Atoi(b.String())
			if err != nil {
				return token{}, fmt.Errorf("bad file descriptor %q", b.String())
			}
			op := l.lexOp(l.eat())
			return token{op: op, fd: fd}, nil
		case c == '"' || c == '\'':
			l.eat()
			s, err := l.lexQuoted(c)
			if err != nil {
				return token{}, err
			}
			if strings.ContainsAny(s, "*?") {
				quotedGlob = true
			}
			b.WriteString(s)
			digits = digits && isDigits(s)
		case c == '\\':
			l.eat()
			if l.pos == len(l.data) {
				return token{}, fmt.Errorf("escape at end of argument")
			}
			c = l.eat()
			b.WriteRune(c)
			digits = digits && c >= '0' && c <= '9'
		default:
			if c == '*' || c == '?' {
				unquotedGlob = true
			}
			b.WriteRune(l.eat())
			digits = digits && c >= '0' && c <= '9'
		}
	}
	return l.word(b.String(), quotedGlob, unquotedGlob)
}

func (l *shLexer) word(s string, quotedGlob, unquotedGlob bool) (token, error) {
	if quotedGlob && unquotedGlob {
		// lit asserts here: a word with glob characters both inside and
		// outside quotes cannot be expanded faithfully.
		return token{}, fmt.Errorf("glob characters both quoted and unquoted in %q", s)
	}
	return token{fd: -1, word: Word{Text: s, Glob: unquotedGlob}}, nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// lexOp lexes an operator whose first character c has been eaten.
func (l *shLexer) lexOp(c rune) string {
	switch c {
	case ';':
		return ";"
	case '|':
		if l.maybeEat('|') {
			return "||"
		}
		return "|"
	case '&':
		if l.maybeEat('&') {
			return "&&"
		}
		if l.maybeEat('>') {
			return "&>"
		}
		return "&"
	case '>':
		if l.maybeEat('&') {
			return ">&"
		}
		if l.maybeEat('>') {
			return ">>"
		}
		return ">"
	case '<':
		if l.maybeEat('&') {
			return "<&"
		}
		if l.maybeEat('>') {
			return "<<"
		}
		return "<"
	}
	panic("lit: lexOp called on a non-operator")
}

// next returns the next token, or ok == false at the end of input.
func (l *shLexer) next() (tok token, ok bool, err error) {
	for l.pos < len(l.data) && isPySpace(l.data[l.pos]) {
		l.pos++
	}
	if l.pos == len(l.data) {
		return token{}, false, nil
	}
	c := l.eat()
	if strings.ContainsRune(";|&><", c) {
		return token{op: l.lexOp(c), fd: -1}, true, nil
	}
	tok, err = l.lexArg(c)
	return tok, err == nil, err
}

// LexWords splits a command line into words the way lit's internal shell
// does, failing on operators. It is meant for tests and tools that need
// lit's quoting rules.
func LexWords(line string) ([]string, error) {
	l := &shLexer{data: []rune(line)}
	var words []string
	for {
		tok, ok, err := l.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return words, nil
		}
		if tok.op != "" {
			return nil, fmt.Errorf("unexpected operator %q", tok.op)
		}
		words = append(words, tok.word.Text)
	}
}

// ParseShell parses one command line of lit's internal shell. pipeFail sets
// Pipeline.PipeFail on every pipeline (lit's config.pipefail, true by
// default).
func ParseShell(line string, pipeFail bool) (Node, error) {
	p := &shParser{lex: shLexer{data: []rune(line)}, pipeFail: pipeFail}
	if err := p.advance(); err != nil {
		return nil, err
	}
	lhs, err := p.parsePipeline()
	if err != nil {
		return nil, err
	}
	for p.ok {
		op := p.tok.op
		if op == "" || p.tok.fd >= 0 {
			return nil, fmt.Errorf("syntax error near %q", op)
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		if !p.ok {
			return nil, fmt.Errorf("missing argument to operator %q", op)
		}
		rhs, err := p.parsePipeline()
		if err != nil {
			return nil, err
		}
		lhs = &Seq{LHS: lhs, Op: op, RHS: rhs}
	}
	return lhs, nil
}

type shParser struct {
	lex      shLexer
	tok      token // the lookahead token, valid when ok
	ok       bool
	pipeFail bool
}

func (p *shParser) advance() error {
	var err error
	p.tok, p.ok, err = p.lex.next()
	return err
}

func (p *shParser) parsePipeline() (Node, error) {
	pl := &Pipeline{PipeFail: p.pipeFail}
	for {
		c, err := p.parseCommand()
		if err != nil {
			return nil, err
		}
		pl.Commands = append(pl.Commands, c)
		if !p.ok || p.tok.op != "|" || p.tok.fd >= 0 {
			return pl, nil
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
	}
}

func (p *shParser) parseCommand() (*Command, error) {
	if !p.ok {
		return nil, fmt.Errorf("empty command")
	}
	if p.tok.op != "" {
		return nil, fmt.Errorf("syntax error near unexpected token %q", p.tok.op)
	}
	c := &Command{Args: []Word{p.tok.word}}
	if err := p.advance(); err != nil {
		return nil, err
	}
	for p.ok {
		if p.tok.op == "" {
			c.Args = append(c.Args, p.tok.word)
			if err := p.advance(); err != nil {
				return nil, err
			}
			continue
		}
		if p.tok.fd < 0 {
			switch p.tok.op {
			case "|", ";", "&", "||", "&&":
				return c, nil
			}
		}
		r := Redirect{Op: p.tok.op, FD: p.tok.fd}
		if err := p.advance(); err != nil {
			return nil, err
		}
		if !p.ok || p.tok.op != "" {
			return nil, fmt.Errorf("syntax error near token %q", r.Op)
		}
		r.Target = p.tok.word
		c.Redirects = append(c.Redirects, r)
		if err := p.advance(); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// String prints the node back in a form the parser reads again.
func (s *Seq) String() string { return fmt.Sprintf("%v %s %v", s.LHS, s.Op, s.RHS) }

func (p *Pipeline) String() string {
	parts := make([]string, len(p.Commands))
	for i, c := range p.Commands {
		parts[i] = c.String()
	}
	return strings.Join(parts, " | ")
}

func (c *Command) String() string {
	var parts []string
	for _, a := range c.Args {
		if a.Glob {
			parts = append(parts, a.Text)
		} else {
			parts = append(parts, shellQuote(a.Text))
		}
	}
	for _, r := range c.Redirects {
		fd := ""
		if r.FD >= 0 {
			fd = strconv.Itoa(r.FD)
		}
		op := r.Op
		if op == "<<" {
			op = "<>" // lit's lexer reads "<>" as "<<"; "<<" itself does not lex back
		}
		parts = append(parts, fd+op, shellQuote(r.Target.Text))
	}
	return strings.Join(parts, " ")
}

// shellQuote quotes s as Python's shlex.quote does, which is how lit prints
// the commands it executed.
func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, c := range s {
		if !(c < 128 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("_@%+=:,./-", c))) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
}
