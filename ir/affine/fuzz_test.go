package affine

import (
	"math"
	"math/bits"
	"os"
	"strconv"
	"strings"
	"testing"
)

// The fuzz targets check that the parser never panics and that printing is
// faithful. MLIR's printed form is not always a fixed point of parsing
// (x + (y + z) prints as x + y + z, which re-parses to (x + y) + z, and
// (d0 + (d0 + 7)) prints as d0 + d0 + 7, which re-parses to d0 * 2 + 7),
// so the properties are: the printed text re-parses (unless it contains
// INT64_MIN, which MLIR prints but cannot parse), print∘parse reaches a
// fixed point within a few rounds, and every round denotes the same
// function wherever both sides evaluate without overflow.

const fuzzRounds = 8

func fuzzSeeds(f *testing.F, set bool) {
	f.Add("(d0) -> (d0 + 1)")
	f.Add("(i, j)[N] : (i - j >= 0, N == i)")
	f.Add("(" + strings.Repeat("(", 2000) + "d0")
	golden, _ := os.ReadFile(goldenFile)
	for _, line := range strings.Split(string(golden), "\n") {
		parts := strings.Split(line, "\t")
		if len(parts) == 3 && (parts[0] == "set") == set {
			if s, err := strconv.Unquote(parts[1]); err == nil {
				f.Add(s)
			}
		}
	}
}

// evalPoints are the dimension and symbol values the semantic check uses.
var evalPoints = [][]int64{
	{0, 0, 0, 0, 0, 0},
	{1, 2, 3, 4, 5, 6},
	{-7, 13, -1, 64, 3, -100},
	{100, -3, 17, -64, 9, 2},
}

// checkedEval evaluates e exactly; ok is false on overflow, division by
// zero or a non-positive modulus.
func checkedEval(e Expr, v []int64) (r int64, ok bool) {
	switch x := e.(type) {
	case ConstantExpr:
		return x.Value, true
	case DimExpr:
		return v[x.Pos%len(v)], true
	case SymbolExpr:
		return v[(x.Pos+3)%len(v)], true
	case BinaryExpr:
		l, ok1 := checkedEval(x.LHS, v)
		r, ok2 := checkedEval(x.RHS, v)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch x.Kind {
		case KindAdd:
			s := l + r
			return s, (s > l) == (r > 0)
		case KindMul:
			if l == 0 || r == 0 {
				return 0, true
			}
			hi, lo := bits.Mul64(uint64(abs64(l)), uint64(abs64(r)))
			if hi != 0 || lo > math.MaxInt64 || l == math.MinInt64 || r == math.MinInt64 {
				return 0, false
			}
			if (l < 0) != (r < 0) {
				return -int64(lo), true
			}
			return int64(lo), true
		case KindMod:
			if r < 1 {
				return 0, false
			}
			return modPositive(l, r), true
		case KindFloorDiv, KindCeilDiv:
			if r == 0 || divOverflows(l, r) {
				return 0, false
			}
			if x.Kind == KindFloorDiv {
				return floorDiv(l, r), true
			}
			return ceilDiv(l, r), true
		}
	}
	return 0, false
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// hasHugeConstant reports whether some constant in es is beyond 2^31, where
// MLIR's wrapping constant folds stop agreeing with exact arithmetic.
func hasHugeConstant(es []Expr) bool {
	huge := false
	for _, e := range es {
		Walk(e, func(x Expr) {
			if c, ok := x.(ConstantExpr); ok && (c.Value > 1<<31 || c.Value < -(1<<31)) {
				huge = true
			}
		})
	}
	return huge
}

func sameFunction(t *testing.T, a, b []Expr, text string) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%q: %d expressions became %d", text, len(a), len(b))
	}
	if hasHugeConstant(a) || hasHugeConstant(b) {
		return
	}
	for _, pt := range evalPoints {
		for i := range a {
			va, oka := checkedEval(a[i], pt)
			vb, okb := checkedEval(b[i], pt)
			if oka && okb && va != vb {
				t.Fatalf("%q: expression %d changed value at %v: %d vs %d (%s vs %s)", text, i, pt, va, vb, a[i], b[i])
			}
		}
	}
}

// checkRoundTrips runs the print∘parse rounds described above.
func checkRoundTrips(t *testing.T, exprs []Expr, text string, parse func(string) (parsed, error)) {
	t.Helper()
	for round := 0; round < fuzzRounds; round++ {
		if strings.Contains(text, "-9223372036854775808") {
			return
		}
		next, err := parse(text)
		if err != nil {
			t.Fatalf("printed text %q does not parse: %v", text, err)
		}
		sameFunction(t, exprs, next.exprs, text)
		if next.text == text {
			return
		}
		exprs, text = next.exprs, next.text
	}
	t.Fatalf("printing did not reach a fixed point in %d rounds; last %q", fuzzRounds, text)
}

type parsed struct {
	exprs []Expr
	text  string
}

func FuzzParseMap(f *testing.F) {
	fuzzSeeds(f, false)
	f.Fuzz(func(t *testing.T, src string) {
		m, err := ParseMap(src)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T", err)
			}
			return
		}
		checkRoundTrips(t, m.Results, m.String(), func(s string) (parsed, error) {
			m2, err := ParseMap(s)
			if err != nil {
				return parsed{}, err
			}
			if m2.NumDims != m.NumDims || m2.NumSymbols != m.NumSymbols {
				t.Fatalf("%q: identifier counts changed", s)
			}
			return parsed{m2.Results, m2.String()}, nil
		})
	})
}

func FuzzParseSet(f *testing.F) {
	fuzzSeeds(f, true)
	f.Fuzz(func(t *testing.T, src string) {
		s, err := ParseSet(src)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T", err)
			}
			return
		}
		if len(s.Constraints) != len(s.Eq) || len(s.Constraints) == 0 {
			t.Fatalf("malformed set %+v", s)
		}
		checkRoundTrips(t, s.Constraints, s.String(), func(text string) (parsed, error) {
			s2, err := ParseSet(text)
			if err != nil {
				return parsed{}, err
			}
			for i := range s.Eq {
				if s2.Eq[i] != s.Eq[i] {
					t.Fatalf("%q: constraint %d changed kind", text, i)
				}
			}
			return parsed{s2.Constraints, s2.String()}, nil
		})
	})
}
