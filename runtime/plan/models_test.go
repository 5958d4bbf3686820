package plan_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/dialect/builtin"
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/models"
	"github.com/rlx-compiler/rlx/passes/hybridsplit"
	"github.com/rlx-compiler/rlx/runtime/plan"
)

var flagUpdate = flag.Bool("update", false, "rewrite testdata/models.md")

// modelCase is a model graph the plan tests build.
type modelCase struct {
	name  string
	build func(ctx *ir.Context) (*models.Model, error)
}

// modelCases are the three models at toy size and at hidden 1024 with
// their default layer counts, and the Qwen3.5-like model quantised to
// q4_k at hidden 1024.
func modelCases() []modelCase {
	qwen := func(hidden int, quant string) func(*ir.Context) (*models.Model, error) {
		return func(ctx *ir.Context) (*models.Model, error) {
			c := models.DefaultQwen35()
			if hidden > 0 {
				c.Hidden = hidden
			}
			if quant != "" {
				c.Quant = graph.QuantFormat(quant)
			}
			return models.Qwen35(ctx, c)
		}
	}
	zonos := func(hidden int) func(*ir.Context) (*models.Model, error) {
		return func(ctx *ir.Context) (*models.Model, error) {
			c := models.DefaultZonos()
			if hidden > 0 {
				c.Hidden = hidden
			}
			return models.Zonos(ctx, c)
		}
	}
	kimi := func(hidden int) func(*ir.Context) (*models.Model, error) {
		return func(ctx *ir.Context) (*models.Model, error) {
			c := models.DefaultKimi()
			if hidden > 0 {
				c.Hidden = hidden
			}
			return models.Kimi(ctx, c)
		}
	}
	return []modelCase{
		{"qwen35 toy", qwen(0, "")},
		{"zonos toy", zonos(0)},
		{"kimi toy", kimi(0)},
		{"qwen35 h1024", qwen(1024, "")},
		{"qwen35 h1024 q4_k", qwen(1024, "q4_k")},
		{"zonos h1024", zonos(1024)},
		{"kimi h1024", kimi(1024)},
	}
}

// splitModel builds a model and splits it (dependency mode, macOS 14).
func splitModel(c modelCase) (*ir.Operation, *ir.Operation, error) {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	m, err := c.build(ctx)
	if err != nil {
		return nil, nil, err
	}
	f := builtin.Body(m.Module).First()
	if _, err := hybridsplit.Split(f, hybridsplit.Options{}); err != nil {
		return nil, nil, err
	}
	return m.Module, f, nil
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
	for _, c := range modelCases() {
		mod, f, err := splitModel(c)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		out, err := metal.Emit(mod, metal.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, carry := range []bool{false, true} {
			p, err := plan.Build(f, out.Manifest, plan.Options{Carry: carry})
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if err := independentCheck(p); err != nil {
				t.Errorf("%s (carry %v): %v", c.name, carry, err)
			}
			s := p.Stats()
			name := c.name
			if carry {
				name += ", carried states"
			}
			fmt.Fprintf(&b, "| %s | %d (%d, %d, %d) | %d | %d | %d | %d | %.3f | %d |\n", name, s.Steps, s.MPSSteps, s.MetalSteps, s.CopySteps,
				s.Dispatches, s.Values, s.ArenaBytes, s.LowerBound, s.Ratio(), s.WeightBytes)
			if strings.Contains(c.name, "h1024") && s.Ratio() > 1.1 {
				t.Errorf("%s (carry %v): arena %d bytes is %.3f times the lower bound %d, want at most 1.1", c.name, carry, s.ArenaBytes, s.Ratio(), s.LowerBound)
			}
		}
	}
	got := b.String()
	path := filepath.Join("testdata", "models.md")
	if *flagUpdate {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run TestModelPlans -update)", err)
	}
	if !bytes.Equal(want, []byte(got)) {
		t.Errorf("the plans' table differs from %s (go test -run TestModelPlans -update rewrites it):\n%s", path, got)
	}
	t.Logf("\n%s", got)
}
