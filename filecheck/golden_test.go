package filecheck

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// Golden tests live in testdata/golden/*.txtar. The archive comment holds
// the command line after "args:" and, for tests of rlx extensions, the
// word "extension". Files: check, input (or stdin), and the expected
// stderr and status. Run with -update to regenerate the expectations:
// from LLVM's FileCheck 19 when it is installed (so the files record what
// LLVM prints), from this implementation for extension tests.
var update = flag.Bool("update", false, "regenerate golden files")

// llvmFileCheck returns the path of LLVM 19's FileCheck, or "".
func llvmFileCheck() string {
	for _, p := range []string{os.Getenv("LLVM_FILECHECK"), "/usr/lib/llvm-19/bin/FileCheck"} {
		if p == "" {
			continue
		}
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	return ""
}

type goldenCase struct {
	path      string
	arc       *txtar.Archive
	args      []string
	extension bool
	files     map[string][]byte
}

func loadGolden(t *testing.T) []*goldenCase {
	paths, err := filepath.Glob("testdata/golden/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	var cases []*goldenCase
	for _, p := range paths {
		arc, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		gc := &goldenCase{path: p, arc: arc, files: map[string][]byte{}}
		for _, line := range strings.Split(string(arc.Comment), "\n") {
			if rest, ok := strings.CutPrefix(line, "args:"); ok {
				gc.args = tokenizeGNU(rest)
			}
			if strings.TrimSpace(line) == "extension" {
				gc.extension = true
			}
		}
		for _, f := range arc.Files {
			// txtar cannot hold a file without a final newline; such files
			// are stored as NAME.nonl.
			if name, ok := strings.CutSuffix(f.Name, ".nonl"); ok {
				gc.files[name] = bytes.TrimSuffix(f.Data, []byte("\n"))
				continue
			}
			gc.files[f.Name] = f.Data
		}
		cases = append(cases, gc)
	}
	return cases
}

// runOurs runs Main in-process on the case's files.
func (gc *goldenCase) runOurs() (string, int) {
	var stdout, stderr bytes.Buffer
	opts := ""
	if !gc.extension {
		// Compare with LLVM with the rlx extensions off.
		opts = "--lint=false --warn-empty-not=false"
	}
	code := Main(Env{
		Args: append([]string{"FileCheck"}, gc.args...),
		Getenv: func(k string) string {
			if k == "FILECHECK_OPTS" {
				return opts
			}
			return ""
		},
		Stdin:  bytes.NewReader(gc.files["stdin"]),
		Stdout: &stdout,
		Stderr: &stderr,
		ReadFile: func(name string) ([]byte, error) {
			if b, ok := gc.files[name]; ok {
				return b, nil
			}
			return nil, &os.PathError{Op: "open", Path: name, Err: os.ErrNotExist}
		},
	})
	return stdout.String() + stderr.String(), code
}

// runLLVM runs LLVM's FileCheck on the case's files in a temporary
// directory.
func (gc *goldenCase) runLLVM(t *testing.T, bin string) (string, int) {
	dir := t.TempDir()
	for name, data := range gc.files {
		if name == "stderr" || name == "status" || name == "stdin" {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, gc.args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "FILECHECK_OPTS=")
	cmd.Stdin = bytes.NewReader(gc.files["stdin"])
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(out.String(), bin, "FileCheck"), code
}

func (gc *goldenCase) want() (string, int) {
	code, _ := strconv.Atoi(strings.TrimSpace(string(gc.files["status"])))
	return string(gc.files["stderr"]), code
}

func TestGolden(t *testing.T) {
	llvm := llvmFileCheck()
	for _, gc := range loadGolden(t) {
		t.Run(strings.TrimSuffix(filepath.Base(gc.path), ".txtar"), func(t *testing.T) {
			got, code := gc.runOurs()
			if *update {
				out, status := got, code
				if !gc.extension {
					if llvm == "" {
						t.Skip("LLVM FileCheck 19 not found; cannot regenerate")
					}
					out, status = gc.runLLVM(t, llvm)
				}
				gc.set("stderr", out)
				gc.set("status", fmt.Sprintf("%d\n", status))
				if err := os.WriteFile(gc.path, txtar.Format(gc.arc), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, wantCode := gc.want()
			if got != want || code != wantCode {
				t.Errorf("status %d, want %d\n--- got\n%s--- want\n%s", code, wantCode, got, want)
			}
		})
	}
}

// TestGoldenAgainstLLVM checks that the recorded expectations are what
// LLVM's FileCheck 19 prints, so the golden files cannot drift from the
// reference.
func TestGoldenAgainstLLVM(t *testing.T) {
	t.Parallel()
	llvm := llvmFileCheck()
	if llvm == "" {
		t.Skip("LLVM FileCheck 19 not found (set LLVM_FILECHECK); skipping differential test")
	}
	for _, gc := range loadGolden(t) {
		if gc.extension {
			continue
		}
		t.Run(strings.TrimSuffix(filepath.Base(gc.path), ".txtar"), func(t *testing.T) {
			got, code := gc.runLLVM(t, llvm)
			want, wantCode := gc.want()
			if got != want || code != wantCode {
				t.Errorf("LLVM: status %d, want %d\n--- LLVM\n%s--- golden\n%s", code, wantCode, got, want)
			}
		})
	}
}

func (gc *goldenCase) set(name, data string) {
	for i := range gc.arc.Files {
		if gc.arc.Files[i].Name == name {
			gc.arc.Files[i].Data = []byte(data)
			return
		}
	}
	gc.arc.Files = append(gc.arc.Files, txtar.File{Name: name, Data: []byte(data)})
}
