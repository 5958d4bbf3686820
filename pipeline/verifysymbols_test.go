package pipeline_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/pipeline"
)

// breakCall is a func.func pass that points the calls in functions whose
// names are listed at a symbol that does not exist: only the symbol-use
// check after the nested pipeline (which rlx spreads over the workers)
// can see that.
type breakCall struct {
	info  *pipeline.PassInfo
	funcs map[string]bool
}

func (p *breakCall) Info() *pipeline.PassInfo { return p.info }

func (p *breakCall) Run(op *ir.Operation, _ *pipeline.AnalysisManager) error {
	name, _ := op.Attr("sym_name").(*ir.StringAttr)
	if name == nil || !p.funcs[name.Value] {
		return nil
	}
	op.Walk(func(o *ir.Operation) {
		if o.Name() == "func.call" {
			o.SetAttr(op.Context(), "callee", op.Context().SymbolRef("missing_"+name.Value))
		}
	})
	return nil
}

// TestSymbolUsesVerifiedAfterNestedPipeline checks, with and without
// threads, that a symbol use broken by a nested pass fails verification
// and that the reported failure is mlir-opt's: its symbol table walk
// visits the regions of the module's ops last first, so @f40's call is
// judged before @f17's.
func TestSymbolUsesVerifiedAfterNestedPipeline(t *testing.T) {
	var src strings.Builder
	src.WriteString("func.func private @callee()\n")
	for i := 0; i < 64; i++ {
		fmt.Fprintf(&src, "func.func @f%d() {\n  func.call @callee() : () -> ()\n  return\n}\n", i)
	}
	for _, threads := range []bool{true, false} {
		t.Run(fmt.Sprint("threads=", threads), func(t *testing.T) {
			ctx := newContext()
			op := parse(t, ctx, src.String())
			pi := &pipeline.PassInfo{Argument: "test-break-call", Anchor: "func.func"}
			pi.New = func() pipeline.Pass { return &breakCall{info: pi, funcs: map[string]bool{"f40": true, "f17": true}} }
			opm, err := pipeline.Parse(pipeline.NewRegistry(pi), "builtin.module(func.func(test-break-call))")
			if err != nil {
				t.Fatal(err)
			}
			pm := pipeline.NewWith(ctx, opm)
			pm.DisableThreading = !threads
			var diags []string
			pop := ctx.Diags().PushHandler(func(d *ir.Diagnostic) { diags = append(diags, d.Message) })
			err = pm.Run(op)
			pop()
			if err == nil {
				t.Fatal("pipeline succeeded; want a verification failure")
			}
			if len(diags) == 0 || !strings.Contains(diags[0], "missing_f40") {
				t.Errorf("diagnostics %q: want the first to be about @missing_f40", diags)
			}
		})
	}
}
