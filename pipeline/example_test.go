package pipeline_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/pipeline"
)

// countOps is a pass another program defines: it tags every function with
// the number of ops it holds. Options and statistics are bound in Declare.
type countOps struct {
	attr  string
	total pipeline.Statistic
}

var countOpsInfo = &pipeline.PassInfo{
	Argument: "count-ops",
	Name:     "CountOps",
	Summary:  "Tag each function with its op count",
	Anchor:   "func.func",
	New:      func() pipeline.Pass { return &countOps{} },
}

func (p *countOps) Info() *pipeline.PassInfo { return countOpsInfo }

func (p *countOps) Declare(d *pipeline.Decl) {
	d.String(&p.attr, "attr", "ops", "Name of the attribute to set")
	d.Stat(&p.total, "num-ops", "Number of ops counted")
}

func (p *countOps) Run(op *ir.Operation, am *pipeline.AnalysisManager) error {
	n := 0
	op.Walk(func(*ir.Operation) { n++ })
	p.total.Add(int64(n))
	ctx := op.Context()
	op.SetAttr(ctx, p.attr, ctx.IntegerAttr(ctx.I64(), int64(n)))
	return nil
}

// logPasses is an instrumentation that logs each pass run.
type logPasses struct {
	pipeline.BaseInstrumentation
}

func (logPasses) AfterPass(ev *pipeline.PassEvent) {
	if ev.IsPipeline() {
		return
	}
	// Output keeps the log in op order even when functions run in parallel.
	fmt.Fprintf(ev.Output(os.Stdout), "ran %s on @%s\n", ev.Pass.Info().Argument, ir.SymbolName(ev.Op))
}

// Example shows how a Go program embeds rlx: it parses a module, registers
// its own pass, builds a pipeline in code and from text, adds an
// instrumentation, runs the pipeline and prints the result.
func Example() {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	f, err := asm.Parse(ctx, "input.mlir", []byte(`
func.func @add(%a: i32) -> i32 {
  return %a : i32
}
func.func @id(%a: i32) -> i32 {
  return %a : i32
}
`), asm.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}

	// The registry is an explicit list; a real tool adds passes.All().
	reg := pipeline.NewRegistry(countOpsInfo)

	// A pipeline built in code...
	pm := pipeline.New(ctx, "builtin.module")
	pm.Nest("func.func").AddPass(pipeline.NewPass(countOpsInfo))
	fmt.Println(pm.String())

	// ...and the same from text, with an option.
	opm, err := pipeline.Parse(reg, "builtin.module(func.func(count-ops{attr=num_ops}))")
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := pm.SetPipeline(opm); err != nil {
		fmt.Println(err)
		return
	}
	pm.AddInstrumentation(logPasses{})

	// Diagnostics go to the context's handlers; Run also returns them.
	if err := pm.Run(f.Op); err != nil {
		fmt.Println("failed:", err)
		return
	}
	var sb strings.Builder
	if err := ir.Print(&sb, f.Op, ir.PrintOptions{}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(sb.String())
	_ = pipeline.ReportStatistics(os.Stdout, pm.Pipeline(), pipeline.StatsPipeline, false)
	// Output:
	// builtin.module(func.func(count-ops{attr=ops}))
	// ran count-ops on @add
	// ran count-ops on @id
	// module {
	//   func.func @add(%arg0: i32) -> i32 attributes {num_ops = 2 : i64} {
	//     return %arg0 : i32
	//   }
	//   func.func @id(%arg0: i32) -> i32 attributes {num_ops = 2 : i64} {
	//     return %arg0 : i32
	//   }
	// }
	//
	// ===-------------------------------------------------------------------------===
	//                          ... Pass statistics report ...
	// ===-------------------------------------------------------------------------===
	// 'func.func' Pipeline
	//   CountOps
	//     (S) 4 num-ops - Number of ops counted
}

// ExampleParse parses a textual pipeline and prints it back with
// every option spelled out.
func ExampleParse() {
	reg := pipeline.NewRegistry(countOpsInfo)
	pm, err := pipeline.Parse(reg, "builtin.module( func.func( count-ops ) )")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(pm)
	_, err = pipeline.Parse(reg, "builtin.module(func.func(count-op))")
	fmt.Print(err.(*pipeline.SyntaxError).Render())
	// Output:
	// builtin.module(func.func(count-ops{attr=ops}))
	// <pass-pipeline>:1:26: error: 'count-op' does not refer to a registered pass or pass pipeline; did you mean 'count-ops'?
	// builtin.module(func.func(count-op))
	//                          ^
}

// ExampleNewAnalysis declares an analysis that passes share through the
// analysis manager: it is computed once per op and reused until a pass
// invalidates it.
func ExampleNewAnalysis() {
	numBlocks := pipeline.NewAnalysis("NumBlocks", func(op *ir.Operation, am *pipeline.AnalysisManager) int {
		n := 0
		for i := 0; i < op.NumRegions(); i++ {
			n += op.Region(i).NumBlocks()
		}
		return n
	})
	info := &pipeline.PassInfo{Argument: "show-blocks", Anchor: "func.func"}
	info.New = func() pipeline.Pass { return showBlocks{info, numBlocks} }

	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	f, _ := asm.Parse(ctx, "in.mlir", []byte("func.func @f() { return }\n"), asm.Options{})
	pm := pipeline.New(ctx, "builtin.module")
	pm.Nest("func.func").AddPass(pipeline.NewPass(info))
	if err := pm.Run(f.Op); err != nil {
		fmt.Println(err)
	}
	// Output:
	// @f has 1 block(s)
}

type showBlocks struct {
	info *pipeline.PassInfo
	a    *pipeline.Analysis[int]
}

func (p showBlocks) Info() *pipeline.PassInfo { return p.info }

func (p showBlocks) Run(op *ir.Operation, am *pipeline.AnalysisManager) error {
	fmt.Printf("@%s has %d block(s)\n", ir.SymbolName(op), p.a.Get(am))
	am.PreserveAll()
	return nil
}
