package graph

import (
	"bytes"
	"os"
	"os/exec"
	"testing"
)

// TestMLIROptAcceptsGeneric feeds the generic form of every op (the
// examples, roundTripSrc and the lit round-trip file) to mlir-opt-19,
// which does not know the graph dialect, and checks that it accepts the
// text and prints it back byte for byte.
func TestMLIROptAcceptsGeneric(t *testing.T) {
	bin, err := exec.LookPath("mlir-opt-19")
	if err != nil {
		t.Skip("mlir-opt-19 not on PATH (Debian's mlir-19-tools); skipping the conformance check")
	}
	lit, err := os.ReadFile(litDir + "/ops.mlir")
	if err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string]string{"examples": exampleModule(), "decode": roundTripSrc, "ops.mlir": string(lit)} {
		t.Run(name, func(t *testing.T) {
			generic := printIR(parseVerify(t, newContext(), src), true)
			cmd := exec.Command(bin, "--allow-unregistered-dialect", "--mlir-print-op-generic", "-")
			cmd.Stdin = bytes.NewBufferString(generic)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("mlir-opt-19 rejects rlx's generic form: %v\n%s\ninput:\n%s", err, stderr.String(), generic)
			}
			if string(out) != generic {
				t.Errorf("mlir-opt-19 prints the generic form differently:\nrlx:\n%s\nmlir-opt:\n%s", generic, out)
			}
		})
	}
}
