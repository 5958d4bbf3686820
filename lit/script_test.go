package lit

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestParseScript(t *testing.T) {
	src := strings.Join([]string{
		"// RUN: echo a \\",
		"// RUN:   b",
		"// not a directive",
		"// XFAIL: x, y && \\",
		"// XFAIL: z",
		"// REQUIRES: r1",
		"// REQUIRES: r2, r3",
		"// UNSUPPORTED: u",
		"// DEFINE: %{n} = one \\",
		"// DEFINE:   two",
		"// CHECK-RUN: echo %(line) %(line+1) %(line - 2)", // lit finds RUN: anywhere
		"// ALLOW_RETRIES: 3",
		"// END.",
		"// RUN: ignored",
	}, "\n")
	got, err := ParseScript([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := &Script{
		Directives: []Directive{
			{Keyword: "RUN:", StartLine: 1, EndLine: 2, Command: " echo a    b"},
			{Keyword: "DEFINE:", StartLine: 9, EndLine: 10, Name: "%{n}", Value: "one two"},
			{Keyword: "RUN:", StartLine: 11, EndLine: 11, Command: " echo 11 12 9"},
		},
		XFail:        []string{"x", "y && z"},
		Requires:     []string{"r1", "r2", "r3"},
		Unsupported:  []string{"u"},
		AllowRetries: 3,
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(Directive{})); diff != "" {
		t.Errorf("ParseScript (-want +got):\n%s", diff)
	}
}

func TestParseScriptErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"no directives", "Test has no 'RUN:' line"},
		{"RUN: a \\", "unterminated 'RUN:' directive"},
		{"RUN: a \\\nDEFINE: %{x} = 1\nRUN: b", "unterminated 'RUN:' directive"},
		{"XFAIL: a && \\\nRUN: b", "unterminated 'XFAIL:' lines"},
		{"REQUIRES: a &&\nRUN: b", "in REQUIRES: directive on test line 1"},
		{"ALLOW_RETRIES: x\nRUN: b", "INTEGER parser requires"},
		{"ALLOW_RETRIES: 1\nALLOW_RETRIES: 2\nRUN: b", "more than one ALLOW_RETRIES"},
		{"DEFINE: %{x}\nRUN: b", "does not contain '='"},
		{"DEFINE: x = 1\nRUN: b", "is malformed"},
		{"DEFINE: %{x} = \\\nDEFINE:  \nRUN: b", "continuation is empty"},
	}
	for _, tt := range tests {
		_, err := ParseScript([]byte(tt.src))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseScript(%q) error = %v, want it to contain %q", tt.src, err, tt.want)
		}
	}
}
