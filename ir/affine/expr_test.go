package affine

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestBuilders(t *testing.T) {
	d0, d1, s0, s1 := Dim(0), Dim(1), Symbol(0), Symbol(1)
	c := Constant
	tests := []struct {
		e    Expr
		want string
	}{
		{Add(d0, c(1)), "d0 + 1"},
		{Add(c(1), d0), "d0 + 1"},
		{Add(s0, d0), "d0 + s0"},
		{Sub(s0, Mul(d0, s1)), "-(d0 * s1) + s0"},
		{Sub(d0, d1), "d0 - d1"},
		{Neg(Add(d0, c(1))), "-(d0 + 1)"},
		{Neg(d0), "-d0"},
		{Neg(Neg(d0)), "d0"},
		{Mul(c(2), d0), "d0 * 2"},
		{Mul(Mul(d0, c(4)), c(5)), "d0 * 20"},
		{Mul(Mul(d0, c(2)), s0), "(d0 * s0) * 2"},
		{Add(Mul(FloorDiv(d0, c(4)), c(4)), Mod(d0, c(4))), "(d0 floordiv 4) * 4 + d0 mod 4"},
		{Sub(d0, Mul(FloorDiv(d0, c(4)), c(4))), "d0 mod 4"},
		{CeilDiv(d0, c(1)), "d0"},
		{Mod(d0, c(1)), "0"},
		{Mod(Mod(d0, c(6)), c(3)), "d0 mod 3"},
		{FloorDiv(c(-5), c(3)), "-2"},
		{CeilDiv(c(-5), c(3)), "-1"},
		{Mod(c(-5), c(3)), "1"},
		{FloorDiv(c(5), c(-2)), "-3"},
		{Mod(c(5), c(-2)), "5 mod -2"},
		{FloorDiv(d0, c(0)), "d0 floordiv 0"},
		{FloorDiv(c(math.MinInt64), c(-1)), "-9223372036854775808 floordiv -1"},
		{Add(c(math.MaxInt64), c(1)), "9223372036854775807 + 1"},
		{Mul(c(math.MaxInt64), c(2)), "9223372036854775807 * 2"},
		{Add(Add(d0, c(math.MaxInt64)), c(1)), "d0 - -9223372036854775808"},
		{Add(d0, Mul(Add(d1, s0), c(-2))), "d0 - (d1 + s0) * 2"},
		{Add(d0, c(-3)), "d0 - 3"},
		{Mod(d0, s0), "d0 mod s0"},
		{FloorDiv(Neg(s0), c(4)), "(-s0) floordiv 4"},
		{Mul(d0, d1), "d0 * d1"}, // not affine: built as given
	}
	for _, tt := range tests {
		if got := tt.e.String(); got != tt.want {
			t.Errorf("got %s, want %s", got, tt.want)
		}
	}
}

func TestBinaryMatchesParser(t *testing.T) {
	m, err := ParseMap("(d0, d1)[s0] -> (d0 * 3 + (d1 floordiv 2) * s0 - d0 mod 5)")
	if err != nil {
		t.Fatal(err)
	}
	d0, d1, s0, c := Dim(0), Dim(1), Symbol(0), Constant
	built := Sub(Add(Mul(d0, c(3)), Mul(FloorDiv(d1, c(2)), s0)), Mod(d0, c(5)))
	if m.Results[0] != built {
		t.Errorf("parsed %s, built %s", m.Results[0], built)
	}
	if Binary(KindCeilDiv, d0, c(1)) != d0 {
		t.Error("Binary(KindCeilDiv, d0, 1) did not simplify")
	}
}

func TestPredicates(t *testing.T) {
	d0, s0, c := Dim(0), Symbol(0), Constant
	if !IsSymbolicOrConstant(Add(s0, c(1))) || IsSymbolicOrConstant(Add(d0, s0)) {
		t.Error("IsSymbolicOrConstant")
	}
	if !IsPureAffine(Add(Mul(d0, c(2)), FloorDiv(s0, c(3)))) || IsPureAffine(Mul(d0, s0)) || IsPureAffine(Mod(d0, s0)) {
		t.Error("IsPureAffine")
	}
	for _, tt := range []struct {
		e    Expr
		want int64
	}{
		{d0, 1},
		{c(-12), 12},
		{Mul(d0, c(6)), 6},
		{Add(Mul(d0, c(6)), Mul(s0, c(4))), 2},
		{FloorDiv(Mod(Mul(d0, c(4)), c(8)), c(2)), 2},
		{BinaryExpr{Kind: KindFloorDiv, LHS: Mul(d0, c(6)), RHS: c(4)}, 1},
	} {
		if got := LargestKnownDivisor(tt.e); got != tt.want {
			t.Errorf("LargestKnownDivisor(%s) = %d, want %d", tt.e, got, tt.want)
		}
	}
}

func TestWalkAndEval(t *testing.T) {
	m, err := ParseMap("(i, j)[n] -> ((i + j * n) floordiv 3 - (i ceildiv 2) mod n)")
	if err != nil {
		t.Fatal(err)
	}
	e := m.Results[0]
	var kinds []string
	Walk(e, func(x Expr) {
		if b, ok := x.(BinaryExpr); ok {
			kinds = append(kinds, b.Kind.String())
		}
	})
	if got := strings.Join(kinds, " "); got != "mul add floordiv ceildiv mod mul add" {
		t.Errorf("post-order kinds %q", got)
	}
	for _, tt := range []struct{ i, j, n, want int64 }{
		{0, 0, 1, 0},
		{7, 2, 5, 1},
		{-7, 1, 4, -2},
	} {
		got, err := Eval(e, []int64{tt.i, tt.j}, []int64{tt.n})
		if err != nil || got != tt.want {
			t.Errorf("Eval at (%d, %d)[%d] = %d, %v; want %d", tt.i, tt.j, tt.n, got, err, tt.want)
		}
	}
	if _, err := Eval(e, []int64{1, 1}, []int64{0}); err == nil {
		t.Error("Eval: mod 0 did not fail")
	}
	if _, err := Eval(e, []int64{1}, nil); err == nil {
		t.Error("Eval: missing values did not fail")
	}
}

func TestMapAndSet(t *testing.T) {
	for _, tt := range []struct {
		src      string
		identity bool
	}{
		{"(d0, d1) -> (d0, d1)", true},
		{"(i, j)[s0] -> (i, j)", true}, // symbols are ignored, as in MLIR
		{"() -> ()", true},
		{"(d0, d1) -> (d1, d0)", false},
		{"(d0) -> (d0, d0)", false},
		{"() -> (0)", false},
	} {
		m, err := ParseMap(tt.src)
		if err != nil {
			t.Fatal(err)
		}
		if m.IsIdentity() != tt.identity {
			t.Errorf("%s: IsIdentity = %v", tt.src, !tt.identity)
		}
	}
	a, _ := ParseMap("(i)[n] -> (i + n, 2 * i)")
	b, _ := ParseMap("(d0)[s0] -> (s0 + d0, d0 * 2)")
	c, _ := ParseMap("(d0, d1)[s0] -> (d0 + s0, d0 * 2)")
	if !a.Equal(b) || a.Equal(c) || a.Equal(nil) {
		t.Error("Map.Equal")
	}
	s1, _ := ParseSet("(i)[n] : (i >= 0, n - i - 1 >= 0, i == 3)")
	s2, _ := ParseSet("(d0)[s0] : (0 <= d0, -d0 + s0 - 1 >= 0, d0 - 3 == 0)")
	s3, _ := ParseSet("(d0)[s0] : (0 <= d0, -d0 + s0 - 1 >= 0, d0 - 3 >= 0)")
	if !s1.Equal(s2) || s1.Equal(s3) {
		t.Errorf("Set.Equal: %s vs %s vs %s", s1, s2, s3)
	}
	m := &Map{NumDims: 2, NumSymbols: 1, Results: []Expr{Add(Dim(0), Symbol(0)), Constant(-1)}}
	if got := m.String(); got != "(d0, d1)[s0] -> (d0 + s0, -1)" {
		t.Errorf("Map.String = %s", got)
	}
	s := &Set{NumDims: 1, Constraints: []Expr{Dim(0), Sub(Constant(10), Dim(0))}, Eq: []bool{false, true}}
	if got := s.String(); got != "(d0) : (d0 >= 0, -d0 + 10 == 0)" {
		t.Errorf("Set.String = %s", got)
	}
}

func TestPrefix(t *testing.T) {
	text := "(d0) -> (d0 + 1)>} : () -> ()"
	m, n, err := ParseMapPrefix(text)
	if err != nil || text[n:] != ">} : () -> ()" || m.String() != "(d0) -> (d0 + 1)" {
		t.Errorf("ParseMapPrefix = %v, %d, %v", m, n, err)
	}
	text = "(d0)[s0] : (d0 >= s0)>>"
	s, n, err := ParseSetPrefix(text)
	if err != nil || text[n:] != ">>" || s.String() != "(d0)[s0] : (d0 - s0 >= 0)" {
		t.Errorf("ParseSetPrefix = %v, %d, %v", s, n, err)
	}
	// A missing comparison swallows the closing '>' as the start of '>=',
	// as in mlir-opt, and the error lands on the token after it.
	_, _, err = ParseSetPrefix("(d0) : ((d0)>} : () -> ()")
	if e, ok := err.(*Error); !ok || e.Offset != 13 || !strings.HasPrefix(e.Msg, "expected '== affine-expr'") {
		t.Errorf("ParseSetPrefix error = %v", err)
	}
	if _, _, err := ParseMapPrefix("(d0) : (d0 >= 0)>"); err == nil || err.Error() != "offset 0: expected AffineMap, but got IntegerSet" {
		t.Errorf("ParseMapPrefix of a set: %v", err)
	}
	if _, _, err := ParseSetPrefix(" (d0) -> (d0)>"); err == nil || err.Error() != "offset 1: expected IntegerSet, but got AffineMap" {
		t.Errorf("ParseSetPrefix of a map: %v", err)
	}
}

func TestHostileInput(t *testing.T) {
	for _, src := range []string{
		"(d0) -> (" + strings.Repeat("(", 100000) + "d0" + strings.Repeat(")", 100000) + ")",
		"(d0) -> (" + strings.Repeat("-", 100000) + "d0)",
		"(d0) -> (" + strings.Repeat("-(", 100000) + "d0",
	} {
		_, err := ParseMap(src)
		if e, ok := err.(*Error); !ok || e.Msg != "affine expression nested too deeply" {
			t.Errorf("deep nesting: %v", err)
		}
	}
	// Nesting up to the limit is fine.
	src := "(d0) -> (" + strings.Repeat("(", MaxNesting-1) + "d0" + strings.Repeat(")", MaxNesting-1) + ")"
	if m, err := ParseMap(src); err != nil || m.String() != "(d0) -> (d0)" {
		t.Errorf("nesting %d: %v", MaxNesting-1, err)
	}
	// Long flat chains are parsed iteratively.
	var b strings.Builder
	b.WriteString("(d0, d1)[s0] -> (d0")
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&b, " + d%d * %d", i%2, i%7)
	}
	b.WriteString(")")
	if _, err := ParseMap(b.String()); err != nil {
		t.Error(err)
	}
}

func TestErrorString(t *testing.T) {
	_, err := ParseMap("(d0) -> (d0 + x)")
	if err == nil || err.Error() != "offset 13: use of undeclared identifier" {
		t.Errorf("got %v", err)
	}
}
