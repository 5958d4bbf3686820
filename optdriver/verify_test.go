package optdriver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/ir"
)

func TestParseExpected(t *testing.T) {
	src := `func.func @f() { // expected-error {{same line}}
  // expected-warning@+1 {{next}}
  return // expected-note@-1 {{previous}}
  // expected-remark@below {{below}}
  // expected-error@below {{below too}}
  "x.y"() : () -> ()
  // expected-error@above {{above skips directives}}
  // expected-error-re@unknown {{no {{lo[c]+}}ation}}
  // expected-error@+1 3 {{three}}
  "x.z"() : () -> ()
}
// expected-error {{unterminated
// expected-error@below {{dangling}}`
	exps, errs := ParseExpected([]byte(src))
	var got []string
	for _, e := range exps {
		s := fmt.Sprintf("%s@%d:%s", e.Severity, e.Line, e.Message)
		if e.Unknown {
			s = fmt.Sprintf("%s@unknown:%s", e.Severity, e.Message)
		}
		if e.Count > 0 {
			s += fmt.Sprintf("x%d", e.Count)
		}
		got = append(got, s)
	}
	want := []string{
		"error@1:same line", "warning@3:next", "note@2:previous", "remark@6:below", "error@6:below too",
		"error@6:above skips directives", "error@unknown:no {{lo[c]+}}ation", "error@10:threex3", "error@13:dangling",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if len(errs) != 1 || errs[0].Line != 12 || !strings.Contains(errs[0].Msg, "malformed") {
		t.Errorf("errors = %+v, want one malformed directive on line 12", errs)
	}
	re := exps[6].Regex
	if re == nil || !re.MatchString("at no location here") || re.MatchString("no lation") {
		t.Errorf("regex %v does not match as expected", re)
	}
}

func TestVerifierMatching(t *testing.T) {
	ctx := ir.NewContext()
	exps, _ := ParseExpected([]byte("a // expected-error {{boom}}\nb // expected-warning {{w}}\n// expected-note@unknown {{n}}\n"))
	var reports []string
	v := &diagVerifier{file: "f.mlir", expected: exps,
		report: func(d *ir.Diagnostic) { reports = append(reports, d.Error()) },
		reportAt: func(line, col, width int, msg string) {
			reports = append(reports, fmt.Sprintf("%d:%d: %s", line, col, msg))
		}}
	v.handle(&ir.Diagnostic{Severity: ir.SeverityError, Loc: ctx.FileLineColLoc("f.mlir", 1, 1), Message: "it went boom",
		Notes: []*ir.Diagnostic{{Severity: ir.SeverityNote, Loc: ctx.UnknownLoc(), Message: "n here"}}})
	v.handle(&ir.Diagnostic{Severity: ir.SeverityError, Loc: ctx.FileLineColLoc("f.mlir", 2, 1), Message: "w"})
	v.handle(&ir.Diagnostic{Severity: ir.SeverityRemark, Loc: ctx.FileLineColLoc("other.mlir", 1, 1), Message: "boom"})
	v.finish()
	want := []string{
		"2:6: 'error' diagnostic emitted when expecting a 'warning'",
		"other.mlir:1:1: error: unexpected remark: boom",
		`2:6: expected warning "w" was not produced`,
	}
	if strings.Join(reports, "\n") != strings.Join(want, "\n") || !v.failed {
		t.Errorf("reports:\n%s\nwant:\n%s", strings.Join(reports, "\n"), strings.Join(want, "\n"))
	}
}

// FuzzExpectedDiagnostics checks that the expected-diagnostics parser never
// panics, that every directive it returns is consistent, and that
// verifying arbitrary diagnostics against it never panics either.
func FuzzExpectedDiagnostics(f *testing.F) {
	for _, s := range []string{
		"// expected-error {{x}}",
		"// expected-error@+1 {{x}}\nop\n",
		"// expected-warning@below {{a}}\n// expected-note@above {{b}}\nop\n",
		"// expected-error-re {{a{{[0-9]+}}b}}",
		"// expected-remark@unknown 2 {{c}}",
		"// expected-error@-3 {{d}}",
		"// expected-error-re {{{{(}}}}",
		"// expected-error {{unterminated",
	} {
		f.Add(s, "x", 1)
	}
	ctx := ir.NewContext()
	f.Fuzz(func(t *testing.T, src, msg string, line int) {
		exps, errs := ParseExpected([]byte(src))
		nlines := strings.Count(src, "\n") + 1
		for _, e := range exps {
			if e.DirLine < 1 || e.DirLine > nlines || e.DirCol < 1 {
				t.Fatalf("directive at %d:%d outside the %d-line input", e.DirLine, e.DirCol, nlines)
			}
			if e.Unknown && e.Line != 0 {
				t.Fatalf("@unknown directive with line %d", e.Line)
			}
		}
		for _, e := range errs {
			if e.Line < 1 || e.Line > nlines {
				t.Fatalf("error at line %d outside the input", e.Line)
			}
		}
		v := &diagVerifier{file: "f.mlir", expected: exps,
			report: func(*ir.Diagnostic) {}, reportAt: func(int, int, int, string) {}}
		for _, sev := range []ir.Severity{ir.SeverityError, ir.SeverityWarning, ir.SeverityRemark, ir.SeverityNote} {
			v.handle(&ir.Diagnostic{Severity: sev, Loc: ctx.FileLineColLoc("f.mlir", line, 1), Message: msg})
			v.handle(&ir.Diagnostic{Severity: sev, Loc: ctx.UnknownLoc(), Message: msg})
		}
		v.finish()
	})
}
