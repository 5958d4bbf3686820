package rlxgen

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/internal/outfile/outfiletest"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

func runGen(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = Main(args, &o, &e)
	return code, o.String(), e.String()
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "rlx-gen: missing the model name (qwen35, zonos or kimi; see rlx-gen --help)"},
		{[]string{"llama"}, `rlx-gen: unknown model "llama" (want qwen35, zonos, kimi)`},
		{[]string{"qwen35", "--bogus"}, "rlx-gen: qwen35: flag provided but not defined: -bogus"},
		{[]string{"qwen35", "--layers", "x"}, `rlx-gen: qwen35: invalid value "x" for flag -layers`},
		{[]string{"qwen35", "extra"}, `rlx-gen: qwen35: unexpected argument "extra"`},
		{[]string{"qwen35", "--heads", "5", "--kv-heads", "1"}, "rlx-gen: qwen35: heads = 5 does not divide hidden = 64 (set head-dim to choose the head size)\n"},
		{[]string{"qwen35", "--quant", "q8_1"}, `rlx-gen: qwen35: invalid value "q8_1" for flag -quant: want none, q4_0, q8_0, q4_k, q5_k, q6_k, q6_k_c16, q2_k, q3_k, q4_1, q5_0, q5_1, iq4_nl, iq4_xs or mxfp4`},
		{[]string{"zonos", "--batch", "3", "--fourier-dim", "7"}, "rlx-gen: zonos: batch = 3 must be 1, or 2 for classifier-free guidance; fourier-dim = 7 must be even\n"},
		{[]string{"kimi", "--vocab", "5"}, "rlx-gen: kimi: flag provided but not defined: -vocab"},
		{[]string{"kimi", "--weights", "/nonexistent/dir/w.safetensors"}, "rlx-gen: open /nonexistent/dir/w.safetensors"},
	} {
		code, stdout, stderr := runGen(tc.args...)
		if code != 1 || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("rlx-gen %q: exit %d, stdout %q, stderr %q; want exit 1 and %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
}

func TestHelp(t *testing.T) {
	code, stdout, _ := runGen("--help")
	if code != 0 || !strings.Contains(stdout, "usage: rlx-gen MODEL [flags]") || !strings.Contains(stdout, "kimi ") {
		t.Errorf("--help: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = runGen("zonos", "--help")
	for _, flag := range []string{"-batch", "-cfg-scale", "-dtype", "-generic", "-weights", "-inputs", "-seed", "-quant"} {
		if code != 0 || !strings.Contains(stdout, flag) {
			t.Errorf("zonos --help: exit %d, no %s in\n%s", code, flag, stdout)
		}
	}
}

// TestFlags checks what a new user tripped on: flags before the model
// name, the default of --quant or --dtype following the other when only
// one is given (qwen35 quantises by default, zonos uses f16), and flag
// errors of one line with the rlx-gen: prefix, not the whole usage.
func TestFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--layers", "2", "qwen35"},
		{"--generic", "zonos", "--layers", "1"},
		{"-o", "-", "kimi"},
		{"qwen35", "--dtype", "f16"},
		{"zonos", "--quant", "q8_0"},
	} {
		code, stdout, stderr := runGen(args...)
		if code != 0 || stderr != "" {
			t.Errorf("rlx-gen %q: exit %d, stderr %q", args, code, stderr)
			continue
		}
		parse(t, stdout)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"qwen35", "--bogus"}, "rlx-gen: qwen35: flag provided but not defined: -bogus (see rlx-gen qwen35 --help)\n"},
		{[]string{"--layers", "2"}, "rlx-gen: missing the model name (qwen35, zonos or kimi; see rlx-gen --help)\n"},
		{[]string{"qwen35", "--layers", "100000"}, "rlx-gen: qwen35: layers = 100000 exceeds the limit of 1024\n"},
		{[]string{"qwen35", "--dtype", "f16", "--quant", "q8_0"}, "rlx-gen: qwen35: quant q8_0 and dtype f16 are exclusive: quantised projections take f32 activations (set quant to none or dtype to f32)\n"},
	} {
		if code, _, stderr := runGen(c.args...); code != 1 || stderr != c.want {
			t.Errorf("rlx-gen %q: exit %d, stderr %q; want %q", c.args, code, stderr, c.want)
		}
	}
}

func parse(t *testing.T, src string) *ir.Operation {
	t.Helper()
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	m, err := asm.ParseString(ctx, "gen.mlir", src)
	if err != nil {
		t.Fatal(err)
	}
	if err := ir.Verify(m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestGenerate(t *testing.T) {
	for _, args := range [][]string{
		{"qwen35"},
		{"qwen35", "--layers", "6", "--hidden", "1024", "--quant", "q4_k", "--past", "31"},
		{"qwen35", "--quant", "none", "--heads", "8", "--kv-heads", "4", "--head-dim", "32", "--rotary-dim", "8", "--gdn-heads", "8",
			"--gdn-key-heads", "2", "--gdn-head-dim", "8", "--conv-kernel", "3", "--full-attn-every", "2", "--ffn", "96", "--vocab", "100"},
		{"zonos", "--generic"},
		{"zonos", "--batch", "1", "--dtype", "bf16", "--codebooks", "2", "--cond-len", "3", "--cond-queries", "2", "--fourier-dim", "4", "--cfg-scale", "3"},
		{"zonos", "--dtype", "f32", "--quant", "q8_0", "--hidden", "1024"},
		{"kimi", "--layers", "8", "--mla-every", "2", "--q-lora", "32", "--kv-lora", "32", "--nope-dim", "8", "--rope-dim", "4", "--v-head-dim", "16",
			"--kda-head-dim", "8", "--gate-rank", "4", "--gate-lower-bound", "-3"},
	} {
		code, stdout, stderr := runGen(args...)
		if code != 0 || stderr != "" {
			t.Errorf("rlx-gen %q: exit %d: %s", args, code, stderr)
			continue
		}
		m := parse(t, stdout)
		generic := args[len(args)-1] == "--generic"
		if got := ir.Sprint(m, ir.PrintOptions{Generic: generic}); got != stdout {
			t.Errorf("rlx-gen %q does not print back identically", args)
		}
	}
}

// TestFiles checks -o, --weights, --inputs and --stats, and that the files
// depend only on the seed.
func TestFiles(t *testing.T) {
	dir := t.TempDir()
	gen := func(name string, seed string) {
		t.Helper()
		code, stdout, stderr := runGen("zonos", "-o", filepath.Join(dir, name+".mlir"), "--weights", filepath.Join(dir, name+".safetensors"),
			"--inputs", filepath.Join(dir, name), "--seed", seed, "--stats")
		if code != 0 || stdout != "" || !strings.Contains(stderr, "zonos: 163 ops, 11 inputs, 5 outputs, 26 params") {
			t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
		}
	}
	gen("a", "5")
	gen("b", "5")
	gen("c", "6")
	read := func(path string) []byte {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, path))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	parse(t, string(read("a.mlir")))
	st, err := tensor.ReadSafetensors(bytes.NewReader(read("a.safetensors")))
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Tensors) != 26 || st.Tensors["l1.fc2"] == nil || st.Tensors["l1.fc2"].DType() != tensor.F16 {
		t.Errorf("weights: %v", st.Names())
	}
	for i := range 11 {
		name := filepath.Join("a", fmt.Sprintf("in%d.npy", i))
		if _, err := tensor.ReadNPY(bytes.NewReader(read(name))); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if !bytes.Equal(read("a.safetensors"), read("b.safetensors")) || !bytes.Equal(read("a/in3.npy"), read("b/in3.npy")) {
		t.Error("the same seed gave different files")
	}
	if bytes.Equal(read("a.safetensors"), read("c.safetensors")) || bytes.Equal(read("a/in3.npy"), read("c/in3.npy")) {
		t.Error("different seeds gave the same files")
	}
}

// TestFilesReplacedWhole checks that -o, --weights and --inputs files
// replace old ones whole (written beside them and renamed), never
// truncated and rewritten in place.
func TestFilesReplacedWhole(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "in"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ flag, path string }{
		{"-o", "m.mlir"},
		{"--weights", "w.safetensors"},
		{"--inputs", "in/in0.npy"},
	} {
		path := filepath.Join(dir, c.path)
		arg := path
		if c.flag == "--inputs" {
			arg = filepath.Dir(path)
		}
		outfiletest.Replaced(t, path, func() {
			if code, _, stderr := runGen("qwen35", "--layers", "1", c.flag, arg); code != 0 {
				t.Fatalf("%s: exit %d: %s", c.flag, code, stderr)
			}
		})
	}
}
