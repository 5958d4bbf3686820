package filecheck

import (
	"math"
	"sort"
	"strings"
)

// marker is how an annotation is drawn in the input dump.
type marker struct {
	lead           byte
	color          string
	note           string
	filtersAsError bool // shown by -dump-input-filter=error
}

func markerFor(mt matchType) marker {
	switch mt {
	case matchFoundAndExpected:
		return marker{lead: '^', color: ansiGreen}
	case matchFoundButExcluded:
		return marker{'!', ansiRed, "error: no match expected", true}
	case matchWrongLine:
		return marker{'!', ansiRed, "error: match on wrong line", true}
	case matchDiscarded:
		return marker{'!', ansiCyan, "discard: overlaps earlier match", false}
	case matchFoundErrorNote:
		return marker{'!', ansiRed, "error: unknown error after match", true}
	case matchNoneAndExcluded:
		return marker{lead: 'X', color: ansiGreen}
	case matchNoneButExpected:
		return marker{'X', ansiRed, "error: no match found", true}
	case matchNoneForInvalidPattern:
		return marker{'X', ansiRed, "error: match failed for invalid pattern", true}
	case matchFuzzy:
		return marker{'?', ansiMagenta, "possible intended match", true}
	}
	return marker{lead: '?'}
}

const toEndOfLine = math.MaxInt

// annotation is one annotation line of the dump.
type annotation struct {
	diagIndex        int
	label            string
	firstLine        bool
	inputLine        int
	startCol, endCol int // marked columns [startCol, endCol); endCol may be toEndOfLine
	marker           marker
	foundAndExpected bool
}

// buildAnnotations turns the recorded diagnostics into annotation lines and
// returns them with the width of the widest label.
func (c *checker) buildAnnotations(diags []diag) ([]annotation, int) {
	perPattern := map[loc]int{}
	for _, d := range diags {
		perPattern[d.checkLoc]++
	}
	nextIndex := map[loc]int{}
	var anns []annotation
	width := 0
	for i, d := range diags {
		label := d.typ.abbreviation() + ":"
		if d.checkLoc.f == c.checkFile {
			line, _ := c.checkFile.lineCol(d.checkLoc.off)
			label += itoa(line)
		} else {
			for k, f := range c.implicit {
				if f == d.checkLoc.f {
					label += "imp" + itoa(k+1)
				}
			}
		}
		if perPattern[d.checkLoc] > 1 {
			label += "'" + itoa(nextIndex[d.checkLoc])
			nextIndex[d.checkLoc]++
		}
		width = max(width, len(label))

		a := annotation{diagIndex: i, label: label, firstLine: true, marker: markerFor(d.mt)}
		startLine, startCol := c.input.lineCol(d.start)
		endLine, endCol := c.input.lineCol(d.end)
		if d.note != "" {
			a.marker.note = d.note
			// A note without a range of its own gets no marker.
			if startLine == endLine && startCol == endCol {
				a.marker.lead = ' '
			}
		}
		if d.mt == matchFoundErrorNote {
			a.marker.note = "error: " + a.marker.note
		}
		a.foundAndExpected = d.mt == matchFoundAndExpected
		a.inputLine, a.startCol = startLine, startCol
		if startLine == endLine {
			a.endCol = max(startCol+1, endCol)
			anns = append(anns, a)
			continue
		}
		a.endCol = toEndOfLine
		anns = append(anns, a)
		for l := startLine + 1; l <= endLine; l++ {
			if endCol == 1 && l == endLine {
				break
			}
			b := a
			b.firstLine = false
			b.inputLine = l
			b.marker.lead = '~'
			b.marker.note = ""
			b.startCol = 1
			b.endCol = toEndOfLine
			if l == endLine {
				b.endCol = endCol
			}
			anns = append(anns, b)
		}
	}
	return anns, width
}

// nextLineInFilter returns the first input line at or after line that the
// filter shows, given the remaining annotations, or toEndOfLine if none.
func nextLineInFilter(filter DumpFilter, line int, anns []annotation) int {
	if filter == FilterAll {
		return line
	}
	for _, a := range anns {
		switch filter {
		case FilterAnnotationFull:
			return a.inputLine
		case FilterAnnotation:
			if a.firstLine {
				return a.inputLine
			}
		case FilterError:
			if a.firstLine && a.marker.filtersAsError {
				return a.inputLine
			}
		}
	}
	return toEndOfLine
}

// dumpInput writes the annotated input dump.
func (c *checker) dumpInput(w *printer, filter DumpFilter, context int, diags []diag) {
	anns, width := c.buildAnnotations(diags)
	sort.SliceStable(anns, func(i, j int) bool {
		if anns[i].inputLine != anns[j].inputLine {
			return anns[i].inputLine < anns[j].inputLine
		}
		return anns[i].diagIndex < anns[j].diagIndex
	})
	text := c.input.text
	lineCount := strings.Count(text, "\n")
	if text != "" && text[len(text)-1] != '\n' {
		lineCount++
	}
	lineNoWidth := 0
	if lineCount > 0 {
		lineNoWidth = len(itoa(lineCount))
	}
	width = max(width, lineNoWidth) + 3

	w.write("Input was:\n<<<<<<\n")
	if w.color {
		w.write(ansiBold, ansiReset)
	}
	var elided strings.Builder
	elidedOut := &printer{w: &elided, color: w.color}
	flushElided := func() {
		if elided.Len() == 0 {
			return
		}
		if strings.Count(elided.String(), "\n") > 3 {
			for i := 0; i < 3; i++ {
				w.colored(ansiBlack, strings.Repeat(" ", width-1)+".")
				w.write("\n")
			}
		} else {
			w.write(elided.String())
		}
		elided.Reset()
	}

	prevInFilter, nextInFilter := 0, 0
	ai := 0
	pos := 0
	var matches []annotation
	var sb strings.Builder
	for line := 1; pos < len(text) || ai < len(anns); line++ {
		lineStart := pos
		if nextInFilter < line {
			nextInFilter = nextLineInFilter(filter, line, anns[ai:])
		}
		if nextInFilter == line {
			prevInFilter = line
		}
		out := w
		if (prevInFilter == 0 || prevInFilter+context < line) && (nextInFilter == toEndOfLine || line+context < nextInFilter) {
			out = elidedOut
		} else {
			flushElided()
		}

		sb.Reset()
		num := itoa(line)
		sb.WriteString(strings.Repeat(" ", max(0, width-len(num))))
		sb.WriteString(num)
		sb.WriteString(": ")
		out.colored(ansiBlack, sb.String())

		matches = matches[:0]
		if c.opts.Verbose && w.color {
			for k := ai; k < len(anns) && anns[k].inputLine == line; k++ {
				if anns[k].foundAndExpected {
					matches = append(matches, anns[k])
				}
			}
		}
		sb.Reset()
		if w.color {
			sb.WriteString(ansiBold)
			if c.opts.Verbose {
				sb.WriteString(ansiCyanBG)
			}
		}
		inMatch := false
		for col := 1; pos < len(text); col++ {
			if w.color {
				was := inMatch
				inMatch = false
				for _, m := range matches {
					if m.startCol <= col && col < m.endCol {
						inMatch = true
						break
					}
				}
				if !was && inMatch {
					sb.WriteString(ansiReset)
				} else if was && !inMatch {
					sb.WriteString(ansiCyanBG)
				}
			}
			ch := text[pos]
			pos++
			if ch == '\n' {
				sb.WriteByte(' ')
				break
			}
			sb.WriteByte(ch)
		}
		if w.color {
			sb.WriteString(ansiReset)
		}
		sb.WriteByte('\n')
		out.write(sb.String())
		lineWidth := pos - lineStart

		for ; ai < len(anns) && anns[ai].inputLine == line; ai++ {
			a := anns[ai]
			sb.Reset()
			if w.color {
				sb.WriteString(a.marker.color)
			}
			sb.WriteString(a.label)
			sb.WriteString(strings.Repeat(" ", max(0, width-len(a.label))))
			sb.WriteString("  ")
			col := 1
			for ; col < a.startCol; col++ {
				sb.WriteByte(' ')
			}
			sb.WriteByte(a.marker.lead)
			for col++; col < a.endCol && col <= lineWidth; col++ {
				sb.WriteByte('~')
			}
			if a.marker.note != "" {
				for ; col <= lineWidth; col++ {
					sb.WriteByte(' ')
				}
				sb.WriteByte(' ')
				sb.WriteString(a.marker.note)
			}
			sb.WriteByte('\n')
			if w.color {
				sb.WriteString(ansiReset)
			}
			out.write(sb.String())
		}
	}
	flushElided()
	w.write(">>>>>>\n")
}

// dumpHelp is the text printed by -dump-input=help.
func dumpHelp(color bool) string {
	b := func(s string) string {
		if color {
			return ansiBold + s + ansiReset
		}
		return s
	}
	col := func(c, s string) string {
		if color {
			return c + s + ansiReset
		}
		return s
	}
	return "The following description was requested by -dump-input=help to\n" +
		"explain the input dump printed by FileCheck.\n" +
		"\n" +
		"Related command-line options:\n" +
		"\n" +
		"  - -dump-input=<value> enables or disables the input dump\n" +
		"  - -dump-input-filter=<value> filters the input lines\n" +
		"  - -dump-input-context=<N> adjusts the context of filtered lines\n" +
		"  - -v and -vv add more annotations\n" +
		"  - -color forces colors to be enabled both in the dump and below\n" +
		"  - -help documents the above options in more detail\n" +
		"\n" +
		"These options can also be set via FILECHECK_OPTS.  For example, for\n" +
		"maximum debugging output on failures:\n" +
		"\n" +
		"  $ FILECHECK_OPTS='-dump-input-filter=all -vv -color' ninja check\n" +
		"\n" +
		"Input dump annotation format:\n" +
		"\n" +
		"  - " + b("L:") + "     labels line number L of the input file\n" +
		"           An extra space is added after each input line to represent the\n" +
		"           newline character\n" +
		"  - " + b("T:L") + "    labels the only match result for either (1) a pattern of type T from\n" +
		"           line L of the check file if L is an integer or (2) the I-th implicit\n" +
		"           pattern if L is \"imp\" followed by an integer I (index origin one)\n" +
		"  - " + b("T:L'N") + "  labels the Nth match result for such a pattern\n" +
		"  - " + b("^~~") + "    marks good match (reported if -v)\n" +
		"  - " + b("!~~") + "    marks bad match, such as:\n" +
		"           - CHECK-NEXT on same line as previous match (error)\n" +
		"           - CHECK-NOT found (error)\n" +
		"           - CHECK-DAG overlapping match (discarded, reported if -vv)\n" +
		"  - " + b("X~~") + "    marks search range when no match is found, such as:\n" +
		"           - CHECK-NEXT not found (error)\n" +
		"           - CHECK-NOT not found (success, reported if -vv)\n" +
		"           - CHECK-DAG not found after discarded matches (error)\n" +
		"  - " + b("?") + "      marks fuzzy match when no match is found\n" +
		"  - " + b("...") + "    indicates elided input lines and annotations, as specified by\n" +
		"           -dump-input-filter and -dump-input-context\n" +
		"  - colors " + col(ansiGreen, "success") + ", " + col(ansiRed, "error") + ", " +
		col(ansiMagenta, "fuzzy match") + ", " + col(ansiCyan, "discarded match") + ", " +
		col(ansiCyanBG, "unmatched input") + "\n"
}
