package graph

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/filecheck"
	"github.com/rlx-compiler/rlx/ir"
)

// The lit tests in lit-tests/dialect/graph need rlx-opt with the graph
// dialect and --verify-diagnostics. Until rlx-opt has both, this test gives
// their RUN lines the same meaning through the Go API, so the files stay
// correct: --verify-diagnostics files have their expected-error lines
// checked chunk by chunk, and the others are printed in custom form
// (directly and through the generic form) and matched with filecheck.

const litDir = "../../lit-tests/dialect/graph"

func TestLitFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(litDir, "*.mlir"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no lit tests in %s: %v", litDir, err)
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			if bytes.Contains(src, []byte("--verify-diagnostics")) {
				verifyDiagnostics(t, path, string(src))
			} else {
				roundTripChecks(t, path, src)
			}
		})
	}
}

var expectedRE = regexp.MustCompile(`expected-error\s*(@[+-]\d+|@above|@below)?\s*\{\{(.*)\}\}`)

// verifyDiagnostics splits src at `// -----` lines and checks that each
// chunk fails with exactly the expected error, at the expected line.
func verifyDiagnostics(t *testing.T, path, src string) {
	lines := strings.Split(src, "\n")
	start := 0
	for i := 0; i <= len(lines); i++ {
		if i < len(lines) && strings.TrimSpace(lines[i]) != "// -----" {
			continue
		}
		checkChunk(t, path, lines[start:i], start)
		start = i + 1
	}
}

func checkChunk(t *testing.T, path string, lines []string, offset int) {
	type expectation struct {
		line int
		msg  string
	}
	var want []expectation
	for i, l := range lines {
		m := expectedRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		line := offset + i + 1
		switch {
		case m[1] == "@above":
			line--
		case m[1] == "@below":
			line++
		case m[1] != "":
			n, _ := strconv.Atoi(m[1][1:])
			line += n
		}
		want = append(want, expectation{line, m[2]})
	}
	chunk := strings.Join(lines, "\n")
	f, err := asm.Parse(newContext(), path, []byte(chunk), asm.Options{LineOffset: offset})
	if err == nil {
		err = ir.Verify(f.Op)
	}
	if len(want) == 0 {
		if err != nil {
			t.Errorf("unexpected error: %v", err)
		}
		return
	}
	if len(want) > 1 {
		t.Errorf("%s:%d: a chunk checks one error, found %d expected-error lines", path, want[0].line, len(want))
	}
	if err == nil {
		t.Errorf("%s:%d: expected error %q, got none", path, want[0].line, want[0].msg)
		return
	}
	var line int
	var msg string
	switch e := err.(type) {
	case *ir.Diagnostic:
		_, line, _, _ = ir.LineCol(e.Loc)
		msg = e.Message
	case *asm.Error:
		line, msg = e.Line, e.Msg
	default:
		t.Fatalf("error %T: %v", err, err)
	}
	if line != want[0].line || !strings.Contains(msg, want[0].msg) {
		t.Errorf("%s:%d: got error at line %d: %s\nwant at line %d: %s", path, want[0].line, line, msg, want[0].line, want[0].msg)
	}
}

// roundTripChecks stands in for `rlx-opt %s | rlx-opt | FileCheck %s` and
// `rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s`.
func roundTripChecks(t *testing.T, path string, src []byte) {
	ctx := newContext()
	custom := printIR(parseVerify(t, ctx, printIR(parseVerify(t, ctx, string(src)), false)), false)
	viaGeneric := printIR(parseVerify(t, ctx, printIR(parseVerify(t, ctx, string(src)), true)), false)
	for name, out := range map[string]string{"custom": custom, "via generic": viaGeneric} {
		var diag bytes.Buffer
		st := filecheck.Check(filecheck.DefaultOptions(), filecheck.File{Name: path, Text: src}, filecheck.File{Name: "-", Text: []byte(out)}, &diag)
		if st != filecheck.StatusOK {
			t.Errorf("%s: filecheck failed on the %s output:\n%s", path, name, diag.String())
		}
	}
}
