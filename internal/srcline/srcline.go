// Package srcline renders the source line under a diagnostic the way LLVM's
// SMDiagnostic does: the line with tabs expanded to 8-column stops, then a
// caret line with `^` under the column and `~` under marked ranges. LLVM
// prints no caret line when the source line has non-ASCII bytes, since its
// columns would not line up; neither does Lines.
package srcline

import "strings"

// Range marks bytes [Start, End) of the line with `~`.
type Range struct{ Start, End int }

// Lines returns the source line with tabs expanded and the caret line for
// 1-based column col (a column past the end points just after the line),
// or "" for the caret line when line has non-ASCII bytes. Neither has a
// trailing newline.
func Lines(line string, col int, ranges ...Range) (src, caret string) {
	src = expandTabs(line)
	for i := 0; i < len(line); i++ {
		if line[i] >= 0x80 {
			return src, ""
		}
	}
	marks := make([]byte, len(line)+1)
	for i := range marks {
		marks[i] = ' '
	}
	for _, r := range ranges {
		for i := max(r.Start, 0); i < r.End && i < len(marks); i++ {
			marks[i] = '~'
		}
	}
	c := min(max(col-1, 0), len(line))
	marks[c] = '^'
	trimmed := strings.TrimRight(string(marks), " ")
	// Expand the caret line with the source line's tabs.
	var sb strings.Builder
	out := 0
	for i := 0; i < len(trimmed); i++ {
		if i >= len(line) || line[i] != '\t' {
			sb.WriteByte(trimmed[i])
			out++
			continue
		}
		for {
			sb.WriteByte(trimmed[i])
			out++
			if out%8 == 0 {
				break
			}
		}
	}
	return src, sb.String()
}

// expandTabs replaces tabs with spaces up to the next multiple of 8
// columns.
func expandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var sb strings.Builder
	col := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '\t' {
			sb.WriteByte(s[i])
			col++
			continue
		}
		for {
			sb.WriteByte(' ')
			col++
			if col%8 == 0 {
				break
			}
		}
	}
	return sb.String()
}
