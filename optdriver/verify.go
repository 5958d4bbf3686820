package optdriver

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/rlx-compiler/rlx/internal/posixre"
	"github.com/rlx-compiler/rlx/ir"
)

// Expected is one `expected-<severity>` directive of a file checked with
// --verify-diagnostics.
type Expected struct {
	Severity ir.Severity
	// Line is the line the diagnostic must be on (1-based); 0 with Unknown.
	Line int
	// Unknown expects a diagnostic without a file location (@unknown).
	Unknown bool
	// Message must be contained in the diagnostic's message; with Regex,
	// the `{{…}}` parts of it are regular expressions.
	Message string
	Regex   Matcher
	// DirLine and DirCol locate the `expected-` text, for errors.
	DirLine, DirCol int
	// Count is how many diagnostics must match (0: at least one).
	Count int

	matched int
}

// Matcher is a compiled expected-*-re message.
type Matcher interface{ MatchString(s string) bool }

// ExpectedError is a malformed directive.
type ExpectedError struct {
	Line, Col int
	Width     int // length of the range to underline
	Msg       string
}

// directiveRE is MLIR's expected-diagnostic syntax plus @unknown and an
// optional count (`expected-error@+1 2 {{…}}` expects two).
var directiveRE = regexp.MustCompile(`expected-(error|note|remark|warning)(-re)? *(@([+-][0-9]+|above|below|unknown))? *([0-9]+ *)?\{\{(.*)\}\}$`)

// nearDirectiveRE finds text that looks like a directive but does not
// parse, to report it instead of silently ignoring it.
var nearDirectiveRE = regexp.MustCompile(`expected-(error|note|remark|warning)(-re)? *(@|\{\{)`)

// ParseExpected scans src for expected-* directives. Line numbers are
// those of src. It never fails; malformed directives come back as errors.
func ParseExpected(src []byte) ([]*Expected, []*ExpectedError) {
	lines := strings.Split(string(src), "\n")
	var out []*Expected
	var errs []*ExpectedError
	var below []*Expected
	lastNonDirective := 0
	for i, raw := range lines {
		lineNo := i + 1
		text := strings.TrimRight(raw, " \t\r")
		m := directiveRE.FindStringSubmatchIndex(text)
		if m == nil {
			if loc := nearDirectiveRE.FindStringIndex(text); loc != nil {
				errs = append(errs, &ExpectedError{Line: lineNo, Col: loc[0] + 1, Width: loc[1] - loc[0],
					Msg: "malformed expected diagnostic directive (expected `expected-<severity>[-re][@<location>] [<count>] {{<message>}}` at the end of the line)"})
			}
			for _, e := range below {
				e.Line = lineNo
			}
			below = below[:0]
			lastNonDirective = lineNo
			continue
		}
		sub := func(k int) string {
			if m[2*k] < 0 {
				return ""
			}
			return text[m[2*k]:m[2*k+1]]
		}
		e := &Expected{Line: lineNo, DirLine: lineNo, DirCol: m[0] + 1, Message: sub(6)}
		switch sub(1) {
		case "error":
			e.Severity = ir.SeverityError
		case "warning":
			e.Severity = ir.SeverityWarning
		case "remark":
			e.Severity = ir.SeverityRemark
		default:
			e.Severity = ir.SeverityNote
		}
		if c := strings.TrimSpace(sub(5)); c != "" {
			n, err := strconv.Atoi(c)
			if err != nil || n == 0 {
				errs = append(errs, &ExpectedError{Line: lineNo, Col: m[10] + 1, Width: len(c), Msg: "expected a positive count of diagnostics"})
				continue
			}
			e.Count = n
		}
		if sub(2) != "" {
			re, err := compileExpectedRegex(e.Message)
			if err != nil {
				errs = append(errs, &ExpectedError{Line: lineNo, Col: e.DirCol, Width: len(e.Message), Msg: err.Error()})
				continue
			}
			e.Regex = re
		}
		switch loc := sub(4); {
		case loc == "":
		case loc == "above":
			e.Line = lastNonDirective
		case loc == "below":
			below = append(below, e)
			e.Line = len(lines)
		case loc == "unknown":
			e.Line, e.Unknown = 0, true
		default:
			n, _ := strconv.Atoi(loc[1:])
			if loc[0] == '+' {
				e.Line += n
			} else {
				e.Line -= n
			}
		}
		out = append(out, e)
	}
	return out, errs
}

// compileExpectedRegex turns `text {{re}} text` into the expression MLIR
// builds: the literal parts escaped, each {{…}} part a group, the whole an
// extended POSIX expression as llvm::Regex reads it (with its error
// messages).
func compileExpectedRegex(msg string) (Matcher, error) {
	var sb strings.Builder
	for msg != "" {
		i := strings.Index(msg, "{{")
		if i < 0 {
			sb.WriteString(posixre.QuoteMeta(msg))
			break
		}
		sb.WriteString(posixre.QuoteMeta(msg[:i]))
		msg = msg[i+2:]
		j := strings.Index(msg, "}}")
		if j < 0 {
			return nil, fmt.Errorf("found start of regex with no end '}}'")
		}
		sb.WriteString("(" + msg[:j] + ")")
		msg = msg[j+2:]
	}
	re, err := posixre.Compile(sb.String(), false)
	if err != nil {
		return nil, fmt.Errorf("invalid regex: %v", err)
	}
	return re, nil
}

func (e *Expected) match(msg string) bool {
	if e.Regex != nil {
		return e.Regex.MatchString(msg)
	}
	return strings.Contains(msg, e.Message)
}

func severityName(s ir.Severity) string { return s.String() }

// diagVerifier checks the diagnostics of one chunk against its expected-*
// directives (mlir-opt's SourceMgrDiagnosticVerifierHandler).
type diagVerifier struct {
	file         string
	expected     []*Expected
	onlyExpected bool
	failed       bool
	// report prints an error produced by the verifier.
	report func(d *ir.Diagnostic)
	// reportAt prints an error at a directive, underlining width columns.
	reportAt func(line, col, width int, msg string)
}

// handle processes one diagnostic and its notes.
func (v *diagVerifier) handle(d *ir.Diagnostic) {
	v.process(d)
	for _, n := range d.Notes {
		v.process(n)
	}
}

func (v *diagVerifier) process(d *ir.Diagnostic) {
	file, line, _, ok := ir.LineCol(d.Loc)
	var near *Expected
	for _, e := range v.expected {
		var here bool
		if e.Unknown {
			here = !ok
		} else {
			here = ok && file == v.file && line == e.Line
		}
		if !here || !e.match(d.Message) {
			continue
		}
		if e.Severity == d.Severity {
			e.matched++
			return
		}
		near = e
	}
	if v.onlyExpected {
		return
	}
	v.failed = true
	if near != nil {
		v.reportAt(near.DirLine, near.DirCol, 0, fmt.Sprintf("'%s' diagnostic emitted when expecting a '%s'", severityName(d.Severity), severityName(near.Severity)))
		return
	}
	v.report(&ir.Diagnostic{Severity: ir.SeverityError, Loc: d.Loc,
		Message: "unexpected " + severityName(d.Severity) + ": " + d.Message})
}

// finish reports the expectations that were not met.
func (v *diagVerifier) finish() {
	for _, e := range v.expected {
		switch {
		case e.matched == 0:
			v.failed = true
			v.reportAt(e.DirLine, e.DirCol, len(e.Message), fmt.Sprintf("expected %s \"%s\" was not produced", severityName(e.Severity), e.Message))
		case e.Count > 0 && e.matched != e.Count:
			v.failed = true
			v.reportAt(e.DirLine, e.DirCol, len(e.Message), fmt.Sprintf("expected %d %ss \"%s\", got %d", e.Count, severityName(e.Severity), e.Message, e.matched))
		}
	}
}
