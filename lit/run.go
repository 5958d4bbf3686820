package lit

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
)

// A Code is a test verdict, with lit's names.
type Code int

// The verdicts, in the order lit lists them in its summary.
const (
	Excluded Code = iota // filtered out by --filter; not run
	Unsupported
	Pass
	FlakyPass
	XFail
	Unresolved
	Timeout
	Fail
	XPass
	numCodes
)

var codeNames = [...]string{"EXCLUDED", "UNSUPPORTED", "PASS", "FLAKYPASS", "XFAIL", "UNRESOLVED", "TIMEOUT", "FAIL", "XPASS"}
var codeLabels = [...]string{"Excluded", "Unsupported", "Passed", "Passed With Retry", "Expectedly Failed", "Unresolved", "Timed Out", "Failed", "Unexpectedly Passed"}

func (c Code) String() string { return codeNames[c] }

// Label is the name lit uses in its summary, such as "Expectedly Failed".
func (c Code) Label() string { return codeLabels[c] }

// IsFailure reports whether c makes a run fail: FAIL, XPASS, UNRESOLVED
// and TIMEOUT.
func (c Code) IsFailure() bool { return c >= Unresolved }

// Options configure a run of a suite.
type Options struct {
	// ToolsDir holds the built tools (rlx-opt, filecheck, ...) that
	// config.rlx_tools names. It is also put first on PATH.
	ToolsDir string
	// ExecRoot is where each test's Output directory (%t, %T) goes. Empty
	// means a directory under os.TempDir named after the suite.
	ExecRoot string
	// Timeout limits each test; zero means none.
	Timeout time.Duration
	// Features are added to the configuration's available features.
	Features []string
}

// A Suite is a loaded test suite: its root, configuration and options.
type Suite struct {
	Root     string // absolute source root (the directory of lit.cfg.py)
	Config   *Config
	ExecRoot string
	opts     Options
	substs   []Subst           // config.substitutions then tool names
	env      map[string]string // the environment tests start with
	features map[string]bool
}

// A Test is one test file of a suite.
type Test struct {
	Suite *Suite
	Path  string // relative to the suite root, with '/' separators
}

// FullName is "suite :: path", as lit names tests.
func (t *Test) FullName() string { return t.Suite.Config.Name + " :: " + t.Path }

// Source is the absolute path of the test file.
func (t *Test) Source() string { return filepath.Join(t.Suite.Root, filepath.FromSlash(t.Path)) }

// A Result is the verdict on one test and lit's log of its run.
type Result struct {
	Test    *Test
	Code    Code
	Output  string
	Elapsed time.Duration
}

// passVars are the variables lit copies from its own environment into a
// test's (lit/TestingConfig.py).
var passVars = []string{
	"LIBRARY_PATH", "LD_LIBRARY_PATH", "SYSTEMROOT", "TERM", "CLANG", "LLDB", "LD_PRELOAD",
	"LLVM_SYMBOLIZER_PATH", "LLVM_PROFILE_FILE", "ASAN_SYMBOLIZER_PATH", "HWASAN_SYMBOLIZER_PATH",
	"LSAN_SYMBOLIZER_PATH", "MSAN_SYMBOLIZER_PATH", "TSAN_SYMBOLIZER_PATH", "UBSAN_SYMBOLIZER_PATH",
	"ASAN_OPTIONS", "LSAN_OPTIONS", "HWASAN_OPTIONS", "MSAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS",
	"ADB", "ADB_SERVER_SOCKET", "ANDROID_SERIAL", "SSH_AUTH_SOCK", "SANITIZER_IGNORE_CVE_2016_2143",
	"TMPDIR", "TMP", "TEMP", "TEMPDIR", "AVRLIT_BOARD", "AVRLIT_PORT", "FILECHECK_OPTS",
	"VCINSTALLDIR", "VCToolsinstallDir", "VSINSTALLDIR", "WindowsSdkDir", "WindowsSDKLibVersion",
	"SOURCE_DATE_EPOCH", "GTEST_FILTER", "DFLTCC",
}

// OpenSuite loads the suite that contains path (a directory or a test).
func OpenSuite(path string, opts Options) (*Suite, error) {
	root, err := FindSuite(path)
	if err != nil {
		return nil, err
	}
	cfg, err := LoadConfig(root)
	if err != nil {
		return nil, err
	}
	s := &Suite{Root: root, Config: cfg, opts: opts, features: map[string]bool{}}
	for f := range cfg.Features {
		s.features[f] = true
	}
	for _, f := range opts.Features {
		s.features[f] = true
	}
	s.ExecRoot = opts.ExecRoot
	if s.ExecRoot == "" {
		s.ExecRoot = filepath.Join(os.TempDir(), "rlx-lit", fmt.Sprintf("%s-%08x", sanitize(cfg.Name), hashString(root)))
	}
	if s.ExecRoot, err = filepath.Abs(s.ExecRoot); err != nil {
		return nil, err
	}
	s.substs = append(s.substs, cfg.Substs...)
	if opts.ToolsDir != "" {
		dir, err := filepath.Abs(opts.ToolsDir)
		if err != nil {
			return nil, err
		}
		for _, name := range cfg.Tools {
			s.substs = append(s.substs, ToolSubst(name, filepath.Join(dir, name)))
			if name == "filecheck" {
				s.substs = append(s.substs, ToolSubst("FileCheck", filepath.Join(dir, name)))
			}
		}
	}
	s.env = map[string]string{
		"PATH":                      os.Getenv("PATH"),
		"LLVM_DISABLE_CRASH_REPORT": "1",
	}
	if opts.ToolsDir != "" {
		dir, _ := filepath.Abs(opts.ToolsDir)
		s.env["PATH"] = dir + string(os.PathListSeparator) + s.env["PATH"]
	}
	for _, v := range passVars {
		if val := os.Getenv(v); val != "" {
			s.env[v] = val
		}
	}
	for k, v := range cfg.Environment {
		s.env[k] = v
	}
	return s, nil
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r == ' ' {
			return '_'
		}
		return r
	}, s)
}

func hashString(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	return h
}

// Discover returns the tests under the given paths (files or directories
// inside the suite; the whole suite when none), sorted by path. Like lit it
// takes files whose extension is in config.suffixes, and skips names
// starting with '.', names in config.excludes, and Output directories.
func (s *Suite) Discover(paths ...string) ([]*Test, error) {
	if len(paths) == 0 {
		paths = []string{s.Root}
	}
	seen := map[string]bool{}
	var tests []*Test
	add := func(abs string) error {
		rel, err := filepath.Rel(s.Root, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return fmt.Errorf("%s is not inside the suite %s", abs, s.Root)
		}
		rel = filepath.ToSlash(rel)
		if !seen[rel] {
			seen[rel] = true
			tests = append(tests, &Test{Suite: s, Path: rel})
		}
		return nil
	}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			if s.isTest(filepath.Base(abs)) {
				if err := add(abs); err != nil {
					return nil, err
				}
			}
			continue
		}
		err = filepath.WalkDir(abs, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			name := d.Name()
			if d.IsDir() {
				if path == abs {
					return nil
				}
				if name == "Output" || name == ".svn" || name == ".git" || s.excluded(name) {
					return filepath.SkipDir
				}
				if _, err := os.Stat(filepath.Join(path, ConfigName)); err == nil {
					return fmt.Errorf("%s: nested test suites are not supported", path)
				}
				return nil
			}
			if name == "lit.local.cfg" || name == "lit.local.cfg.py" {
				return fmt.Errorf("%s: lit.local.cfg is not supported; use one lit.cfg.py per suite", path)
			}
			if s.isTest(name) {
				return add(path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Slice(tests, func(i, j int) bool { return tests[i].Path < tests[j].Path })
	return tests, nil
}

func (s *Suite) excluded(name string) bool {
	for _, e := range s.Config.Excludes {
		if e == name {
			return true
		}
	}
	return false
}

func (s *Suite) isTest(name string) bool {
	if strings.HasPrefix(name, ".") || s.excluded(name) {
		return false
	}
	ext := filepath.Ext(name)
	for _, suf := range s.Config.Suffixes {
		if suf == ext {
			return true
		}
	}
	return false
}

// RunAll runs tests on jobs workers (GOMAXPROCS when jobs <= 0) and calls
// report, from one goroutine at a time, as each test finishes. It returns
// the results in the order of tests.
func (s *Suite) RunAll(ctx context.Context, tests []*Test, jobs int, report func(Result)) []Result {
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	results := make([]Result, len(tests))
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				r := s.Run(ctx, tests[i])
				results[i] = r
				if report != nil {
					mu.Lock()
					report(r)
					mu.Unlock()
				}
			}
		}()
	}
	for i := range tests {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

// Run runs one test and returns its verdict, as lit's executeShTest does.
func (s *Suite) Run(ctx context.Context, t *Test) Result {
	start := time.Now()
	r := s.run(ctx, t)
	r.Test, r.Elapsed = t, time.Since(start)
	return r
}

func (s *Suite) run(ctx context.Context, t *Test) Result {
	data, err := os.ReadFile(t.Source())
	if err != nil {
		return Result{Code: Unresolved, Output: err.Error()}
	}
	script, err := ParseScript(data)
	if err != nil {
		return Result{Code: Unresolved, Output: err.Error()}
	}
	var missing []string
	for _, e := range script.Requires {
		if ok, err := EvalBool(e, s.features); err != nil {
			return Result{Code: Unresolved, Output: "Error in REQUIRES list:\n" + err.Error()}
		} else if !ok {
			missing = append(missing, e)
		}
	}
	if len(missing) > 0 {
		return Result{Code: Unsupported, Output: "Test requires the following unavailable features: " + strings.Join(missing, ", ")}
	}
	var present []string
	for _, e := range script.Unsupported {
		if ok, err := EvalBool(e, s.features); err != nil {
			return Result{Code: Unresolved, Output: "Error in UNSUPPORTED list:\n" + err.Error()}
		} else if ok {
			present = append(present, e)
		}
	}
	if len(present) > 0 {
		return Result{Code: Unsupported, Output: "Test does not support the following features and/or targets: " + strings.Join(present, ", ")}
	}

	execPath := filepath.Join(s.ExecRoot, filepath.FromSlash(t.Path))
	tmpDir := filepath.Join(filepath.Dir(execPath), "Output")
	tmpBase := filepath.Join(tmpDir, filepath.Base(execPath))
	st := &substituter{
		substs:    append(append([]Subst(nil), s.substs...), pathSubsts(t.Source(), tmpDir, tmpBase)...),
		features:  s.features,
		recursion: s.Config.Recursion,
	}
	var lines []runLine
	for i := range script.Directives {
		d := &script.Directives[i]
		if d.Keyword != "RUN:" {
			if err := st.adjust(d); err != nil {
				return Result{Code: Unresolved, Output: err.Error()}
			}
			continue
		}
		cmd, err := st.expand(d.Command)
		if err != nil {
			return Result{Code: Unresolved, Output: err.Error()}
		}
		lines = append(lines, runLine{dbg: fmt.Sprintf("RUN: at line %d", d.StartLine), cmd: cmd})
	}
	if err := os.MkdirAll(tmpDir, 0o777); err != nil {
		return Result{Code: Unresolved, Output: err.Error()}
	}
	for i := range lines {
		if lines[i].cmd == "" {
			continue
		}
		n, err := ParseShell(lines[i].cmd, s.Config.PipeFail)
		if err != nil {
			out := fmt.Sprintf("# shell parser error on %s: %s\n", lines[i].dbg, strings.TrimLeftFunc(lines[i].cmd, isPySpace))
			return s.finish(script, Result{Code: Unresolved, Output: formatLog(1, "", out)})
		}
		lines[i].node = n
	}

	attempts := 1
	if script.AllowRetries > 0 {
		attempts += script.AllowRetries
	}
	var r Result
	for i := 0; i < attempts; i++ {
		r = s.runOnce(ctx, lines, filepath.Dir(execPath))
		if r.Code != Fail {
			if i > 0 && r.Code == Pass {
				r.Code = FlakyPass
			}
			break
		}
	}
	return s.finish(script, r)
}

// finish applies XFAIL to a verdict, as lit's Test.setResult does.
func (s *Suite) finish(script *Script, r Result) Result {
	for _, e := range script.XFail {
		ok := e == "*"
		if !ok {
			var err error
			if ok, err = EvalBool(e, s.features); err != nil {
				return Result{Code: Unresolved, Output: "Error in XFAIL list:\n" + err.Error()}
			}
		}
		if ok {
			switch r.Code {
			case Pass:
				r.Code = XPass
			case Fail:
				r.Code = XFail
			}
			break
		}
	}
	return r
}

type runLine struct {
	dbg  string // "RUN: at line N"
	cmd  string // after substitutions
	node Node   // nil when cmd is empty
}

func (s *Suite) runOnce(ctx context.Context, lines []runLine, cwd string) Result {
	timeout := s.opts.Timeout
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	x := &executor{ctx: ctx}
	env := &shellEnv{cwd: cwd, env: make(map[string]string, len(s.env))}
	for k, v := range s.env {
		env.env[k] = v
	}
	exit := 0
	var runErr error
	for _, l := range lines {
		x.results = append(x.results, cmdResult{trace: "# " + l.dbg + "\n"})
		if l.node == nil {
			x.results[len(x.results)-1].trace = "# " + l.dbg + " has no command after substitutions\n"
			continue
		}
		x.results = append(x.results, cmdResult{trace: strings.TrimLeftFunc(l.cmd, isPySpace) + "\n"})
		exit, runErr = x.run(l.node, env)
		if runErr != nil || exit != 0 {
			break
		}
	}
	var se *shellError
	if errors.As(runErr, &se) {
		exit = 127
		x.results = append(x.results, cmdResult{args: se.args, stderr: se.msg, exitCode: 127})
	}
	var crash *scriptCrash
	if errors.As(runErr, &crash) {
		return Result{Code: Unresolved, Output: "Exception during script execution:\n" + crash.msg + "\n"}
	}
	timedOut := timeout > 0 && ctx.Err() != nil
	out := formatTrace(x.results, timeout > 0)
	code := Pass
	switch {
	case exit == 0 && runErr == nil:
	case timedOut:
		code = Timeout
	default:
		code = Fail
	}
	timeoutMsg := ""
	if timedOut {
		timeoutMsg = fmt.Sprintf("Reached timeout of %v seconds", timeout.Seconds())
	}
	log := formatLog(exit, timeoutMsg, out)
	return Result{Code: code, Output: log}
}

func formatLog(exit int, timeout, out string) string {
	log := fmt.Sprintf("Exit Code: %d\n", exit)
	if timeout != "" {
		log += "Timeout: " + timeout + "\n"
	}
	log += "\n"
	if out != "" {
		log += "Command Output (stdout):\n--\n" + out + "\n--\n"
	}
	return log
}

// formatTrace renders the commands run as lit's executeScriptInternal does.
func formatTrace(results []cmdResult, withTimeout bool) string {
	var b strings.Builder
	for _, r := range results {
		if r.trace != "" {
			b.WriteString(r.trace)
			continue
		}
		b.WriteString("# executed command: ")
		bangs := 0
		for bangs < len(r.args) && r.args[bangs] == "!" {
			bangs++
		}
		b.WriteString(strings.Repeat("! ", bangs))
		quoted := make([]string, 0, len(r.args))
		for _, a := range r.args[bangs:] {
			quoted = append(quoted, shellQuote(a))
		}
		b.WriteString(strings.Join(quoted, " ") + "\n")
		blankOut, blankErr := strings.TrimSpace(r.stdout) == "", strings.TrimSpace(r.stderr) == ""
		if !withTimeout && r.exitCode == 0 && blankOut && blankErr {
			continue
		}
		for _, f := range r.outputFiles {
			b.WriteString(formatOutput(fmt.Sprintf("redirected output from '%s'", f.name), string(f.data), 1024))
		}
		if !blankOut {
			b.WriteString(formatOutput("command stdout", r.stdout, 0))
		}
		if !blankErr {
			b.WriteString(formatOutput("command stderr", r.stderr, 0))
		}
		if blankOut && blankErr {
			b.WriteString("# note: command had no output on stdout or stderr\n")
		}
		if r.exitCode != 0 {
			fmt.Fprintf(&b, "# error: command failed with exit status: %d\n", r.exitCode)
		}
		if withTimeout && r.timedOut {
			b.WriteString("# error: command reached timeout: True\n")
		}
	}
	return b.String()
}

func formatOutput(title, data string, limit int) string {
	if strings.TrimSpace(data) == "" {
		return ""
	}
	msg := ""
	if limit > 0 && len(data) > limit {
		data = data[:limit] + "\n...\n"
		msg = "data was truncated"
	}
	lines := strings.Split(strings.ReplaceAll(strings.TrimSuffix(data, "\n"), "\r\n", "\n"), "\n")
	return "# .---" + title + strings.Repeat("-", max(0, 30-4-len(title))) + "\n" +
		"# | " + strings.Join(lines, "\n# | ") + "\n" +
		"# `---" + msg + strings.Repeat("-", max(0, 30-4-len(msg))) + "\n"
}

// A Filter selects tests by a regular expression over their full names,
// as lit's --filter.
func Filter(tests []*Test, re *regexp.Regexp) []*Test {
	var out []*Test
	for _, t := range tests {
		if re.MatchString(t.FullName()) {
			out = append(out, t)
		}
	}
	return out
}
