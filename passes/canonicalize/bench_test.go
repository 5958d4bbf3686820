package canonicalize_test

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/passes/canonicalize"
	"github.com/rlx-compiler/rlx/passes/internal/passtest"
	"github.com/rlx-compiler/rlx/rewrite"
	"github.com/rlx-compiler/rlx/rewrite/rewritetest"
)

// bigFunc returns a function of n ops: pure casts over recent values,
// some dead, with constants and side effects mixed in.
func bigFunc(n int) string {
	rng := rand.New(rand.NewSource(1))
	var sb strings.Builder
	sb.WriteString("func.func @big(%a: i32, %b: i32) -> i32 {\n")
	vals := []string{"%a", "%b"}
	recent := func() string { return vals[max(0, len(vals)-30)+rng.Intn(min(30, len(vals)))] }
	for i := 0; i < n; i++ {
		v := fmt.Sprintf("%%v%d", i)
		switch r := rng.Intn(20); {
		case r < 2:
			fmt.Fprintf(&sb, "  %s = \"tst.const\"() <{value = %d : i32}> : () -> i32\n", v, rng.Intn(20))
		case r < 3:
			fmt.Fprintf(&sb, "  \"tst.effect\"(%s) : (i32) -> ()\n", recent())
			continue
		case r < 6:
			fmt.Fprintf(&sb, "  %s = \"tst.add\"(%s, %s) : (i32, i32) -> i32\n", v, recent(), recent())
		default:
			fmt.Fprintf(&sb, "  %s = builtin.unrealized_conversion_cast %s, %s : i32, i32 to i32 {k = %d}\n", v, recent(), recent(), rng.Intn(4))
		}
		vals = append(vals, v)
	}
	fmt.Fprintf(&sb, "  return %s : i32\n}\n", vals[len(vals)-1])
	return sb.String()
}

func BenchmarkCanonicalize(b *testing.B) {
	src := bigFunc(20000)
	opts := canonicalize.DefaultOptions()
	for b.Loop() {
		b.StopTimer()
		ctx := passtest.NewContext()
		m, err := asm.ParseString(ctx, "big.mlir", src)
		if err != nil {
			b.Fatal(err)
		}
		set := rewrite.NewPatternSet(rewritetest.Patterns(ctx)...)
		b.StartTimer()
		if _, err := canonicalize.Run(m, set, opts); err != nil {
			b.Fatal(err)
		}
	}
}
