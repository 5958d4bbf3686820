package suite

import (
	"errors"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/codegen/metal/cuda"
)

// TestCUDASyntax generates the CUDA sources of both suites and of the
// planted-barrier source and checks them, with the shim and the runtime,
// with clang-19 in CUDA mode (host and device sides). It is what CI can
// check of the device build; bench/gpu/run.sh compiles the same files
// with nvcc on the GPU machine.
func TestCUDASyntax(t *testing.T) {
	dir := t.TempDir()
	if err := cuda.WriteShim(dir); err != nil {
		t.Fatal(err)
	}
	files := []string{"rlx_cuda_runtime.cu", "rlx_cuda_main.cu"}
	for _, s := range []struct {
		name  string
		cases []Case
	}{{"small", SmallCases()}, {"real", RealCases()}} {
		_, _, srcs, err := Emit(s.name, s.cases, Options{Parts: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := srcs.WriteFiles(dir); err != nil {
			t.Fatal(err)
		}
		files = append(files, srcs.Parts...)
		files = append(files, srcs.Table)
	}
	err := cuda.SyntaxCheck(dir, files...)
	if errors.Is(err, cuda.ErrNoClang) {
		t.Skip("skipping: ", err)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestEditMustChange: a planted edit that misses its target is an error,
// not a planted bug that is silently absent.
func TestEditMustChange(t *testing.T) {
	_, _, _, err := Emit("planted", SmallCases()[:1], Options{Edit: func(s string) string { return s }})
	if err == nil || !strings.Contains(err.Error(), "changed nothing") {
		t.Fatalf("want an error for an edit that changes nothing, got %v", err)
	}
}
