package lit

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"testing"
)

const (
	llvmLit = "/usr/lib/llvm-19/build/utils/lit/lit.py"
	llvmBin = "/usr/lib/llvm-19/bin"
)

var verdictLine = regexp.MustCompile(`^([A-Z]+): (.+?) :: (.+) \(\d+ of \d+\)$`)

// llvmVerdicts runs LLVM's lit on a suite and returns its verdict per test
// path, skipping t when python3 or LLVM 19's lit is missing.
func llvmVerdicts(t *testing.T, suite string, params ...string) map[string]string {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	for _, p := range []string{llvmLit, filepath.Join(llvmBin, "count"), filepath.Join(llvmBin, "split-file")} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("LLVM 19 lit tools not installed: %v", err)
		}
	}
	args := []string{llvmLit, "-v", "--param", "llvm_bin=" + llvmBin, "--param", "exec_root=" + t.TempDir()}
	for _, p := range params {
		args = append(args, "--param", p)
	}
	out, err := exec.Command(python, append(args, suite)...).CombinedOutput()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("running LLVM lit: %v\n%s", err, out)
	}
	verdicts := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		if m := verdictLine.FindStringSubmatch(sc.Text()); m != nil {
			verdicts[m[3]] = m[1]
		}
	}
	if len(verdicts) == 0 {
		t.Fatalf("no verdicts in LLVM lit's output:\n%s", out)
	}
	return verdicts
}

// TestParityEdgeCases runs testdata/parity, a suite of edge cases that
// mostly fail on purpose (FAIL, UNRESOLVED, XPASS, ...), with our lit and
// with LLVM's, and compares the verdicts test by test.
func TestParityEdgeCases(t *testing.T) {
	if testing.Short() {
		t.Skip("runs LLVM's lit; skipped in -short mode")
	}
	theirs := llvmVerdicts(t, "testdata/parity")
	s, err := OpenSuite("testdata/parity", Options{ExecRoot: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	tests, err := s.Discover()
	if err != nil {
		t.Fatal(err)
	}
	ours := map[string]string{}
	for _, r := range s.RunAll(context.Background(), tests, 0, nil) {
		ours[r.Test.Path] = r.Code.String()
	}
	var paths []string
	for p := range theirs {
		paths = append(paths, p)
	}
	for p := range ours {
		if _, ok := theirs[p]; !ok {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		if ours[p] != theirs[p] {
			t.Errorf("%s: our lit says %q, LLVM's lit says %q", p, ours[p], theirs[p])
		}
	}
	t.Logf("%d tests compared", len(paths))
}
