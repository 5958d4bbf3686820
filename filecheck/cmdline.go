package filecheck

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Env is the process environment Main runs in.
type Env struct {
	Args           []string // the command line, program name first
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string // nil: no environment
	// StderrIsTerminal turns colors on when --color is not given, as LLVM
	// does for a terminal.
	StderrIsTerminal bool
	// ReadFile reads a named file; nil means os.ReadFile.
	ReadFile func(string) ([]byte, error)
}

// optKind is how an option takes its value, after LLVM's cl::opt flavors.
type optKind int

const (
	optBool      optKind = iota // -x, -x=true
	optString                   // -x V, -x=V
	optList                     // like optString, repeatable
	optCommaList                // repeatable, comma-separated
	optPrefix                   // -DV (cl::AlwaysPrefix)
	optEnum                     // -x V from a fixed set, repeatable
	optUint                     // -x N, repeatable
)

type optSpec struct {
	name   string
	kind   optKind
	values []string // optEnum
	help   string
}

var optSpecs = []optSpec{
	{name: "D", kind: optPrefix, help: "<VAR=VALUE>   Define a variable to be used in capture patterns"},
	{name: "allow-deprecated-dag-overlap", kind: optBool, help: "Enable overlapping among matches in a group of consecutive CHECK-DAG directives"},
	{name: "allow-empty", kind: optBool, help: "Allow the input file to be empty"},
	{name: "allow-unused-prefixes", kind: optBool, help: "Allow prefixes to be specified but not appear in the test"},
	{name: "check-prefix", kind: optList, help: "<string>  Prefix to use from check file (defaults to 'CHECK')"},
	{name: "check-prefixes", kind: optCommaList, help: "Alias for -check-prefix permitting multiple comma separated values"},
	{name: "color", kind: optBool, help: "Use colors in output (default=autodetect)"},
	{name: "comment-prefixes", kind: optCommaList, help: "<string>  Comma-separated list of comment prefixes (defaults to 'COM,RUN')"},
	{name: "dump-input", kind: optEnum, values: []string{"help", "always", "fail", "never"}, help: "<value>  Dump input to stderr with annotations: help, always, fail (default), never"},
	{name: "dump-input-context", kind: optUint, help: "<N>  Input lines of context around lines selected by -dump-input-filter (default 5)"},
	{name: "dump-input-filter", kind: optEnum, values: []string{"all", "annotation-full", "annotation", "error"}, help: "<value>  Input lines to dump: all, annotation-full, annotation, error"},
	{name: "enable-var-scope", kind: optBool, help: "Reset variables not starting with '$' at each CHECK-LABEL block"},
	{name: "ignore-case", kind: optBool, help: "Use case-insensitive matching"},
	{name: "implicit-check-not", kind: optList, help: "<pattern>  Add an implicit negative check with this pattern to every positive check"},
	{name: "input-file", kind: optString, help: "<filename>  File to check (defaults to stdin)"},
	{name: "lint", kind: optBool, help: "Reject near-miss directives such as CHECK-NXET:, 'CHECK-NEXT foo' and CHEKC: (rlx extension, default true)"},
	{name: "match-full-lines", kind: optBool, help: "Require all positive matches to cover an entire input line"},
	{name: "strict-whitespace", kind: optBool, help: "Do not treat all horizontal whitespace as equivalent"},
	{name: "v", kind: optBool, help: "Print directive pattern matches, or add them to the input dump if enabled"},
	{name: "vv", kind: optBool, help: "Print information helpful in diagnosing internal FileCheck issues; implies -v"},
	{name: "warn-empty-not", kind: optBool, help: "Warn about a CHECK-NOT whose search range is empty (rlx extension, default true)"},
}

func lookupOpt(name string) *optSpec {
	for i := range optSpecs {
		if optSpecs[i].name == name {
			return &optSpecs[i]
		}
	}
	return nil
}

// printArg spells an option name the way LLVM's messages do.
func printArg(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// parsedArgs is the result of parsing a command line.
type parsedArgs struct {
	opts      Options
	checkFile string
	inputFile string
	dumps     []DumpMode
	filters   []DumpFilter
	contexts  []int
	color     *bool
	help      bool
	version   bool
}

var dumpModes = map[string]DumpMode{"help": DumpHelp, "always": DumpAlways, "fail": DumpFail, "never": DumpNever}
var dumpFilters = map[string]DumpFilter{"all": FilterAll, "annotation-full": FilterAnnotationFull, "annotation": FilterAnnotation, "error": FilterError}

// parseBool accepts the spellings of llvm::cl::parser<bool>.
func parseBool(s string) (bool, bool) {
	switch s {
	case "true", "TRUE", "True", "1":
		return true, true
	case "false", "FALSE", "False", "0":
		return false, true
	}
	return false, false
}

// parseArgs parses args (without the program name) with LLVM's
// command-line syntax: -name, --name, -name=value, -name value, -DVALUE,
// and "--" to end options. Errors are written to errs; ok is false if there
// were any.
func parseArgs(prog, argv0 string, args []string, errs io.Writer) (*parsedArgs, bool) {
	p := &parsedArgs{opts: DefaultOptions(), inputFile: "-"}
	ok := true
	fail := func(msg string) {
		io.WriteString(errs, prog+": "+msg+"\n")
		ok = false
	}
	var positional []string
	dashdash := false
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if dashdash || len(arg) < 2 || arg[0] != '-' {
			positional = append(positional, arg)
			continue
		}
		if arg == "--" {
			dashdash = true
			continue
		}
		name := strings.TrimPrefix(strings.TrimPrefix(arg, "-"), "-")
		value, hasValue := "", false
		spec := lookupOpt(name)
		if spec == nil {
			if eq := strings.IndexByte(name, '='); eq >= 0 {
				if s := lookupOpt(name[:eq]); s != nil && s.kind != optPrefix {
					spec, value, hasValue = s, name[eq+1:], true
					name = name[:eq]
				}
			}
		}
		if spec == nil && len(name) > 1 && name[0] == 'D' {
			spec, value, hasValue = lookupOpt("D"), name[1:], true
			name = "D"
		}
		if spec == nil {
			msg := "Unknown command line argument '" + arg + "'.  Try: '" + argv0 + " --help'"
			switch name {
			case "help", "help-hidden":
				p.help = true
				continue
			case "version":
				p.version = true
				continue
			}
			fail(msg)
			if near := nearestOption(name); near != "" {
				io.WriteString(errs, prog+": Did you mean '"+printArg(near)+"'?\n")
			}
			continue
		}
		optError := func(msg string) { fail("for the " + printArg(spec.name) + " option: " + msg) }
		if spec.kind != optBool && !hasValue {
			if i+1 >= len(args) || spec.kind == optPrefix {
				optError("requires a value!")
				continue
			}
			i++
			value, hasValue = args[i], true
		}
		switch spec.kind {
		case optBool:
			b := true
			if hasValue {
				var good bool
				if b, good = parseBool(value); !good {
					optError("'" + value + "' is invalid value for boolean argument! Try 0 or 1")
					continue
				}
			}
			p.setBool(spec.name, b)
		case optString:
			p.inputFile = value
		case optList, optCommaList:
			vals := []string{value}
			if spec.kind == optCommaList {
				vals = strings.Split(value, ",")
			}
			switch spec.name {
			case "check-prefix", "check-prefixes":
				p.opts.CheckPrefixes = append(p.opts.CheckPrefixes, vals...)
			case "comment-prefixes":
				p.opts.CommentPrefixes = append(p.opts.CommentPrefixes, vals...)
			case "implicit-check-not":
				p.opts.ImplicitCheckNot = append(p.opts.ImplicitCheckNot, vals...)
			}
		case optPrefix:
			p.opts.Defines = append(p.opts.Defines, value)
		case optEnum:
			if spec.name == "dump-input" {
				m, found := dumpModes[value]
				if !found {
					optError("Cannot find option named '" + value + "'!")
					continue
				}
				p.dumps = append(p.dumps, m)
			} else {
				f, found := dumpFilters[value]
				if !found {
					optError("Cannot find option named '" + value + "'!")
					continue
				}
				p.filters = append(p.filters, f)
			}
		case optUint:
			n, err := strconv.ParseUint(value, 0, 32)
			if err != nil {
				optError("'" + value + "' value invalid for uint argument!")
				continue
			}
			p.contexts = append(p.contexts, int(n))
		}
	}
	if len(positional) > 1 {
		io.WriteString(errs, prog+": Too many positional arguments specified!\nCan specify at most 1 positional arguments: See: "+argv0+" --help\n")
		ok = false
	}
	if len(positional) == 1 {
		p.checkFile = positional[0]
	}
	return p, ok
}

func (p *parsedArgs) setBool(name string, b bool) {
	o := &p.opts
	switch name {
	case "allow-deprecated-dag-overlap":
		o.AllowDeprecatedDAGOverlap = b
	case "allow-empty":
		o.AllowEmpty = b
	case "allow-unused-prefixes":
		o.AllowUnusedPrefixes = b
	case "color":
		p.color = &b
	case "enable-var-scope":
		o.EnableVarScope = b
	case "ignore-case":
		o.IgnoreCase = b
	case "lint":
		o.NoLint = !b
	case "match-full-lines":
		o.MatchFullLines = b
	case "strict-whitespace":
		o.StrictWhitespace = b
	case "v":
		o.Verbose = b
	case "vv":
		o.VeryVerbose = b
	case "warn-empty-not":
		o.NoEmptyNotWarning = !b
	}
}

// nearestOption suggests the option closest to a mistyped name.
func nearestOption(name string) string {
	if i := strings.IndexByte(name, '='); i >= 0 {
		name = name[:i]
	}
	best, bestDist := "", 0
	var ed editDistance
	for _, s := range optSpecs {
		d, _ := ed.distance(name, s.name, -1)
		if best == "" || d < bestDist {
			best, bestDist = s.name, d
		}
	}
	return best
}

// tokenizeGNU splits s like llvm::cl::TokenizeGNUCommandLine: blanks
// separate words, quotes group, a backslash escapes the next character.
func tokenizeGNU(s string) []string {
	var out []string
	var tok strings.Builder
	inTok := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inTok {
				out = append(out, tok.String())
				tok.Reset()
				inTok = false
			}
		case c == '\\' && i+1 < len(s):
			i++
			tok.WriteByte(s[i])
			inTok = true
		case c == '"' || c == '\'':
			inTok = true
			for i++; i < len(s) && s[i] != c; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				tok.WriteByte(s[i])
			}
		default:
			tok.WriteByte(c)
			inTok = true
		}
	}
	if inTok {
		out = append(out, tok.String())
	}
	return out
}

// expandResponseFiles replaces each @file argument by the words of file.
func expandResponseFiles(args []string, read func(string) ([]byte, error), depth int) []string {
	var out []string
	for _, a := range args {
		if strings.HasPrefix(a, "@") && depth < 20 {
			if b, err := read(a[1:]); err == nil {
				out = append(out, expandResponseFiles(tokenizeGNU(string(b)), read, depth+1)...)
				continue
			}
		}
		out = append(out, a)
	}
	return out
}

// errnoMessage renders an I/O error as strerror would.
func errnoMessage(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		msg := errno.Error()
		if msg != "" {
			return strings.ToUpper(msg[:1]) + msg[1:]
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		return "No such file or directory"
	}
	return err.Error()
}

// Main runs FileCheck with LLVM's command-line interface and returns the
// process exit status. Options come from $FILECHECK_OPTS followed by the
// arguments.
func Main(env Env) int {
	// Diagnostics come in many small pieces; buffer them into few writes.
	stderr := bufio.NewWriterSize(env.Stderr, 64<<10)
	defer stderr.Flush()
	env.Stderr = stderr
	read := env.ReadFile
	if read == nil {
		read = os.ReadFile
	}
	getenv := env.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	argv0 := "FileCheck"
	if len(env.Args) > 0 {
		argv0 = env.Args[0]
	}
	prog := filepath.Base(argv0)
	var args []string
	if v := getenv("FILECHECK_OPTS"); v != "" {
		args = tokenizeGNU(v)
	}
	if len(env.Args) > 1 {
		args = append(args, env.Args[1:]...)
	}
	args = expandResponseFiles(args, read, 0)

	p, ok := parseArgs(prog, argv0, args, env.Stderr)
	if !ok {
		return 1
	}
	if p.help {
		io.WriteString(env.Stdout, usage())
		return 0
	}
	if p.version {
		io.WriteString(env.Stdout, "rlx FileCheck (work-alike of LLVM FileCheck 19)\n")
		return 0
	}
	opts := p.opts
	opts.Color = env.StderrIsTerminal && getenv("TERM") != "dumb"
	if p.color != nil {
		opts.Color = *p.color
	}
	opts.DumpInput = DumpFail
	if len(p.dumps) > 0 {
		opts.DumpInput = p.dumps[0]
		rank := map[DumpMode]int{DumpNever: 0, DumpFail: 1, DumpAlways: 2, DumpHelp: 3}
		for _, d := range p.dumps {
			if rank[d] > rank[opts.DumpInput] {
				opts.DumpInput = d
			}
		}
	}
	if len(p.filters) > 0 {
		opts.DumpFilter = p.filters[0]
		rank := map[DumpFilter]int{FilterError: 0, FilterAnnotation: 1, FilterAnnotationFull: 2, FilterAll: 3}
		for _, f := range p.filters {
			if rank[f] > rank[opts.DumpFilter] {
				opts.DumpFilter = f
			}
		}
	}
	for i, n := range p.contexts {
		if i == 0 || n > opts.DumpContext {
			opts.DumpContext = n
		}
	}
	if opts.DumpInput == DumpHelp {
		io.WriteString(env.Stdout, dumpHelp(p.color != nil && *p.color))
		return 0
	}
	if p.checkFile == "" {
		io.WriteString(env.Stderr, "<check-file> not specified\n")
		return 2
	}
	bad := false
	for _, d := range opts.Defines {
		switch strings.IndexByte(d, '=') {
		case -1:
			io.WriteString(env.Stderr, "Missing equal sign in command-line definition '-D"+d+"'\n")
			bad = true
		case 0:
			io.WriteString(env.Stderr, "Missing variable name in command-line definition '-D"+d+"'\n")
			bad = true
		}
	}
	if bad {
		return 2
	}

	readNamed := func(name string) ([]byte, error) {
		if name == "-" {
			if env.Stdin == nil {
				return nil, nil
			}
			return io.ReadAll(env.Stdin)
		}
		return read(name)
	}
	readCheck := func() (File, bool) {
		b, err := readNamed(p.checkFile)
		if err != nil {
			io.WriteString(env.Stderr, "Could not open check file '"+p.checkFile+"': "+errnoMessage(err)+"\n")
			return File{}, false
		}
		return File{Name: p.checkFile, Text: b}, true
	}
	readInput := func() (File, bool) {
		b, err := readNamed(p.inputFile)
		if err != nil {
			io.WriteString(env.Stderr, "Could not open input file '"+displayName(p.inputFile)+"': "+errnoMessage(err)+"\n")
			return File{}, false
		}
		return File{Name: p.inputFile, Text: b}, true
	}
	return int(run(opts, readCheck, readInput, env.Stderr, env.Args))
}

func usage() string {
	var sb strings.Builder
	sb.WriteString("OVERVIEW: rlx FileCheck, a work-alike of LLVM FileCheck 19\n\n")
	sb.WriteString("USAGE: FileCheck [options] <check-file>\n\nOPTIONS:\n\n")
	for _, s := range optSpecs {
		sb.WriteString("  " + printArg(s.name))
		if s.kind != optBool && s.kind != optPrefix {
			sb.WriteString("=")
		} else if s.kind == optPrefix {
			sb.WriteString(" ")
		}
		sb.WriteString("  " + s.help + "\n")
	}
	sb.WriteString("\nOptions are parsed from the environment variable FILECHECK_OPTS and\nfrom the command line.\n")
	return sb.String()
}
