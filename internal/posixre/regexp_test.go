package posixre

import (
	"fmt"
	"regexp"
	"testing"
)

func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		expr string
		want string // "" for valid
	}{
		{"a", ""},
		{"", "empty (sub)expression"},
		{")", "parentheses not balanced"},
		{"(", "parentheses not balanced"},
		{"(a", "parentheses not balanced"},
		{"a{1", "braces not balanced"},
		{"a{1,0}", "invalid repetition count(s)"},
		{"a{256}", "invalid repetition count(s)"},
		{"a{255}", ""},
		{"a{1x}", "invalid repetition count(s)"},
		{"[b-a]", "invalid character range"},
		{"[[:foo:]]", "invalid character class"},
		{"[a", "brackets ([ ]) not balanced"},
		{`\`, `trailing backslash (\)`},
		{`(a\1)`, "invalid backreference number"},
		{`\2(a)`, "invalid backreference number"},
		{`(a)\1`, ""},
		{"a|*", "repetition-operator operand invalid"},
		{"^*", "repetition-operator operand invalid"},
		{"$*", ""},
		{"{1}", "repetition-operator operand invalid"},
		{"{a", ""},
		{"a{1}{2}", "repetition-operator operand invalid"},
		{"a**", "repetition-operator operand invalid"},
		{"[[.hyphen.]]", ""},
		{"[[.xx.]]", "invalid collating element"},
		{"[[=a=]]", ""},
		{"x{,2}", ""},
		{"[]a]", ""},
		{"[^]a]", ""},
		{"[a-]", ""},
		{"[--z]", "invalid character range"},
		{"[[:alpha:]-z]", "invalid character range"},
		{"()", ""},
		{"a||b", "empty (sub)expression"},
		{"(|a)", "empty (sub)expression"},
		{"a|", "empty (sub)expression"},
		{"a{0}", "empty (sub)expression"},
		{"a{0}b", ""},
		{"[[:<:]]a[[:>:]]", ""},
	}
	for _, tt := range tests {
		_, err := Check(tt.expr)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("Check(%q) = %q, want %q", tt.expr, got, tt.want)
		}
	}
}

func TestMatch(t *testing.T) {
	tests := []struct {
		expr, text string
		icase      bool
		want       string // "[start end ...]" or "nil"
	}{
		{"a|ab", "xab", false, "[1 3]"},
		{"b.d", "abcd", false, "[1 4]"},
		{"a.b", "a\nb", false, "nil"},
		{"[^x]", "\n", false, "nil"},
		{"[^x]", "y", false, "[0 1]"},
		{"^b", "a\nb", false, "[2 3]"},
		{"a$", "a\nb", false, "[0 1]"},
		{`\t`, "t", false, "[0 1]"},
		{`\.`, "a.", false, "[1 2]"},
		{`(r[0-9]+) \1`, "r1 r2 r3 r3", false, "[6 11 6 8]"},
		{`(a*)\1`, "aaaa", false, "[0 4 0 2]"},
		{`[[:<:]]ab`, "cab ab", false, "[4 6]"},
		{`ab[[:>:]]`, "abc ab", false, "[4 6]"},
		{"ABC", "xabc", true, "[1 4]"},
		{`(A)\1`, "aA aa", true, "[3 5 3 4]"},
		{"[[:space:]]+", "a \n b", false, "[1 4]"},
		{"x{0}y", "xy", false, "[1 2]"},
		{"[[.hyphen.]]", "a-b", false, "[1 2]"},
		{"(a)|(b)", "b", false, "[0 1 -1 -1 0 1]"},
		{"k+x", "\u212ak", true, "nil"},
		{"a.b", "a\u00e9b", false, "nil"},
		{"a..b", "a\u00e9b", false, "[0 4]"},
		{"a[^x]{2}b", "a\u00e9b", false, "[0 4]"},
		{"\u00e9+", "\u00e9\xa9\xa9!", false, "[0 4]"},
		{"[\xa9]", "\u00e9", false, "[1 2]"},
		{"(.)\\1", "\u00e9\u00e9xx", false, "[4 6 4 5]"},
		{"k+x|[j-l]y", "xKy", true, "[1 3]"},
		{"[^a]b", "Ab", true, "nil"},
	}
	for _, tt := range tests {
		re, err := Compile(tt.expr, tt.icase)
		if err != nil {
			t.Errorf("Compile(%q): %v", tt.expr, err)
			continue
		}
		got := "nil"
		if m := re.FindStringSubmatchIndex(tt.text); m != nil {
			got = fmt.Sprint(m)
		}
		if got != tt.want {
			t.Errorf("%q on %q = %s, want %s", tt.expr, tt.text, got, tt.want)
		}
	}
}

// TestBacktrackerAgreesWithGo runs expressions that have an exact Go
// translation through both engines.
func TestBacktrackerAgreesWithGo(t *testing.T) {
	exprs := []string{"a+b", "(a|b)*c", "[^a]b", "x(y)?z", "^a.*b$", "(ab|a)(c|bcd)?", "[[:digit:]]{2,3}"}
	texts := []string{"aab", "ababc", "cb\nab", "xz xyz", "a12b\nab", "abcd", "1 12 123 1234"}
	for _, e := range exprs {
		re, err := Compile(e, false)
		if err != nil || re.exact == nil {
			t.Fatalf("Compile(%q): exact translation expected, err %v", e, err)
		}
		for _, s := range texts {
			want := re.exact.FindStringIndex(s)
			bt := &Regexp{nsub: re.nsub, tree: re.tree}
			got := bt.FindStringSubmatchIndex(s)
			if (want == nil) != (got == nil) || (want != nil && (want[0] != got[0] || want[1] != got[1])) {
				t.Errorf("%q on %q: backtracker %v, Go %v", e, s, got, want)
			}
		}
	}
}

func TestPrefilterIsSuperset(t *testing.T) {
	for _, e := range []string{`(a.)\1`, `[[:<:]]x`, `(é*)`, `[^a]b\1`} {
		_, nsub, err := parse(e)
		if err != nil {
			continue
		}
		_ = nsub
		re, err := Compile(e, false)
		if err != nil {
			t.Fatal(err)
		}
		if re.exact != nil {
			continue
		}
		if re.pre == nil {
			t.Errorf("%q: no prefilter", e)
			continue
		}
		if _, err := regexp.Compile(re.pre.String()); err != nil {
			t.Errorf("%q: prefilter does not compile: %v", e, err)
		}
	}
}
