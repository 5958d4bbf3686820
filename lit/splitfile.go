package lit

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/rlx-compiler/rlx/internal/outfile"
)

// SplitFile implements LLVM's split-file: "split-file [--leading-lines]
// INPUT DIR" writes each part of INPUT that starts with a line
// "<c>--- NAME" (c any one character, or "//") to DIR/NAME. Text before the
// first marker is dropped; with --leading-lines each part keeps its line
// numbers by starting with blank lines. INPUT "-" is standard input; args
// include the program name, and relative paths are taken from cwd.
func SplitFile(args []string, cwd string, stdin io.Reader, stderr io.Writer) int {
	leading := false
	var pos []string
	for _, a := range args[1:] {
		switch a {
		case "--leading-lines", "-leading-lines":
			leading = true
		case "--no-leading-lines", "-no-leading-lines":
			leading = false
		default:
			if len(a) > 1 && a[0] == '-' {
				fmt.Fprintf(stderr, "split-file: Unknown command line argument '%s'.  Try: 'split-file --help'\n", a)
				return 1
			}
			pos = append(pos, a)
		}
	}
	switch {
	case len(pos) == 0:
		fmt.Fprintf(stderr, "split-file: error: input filename is not specified\n")
		return 1
	case len(pos) == 1:
		fmt.Fprintf(stderr, "split-file: error: output directory is not specified\n")
		return 1
	case len(pos) > 2:
		fmt.Fprintf(stderr, "split-file: Too many positional arguments specified!\n")
		return 1
	}
	input, outDir := pos[0], pos[1]
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(cwd, p)
	}
	var data []byte
	var err error
	if input == "-" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(abs(input))
	}
	if err != nil {
		fmt.Fprintf(stderr, "split-file: error: %s: %s\n", input, pyStrerrorBare(err))
		return 1
	}
	eol := "\n"
	if i := bytes.IndexByte(data, '\n'); i > 0 && data[i-1] == '\r' {
		eol = "\r\n"
	}
	type part struct {
		name         string
		begin, end   int
		leadingLines int
	}
	var parts []*part
	byName := map[string]*part{}
	failed := false
	var last *part
	lineNo := 0
	for off := 0; off < len(data); {
		lineNo++
		end := bytes.IndexByte(data[off:], '\n')
		next := len(data)
		if end >= 0 {
			end += off
			next = end + 1
		} else {
			end = len(data)
		}
		line := strings.TrimSuffix(string(data[off:end]), "\r")
		lineStart := off
		off = next
		markerLen := 5
		if strings.HasPrefix(line, "//") {
			markerLen = 6
		}
		if len(line) < markerLen || !strings.HasPrefix(line[markerLen-4:], "--- ") {
			continue
		}
		name := line[markerLen:]
		if name == "" {
			fmt.Fprintf(stderr, "%s:%d: error: empty part name\n", input, lineNo)
			failed = true
			continue
		}
		if unicode.IsSpace(rune(name[0])) || unicode.IsSpace(rune(name[len(name)-1])) {
			fmt.Fprintf(stderr, "%s:%d: error: part name cannot have leading or trailing space\n", input, lineNo)
			failed = true
			continue
		}
		if byName[name] != nil {
			fmt.Fprintf(stderr, "%s:%d: error: '%s%s' occurs more than once\n", input, lineNo, line[:markerLen], name)
			failed = true
			continue
		}
		if last != nil {
			last.end = lineStart
		}
		p := &part{name: name, begin: off}
		if leading {
			p.leadingLines = lineNo
		}
		parts = append(parts, p)
		byName[name] = p
		last = p
	}
	if last == nil {
		fmt.Fprintf(stderr, "split-file: error: %s: no part separator was found\n", input)
		return 1
	}
	if failed {
		return 1
	}
	last.end = len(data)
	for _, p := range parts {
		path := filepath.Join(abs(outDir), p.name)
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			fmt.Fprintf(stderr, "split-file: error: %s: %s\n", input, pyStrerrorBare(err))
			return 1
		}
		content := strings.Repeat(eol, p.leadingLines) + string(data[min(p.begin, p.end):p.end])
		if err := outfile.WriteFile(path, []byte(content)); err != nil {
			fmt.Fprintf(stderr, "split-file: error: %s: %s\n", input, pyStrerrorBare(err))
			return 1
		}
	}
	return 0
}

// pyStrerrorBare is an error's errno message, capitalized as LLVM prints it.
func pyStrerrorBare(err error) string {
	var pe *os.PathError
	if e, ok := err.(*os.PathError); ok {
		pe = e
		err = pe.Err
	}
	msg := err.Error()
	if msg != "" {
		msg = strings.ToUpper(msg[:1]) + msg[1:]
	}
	return msg
}
