package hybridsplit

import (
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/models"
)

func parse(t testing.TB, ctx *ir.Context, src string) *ir.Operation {
	t.Helper()
	m, err := asm.ParseString(ctx, "in.mlir", src)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func firstFunc(m *ir.Operation) *ir.Operation { return m.Region(0).First().First() }

// TestBadInputUnchanged checks that every error leaves the function as it
// was.
func TestBadInputUnchanged(t *testing.T) {
	for _, tc := range []struct{ name, src, err string }{
		{"not graph", `
func.func @callee(%x: tensor<4xf32>) -> tensor<4xf32> { return %x : tensor<4xf32> }
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = graph.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  %c = func.call @callee(%e) : (tensor<4xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}`, "hybrid-split partitions functions of graph ops only, found 'func.call'"},
		{"unregistered", `
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = graph.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  %c = "foo.bar"(%e) : (tensor<4xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}`, "cannot partition the unregistered op 'foo.bar'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := newContext()
			ctx.AllowUnregistered = true
			m := parse(t, ctx, tc.src)
			f := m.Region(0).First().Last()
			before := ir.Sprint(m, ir.PrintOptions{})
			_, err := Split(f, Options{})
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
			if after := ir.Sprint(m, ir.PrintOptions{}); after != before {
				t.Errorf("the function changed:\n%s", after)
			}
		})
	}
	if _, err := Split(nil, Options{NativeOps: []string{"graph.nope"}}); err == nil {
		t.Error("native-ops=graph.nope accepted")
	}
}

// TestDeterministic splits the same model twice, from two contexts, and
// requires byte-identical output; it also checks that a second split is a
// no-op.
func TestDeterministic(t *testing.T) {
	for _, mode := range []Mode{ModeDependency, ModeSeed} {
		var outs []string
		for i := 0; i < 2; i++ {
			m, err := models.Qwen35(newContext(), models.DefaultQwen35())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Split(m.Func().Op, Options{Mode: mode}); err != nil {
				t.Fatal(err)
			}
			outs = append(outs, ir.Sprint(m.Module, ir.PrintOptions{}))
			res, err := Split(m.Func().Op, Options{Mode: mode})
			if err != nil || !res.AlreadySplit {
				t.Fatalf("second split: %+v, %v", res, err)
			}
			if again := ir.Sprint(m.Module, ir.PrintOptions{}); again != outs[i] {
				t.Errorf("mode=%s: a second split changed the function", mode)
			}
		}
		if outs[0] != outs[1] {
			t.Errorf("mode=%s: two splits of the same input differ", mode)
		}
	}
}

// TestOracleDetects makes sure the interpreter comparison of the property
// test can fail: changing one op must be reported.
func TestOracleDetects(t *testing.T) {
	ctx := newContext()
	src := `func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = graph.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  return %e : tensor<4xf32>
}`
	a := parse(t, ctx, src)
	b := parse(t, ctx, strings.Replace(src, "graph.exp", "graph.neg", 1))
	if err := sameResults(a, a.Clone(nil), 1); err != nil {
		t.Fatalf("a function differs from its copy: %v", err)
	}
	if err := sameResults(a, b, 1); err == nil {
		t.Fatal("exp and neg compare equal")
	}
}

// TestShrink checks that a failure is shrunk to the ops that cause it.
func TestShrink(t *testing.T) {
	ctx := newContext()
	src, err := randomSource(ctx, 5)
	if err != nil {
		t.Fatal(err)
	}
	fails := func(s string) error {
		if strings.Contains(s, "graph.matmul") {
			return errTest
		}
		return nil
	}
	if fails(src) == nil {
		t.Skip("seed 5 has no matmul")
	}
	small := shrink(src, fails)
	m := parse(t, ctx, small)
	if n := firstFunc(m).Region(0).First().NumOps(); n != 2 {
		t.Errorf("shrunk to %d ops, want a matmul and the return:\n%s", n, small)
	}
}

var errTest = &ir.Diagnostic{Message: "test"}

// TestCoverage checks Result.Coverage.
func TestCoverage(t *testing.T) {
	if c := (Result{MPSOps: 3, ThunkOps: 1}).Coverage(); c != 0.75 {
		t.Errorf("coverage %v", c)
	}
	if c := (Result{}).Coverage(); c != 1 {
		t.Errorf("empty coverage %v", c)
	}
}

// TestOptionsChecked checks that Split refuses the options the command line
// refuses, before touching the function.
func TestOptionsChecked(t *testing.T) {
	src := `func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = graph.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  return %e : tensor<4xf32>
}`
	for _, tc := range []struct {
		opts Options
		err  string
	}{
		{Options{Mode: "Seed"}, "mode: 'Seed' is not a valid value"},
		{Options{MinSubgraphOps: -1}, "min-subgraph-ops: '-1' is negative"},
		{Options{NativeOps: []string{"graph.nope"}}, "native-ops: 'graph.nope' is not a graph compute op"},
	} {
		ctx := newContext()
		f := firstFunc(parse(t, ctx, src))
		before := ir.Sprint(f, ir.PrintOptions{})
		_, err := Split(f, tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%+v: got error %v, want %q", tc.opts, err, tc.err)
		}
		if after := ir.Sprint(f, ir.PrintOptions{}); after != before {
			t.Errorf("%+v: function changed:\n%s", tc.opts, after)
		}
	}
}
