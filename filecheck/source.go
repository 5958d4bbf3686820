package filecheck

import (
	"io"
	"sort"
	"strings"

	"github.com/rlx-compiler/rlx/internal/srcline"
)

// sourceFile is a named buffer that diagnostics can point into: the check
// file, the input, or one of the synthetic buffers LLVM's FileCheck invents
// for command-line patterns ("command line", "Global defines").
type sourceFile struct {
	name  string
	text  string
	lines []int // offsets of line starts, filled in on first use
}

func newSourceFile(name, text string) *sourceFile {
	return &sourceFile{name: name, text: text}
}

// lineCol returns the 1-based line and column of the byte at off. Like
// llvm::SourceMgr, only '\n' ends a line.
func (f *sourceFile) lineCol(off int) (line, col int) {
	if f.lines == nil {
		f.lines = append(f.lines, 0)
		for i := 0; i < len(f.text); i++ {
			if f.text[i] == '\n' {
				f.lines = append(f.lines, i+1)
			}
		}
	}
	i := sort.Search(len(f.lines), func(i int) bool { return f.lines[i] > off }) - 1
	// SourceMgr counts lines by '\n' only but measures columns from the
	// last '\n' or '\r'.
	start := f.lines[i]
	if cr := strings.LastIndexByte(f.text[start:off], '\r'); cr >= 0 {
		start += cr + 1
	}
	return i + 1, off - start + 1
}

// loc is a position in a sourceFile. The zero loc is "no location".
type loc struct {
	f   *sourceFile
	off int
}

// cursor is a piece of a sourceFile that parsing consumes from the front,
// the counterpart of the llvm::StringRef that FileCheck's parser threads
// through its functions; errors point at the start of what is left.
type cursor struct {
	f   *sourceFile
	off int
	s   string
}

func (c cursor) loc() loc       { return loc{c.f, c.off} }
func (c cursor) empty() bool    { return c.s == "" }
func (c cursor) front() byte    { return c.s[0] }
func (c cursor) String() string { return c.s }

// drop returns c without its first n bytes.
func (c cursor) drop(n int) cursor {
	if n > len(c.s) {
		n = len(c.s)
	}
	return cursor{c.f, c.off + n, c.s[n:]}
}

// take returns the first n bytes of c.
func (c cursor) take(n int) cursor {
	if n > len(c.s) {
		n = len(c.s)
	}
	return cursor{c.f, c.off, c.s[:n]}
}

// consume drops prefix from the front of *c if it is there.
func (c *cursor) consume(prefix string) bool {
	if strings.HasPrefix(c.s, prefix) {
		*c = c.drop(len(prefix))
		return true
	}
	return false
}

// ltrim drops leading spaces and tabs.
func (c cursor) ltrim() cursor {
	return c.drop(len(c.s) - len(strings.TrimLeft(c.s, " \t")))
}

// rtrim drops trailing spaces and tabs.
func (c cursor) rtrim() cursor {
	return c.take(len(strings.TrimRight(c.s, " \t")))
}

// diagKind is the severity printed after the location.
type diagKind int

const (
	kindError diagKind = iota
	kindWarning
	kindRemark
	kindNote
)

// ANSI sequences as written by llvm::raw_ostream.
const (
	ansiReset   = "\x1b[0m"
	ansiBold    = "\x1b[1m"
	ansiRed     = "\x1b[0;1;31m"
	ansiGreen   = "\x1b[0;1;32m"
	ansiBlue    = "\x1b[0;1;34m"
	ansiMagenta = "\x1b[0;1;35m"
	ansiCyan    = "\x1b[0;1;36m"
	ansiBlack   = "\x1b[0;1;30m"
	ansiCyanBG  = "\x1b[0;1;46m"
)

var kindLabels = [...]struct{ text, color string }{
	kindError:   {"error: ", ansiRed},
	kindWarning: {"warning: ", ansiMagenta},
	kindRemark:  {"remark: ", ansiBlue},
	kindNote:    {"note: ", ansiBlack},
}

// printer writes diagnostics in llvm::SMDiagnostic's format:
//
//	file:line:col: error: message
//	source line
//	    ^~~~
type printer struct {
	w     io.Writer
	color bool
}

func (p *printer) write(parts ...string) {
	for _, s := range parts {
		io.WriteString(p.w, s)
	}
}

// colored writes s wrapped in the given color when colors are on.
func (p *printer) colored(color, s string) {
	if p.color {
		p.write(color, s, ansiReset)
	} else {
		p.write(s)
	}
}

// span is a byte range [start, end) in the file of the location it goes
// with.
type span struct{ start, end int }

// print writes one diagnostic at l, underlining the given ranges.
func (p *printer) print(l loc, kind diagKind, msg string, ranges ...span) {
	line, col := l.f.lineCol(l.off)
	p.colored(ansiBold, l.f.name+":"+itoa(line)+":"+itoa(col)+": ")
	p.colored(kindLabels[kind].color, kindLabels[kind].text)
	if p.color {
		p.write(ansiBold, msg, "\n", ansiReset)
	} else {
		p.write(msg, "\n")
	}

	text := l.f.text
	start := l.off
	for start > 0 && text[start-1] != '\n' && text[start-1] != '\r' {
		start--
	}
	end := l.off
	for end < len(text) && text[end] != '\n' && text[end] != '\r' {
		end++
	}
	lineText := text[start:end]
	var rs []srcline.Range
	for _, r := range ranges {
		if r.start > end || r.end < start {
			continue
		}
		rs = append(rs, srcline.Range{Start: max(r.start, start) - start, End: min(r.end, end) - start})
	}
	shown, caret := srcline.Lines(lineText, col, rs...)
	p.write(shown, "\n")
	if caret == "" {
		// SMDiagnostic gives up on carets for non-ASCII lines.
		return
	}
	if p.color {
		p.write(ansiGreen, caret, "\n", ansiReset)
	} else {
		p.write(caret, "\n")
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var buf [20]byte
	i := len(buf)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		buf[i] = '-'
	}
	return string(buf[i:])
}
