package mslcpu_test

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/codegen/metal/mslcpu"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
)

// TestWriteSources builds a program of its own around an emitted kernel
// and dispatches it with its buffers at offsets into one allocation, as a
// runtime binding an arena does.
func TestWriteSources(t *testing.T) {
	comp, err := mslcpu.NewCompiler()
	if errors.Is(err, mslcpu.ErrNoClang) {
		t.Skip(err)
	}
	cxx := comp.Path()
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	f, err := asm.Parse(ctx, "add.mlir", []byte(`func.func @f(%a: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<64xf32> {
  %0 = thunk.call @f_thunk0(%a, %b) {target = "metal"} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
  ^bb0(%x: tensor<64xf32>, %y: tensor<64xf32>):
    %s = graph.add %x, %y : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    thunk.yield %s : tensor<64xf32>
  }
  return %0 : tensor<64xf32>
}`), asm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := metal.Emit(f.Op, metal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := out.Manifest.Regions[0].Dispatches[0]
	k := out.Kernel(d.Kernel)
	dir := t.TempDir()
	src, err := mslcpu.WriteSources(dir, out.Source, out.Kernels, mslcpu.Plain)
	if err != nil {
		t.Fatal(err)
	}
	// The three buffers at 0, 512 and 1024 of one allocation; a and b
	// hold i and 2i, the result lands at 1024.
	main := `#include <cstdio>
#include <cstring>
#include "rlx_dispatch.h"
int main() {
  static float mem[384];
  for (int i = 0; i < 64; i++) { mem[i] = i; mem[128 + i] = 2 * i; }
  void *ptrs[3] = {mem, mem + 128, mem + 256};
  const unsigned grid[3] = {` + ints(k.Grid[:]) + `}, tg[3] = {` + ints(k.Threadgroup[:]) + `};
  rlx::dispatch(rlx::kernel_table[0], ptrs, 3, grid, tg, ` + itoa(k.ThreadgroupMemory) + `);
  fwrite(mem + 256, 4, 64, stdout);
  return 0;
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.cpp"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "prog")
	args := append(append([]string{}, src.Flags...), "-I", src.Include, filepath.Join(dir, "main.cpp"))
	args = append(append(args, src.Files...), "-o", bin)
	if o, err := exec.Command(cxx, args...).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, o)
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "RLX_MSL_EXECUTOR=fibers")
	res, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 256 {
		t.Fatalf("%d bytes of output", len(res))
	}
	for i := range 64 {
		if got := math.Float32frombits(binary.LittleEndian.Uint32(res[4*i:])); got != float32(3*i) {
			t.Fatalf("element %d: %v, want %v", i, got, 3*i)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func ints(v []int) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ", ")
}
