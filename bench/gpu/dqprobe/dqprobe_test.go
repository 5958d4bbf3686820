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
	src, err := os.ReadFile("dqprobe.cu")
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(src), "__hfma2(", "__hfma3(", 1)
	if bad == string(src) {
		t.Fatal("the planted edit missed: dqprobe.cu has no __hfma2 call")
	}
	path := filepath.Join(t.TempDir(), "bad.cu")
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := syntax(t, path)
	if err == nil || !strings.Contains(string(out), "bad.cu:") || !strings.Contains(string(out), "__hfma3") {
		t.Fatalf("want an error located in bad.cu naming __hfma3, got %v\n%s", err, out)
	}
}
