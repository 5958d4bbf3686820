package abi_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/codegen/metal/mslcpu"
	"github.com/rlx-compiler/rlx/runtime/abi"
)

// TestCPUCheckStatus links the CPU implementation of rlx_runtime.h (with
// no kernels) into a C program that writes status buffers into the arena
// and calls rlx_check_status on them: a clean buffer passes; a status bit,
// and an arrival counter of a folded merge left above zero, fail with the
// region's name; a buffer reaching past the arena fails.
func TestCPUCheckStatus(t *testing.T) {
	comp, err := mslcpu.NewCompiler()
	if errors.Is(err, mslcpu.ErrNoClang) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src, err := mslcpu.WriteSources(dir, "#include <metal_stdlib>\nusing namespace metal;\n", nil, mslcpu.Plain)
	if err != nil {
		t.Fatal(err)
	}
	files, err := abi.Write(dir, abi.Header, abi.CPU)
	if err != nil {
		t.Fatal(err)
	}
	driver := `#include <cstdio>
#include <cstring>
#include "rlx_runtime.h"
// Each case: the three words at arena offset 0, the bytes to check.
int main() {
  struct { uint32_t w[3]; uint64_t bytes; } cases[] = {
    {{0, 0, 0}, 12}, {{1, 0, 0}, 12}, {{0, 0, 5}, 12}, {{0, 0, 5}, 8}, {{0, 0, 0}, 64},
  };
  rlx_context *ctx = rlx_create(32, 0, nullptr);
  if (!ctx) return 2;
  for (auto &c : cases) {
    std::memcpy(rlx_arena(ctx), c.w, sizeof c.w);
    int rc = rlx_check_status(ctx, 0, c.bytes, "f_thunk1");
    std::printf("%d %s\n", rc != 0, rc != 0 ? rlx_error(ctx) : "");
  }
  rlx_destroy(ctx);
  return 0;
}
`
	if err := os.WriteFile(filepath.Join(dir, "driver.cpp"), []byte(driver), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append(append([]string{}, src.Flags...), "-I", src.Include, "-I", dir, "driver.cpp", files[1])
	args = append(append(args, src.Files...), "-o", "prog")
	cmd := exec.Command(comp.Path(), args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	out, err := exec.Command(filepath.Join(dir, "prog")).CombinedOutput()
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	want := []string{
		"0",
		"1 region @f_thunk1: a gather index was out of range",
		"1 region @f_thunk1: arrival counter 1 is 5 after the run, not 0 (a folded merge did not finish)",
		"0",
		"1 status words outside the arena",
	}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want), out)
	}
	for i := range want {
		if strings.TrimSpace(lines[i]) != want[i] {
			t.Errorf("case %d: got %q, want %q", i, lines[i], want[i])
		}
	}
}
