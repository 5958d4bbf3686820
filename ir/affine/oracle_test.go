package affine

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// This file runs mlir-opt-19, the reference implementation, on many affine
// maps and sets at once, for the golden-file refresh and the differential
// test.

const oracleBinary = "mlir-opt-19"

// oracleCase is one body to wrap in `affine_map<…>` (Set false) or
// `affine_set<…>` (Set true).
type oracleCase struct {
	Set  bool
	Body string
}

// oracleResult is what mlir-opt made of an oracleCase: the printed body,
// or the first error with its byte offset into the body. Crash is set when
// mlir-opt died on the case (it divides INT64_MIN by -1 in a few folds).
type oracleResult struct {
	Out    string
	Err    bool
	Offset int
	Msg    string
	Crash  bool
}

func (r oracleResult) String() string {
	if r.Crash {
		return "mlir-opt crashed"
	}
	if r.Err {
		return fmt.Sprintf("error %d: %s", r.Offset, r.Msg)
	}
	return r.Out
}

// ours computes the same thing as oracleResult with this package.
func ours(c oracleCase) oracleResult {
	var s fmt.Stringer
	var err error
	if c.Set {
		var set *Set
		set, err = ParseSet(c.Body)
		s = set
	} else {
		var m *Map
		m, err = ParseMap(c.Body)
		s = m
	}
	if err != nil {
		e := err.(*Error)
		return oracleResult{Err: true, Offset: e.Offset, Msg: e.Msg}
	}
	return oracleResult{Out: s.String()}
}

// needOracle skips the test when mlir-opt-19 is not installed.
func needOracle(t testing.TB) string {
	t.Helper()
	path, err := exec.LookPath(oracleBinary)
	if err != nil {
		t.Skipf("%s not on PATH; skipping the comparison with MLIR", oracleBinary)
	}
	return path
}

const opPrefix = `"test.op"() {m = `

var (
	splitErrRE = regexp.MustCompile(`^within split at [^:]*:(\d+) offset :(\d+):(\d+): error: (.*)$`)
	attrRE     = regexp.MustCompile(`\{m = affine_(?:map|set)<(.*)>\} : \(\) -> \(\)$`)
)

// oracleBatch is the number of cases per mlir-opt run; its split-file
// handling slows down on very large inputs, and batches run in parallel.
const oracleBatch = 5000

// runOracle runs mlir-opt on all cases, each in its own split, and returns
// its verdict on each.
func runOracle(t testing.TB, cases []oracleCase) []oracleResult {
	t.Helper()
	bin := needOracle(t)
	results := make([]oracleResult, len(cases))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for lo := 0; lo < len(cases); lo += oracleBatch {
		hi := min(lo+oracleBatch, len(cases))
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			copy(results[lo:hi], runOracleBisect(t, bin, cases[lo:hi]))
			<-sem
		}()
	}
	wg.Wait()
	return results
}

// runOracleBisect runs mlir-opt once unless it crashes, in which case it
// bisects to isolate the culprits.
func runOracleBisect(t testing.TB, bin string, cases []oracleCase) []oracleResult {
	if res, ok := runOracleOnce(t, bin, cases); ok {
		return res
	}
	if len(cases) == 1 {
		return []oracleResult{{Crash: true}}
	}
	h := len(cases) / 2
	return append(runOracleBisect(t, bin, cases[:h]), runOracleBisect(t, bin, cases[h:])...)
}

func runOracleOnce(t testing.TB, bin string, cases []oracleCase) ([]oracleResult, bool) {
	t.Helper()
	var buf bytes.Buffer
	lineStart := []int{0, 0} // byte offset of each 1-based line
	line := 1
	first := make([]int, len(cases)) // first line of each case
	bodyAt := make([]int, len(cases))
	write := func(s string) {
		for i := 0; i < len(s); i++ {
			if s[i] == '\n' {
				line++
				lineStart = append(lineStart, buf.Len()+i+1)
			}
		}
		buf.WriteString(s)
	}
	for i, c := range cases {
		if i > 0 {
			write("// -----\n")
		}
		first[i] = line
		kw := "affine_map<"
		if c.Set {
			kw = "affine_set<"
		}
		write(opPrefix + kw)
		bodyAt[i] = buf.Len()
		write(c.Body)
		write(">} : () -> ()\n")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "in.mlir")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Error(err)
		return make([]oracleResult, len(cases)), true
	}
	cmd := exec.Command(bin, "--allow-unregistered-dialect", "--mlir-print-op-generic",
		"--mlir-print-local-scope", "--split-input-file", file)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Errorf("running %s: %v", bin, err)
			return make([]oracleResult, len(cases)), true
		}
		if ee.ExitCode() != 1 {
			return nil, false
		}
	}

	results := make([]oracleResult, len(cases))
	chunks := strings.Split(stdout.String(), "// -----\n")
	if len(chunks) != len(cases) {
		t.Errorf("%s printed %d chunks for %d cases; stderr:\n%s", bin, len(chunks), len(cases), stderr.String())
		return results, true
	}
	for i, ch := range chunks {
		for _, l := range strings.Split(ch, "\n") {
			if m := attrRE.FindStringSubmatch(l); m != nil {
				results[i].Out = m[1]
			}
		}
	}
	caseOf := func(fileLine int) int {
		i := len(first) - 1
		for i > 0 && first[i] > fileLine {
			i--
		}
		return i
	}
	seen := make(map[int]bool)
	for _, l := range strings.Split(stderr.String(), "\n") {
		m := splitErrRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		split, _ := strconv.Atoi(m[1])
		ln, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		fileLine := split + ln - 1
		i := caseOf(fileLine)
		if seen[i] {
			continue
		}
		seen[i] = true
		off := lineStart[fileLine] + col - 1 - bodyAt[i]
		results[i] = oracleResult{Err: true, Offset: off, Msg: m[4]}
	}
	for i, r := range results {
		if !r.Err && r.Out == "" {
			t.Errorf("%s gave neither output nor error for case %d %q; stderr:\n%s", bin, i, cases[i].Body, stderr.String())
		}
	}
	return results, true
}
