package mps

import (
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/dialect/builtin"
	"github.com/rlx-compiler/rlx/internal/mpsregions"
	"github.com/rlx-compiler/rlx/internal/randgraph"
	"github.com/rlx-compiler/rlx/passes/hybridsplit"
	"github.com/rlx-compiler/rlx/passes/lowertomps"
)

// TestRandomGraphs emits the builders of every MPS region of the random
// functions of hybrid-split's property test (internal/randgraph; seeds 1
// to 1,000 in one module: every graph op with an MPS lowering, on f32, f16,
// bf16 and integer tensors, broadcasts, casts, wide rows), split and
// lowered, checks that the file compiles for arm64-apple-macosx14.0
// against the stub SDK, and requires that each builder, run against the
// recording MPSGraph, built its lowered region exactly, as TestModels
// does for the model graphs.
func TestRandomGraphs(t *testing.T) {
	clang(t)
	gnustepFlags(t)
	if testing.Short() {
		t.Skip("skipping in -short mode")
	}
	const first, n = 1, 1000
	ctx := mpsregions.NewContext()
	mod, err := randgraph.SeededModule(ctx, first, n)
	if err != nil {
		t.Fatal(err)
	}
	for f := range builtin.Body(mod).Ops() {
		if _, err := hybridsplit.Split(f, hybridsplit.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := lowertomps.Lower(mod, lowertomps.Options{}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out := emitFiles(t, dir, mod, Options{Input: "random.mlir"})
	if err := syntaxCheck(t, dir, "check.m", DefaultVersion); err != nil {
		t.Fatal(err)
	}
	regions, prims := compareRecorded(t, dir, mod, out)
	if regions < n {
		t.Errorf("only %d regions compared", regions)
	}
	t.Logf("%d random functions: %d builders (%d lines of Objective-C) compiled; %d regions, %d primitives recorded as lowered",
		n, len(out.Builders), strings.Count(string(out.Source), "\n"), regions, prims)
}
