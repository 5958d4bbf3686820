package suggest

import "testing"

func TestClosest(t *testing.T) {
	cands := []string{"canonicalize", "cse", "symbol-dce", "split-input-file"}
	for _, tc := range []struct{ in, want string }{
		{"canonicalise", "canonicalize"},
		{"cs", "cse"},
		{"symbol-dec", "symbol-dce"},
		{"split-inptu-file", "split-input-file"},
		{"xyz", ""},          // a complete rewrite is no suggestion
		{"hybrid-split", ""}, // too far from everything
	} {
		if got := Closest(tc.in, cands); got != tc.want {
			t.Errorf("Closest(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := Closest("a", nil); got != "" {
		t.Errorf("no candidates: got %q", got)
	}
}
