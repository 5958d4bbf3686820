package lit

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// A Script is what a test file says about itself: its RUN lines and
// DEFINE/REDEFINE directives in order, and its conditions.
type Script struct {
	Directives   []Directive
	XFail        []string // boolean expressions or "*"
	Requires     []string
	Unsupported  []string
	AllowRetries int // -1 when the test has no ALLOW_RETRIES line
}

// A Directive is a RUN line (Command set) or a DEFINE/REDEFINE (Name set),
// after joining continuation lines.
type Directive struct {
	Keyword   string // "RUN:", "DEFINE:" or "REDEFINE:"
	StartLine int
	EndLine   int
	Command   string // RUN: the command, with %(line) expanded
	Name      string // DEFINE/REDEFINE: "%{name}"
	Value     string // DEFINE/REDEFINE: the value, trimmed
	body      string // DEFINE/REDEFINE text accumulated so far
}

// Location describes the lines of d as lit does in its messages.
func (d *Directive) Location() string {
	if d.StartLine == d.EndLine {
		return fmt.Sprintf("at line %d", d.StartLine)
	}
	return fmt.Sprintf("from line %d to %d", d.StartLine, d.EndLine)
}

func (d *Directive) needsContinuation() bool {
	if d.Keyword == "RUN:" {
		return strings.HasSuffix(d.Command, `\`)
	}
	return strings.HasSuffix(strings.TrimRightFunc(d.body, isPySpace), `\`)
}

var (
	keywordRE  = regexp.MustCompile(`(RUN:|XFAIL:|REQUIRES:|UNSUPPORTED:|ALLOW_RETRIES:|END\.|DEFINE:|REDEFINE:)([^\n]*)\n`)
	lineNumRE  = regexp.MustCompile(`%\(line *([+-]) *(\d+)\)`)
	substNameR = regexp.MustCompile(`^%\{[_a-zA-Z][-_:0-9a-zA-Z]*\}$`)
)

// A litError carries one of lit's messages verbatim, capital letter
// included, so that logs read as lit's.
type litError string

func (e litError) Error() string { return string(e) }

func litErrorf(format string, args ...any) error { return litError(fmt.Sprintf(format, args...)) }

// ParseScript reads the lit directives in a test file's contents. Like lit,
// it finds a keyword anywhere on a line (the leftmost one wins) and stops
// at "END.". The error, if any, makes the test UNRESOLVED.
func ParseScript(data []byte) (*Script, error) {
	if !bytes.HasSuffix(data, []byte("\n")) {
		data = append(data[:len(data):len(data)], '\n')
	}
	s := &Script{AllowRetries: -1}
	retries := 0
	line, last := 1, 0
	for _, m := range keywordRE.FindAllSubmatchIndex(data, -1) {
		line += bytes.Count(data[last:m[0]], []byte("\n"))
		last = m[0]
		kw := string(data[m[2]:m[3]])
		text := strings.TrimRight(string(data[m[4]:m[5]]), "\r")
		var err error
		switch kw {
		case "RUN:":
			s.addRun(line, text)
		case "DEFINE:", "REDEFINE:":
			err = s.addSubst(line, kw, text)
		case "XFAIL:":
			s.XFail, err = addBoolExprs(s.XFail, text)
		case "REQUIRES:":
			s.Requires, err = addBoolExprs(s.Requires, text)
		case "UNSUPPORTED:":
			s.Unsupported, err = addBoolExprs(s.Unsupported, text)
		case "ALLOW_RETRIES:":
			n, convErr := strconv.Atoi(strings.TrimSpace(text))
			if convErr != nil {
				err = litErrorf("INTEGER parser requires the input to be an integer (got %s)", text)
			}
			retries++
			s.AllowRetries = n
		case "END.":
			if strings.TrimSpace(text) == "" {
				goto done
			}
		}
		if err != nil {
			return nil, fmt.Errorf("%v\nin %s directive on test line %d", err, kw, line)
		}
	}
done:
	hasRun := false
	for i := range s.Directives {
		d := &s.Directives[i]
		if d.Keyword == "RUN:" {
			hasRun = true
		}
		if d.needsContinuation() {
			return nil, litErrorf("Test has unterminated '%s' directive (with '\\') %s", d.Keyword, d.Location())
		}
	}
	if !hasRun {
		return nil, litErrorf("Test has no 'RUN:' line")
	}
	for _, l := range []struct {
		kw    string
		exprs []string
	}{{"XFAIL:", s.XFail}, {"REQUIRES:", s.Requires}, {"UNSUPPORTED:", s.Unsupported}} {
		if n := len(l.exprs); n > 0 && strings.HasSuffix(l.exprs[n-1], `\`) {
			return nil, litErrorf("Test has unterminated '%s' lines (with '\\')", l.kw)
		}
	}
	if retries > 1 {
		return nil, litErrorf("Test has more than one ALLOW_RETRIES lines")
	}
	return s, nil
}

func substituteLineNumbers(line int, text string) string {
	text = strings.ReplaceAll(text, "%(line)", strconv.Itoa(line))
	return lineNumRE.ReplaceAllStringFunc(text, func(m string) string {
		sm := lineNumRE.FindStringSubmatch(m)
		n, err := strconv.Atoi(sm[2])
		if err != nil {
			return m
		}
		if sm[1] == "-" {
			n = -n
		}
		return strconv.Itoa(line + n)
	})
}

func (s *Script) last() *Directive {
	if len(s.Directives) == 0 {
		return nil
	}
	return &s.Directives[len(s.Directives)-1]
}

func (s *Script) addRun(line int, text string) {
	text = substituteLineNumbers(line, text)
	if d := s.last(); d != nil && d.Keyword == "RUN:" && d.needsContinuation() {
		d.Command = d.Command[:len(d.Command)-1] + strings.TrimRightFunc(text, isPySpace)
		d.EndLine = line
		return
	}
	s.Directives = append(s.Directives, Directive{
		Keyword: "RUN:", StartLine: line, EndLine: line,
		Command: strings.TrimRightFunc(text, isPySpace),
	})
}

func (s *Script) addSubst(line int, kw, text string) error {
	text = substituteLineNumbers(line, text)
	if d := s.last(); d != nil && d.Keyword == kw && d.needsContinuation() {
		if strings.TrimFunc(text, isPySpace) == "" {
			return litErrorf("Substitution's continuation is empty")
		}
		body := strings.TrimRightFunc(d.body, isPySpace)
		body = strings.TrimRightFunc(body[:len(body)-1], isPySpace)
		d.body = body + " " + strings.TrimLeftFunc(text, isPySpace)
		d.EndLine = line
		return d.parseBody()
	}
	s.Directives = append(s.Directives, Directive{Keyword: kw, StartLine: line, EndLine: line, body: text})
	return s.last().parseBody()
}

func (d *Directive) parseBody() error {
	if d.needsContinuation() {
		return nil
	}
	name, value, ok := strings.Cut(d.body, "=")
	if !ok {
		return litErrorf("Substitution's definition does not contain '='")
	}
	d.Name = strings.TrimFunc(name, isPySpace)
	d.Value = strings.TrimFunc(value, isPySpace)
	if !substNameR.MatchString(d.Name) {
		return litErrorf("Substitution name '%s' is malformed as it must start with '%%{', it must end with '}', and the rest must start with a letter or underscore and contain only alphanumeric characters, hyphens, underscores, and colons", d.Name)
	}
	return nil
}

// addBoolExprs adds the comma-separated expressions of one XFAIL, REQUIRES
// or UNSUPPORTED line, joining a previous expression that ended in '\', and
// checks their syntax.
func addBoolExprs(list []string, text string) ([]string, error) {
	var parts []string
	for _, p := range strings.Split(text, ",") {
		if p = strings.TrimFunc(p, isPySpace); p != "" {
			parts = append(parts, p)
		}
	}
	if n := len(list); n > 0 && strings.HasSuffix(list[n-1], `\`) {
		if len(parts) == 0 {
			return nil, fmt.Errorf("empty continuation of a boolean expression")
		}
		list[n-1] = list[n-1][:len(list[n-1])-1] + parts[0]
		parts = parts[1:]
	}
	list = append(list, parts...)
	for _, e := range list {
		if e != "*" && !strings.HasSuffix(e, `\`) {
			if _, err := ParseBool(e); err != nil {
				return nil, err
			}
		}
	}
	return list, nil
}
