package passes_test

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/passes/cse"
	"github.com/rlx-compiler/rlx/passes/internal/passtest"
	"github.com/rlx-compiler/rlx/pipeline"
)

// Property tests: random functions of pure ops (tst constants, adds,
// muls, negs, opaque builtin casts, pure region ops) with side effects
// mixed in go through cse and canonicalize; the result must verify, compute
// the same values and effects as the input, and be a fixed point of the
// same pipeline.

// generator writes a random function in generic form, steered by bytes.
type generator struct {
	src []byte
	pos int
	sb  strings.Builder
	n   int
}

func (g *generator) pick(k int) int {
	if g.pos >= len(g.src) {
		return 0
	}
	v := int(g.src[g.pos]) % k
	g.pos++
	return v
}

func (g *generator) value() string {
	g.n++
	return fmt.Sprintf("%%v%d", g.n)
}

// block emits up to nOps ops that use avail (and the values they define)
// and returns the values defined.
func (g *generator) block(indent string, avail []string, nOps, depth int) []string {
	var defined []string
	use := func() string {
		all := append(append([]string(nil), avail...), defined...)
		return all[g.pick(len(all))]
	}
	for i := 0; i < nOps; i++ {
		v := g.value()
		switch g.pick(8) {
		case 0, 1:
			fmt.Fprintf(&g.sb, "%s%s = \"tst.const\"() <{value = %d : i32}> : () -> i32\n", indent, v, g.pick(4))
		case 2:
			fmt.Fprintf(&g.sb, "%s%s = \"tst.add\"(%s, %s) : (i32, i32) -> i32\n", indent, v, use(), use())
		case 3:
			fmt.Fprintf(&g.sb, "%s%s = \"tst.mul\"(%s, %s) : (i32, i32) -> i32\n", indent, v, use(), use())
		case 4:
			fmt.Fprintf(&g.sb, "%s%s = \"tst.neg\"(%s) : (i32) -> i32\n", indent, v, use())
		case 5:
			fmt.Fprintf(&g.sb, "%s%s = \"builtin.unrealized_conversion_cast\"(%s, %s) {k = %d : i64} : (i32, i32) -> i32\n", indent, v, use(), use(), g.pick(3))
		case 6:
			// tst.region is pure: effects only at the top level.
			if depth == 0 {
				fmt.Fprintf(&g.sb, "%s\"tst.effect\"(%s) : (i32) -> ()\n", indent, use())
			}
			continue
		case 7:
			if depth > 2 {
				continue
			}
			fmt.Fprintf(&g.sb, "%s%s = \"tst.region\"() ({\n", indent, v)
			inner := g.block(indent+"  ", append(append([]string(nil), avail...), defined...), 1+g.pick(5), depth+1)
			all := append(append(append([]string(nil), avail...), defined...), inner...)
			fmt.Fprintf(&g.sb, "%s  \"tst.yield\"(%s) : (i32) -> ()\n%s}) : () -> i32\n", indent, all[g.pick(len(all))], indent)
		}
		defined = append(defined, v)
	}
	return defined
}

func randomFunc(src []byte) string {
	g := &generator{src: src}
	g.sb.WriteString("func.func @f(%a: i32, %b: i32) -> (i32, i32) {\n")
	vals := append([]string{"%a", "%b"}, g.block("  ", []string{"%a", "%b"}, 4+g.pick(30), 0)...)
	fmt.Fprintf(&g.sb, "  return %s, %s : i32, i32\n}\n", vals[g.pick(len(vals))], vals[g.pick(len(vals))])
	return g.sb.String()
}

// eval runs the function on arguments and returns its results followed by
// the values passed to tst.effect, in order.
func eval(fn *ir.Operation, a, b int32) []int32 {
	env := map[*ir.Value]int32{}
	entry := fn.Region(0).First()
	env[entry.Argument(0)], env[entry.Argument(1)] = a, b
	var trace []int32
	var run func(blk *ir.Block) []int32
	run = func(blk *ir.Block) []int32 {
		for op := range blk.Ops() {
			arg := func(i int) int32 { return env[op.Operand(i)] }
			var r int32
			switch op.Name() {
			case "tst.const":
				r = int32(op.Attr("value").(*ir.IntegerAttr).BigValue().Int64())
			case "tst.add":
				r = arg(0) + arg(1)
			case "tst.mul":
				r = arg(0) * arg(1)
			case "tst.neg":
				r = -arg(0)
			case "builtin.unrealized_conversion_cast":
				k := int32(op.Attr("k").(*ir.IntegerAttr).BigValue().Int64())
				r = 7*k + 3*arg(0) + 5*arg(1)
			case "tst.effect":
				trace = append(trace, arg(0))
				continue
			case "tst.region":
				r = run(op.Region(0).First())[0]
			case "tst.yield", "func.return":
				out := make([]int32, op.NumOperands())
				for i := range out {
					out[i] = arg(i)
				}
				return out
			default:
				panic("eval: unexpected op " + op.Name())
			}
			env[op.Result(0)] = r
		}
		panic("eval: block without terminator")
	}
	return append(run(entry), trace...)
}

var randomPipelines = []string{
	"builtin.module(func.func(cse))",
	"builtin.module(canonicalize)",
	"builtin.module(canonicalize{top-down=false region-simplify=aggressive})",
	"builtin.module(func.func(cse,canonicalize,cse))",
}

func checkRandom(t *testing.T, src []byte) {
	text := randomFunc(src)
	for _, p := range randomPipelines {
		ctx := passtest.NewContext()
		m, err := asm.ParseString(ctx, "random.mlir", text)
		if err != nil {
			t.Fatalf("generated IR does not parse: %v\n%s", err, text)
		}
		fn := m.Region(0).First().First()
		var want [][]int32
		for _, args := range [][2]int32{{0, 0}, {1, -2}, {7, 3}} {
			want = append(want, eval(fn, args[0], args[1]))
		}
		run := func() string {
			opm, err := pipeline.Parse(passtest.Registry(nil), p)
			if err != nil {
				t.Fatal(err)
			}
			pm := pipeline.NewWith(ctx, opm)
			pm.DisableThreading = true
			if err := pm.Run(m); err != nil {
				t.Fatalf("%s: %v\ninput:\n%s", p, err, text)
			}
			if err := ir.Verify(m); err != nil {
				t.Fatalf("%s: output does not verify: %v\ninput:\n%s", p, err, text)
			}
			return ir.Sprint(m, ir.PrintOptions{Generic: true})
		}
		once := run()
		for i, args := range [][2]int32{{0, 0}, {1, -2}, {7, 3}} {
			if got := eval(fn, args[0], args[1]); fmt.Sprint(got) != fmt.Sprint(want[i]) {
				t.Fatalf("%s changed the results for %v: %v, want %v\ninput:\n%s\noutput:\n%s", p, args, got, want[i], text, once)
			}
		}
		if p == randomPipelines[0] {
			// Like MLIR's, cse is not idempotent: ops it finds dead and
			// erases at the end can hide equivalences from it. Further
			// runs must keep the IR valid and its meaning.
			for i := 0; i < 3; i++ {
				cse.Run(fn)
				if err := ir.Verify(m); err != nil {
					t.Fatalf("cse run %d: %v\ninput:\n%s", i+2, err, text)
				}
				if got := eval(fn, 1, -2); fmt.Sprint(got) != fmt.Sprint(want[1]) {
					t.Fatalf("cse run %d changed the results: %v, want %v\ninput:\n%s", i+2, got, want[1], text)
				}
			}
			continue
		}
		if twice := run(); twice != once {
			t.Fatalf("%s is not idempotent\ninput:\n%s\nfirst:\n%s\nsecond:\n%s", p, text, once, twice)
		}
	}
}

func TestRandomFunctions(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 30
	}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < n; i++ {
		src := make([]byte, 200)
		rng.Read(src)
		checkRandom(t, src)
	}
}

func FuzzCSECanonicalize(f *testing.F) {
	f.Add([]byte{7, 3, 2, 5, 1, 0, 4, 6, 7, 2, 2, 3, 1})
	f.Add([]byte("tst.region with effects"))
	f.Fuzz(func(t *testing.T, src []byte) { checkRandom(t, src) })
}
