package filecheck

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestLLVMConformance runs LLVM's own FileCheck test suite (packaged in
// ../shared/conformance/filecheck next to the repository) against
// tools/filecheck, like conformance/filecheck/run.sh. It needs python3,
// LLVM 19's lit and its helper tools, and skips without them.
func TestLLVMConformance(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("skipping the LLVM conformance suite in -short mode")
	}
	suite, err := filepath.Abs(filepath.Join("..", "..", "shared", "conformance", "filecheck"))
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("FILECHECK_SUITE"); dir != "" {
		suite = dir
	}
	if _, err := os.Stat(filepath.Join(suite, "run.sh")); err != nil {
		t.Skipf("conformance suite not found at %s", suite)
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not found")
	}
	if os.Getenv("LIT") == "" || os.Getenv("LLVM_TOOLS_DIR") == "" {
		out, err := exec.Command("llvm-config-19", "--prefix").Output()
		if err != nil {
			t.Skip("llvm-config-19 not found (install llvm-19-tools or set LIT and LLVM_TOOLS_DIR)")
		}
		lit := filepath.Join(strings.TrimSpace(string(out)), "build", "utils", "lit", "lit.py")
		if _, err := os.Stat(lit); err != nil {
			t.Skipf("LLVM lit not found at %s", lit)
		}
	}

	bin := filepath.Join(t.TempDir(), "FileCheck")
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not found in PATH")
	}
	if out, err := exec.Command(goTool, "build", "-o", bin, "../tools/filecheck").CombinedOutput(); err != nil {
		t.Fatalf("building tools/filecheck: %v\n%s", err, out)
	}
	cmd := exec.Command(filepath.Join(suite, "run.sh"), bin)
	cmd.Env = append(os.Environ(), "FILECHECK_OPTS=")
	out, _ := cmd.CombinedOutput()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	verdict := lines[len(lines)-1]
	m := regexp.MustCompile(`^(\d+) passed, (\d+) failed$`).FindStringSubmatch(verdict)
	if m == nil {
		t.Fatalf("no verdict from the suite:\n%s", out)
	}
	t.Logf("LLVM FileCheck conformance: %s", verdict)
	if m[2] != "0" {
		t.Errorf("conformance failures: %s\n%s", verdict, out)
	}
}
