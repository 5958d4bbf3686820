package lit

import (
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
)

const usage = `usage: lit [options] PATH...

Runs the lit tests under each PATH (a suite directory, a subdirectory or a
test file), like LLVM's lit with its internal shell.

  -v, --verbose        show the log of each failing test
  -a, --show-all       show the log of every test
  -s, --succinct       print only failing tests, not one line per test
  -q, --quiet          print nothing but failures and the summary
  -j N, --workers N    run N tests at once (default GOMAXPROCS)
  --timeout SECONDS    fail a test that runs longer (TIMEOUT); whole seconds,
                       0 for no limit
  --filter REGEXP      run only tests whose full name matches (also LIT_FILTER)
  --tools-dir DIR      directory of the built tools (default $RLX_TOOLS_DIR;
                       when neither is set, ./tools/... is built into a
                       temporary directory)
  --exec-root DIR      where Output directories (%t) go
  -D NAME=VALUE, --param NAME=VALUE
                       lit parameters: tools_dir and exec_root are understood
  --param-feature F    add an available feature

The last line of output is "N passed, M failed"; the exit status is 1 when
any test fails, 2 on a usage or configuration error.
`

type cliOptions struct {
	verbose, showAll, succinct, quiet bool
	jobs                              int
	timeout                           time.Duration
	filter                            string
	toolsDir, execRoot                string
	features                          []string
	paths                             []string
}

func parseCLI(args []string) (*cliOptions, error) {
	o := &cliOptions{filter: os.Getenv("LIT_FILTER"), toolsDir: os.Getenv("RLX_TOOLS_DIR")}
	value := func(i *int, name string) (string, error) {
		a := args[*i]
		if _, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "--") {
			return v, nil
		}
		if *i+1 >= len(args) {
			return "", fmt.Errorf("%s needs a value", name)
		}
		*i++
		return args[*i], nil
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name := a
		if strings.HasPrefix(a, "--") {
			name, _, _ = strings.Cut(a, "=")
		}
		var err error
		var v string
		switch name {
		case "-h", "-help", "--help":
			return nil, errHelp
		case "--verbose":
			o.verbose = true
		case "--show-all":
			o.showAll = true
		case "--succinct":
			o.succinct = true
		case "--quiet":
			o.quiet = true
		case "-j", "--workers", "--threads":
			if v, err = value(&i, name); err == nil {
				o.jobs, err = positiveJobs(v)
			}
		case "--timeout":
			if v, err = value(&i, name); err == nil {
				var secs int
				secs, err = strconv.Atoi(v)
				if err != nil || secs < 0 {
					err = fmt.Errorf("argument --timeout: requires non-negative integer, but found '%s'", v)
				}
				o.timeout = time.Duration(secs) * time.Second
			}
		case "--filter":
			o.filter, err = value(&i, name)
		case "--tools-dir":
			o.toolsDir, err = value(&i, name)
		case "--exec-root":
			o.execRoot, err = value(&i, name)
		case "--param-feature":
			if v, err = value(&i, name); err == nil {
				o.features = append(o.features, v)
			}
		case "-D", "--param":
			if v, err = value(&i, name); err == nil {
				err = o.param(v)
			}
		default:
			switch {
			case strings.HasPrefix(a, "-D") && len(a) > 2:
				err = o.param(a[2:])
			case strings.HasPrefix(a, "-j") && len(a) > 2:
				o.jobs, err = positiveJobs(a[2:])
			case strings.HasPrefix(a, "-") && len(a) > 1 && strings.Trim(a[1:], "vasq") == "":
				for _, f := range a[1:] {
					switch f {
					case 'v':
						o.verbose = true
					case 'a':
						o.showAll = true
					case 's':
						o.succinct = true
					case 'q':
						o.quiet = true
					}
				}
			case strings.HasPrefix(a, "-") && a != "-":
				err = fmt.Errorf("unknown option %s", a)
			default:
				o.paths = append(o.paths, a)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	if len(o.paths) == 0 {
		return nil, fmt.Errorf("no test paths given")
	}
	return o, nil
}

func (o *cliOptions) param(kv string) error {
	k, v, _ := strings.Cut(kv, "=")
	switch k {
	case "tools_dir":
		o.toolsDir = v
	case "exec_root":
		o.execRoot = v
	default:
		return fmt.Errorf("unknown lit parameter %q (known: tools_dir, exec_root)", k)
	}
	return nil
}

var errHelp = fmt.Errorf("help requested")

// positiveJobs reads a -j value, which must be a positive integer, in LLVM
// lit's words.
func positiveJobs(v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("argument -j/--threads/--workers: requires positive integer, but found '%s'", v)
	}
	return n, nil
}

// Main is the lit command: it parses args (without the program name),
// runs the tests and returns the exit status.
func Main(args []string, stdout, stderr io.Writer) int {
	o, err := parseCLI(args)
	if err == errHelp {
		io.WriteString(stdout, usage)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "lit: error: %v\n\n", err)
		io.WriteString(stderr, usage)
		return 2
	}
	ctx := context.Background()
	var filter *regexp.Regexp
	if o.filter != "" {
		if filter, err = regexp.Compile(o.filter); err != nil {
			fmt.Fprintf(stderr, "lit: error: bad --filter: %v\n", err)
			return 2
		}
	}
	// Tests are grouped by suite; all paths usually share one.
	suites := map[string]*Suite{}
	var order []string
	byRoot := map[string][]string{}
	for _, p := range o.paths {
		root, err := FindSuite(p)
		if err != nil {
			fmt.Fprintf(stderr, "lit: error: %v\n", err)
			return 2
		}
		if _, ok := byRoot[root]; !ok {
			order = append(order, root)
		}
		byRoot[root] = append(byRoot[root], p)
	}
	if o.toolsDir == "" {
		mod, err := ModuleRoot(order[0])
		if err == nil {
			dir, err := os.MkdirTemp("", "rlx-lit-tools-")
			if err != nil {
				fmt.Fprintf(stderr, "lit: error: %v\n", err)
				return 2
			}
			defer os.RemoveAll(dir)
			if err := BuildTools(ctx, mod, dir); err != nil {
				fmt.Fprintf(stderr, "lit: warning: %v\n", err)
			}
			o.toolsDir = dir
		}
	}
	var tests []*Test
	for _, root := range order {
		s, err := OpenSuite(root, Options{ToolsDir: o.toolsDir, ExecRoot: o.execRoot, Timeout: o.timeout, Features: o.features})
		if err != nil {
			fmt.Fprintf(stderr, "lit: error: %v\n", err)
			return 2
		}
		suites[root] = s
		ts, err := s.Discover(byRoot[root]...)
		if err != nil {
			fmt.Fprintf(stderr, "lit: error: %v\n", err)
			return 2
		}
		tests = append(tests, ts...)
	}
	total := len(tests)
	var excluded []Result
	if filter != nil {
		all := tests
		tests = Filter(tests, filter)
		kept := map[*Test]bool{}
		for _, t := range tests {
			kept[t] = true
		}
		for _, t := range all {
			if !kept[t] {
				excluded = append(excluded, Result{Test: t, Code: Excluded})
			}
		}
	}
	if len(tests) == 0 {
		fmt.Fprintf(stderr, "lit: error: did not discover any tests for provided path(s)\n")
		return 2
	}
	jobs := o.jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	jobs = min(jobs, len(tests))
	if !o.quiet {
		of := ""
		if len(tests) != total {
			of = fmt.Sprintf(" of %d", total)
		}
		fmt.Fprintf(stdout, "-- Testing: %d%s tests, %d workers --\n", len(tests), of, jobs)
	}
	start := time.Now()
	done := 0
	var results []Result
	report := func(r Result) {
		done++
		failed := r.Code.IsFailure()
		if !(failed || o.showAll || !o.quiet && !o.succinct) {
			return
		}
		fmt.Fprintf(stdout, "%s: %s (%d of %d)\n", r.Code, r.Test.FullName(), done, len(tests))
		if failed && o.verbose || o.showAll {
			if failed {
				fmt.Fprintf(stdout, "%s TEST '%s' FAILED %s\n", stars(20), r.Test.FullName(), stars(20))
			}
			fmt.Fprintf(stdout, "%s\n%s\n", r.Output, stars(20))
		}
	}
	// Run suite by suite, keeping one worker pool size.
	for _, root := range order {
		var mine []*Test
		for _, t := range tests {
			if t.Suite == suites[root] {
				mine = append(mine, t)
			}
		}
		results = append(results, suites[root].RunAll(ctx, mine, jobs, report)...)
	}
	return summarize(stdout, append(results, excluded...), time.Since(start), o.quiet)
}

func stars(n int) string { return strings.Repeat("*", n) }

// summarize prints lit's summary and our last line, and returns the exit
// status.
func summarize(w io.Writer, results []Result, elapsed time.Duration, quiet bool) int {
	byCode := make([][]string, numCodes)
	for _, r := range results {
		byCode[r.Code] = append(byCode[r.Code], r.Test.FullName())
	}
	for c := Code(0); c < numCodes; c++ {
		names := byCode[c]
		if len(names) == 0 || !c.IsFailure() {
			continue
		}
		sort.Strings(names)
		fmt.Fprintf(w, "%s\n%s Tests (%d):\n", stars(20), c.Label(), len(names))
		for _, n := range names {
			fmt.Fprintf(w, "  %s\n", n)
		}
		fmt.Fprintln(w)
	}
	if !quiet {
		fmt.Fprintf(w, "\nTesting Time: %.2fs\n", elapsed.Seconds())
	}
	fmt.Fprintf(w, "\nTotal Discovered Tests: %d\n", len(results))
	width, countWidth := 0, 0
	for c := Code(0); c < numCodes; c++ {
		if n := len(byCode[c]); n > 0 && (!quiet || c.IsFailure()) {
			width = max(width, len(c.Label()))
			countWidth = max(countWidth, len(strconv.Itoa(n)))
		}
	}
	for c := Code(0); c < numCodes; c++ {
		if n := len(byCode[c]); n > 0 && (!quiet || c.IsFailure()) {
			fmt.Fprintf(w, "  %-*s: %*d (%.2f%%)\n", width, c.Label(), countWidth, n, float64(n)/float64(len(results))*100)
		}
	}
	passed := len(byCode[Pass]) + len(byCode[FlakyPass]) + len(byCode[XFail])
	failed := len(byCode[Fail]) + len(byCode[XPass]) + len(byCode[Unresolved]) + len(byCode[Timeout])
	fmt.Fprintf(w, "%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return 1
	}
	return 0
}
