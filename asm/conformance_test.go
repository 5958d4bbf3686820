package asm_test

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/ir"
)

// corpusDirs are the MLIR conformance corpora: MLIR's own test files with
// mlir-opt 19's prints of each chunk (see their README files). Both live
// outside version control (upstream test files are not copied into the
// repository); a missing corpus is skipped.
// Failures are keyed by the corpus label and file name.
var corpusDirs = []struct{ label, dir string }{
	{"shared", filepath.Join("..", "..", "shared", "conformance", "mlir")},
	{"rlx", filepath.Join("..", "conformance", "mlir")},
}

// roundTrip parses src and prints it with opts, as rlx-opt
// --allow-unregistered-dialect does.
func roundTrip(name string, src []byte, opts ir.PrintOptions) (string, error) {
	ctx := newFuzzContext()
	f, err := asm.Parse(ctx, name, src, asm.Options{})
	if err != nil {
		return "", err
	}
	if err := ir.Verify(f.Op); err != nil {
		return "", err
	}
	return ir.Sprint(f.Op, opts), nil
}

// knownFailures reads testdata/conformance-known-failures.txt: lines of
// "category file reason".
func knownFailures(t *testing.T) map[string]string {
	f, err := os.Open(filepath.Join("testdata", "conformance-known-failures.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	known := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, " ", 3)
		if len(parts) < 3 {
			t.Fatalf("malformed known-failure line %q", line)
		}
		known[parts[0]+" "+parts[1]] = parts[2]
	}
	return known
}

// TestConformance checks the corpora: each generic/ file prints back byte
// for byte, each generic-loc/ file with locations, each pretty/ file
// parses and prints the matching generic/ file (when rlx knows its
// dialects), and the custom-form print of each generic file equals the
// pretty/ file (up to the trailing newline the corpus stripped). Failures
// not listed in testdata/conformance-known-failures.txt fail the test, and
// so do listed ones that now pass, so the list stays exact.
func TestConformance(t *testing.T) {
	known := knownFailures(t)
	seen := map[string]bool{}
	found := false
	present := map[string]bool{}
	for _, corpus := range corpusDirs {
		dir := corpus.dir
		if _, err := os.Stat(filepath.Join(dir, "generic")); err != nil {
			continue
		}
		found = true
		present[corpus.label] = true
		total := map[string][2]int{}
		files, _ := filepath.Glob(filepath.Join(dir, "generic", "*.mlir"))
		sort.Strings(files)
		for _, gen := range files {
			base := filepath.Base(gen)
			want, _ := os.ReadFile(gen)
			check := func(cat string, got string, err error, wantText string, normalize bool) {
				key := cat + " " + corpus.label + "/" + base
				seen[key] = true
				ok := err == nil && got == wantText
				if normalize && err == nil {
					ok = strings.TrimRight(got, "\n") == strings.TrimRight(wantText, "\n")
				}
				c := total[cat]
				c[1]++
				if ok {
					c[0]++
				}
				total[cat] = c
				reason, isKnown := known[key]
				switch {
				case ok && isKnown:
					t.Errorf("%s passes now; remove it from the known failures (%s)", key, reason)
				case !ok && !isKnown:
					if err != nil {
						t.Errorf("%s: %v", key, err)
					} else {
						t.Errorf("%s: output differs\n got:\n%s\nwant:\n%s", key, got, wantText)
					}
				}
			}
			got, err := roundTrip(gen, want, ir.PrintOptions{Generic: true})
			check("generic", got, err, string(want), false)
			if loc, err := os.ReadFile(filepath.Join(dir, "generic-loc", base)); err == nil {
				got, err := roundTrip(base, loc, ir.PrintOptions{Generic: true, DebugInfo: true})
				check("generic-loc", got, err, string(loc), false)
			}
			if pretty, err := os.ReadFile(filepath.Join(dir, "pretty", base)); err == nil {
				got, err := roundTrip(base, pretty, ir.PrintOptions{Generic: true})
				if err == nil || !unknownDialectError(err) {
					check("pretty-to-generic", got, err, string(want), false)
					if err == nil {
						got, err := roundTrip(base, want, ir.PrintOptions{})
						check("generic-to-pretty", got, err, string(pretty), true)
					}
				}
			}
		}
		for _, cat := range []string{"generic", "generic-loc", "pretty-to-generic", "generic-to-pretty"} {
			c := total[cat]
			t.Logf("%s: %s %d/%d", dir, cat, c[0], c[1])
		}
	}
	if !found {
		t.Skip("no conformance corpus found")
	}
	for key := range known {
		label, _, _ := strings.Cut(strings.SplitN(key, " ", 2)[1], "/")
		if present[label] && !seen[key] {
			t.Errorf("known failure %q is not in any corpus", key)
		}
	}
}

// unknownDialectError reports whether err is about the custom syntax of a
// dialect rlx does not register (arith, scf, memref, MLIR's test dialect):
// such pretty files cannot be read by any tool without that dialect.
func unknownDialectError(err error) bool {
	return strings.Contains(err.Error(), "not found for custom op")
}

// TestMLIROptAcceptsOutput feeds rlx's generic print of every corpus file
// to mlir-opt-19 in one --split-input-file run and checks it reads them
// all. Known failures are left out: their opaque test-dialect attributes
// refer to aliases rlx does not print.
func TestMLIROptAcceptsOutput(t *testing.T) {
	mlirOpt, err := exec.LookPath("mlir-opt-19")
	if err != nil {
		t.Skip("mlir-opt-19 not on PATH; install Debian's mlir-19-tools to run this check")
	}
	known := knownFailures(t)
	var all bytes.Buffer
	n := 0
	for _, corpus := range corpusDirs {
		files, _ := filepath.Glob(filepath.Join(corpus.dir, "generic", "*.mlir"))
		for _, gen := range files {
			if _, bad := known["generic "+corpus.label+"/"+filepath.Base(gen)]; bad {
				continue
			}
			src, _ := os.ReadFile(gen)
			got, err := roundTrip(gen, src, ir.PrintOptions{Generic: true})
			if err != nil {
				continue
			}
			if n > 0 {
				all.WriteString("\n// -----\n")
			}
			all.WriteString(got)
			n++
		}
	}
	if n == 0 {
		t.Skip("no corpus")
	}
	cmd := exec.Command(mlirOpt, "--allow-unregistered-dialect", "--split-input-file", "--mlir-print-op-generic", "-")
	cmd.Stdin = &all
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("mlir-opt-19 rejected rlx output: %v\n%s", err, firstLines(stderr.String(), 20))
	}
	t.Logf("mlir-opt-19 accepted %d printed files", n)
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
