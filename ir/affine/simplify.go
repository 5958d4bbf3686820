package affine

import "math"

// The constructors below mirror the operators of MLIR's AffineExpr
// (mlir/lib/IR/AffineExpr.cpp as of LLVM 19): each tries a fixed list of
// local rewrites and otherwise builds the node as given. The order of the
// rewrites matters for the printed form and follows MLIR's.

// Add returns a + b in MLIR's canonical form.
func Add(a, b Expr) Expr {
	if s := simplifyAdd(a, b); s != nil {
		return s
	}
	return BinaryExpr{Kind: KindAdd, LHS: a, RHS: b}
}

// Sub returns a - b, which MLIR represents as a + b * -1.
func Sub(a, b Expr) Expr { return Add(a, Neg(b)) }

// Neg returns -a, which MLIR represents as a * -1.
func Neg(a Expr) Expr { return Mul(a, Constant(-1)) }

// Mul returns a * b in MLIR's canonical form. At least one operand should
// be symbolic or constant (IsSymbolicOrConstant); MLIR asserts this, and
// Mul builds the product of two dimensional operands unsimplified.
func Mul(a, b Expr) Expr {
	if s := simplifyMul(a, b); s != nil {
		return s
	}
	return BinaryExpr{Kind: KindMul, LHS: a, RHS: b}
}

// FloorDiv returns a floordiv b in MLIR's canonical form.
func FloorDiv(a, b Expr) Expr {
	if s := simplifyFloorDiv(a, b); s != nil {
		return s
	}
	return BinaryExpr{Kind: KindFloorDiv, LHS: a, RHS: b}
}

// CeilDiv returns a ceildiv b in MLIR's canonical form.
func CeilDiv(a, b Expr) Expr {
	if s := simplifyCeilDiv(a, b); s != nil {
		return s
	}
	return BinaryExpr{Kind: KindCeilDiv, LHS: a, RHS: b}
}

// Mod returns a mod b in MLIR's canonical form.
func Mod(a, b Expr) Expr {
	if s := simplifyMod(a, b); s != nil {
		return s
	}
	return BinaryExpr{Kind: KindMod, LHS: a, RHS: b}
}

// Binary returns the canonical form of lhs kind rhs, dispatching to Add,
// Mul, Mod, FloorDiv or CeilDiv.
func Binary(kind BinaryKind, lhs, rhs Expr) Expr {
	switch kind {
	case KindAdd:
		return Add(lhs, rhs)
	case KindMul:
		return Mul(lhs, rhs)
	case KindMod:
		return Mod(lhs, rhs)
	case KindFloorDiv:
		return FloorDiv(lhs, rhs)
	case KindCeilDiv:
		return CeilDiv(lhs, rhs)
	}
	return BinaryExpr{Kind: kind, LHS: lhs, RHS: rhs}
}

// asConst returns the value of e if it is a constant.
func asConst(e Expr) (int64, bool) {
	c, ok := e.(ConstantExpr)
	return c.Value, ok
}

// asBinary returns e as a binary expression of the given kind.
func asBinary(e Expr, kind BinaryKind) (BinaryExpr, bool) {
	b, ok := e.(BinaryExpr)
	return b, ok && b.Kind == kind
}

func simplifyAdd(lhs, rhs Expr) Expr {
	lc, lIsConst := asConst(lhs)
	rc, rIsConst := asConst(rhs)
	if lIsConst && rIsConst {
		sum := lc + rc
		if (sum > lc) != (rc > 0) {
			// MLIR refuses to fold an overflowing sum and keeps the node.
			return nil
		}
		return Constant(sum)
	}

	// Constants, then symbolic terms, go to the right.
	if lIsConst || (!IsSymbolicOrConstant(rhs) && IsSymbolicOrConstant(lhs)) {
		return Add(rhs, lhs)
	}
	if rIsConst && rc == 0 {
		return lhs
	}

	// (x + c1) + c2 -> x + (c1 + c2), wrapping like MLIR.
	lBin, lIsAdd := asBinary(lhs, KindAdd)
	if lIsAdd && rIsConst {
		if c1, ok := asConst(lBin.RHS); ok {
			return Add(lBin.LHS, Constant(c1+rc))
		}
	}

	// c1 * x + c2 * x -> (c1 + c2) * x, where a bare x counts as x * 1.
	first, c1 := lhs, int64(1)
	if m, ok := asBinary(lhs, KindMul); ok {
		if c, ok := asConst(m.RHS); ok {
			first, c1 = m.LHS, c
		}
	}
	second, c2 := rhs, int64(1)
	if m, ok := asBinary(rhs, KindMul); ok {
		if c, ok := asConst(m.RHS); ok {
			second, c2 = m.LHS, c
		}
	}
	if first == second {
		return Mul(first, Constant(c1+c2))
	}

	// (x + c) + y -> (x + y) + c.
	if lIsAdd {
		if _, ok := asConst(lBin.RHS); ok {
			return Add(Add(lBin.LHS, rhs), lBin.RHS)
		}
	}

	// x + ((x floordiv q) * q) * -1 and x + (x floordiv q) * -q -> x mod q.
	rBin, ok := asBinary(rhs, KindMul)
	if !ok {
		return nil
	}
	if c, ok := asConst(rBin.RHS); ok && c == -1 {
		if inner, ok := asBinary(rBin.LHS, KindMul); ok {
			div, ok := asBinary(inner.LHS, KindFloorDiv)
			if !ok {
				return nil
			}
			if div.RHS == inner.RHS && lhs == div.LHS {
				return Mod(lhs, inner.RHS)
			}
		}
	}
	div, ok := asBinary(rBin.LHS, KindFloorDiv)
	if !ok {
		return nil
	}
	if lhs == div.LHS && div.RHS == Neg(rBin.RHS) {
		return Mod(lhs, div.RHS)
	}
	return nil
}

func simplifyMul(lhs, rhs Expr) Expr {
	lc, lIsConst := asConst(lhs)
	rc, rIsConst := asConst(rhs)
	if lIsConst && rIsConst {
		if mulOverflows(lc, rc) {
			return nil
		}
		return Constant(lc * rc)
	}

	lSym, rSym := IsSymbolicOrConstant(lhs), IsSymbolicOrConstant(rhs)
	if !lSym && !rSym {
		// Not affine; MLIR asserts. Build it as given rather than loop.
		return nil
	}
	// The constant, or else the symbolic operand, goes to the right.
	if !rSym || lIsConst {
		return Mul(rhs, lhs)
	}
	if rIsConst {
		switch rc {
		case 1:
			return lhs
		case 0:
			return rhs
		}
	}

	if lBin, ok := asBinary(lhs, KindMul); ok {
		if c, ok := asConst(lBin.RHS); ok {
			// (x * c1) * c2 -> x * (c1 * c2), wrapping like MLIR.
			if rIsConst {
				return Mul(lBin.LHS, Constant(c*rc))
			}
			// (x * c) * y -> (x * y) * c.
			return Mul(Mul(lBin.LHS, rhs), lBin.RHS)
		}
	}
	return nil
}

func mulOverflows(a, b int64) bool {
	if a == 0 || b == 0 {
		return false
	}
	p := a * b
	if (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return true
	}
	return p/b != a
}

// divOverflows reports whether a / b overflows (MinInt64 / -1).
func divOverflows(a, b int64) bool { return a == math.MinInt64 && b == -1 }

func simplifyFloorDiv(lhs, rhs Expr) Expr {
	rc, ok := asConst(rhs)
	// Division by zero, or by a non-constant, stays as written.
	if !ok || rc == 0 {
		return nil
	}
	if lc, ok := asConst(lhs); ok {
		if divOverflows(lc, rc) {
			return nil
		}
		return Constant(floorDiv(lc, rc))
	}
	if rc == 1 {
		return lhs
	}
	// (x * c1) floordiv c2 -> x * (c1 / c2) when c2 divides c1.
	if lBin, ok := asBinary(lhs, KindMul); ok {
		if c1, ok := asConst(lBin.RHS); ok && c1%rc == 0 {
			return Mul(lBin.LHS, Constant(c1/rc))
		}
	}
	// (x + y) floordiv c -> x floordiv c + y floordiv c when c is known to
	// divide x or y.
	if lBin, ok := asBinary(lhs, KindAdd); ok {
		if LargestKnownDivisor(lBin.LHS)%rc == 0 || LargestKnownDivisor(lBin.RHS)%rc == 0 {
			return Add(FloorDiv(lBin.LHS, rhs), FloorDiv(lBin.RHS, rhs))
		}
	}
	return nil
}

func simplifyCeilDiv(lhs, rhs Expr) Expr {
	rc, ok := asConst(rhs)
	if !ok || rc == 0 {
		return nil
	}
	if lc, ok := asConst(lhs); ok {
		if divOverflows(lc, rc) {
			return nil
		}
		return Constant(ceilDiv(lc, rc))
	}
	if rc == 1 {
		return lhs
	}
	if lBin, ok := asBinary(lhs, KindMul); ok {
		if c1, ok := asConst(lBin.RHS); ok && c1%rc == 0 {
			return Mul(lBin.LHS, Constant(c1/rc))
		}
	}
	return nil
}

func simplifyMod(lhs, rhs Expr) Expr {
	rc, ok := asConst(rhs)
	// A modulus by zero, a negative number or a non-constant stays as
	// written.
	if !ok || rc < 1 {
		return nil
	}
	if lc, ok := asConst(lhs); ok {
		return Constant(modPositive(lc, rc))
	}
	if LargestKnownDivisor(lhs)%rc == 0 {
		return Constant(0)
	}
	// (x + y) mod c drops whichever term c is known to divide.
	if lBin, ok := asBinary(lhs, KindAdd); ok {
		if LargestKnownDivisor(lBin.LHS)%rc == 0 {
			return Mod(lBin.RHS, rhs)
		}
		if LargestKnownDivisor(lBin.RHS)%rc == 0 {
			return Mod(lBin.LHS, rhs)
		}
	}
	// (x mod a) mod b -> x mod b when b divides a.
	if lBin, ok := asBinary(lhs, KindMod); ok {
		if a, ok := asConst(lBin.RHS); ok && a >= 1 && modPositive(a, rc) == 0 {
			return Mod(lBin.LHS, rhs)
		}
	}
	return nil
}
