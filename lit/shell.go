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
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// A shellEnv is the mutable state of lit's internal shell for one test:
// the working directory, the environment and the pushd stack.
type shellEnv struct {
	cwd      string
	env      map[string]string
	dirStack []string
}

func (e *shellEnv) clone() *shellEnv {
	env := make(map[string]string, len(e.env))
	for k, v := range e.env {
		env[k] = v
	}
	return &shellEnv{cwd: e.cwd, env: env}
}

func (e *shellEnv) environ() []string {
	out := make([]string, 0, len(e.env))
	for k, v := range e.env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

func (e *shellEnv) abs(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(e.cwd, p)
}

func (e *shellEnv) changeDir(dir string) { e.cwd = e.abs(dir) }

// A cmdResult is what lit records for each command it ran.
type cmdResult struct {
	args        []string // the command as written, with not/env
	trace       string   // set for the trace lines lit prints itself
	stdout      string
	stderr      string
	exitCode    int
	timedOut    bool
	outputFiles []outputFile
}

type outputFile struct {
	name, path string
	data       []byte
}

// A shellError is lit's InternalShellError: it stops the whole script with
// exit status 127, reporting msg as the failing command's stderr.
type shellError struct {
	args []string
	msg  string
}

func (e *shellError) Error() string { return e.msg }

// A scriptCrash is an error that makes LLVM's lit itself raise an
// exception while running a script, such as a redirection from a missing
// file; the test is then UNRESOLVED rather than FAIL.
type scriptCrash struct{ msg string }

func (e *scriptCrash) Error() string { return e.msg }

// executor runs parsed command lines for one test.
type executor struct {
	ctx     context.Context
	results []cmdResult
}

func wordTexts(ws []Word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Text
	}
	return out
}

// run executes n and returns its exit status. A *shellError or a timeout
// stops execution.
func (x *executor) run(n Node, env *shellEnv) (int, error) {
	if err := x.ctx.Err(); err != nil {
		return -1, err
	}
	switch n := n.(type) {
	case *Seq:
		switch n.Op {
		case ";":
			if _, err := x.run(n.LHS, env); err != nil {
				return -1, err
			}
			return x.run(n.RHS, env)
		case "&":
			// lit raises an error about '&' that it then fails to report.
			return -1, &scriptCrash{"unsupported shell operator: '&'"}
		case "||":
			res, err := x.run(n.LHS, env)
			if err != nil || res == 0 {
				return res, err
			}
			return x.run(n.RHS, env)
		case "&&":
			res, err := x.run(n.LHS, env)
			if err != nil || res != 0 {
				return res, err
			}
			return x.run(n.RHS, env)
		}
		return -1, fmt.Errorf("unknown shell operator %q", n.Op)
	case *Pipeline:
		return x.runPipeline(n, env)
	}
	return -1, fmt.Errorf("unknown shell node %T", n)
}

// builtin runs a command inside lit's process.
type builtin func(args []string, redirects []Redirect, env *shellEnv) (cmdResult, error)

// inProcess are the commands lit runs inside its own process; they may not
// be part of a pipeline (except echo, which then runs as /bin/echo would).
var inProcess = map[string]builtin{
	"cd":     builtinCd,
	"export": builtinExport,
	"echo":   builtinEcho,
	"@echo":  builtinEcho,
	"mkdir":  builtinMkdir,
	"popd":   builtinPopd,
	"pushd":  builtinPushd,
	"rm":     builtinRm,
	":":      func([]string, []Redirect, *shellEnv) (cmdResult, error) { return cmdResult{}, nil },
}

// A tool is a command implemented in Go that behaves as an external
// program: lit's cat and diff, LLVM's count, split-file and not, and echo in
// a pipeline.
type tool func(ctx context.Context, args []string, env *shellEnv, stdin io.Reader, stdout, stderr io.Writer) int

var tools map[string]tool

func init() {
	tools = map[string]tool{
		"cat":        toolCat,
		"diff":       toolDiff,
		"count":      toolCount,
		"split-file": toolSplitFile,
		"not":        toolNot,
		"echo":       toolEcho,
	}
}

// updateEnv applies the assignments and -u options of an env or export
// command and returns the remaining words.
func updateEnv(env *shellEnv, args []string) []string {
	unset := false
	for i, a := range args[1:] {
		if a == "-u" {
			unset = true
			continue
		}
		if unset {
			unset = false
			delete(env.env, a)
			continue
		}
		k, v, ok := strings.Cut(a, "=")
		if !ok {
			return args[i+1:]
		}
		env.env[k] = v
	}
	return nil
}

// A stage is one command of a pipeline, ready to start.
type stage struct {
	args      []string // as written
	run       []string // after env/not removal and glob expansion
	env       *shellEnv
	notCount  int
	tool      tool
	cmd       *exec.Cmd
	stdin     io.Reader
	stdout    io.Writer
	stderr    io.Writer
	out, err  *bytes.Buffer
	closers   []io.Closer // our copies of pipe write ends this stage owns
	stdinPipe *os.File    // our read end of the pipe from the previous stage
	status    int
}

// pipelineRun is one pipeline being set up and run: its stages, the files
// its redirections opened, and the read end of the last pipe made.
type pipelineRun struct {
	x       *executor
	p       *Pipeline
	stages  []*stage
	opened  []*openedFile
	prevOut *os.File // read end feeding the next stage, or nil
}

// cleanup closes everything set up so far, when the pipeline does not run.
func (r *pipelineRun) cleanup() {
	for _, s := range r.stages {
		for _, c := range s.closers {
			c.Close()
		}
		if s.stdinPipe != nil {
			s.stdinPipe.Close()
		}
	}
	if r.prevOut != nil {
		r.prevOut.Close()
	}
	for _, f := range r.opened {
		f.f.Close()
	}
}

func (x *executor) runPipeline(p *Pipeline, shenv *shellEnv) (int, error) {
	r := &pipelineRun{x: x, p: p}
	for i, c := range p.Commands {
		pre, err := commandPrefixes(c, shenv)
		if err != nil {
			r.cleanup()
			return -1, err
		}
		name := pre.args[0].Text
		if b := inProcess[name]; b != nil && (name != "echo" || len(p.Commands) == 1) {
			r.cleanup()
			return x.runBuiltin(p, c, b, pre, shenv)
		}
		if err := r.addStage(c, pre, i == len(p.Commands)-1); err != nil {
			r.cleanup()
			return -1, err
		}
	}
	if r.prevOut != nil {
		r.prevOut.Close()
		r.prevOut = nil
	}
	if err := r.startAndWait(); err != nil {
		return -1, err
	}
	return r.results()
}

// prefixes is what a command's leading `env …`, `not`, `not --crash` and
// `!` words say, and the command after them.
type prefixes struct {
	env      *shellEnv // shenv, or a changed copy after `env`
	args     []Word    // the command after the prefixes
	notArgs  []Word    // the `not`/`!` words, kept for `not --crash`
	notCount int
	notCrash bool
}

// commandPrefixes reads the prefixes of c as lit does, applying `env`
// settings to a copy of shenv.
func commandPrefixes(c *Command, shenv *shellEnv) (prefixes, error) {
	pre := prefixes{env: shenv, args: c.Args}
	for {
		args := pre.args
		switch {
		case args[0].Text == "env" && !args[0].Glob:
			if pre.env == shenv {
				pre.env = shenv.clone()
			}
			rest := updateEnv(pre.env, wordTexts(args))
			if len(rest) == 0 {
				return pre, &shellError{wordTexts(c.Args), "Error: 'env' requires a subcommand"}
			}
			pre.args = args[len(args)-len(rest):]
		case args[0].Text == "not" && !args[0].Glob:
			pre.notArgs = append(pre.notArgs, args[0])
			pre.args = args[1:]
			pre.notCount++
			if len(pre.args) > 0 && pre.args[0].Text == "--crash" {
				pre.notArgs = append(pre.notArgs, pre.args[0])
				pre.args = pre.args[1:]
				pre.notCrash = true
			}
			if len(pre.args) == 0 {
				return pre, &shellError{wordTexts(c.Args), "Error: 'not' requires a subcommand"}
			}
		case args[0].Text == "!" && !args[0].Glob:
			pre.notArgs = append(pre.notArgs, args[0])
			pre.args = args[1:]
			pre.notCount++
			if len(pre.args) == 0 {
				return pre, &shellError{wordTexts(c.Args), "Error: '!' requires a subcommand"}
			}
		default:
			return pre, nil
		}
	}
}

// runBuiltin runs a command lit implements in its own process (cd, echo,
// mkdir, …), which must be alone in its pipeline.
func (x *executor) runBuiltin(p *Pipeline, c *Command, b builtin, pre prefixes, shenv *shellEnv) (int, error) {
	name, args, env := pre.args[0].Text, pre.args, pre.env
	switch {
	case env != shenv:
		return -1, &shellError{wordTexts(c.Args), fmt.Sprintf("Error: 'env' cannot call '%s'", name)}
	case pre.notCrash:
		return -1, &shellError{wordTexts(c.Args), fmt.Sprintf("Error: 'not --crash' cannot call '%s'", name)}
	case len(p.Commands) != 1:
		return -1, &shellError{wordTexts(c.Args), fmt.Sprintf("Unsupported: '%s' cannot be part of a pipeline", name)}
	}
	if name != "mkdir" && name != "rm" && name != ":" {
		for _, a := range args {
			if a.Glob {
				// lit hands the unexpanded pattern object to the
				// builtin, which then raises a TypeError.
				return -1, &scriptCrash{fmt.Sprintf("'%s' cannot take the glob pattern %s", name, a.Text)}
			}
		}
	}
	words, err := expandGlobs(args, env.cwd, name == "mkdir" || name == "rm")
	if err != nil {
		return -1, &shellError{wordTexts(c.Args), err.Error()}
	}
	res, err := b(words, c.Redirects, env)
	if err != nil {
		return -1, err
	}
	if pre.notCount%2 == 1 {
		res.exitCode = boolToStatus(res.exitCode == 0)
	}
	res.args = wordTexts(c.Args)
	x.results = append(x.results, res)
	return res.exitCode, nil
}

// addStage sets up the stage of command c: its redirections, its pipe to
// the next stage, and the process or in-process tool that runs it.
func (r *pipelineRun) addStage(c *Command, pre prefixes, last bool) error {
	args, env, notCount := pre.args, pre.env, pre.notCount
	if pre.notCrash {
		args = append(append([]Word(nil), pre.notArgs...), args...)
		notCount = 0
	}
	st := &stage{args: wordTexts(c.Args), env: env, notCount: notCount}
	r.stages = append(r.stages, st)

	// Redirections, as lit's processRedirects.
	in, out, errSpec, err := resolveRedirects(c, env, &r.opened)
	if err != nil {
		return err
	}
	// The read end of the previous pipe stays ours: like lit, we drain
	// it once this stage is done, so a writer whose output is not read
	// neither blocks nor dies of SIGPIPE.
	st.stdinPipe, r.prevOut = r.prevOut, nil
	switch {
	case in.file != nil:
		st.stdin = in.file
	case st.stdinPipe != nil:
		st.stdin = st.stdinPipe
	}
	var pipeW *os.File
	if !last && (out.file == nil || errSpec.toStdout) {
		r.prevOut, pipeW, err = os.Pipe()
		if err != nil {
			return &shellError{st.args, err.Error()}
		}
		st.closers = append(st.closers, pipeW)
	}
	st.out, st.err = &bytes.Buffer{}, &bytes.Buffer{}
	switch {
	case out.file != nil:
		st.stdout = out.file
	case last:
		st.stdout = st.out
	default:
		st.stdout = pipeW
	}
	switch {
	case errSpec.file != nil:
		st.stderr = errSpec.file
	case errSpec.toStdout && out.file == nil:
		st.stderr = st.stdout
	case errSpec.toStdout && !last:
		// "2>&1 >file": stderr becomes what the next command reads.
		st.stderr = pipeW
	default:
		st.stderr = st.err
	}

	words, err := expandGlobs(args, env.cwd, false)
	if err != nil {
		return &shellError{st.args, err.Error()}
	}
	st.run = words
	if fi, err := os.Stat(env.cwd); err != nil || !fi.IsDir() {
		// lit cannot start a process in a missing directory, even one
		// of its Python builtins.
		return &shellError{st.args, fmt.Sprintf("Could not create process (%s) due to %s: '%s'", words[0], pyStrerror(errNoEnt(err)), env.cwd)}
	}
	if t := tools[words[0]]; t != nil {
		st.tool = t
		return nil
	}
	exe, err := lookPath(words[0], env)
	if err != nil {
		return &shellError{st.args, err.Error()}
	}
	st.cmd = exec.CommandContext(r.x.ctx, exe, words[1:]...)
	st.cmd.Args[0] = words[0]
	st.cmd.Dir = env.cwd
	st.cmd.Env = env.environ()
	st.cmd.Stdin, st.cmd.Stdout, st.cmd.Stderr = st.stdin, st.stdout, st.stderr
	st.cmd.WaitDelay = time.Second
	setProcessGroup(st.cmd)
	return nil
}

// startAndWait starts every stage, then waits for every stage, closing
// each one's pipe ends and draining its input once it is done. It
// returns the first stage that could not start.
func (r *pipelineRun) startAndWait() error {
	var drains sync.WaitGroup
	finish := func(st *stage) {
		for _, c := range st.closers {
			c.Close()
		}
		st.closers = nil
		if rd := st.stdinPipe; rd != nil {
			drains.Add(1)
			go func() {
				defer drains.Done()
				io.Copy(io.Discard, rd)
				rd.Close()
			}()
		}
	}
	var startErr error
	done := make(chan *stage, len(r.stages))
	for _, st := range r.stages {
		if st.cmd == nil {
			go func(st *stage) {
				st.status = st.tool(r.x.ctx, st.run, st.env, orEmpty(st.stdin), st.stdout, st.stderr)
				done <- st
			}(st)
			continue
		}
		if err := st.cmd.Start(); err != nil {
			st.status = 127
			if startErr == nil {
				startErr = &shellError{st.args, fmt.Sprintf("Could not create process (%s) due to %v", st.cmd.Path, err)}
			}
			done <- st
			continue
		}
		// The child has its own copies of the write ends now.
		for _, c := range st.closers {
			c.Close()
		}
		st.closers = nil
		go func(st *stage) {
			st.status = exitStatus(st.cmd.Wait())
			done <- st
		}(st)
	}
	for range r.stages {
		finish(<-done)
	}
	drains.Wait()
	for _, f := range r.opened {
		f.f.Close()
	}
	return startErr
}

// results records each stage's result (with `not` applied) and returns
// the pipeline's exit status: the last stage's, or with pipefail the last
// failing one's.
func (r *pipelineRun) results() (int, error) {
	x := r.x
	timedOut := x.ctx.Err() != nil
	exitCode := 0
	for _, st := range r.stages {
		res := st.status
		if st.notCount%2 == 1 {
			res = boolToStatus(res == 0)
		} else if st.notCount > 1 {
			res = boolToStatus(res != 0)
		}
		cr := cmdResult{
			args:     st.args,
			stdout:   st.out.String(),
			stderr:   st.err.String(),
			exitCode: res,
			timedOut: timedOut,
		}
		if res != 0 {
			cr.outputFiles = readOutputFiles(r.opened)
		}
		x.results = append(x.results, cr)
		if !r.p.PipeFail || exitCode == 0 || res != 0 {
			exitCode = res
		}
	}
	if timedOut {
		return exitCode, x.ctx.Err()
	}
	return exitCode, nil
}

func orEmpty(r io.Reader) io.Reader {
	if r == nil {
		return strings.NewReader("")
	}
	return r
}

func boolToStatus(fail bool) int {
	if fail {
		return 1
	}
	return 0
}

// exitStatus turns a Wait error into lit's exit code: negative signal
// numbers for processes killed by a signal.
func exitStatus(err error) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return -int(ws.Signal())
		}
		return ee.ExitCode()
	}
	return 1
}

// lookPath resolves a command name as lit.util.which does (a name starting
// with "." is first tried relative to the working directory).
func lookPath(name string, env *shellEnv) (string, error) {
	if strings.HasPrefix(name, ".") {
		p := filepath.Join(env.cwd, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	if filepath.IsAbs(name) {
		if fi, err := os.Stat(name); err == nil && !fi.IsDir() {
			return name, nil
		}
	}
	path := env.env["PATH"]
	if path == "" {
		path = "/bin:/usr/bin"
	}
	for _, dir := range filepath.SplitList(path) {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			if abs, err := filepath.Abs(p); err == nil {
				return abs, nil
			}
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: command not found", pyRepr(name))
}

// pyRepr quotes s as Python's repr does for simple strings, which is how lit
// names commands in its errors.
func pyRepr(s string) string {
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		return `"` + s + `"`
	}
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}

// expandGlobs expands words with unquoted glob characters against dir;
// like lit, a pattern that matches nothing stays as written and the command
// name is never expanded.
func expandGlobs(ws []Word, dir string, includeFirst bool) ([]string, error) {
	out := make([]string, 0, len(ws))
	for i, w := range ws {
		if !w.Glob || i == 0 && !includeFirst {
			out = append(out, w.Text)
			continue
		}
		pat := w.Text
		if !filepath.IsAbs(pat) {
			pat = filepath.Join(dir, pat)
		}
		matches, err := filepath.Glob(pat)
		if err != nil || len(matches) == 0 {
			out = append(out, w.Text)
			continue
		}
		sort.Strings(matches)
		out = append(out, matches...)
	}
	return out, nil
}

type openedFile struct {
	name, path, mode string
	f                *os.File
}

// A stream is where a standard stream of a command goes: a file, stdout
// (for stderr after "2>&1"), or the default.
type stream struct {
	file     *os.File
	toStdout bool
}

func errNoEnt(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return syscall.ENOTDIR
}

// resolveRedirects applies a command's redirections in order, as lit's
// processRedirects does.
func resolveRedirects(c *Command, env *shellEnv, opened *[]*openedFile) (in, out, errS stream, err error) {
	type target struct {
		name, mode string
		std        int // 0, 1 or 2 for the default of that stream; -1 for a file
		f          *openedFile
	}
	redirs := [3]*target{{std: 0}, {std: 1}, {std: 2}}
	for _, r := range c.Redirects {
		name := r.Target.Text
		switch {
		case r.Op == ">" && r.FD == 2:
			redirs[2] = &target{name: name, mode: "w", std: -1}
		case r.Op == ">>" && r.FD == 2:
			redirs[2] = &target{name: name, mode: "a", std: -1}
		case r.Op == ">&" && r.FD == 2 && (name == "0" || name == "1" || name == "2"):
			redirs[2] = redirs[name[0]-'0']
		case (r.Op == ">&" || r.Op == "&>") && r.FD < 0:
			t := &target{name: name, mode: "w", std: -1}
			redirs[1], redirs[2] = t, t
		case r.Op == ">" && r.FD < 0:
			redirs[1] = &target{name: name, mode: "w", std: -1}
		case r.Op == ">>" && r.FD < 0:
			redirs[1] = &target{name: name, mode: "a", std: -1}
		case r.Op == "<" && r.FD < 0:
			redirs[0] = &target{name: name, mode: "r", std: -1}
		default:
			fd := ""
			if r.FD >= 0 {
				fd = fmt.Sprint(r.FD)
			}
			return in, out, errS, &shellError{wordTexts(c.Args), fmt.Sprintf("Unsupported redirect: %s%s %s", fd, r.Op, name)}
		}
	}
	var streams [3]stream
	for i, t := range redirs {
		if t.std >= 0 {
			switch {
			case t.std == 1 && i == 0:
				return in, out, errS, &shellError{wordTexts(c.Args), "Unsupported redirect for stdin"}
			case t.std == 1 && i == 2:
				streams[2].toStdout = true
			case t.std == 2 && i != 2:
				return in, out, errS, &shellError{wordTexts(c.Args), "Unsupported redirect on stdout"}
			case t.std == 0 && i != 0:
				return in, out, errS, &shellError{wordTexts(c.Args), "Unsupported redirect of stdin to an output"}
			}
			continue
		}
		if t.f == nil {
			name := t.name
			if strings.ContainsAny(name, "*?[") {
				matches, _ := filepath.Glob(env.abs(name))
				if len(matches) > 1 {
					return in, out, errS, &shellError{wordTexts(c.Args), "Unsupported: glob in redirect expanded to multiple files"}
				}
				if len(matches) == 1 {
					name = matches[0]
				}
			}
			path := env.abs(name)
			var f *os.File
			var err error
			switch t.mode {
			case "r":
				f, err = os.Open(path)
			case "w":
				f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
			case "a":
				f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
			}
			if err != nil {
				return in, out, errS, &scriptCrash{pyOSError(err)}
			}
			t.f = &openedFile{name: t.name, path: path, mode: t.mode, f: f}
			*opened = append(*opened, t.f)
		}
		streams[i].file = t.f.f
	}
	return streams[0], streams[1], streams[2], nil
}

// readOutputFiles returns what a failed pipeline wrote to its redirection
// files, which lit shows with the failure.
func readOutputFiles(opened []*openedFile) []outputFile {
	var out []outputFile
	seen := map[string]bool{}
	sorted := append([]*openedFile(nil), opened...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].name < sorted[j].name })
	for _, f := range sorted {
		if f.mode == "r" || seen[f.path] {
			continue
		}
		seen[f.path] = true
		data, err := os.ReadFile(f.path)
		if err == nil {
			out = append(out, outputFile{name: f.name, path: f.path, data: data})
		}
	}
	return out
}
