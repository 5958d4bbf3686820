package pipeline_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/pipeline"
)

// benchModule returns a module of n functions with a chain of ops each.
func benchModule(n, opsPerFunc int) string {
	var sb strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&sb, "func.func @f%d(%%a: i32) -> i32 {\n  %%v0 = \"test.op\"(%%a) {n = %d : i64} : (i32) -> i32\n", i, i)
		for j := 1; j < opsPerFunc; j++ {
			fmt.Fprintf(&sb, "  %%v%d = \"test.op\"(%%v%d, %%a) : (i32, i32) -> i32\n", j, j-1)
		}
		fmt.Fprintf(&sb, "  return %%v%d : i32\n}\n", opsPerFunc-1)
	}
	return sb.String()
}

// BenchmarkFuncPipeline runs a func.func-anchored pipeline over 1,000
// functions with threads and without; bench/parallel-passes.sh reports
// the ratio of the two.
func BenchmarkFuncPipeline(b *testing.B) {
	reg, _ := recorder()
	src := benchModule(1000, 20)
	for _, mode := range []struct {
		name    string
		threads bool
	}{{"threads", true}, {"nothreads", false}} {
		b.Run(mode.name, func(b *testing.B) {
			ctx := newContext()
			op := parse(b, ctx, src)
			opm, err := pipeline.Parse(reg, "builtin.module(func.func(test-func-work{iterations=200},test-analysis))")
			if err != nil {
				b.Fatal(err)
			}
			pm := pipeline.NewWith(ctx, opm)
			pm.DisableThreading = !mode.threads
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := pm.Run(op); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
