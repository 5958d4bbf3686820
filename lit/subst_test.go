package lit

import (
	"strings"
	"testing"
)

func TestToolSubst(t *testing.T) {
	s := ToolSubst("filecheck", "/bin/fc")
	tests := []struct{ in, want string }{
		{"filecheck %s", "/bin/fc %s"},
		{"a | filecheck", "a | /bin/fc"},
		{"x|filecheck", "x|/bin/fc"},
		{"%t.filecheck", "%t.filecheck"},       // after '.'
		{"--filecheck-opt", "--filecheck-opt"}, // after '-', before '-'
		{"dir/filecheck", "dir/filecheck"},     // after '/'
		{"filecheck.txt", "filecheck.txt"},     // before '.'
		{"myfilecheck filecheck2", "myfilecheck filecheck2"},
		{"filecheck filecheck", "/bin/fc /bin/fc"},
		{"'filecheck'", "'/bin/fc'"},
	}
	for _, tt := range tests {
		if got := s.apply(tt.in); got != tt.want {
			t.Errorf("apply(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRegexpSubst(t *testing.T) {
	s, err := RegexpSubst(`%tool\((\w+)\)`, `run-\1 \\ \g<1>`)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.apply("%tool(opt) x"), `run-opt \ opt x`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := RegexpSubst(`a`, `\q`); err == nil {
		t.Errorf("bad escape accepted")
	}
}

func TestSubstituter(t *testing.T) {
	st := &substituter{
		substs:    append([]Subst{LiteralSubst("%x", "X")}, pathSubsts("/src/dir/a.test", "/exec/dir/Output", "/exec/dir/Output/a.test")...),
		features:  map[string]bool{"f": true},
		recursion: -1,
	}
	tests := []struct{ in, want string }{
		{"%s %S %p", "/src/dir/a.test /src/dir /src/dir"},
		{"%t %T", "/exec/dir/Output/a.test.tmp /exec/dir/Output"},
		{"%/s %{pathsep} %basename_t", "/src/dir/a.test : a.test"},
		{"100%% %%s", "100% %s"},
		{"%x%s", "X/src/dir/a.test"},
		{"%if f %{yes%} %else %{no%}", "yes"},
		{"%if !f %{yes%} %else %{no%}", "no"},
		{"a %if f %{b %if g %{c%} d%} e", "a b  d e"},
		{"  padded  ", "padded"},
	}
	for _, tt := range tests {
		got, err := st.expand(tt.in)
		if err != nil {
			t.Errorf("expand(%q): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("expand(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, in := range []string{"%if f yes", "%if f %{yes", "%if f %{a%} %else b"} {
		if got, err := st.expand(in); err == nil {
			t.Errorf("expand(%q) = %q, want an error", in, got)
		}
	}
}

func TestDefineRedefine(t *testing.T) {
	st := &substituter{substs: []Subst{LiteralSubst("%{cfg}", "c"), LiteralSubst("%{a}%{b}", "ab")}, recursion: -1}
	steps := []struct {
		d       Directive
		wantErr string
	}{
		{Directive{Keyword: "DEFINE:", Name: "%{x}", Value: "1"}, ""},
		{Directive{Keyword: "DEFINE:", Name: "%{x}", Value: "2"}, "already defined"},
		{Directive{Keyword: "REDEFINE:", Name: "%{x}", Value: `3\4`}, ""},
		{Directive{Keyword: "REDEFINE:", Name: "%{y}", Value: "1"}, "No substitution"},
		{Directive{Keyword: "REDEFINE:", Name: "%{a}", Value: "1"}, "does not have the pattern"},
		{Directive{Keyword: "REDEFINE:", Name: "%{cfg}", Value: "d"}, ""},
	}
	for _, s := range steps {
		err := st.adjust(&s.d)
		if s.wantErr == "" && err != nil || s.wantErr != "" && (err == nil || !strings.Contains(err.Error(), s.wantErr)) {
			t.Errorf("%s %s: error %v, want %q", s.d.Keyword, s.d.Name, err, s.wantErr)
		}
	}
	if got, _ := st.expand("%{x} %{cfg}"); got != `3\4 d` {
		t.Errorf("expand = %q, want %q", got, `3\4 d`)
	}
}

func TestRecursiveExpansion(t *testing.T) {
	st := &substituter{substs: []Subst{LiteralSubst("%{a}", "%{b}"), LiteralSubst("%{b}", "%{c}"), LiteralSubst("%{c}", "done")}, recursion: 0}
	if _, err := st.expand("%{a}"); err == nil {
		t.Errorf("limit 0: want an error")
	}
	st.recursion = 3
	if got, err := st.expand("%{a}"); err != nil || got != "done" {
		t.Errorf("limit 3: got %q, %v", got, err)
	}
}
