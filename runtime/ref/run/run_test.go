package run

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/internal/outfile/outfiletest"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

const model = `func.func @main(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %w = graph.param "w" : tensor<4x4xf32>
  %0 = graph.matmul %x, %w : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
`

func main1(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestCLI(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "m.mlir")
	if err := os.WriteFile(file, []byte(model), 0o666); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.mlir")
	trailing := filepath.Join(dir, "trailing.npy")
	var npy bytes.Buffer
	if err := tensor.WriteNPY(&npy, tensor.Zeros(tensor.F32, 2, 4)); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		other:    "func.func @main(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {\n  %0 = graph.exp %x : (tensor<2x5xf32>) -> tensor<2x5xf32>\n  return %0 : tensor<2x5xf32>\n}\n",
		trailing: npy.String() + "x",
	} {
		if err := os.WriteFile(name, []byte(data), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	code, base, stderr := main1(t, file)
	if code != 0 || !strings.HasPrefix(base, "result 0: tensor<2x4xf32> checksum ") || stderr != "" {
		t.Fatalf("code %d, stdout %q, stderr %q", code, base, stderr)
	}
	// Flag spellings and positions do not matter.
	for _, args := range [][]string{
		{"--seed=0", file},
		{file, "-seed", "0"},
		{"--num-values", "8", file, "--entry=main"},
	} {
		if code, out, _ := main1(t, args...); code != 0 || out != base {
			t.Errorf("%v: code %d, output %q, want %q", args, code, out, base)
		}
	}
	if code, out, _ := main1(t, file, "--seed", "1"); code != 0 || out == base {
		t.Errorf("another seed gives the same output")
	}
	if code, out, _ := main1(t, "--help"); code != 0 || !strings.Contains(out, "usage: rlx-run") {
		t.Errorf("--help: code %d, %q", code, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{file, "--seed", "x"}, `rlx-run: error: invalid value "x" for flag -seed`},
		{[]string{file, "--num-values", "-1"}, "rlx-run: error: --num-values must not be negative, got -1"},
		{[]string{file, "--generate", "-1", "--tokens", "1"}, "rlx-run: error: --generate must not be negative, got -1"},
		{[]string{file, "--generate", "2"}, "rlx-run: error: --logits, --max-tokens and --generate need --tokens"},
		{[]string{file, "--weights", filepath.Join(dir, "none.safetensors")}, "rlx-run: error: cannot read weights: no such file or directory"},
		{[]string{file, "--inputs", "a.npy,b.npy"}, "m.mlir:1:1: error: @main takes 1 arguments, but --inputs names 2 files"},
		{[]string{file, "--tolerance", "0.1"}, "rlx-run: error: --tolerance applies to --compare-with, which is not given"},
		{[]string{file, "--compare-backend", "ref"}, "rlx-run: error: --compare-backend applies to --compare-with, which is not given"},
		{[]string{file, "--inputs", ""}, "rlx-run: error: --inputs names no files (leave it out to generate inputs from --seed)"},
		{[]string{file, "--inputs", trailing}, trailing + ": npy: data continues after the array (which ends 32 bytes after the header)"},
		{[]string{file, "--compare-with", other}, "m.mlir:1:1: error: argument #0 is tensor<2x4xf32> in @main (" + file + ") but tensor<2x5xf32> in @main (" + other + "); pass --inputs"},
		{[]string{file, "--max-memory", "16x"}, `rlx-run: error: invalid value "16x" for flag -max-memory: want a size in bytes, with an optional suffix K, M, G or T (16G), got "16x"`},
		{[]string{file, "--max-memory", "95"}, "m.mlir:2:8: error: 'graph.param' op result needs 64 bytes, and the run would hold 96 bytes at this point, over the memory budget of 95 bytes"},
	} {
		code, _, stderr := main1(t, c.args...)
		if code != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: code %d, stderr %q, want %q", c.args, code, stderr, c.want)
		}
	}
	code, _, stderr = main1(t, file, "--profile")
	if code != 0 || !strings.Contains(stderr, "profile of @main (2 ops,") || !strings.Contains(stderr, "graph.matmul") {
		t.Errorf("--profile: %q", stderr)
	}
}

// TestOutDirReplacesWhole checks that --out-dir files replace old ones
// whole (written beside them and renamed), so a failed run leaves no
// truncated file and a reader of the old file is not disturbed.
func TestOutDirReplacesWhole(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "m.mlir")
	if err := os.WriteFile(file, []byte(model), 0o666); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o777); err != nil {
		t.Fatal(err)
	}
	outfiletest.Replaced(t, filepath.Join(out, "out0.npy"), func() {
		if code, _, stderr := main1(t, file, "--out-dir", out); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
	})
}

// TestInputsDir checks that --inputs takes a directory of in0.npy, in1.npy,
// … as --save-inputs and rlx-gen --inputs write it.
func TestInputsDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "m.mlir")
	if err := os.WriteFile(file, []byte(model), 0o666); err != nil {
		t.Fatal(err)
	}
	saved := filepath.Join(dir, "in")
	code, base, stderr := main1(t, file, "--seed", "3", "--save-inputs", saved)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, out, stderr := main1(t, file, "--seed", "3", "--inputs", saved)
	if code != 0 || out != base {
		t.Errorf("--inputs DIR: exit %d, stdout %q, stderr %q; want %q", code, out, stderr, base)
	}
}

// TestUsageListsEveryFlag: --help documents each flag rlx-run takes (the
// runtime's --backend, --plan, --guard and the rest were once missing).
func TestUsageListsEveryFlag(t *testing.T) {
	n := 0
	newFlags(&options{}).VisitAll(func(f *flag.Flag) {
		n++
		if !strings.Contains(usage, "  --"+f.Name+" ") && !strings.Contains(usage, "  --"+f.Name+"\n") {
			t.Errorf("usage does not list --%s", f.Name)
		}
	})
	if n < 20 {
		t.Errorf("%d flags, want more than 20", n)
	}
}
