// Package littests runs the lit suite in this directory with Go alone:
// "go test ./lit-tests/" builds every tool under ./tools/ once and runs each
// lit test as a subtest, in parallel, with rlx's lit (package lit).
package littests

import (
	"bufio"
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/rlx-compiler/rlx/lit"
)

var (
	buildOnce sync.Once
	toolsDir  string
	buildErr  error
	tmpRoot   string
)

// tools builds ./tools/... once per test binary and returns the directory.
// A tool that does not build is reported, but the tests still run, so a
// broken tool fails only the tests that use it.
func tools(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		mod, err := lit.ModuleRoot(".")
		if err != nil {
			buildErr = err
			return
		}
		statSources(mod)
		tmpRoot, buildErr = os.MkdirTemp("", "rlx-lit-tests-")
		if buildErr != nil {
			return
		}
		toolsDir = filepath.Join(tmpRoot, "bin")
		buildErr = lit.BuildTools(context.Background(), mod, toolsDir)
	})
	if buildErr != nil {
		t.Errorf("building ./tools/...: %v", buildErr)
	}
	return toolsDir
}

// statSources stats every Go source and lit test of the module. The tools
// run as separate processes, so without this "go test" would cache a
// passing result even after a tool's source changed: it invalidates its
// cache on changes to the files the test process itself looked at.
func statSources(mod string) {
	filepath.WalkDir(mod, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if name := d.Name(); name == ".git" || name == "Output" || name == "testdata" && path != mod {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") || d.Name() == "go.mod" || strings.Contains(path, "lit-tests") {
			os.Stat(path)
		}
		return nil
	})
}

func TestMain(m *testing.M) {
	code := m.Run()
	if tmpRoot != "" {
		os.RemoveAll(tmpRoot)
	}
	os.Exit(code)
}

func openSuite(t *testing.T, execRoot string) (*lit.Suite, []*lit.Test) {
	t.Helper()
	s, err := lit.OpenSuite(".", lit.Options{ToolsDir: tools(t), ExecRoot: execRoot, Features: features()})
	if err != nil {
		t.Fatal(err)
	}
	tests, err := s.Discover()
	if err != nil {
		t.Fatal(err)
	}
	return s, tests
}

// features are the features the machine adds to lit.cfg.py's, as the
// part of lit.cfg.py that only LLVM's lit reads adds them there: "clang"
// when clang++-19 is installed (the sim backend compiles with it).
func features() []string {
	if _, err := exec.LookPath("clang++-19"); err == nil {
		return []string{"clang"}
	}
	return nil
}

// TestLit runs every lit test of the suite as a subtest named by its path.
func TestLit(t *testing.T) {
	s, tests := openSuite(t, t.TempDir())
	for _, test := range tests {
		t.Run(test.Path, func(t *testing.T) {
			t.Parallel()
			r := s.Run(context.Background(), test)
			switch {
			case r.Code.IsFailure():
				t.Errorf("%s: %s\n%s", r.Code, test.FullName(), r.Output)
			case r.Code == lit.Unsupported:
				t.Skipf("UNSUPPORTED: %s", r.Output)
			case r.Code != lit.Pass:
				t.Logf("%s: %s", r.Code, test.FullName())
			}
		})
	}
}

var verdictLine = regexp.MustCompile(`^([A-Z]+): (.+?) :: (.+) \(\d+ of \d+\)$`)

// TestVerdictParity runs LLVM's lit (with LLVM's FileCheck, not, count and
// split-file) on this suite and checks that every test gets the verdict our
// lit gives it. It skips when python3 or LLVM 19's lit is not installed.
func TestVerdictParity(t *testing.T) {
	if testing.Short() {
		t.Skip("runs LLVM's lit; skipped in -short mode")
	}
	litPy := "/usr/lib/llvm-19/build/utils/lit/lit.py"
	llvmBin := "/usr/lib/llvm-19/bin"
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	for _, p := range []string{litPy, filepath.Join(llvmBin, "FileCheck")} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("LLVM 19 lit tools not installed: %v", err)
		}
	}
	s, tests := openSuite(t, t.TempDir())
	ours := map[string]string{}
	for _, r := range s.RunAll(context.Background(), tests, 0, nil) {
		ours[r.Test.Path] = r.Code.String()
	}

	cmd := exec.Command(python, litPy, "-v", "--param", "tools_dir="+tools(t),
		"--param", "exec_root="+t.TempDir(), "--param", "llvm_bin="+llvmBin, ".")
	out, err := cmd.CombinedOutput()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("running LLVM lit: %v\n%s", err, out)
	}
	theirs := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		if m := verdictLine.FindStringSubmatch(sc.Text()); m != nil {
			theirs[m[3]] = m[1]
		}
	}
	if len(theirs) == 0 {
		t.Fatalf("no verdicts in LLVM lit's output:\n%s", out)
	}
	paths := map[string]bool{}
	for p := range ours {
		paths[p] = true
	}
	for p := range theirs {
		paths[p] = true
	}
	var sorted []string
	for p := range paths {
		sorted = append(sorted, p)
	}
	sort.Strings(sorted)
	for _, p := range sorted {
		if ours[p] != theirs[p] {
			t.Errorf("%s: our lit says %q, LLVM's lit says %q", p, ours[p], theirs[p])
		}
	}
	t.Logf("%d tests, same verdicts: %v", len(sorted), !t.Failed())
}
