package bundle_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/codegen/bundle"
	"github.com/rlx-compiler/rlx/codegen/llvmir"
	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/internal/runtimetest"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/passes/hybridsplit"
	"github.com/rlx-compiler/rlx/runtime/plan"
)

// TestBundle writes the bundle of the toy Qwen3.5-like model and checks
// that its pieces fit together: the plan and the layouts read back, and
// with clang-19 every source an app compiles (the host module, the
// builders, the Metal runtime and a C file using the host module's
// header) compiles for arm64-apple-macos13 against the stub SDK.
func TestBundle(t *testing.T) {
	s, err := runtimetest.SplitModel(runtimetest.Qwen(0, "", 0), hybridsplit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	files, err := bundle.Files(s.Module, llvmir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	want := "kernels.metal kernels.manifest.json decode_builders.m decode_builders.h host.ll rlx_decode.h rlx_runtime.h rlx_runtime_metal.m plan.json weights.json"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("files %s\nwant %s", got, want)
	}
	dir := t.TempDir()
	if err := bundle.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	read := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	p, err := plan.ReadJSON(bytes.NewReader(read("plan.json")))
	if err != nil {
		t.Fatal(err)
	}
	var man metal.Manifest
	if err := json.Unmarshal(read("kernels.manifest.json"), &man); err != nil {
		t.Fatal(err)
	}
	var wl bundle.WeightLayout
	if err := json.Unmarshal(read("weights.json"), &wl); err != nil {
		t.Fatal(err)
	}
	if len(wl.Weights) != len(p.Weights) || wl.WeightBytes != p.WeightBytes || len(man.Regions) != p.Stats().MetalSteps {
		t.Errorf("weights.json has %d weights (%d bytes), the plan %d (%d); the manifest %d regions, the plan %d Metal steps",
			len(wl.Weights), wl.WeightBytes, len(p.Weights), p.WeightBytes, len(man.Regions), p.Stats().MetalSteps)
	}

	cc, err := exec.LookPath("clang-19")
	if err != nil {
		t.Skip("clang-19 not found (Debian's clang-19 package; .ci/run installs it)")
	}
	var stubs []string
	for _, d := range []string{"../../runtime/backend/metal/sdk/libc", "../mps/sdk/foundation", "../mps/sdk/apple"} {
		abs, err := filepath.Abs(d)
		if err != nil {
			t.Fatal(err)
		}
		stubs = append(stubs, "-isystem", abs)
	}
	app := `#include <string.h>
#include "rlx_decode.h"
static int load(void *user, const char *name, void *dst, uint64_t bytes) { return 1; }
int run(void) {
  rlx_context *ctx;
  if (rlx_decode_create(NULL, &ctx) || rlx_decode_bind_weights(ctx, load, NULL)) return 1;
  unsigned char *arena = rlx_arena(ctx);
  memset(arena + rlx_decode_inputs[0].offset, 0, rlx_decode_inputs[0].bytes);
  return rlx_decode_run(ctx);
}
`
	if err := os.WriteFile(filepath.Join(dir, "app.c"), []byte(app), 0o644); err != nil {
		t.Fatal(err)
	}
	target := []string{"-target", "arm64-apple-macos13", "-c"}
	for _, c := range [][]string{
		{"host.ll", "-o", "host.o"},
		append(append([]string{"-x", "objective-c", "-fobjc-arc", "-Werror=unguarded-availability-new", "-nostdlibinc"}, stubs...), "decode_builders.m", "-o", "builders.o"),
		append(append([]string{"-x", "objective-c", "-fobjc-arc", "-Werror=unguarded-availability-new", "-nostdlibinc", "-I", "."}, stubs...), "rlx_runtime_metal.m", "-o", "runtime.o"),
		append(append([]string{"-std=c11", "-Wall", "-Werror", "-nostdlibinc", "-I", "."}, stubs...), "app.c", "-o", "app.o"),
	} {
		cmd := exec.Command(cc, append(target, c...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("clang-19 %s: %v\n%s", strings.Join(c, " "), err, out)
		}
	}
}

// TestPackedWeights: weights.json says which blocks each packed weight
// must hold. The one-layer Qwen3-Next of the rlx-run lit inputs reads its
// projections and expert stacks as q6_k_c16: every packed weight carries
// that format, its [n, k] and its matrices (four for an expert stack),
// and float weights carry none.
func TestPackedWeights(t *testing.T) {
	src, err := os.ReadFile("../../lit-tests/rlx-run/Inputs/qwen3next-moe-cols.mlir")
	if err != nil {
		t.Fatal(err)
	}
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	f, err := asm.Parse(ctx, "moe.mlir", src, asm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := hybridsplit.Split(f.Op.Region(0).First().First(), hybridsplit.Options{}); err != nil {
		t.Fatal(err)
	}
	files, err := bundle.Files(f.Op, llvmir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var wl bundle.WeightLayout
	for _, file := range files {
		if file.Name == "weights.json" {
			if err := json.Unmarshal(file.Data, &wl); err != nil {
				t.Fatal(err)
			}
		}
	}
	packed := map[string]bundle.PackedW{}
	for _, w := range wl.Weights {
		ui8 := strings.HasSuffix(w.Type, "xui8>")
		if (w.Packed != nil) != (ui8 && w.Kind == plan.WeightParam) {
			t.Errorf("%s (%s, %s): packed %+v", w.Name, w.Kind, w.Type, w.Packed)
		}
		if w.Packed != nil {
			packed[w.Name] = *w.Packed
		}
	}
	want := map[string]bundle.PackedW{
		"blk.0.attn_q.weight":        {Format: "q6_k_c16", N: 512, K: 256, Matrices: 1},
		"blk.0.ffn_down_exps.weight": {Format: "q6_k_c16", N: 256, K: 256, Matrices: 4},
		"output.weight":              {Format: "q6_k_c16", N: 16, K: 256, Matrices: 1},
	}
	for name, w := range want {
		if packed[name] != w {
			t.Errorf("%s: packed %+v, want %+v", name, packed[name], w)
		}
	}
	if len(packed) != 11 {
		t.Errorf("%d packed weights, want 11 (q, k, v, o, the shared expert's three, three expert stacks, the head)", len(packed))
	}
}
