package hybridsplit

import (
	"fmt"
	"testing"

	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/models"
)

// BenchmarkSplit measures Split alone (not parsing, printing or verifying)
// on Qwen3.5-like decode graphs of about 10³, 10⁴ and 6·10⁴ ops (1024
// layers is models.Qwen35's limit; bench/hybrid-split.sh goes to 10⁶), in both
// modes. ns/op divided by the op count should stay flat as the graph
// grows; the ops/s metric reports it.
func BenchmarkSplit(b *testing.B) {
	for _, layers := range []int{20, 200, 1000} {
		ctx := newContext()
		c := models.DefaultQwen35()
		c.Layers = layers
		m, err := models.Qwen35(ctx, c)
		if err != nil {
			b.Fatal(err)
		}
		n := m.Func().Body().NumOps()
		for _, mode := range []Mode{ModeDependency, ModeSeed} {
			b.Run(fmt.Sprintf("ops=%d/mode=%s", n, mode), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					mod := m.Module.Clone(nil)
					f := mod.Region(0).First().First()
					b.StartTimer()
					if _, err := Split(f, Options{Mode: mode}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "ops/s")
			})
		}
	}
}

// BenchmarkVerifySplit measures ir.Verify of a split function (the pass
// manager verifies after the pass), for comparison with BenchmarkSplit.
func BenchmarkVerifySplit(b *testing.B) {
	ctx := newContext()
	c := models.DefaultQwen35()
	c.Layers = 2000
	m, err := models.Qwen35(ctx, c)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := Split(m.Func().Op, Options{}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := ir.Verify(m.Module); err != nil {
			b.Fatal(err)
		}
	}
}
