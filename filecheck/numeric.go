package filecheck

import (
	"math/big"
	"strings"
)

// formatKind is the conversion of a numeric format specifier.
type formatKind int

const (
	fmtNone formatKind = iota
	fmtUnsigned
	fmtSigned
	fmtHexUpper
	fmtHexLower
)

// maxPrecision bounds the zero padding of a substituted number.
const maxPrecision = 1 << 20

// exprFormat is a matching format such as %u, %.8X or %#x.
type exprFormat struct {
	kind      formatKind
	precision int
	alt       bool
}

func (f exprFormat) String() string {
	switch f.kind {
	case fmtUnsigned:
		return "%u"
	case fmtSigned:
		return "%d"
	case fmtHexUpper:
		return "%X"
	case fmtHexLower:
		return "%x"
	}
	return "<none>"
}

// equal mirrors ExpressionFormat::operator==, under which no format equals
// anything, itself included.
func (f exprFormat) equal(g exprFormat) bool {
	return f.kind != fmtNone && f == g
}

// wildcardRegex is the expression matching any value in format f.
func (f exprFormat) wildcardRegex() string {
	alt := ""
	if f.alt {
		alt = "0x"
	}
	prec := func(s string) string { return alt + s + "{" + itoa(f.precision) + "}" }
	switch f.kind {
	case fmtUnsigned:
		if f.precision > 0 {
			return prec("([1-9][0-9]*)?[0-9]")
		}
		return "[0-9]+"
	case fmtSigned:
		if f.precision > 0 {
			return prec("-?([1-9][0-9]*)?[0-9]")
		}
		return "-?[0-9]+"
	case fmtHexUpper:
		if f.precision > 0 {
			return prec("([1-9A-F][0-9A-F]*)?[0-9A-F]")
		}
		return alt + "[0-9A-F]+"
	case fmtHexLower:
		if f.precision > 0 {
			return prec("([1-9a-f][0-9a-f]*)?[0-9a-f]")
		}
		return alt + "[0-9a-f]+"
	}
	return ""
}

// matchingString formats v; it fails (overflow) for a negative value in
// an unsigned format.
func (f exprFormat) matchingString(v *big.Int) (string, bool) {
	if f.kind != fmtSigned && v.Sign() < 0 {
		return "", false
	}
	if f.precision > maxPrecision {
		// LLVM would build a string of billions of zeros; nothing that
		// long can match, so report it as an overflow instead.
		return "", false
	}
	var digits string
	abs := new(big.Int).Abs(v)
	switch f.kind {
	case fmtUnsigned, fmtSigned:
		digits = abs.Text(10)
	case fmtHexUpper:
		digits = strings.ToUpper(abs.Text(16))
	case fmtHexLower:
		digits = abs.Text(16)
	default:
		return "", false
	}
	var sb strings.Builder
	if v.Sign() < 0 {
		sb.WriteByte('-')
	}
	if f.alt {
		sb.WriteString("0x")
	}
	for i := len(digits); i < f.precision; i++ {
		sb.WriteByte('0')
	}
	sb.WriteString(digits)
	return sb.String(), true
}

// valueFromString parses text matched by f's wildcard regex.
func (f exprFormat) valueFromString(s string) *big.Int {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	base := 10
	if f.kind == fmtHexUpper || f.kind == fmtHexLower {
		base = 16
		if f.alt {
			s = strings.TrimPrefix(s, "0x")
		}
	}
	v, ok := new(big.Int).SetString(s, base)
	if !ok {
		v = new(big.Int)
	}
	if neg {
		v.Neg(v)
	}
	return v
}

// numVar is a numeric variable. Patterns that mention a name share one
// numVar, so clearing it (--enable-var-scope) affects them all.
type numVar struct {
	name    string
	format  exprFormat
	value   *big.Int // nil while undefined
	matched string   // the input text that defined the value, if any
	matchAt int      // input offset of matched, -1 if not from the input
	defLine int      // check-file line that created the variable, 0 if none
}

// evalError is an error found while evaluating an expression: the use of
// a variable without a value, or an overflow (division by zero).
type evalError struct {
	overflow bool
	name     cursor // the undefined variable
}

// exprNode is a node of a numeric expression.
type exprNode interface {
	eval() (*big.Int, []evalError)
	implicitFormat() (exprFormat, *locError)
	text() cursor
}

type literalNode struct {
	str cursor
	v   *big.Int
}

func (n *literalNode) eval() (*big.Int, []evalError)           { return n.v, nil }
func (n *literalNode) implicitFormat() (exprFormat, *locError) { return exprFormat{}, nil }
func (n *literalNode) text() cursor                            { return n.str }

type varUseNode struct {
	name cursor
	v    *numVar
}

func (n *varUseNode) eval() (*big.Int, []evalError) {
	if n.v.value == nil {
		return nil, []evalError{{name: n.name}}
	}
	return n.v.value, nil
}
func (n *varUseNode) implicitFormat() (exprFormat, *locError) { return n.v.format, nil }
func (n *varUseNode) text() cursor                            { return n.name }

type binOpNode struct {
	str         cursor
	fn          func(a, b *big.Int) (*big.Int, bool)
	left, right exprNode
}

func (n *binOpNode) eval() (*big.Int, []evalError) {
	l, lerr := n.left.eval()
	r, rerr := n.right.eval()
	if lerr != nil || rerr != nil {
		return nil, append(lerr, rerr...)
	}
	v, ok := n.fn(l, r)
	if !ok {
		return nil, []evalError{{overflow: true}}
	}
	return v, nil
}

func (n *binOpNode) implicitFormat() (exprFormat, *locError) {
	lf, lerr := n.left.implicitFormat()
	rf, rerr := n.right.implicitFormat()
	if lerr != nil {
		return exprFormat{}, lerr
	}
	if rerr != nil {
		return exprFormat{}, rerr
	}
	if lf.kind != fmtNone && rf.kind != fmtNone && !lf.equal(rf) {
		return exprFormat{}, errorAt(n.str, "implicit format conflict between '"+n.left.text().s+"' ("+lf.String()+") and '"+n.right.text().s+"' ("+rf.String()+"), need an explicit format specifier")
	}
	if lf.kind != fmtNone {
		return lf, nil
	}
	return rf, nil
}

func (n *binOpNode) text() cursor { return n.str }

var binaryFuncs = map[string]func(a, b *big.Int) (*big.Int, bool){
	"add": func(a, b *big.Int) (*big.Int, bool) { return new(big.Int).Add(a, b), true },
	"sub": func(a, b *big.Int) (*big.Int, bool) { return new(big.Int).Sub(a, b), true },
	"mul": func(a, b *big.Int) (*big.Int, bool) { return new(big.Int).Mul(a, b), true },
	"div": func(a, b *big.Int) (*big.Int, bool) {
		if b.Sign() == 0 {
			return nil, false
		}
		return new(big.Int).Quo(a, b), true
	},
	"max": func(a, b *big.Int) (*big.Int, bool) {
		if a.Cmp(b) < 0 {
			return b, true
		}
		return a, true
	},
	"min": func(a, b *big.Int) (*big.Int, bool) {
		if a.Cmp(b) < 0 {
			return a, true
		}
		return b, true
	},
}

// expression is a parsed numeric substitution block: an optional
// expression and the format its value is printed or matched in.
type expression struct {
	ast    exprNode
	format exprFormat
}

// locError is a diagnostic about the check file or the command line.
type locError struct {
	at  loc
	msg string
}

func errorAt(c cursor, msg string) *locError { return &locError{at: c.loc(), msg: msg} }

// allowedOperand restricts what parseNumericOperand accepts.
type allowedOperand int

const (
	operandLineVar allowedOperand = iota
	operandLegacyLiteral
	operandAny
)

func isValidVarNameStart(c byte) bool {
	return c == '_' || ('a' <= c|0x20 && c|0x20 <= 'z')
}

// parseVariable parses a variable name at the front of *c: an optional '$'
// (global) or '@' (pseudo) and [A-Za-z_][A-Za-z0-9_]*.
func parseVariable(c *cursor) (name cursor, pseudo bool, err *locError) {
	if c.empty() {
		return cursor{}, false, errorAt(*c, "empty variable name")
	}
	i := 0
	pseudo = c.s[0] == '@'
	if c.s[0] == '$' || pseudo {
		i++
	}
	if i == len(c.s) {
		kind := "global "
		if pseudo {
			kind = "pseudo "
		}
		return cursor{}, false, errorAt(c.drop(i), "empty "+kind+"variable name")
	}
	if !isValidVarNameStart(c.s[i]) {
		return cursor{}, false, errorAt(*c, "invalid variable name")
	}
	i++
	for i < len(c.s) && (c.s[i] == '_' || isAlnum(c.s[i])) {
		i++
	}
	name = c.take(i)
	*c = c.drop(i)
	return name, pseudo, nil
}

// consumeInteger parses an unsigned integer at the front of *c like
// StringRef::consumeInteger into an APInt. Radix 0 senses "0x", "0b", "0o"
// and a leading "0" as in C.
func consumeInteger(c *cursor, radix int) (*big.Int, bool) {
	s := c.s
	if radix == 0 {
		radix = 10
		switch {
		case len(s) >= 2 && s[0] == '0' && s[1]|0x20 == 'x':
			radix, s = 16, s[2:]
		case len(s) >= 2 && s[0] == '0' && s[1]|0x20 == 'b':
			radix, s = 2, s[2:]
		case len(s) >= 2 && s[0] == '0' && s[1] == 'o':
			radix, s = 8, s[2:]
		case len(s) >= 2 && s[0] == '0' && '0' <= s[1] && s[1] <= '9':
			radix, s = 8, s[1:]
		}
	}
	if s == "" {
		return nil, false
	}
	trimmed := strings.TrimLeft(s, "0")
	if trimmed == "" {
		*c = c.drop(len(c.s))
		return new(big.Int), true
	}
	i := 0
	for i < len(trimmed) {
		d := digitValue(trimmed[i])
		if d < 0 || d >= radix {
			break
		}
		i++
	}
	if len(trimmed)-i == len(c.s) {
		return nil, false
	}
	v, _ := new(big.Int).SetString("0"+trimmed[:i], radix)
	if i == 0 {
		v = new(big.Int)
	}
	*c = c.drop(len(c.s) - (len(trimmed) - i))
	return v, true
}

func digitValue(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'z':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'Z':
		return int(c-'A') + 10
	}
	return -1
}
