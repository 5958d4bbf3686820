package srcline

import "testing"

func TestLines(t *testing.T) {
	for _, tc := range []struct {
		line       string
		col        int
		ranges     []Range
		src, caret string
	}{
		{"abc def", 5, nil, "abc def", "    ^"},
		{"abc", 9, nil, "abc", "   ^"},
		{"\tx = 1", 2, nil, "        x = 1", "        ^"},
		{"a\tb", 3, []Range{{0, 3}}, "a       b", "~~~~~~~~^"},
		{"abcdef", 2, []Range{{1, 4}}, "abcdef", " ^~~"},
		{"é = 1", 4, nil, "é = 1", ""},
	} {
		src, caret := Lines(tc.line, tc.col, tc.ranges...)
		if src != tc.src || caret != tc.caret {
			t.Errorf("Lines(%q, %d, %v) = %q, %q; want %q, %q", tc.line, tc.col, tc.ranges, src, caret, tc.src, tc.caret)
		}
	}
}
