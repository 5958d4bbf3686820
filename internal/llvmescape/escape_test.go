package llvmescape

import "testing"

func TestString(t *testing.T) {
	for in, want := range map[string]string{
		"plain text ~":   "plain text ~",
		"a\\b\tc\nd\"e":  `a\\b\tc\nd\"e`,
		"\x00\x1f\x7f\r": `\000\037\177\015`,
		"é":              `\303\251`,
	} {
		if got := String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}
