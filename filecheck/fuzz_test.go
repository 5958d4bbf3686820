package filecheck

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/rlx-compiler/rlx/internal/posixre"
)

// FuzzCheckFile feeds arbitrary check files (and inputs) through the
// parser and matcher: it must never panic, and every run must end with one
// of FileCheck's three statuses.
func FuzzCheckFile(f *testing.F) {
	seeds := []string{
		"CHECK: a\n",
		"CHECK: [[X:r[0-9]+]] [[X]]\nCHECK-NEXT: [[#%x,N:]] [[#N+1]]\n",
		"CHECK-DAG: a\nCHECK-NOT: b\nCHECK-DAG: c\nCHECK-LABEL: d\n",
		"CHECK-COUNT-2: {{a|b}}\nCHECK-EMPTY:\nCHECK{LITERAL}: [[x]]\n",
		"CHECK: [[#add(1,max(2,@LINE))]] [[@LINE+1]] [[$G:.*]]\n",
		"CHECK: [[X:a]b]]\n",
		"CHECK-NXET: x\nCHEKC: y\nCHECK-NEXT z\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s), []byte("a b\nr1 r1\nff 100\n\nx\n"))
	}
	f.Fuzz(func(t *testing.T, checkText, input []byte) {
		for _, opts := range []Options{DefaultOptions(), {VeryVerbose: true, DumpInput: DumpAlways, MatchFullLines: true}} {
			var errs bytes.Buffer
			st := Check(opts, File{Name: "check", Text: checkText}, File{Name: "input", Text: input}, &errs)
			if st != StatusOK && st != StatusMismatch && st != StatusError {
				t.Fatalf("status %d", st)
			}
		}
	})
}

// FuzzRegex checks the regular-expression front end: it never panics, and
// whenever it accepts an expression with a Go translation, that
// translation compiles and matching does not panic.
func FuzzRegex(f *testing.F) {
	for _, s := range []string{"a", "(a|b)*c", `(r[0-9]+)\1`, "[[:alpha:]]+", "[^]a-]", "a{2,3}", "[[:<:]]x", "[[.hyphen.]]", "x{,2}", `\.`, "((a)(b))\\2"} {
		f.Add(s, "ab r1r1 x-x ...")
	}
	f.Fuzz(func(t *testing.T, expr, text string) {
		nsub, err := posixre.Check(expr)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("empty error message for %q", expr)
			}
			return
		}
		for _, icase := range []bool{false, true} {
			re, err := posixre.Compile(expr, icase)
			if err != nil {
				t.Fatalf("Check accepted %q but Compile failed: %v", expr, err)
			}
			if re.NumSubexp() != nsub {
				t.Fatalf("%q: %d groups, Check said %d", expr, re.NumSubexp(), nsub)
			}
			if syntax, ok := posixre.GoSyntax(expr, icase); ok {
				if _, err := regexp.Compile(syntax); err != nil {
					t.Fatalf("%q translates to %q, which does not compile: %v", expr, syntax, err)
				}
			}
			if len(text) < 256 && len(expr) < 64 {
				if m := re.FindStringSubmatchIndex(text); m != nil && (len(m) != 2*(nsub+1) || m[0] > m[1] || m[1] > len(text)) {
					t.Fatalf("%q on %q: bad match %v", expr, text, m)
				}
			}
		}
	})
}
