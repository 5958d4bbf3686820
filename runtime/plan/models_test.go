package plan_test

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/internal/golden"
	"github.com/rlx-compiler/rlx/internal/runtimetest"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/passes/hybridsplit"
	"github.com/rlx-compiler/rlx/runtime/plan"
)

var flagUpdate = flag.Bool("update", false, "rewrite testdata/models.md")

// splitModel builds a model and splits it (dependency mode, macOS 14).
func splitModel(c runtimetest.Model) (*ir.Operation, *ir.Operation, error) {
	s, err := runtimetest.SplitModel(c.Build, hybridsplit.Options{})
	if err != nil {
		return nil, nil, err
	}
	return s.Module, s.Func, nil
}

// TestModelPlans plans every model graph, with and without carried states,
// checks each plan with the independent checker, and reports the arena
// against its lower bound (the largest sum of live bytes at one step);
// testdata/models.md holds the table (-update rewrites it) and the test
// fails when it changes or when a model at hidden 1024 needs more than
// 1.1 times the lower bound.
func TestModelPlans(t *testing.T) {
	var b strings.Builder
	b.WriteString("| model | steps (MPS, Metal, copy) | dispatches | values | arena bytes | lower bound | ratio | weight bytes |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|\n")
	for _, c := range runtimetest.Models() {
		mod, f, err := splitModel(c)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		out, err := metal.Emit(mod, metal.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		for _, carry := range []bool{false, true} {
			p, err := plan.Build(f, out.Manifest, plan.Options{Carry: carry})
			if err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			if err := independentCheck(p); err != nil {
				t.Errorf("%s (carry %v): %v", c.Name, carry, err)
			}
			s := p.Stats()
			name := c.Name
			if carry {
				name += ", carried states"
			}
			fmt.Fprintf(&b, "| %s | %d (%d, %d, %d) | %d | %d | %d | %d | %.3f | %d |\n", name, s.Steps, s.MPSSteps, s.MetalSteps, s.CopySteps,
				s.Dispatches, s.Values, s.ArenaBytes, s.LowerBound, s.Ratio(), s.WeightBytes)
			if strings.Contains(c.Name, "h1024") && s.Ratio() > 1.1 {
				t.Errorf("%s (carry %v): arena %d bytes is %.3f times the lower bound %d, want at most 1.1", c.Name, carry, s.ArenaBytes, s.Ratio(), s.LowerBound)
			}
		}
	}
	got := b.String()
	path := filepath.Join("testdata", "models.md")
	golden.Report(t, got, path, "", *flagUpdate, "go test ./runtime/plan -run TestModelPlans -update")
	t.Logf("\n%s", got)
}
