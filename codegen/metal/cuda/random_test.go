package cuda_test

import (
	"errors"
	"testing"

	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/codegen/metal/cuda"
	"github.com/rlx-compiler/rlx/dialect/builtin"
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/internal/mpsregions"
	"github.com/rlx-compiler/rlx/internal/randgraph"
	"github.com/rlx-compiler/rlx/passes/hybridsplit"
)

// TestRandomKernelsCompile checks that every kernel the emitter makes for
// the random functions of hybrid-split's property test (internal/randgraph,
// seeds 1 to 300, every op kept native, so that each runs as a kernel,
// fused where the emitter fuses, with bf16 at MSL 3.1) stays inside the
// subset the CUDA shim translates: the generated sources compile with
// clang-19 in CUDA mode (host and device sides), as the op suites' do in
// bench/gpu/suite's TestCUDASyntax.
func TestRandomKernelsCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping in -short mode")
	}
	const n = 300
	ctx := mpsregions.NewContext()
	mod, err := randgraph.SeededModule(ctx, 1, n)
	if err != nil {
		t.Fatal(err)
	}
	for f := range builtin.Body(mod).Ops() {
		if _, err := hybridsplit.Split(f, hybridsplit.Options{NativeOps: graph.ComputeOpNames()}); err != nil {
			t.Fatal(err)
		}
	}
	out, err := metal.Emit(mod, metal.Options{MSLVersion: "3.1"})
	if err != nil {
		t.Fatal(err)
	}
	srcs, err := cuda.Generate("random", out.Source, out.Manifest, cuda.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := cuda.WriteShim(dir); err != nil {
		t.Fatal(err)
	}
	if err := srcs.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	err = cuda.SyntaxCheck(dir, append(srcs.Parts, srcs.Table)...)
	if errors.Is(err, cuda.ErrNoClang) {
		t.Skip("skipping: ", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d kernels of %d random functions compile as CUDA", len(out.Manifest.Kernels), n)
}
