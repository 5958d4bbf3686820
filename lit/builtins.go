package lit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"
)

// This file holds the commands lit runs in its own process (cd, echo,
// mkdir, rm, export, pushd, popd, ':') and the Go versions of the programs
// that lit and LLVM ship for tests (cat, diff, count, split-file, not).

func builtinCd(args []string, _ []Redirect, env *shellEnv) (cmdResult, error) {
	if len(args) != 2 {
		return cmdResult{}, &shellError{args, "'cd' supports only one argument"}
	}
	env.changeDir(args[1])
	return cmdResult{}, nil
}

func builtinPushd(args []string, _ []Redirect, env *shellEnv) (cmdResult, error) {
	if len(args) != 2 {
		return cmdResult{}, &shellError{args, "'pushd' supports only one argument"}
	}
	env.dirStack = append(env.dirStack, env.cwd)
	env.changeDir(args[1])
	return cmdResult{}, nil
}

func builtinPopd(args []string, _ []Redirect, env *shellEnv) (cmdResult, error) {
	if len(args) != 1 {
		return cmdResult{}, &shellError{args, "'popd' does not support arguments"}
	}
	if len(env.dirStack) == 0 {
		return cmdResult{}, &shellError{args, "popd: directory stack empty"}
	}
	env.cwd = env.dirStack[len(env.dirStack)-1]
	env.dirStack = env.dirStack[:len(env.dirStack)-1]
	return cmdResult{}, nil
}

func builtinExport(args []string, _ []Redirect, env *shellEnv) (cmdResult, error) {
	if len(args) != 2 {
		// lit means to report this but raises a TypeError instead.
		return cmdResult{}, &scriptCrash{"'export' supports only one argument"}
	}
	updateEnv(env, args)
	return cmdResult{}, nil
}

// builtinEcho is lit's echo when it is not in a pipeline: only separate -e
// and -n flags, escapes as Python's unicode_escape, and no redirection of
// stdin or stderr.
func builtinEcho(args []string, redirects []Redirect, env *shellEnv) (cmdResult, error) {
	var opened []*openedFile
	in, out, errS, err := resolveRedirects(&Command{Args: words(args), Redirects: redirects}, env, &opened)
	defer func() {
		for _, f := range opened {
			f.f.Close()
		}
	}()
	if err != nil {
		return cmdResult{}, err
	}
	if in.file != nil || errS.file != nil || errS.toStdout {
		return cmdResult{}, &shellError{args, fmt.Sprintf("stdin and stderr redirects not supported for %s", args[0])}
	}
	escapes, newline := false, true
	rest := args[1:]
	for len(rest) > 0 && (rest[0] == "-e" || rest[0] == "-n") {
		if rest[0] == "-e" {
			escapes = true
		} else {
			newline = false
		}
		rest = rest[1:]
	}
	var b strings.Builder
	for i, a := range rest {
		if i > 0 {
			b.WriteByte(' ')
		}
		if escapes {
			a, err = unicodeEscape(a)
			if err != nil {
				return cmdResult{}, &scriptCrash{err.Error()}
			}
		}
		b.WriteString(a)
	}
	if newline {
		b.WriteByte('\n')
	}
	if out.file != nil {
		if _, err := out.file.WriteString(b.String()); err != nil {
			return cmdResult{}, &shellError{args, err.Error()}
		}
		return cmdResult{}, nil
	}
	return cmdResult{stdout: b.String()}, nil
}

func words(args []string) []Word {
	ws := make([]Word, len(args))
	for i, a := range args {
		ws[i] = Word{Text: a}
	}
	return ws
}

// unicodeEscape decodes backslash escapes as Python's unicode_escape codec.
func unicodeEscape(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 == len(s) {
			return "", fmt.Errorf("'unicodeescape' codec can't decode: \\ at end of string")
		}
		i++
		c = s[i]
		switch c {
		case '\n':
		case '\\', '\'', '"':
			b.WriteByte(c)
		case 'a', 'b', 'f', 'n', 'r', 't', 'v':
			b.WriteByte("\a\b\f\n\r\t\v"[strings.IndexByte("abfnrtv", c)])
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 32)
			b.WriteRune(rune(n))
			i = j - 1
		case 'x', 'u', 'U':
			width := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			if i+1+width > len(s) {
				return "", fmt.Errorf("'unicodeescape' codec can't decode: truncated \\%cXX escape", c)
			}
			n, err := strconv.ParseUint(s[i+1:i+1+width], 16, 32)
			if err != nil || n > utf8.MaxRune {
				return "", fmt.Errorf("'unicodeescape' codec can't decode: truncated \\%cXX escape", c)
			}
			b.WriteRune(rune(n))
			i += width
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// toolEcho is /bin/echo (GNU coreutils), which lit runs for an echo inside a
// pipeline: combined flags such as -ne, -E, and \c.
func toolEcho(_ context.Context, args []string, _ *shellEnv, _ io.Reader, stdout, _ io.Writer) int {
	escapes, newline := false, true
	rest := args[1:]
	for len(rest) > 0 && len(rest[0]) > 1 && rest[0][0] == '-' && strings.Trim(rest[0][1:], "neE") == "" {
		for _, f := range rest[0][1:] {
			switch f {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		rest = rest[1:]
	}
	var b bytes.Buffer
	for i, a := range rest {
		if i > 0 {
			b.WriteByte(' ')
		}
		if !escapes {
			b.WriteString(a)
			continue
		}
		if stop := gnuEscape(&b, a); stop {
			stdout.Write(b.Bytes())
			return 0
		}
	}
	if newline {
		b.WriteByte('\n')
	}
	stdout.Write(b.Bytes())
	return 0
}

// gnuEscape writes s with GNU echo's escapes decoded; it reports whether
// output stops here (\c).
func gnuEscape(b *bytes.Buffer, s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		c = s[i]
		switch c {
		case 'a', 'b', 'f', 'n', 'r', 't', 'v':
			b.WriteByte("\a\b\f\n\r\t\v"[strings.IndexByte("abfnrtv", c)])
		case 'c':
			return true
		case 'e':
			b.WriteByte(0x1b)
		case '\\':
			b.WriteByte('\\')
		case 'x':
			j := i + 1
			for j < len(s) && j < i+3 && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				b.WriteString(`\x`)
				continue
			}
			n, _ := strconv.ParseUint(s[i+1:j], 16, 8)
			b.WriteByte(byte(n))
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			start := i
			if c == '0' {
				start = i + 1
			}
			j := start
			for j < len(s) && j < start+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n := uint64(0)
			if j > start {
				n, _ = strconv.ParseUint(s[start:j], 8, 16)
			}
			b.WriteByte(byte(n))
			i = j - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// gnuGetopt splits args as Python's getopt.gnu_getopt does for options
// without values: flags may come anywhere, "--" ends them. It returns the
// flags seen (as single letters or long names) and the operands.
func gnuGetopt(args []string, short string, long []string) (flags []string, operands []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return flags, append(operands, args[i+1:]...), nil
		case strings.HasPrefix(a, "--"):
			name := a[2:]
			found := false
			for _, l := range long {
				if l == name {
					found = true
				}
			}
			if !found {
				return nil, nil, fmt.Errorf("option --%s not recognized", name)
			}
			flags = append(flags, name)
		case len(a) > 1 && a[0] == '-':
			for _, f := range a[1:] {
				if !strings.ContainsRune(short, f) {
					return nil, nil, fmt.Errorf("option -%c not recognized", f)
				}
				flags = append(flags, string(f))
			}
		default:
			operands = append(operands, a)
		}
	}
	return flags, operands, nil
}

func has(flags []string, names ...string) bool {
	for _, f := range flags {
		for _, n := range names {
			if f == n {
				return true
			}
		}
	}
	return false
}

// pyOSError formats err like Python's str(OSError), with the path shown
// as bytes as lit's rm and mkdir do.
func pyOSError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Sprintf("%s: b'%s'", pyStrerror(pe.Err), pe.Path)
	}
	return err.Error()
}

// pyStrerror formats an errno as Python's "[Errno 2] No such file or
// directory".
func pyStrerror(err error) string {
	var errno syscall.Errno
	msg := err.Error()
	if msg != "" {
		msg = strings.ToUpper(msg[:1]) + msg[1:]
	}
	if errors.As(err, &errno) {
		return fmt.Sprintf("[Errno %d] %s", int(errno), msg)
	}
	return msg
}

func builtinMkdir(args []string, _ []Redirect, env *shellEnv) (cmdResult, error) {
	flags, dirs, err := gnuGetopt(args[1:], "p", nil)
	if err != nil {
		return cmdResult{}, &shellError{args, "Unsupported: 'mkdir':  " + err.Error()}
	}
	if len(dirs) == 0 {
		return cmdResult{}, &shellError{args, "Error: 'mkdir' is missing an operand"}
	}
	var stderr strings.Builder
	res := cmdResult{}
	for _, d := range dirs {
		p := env.abs(d)
		if has(flags, "p") {
			if err := os.MkdirAll(p, 0o777); err != nil && !errors.Is(err, fs.ErrExist) {
				return cmdResult{}, &shellError{args, err.Error()}
			}
			continue
		}
		// Like lit, an existing directory is not an error.
		if err := os.Mkdir(p, 0o777); err != nil && !errors.Is(err, fs.ErrExist) {
			fmt.Fprintf(&stderr, "Error: 'mkdir' command failed, %s\n", pyOSError(err))
			res.exitCode = 1
		}
	}
	res.stderr = stderr.String()
	return res, nil
}

func builtinRm(args []string, _ []Redirect, env *shellEnv) (cmdResult, error) {
	flags, paths, err := gnuGetopt(args[1:], "frR", nil)
	if err != nil {
		return cmdResult{}, &shellError{args, "Unsupported: 'rm':  " + err.Error()}
	}
	if len(paths) == 0 {
		return cmdResult{}, &shellError{args, "Error: 'rm' is missing an operand"}
	}
	force, recursive := has(flags, "f"), has(flags, "r", "R")
	var stderr strings.Builder
	res := cmdResult{}
	for _, p := range paths {
		p = env.abs(p)
		fi, statErr := os.Stat(p)
		if force && statErr != nil {
			continue
		}
		var err error
		if statErr == nil && fi.IsDir() {
			if !recursive {
				fmt.Fprintf(&stderr, "Error: %s is a directory\n", p)
				res.exitCode = 1
			}
			// lit removes the directory even without -r.
			err = os.RemoveAll(p)
		} else {
			err = os.Remove(p)
		}
		if err != nil {
			fmt.Fprintf(&stderr, "Error: 'rm' command failed, %s", pyOSError(err))
			res.exitCode = 1
		}
	}
	res.stderr = stderr.String()
	return res, nil
}

// toolCat is lit's builtin cat (LLVM 19): it concatenates the named files,
// with -v/--show-nonprinting for caret notation. Like LLVM 19's, it does
// not read standard input when given no file.
func toolCat(_ context.Context, args []string, env *shellEnv, _ io.Reader, stdout, stderr io.Writer) int {
	flags, files, err := gnuGetopt(args[1:], "v", []string{"show-nonprinting"})
	if err != nil {
		fmt.Fprintf(stderr, "Unsupported: 'cat':  %v\n", err)
		return 1
	}
	for _, f := range files {
		data, err := os.ReadFile(env.abs(f))
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			fmt.Fprintf(stderr, "%s: '%s'", pyStrerror(err), f)
			return 1
		}
		if has(flags, "v", "show-nonprinting") {
			data = caretNotation(data)
		}
		if _, err := stdout.Write(data); err != nil {
			return 1
		}
	}
	return 0
}

func caretNotation(data []byte) []byte {
	var b bytes.Buffer
	for _, c := range data {
		if c == '\t' || c == '\n' {
			b.WriteByte(c)
			continue
		}
		if c > 127 {
			c -= 128
			b.WriteString("M-")
		}
		switch {
		case c < 32:
			b.WriteByte('^')
			b.WriteByte(c + 64)
		case c == 127:
			b.WriteString("^?")
		default:
			b.WriteByte(c)
		}
	}
	return b.Bytes()
}

// toolCount is LLVM's count: it succeeds when standard input has exactly
// the given number of lines.
func toolCount(_ context.Context, args []string, _ *shellEnv, stdin io.Reader, _, stderr io.Writer) int {
	return Count(args, stdin, stderr)
}

// Count implements LLVM's count tool: args are the command line, including
// the program name.
func Count(args []string, stdin io.Reader, stderr io.Writer) int {
	if len(args) != 2 {
		fmt.Fprintf(stderr, "usage: %s <expected line count>\n", args[0])
		return 2
	}
	want, ok := strtoul(args[1])
	if !ok {
		fmt.Fprintf(stderr, "%s: invalid count argument '%s'\n", args[0], args[1])
		return 2
	}
	var lines uint64
	buf := make([]byte, 32*1024)
	for {
		n, err := stdin.Read(buf)
		lines += uint64(bytes.Count(buf[:n], []byte("\n")))
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Fprintf(stderr, "count: error reading stdin\n")
			return 3
		}
	}
	if lines != want {
		fmt.Fprintf(stderr, "Expected %d lines, got %d.\n", want, lines)
		return 1
	}
	return 0
}

// strtoul parses s as C's strtol into an unsigned value, failing as LLVM's
// count does: only when some digits are followed by junk.
func strtoul(s string) (uint64, bool) {
	i := 0
	for i < len(s) && strings.IndexByte(" \t\n\v\f\r", s[i]) >= 0 {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	var n uint64
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		n = n*10 + uint64(s[i]-'0')
		i++
	}
	if i == start {
		return 0, true // no digits: strtol returns 0 and End is the start
	}
	if i != len(s) {
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}

func toolSplitFile(_ context.Context, args []string, env *shellEnv, stdin io.Reader, _, stderr io.Writer) int {
	return SplitFile(args, env.cwd, stdin, stderr)
}

// toolNot is LLVM's not: with --crash it succeeds only if the command dies
// of a signal; otherwise only if it exits with a non-zero status.
func toolNot(ctx context.Context, args []string, env *shellEnv, stdin io.Reader, stdout, stderr io.Writer) int {
	args = args[1:]
	crash := false
	if len(args) > 0 && args[0] == "--crash" {
		crash = true
		args = args[1:]
	}
	if len(args) == 0 {
		return 1
	}
	var status int
	if t := tools[args[0]]; t != nil {
		status = t(ctx, args, env, stdin, stdout, stderr)
	} else {
		sub := env
		if crash {
			sub = env.clone()
			sub.env["LLVM_DISABLE_CRASH_REPORT"] = "1"
			sub.env["LLVM_DISABLE_SYMBOLIZATION"] = "1"
		}
		exe, err := lookPath(args[0], sub)
		if err != nil {
			fmt.Fprintf(stderr, "error: unable to find `%s' in PATH: No such file or directory\n", args[0])
			return 1
		}
		cmd := exec.CommandContext(ctx, exe, args[1:]...)
		cmd.Args[0] = args[0]
		cmd.Dir, cmd.Env = env.cwd, sub.environ()
		cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
		setProcessGroup(cmd)
		status = exitStatus(cmd.Run())
	}
	if status < 0 {
		fmt.Fprintf(stderr, "error: program crashed with signal %d\n", -status)
		return boolToStatus(!crash)
	}
	if crash {
		return 1
	}
	return boolToStatus(status == 0)
}

// Not implements LLVM's not tool as a program: args are the command line,
// including the program name.
func Not(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cwd, _ := os.Getwd()
	env := &shellEnv{cwd: cwd, env: map[string]string{}}
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env.env[k] = v
		}
	}
	return toolNot(context.Background(), args, env, stdin, stdout, stderr)
}
