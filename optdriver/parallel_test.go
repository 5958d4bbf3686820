package optdriver

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// manyFuncs returns a module of n functions with a few ops each.
func manyFuncs(n int) string {
	var sb strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&sb, "func.func @f%d(%%a: i32) -> i32 {\n", i)
		fmt.Fprintf(&sb, "  %%0 = \"test.op\"(%%a) {n = %d : i64} : (i32) -> i32\n", i)
		sb.WriteString("  %1 = \"test.op\"(%0, %a) : (i32, i32) -> i32\n")
		sb.WriteString("  return %1 : i32\n}\n")
	}
	return sb.String()
}

func runMain(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = MainWith(testConfig(), args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

// TestThreadsDeterministic runs func-anchored pipelines on a module of
// 1,000 functions with and without threads and requires byte-identical
// output, diagnostics, IR dumps and statistics.
func TestThreadsDeterministic(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "many.mlir")
	if err := os.WriteFile(in, []byte(manyFuncs(1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"work", []string{"-p", "builtin.module(func.func(test-func-work{iterations=3},test-analysis,test-emit-diag{severity=warning}),test-module-pass)",
			"--mlir-print-ir-after=test-func-work", "--mlir-pass-statistics"}, 0},
		{"flags", []string{"--test-func-work", "--test-emit-diag=severity=remark", "--test-func-work=iterations=2", "--mlir-print-debuginfo"}, 0},
		{"failure", []string{"-p", "builtin.module(func.func(test-func-work,test-emit-diag{severity=error}))", "--mlir-print-ir-after-failure"}, 1},
		{"invalid", []string{"-p", "builtin.module(func.func(test-pass-create-invalid-ir))"}, 1},
		{"panic", []string{"-p", "builtin.module(func.func(test-pass-crash))"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{in, "--allow-unregistered-dialect"}, tc.args...)
			seqOut, seqErr, seqCode := runMain(t, append(args, "--mlir-disable-threading")...)
			if seqCode != tc.code {
				t.Fatalf("sequential run exited %d, want %d\n%s", seqCode, tc.code, head(seqErr))
			}
			for i := 0; i < 3; i++ {
				out, errs, code := runMain(t, args...)
				if code != seqCode || out != seqOut || errs != seqErr {
					t.Fatalf("threaded run %d differs from the sequential one (exit %d vs %d)\nstdout equal: %v\nstderr (threads):\n%s\nstderr (no threads):\n%s",
						i, code, seqCode, out == seqOut, head(errs), head(seqErr))
				}
			}
		})
	}
}

func head(s string) string {
	lines := strings.SplitN(s, "\n", 12)
	if len(lines) == 12 {
		lines[11] = "..."
	}
	return strings.Join(lines, "\n")
}

func TestTiming(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.mlir")
	if err := os.WriteFile(in, []byte(manyFuncs(20)), 0o644); err != nil {
		t.Fatal(err)
	}
	// Enough work per function (milliseconds) that with threads two
	// functions run at the same time: the user-time column shows only when
	// the summed time differs from the wall time, as in MLIR.
	pipe := "builtin.module(func.func(test-func-work{iterations=20000},test-analysis),test-module-pass)"
	row := `    \d+\.\d{4} \(\s*\d+\.\d%\)`
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--mlir-timing", "--mlir-disable-threading"}, []string{
			`^===-{73}===$`,
			`^ {25}\.\.\. Execution time report \.\.\.$`,
			`^  Total Execution Time: \d+\.\d{4} seconds$`,
			`^  ----Wall Time----  ----Name----$`,
			"^" + row + `  Parser$`,
			"^" + row + `  'func.func' Pipeline$`,
			"^" + row + `    TestFuncWorkPass$`,
			"^" + row + `    TestAnalysisPass$`,
			"^" + row + `      \(A\) OpCount$`,
			"^" + row + `  TestModulePass$`,
			"^" + row + `  Output$`,
			"^" + row + `  Rest$`,
			"^" + row + `  Total$`,
		}},
		{[]string{"--mlir-timing", "--mlir-timing-display=list"}, []string{
			`^  ----User Time----  ----Wall Time----  ----Name----$`,
			"^" + row + row + `  \(A\) OpCount$`,
			"^" + row + row + `  Pipeline Collection : \['func.func'\]$`,
			"^" + row + row + `  Total$`,
		}},
		{[]string{"--mlir-timing", "--mlir-output-format=json", "--mlir-disable-threading"}, []string{
			`^\[$`,
			`^\{"wall": \{"duration": \d+\.\d{4}, "percentage": \d+\.\d\}, "name": "Parser"\},$`,
			`^\{"wall": .*"name": "'func.func' Pipeline", "passes": \[$`,
			`^  \{"wall": .*"name": "TestAnalysisPass", "passes": \[$`,
			`^    \{"wall": .*"name": "\(A\) OpCount"\}$`,
			`^\{"wall": .*"name": "Total"\}$`,
			`^\]$`,
		}},
	} {
		out, errs, code := runMain(t, append([]string{in, "--allow-unregistered-dialect", "-o", "/dev/null", "-p", pipe}, tc.args...)...)
		if code != 0 || out != "" {
			t.Fatalf("%v: exit %d, stdout %q, stderr:\n%s", tc.args, code, out, errs)
		}
		for _, w := range tc.want {
			if !regexp.MustCompile("(?m)" + w).MatchString(errs) {
				t.Errorf("%v: no line matching %s in:\n%s", tc.args, w, errs)
			}
		}
	}
}

func TestHelpListsEveryPass(t *testing.T) {
	out, _, code := runMain(t, "--help")
	if code != 0 {
		t.Fatalf("--help exited %d", code)
	}
	cfg := testConfig()
	for _, pi := range cfg.Passes {
		if !strings.Contains(out, "--"+pi.Argument+" ") {
			t.Errorf("--help does not list --%s", pi.Argument)
		}
	}
	for _, want := range []string{"--iterations=<int>", "(default: 1)", "(on 'func.func')", "--pass-pipeline=<string>", "--split-input-file[=<string>]", "=only-expected"} {
		if !strings.Contains(out, want) {
			t.Errorf("--help lacks %q", want)
		}
	}
	out, _, code = runMain(t, "--version")
	if code != 0 || !strings.HasPrefix(out, "rlx-opt version ") {
		t.Errorf("--version: exit %d, %q", code, out)
	}
}

// TestFailureKeepsDevices checks that a failing run removes its partial
// output file but never a device such as /dev/null.
func TestFailureKeepsDevices(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.mlir")
	if err := os.WriteFile(in, []byte("func.func @f() { return }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.mlir")
	if _, _, code := runMain(t, in, "-o", out, "-p", "builtin.module(test-pass-failure)"); code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("partial output %s was kept (%v)", out, err)
	}
	if _, _, code := runMain(t, in, "-o", os.DevNull, "-p", "builtin.module(test-pass-failure)"); code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	fi, err := os.Stat(os.DevNull)
	if err != nil || fi.Mode()&os.ModeDevice == 0 {
		t.Fatalf("%s is no longer a device: %v %v", os.DevNull, fi, err)
	}
}
