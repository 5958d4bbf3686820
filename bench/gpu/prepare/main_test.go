package main

import (
	"archive/tar"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"io"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlx-compiler/rlx/bench/gpu/suite"
	"github.com/rlx-compiler/rlx/codegen/metal"
)

// The device driver's scripts only run on the GPU machine, which CI never
// reaches: these tests check here what can be checked without a GPU.

// TestScriptsParse parses the Python scripts and the shell scripts (a syntax error
// would otherwise first show in a device call).
func TestScriptsParse(t *testing.T) {
	python := lookPath(t, "python3")
	for _, f := range []string{"check.py", "bench.py", "report.py", "ncu.py", "timeline.py", "banks.py"} {
		src := filepath.Join("..", f)
		if out, err := exec.Command(python, "-c", "import ast, sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])", src).CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", f, err, out)
		}
	}
	bash := lookPath(t, "bash")
	for _, f := range []string{"run.sh", "ab.sh", "variant.sh", "next.sh"} {
		if out, err := exec.Command(bash, "-n", filepath.Join("..", f)).CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", f, err, out)
		}
	}
}

// TestABScript runs bench/gpu/ab.sh here with a stand-in for a prepared
// variant's run.sh (one that writes a report.md of two rows): the script
// must refuse to start without VARIANTS, and otherwise run each variant's
// bench stage once a round, print the rows $SHOW names and bring every
// report and log back in one archive.
func TestABScript(t *testing.T) {
	bash := lookPath(t, "bash")
	lookPath(t, "tar")
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "ab.sh"))
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "ab.sh")
	if err := os.WriteFile(script, src, 0o755); err != nil {
		t.Fatal(err)
	}
	stub := `mkdir -p "$OUT"
printf '| gemv_f16_4096x4096 | a | b | c | 11.2 | d | 0.72 |\n| dequant_gemv_q8_0_4096x14336 | 512 × 128 | b | c | 21.3 | d | 0.70 |\n| dequant_q8_0_1x21x8192 | dequant_gemv_q8_0_7 | 1e-12 |\n| dequant_gemv_q8_0_2 | 1952 | 428 | 310 |\nargs: %s\n' "$*" >"$OUT/report.md"
`
	if err := os.MkdirAll(filepath.Join(dir, "A"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "A", "run.sh"), []byte(stub), 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(env ...string) (string, error) {
		cmd := exec.Command(bash, script)
		cmd.Env = append(os.Environ(), "TMPDIR="+dir, "OUT="+filepath.Join(dir, "out"), "VARIANTS=", "NCU=", "SHOW=")
		cmd.Env = append(cmd.Env, env...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	if out, err := run(); err == nil || !strings.Contains(out, "VARIANTS") {
		t.Fatalf("without VARIANTS: want a failure naming VARIANTS, got %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "ab.tar.gz")); err == nil {
		t.Fatal("without VARIANTS the script still wrote ab.tar.gz")
	}

	out, err := run("VARIANTS=A", "ROUNDS=2", "SHOW=q8_0")
	if err != nil {
		t.Fatalf("ab.sh: %v\n%s", err, out)
	}
	for _, want := range []string{"== A1", "== A2", " dequant_gemv_q8_0_4096x14336   21.3   0.70 "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The SASS count, once (the first round), and no other table's rows.
	if n := strings.Count(out, " sass "); n != 1 || !strings.Contains(out, " sass  dequant_gemv_q8_0_2   1952 \n") {
		t.Errorf("want one sass line for dequant_gemv_q8_0_2, got %d:\n%s", n, out)
	}
	if strings.Contains(out, "gemv_f16") {
		t.Errorf("SHOW=q8_0 printed the f16 row:\n%s", out)
	}
	files := map[string]string{}
	tr := tar.NewReader(gunzip(t, filepath.Join(dir, "out", "ab.tar.gz")))
	for {
		h, err := tr.Next()
		if err != nil {
			break
		}
		b := new(strings.Builder)
		if _, err := io.Copy(b, tr); err != nil {
			t.Fatal(err)
		}
		files[h.Name] = b.String()
	}
	for _, name := range []string{"./A1.log", "./A2.log", "./A1/report.md", "./A2/report.md"} {
		if _, ok := files[name]; !ok {
			t.Errorf("ab.tar.gz lacks %s (has %v)", name, slices.Sorted(maps.Keys(files)))
		}
	}
	if got := files["./A1/report.md"]; !strings.Contains(got, "args: full --budget 150 --only bench,sass\n") {
		t.Errorf("run.sh was not asked for the bench and sass stages alone:\n%s", got)
	}
	if got := files["./A2/report.md"]; !strings.Contains(got, "args: full --budget 150 --only bench\n") {
		t.Errorf("run.sh was not asked for the bench stage alone after the first round:\n%s", got)
	}
}

// TestVariantScript runs bench/gpu/variant.sh in a scratch repository with
// a stand-in for prepare (one that copies a file of the worktree into
// its output beside files of every suite): the variant must carry the
// patched file, be trimmed to the real suite (or, with FULL=1, to what a
// full check needs), leave no worktree behind, and fail, writing
// nothing, on a patch that does not apply or a name that is a path.
func TestVariantScript(t *testing.T) {
	bash := lookPath(t, "bash")
	git := lookPath(t, "git")
	repo := t.TempDir()
	run := func(dir string, env []string, name string, args ...string) (string, error) {
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		cmd.Env = append(cmd.Env, env...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	must := func(out string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
	}
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ab, err := os.ReadFile(filepath.Join("..", "ab.sh"))
	if err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(repo, "bench", "gpu", "ab.sh"), string(ab))
	write(filepath.Join(repo, "emitter.txt"), "old\n")
	must(run(repo, nil, git, "init", "-q"))
	must(run(repo, nil, git, "add", "."))
	must(run(repo, nil, git, "commit", "-q", "-m", "base"))
	write(filepath.Join(repo, "emitter.txt"), "new\n")
	patch, err := run(repo, nil, git, "diff")
	must(patch, err)
	must(run(repo, nil, git, "checkout", "emitter.txt"))
	scratch := t.TempDir()
	good := filepath.Join(scratch, "good.patch")
	write(good, patch)
	bad := filepath.Join(scratch, "bad.patch")
	write(bad, strings.ReplaceAll(patch, "-old", "-gone"))
	prep := filepath.Join(scratch, "prep.sh")
	write(prep, `out=${@: -1}
mkdir -p "$out"
cp emitter.txt "$out/"
for f in real.metal real.json real.expect real_part0.cu small.jobs small.expect planted.metal probe.metal tune2048.metal short.jobs fillcheck.bin run.sh; do
  echo x >"$out/$f"
done
`)
	env := []string{"PREPARE=bash " + prep, "TMPDIR=" + scratch}
	script, err := filepath.Abs(filepath.Join("..", "variant.sh"))
	if err != nil {
		t.Fatal(err)
	}
	listing := func(dir string) []string {
		t.Helper()
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names
	}

	must(run(repo, env, bash, script, "V", good))
	if b, err := os.ReadFile(filepath.Join(repo, ".devcarry", "V", "emitter.txt")); err != nil || string(b) != "new\n" {
		t.Errorf("the variant's emitter.txt is %q (%v), want the patched \"new\"", b, err)
	}
	if got, want := listing(filepath.Join(repo, ".devcarry", "V")), []string{"emitter.txt", "real.json", "real_part0.cu", "run.sh"}; !slices.Equal(got, want) {
		t.Errorf("trimmed variant holds %v, want %v", got, want)
	}
	if _, err := os.Stat(filepath.Join(repo, ".devcarry", "ab.sh")); err != nil {
		t.Errorf("ab.sh was not copied beside the variant: %v", err)
	}
	must(run(repo, append(env, "FULL=1"), bash, script, "W"))
	if got, want := listing(filepath.Join(repo, ".devcarry", "W")), []string{"emitter.txt", "fillcheck.bin", "planted.metal", "real.expect", "real.json", "real_part0.cu", "run.sh", "short.jobs", "small.expect", "small.jobs"}; !slices.Equal(got, want) {
		t.Errorf("FULL=1 variant holds %v, want %v", got, want)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, ".devcarry", "W", "emitter.txt")); string(b) != "old\n" {
		t.Errorf("a variant without patches has emitter.txt %q, want HEAD's", b)
	}

	out, err := run(repo, env, bash, script, "B", bad)
	if err == nil || !strings.Contains(out, "does not apply") {
		t.Errorf("a patch that does not apply: want a failure saying so, got %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(repo, ".devcarry", "B")); err == nil {
		t.Error("a failed variant was still written")
	}
	out, err = run(repo, env, bash, script, "../B")
	if err == nil || !strings.Contains(out, "plain directory name") {
		t.Errorf("a name that is a path: want a failure, got %v\n%s", err, out)
	}
	out, err = run(repo, env, bash, script, "M", filepath.Join(scratch, "missing.patch"))
	if err == nil || !strings.Contains(out, "no patch file") {
		t.Errorf("a patch file that does not exist: want a failure naming it, got %v\n%s", err, out)
	}
	out, err = run(repo, []string{"PREPARE=false", "TMPDIR=" + scratch}, bash, script, "P")
	if err == nil {
		t.Errorf("a prepare that fails: want a failure, got none\n%s", out)
	}
	for _, v := range []string{"M", "P"} {
		if _, err := os.Stat(filepath.Join(repo, ".devcarry", v)); err == nil {
			t.Errorf("failed variant %s was still written", v)
		}
	}
	out, err = run(repo, nil, git, "worktree", "list")
	must(out, err)
	if n := strings.Count(strings.TrimSpace(out), "\n") + 1; n != 1 {
		t.Errorf("worktrees left behind:\n%s", out)
	}
}

// TestBanksModel runs bench/gpu/banks.py and checks the figures that
// docs/gpu-check.md (run 26) quotes from it, so that a change to the
// model cannot leave the page behind.
func TestBanksModel(t *testing.T) {
	python := lookPath(t, "python3")
	out, err := exec.Command(python, filepath.Join("..", "banks.py")).CombinedOutput()
	if err != nil {
		t.Fatalf("banks.py: %v\n%s", err, out)
	}
	for _, want := range []string{
		"committed (2 lanes)    0.0195",
		"8 lanes a block        0.0156",
		"16-byte aligned tile   0.0059",
		"stores, raw units      0.0044",
		"stores, re-laid        0.0377",
		"committed at 14336x4096: 1146880 wavefronts, 573440 requests",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("banks.py's output lacks %q:\n%s", want, out)
		}
	}
}

// TestVariantPatchesApply: every patch in bench/gpu/variants applies to
// the tree (git apply --check), so that the prepared experiments cannot
// silently go stale.
func TestVariantPatchesApply(t *testing.T) {
	git := lookPath(t, "git")
	patches, err := filepath.Glob(filepath.Join("..", "variants", "*.patch"))
	if err != nil {
		t.Fatal(err)
	}
	if len(patches) == 0 {
		t.Fatal("no patches in bench/gpu/variants")
	}
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range patches {
		abs, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(git, "apply", "--check", abs)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s no longer applies: %v\n%s", filepath.Base(p), err, out)
		}
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
		{filepath.Join("run16b", "LW_F"), ""},
		{filepath.Join("run17b", "E2_F"), ""},
		{filepath.Join("run17c", "FIN_F"), ""},
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
	cmd := exec.Command(python, filepath.Join("..", "ncu.py"))
	cmd.Stdin = gunzip(t, filepath.Join(dir, "profile.csv.gz"))
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

// pythonWith returns a python3 that imports module: the one on PATH, or
// the system's (/usr/bin/python3, where Debian's packages install) when
// PATH's (a pyenv, say) lacks it; the test skips when neither has it.
func pythonWith(t *testing.T, module, hint string) string {
	t.Helper()
	for _, name := range []string{"python3", "/usr/bin/python3"} {
		if p, err := exec.LookPath(name); err == nil && exec.Command(p, "-c", "import "+module).Run() == nil {
			return p
		}
	}
	t.Skipf("skipping: no python3 with %s (%s)", module, hint)
	return ""
}

// gunzip opens the gzip file at path for reading, closed when the test
// ends.
func gunzip(t *testing.T, path string) *gzip.Reader {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	return zr
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
// targets, one with bfloat (the small suite has bf16 cases), and
// -gemv-layout a layout; both are checked before the output directory is
// emptied (a file in it survives).
func TestRunRejectsMSLVersion(t *testing.T) {
	t.Chdir(filepath.Join("..", "..", ".."))
	dir := t.TempDir()
	keep := filepath.Join(dir, "keep")
	if err := os.WriteFile(keep, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(dir, 1, true, "", randomSeeds{}, metal.Options{MSLVersion: "3.9", GEMVLayout: "auto"}); err == nil || !strings.Contains(err.Error(), "-msl-version: '3.9' is not one of") {
		t.Errorf("-msl-version 3.9: got %v", err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("-msl-version 3.9 emptied the output directory: %v", err)
	}
	if err := run(dir, 1, true, "", randomSeeds{}, metal.Options{MSLVersion: "3.1", GEMVLayout: "rows"}); err == nil || !strings.Contains(err.Error(), "-gemv-layout: 'rows' is not one of auto, wide, narrow, deep") {
		t.Errorf("-gemv-layout rows: got %v", err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("-gemv-layout rows emptied the output directory: %v", err)
	}
	if err := run(t.TempDir(), 1, true, "", randomSeeds{}, metal.Options{MSLVersion: "3.0", GEMVLayout: "auto"}); err == nil || !strings.Contains(err.Error(), "bf16 needs msl-version 3.1 or later") {
		t.Errorf("-msl-version 3.0: got %v", err)
	}
}

// TestCompareFindsProblems runs check.py's compare, which judges every
// job the GPU ran, on a result file written here: a clean job passes, and
// a status word, an arrival counter left above 0, written guard bytes, a
// result off the reference, an element never written and a job the runner
// never reached each fail with their own message. (It needs python3 with
// numpy: .ci/run installs python3-numpy.)
func TestCompareFindsProblems(t *testing.T) {
	python := pythonWith(t, "numpy", "Debian's python3-numpy; .ci/run installs it")
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "check.py"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "check.py"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	f32s := func(vs ...float32) []byte {
		b := make([]byte, 0, 4*len(vs))
		for _, v := range vs {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
		}
		return b
	}
	u32s := func(vs ...uint32) []byte {
		b := make([]byte, 0, 4*len(vs))
		for _, v := range vs {
			b = binary.LittleEndian.AppendUint32(b, v)
		}
		return b
	}
	want := f32s(1, 2, 3, 4)
	type buf struct {
		data          []byte
		before, after uint32
	}
	jobs := []struct {
		name string
		bufs []buf // the output, then the status words
		msg  string
		ill  bool // the output marked ill-conditioned: its NMSE is not judged
	}{
		{"clean", []buf{{data: want}, {data: u32s(0, 0)}}, "", false},
		{"status_word", []buf{{data: want}, {data: u32s(1, 0)}}, "status word 0x1", false},
		{"counter_left", []buf{{data: want}, {data: u32s(0, 0, 2)}}, "arrival counter 1 left at 2", false},
		{"guards", []buf{{data: want, after: 4}, {data: u32s(0)}}, "buffer 0 (output): 0 guard bytes before and 4 after it were written", false},
		{"off", []buf{{data: f32s(1, 2, 3, 5)}, {data: u32s(0)}}, "result #0: NMSE", false},
		{"unwritten", []buf{{data: append(f32s(1, 2, 3), 0xff, 0xff, 0xff, 0xff)}, {data: u32s(0)}}, "result #0: 1 elements never written", false},
		{"ill_off", []buf{{data: f32s(1, 2, 3, 5)}, {data: u32s(0)}}, "", true},
		{"ill_unwritten", []buf{{data: append(f32s(1, 2, 3), 0xff, 0xff, 0xff, 0xff)}, {data: u32s(0)}}, "result #0: 1 elements never written", true},
	}
	type jbuf struct {
		ID   int    `json:"id"`
		Role string `json:"role"`
	}
	type out struct {
		Buffer int    `json:"buffer"`
		Index  int    `json:"index"`
		Type   string `json:"type"`
		Offset int    `json:"offset"`
		Bytes  int    `json:"bytes"`
		Stride int    `json:"stride"`
		Ill    bool   `json:"ill_conditioned,omitempty"`
	}
	type kase struct {
		Name       string           `json:"name"`
		Job        int              `json:"job"`
		Limit      float64          `json:"limit"`
		Buffers    []jbuf           `json:"buffers"`
		Dispatches []map[string]any `json:"dispatches"`
		Outputs    []out            `json:"outputs"`
		Status     int              `json:"status"`
	}
	var index struct {
		Cases []kase `json:"cases"`
	}
	res := append([]byte("RLXCUR1\n"), u32s(uint32(len(jobs)))...)
	for i, j := range jobs {
		index.Cases = append(index.Cases, kase{Name: j.name, Job: i, Limit: 1e-6,
			Buffers:    []jbuf{{0, "output"}, {1, "status"}},
			Dispatches: []map[string]any{{"kernel": "k"}},
			Outputs:    []out{{Buffer: 0, Type: "tensor<4xf32>", Bytes: 16, Stride: 1, Ill: j.ill}},
			Status:     1})
		res = append(res, u32s(uint32(len(j.bufs)))...)
		for _, b := range j.bufs {
			res = binary.LittleEndian.AppendUint64(res, uint64(len(b.data)))
			res = append(res, u32s(b.before, b.after)...)
			res = append(res, b.data...)
		}
	}
	// A case whose job the runner never reached.
	index.Cases = append(index.Cases, kase{Name: "stopped", Job: len(jobs), Limit: 1e-6, Status: -1,
		Dispatches: []map[string]any{{"kernel": "k"}}})
	js, err := json.Marshal(index)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"t.json": js, "t.results": res, "t.expect": want} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	script := "import json, sys; sys.path.insert(0, sys.argv[1]); import check; " +
		"r = check.compare('t', sys.argv[1] + '/t.results', sys.argv[1] + '/t.expect'); " +
		"r['cases'] = [{k: c[k] for k in ('name', 'pass', 'problems')} for c in r['cases']]; print(json.dumps(r))"
	got := runScript(t, python, script, dir)
	var report struct {
		Cases []struct {
			Name     string   `json:"name"`
			Pass     bool     `json:"pass"`
			Problems []string `json:"problems"`
		} `json:"cases"`
		Passed int `json:"passed"`
		Total  int `json:"total"`
		Ill    int `json:"ill_conditioned"`
	}
	if err := json.Unmarshal(got, &report); err != nil {
		t.Fatalf("%v\n%s", err, got)
	}
	msgs := map[string]string{"stopped": "the runner stopped before this job"}
	for _, j := range jobs {
		msgs[j.name] = j.msg
	}
	if report.Total != len(msgs) || report.Passed != 2 || report.Ill != 2 {
		t.Errorf("%d of %d passed with %d ill-conditioned results, want 2 of %d with 2", report.Passed, report.Total, report.Ill, len(msgs))
	}
	for _, c := range report.Cases {
		msg := msgs[c.Name]
		if msg == "" {
			if !c.Pass || len(c.Problems) != 0 {
				t.Errorf("%s: pass %v, problems %q; want a pass", c.Name, c.Pass, c.Problems)
			}
			continue
		}
		if c.Pass || !slices.ContainsFunc(c.Problems, func(p string) bool { return strings.HasPrefix(p, msg) }) {
			t.Errorf("%s: pass %v, problems %q; want one starting %q", c.Name, c.Pass, c.Problems, msg)
		}
	}
}

// TestReportTimingOnly renders a timing-only call's results (run 14d:
// env, build and tune, nothing checked) with report.py: the report has
// its tuning table and no correctness or sanitizer sections for stages
// that did not run.
func TestReportTimingOnly(t *testing.T) {
	python := lookPath(t, "python3")
	out := t.TempDir()
	script := "import json, sys; sys.path.insert(0, sys.argv[1]); import report; " +
		"report.write(json.load(open(sys.argv[2])), sys.argv[3])"
	cmd := exec.Command(python, "-c", script, "..", filepath.Join("..", "results", "run14d", "t311", "results.json"), out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("report.py: %v\n%s", err, msg)
	}
	got, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Tuning", "| tune2048 | gemv_f16_4096x4096 | 2048 × 128 + 128 × 256 | 34.6 | 13.1 | 0.60 |"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	for _, not := range []string{"## Correctness", "## Sanitizers", "not run"} {
		if strings.Contains(string(got), not) {
			t.Errorf("a timing-only report has %q", not)
		}
	}
}

// TestPresentSuites: check.py builds the suites prepare wrote and no
// others — a -skip-real directory has no real suite, and its build must
// not ask for one (run 14d's first call built nothing).
func TestPresentSuites(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"small_table.cu", "planted_table.cu", "tune4096_table.cu", "random_table.cu", "tune1024_table.cu", "tune1024.json", "small_part0.cu"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := runCheckPy(t, "print(' '.join(check.present_suites(sys.argv[1])))", dir)
	if got, want := strings.TrimSpace(out), "small planted random tune1024 tune4096"; got != want {
		t.Errorf("present_suites: %q, want %q", got, want)
	}
}

// TestMissingInputRecorded checks that a stage the call asks for whose
// input was not carried is recorded as skipped, with the file named (run
// 15's full checks left probe.jobs out and the probe stage vanished from
// the results), and that a stage the call did not ask for is not.
func TestMissingInputRecorded(t *testing.T) {
	out := runCheckPy(t, "R = check.Results(sys.argv[1], ['probe']); "+
		"R.stage('probe', lambda: 1 / 0, needs='probe.jobs'); "+
		"R.stage('sanitize_real_split', lambda: 1 / 0, needs='real-split.jobs'); "+
		"print(json.dumps(json.load(open(sys.argv[1] + '/results.json'))['stages'], sort_keys=True))", t.TempDir())
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := `{"probe": {"seconds": 0, "status": "skipped: probe.jobs not carried"}}`
	if last := lines[len(lines)-1]; last != want {
		t.Errorf("stages: %s, want %s", last, want)
	}
}

// runCheckPy runs script with python3 after importing check.py (from
// bench/gpu, with json and sys imported) and returns its output; args
// are sys.argv[1:]. check.py imports numpy at the top; a stand-in lets
// these tests run without it. The test skips without python3.
func runCheckPy(t *testing.T, script string, args ...string) string {
	t.Helper()
	python := lookPath(t, "python3")
	stub := t.TempDir()
	if err := os.WriteFile(filepath.Join(stub, "numpy.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	pre := "import json, sys; sys.path.insert(0, " + strconv.Quote(stub) + "); sys.path.insert(0, '..'); import check; "
	out, err := exec.Command(python, append([]string{"-c", pre + script}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return string(out)
}

// TestTimelineSummarize re-summarizes run 16's stored timeline (raw
// stamps and sites, as timeline.py --json wrote them on the GPU) and
// compares the table with the one that run printed.
func TestTimelineSummarize(t *testing.T) {
	python := lookPath(t, "python3")
	dir := filepath.Join("..", "results", "run16")
	out, err := exec.Command(python, filepath.Join("..", "timeline.py"), "--summarize", filepath.Join(dir, "tl_RH.json")).CombinedOutput()
	if err != nil {
		t.Fatalf("timeline.py --summarize: %v\n%s", err, out)
	}
	want, err := os.ReadFile(filepath.Join(dir, "tl_RH.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != string(want) {
		t.Errorf("timeline.py --summarize differs from run 16's table:\n%s\nwant:\n%s", out, want)
	}
}

// TestSassCounts: check.py's sass_counts on run 27d's excerpt of a
// q4_0 kernel's SASS under a function header, beside a kernel of another
// family (not counted) and a GEMV whose load is predicated: static
// counts by base opcode, their total, and the loads by width; and
// report.py's table of them for the dequantising GEMVs only.
func TestSassCounts(t *testing.T) {
	excerpt, err := os.ReadFile(filepath.Join("..", "results", "run27d", "N_q4_0_excerpt.sass"))
	if err != nil {
		t.Fatal(err)
	}
	text := "\tcode for sm_90\n\t\tFunction : rlx_k_dequant_gemv_q4_0_2\n" + string(excerpt) +
		"\t\tFunction : rlx_k_ew_0\n        /*0000*/                   FFMA R1, R2, R3, R4 ;\n" +
		"\t\tFunction : rlx_k_gemv_0\n        /*0000*/                   @!P0 LDG.E.128 R4, desc[UR4][R2.64] ;  /* 0x000fe20000000f00 */\n" +
		"                                                                 /* 0x000fe20000000f00 */\n" +
		"        /*0010*/                   EXIT ;\n"
	file := filepath.Join(t.TempDir(), "sass.txt")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out := runCheckPy(t, "r = check.sass_counts(open(sys.argv[1]).read(), ('gemv', 'dequant_gemv')); "+
		"print(json.dumps(r, sort_keys=True)); "+
		"import report; print('\\n'.join(report.sass_lines(r)))", file)
	lines := strings.SplitN(out, "\n", 2)
	var got map[string]struct {
		Opcodes      map[string]int `json:"opcodes"`
		Instructions int            `json:"instructions"`
		LDSU16       int            `json:"LDS.U16"`
		LDG128       int            `json:"LDG.E.128"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if _, ok := got["ew_0"]; ok || len(got) != 2 {
		t.Errorf("kernels: %v, want dequant_gemv_q4_0_2 and gemv_0", slices.Sorted(maps.Keys(got)))
	}
	q := got["dequant_gemv_q4_0_2"]
	want := map[string]int{"LOP3": 20, "FFMA": 10, "IMAD": 5, "LDS": 4, "FADD": 2}
	for op, n := range want {
		if q.Opcodes[op] != n {
			t.Errorf("q4_0 %s: %d, want %d", op, q.Opcodes[op], n)
		}
	}
	if q.Instructions != 41 || q.LDSU16 != 4 {
		t.Errorf("q4_0: %d instructions and %d LDS.U16, want 41 and 4", q.Instructions, q.LDSU16)
	}
	g := got["gemv_0"]
	if g.Instructions != 2 || g.Opcodes["LDG"] != 1 || g.Opcodes["EXIT"] != 1 || g.LDG128 != 1 {
		t.Errorf("gemv_0: %+v, want 2 instructions, LDG and EXIT once, one LDG.E.128", g)
	}
	table := lines[1]
	if !strings.Contains(table, "| dequant_gemv_q4_0_2 | 41 | 20 | 2 | 10 | 5 | 0 | 4 | 0 |") {
		t.Errorf("report.sass_lines lacks the q4_0 row:\n%s", table)
	}
	if strings.Contains(table, "gemv_0") {
		t.Errorf("report.sass_lines has a kernel other than the dequantising GEMVs:\n%s", table)
	}
}

// TestSassFailsLoudly: the sass stage with a cuobjdump that fails
// raises (the stage records the error) instead of returning no kernels.
func TestSassFailsLoudly(t *testing.T) {
	bin := t.TempDir()
	stub := "#!/bin/sh\necho 'cuobjdump fatal: no such file' >&2\nexit 2\n"
	if err := os.WriteFile(filepath.Join(bin, "cuobjdump"), []byte(stub), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	out := runCheckPy(t, `exec("try:\n    print(check.sass(sys.argv[1]))\nexcept RuntimeError as e:\n    print('raised', e)")`, t.TempDir())
	if !strings.Contains(out, "raised cuobjdump -sass libreal.so: exit 2: cuobjdump fatal: no such file") {
		t.Errorf("a failing cuobjdump: %s", out)
	}
}

// TestRandomSuiteWritten: -random N writes the random suite beside the
// others, one case a function named by its seed, which check.py then
// builds (present_suites) and judges (its correct_random stage).
func TestRandomSuiteWritten(t *testing.T) {
	t.Chdir(filepath.Join("..", "..", ".."))
	dir := t.TempDir()
	if err := run(dir, 1, true, "", randomSeeds{first: 4, n: 3}, metal.Options{MSLVersion: "3.1", GEMVLayout: "auto"}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "random.json"))
	if err != nil {
		t.Fatal(err)
	}
	var index struct {
		Cases []struct {
			Name    string `json:"name"`
			Outputs []any  `json:"outputs"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &index); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range index.Cases {
		names = append(names, c.Name)
		if len(c.Outputs) == 0 {
			t.Errorf("%s: no outputs", c.Name)
		}
	}
	if want := []string{"g4", "g5", "g6"}; !slices.Equal(names, want) {
		t.Errorf("random suite cases %v, want %v", names, want)
	}
	for _, f := range []string{"random.jobs", "random.expect", "random_table.cu", "random_part0.cu"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}

// TestCompareRandomSuite runs check.py's compare on the random suite of
// 120 functions with a result file that a perfect device would write
// (every output buffer holding the reference bytes, guards untouched,
// status words zero) but for one result made wrong: every case but that
// one must pass. The random functions return
// what the op suite does not (all-zero results such as x − x, rank-0
// tensors, i1, i64 and bf16 values, NaNs), so a judgement that only the
// op suite ever exercised would fail good kernels here.
func TestCompareRandomSuite(t *testing.T) {
	python := pythonWith(t, "numpy", "Debian's python3-numpy; .ci/run installs it")
	cases, err := suite.RandomCases(1, 120)
	if err != nil {
		t.Fatal(err)
	}
	s, err := suite.Build("random", cases, suite.Options{Inputs: suite.Seeded, Parts: 1, Conditioning: true, ZerosAllowed: true})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := s.Write(dir); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join("..", "check.py"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "check.py"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	// One f32 result off by 1000 in its first element: that case alone
	// must fail.
	wrong := ""
	res := append([]byte("RLXCUR1\n"), binary.LittleEndian.AppendUint32(nil, uint32(len(s.Jobs)))...)
	for i, c := range s.Index.Cases {
		data := map[int][]byte{}
		for _, o := range c.Outputs {
			if o.Stride != 1 {
				t.Fatalf("%s: result #%d sampled", c.Name, o.Index)
			}
			data[o.Buffer] = s.Expect[o.Offset : o.Offset+o.Bytes]
			if wrong == "" && !o.IllConditioned && strings.HasSuffix(o.Type, "xf32>") {
				d := slices.Clone(data[o.Buffer])
				v := math.Float32frombits(binary.LittleEndian.Uint32(d))
				binary.LittleEndian.PutUint32(d, math.Float32bits(v+1000))
				data[o.Buffer], wrong = d, c.Name
			}
		}
		res = binary.LittleEndian.AppendUint32(res, uint32(len(s.Jobs[i].Buffers)))
		for k, b := range c.Buffers {
			d := data[k]
			if k == c.Status {
				d = make([]byte, b.Bytes)
			}
			res = binary.LittleEndian.AppendUint64(res, uint64(len(d)))
			res = binary.LittleEndian.AppendUint64(res, 0) // guards before and after
			res = append(res, d...)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "random.results"), res, 0o644); err != nil {
		t.Fatal(err)
	}
	script := "import json, sys; sys.path.insert(0, sys.argv[1]); import check; " +
		"r = check.compare('random', sys.argv[1] + '/random.results', sys.argv[1] + '/random.expect'); " +
		"print(json.dumps({'passed': r['passed'], 'total': r['total'], 'ill': r['ill_conditioned'], " +
		"'failed': [[c['name'], c['problems']] for c in r['cases'] if not c['pass']]}))"
	out := runScript(t, python, script, dir)
	var r struct {
		Passed, Total, Ill int
		Failed             [][]any
	}
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	t.Logf("%d of %d cases pass (%s made wrong), %d results marked ill-conditioned", r.Passed, r.Total, wrong, r.Ill)
	if r.Total != len(cases) || r.Passed != r.Total-1 || len(r.Failed) != 1 || r.Failed[0][0] != wrong {
		t.Errorf("%d of %d cases pass, failing: %v; want all %d but %s (its result made wrong)", r.Passed, r.Total, r.Failed, len(cases), wrong)
	}
}

// runScript runs python -c script with args and returns its standard
// output; a failure stops the test with its standard error.
func runScript(t *testing.T, python, script string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(python, append([]string{"-c", script}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python -c %q: %v\n%s", script, err, stderr.String())
	}
	return out
}
