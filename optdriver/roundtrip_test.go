package optdriver

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/dialect/builtin"
	"github.com/rlx-compiler/rlx/ir"
)

// roundTripConfig registers, in the n-th context it is asked for, a dialect
// "rt" whose op "rt.op" has the inherent attributes the function inherent
// gives for n. A dialect that changes between two contexts stands for a
// printer and a parser that disagree: --verify-roundtrip parses the
// printed IR into a second context.
func roundTripConfig(inherent func(n int) []string, register func(n int) bool) Config {
	n := 0
	return Config{ToolName: "rlx-opt", RegisterDialects: func(ctx *ir.Context) {
		builtin.Register(ctx)
		if register(n) {
			ctx.RegisterDialect(&ir.Dialect{Name: "rt", Ops: []*ir.OpDef{{Name: "rt.op", InherentAttrs: inherent(n)}}})
		}
		n++
	}}
}

func runRoundTrip(t *testing.T, cfg Config, src string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "in.mlir")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code = MainWith(cfg, append(args, p), strings.NewReader(""), &out, &errb)
	return out.String(), strings.ReplaceAll(errb.String(), p, "in.mlir"), code
}

func TestVerifyRoundTrip(t *testing.T) {
	always := func(int) bool { return true }
	none := func(int) []string { return nil }
	const src = "\"rt.op\"() {x = 1 : i32} : () -> ()\n"

	t.Run("same IR back", func(t *testing.T) {
		out, errs, code := runRoundTrip(t, roundTripConfig(none, always), src, "--verify-roundtrip")
		want := "module {\n  \"rt.op\"() {x = 1 : i32} : () -> ()\n}\n\n"
		if code != 0 || errs != "" || out != want {
			t.Errorf("exit %d, stderr %q, stdout %q; want 0, no stderr, %q", code, errs, out, want)
		}
	})

	t.Run("printed IR does not parse back", func(t *testing.T) {
		// The dialect exists only in the first context.
		_, errs, code := runRoundTrip(t, roundTripConfig(none, func(n int) bool { return n == 0 }), src, "--verify-roundtrip")
		if code != 1 {
			t.Errorf("exit %d, want 1", code)
		}
		for _, want := range []string{
			"in.mlir:0:0: error: 'builtin.module' op failed to parse textual content back, cannot verify round-trip.\n",
			"round-trip.\n<verify-roundtrip>:2:10: error: operation being parsed with an unregistered dialect",
		} {
			if !strings.Contains(errs, want) {
				t.Errorf("stderr lacks %q:\n%s", want, errs)
			}
		}
	})

	t.Run("printed IR parses back different", func(t *testing.T) {
		// x is a discardable attribute in the first context and inherent in
		// the second, so the second prints it in <{…}>.
		inherent := func(n int) []string {
			if n == 0 {
				return nil
			}
			return []string{"x"}
		}
		out, errs, code := runRoundTrip(t, roundTripConfig(inherent, always), src, "--verify-roundtrip")
		if code != 1 || out != "" {
			t.Errorf("exit %d, stdout %q; want 1 and no output", code, out)
		}
		for _, want := range []string{
			"error: 'builtin.module' op textual roundTrip testing roundtripped module differs from reference:\n<<<<<<Reference\n",
			"\"rt.op\"() {x = 1 : i32} : () -> () loc(",
			"\n=====\n",
			"\"rt.op\"() <{x = 1 : i32}> : () -> () loc(",
			"\n>>>>>roundtripped\n",
		} {
			if !strings.Contains(errs, want) {
				t.Errorf("stderr lacks %q:\n%s", want, errs)
			}
		}
		// Without the flag the same run succeeds.
		if _, _, code := runRoundTrip(t, roundTripConfig(inherent, always), src); code != 0 {
			t.Errorf("without --verify-roundtrip: exit %d, want 0", code)
		}
	})

	t.Run("expected diagnostics", func(t *testing.T) {
		in := "// expected-error@-1 {{failed to parse textual content back}}\n" + src
		_, errs, code := runRoundTrip(t, roundTripConfig(none, func(n int) bool { return n == 0 }), in, "--verify-roundtrip", "--verify-diagnostics")
		if code != 0 || errs != "" {
			t.Errorf("exit %d, stderr %q; want the error to be expected", code, errs)
		}
	})
}

// TestVerifyRoundTripCorpus runs --verify-roundtrip on the repository's
// MLIR test inputs and, when present, on mlir-opt-19's prints (generic,
// generic with locations, custom) of MLIR's own tests
// (../shared/conformance/mlir): no chunk that parses may fail the round
// trip. Files whose chunks are all meant to fail (invalid
// input) still count as run; the test asserts that most files parse.
func TestVerifyRoundTripCorpus(t *testing.T) {
	var files []string
	for _, dir := range []string{"../lit-tests", "../examples", "testdata/mlir-compat", "../passes"} {
		err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if e.IsDir() && (e.Name() == "upstream" || e.Name() == "derived") {
				return filepath.SkipDir // MLIR's files, kept locally only
			}
			if strings.HasSuffix(p, ".mlir") {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	repo := len(files)
	for _, dir := range []string{"generic", "generic-loc", "pretty"} {
		m, _ := filepath.Glob(filepath.Join("..", "..", "shared", "conformance", "mlir", dir, "*.mlir"))
		files = append(files, m...)
	}
	if len(files) == repo {
		t.Logf("../shared/conformance/mlir not found: only the repository's %d files", repo)
	}
	clean := 0
	for _, f := range files {
		var stderr bytes.Buffer
		code := MainWith(DefaultConfig(), []string{"--verify-roundtrip", "--allow-unregistered-dialect", "--split-input-file", "-o", os.DevNull, f}, strings.NewReader(""), io.Discard, &stderr)
		if s := stderr.String(); strings.Contains(s, "cannot verify round-trip") || strings.Contains(s, "roundTrip testing") {
			t.Errorf("%s: the round trip failed:\n%s", f, s)
		}
		if code == 0 {
			clean++
		}
	}
	t.Logf("%d files (%d of the repository), %d without any error", len(files), repo, clean)
	if clean < len(files)/2 {
		t.Errorf("only %d of %d files ran without error: the corpus is not being parsed", clean, len(files))
	}
}
