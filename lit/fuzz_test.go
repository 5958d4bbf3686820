package lit

import (
	"fmt"
	"strings"
	"testing"
)

// ungroup prints n as one command line; since operators associate to the
// left, no parentheses are needed.
func ungroup(n Node) string {
	if s, ok := n.(*Seq); ok {
		return ungroup(s.LHS) + " " + s.Op + " " + ungroup(s.RHS)
	}
	return n.(*Pipeline).String()
}

// FuzzShellParse checks that the RUN-line lexer and parser never panic and
// that whatever they accept prints back to a line they parse the same way.
func FuzzShellParse(f *testing.F) {
	for _, s := range []string{
		`echo a | count 1`, `a && b || c ; d`, `not --crash x 2>&1 > f`, `echo 'a b' "c\"d" e\ f`,
		`cat *.txt 'q*' < in >> out &> both`, `x 2>>err 10>f <&0`, `"unterminated`, `a |`, `\`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		n, err := ParseShell(line, true)
		if err != nil {
			return
		}
		// A parse prints back to a line that parses to the same structure
		// (globs aside: printing does not requote them).
		printed := grouped(n)
		if strings.ContainsAny(line, "*?") {
			return
		}
		again, err := ParseShell(ungroup(n), true)
		if err != nil {
			t.Fatalf("%q parses, but its printed form %q does not: %v", line, ungroup(n), err)
		}
		if grouped(again) != printed {
			t.Errorf("%q: printed %q, reparsed %q", line, printed, grouped(again))
		}
	})
}

// FuzzBoolExpr checks that feature expressions never panic, and that a
// parsed expression evaluates the same twice.
func FuzzBoolExpr(f *testing.F) {
	for _, s := range []string{
		"a && !b", "(a || b) && {{c.*}}", "x86_64-{{linux|darwin}}", "!!!(((a)))", "{{[}}", "a\nb", "{{a}}}}",
	} {
		f.Add(s)
	}
	features := map[string]bool{"a": true, "c1": true, "x86_64-linux": true}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := ParseBool(s)
		if err != nil {
			return
		}
		if strings.Contains(s, "\n") {
			return
		}
		neg, err := ParseBool("!(" + s + ")")
		if err != nil {
			t.Fatalf("%q parses but !(%s) does not: %v", s, s, err)
		}
		if neg.Eval(features) == e.Eval(features) {
			t.Errorf("!(%s) does not negate %q", s, s)
		}
	})
}

// FuzzParseScript checks that the directive parser never panics.
func FuzzParseScript(f *testing.F) {
	f.Add([]byte("RUN: a \\\nRUN: b\nDEFINE: %{x} = 1\nXFAIL: *\nEND.\n"))
	f.Add([]byte("REDEFINE: %{x} = \\\nREDEFINE: 2\nALLOW_RETRIES: 2\nRUN: %(line+1)"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseScript(data)
		if err != nil {
			return
		}
		st := &substituter{features: map[string]bool{}, recursion: -1}
		for i := range s.Directives {
			d := &s.Directives[i]
			if d.Keyword != "RUN:" {
				st.adjust(d)
				continue
			}
			st.expand(d.Command)
		}
	})
}

// FuzzParseConfig checks that the lit.cfg.py reader never panics and that
// every error names the file, and a line of it when it has one.
func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{
		"import lit.formats\nconfig.name = 'x'\nconfig.suffixes = ['.mlir', \".test\"]\n",
		"config.substitutions.append(('%foo', 'bar'))\nconfig.available_features.add('f')\n",
		"config.environment['A'] = \"b\\\"c\"\nconfig.test_format = lit.formats.ShTest(execute_external=False)\n",
		"config.suffixes.extend([\n  '.a',\n  '.b'])\nconfig.pipefail = False\nconfig.recursiveExpansionLimit = 10\n",
		"config.rlx_tools = ['rlx-opt']  # comment\n" + LLVMOnlyMarker + "\nanything(\n",
		"config.name = 'unterminated\n", "config.suffixes = [\n", "x = (", "config.name = '#not a comment'",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		_, err := ParseConfig("/t/lit.cfg.py", []byte(src))
		if err == nil {
			return
		}
		// "FILE:LINE: …" for a statement, "FILE: …" for the whole file.
		msg := err.Error()
		if !strings.HasPrefix(msg, "/t/lit.cfg.py:") {
			t.Fatalf("error without the file name: %q", msg)
		}
		var line int
		if _, serr := fmt.Sscanf(msg, "/t/lit.cfg.py:%d:", &line); serr == nil {
			if n := strings.Count(src, "\n") + 1; line < 1 || line > n {
				t.Fatalf("error at line %d of a %d-line file: %q", line, n, msg)
			}
		}
	})
}
