package bundle_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/codegen/bundle"
	"github.com/rlx-compiler/rlx/codegen/llvmir"
	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/internal/runtimetest"
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
