package hybridsplit

import (
	"bytes"
	"os"
	"os/exec"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/ir"
)

// TestPrintsAsMLIR splits example functions and has mlir-opt-19 print the
// split form back in the generic form with locations: the text must come
// back byte for byte, so the region ops, their properties, the block
// arguments' locations (unknown: the split does not make them up) and the
// location aliases are printed as MLIR prints them. It is skipped without
// mlir-opt-19.
func TestPrintsAsMLIR(t *testing.T) {
	mlirOpt, err := exec.LookPath("mlir-opt-19")
	if err != nil {
		t.Skip("mlir-opt-19 not installed")
	}
	for _, file := range []string{
		"../../examples/qwen35-toy.mlir",
		"../../lit-tests/hybrid-split/placement.mlir",
		"../../lit-tests/hybrid-split/capability.mlir",
	} {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		m, err := asm.Parse(newContext(), file, src, asm.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for f := range m.Op.Region(0).First().Ops() {
			if _, err := Split(f, Options{}); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
		}
		ours := ir.Sprint(m.Op, ir.PrintOptions{Generic: true, DebugInfo: true})
		cmd := exec.Command(mlirOpt, "--allow-unregistered-dialect", "--mlir-print-op-generic", "--mlir-print-debuginfo", "-")
		cmd.Stdin = bytes.NewReader([]byte(ours))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		theirs, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: mlir-opt-19: %v\n%s", file, err, stderr.String())
		}
		if string(theirs) != ours {
			t.Errorf("%s: mlir-opt-19 prints the split form differently\n--- ours\n%s\n--- mlir-opt-19\n%s", file, ours, theirs)
		}
	}
}
