package dqprobe

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// syntax checks src (a .cu file) with clang-19 in CUDA mode for sm_90,
// host and device sides, against testdata/stubs.
func syntax(t *testing.T, src string) ([]byte, error) {
	t.Helper()
	clang, err := exec.LookPath("clang-19")
	if err != nil {
		t.Skip("skipping: clang-19 not found (Debian's clang-19 package; .ci/run installs it)")
	}
	stubs, err := filepath.Abs(filepath.Join("testdata", "stubs"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(clang, "-x", "cuda", "--cuda-gpu-arch=sm_90", "-nocudainc", "-nocudalib", "-std=c++17",
		"-fsyntax-only", "-Wall", "-Werror", "-ferror-limit=20", "-I", stubs, src)
	return cmd.CombinedOutput()
}

// TestProbeSyntax: dqprobe.cu compiles (as far as clang's CUDA mode checks
// without a toolkit), and the check fails on a call the stubs lack.
func TestProbeSyntax(t *testing.T) {
	if out, err := syntax(t, "dqprobe.cu"); err != nil {
		t.Fatalf("dqprobe.cu: %v\n%s", err, out)
	}
	path := plant(t, "dqprobe.cu", "__hfma2(", "__hfma3(", "bad.cu")
	out, err := syntax(t, path)
	if err == nil || !strings.Contains(string(out), "bad.cu:") || !strings.Contains(string(out), "__hfma3") {
		t.Fatalf("want an error located in bad.cu naming __hfma3, got %v\n%s", err, out)
	}
}

// TestRunScript: run.sh parses as bash (it only runs on the GPU
// machine), and the check fails on a script that does not.
func TestRunScript(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("skipping: bash not found")
	}
	if out, err := exec.Command(bash, "-n", "run.sh").CombinedOutput(); err != nil {
		t.Fatalf("run.sh: %v\n%s", err, out)
	}
	path := plant(t, "run.sh", "\nfi\n", "\n", "bad.sh")
	if out, err := exec.Command(bash, "-n", path).CombinedOutput(); err == nil {
		t.Fatalf("bash -n accepted run.sh without its closing fi:\n%s", out)
	}
}

// plant writes file with its first old replaced by new to a temporary
// file named name, and returns its path; the test fails if file has no
// old.
func plant(t *testing.T, file, old, new, name string) string {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(src), old, new, 1)
	if bad == string(src) {
		t.Fatalf("the planted edit missed: %s has no %q", file, old)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
