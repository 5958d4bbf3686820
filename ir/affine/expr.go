package affine

import "fmt"

// Expr is an affine expression. The concrete types are DimExpr, SymbolExpr,
// ConstantExpr and BinaryExpr; the set is closed. Expressions are immutable
// values, and == compares them structurally.
type Expr interface {
	// String returns the expression as MLIR prints it, with dimensions
	// named d0, d1, … and symbols s0, s1, ….
	String() string
	isExpr()
}

// DimExpr is the dimension identifier at position Pos (printed dPos).
type DimExpr struct{ Pos int }

// SymbolExpr is the symbol identifier at position Pos (printed sPos).
type SymbolExpr struct{ Pos int }

// ConstantExpr is an integer constant.
type ConstantExpr struct{ Value int64 }

// BinaryKind is the operator of a BinaryExpr.
type BinaryKind uint8

// The binary operators, in the order of MLIR's AffineExprKind.
const (
	KindAdd BinaryKind = iota
	KindMul
	KindMod
	KindFloorDiv
	KindCeilDiv
)

// String returns the MLIR name of the operator kind.
func (k BinaryKind) String() string {
	switch k {
	case KindAdd:
		return "add"
	case KindMul:
		return "mul"
	case KindMod:
		return "mod"
	case KindFloorDiv:
		return "floordiv"
	case KindCeilDiv:
		return "ceildiv"
	}
	return fmt.Sprintf("BinaryKind(%d)", uint8(k))
}

// BinaryExpr is LHS Kind RHS. Build it with Add, Mul, Mod, FloorDiv or
// CeilDiv so that it is in MLIR's canonical form.
type BinaryExpr struct {
	Kind     BinaryKind
	LHS, RHS Expr
}

func (DimExpr) isExpr()      {}
func (SymbolExpr) isExpr()   {}
func (ConstantExpr) isExpr() {}
func (BinaryExpr) isExpr()   {}

// Dim returns the dimension identifier at position pos. It panics if pos is
// negative.
func Dim(pos int) Expr {
	if pos < 0 {
		panic(fmt.Sprintf("affine.Dim: negative position %d", pos))
	}
	return DimExpr{Pos: pos}
}

// Symbol returns the symbol identifier at position pos. It panics if pos is
// negative.
func Symbol(pos int) Expr {
	if pos < 0 {
		panic(fmt.Sprintf("affine.Symbol: negative position %d", pos))
	}
	return SymbolExpr{Pos: pos}
}

// Constant returns the constant expression v.
func Constant(v int64) Expr { return ConstantExpr{Value: v} }

// IsSymbolicOrConstant reports whether e contains no dimension identifier.
func IsSymbolicOrConstant(e Expr) bool {
	// Right operands first, iterating down the left spine: sums and
	// products built left to right then answer in constant time.
	for {
		switch x := e.(type) {
		case DimExpr:
			return false
		case BinaryExpr:
			if !IsSymbolicOrConstant(x.RHS) {
				return false
			}
			e = x.LHS
		default:
			return true
		}
	}
}

// IsPureAffine reports whether e is affine in the strict sense: every
// multiplication has a constant operand and every floordiv, ceildiv and
// mod has a constant right-hand side.
func IsPureAffine(e Expr) bool {
	x, ok := e.(BinaryExpr)
	if !ok {
		return true
	}
	switch x.Kind {
	case KindAdd:
		return IsPureAffine(x.LHS) && IsPureAffine(x.RHS)
	case KindMul:
		_, lc := x.LHS.(ConstantExpr)
		_, rc := x.RHS.(ConstantExpr)
		return IsPureAffine(x.LHS) && IsPureAffine(x.RHS) && (lc || rc)
	default:
		_, rc := x.RHS.(ConstantExpr)
		return IsPureAffine(x.LHS) && rc
	}
}

// LargestKnownDivisor returns the largest integer known to divide every
// value of e, computed the way MLIR does (with its wrap-around on
// overflow). It is what the mod and floordiv simplifications consult.
func LargestKnownDivisor(e Expr) int64 {
	switch x := e.(type) {
	case ConstantExpr:
		if x.Value < 0 {
			return -x.Value
		}
		return x.Value
	case BinaryExpr:
		switch x.Kind {
		case KindMul:
			return LargestKnownDivisor(x.LHS) * LargestKnownDivisor(x.RHS)
		case KindAdd, KindMod:
			return int64(gcd(uint64(LargestKnownDivisor(x.LHS)), uint64(LargestKnownDivisor(x.RHS))))
		default:
			if c, ok := x.RHS.(ConstantExpr); ok && c.Value != 0 {
				l := LargestKnownDivisor(x.LHS)
				if l%c.Value == 0 {
					return l / c.Value
				}
			}
			return 1
		}
	}
	return 1
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// Walk calls fn for every subexpression of e in post-order (operands before
// the expression that uses them), like MLIR's AffineExpr::walk.
func Walk(e Expr, fn func(Expr)) {
	if x, ok := e.(BinaryExpr); ok {
		Walk(x.LHS, fn)
		Walk(x.RHS, fn)
	}
	fn(e)
}

// Eval evaluates e for the given dimension and symbol values. Arithmetic
// wraps around on overflow. It fails if e refers to a position outside dims
// or symbols, divides by zero, or takes a modulus by a non-positive value,
// which MLIR leaves undefined.
func Eval(e Expr, dims, symbols []int64) (int64, error) {
	switch x := e.(type) {
	case ConstantExpr:
		return x.Value, nil
	case DimExpr:
		if x.Pos >= len(dims) {
			return 0, fmt.Errorf("affine: d%d out of range (%d dimensions)", x.Pos, len(dims))
		}
		return dims[x.Pos], nil
	case SymbolExpr:
		if x.Pos >= len(symbols) {
			return 0, fmt.Errorf("affine: s%d out of range (%d symbols)", x.Pos, len(symbols))
		}
		return symbols[x.Pos], nil
	case BinaryExpr:
		l, err := Eval(x.LHS, dims, symbols)
		if err != nil {
			return 0, err
		}
		r, err := Eval(x.RHS, dims, symbols)
		if err != nil {
			return 0, err
		}
		switch x.Kind {
		case KindAdd:
			return l + r, nil
		case KindMul:
			return l * r, nil
		case KindMod:
			if r < 1 {
				return 0, fmt.Errorf("affine: %d mod %d is undefined", l, r)
			}
			return modPositive(l, r), nil
		case KindFloorDiv, KindCeilDiv:
			if r == 0 {
				return 0, fmt.Errorf("affine: division of %d by zero", l)
			}
			if x.Kind == KindFloorDiv {
				return floorDiv(l, r), nil
			}
			return ceilDiv(l, r), nil
		}
	}
	return 0, fmt.Errorf("affine: cannot evaluate %v", e)
}

// floorDiv returns ⌊a/b⌋ for b != 0 (wrapping for MinInt64 / -1).
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// ceilDiv returns ⌈a/b⌉ for b != 0 (wrapping for MinInt64 / -1).
func ceilDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) == (b < 0) {
		q++
	}
	return q
}

// modPositive returns a mod b in [0, b) for b >= 1.
func modPositive(a, b int64) int64 {
	m := a % b
	if m < 0 {
		m += b
	}
	return m
}
