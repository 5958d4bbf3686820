package optdriver

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestAgainstMLIROpt runs mlir-opt-19 and rlx-opt on each
// testdata/mlir-compat/*.mlir file with the flags of each of its leading
// `// ARGS: …` lines and requires identical stdout, stderr and exit codes. It
// covers what the driver itself does (split files, expected diagnostics,
// diagnostics rendering, output joining). It is skipped without mlir-opt-19.
func TestAgainstMLIROpt(t *testing.T) {
	mlirOpt, err := exec.LookPath("mlir-opt-19")
	if err != nil {
		t.Skip("mlir-opt-19 not installed")
	}
	files, _ := filepath.Glob("testdata/mlir-compat/*.mlir")
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		// Each leading `// ARGS:` line is one run.
		var runs [][]string
		for _, line := range strings.Split(string(src), "\n") {
			rest, ok := strings.CutPrefix(line, "// ARGS:")
			if !ok {
				break
			}
			runs = append(runs, strings.Fields(rest))
		}
		for i, args := range runs {
			name := filepath.Base(file)
			if len(runs) > 1 {
				name += "/" + strconv.Itoa(i)
			}
			compareWithMLIROpt(t, mlirOpt, file, name, args)
		}
	}
}

// compareWithMLIROpt runs both tools on file with args.
func compareWithMLIROpt(t *testing.T, mlirOpt, file, name string, args []string) {
	t.Run(name, func(t *testing.T) {
		dir := filepath.Dir(file)
		cmd := exec.Command(mlirOpt, append([]string{filepath.Base(file)}, args...)...)
		cmd.Dir = dir
		var mout, merr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &mout, &merr
		mcode := 0
		if err := cmd.Run(); err != nil {
			ee, ok := err.(*exec.ExitError)
			if !ok {
				t.Fatal(err)
			}
			mcode = ee.ExitCode()
		}
		var rout, rerr bytes.Buffer
		rcode := MainWith(testConfig(), append([]string{file}, args...), nil, &rout, &rerr)
		// rlx-opt ran from the package directory: make its paths relative.
		fix := func(s string) string { return strings.ReplaceAll(s, dir+"/", "") }
		if rcode != mcode || fix(rout.String()) != mout.String() || fix(rerr.String()) != merr.String() {
			t.Errorf("%v: rlx-opt differs from mlir-opt-19\nexit %d vs %d\n--- rlx stdout ---\n%s--- mlir stdout ---\n%s--- rlx stderr ---\n%s--- mlir stderr ---\n%s",
				args, rcode, mcode, fix(rout.String()), mout.String(), fix(rerr.String()), merr.String())
		}
	})
}

// TestGenerateReproducerAgainstMLIROpt runs both tools with
// --mlir-generate-reproducer under several flag sets and requires the same
// reproducer file and stdout: the IR after the passes, the pipeline under
// an `any` anchor, threading and verification at their defaults. It is
// skipped without mlir-opt-19.
func TestGenerateReproducerAgainstMLIROpt(t *testing.T) {
	mlirOpt, err := exec.LookPath("mlir-opt-19")
	if err != nil {
		t.Skip("mlir-opt-19 not installed")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in.mlir")
	src := "func.func private @dead()\nfunc.func @f() -> i32 {\n  %0 = \"t.c\"() : () -> i32\n  %1 = \"t.c\"() : () -> i32\n  return %0 : i32\n}\n"
	if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, flags := range [][]string{
		{"--symbol-dce"},
		{"--symbol-dce", "--mlir-print-debuginfo", "--mlir-print-op-generic"},
		{"--cse", "--canonicalize"},
		{"--pass-pipeline=builtin.module(func.func(cse),symbol-dce)"},
		{"--cse", "--verify-each=false", "--mlir-disable-threading"},
	} {
		args := append([]string{"--allow-unregistered-dialect", in}, flags...)
		mrepro, rrepro := filepath.Join(dir, "m.repro"), filepath.Join(dir, "r.repro")
		cmd := exec.Command(mlirOpt, append(args, "--mlir-generate-reproducer="+mrepro)...)
		var mout bytes.Buffer
		cmd.Stdout = &mout
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v: mlir-opt-19: %v", flags, err)
		}
		var rout, rerr bytes.Buffer
		if code := MainWith(testConfig(), append(args, "--mlir-generate-reproducer="+rrepro), nil, &rout, &rerr); code != 0 {
			t.Fatalf("%v: rlx-opt exited %d: %s", flags, code, rerr.String())
		}
		m, _ := os.ReadFile(mrepro)
		r, err := os.ReadFile(rrepro)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(m, r) || mout.String() != rout.String() {
			t.Errorf("%v: reproducers differ\n--- rlx-opt ---\n%s\n--- mlir-opt-19 ---\n%s", flags, r, m)
		}
	}
}
