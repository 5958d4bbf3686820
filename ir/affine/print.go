package affine

import (
	"strconv"
	"strings"
)

// The printer follows MLIR's AsmPrinter::printAffineExprInternal. An
// operand printed in a "strong" context (an operand of *, floordiv, ceildiv
// or mod, or the negated operand of -x) gets parentheses if it is itself a
// binary expression; sums print their operands weakly, with x + y * -1
// shown as x - y, x + y * -c as x - y * c and x + -c as x - c.

func (e DimExpr) String() string      { return "d" + strconv.Itoa(e.Pos) }
func (e SymbolExpr) String() string   { return "s" + strconv.Itoa(e.Pos) }
func (e ConstantExpr) String() string { return strconv.FormatInt(e.Value, 10) }

func (e BinaryExpr) String() string {
	var b strings.Builder
	printExpr(&b, e, false)
	return b.String()
}

func printExpr(b *strings.Builder, e Expr, strong bool) {
	var x BinaryExpr
	switch v := e.(type) {
	case DimExpr:
		b.WriteByte('d')
		b.WriteString(strconv.Itoa(v.Pos))
		return
	case SymbolExpr:
		b.WriteByte('s')
		b.WriteString(strconv.Itoa(v.Pos))
		return
	case ConstantExpr:
		b.WriteString(strconv.FormatInt(v.Value, 10))
		return
	case BinaryExpr:
		x = v
	default:
		b.WriteString("<nil>")
		return
	}

	if strong {
		b.WriteByte('(')
	}
	if x.Kind != KindAdd {
		if c, ok := asConst(x.RHS); ok && c == -1 && x.Kind == KindMul {
			b.WriteByte('-')
			printExpr(b, x.LHS, true)
		} else {
			printExpr(b, x.LHS, true)
			b.WriteString(opSpelling(x.Kind))
			printExpr(b, x.RHS, true)
		}
	} else {
		printSum(b, x)
	}
	if strong {
		b.WriteByte(')')
	}
}

func printSum(b *strings.Builder, x BinaryExpr) {
	if m, ok := asBinary(x.RHS, KindMul); ok {
		if c, ok := asConst(m.RHS); ok {
			if c == -1 {
				printExpr(b, x.LHS, false)
				b.WriteString(" - ")
				_, isAdd := asBinary(m.LHS, KindAdd)
				printExpr(b, m.LHS, isAdd)
				return
			}
			if c < -1 {
				printExpr(b, x.LHS, false)
				b.WriteString(" - ")
				printExpr(b, m.LHS, true)
				b.WriteString(" * ")
				b.WriteString(strconv.FormatInt(-c, 10))
				return
			}
		}
	}
	if c, ok := asConst(x.RHS); ok && c < 0 {
		printExpr(b, x.LHS, false)
		b.WriteString(" - ")
		// -MinInt64 wraps to itself, as in MLIR.
		b.WriteString(strconv.FormatInt(-c, 10))
		return
	}
	printExpr(b, x.LHS, false)
	b.WriteString(" + ")
	printExpr(b, x.RHS, false)
}

func opSpelling(k BinaryKind) string {
	switch k {
	case KindAdd:
		return " + "
	case KindMul:
		return " * "
	case KindMod:
		return " mod "
	case KindFloorDiv:
		return " floordiv "
	case KindCeilDiv:
		return " ceildiv "
	}
	return " ? "
}

// writeIDs writes "(d0, d1, …)" and, if numSymbols > 0, "[s0, s1, …]".
func writeIDs(b *strings.Builder, numDims, numSymbols int) {
	b.WriteByte('(')
	for i := 0; i < numDims; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('d')
		b.WriteString(strconv.Itoa(i))
	}
	b.WriteByte(')')
	if numSymbols > 0 {
		b.WriteByte('[')
		for i := 0; i < numSymbols; i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteByte('s')
			b.WriteString(strconv.Itoa(i))
		}
		b.WriteByte(']')
	}
}
