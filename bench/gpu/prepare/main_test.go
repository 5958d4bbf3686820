package main

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlx-compiler/rlx/codegen/metal"
)

// The device driver's scripts only run on the GPU machine, which CI never
// reaches: these tests check here what can be checked without a GPU.

// TestScriptsParse parses the Python scripts and run.sh (a syntax error
// would otherwise first show in a device call).
func TestScriptsParse(t *testing.T) {
	python := lookPath(t, "python3")
	for _, f := range []string{"check.py", "bench.py", "report.py", "ncu.py"} {
		src := filepath.Join("..", f)
		if out, err := exec.Command(python, "-c", "import ast, sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])", src).CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", f, err, out)
		}
	}
	bash := lookPath(t, "bash")
	if out, err := exec.Command(bash, "-n", filepath.Join("..", "run.sh")).CombinedOutput(); err != nil {
		t.Errorf("run.sh: %v\n%s", err, out)
	}
}

// TestReportReproducesRuns rebuilds report.md from the results.json of
// committed device runs with report.py and compares it with the
// report.md the run wrote, so that report.py cannot drift from the
// results it reads. Run 11c was written before report.py rendered the
// profile stage's counters: its report is the run's report.md followed
// by testdata/run11c-counters.md.
func TestReportReproducesRuns(t *testing.T) {
	python := lookPath(t, "python3")
	for _, run := range []struct{ dir, extra string }{
		{"run10f", ""},
		{filepath.Join("run10g", "a"), ""},
		{"run11c", filepath.Join("testdata", "run11c-counters.md")},
		{"run11e", ""},
		{"run12d", ""},
		{"run12f", ""},
		{"run13b", ""},
		{filepath.Join("run14a", "n32"), ""},
		{filepath.Join("run14b", "f32"), ""},
	} {
		dir := filepath.Join("..", "results", run.dir)
		out := t.TempDir()
		script := "import json, sys; sys.path.insert(0, sys.argv[1]); import report; " +
			"report.write(json.load(open(sys.argv[2])), sys.argv[3])"
		cmd := exec.Command(python, "-c", script, "..", filepath.Join(dir, "results.json"), out)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: report.py: %v\n%s", run.dir, err, msg)
		}
		got, err := os.ReadFile(filepath.Join(out, "report.md"))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(dir, "report.md"))
		if err != nil {
			t.Fatal(err)
		}
		if run.extra != "" {
			extra, err := os.ReadFile(run.extra)
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, extra...)
		}
		if d := cmp.Diff(string(want), string(got)); d != "" {
			t.Errorf("%s: report.py's report.md differs from the run's (-run +report.py):\n%s", run.dir, d)
		}
	}
}

// TestNCUParse runs ncu.py on run 10a's raw ncu output and compares the
// launches with those the profile stage stored in that run's
// results.json (parsed on the device, by the same code then inline in
// check.py).
func TestNCUParse(t *testing.T) {
	python := lookPath(t, "python3")
	dir := filepath.Join("..", "results", "run10a")
	f, err := os.Open(filepath.Join(dir, "profile.csv.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, filepath.Join("..", "ncu.py"))
	cmd.Stdin = zr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ncu.py: %v", err)
	}
	var got []any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Profile struct {
			Launches []any `json:"launches"`
		} `json:"profile"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	if len(got) != 20 {
		t.Errorf("%d launches parsed, want 20 (seven cases, two sets each, split kernels twice)", len(got))
	}
	if d := cmp.Diff(res.Profile.Launches, got); d != "" {
		t.Errorf("ncu.py's launches differ from run 10a's results.json (-stored +parsed):\n%s", d)
	}
}

func lookPath(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("skipping: %s not found", name)
	}
	return p
}

// TestRunRejectsMSLVersion: -msl-version must name a version the emitter
// targets and -gemv-layout a layout
// targets (checked before the output directory is emptied: a file in it
// survives), and one with bfloat (the small suite has bf16 cases).
func TestRunRejectsMSLVersion(t *testing.T) {
	t.Chdir(filepath.Join("..", "..", ".."))
	dir := t.TempDir()
	keep := filepath.Join(dir, "keep")
	if err := os.WriteFile(keep, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(dir, 1, true, "", metal.Options{MSLVersion: "3.9", GEMVLayout: "auto"}); err == nil || !strings.Contains(err.Error(), "-msl-version: '3.9' is not one of") {
		t.Errorf("-msl-version 3.9: got %v", err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("-msl-version 3.9 emptied the output directory: %v", err)
	}
	if err := run(dir, 1, true, "", metal.Options{MSLVersion: "3.1", GEMVLayout: "rows"}); err == nil || !strings.Contains(err.Error(), "-gemv-layout: 'rows' is not one of auto, wide, narrow") {
		t.Errorf("-gemv-layout rows: got %v", err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("-gemv-layout rows emptied the output directory: %v", err)
	}
	if err := run(t.TempDir(), 1, true, "", metal.Options{MSLVersion: "3.0", GEMVLayout: "auto"}); err == nil || !strings.Contains(err.Error(), "bf16 needs msl-version 3.1 or later") {
		t.Errorf("-msl-version 3.0: got %v", err)
	}
}
