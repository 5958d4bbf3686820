package filecheck

import (
	"io"
	"strings"

	"github.com/rlx-compiler/rlx/internal/posixre"
)

// File is a named text: the check file or the input.
type File struct {
	// Name is used in diagnostics; "-" is shown as "<stdin>".
	Name string
	Text []byte
}

// Check matches input against the directives in checkFile, writing
// diagnostics and the input dump to diag as LLVM's FileCheck writes them
// to stderr. It returns FileCheck's exit status.
func Check(opts Options, checkFile, input File, diag io.Writer) Status {
	return run(opts, func() (File, bool) { return checkFile, true }, func() (File, bool) { return input, true }, diag, nil)
}

// run is Check with the files read lazily, in LLVM's order (so that
// option errors come before check-file errors, which come before input
// errors), and with the command line to echo when the input is empty.
func run(opts Options, readCheck, readInput func() (File, bool), errs io.Writer, argv []string) (status Status) {
	pr := &printer{w: errs, color: opts.Color}
	c := newChecker(opts, pr)
	if !c.validatePrefixes() {
		return StatusError
	}
	checkFile, ok := readCheck()
	if !ok {
		return StatusError
	}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(fatalExit); !ok {
				panic(r)
			}
			status = StatusMismatch
		}
	}()

	cf := newSourceFile(displayName(checkFile.Name), canonicalize(checkFile.Text, opts.StrictWhitespace))
	if !c.readCheckFile(cf) {
		return StatusError
	}
	if !opts.NoLint {
		if issues := c.lint(cf); len(issues) > 0 {
			for _, is := range issues {
				pr.print(is.at, kindError, is.msg)
			}
			pr.write("note: FileCheck would ignore these lines; use --lint=false to accept them\n")
			return StatusError
		}
	}

	input, ok := readInput()
	if !ok {
		return StatusError
	}
	inName := displayName(input.Name)
	if len(input.Text) == 0 && !opts.AllowEmpty {
		pr.write("FileCheck error: '" + inName + "' is empty.\n")
		if argv != nil {
			pr.write("FileCheck command line: ")
			for _, a := range argv {
				pr.write(" " + a)
			}
			pr.write("\n")
		}
		return StatusError
	}
	c.input = newSourceFile(inName, canonicalize(input.Text, opts.StrictWhitespace))
	c.ctx.text = posixre.NewText(c.input.text)
	var diags []diag
	if opts.DumpInput != DumpNever {
		c.diags = &diags
	}
	status = StatusOK
	if !c.checkInput(c.input.text) {
		status = StatusMismatch
	}
	if opts.DumpInput == DumpAlways || (status == StatusMismatch && opts.DumpInput == DumpFail) {
		filter := opts.DumpFilter
		if filter == FilterDefault {
			filter = FilterError
			if opts.DumpInput == DumpAlways {
				filter = FilterAll
			}
		}
		pr.write("\nInput file: " + inName + "\nCheck file: " + checkFile.Name + "\n\n-dump-input=help explains the following input dump.\n\n")
		c.dumpInput(pr, filter, opts.DumpContext, diags)
	}
	return status
}

func displayName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	return name
}

// canonicalize drops the '\r' of each "\r\n" and, unless strict, turns
// every run of spaces and tabs into one space, as FileCheck does to both
// the check file and the input before anything else.
func canonicalize(b []byte, strict bool) string {
	var sb strings.Builder
	sb.Grow(len(b))
	last := 0
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '\r' && i+1 < len(b) && b[i+1] == '\n':
			sb.Write(b[last:i])
			last = i + 1
		case !strict && (c == ' ' || c == '\t'):
			j := i + 1
			for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
				j++
			}
			if c == ' ' && j == i+1 {
				continue
			}
			sb.Write(b[last:i])
			sb.WriteByte(' ')
			last = j
			i = j - 1
		}
	}
	sb.Write(b[last:])
	return sb.String()
}
