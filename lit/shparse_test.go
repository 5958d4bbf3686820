package lit

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLexWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{`a b  c`, []string{"a", "b", "c"}},
		{`'a b' "c d"`, []string{"a b", "c d"}},
		{`"a\"b" "a\\b" "a\nb"`, []string{`a"b`, `a\b`, `a\nb`}},
		{`'a\nb'`, []string{`a\nb`}},
		{`a\ b`, []string{"a b"}},
		{`a'b'"c"d`, []string{"abcd"}},
		{`\a`, []string{`\a`}}, // a leading backslash is literal, as in lit
		{`x\;y`, []string{"x;y"}},
		{"a\tb\x1cc", []string{"a", "b", "c"}},
		{`""`, []string{""}},
	}
	for _, tt := range tests {
		got, err := LexWords(tt.in)
		if err != nil {
			t.Errorf("LexWords(%q): %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("LexWords(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestParseShell(t *testing.T) {
	tests := []struct {
		in, want string // want is the parse printed back with grouping
	}{
		{`echo a`, `echo a`},
		{`a | b | c`, `a | b | c`},
		{`a && b || c`, `((a && b) || c)`},
		{`a || b && c`, `((a || b) && c)`},
		{`a ; b && c`, `((a ; b) && c)`},
		{`a > f 2>&1 < in`, `a > f 2>& 1 < in`},
		{`a 2>err >>out &> both`, `a 2> err >> out &> both`},
		{`a>f`, `a > f`},
		{`a 2>f`, `a 2> f`},
		{`a x2>f`, `a x2 > f`},
		{`a "2">f`, `a 2> f`},
		{`a *>f`, `a '*' > f`}, // lit's slow path misses a glob in the first character
		{`a 10>f`, `a 10> f`},
		{`echo 'a|b' "c;d"`, `echo 'a|b' 'c;d'`},
		{`ls *.txt 'q*'`, `ls *.txt 'q*'`},
		{`a & b`, `(a & b)`},
		{`a <& b`, `a <& b`},
	}
	for _, tt := range tests {
		n, err := ParseShell(tt.in, true)
		if err != nil {
			t.Errorf("ParseShell(%q): %v", tt.in, err)
			continue
		}
		if got := grouped(n); got != tt.want {
			t.Errorf("ParseShell(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func grouped(n Node) string {
	if s, ok := n.(*Seq); ok {
		return "(" + grouped(s.LHS) + " " + s.Op + " " + grouped(s.RHS) + ")"
	}
	return n.(*Pipeline).String()
}

func TestParseShellErrors(t *testing.T) {
	for _, in := range []string{
		``,
		`   `,
		`| a`,
		`a |`,
		`a &&`,
		`a ;`,
		`a >`,
		`a > | b`,
		`echo "unterminated`,
		`echo 'unterminated`,
		`echo a\`,
		`echo "a\`,
		`echo a*'b*'`, // glob characters both outside and inside quotes
		`&& a`,
	} {
		if n, err := ParseShell(in, true); err == nil {
			t.Errorf("ParseShell(%q) = %v, want an error", in, n)
		}
	}
}

func TestParseShellGlob(t *testing.T) {
	n, err := ParseShell(`cat a*.txt 'b*' c?`, true)
	if err != nil {
		t.Fatal(err)
	}
	got := n.(*Pipeline).Commands[0].Args
	want := []Word{{"cat", false}, {"a*.txt", true}, {"b*", false}, {"c?", true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("args (-want +got):\n%s", diff)
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"":        "''",
		"abc":     "abc",
		"a b":     "'a b'",
		"it's":    `'it'"'"'s'`,
		"/x/y.z":  "/x/y.z",
		"a=b,c:d": "a=b,c:d",
		"$x":      "'$x'",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}
