package hybridinline_test

import (
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/models"
	"github.com/rlx-compiler/rlx/passes/hybridinline"
	"github.com/rlx-compiler/rlx/passes/hybridsplit"
	"github.com/rlx-compiler/rlx/runtime/ref"
)

// TestInlineRestores splits and inlines a function given in a topological
// order the split keeps, and expects the original text back.
func TestInlineRestores(t *testing.T) {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	src := `func.func @f(%x: tensor<1x64xf32>) -> (tensor<1x64xf32>, tensor<1x64xf32>) {
  %w = graph.param "w" : tensor<64x64xf32>
  %a = graph.matmul %x, %w : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %b = graph.add %a, %x : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  %c = graph.max %a, %b : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  %d = graph.matmul %c, %w : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %e = graph.mul %d, %b : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  return %e, %b : tensor<1x64xf32>, tensor<1x64xf32>
}`
	m, err := asm.ParseString(ctx, "in.mlir", src)
	if err != nil {
		t.Fatal(err)
	}
	want := ir.Sprint(m, ir.PrintOptions{})
	f := m.Region(0).First().First()
	if _, err := hybridsplit.Split(f, hybridsplit.Options{}); err != nil {
		t.Fatal(err)
	}
	regions, leaves := hybridinline.Inline(f)
	if regions != 3 || leaves != 1 {
		t.Errorf("inlined %d regions and merged %d leaves, want 3 and 1", regions, leaves)
	}
	if err := ir.Verify(m); err != nil {
		t.Fatal(err)
	}
	if got := ir.Sprint(m, ir.PrintOptions{}); got != want {
		t.Errorf("split then inline:\n%s\nwant\n%s", got, want)
	}
}

// TestInlineModel splits and inlines each model graph and compares it
// with the original through the interpreter.
func TestInlineModel(t *testing.T) {
	for _, build := range []func(*ir.Context) (*models.Model, error){
		func(ctx *ir.Context) (*models.Model, error) { return models.Qwen35(ctx, models.DefaultQwen35()) },
		func(ctx *ir.Context) (*models.Model, error) { return models.Zonos(ctx, models.DefaultZonos()) },
		func(ctx *ir.Context) (*models.Model, error) { return models.Kimi(ctx, models.DefaultKimi()) },
	} {
		ctx := ir.NewContext()
		dialect.RegisterAll(ctx)
		m, err := build(ctx)
		if err != nil {
			t.Fatal(err)
		}
		orig := m.Module.Clone(nil)
		if _, err := hybridsplit.Split(m.Func().Op, hybridsplit.Options{}); err != nil {
			t.Fatal(err)
		}
		hybridinline.Inline(m.Func().Op)
		if err := ir.Verify(m.Module); err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		diffs, err := ref.Differential(orig, m.Module, models.FuncName, 1)
		if err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		for i, d := range diffs {
			if !d.BitIdentical {
				t.Errorf("%s: result #%d differs after split and inline", m.Name, i)
			}
		}
	}
}
