package optdriver

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/passes"
	"github.com/rlx-compiler/rlx/pipeline"
)

// graphFuncs returns n functions of graph ops with redundant pairs for cse
// to merge.
func graphFuncs(n, depth int) string {
	var sb strings.Builder
	const t = "tensor<1x64xf32>"
	for i := 0; i < n; i++ {
		fmt.Fprintf(&sb, "func.func @f%d(%%a: %s, %%b: %s) -> %s {\n", i, t, t, t)
		prev := "%a"
		for j := 0; j < depth; j++ {
			fmt.Fprintf(&sb, "  %%x%d = graph.add %s, %%b : (%s, %s) -> %s\n", j, prev, t, t, t)
			fmt.Fprintf(&sb, "  %%y%d = graph.add %s, %%b : (%s, %s) -> %s\n", j, prev, t, t, t)
			fmt.Fprintf(&sb, "  %%z%d = graph.mul %%x%d, %%y%d : (%s, %s) -> %s\n", j, j, j, t, t, t)
			prev = fmt.Sprintf("%%z%d", j)
		}
		fmt.Fprintf(&sb, "  return %s : %s\n}\n", prev, t)
	}
	return sb.String()
}

// BenchmarkCSECanonicalize runs builtin.module(func.func(cse,canonicalize))
// over 1,000 graph functions with threads and without (the module is
// cloned, untimed, before each run); bench/parallel-passes.sh reports the
// ratio.
func BenchmarkCSECanonicalize(b *testing.B) {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	f, err := asm.Parse(ctx, "bench.mlir", []byte(graphFuncs(1000, 40)), asm.Options{})
	if err != nil {
		b.Fatal(err)
	}
	reg := pipeline.NewRegistry(passes.All()...)
	for _, mode := range []struct {
		name    string
		threads bool
	}{{"threads", true}, {"nothreads", false}} {
		for _, verify := range []bool{true, false} {
			name := mode.name
			if !verify {
				name += "-noverify"
			}
			mode := mode
			b.Run(name, func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					op := f.Op.Clone(ir.NewValueMap())
					opm, err := pipeline.Parse(reg, "builtin.module(func.func(cse,canonicalize))")
					if err != nil {
						b.Fatal(err)
					}
					pm := pipeline.NewWith(ctx, opm)
					pm.DisableThreading = !mode.threads
					pm.VerifyEach = verify
					// Collect the previous run's garbage and the clone's
					// while the timer is off, so that a collection does not
					// land at random in the timed part.
					runtime.GC()
					b.StartTimer()
					if err := pm.Run(op); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
