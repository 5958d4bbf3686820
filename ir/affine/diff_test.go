package affine

import (
	"flag"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

var (
	diffCases = flag.Int("diff.n", 3000, "number of random cases in TestDifferential")
	diffSeed  = flag.Int64("diff.seed", 19, "random seed of TestDifferential")
)

// exprGen writes random affine expression text. Most of it is valid
// (multiplications get a symbolic operand, divisors are symbolic); a few
// cases are deliberately not.
type exprGen struct {
	r          *rand.Rand
	dims, syms []string
}

var (
	genConsts = []string{"0", "1", "2", "3", "4", "5", "7", "8", "16", "64", "128", "-1", "-2", "-4", "0x10", "9223372036854775807", "(-9223372036854775807 - 1)", "4611686018427387904", "-3"}
	// No -1: mlir-opt crashes dividing INT64_MIN by -1 in some folds.
	genDivisors = []string{"1", "2", "3", "4", "8", "16", "-2", "-4", "0", "6", "64"}
	genNames    = []string{"i", "j", "k", "N", "M", "mod", "floordiv", "ceildiv", "x.y", "i32", "step", "_t", "a$"}
)

func (g *exprGen) leaf(symbolic bool) string {
	n := g.r.Intn(10)
	switch {
	case n < 4 && !symbolic && len(g.dims) > 0:
		return g.dims[g.r.Intn(len(g.dims))]
	case n < 7 && len(g.syms) > 0:
		return g.syms[g.r.Intn(len(g.syms))]
	default:
		return genConsts[g.r.Intn(len(genConsts))]
	}
}

func (g *exprGen) expr(depth int, symbolic bool) string {
	if depth <= 0 || g.r.Intn(4) == 0 {
		return g.leaf(symbolic)
	}
	paren := func(s string) string {
		if g.r.Intn(3) == 0 {
			return s
		}
		return "(" + s + ")"
	}
	switch g.r.Intn(12) {
	case 0, 1, 2:
		return g.expr(depth-1, symbolic) + " + " + g.expr(depth-1, symbolic)
	case 3, 4:
		return g.expr(depth-1, symbolic) + " - " + paren(g.expr(depth-1, symbolic))
	case 5, 6:
		l, r := paren(g.expr(depth-1, symbolic)), paren(g.expr(depth-1, true))
		if g.r.Intn(40) == 0 {
			r = paren(g.expr(depth-1, false))
		}
		if g.r.Intn(2) == 0 {
			l, r = r, l
		}
		return l + " * " + r
	case 7, 8, 9:
		op := []string{" floordiv ", " ceildiv ", " mod "}[g.r.Intn(3)]
		rhs := genDivisors[g.r.Intn(len(genDivisors))]
		if g.r.Intn(4) == 0 {
			rhs = paren(g.expr(depth-1, g.r.Intn(40) != 0))
		}
		return paren(g.expr(depth-1, symbolic)) + op + rhs
	case 10:
		return "-" + paren(g.expr(depth-1, symbolic))
	default:
		return "(" + g.expr(depth-1, symbolic) + ")"
	}
}

// header picks identifier names and writes the (dims)[symbols] list.
func (g *exprGen) header() string {
	nd, ns := g.r.Intn(4), g.r.Intn(4)
	custom := g.r.Intn(3) == 0
	used := map[string]bool{}
	name := func(prefix string, i int) string {
		if custom {
			for {
				n := genNames[g.r.Intn(len(genNames))]
				if !used[n] {
					used[n] = true
					return n
				}
			}
		}
		return fmt.Sprintf("%s%d", prefix, i)
	}
	g.dims, g.syms = g.dims[:0], g.syms[:0]
	for i := 0; i < nd; i++ {
		g.dims = append(g.dims, name("d", i))
	}
	for i := 0; i < ns; i++ {
		g.syms = append(g.syms, name("s", i))
	}
	h := "(" + strings.Join(g.dims, ", ") + ")"
	if ns > 0 || g.r.Intn(10) == 0 {
		h += "[" + strings.Join(g.syms, ", ") + "]"
	}
	return h
}

// mutate damages a body to exercise the error paths.
func (g *exprGen) mutate(s string) string {
	if s == "" {
		return s
	}
	i := g.r.Intn(len(s))
	switch g.r.Intn(3) {
	case 0:
		return s[:i] + s[i+1:]
	case 1:
		ins := []string{"(", ")", "*", "+", "-", ",", "x", "1", "mod", ">=", "==", "[", "]", " ", "->", ":", "%a", "99999999999999999999", "\n", " // c\n", "\t", "symbol", "<=", ">", "="}
		return s[:i] + ins[g.r.Intn(len(ins))] + s[i:]
	default:
		j := g.r.Intn(len(s))
		if i > j {
			i, j = j, i
		}
		return s[:i] + s[j:]
	}
}

func (g *exprGen) randomCase() oracleCase {
	h := g.header()
	n := 1 + g.r.Intn(3)
	var c oracleCase
	var parts []string
	if g.r.Intn(4) == 0 {
		c.Set = true
		for i := 0; i < n; i++ {
			cmp := []string{" >= ", " <= ", " == "}[g.r.Intn(3)]
			rhs := "0"
			if g.r.Intn(2) == 0 {
				rhs = g.expr(2, false)
			}
			parts = append(parts, g.expr(3, false)+cmp+rhs)
		}
		c.Body = h + " : (" + strings.Join(parts, ", ") + ")"
	} else {
		for i := 0; i < n; i++ {
			parts = append(parts, g.expr(4, false))
		}
		c.Body = h + " -> (" + strings.Join(parts, ", ") + ")"
	}
	if g.r.Intn(12) == 0 {
		c.Body = g.mutate(c.Body)
	}
	return c
}

// TestDifferential compares parsing and printing of a few thousand random
// maps and sets with mlir-opt-19, then checks that everything mlir-opt
// printed is a fixed point of ParseMap/ParseSet and String.
func TestDifferential(t *testing.T) {
	needOracle(t)
	n := *diffCases
	if testing.Short() {
		n = min(n, 500)
	}
	g := &exprGen{r: rand.New(rand.NewSource(*diffSeed))}
	cases := make([]oracleCase, n)
	for i := range cases {
		cases[i] = g.randomCase()
	}
	want := runOracle(t, cases)
	mismatches, errs, crashes := 0, 0, 0
	for i, c := range cases {
		if want[i].Err {
			errs++
		}
		if want[i].Crash {
			crashes++
			t.Logf("mlir-opt crashed on %q; ours gives %s", c.Body, ours(c))
			continue
		}
		if got := ours(c); got != want[i] {
			mismatches++
			if mismatches <= 20 {
				t.Errorf("%q\n got %s\nwant %s", c.Body, got, want[i])
			}
		}
	}
	t.Logf("%d random cases (%d rejected by mlir-opt, %d crashed it), %d mismatches", n, errs, crashes, mismatches)

	// Feed everything mlir-opt printed back to both parsers. MLIR's own
	// output is not always a fixed point (it prints INT64_MIN, which it
	// cannot parse, and re-parsing can simplify further), so mlir-opt
	// decides what the second round must give.
	var again []oracleCase
	for i, c := range cases {
		if !want[i].Err && !want[i].Crash {
			again = append(again, oracleCase{Set: c.Set, Body: want[i].Out})
		}
	}
	want2 := runOracle(t, again)
	fixed, mismatches2 := 0, 0
	for i, c := range again {
		if !want2[i].Err && want2[i].Out == c.Body {
			fixed++
		}
		if got := ours(c); got != want2[i] && !want2[i].Crash {
			mismatches2++
			if mismatches2 <= 20 {
				t.Errorf("second round: %q\n got %s\nwant %s", c.Body, got, want2[i])
			}
		}
	}
	t.Logf("second round: %d mlir-opt outputs re-parsed, %d of them fixed points, %d mismatches", len(again), fixed, mismatches2)
}
