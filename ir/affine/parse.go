package affine

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxNesting bounds how deeply parentheses and unary minus may nest in
// parsed text. MLIR has no such limit (it recurses until the stack runs
// out); the bound lets hostile input fail with an error instead.
const MaxNesting = 1000

// Error is a parse error: Offset is the byte offset into the parsed text at
// which mlir-opt reports the problem, and Msg is its message.
type Error struct {
	Offset int
	Msg    string
}

func (e *Error) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

// ParseMap parses the body of an `affine_map<…>` attribute: src is the text
// between `affine_map<` and the matching `>`.
func ParseMap(src string) (*Map, error) {
	m, n, err := ParseMapPrefix(src)
	if err != nil {
		return nil, err
	}
	if p := newParser(src[n:]); p.tok.kind != tokEOF {
		return nil, trailingError(src, n, p, "expected '>' in affine map")
	}
	return m, nil
}

// ParseSet parses the body of an `affine_set<…>` attribute: src is the text
// between `affine_set<` and the matching `>`.
//
// One diagnostic depends on the text after the body: when src ends just
// after a constraint's left-hand side, mlir-opt reads the closing `>` as
// the first half of `>=` and reports the missing comparison at the token
// after it. ParseSet reports it at len(src); ParseSetPrefix, given the text
// that follows too, matches mlir-opt exactly.
func ParseSet(src string) (*Set, error) {
	s, n, err := ParseSetPrefix(src)
	if err != nil {
		return nil, err
	}
	if p := newParser(src[n:]); p.tok.kind != tokEOF {
		return nil, trailingError(src, n, p, "expected '>' in integer set")
	}
	return s, nil
}

// ParseMapPrefix parses an affine map body at the start of src and returns
// it with the number of bytes it spans, so that a caller parsing
// `affine_map<` can continue at the closing `>`.
func ParseMapPrefix(src string) (*Map, int, error) {
	p := newParser(src)
	start := p.tok.pos
	m, s := p.parseMapOrSet()
	if p.err != nil {
		return nil, 0, p.err
	}
	if s != nil {
		return nil, 0, &Error{Offset: start, Msg: "expected AffineMap, but got IntegerSet"}
	}
	return m, p.prevEnd, nil
}

// ParseSetPrefix parses an integer set body at the start of src and returns
// it with the number of bytes it spans.
func ParseSetPrefix(src string) (*Set, int, error) {
	p := newParser(src)
	start := p.tok.pos
	m, s := p.parseMapOrSet()
	if p.err != nil {
		return nil, 0, p.err
	}
	if m != nil {
		return nil, 0, &Error{Offset: start, Msg: "expected IntegerSet, but got AffineMap"}
	}
	return s, p.prevEnd, nil
}

// trailingError reports the token after a complete body the way MLIR
// reports the missing `>`.
func trailingError(src string, n int, rest *parser, msg string) error {
	if rest.lex.err != nil {
		e := *rest.lex.err
		e.Offset += n
		return &e
	}
	full := newParser(src)
	return &Error{Offset: full.wrongTokenLoc(n + rest.tok.pos), Msg: msg}
}

// parser is a recursive-descent parser following MLIR's AffineParser; the
// comments name the MLIR functions whose behaviour, including the choice
// of message and location for each error, the code reproduces.
type parser struct {
	src     string
	lex     lexer
	tok     token
	prevEnd int // end of the last consumed token
	err     *Error
	depth   int
	names   map[string]Expr
}

func newParser(src string) *parser {
	p := &parser{src: src, lex: lexer{src: src}}
	p.tok = p.lex.next()
	return p
}

func (p *parser) consume() {
	p.prevEnd = p.tok.end
	p.tok = p.lex.next()
}

func (p *parser) consumeIf(k tokenKind) bool {
	if p.tok.kind != k {
		return false
	}
	p.consume()
	return true
}

// fail records an error at off unless one is already recorded; like MLIR,
// it stays silent when the current token is a lexical error, which has
// been reported already.
func (p *parser) fail(off int, msg string) {
	switch {
	case p.err != nil:
	case p.tok.kind == tokError:
		p.err = p.lex.err
	default:
		p.err = &Error{Offset: off, Msg: msg}
	}
}

// failWrongToken reports an unexpected current token the way MLIR's
// emitWrongTokenError does: at the end of the preceding token, skipping
// back over whitespace, blank lines and comment lines.
func (p *parser) failWrongToken(msg string) {
	p.fail(p.wrongTokenLoc(p.tok.pos), msg)
}

func (p *parser) wrongTokenLoc(loc int) int {
	buf := p.src[:loc]
	for {
		buf = strings.TrimRight(buf, " \t")
		if buf == "" {
			// The body follows the '<' of affine_map< or affine_set<.
			return 0
		}
		if c := buf[len(buf)-1]; c != '\n' && c != '\r' {
			return len(buf)
		}
		buf = buf[:len(buf)-1]
		line := buf
		if i := strings.LastIndexAny(line, "\n\r"); i >= 0 {
			line = line[i:]
		}
		if i := strings.Index(line, "//"); i >= 0 {
			buf = buf[:len(buf)-(len(line)-i)]
		}
	}
}

// consumeBoth consumes a token of kind a and then one of kind b. Like
// MLIR's consumeIf(a) && consumeIf(b), it keeps the first token consumed
// when the second does not match.
func (p *parser) consumeBoth(a, b tokenKind) bool {
	return p.consumeIf(a) && p.consumeIf(b)
}

// expect consumes a token of kind k or reports msg (MLIR's parseToken).
func (p *parser) expect(k tokenKind, msg string) bool {
	if p.consumeIf(k) {
		return true
	}
	p.failWrongToken(msg)
	return false
}

func isIdentifier(k tokenKind) bool {
	return k == tokIdent || k == tokFloorDiv || k == tokCeilDiv || k == tokMod || k == tokSymbol
}

func (p *parser) spelling() string { return p.src[p.tok.pos:p.tok.end] }

// parseList parses a comma-separated list between open and close (MLIR's
// parseCommaSeparatedList); an empty list is allowed.
func (p *parser) parseList(open, close tokenKind, context string, elt func() bool) bool {
	openS, closeS := "'('", "')'"
	if open == tokLSquare {
		openS, closeS = "'['", "']'"
	}
	if !p.expect(open, "expected "+openS+context) {
		return false
	}
	if p.consumeIf(close) {
		return true
	}
	if !elt() {
		return false
	}
	for p.consumeIf(tokComma) {
		if !elt() {
			return false
		}
	}
	return p.expect(close, "expected "+closeS+context)
}

// parseMapOrSet is MLIR's parseAffineMapOrIntegerSetInline.
func (p *parser) parseMapOrSet() (*Map, *Set) {
	p.names = make(map[string]Expr)
	numDims, numSymbols := 0, 0
	define := func(e Expr) bool {
		if !isIdentifier(p.tok.kind) {
			p.failWrongToken("expected bare identifier")
			return false
		}
		name := p.spelling()
		if _, dup := p.names[name]; dup {
			p.fail(p.tok.pos, "redefinition of identifier '"+name+"'")
			return false
		}
		p.consume()
		p.names[name] = e
		return true
	}
	if !p.parseList(tokLParen, tokRParen, " in dimensional identifier list", func() bool {
		numDims++
		return define(DimExpr{Pos: numDims - 1})
	}) {
		return nil, nil
	}
	if p.tok.kind == tokLSquare {
		if !p.parseList(tokLSquare, tokRSquare, " in symbol list", func() bool {
			numSymbols++
			return define(SymbolExpr{Pos: numSymbols - 1})
		}) {
			return nil, nil
		}
	}

	if p.consumeIf(tokArrow) {
		m := &Map{NumDims: numDims, NumSymbols: numSymbols, Results: []Expr{}}
		if !p.parseList(tokLParen, tokRParen, " in affine map range", func() bool {
			e := p.parseExpr()
			if e != nil {
				m.Results = append(m.Results, e)
			}
			return e != nil
		}) {
			return nil, nil
		}
		return m, nil
	}
	if !p.expect(tokColon, "expected '->' or ':'") {
		return nil, nil
	}
	s := &Set{NumDims: numDims, NumSymbols: numSymbols}
	if !p.parseList(tokLParen, tokRParen, " in integer set constraint list", func() bool {
		e, eq := p.parseConstraint()
		if e != nil {
			s.Constraints = append(s.Constraints, e)
			s.Eq = append(s.Eq, eq)
		}
		return e != nil
	}) {
		return nil, nil
	}
	if len(s.Constraints) == 0 {
		s.Constraints, s.Eq = []Expr{Constant(0)}, []bool{true}
	}
	return nil, s
}

// parseConstraint is MLIR's parseAffineConstraint. The comparison is two
// tokens, so `> =` is accepted, and the tests short-circuit exactly as in
// MLIR.
func (p *parser) parseConstraint() (Expr, bool) {
	lhs := p.parseExpr()
	if lhs == nil {
		return nil, false
	}
	if p.consumeBoth(tokGreater, tokEqual) {
		rhs := p.parseExpr()
		if rhs == nil {
			return nil, false
		}
		return Sub(lhs, rhs), false
	}
	if p.consumeBoth(tokLess, tokEqual) {
		rhs := p.parseExpr()
		if rhs == nil {
			return nil, false
		}
		return Sub(rhs, lhs), false
	}
	if p.consumeBoth(tokEqual, tokEqual) {
		rhs := p.parseExpr()
		if rhs == nil {
			return nil, false
		}
		return Sub(lhs, rhs), true
	}
	p.fail(p.tok.pos, "expected '== affine-expr' or '>= affine-expr' at end of affine constraint")
	return nil, false
}

// parseExpr parses a sum of products (MLIR's parseAffineLowPrecOpExpr,
// written as a loop). All operators associate to the left.
func (p *parser) parseExpr() Expr {
	var acc Expr
	sub := false
	for {
		term := p.parseOperand(acc)
		if term == nil {
			return nil
		}
		if op, ok := p.highPrecOp(); ok {
			loc := p.tok.pos
			p.consume()
			if term = p.parseProduct(term, op, loc); term == nil {
				return nil
			}
		}
		switch {
		case acc == nil:
			acc = term
		case sub:
			acc = Sub(acc, term)
		default:
			acc = Add(acc, term)
		}
		switch p.tok.kind {
		case tokPlus:
			sub = false
		case tokMinus:
			sub = true
		default:
			return acc
		}
		p.consume()
	}
}

func (p *parser) highPrecOp() (BinaryKind, bool) {
	switch p.tok.kind {
	case tokStar:
		return KindMul, true
	case tokFloorDiv:
		return KindFloorDiv, true
	case tokCeilDiv:
		return KindCeilDiv, true
	case tokMod:
		return KindMod, true
	}
	return 0, false
}

// parseProduct parses the rest of lhs op … (MLIR's
// parseAffineHighPrecOpExpr). As in MLIR, a non-affine operation followed
// by another operator is reported at that next operator.
func (p *parser) parseProduct(lhs Expr, op BinaryKind, opLoc int) Expr {
	for {
		rhs := p.parseOperand(lhs)
		if rhs == nil {
			return nil
		}
		next, ok := p.highPrecOp()
		if !ok {
			return p.binary(op, lhs, rhs, opLoc)
		}
		loc := p.tok.pos
		p.consume()
		if lhs = p.binary(op, lhs, rhs, loc); lhs == nil {
			return nil
		}
		op, opLoc = next, loc
	}
}

// binary builds lhs op rhs after the semi-affine checks of MLIR's
// getAffineBinaryOpExpr.
func (p *parser) binary(op BinaryKind, lhs, rhs Expr, loc int) Expr {
	if op == KindMul {
		if !IsSymbolicOrConstant(lhs) && !IsSymbolicOrConstant(rhs) {
			p.fail(loc, "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic")
			return nil
		}
		return Mul(lhs, rhs)
	}
	if !IsSymbolicOrConstant(rhs) {
		p.fail(loc, "non-affine expression: right operand of "+op.String()+" has to be either a constant or symbolic")
		return nil
	}
	return Binary(op, lhs, rhs)
}

// parseOperand parses an identifier, integer, parenthesised expression or
// negation (MLIR's parseAffineOperandExpr). lhs is the expression to the
// left of a binary operator, if any; it only selects the error message.
func (p *parser) parseOperand(lhs Expr) Expr {
	switch p.tok.kind {
	case tokSymbol:
		// `symbol(%x)` names an SSA value, which has no meaning here.
		p.consume()
		if p.expect(tokLParen, "expected '(' at start of SSA symbol") {
			p.failWrongToken("unexpected ssa identifier")
		}
		return nil
	case tokPercentIdent:
		p.failWrongToken("unexpected ssa identifier")
		return nil
	case tokInteger:
		return p.parseInteger()
	case tokLParen:
		return p.nested(func() Expr {
			p.consume()
			if p.tok.kind == tokRParen {
				p.fail(p.tok.pos, "no expression inside parentheses")
				return nil
			}
			e := p.parseExpr()
			if e == nil || !p.expect(tokRParen, "expected ')'") {
				return nil
			}
			return e
		})
	case tokMinus:
		return p.nested(func() Expr {
			p.consume()
			e := p.parseOperand(lhs)
			if e == nil {
				p.fail(p.tok.pos, "missing operand of negation")
				return nil
			}
			return Neg(e)
		})
	case tokPlus, tokStar:
		if lhs != nil {
			p.fail(p.tok.pos, "missing right operand of binary operator")
		} else {
			p.fail(p.tok.pos, "missing left operand of binary operator")
		}
		return nil
	}
	if isIdentifier(p.tok.kind) {
		e, ok := p.names[p.spelling()]
		if !ok {
			p.failWrongToken("use of undeclared identifier")
			return nil
		}
		p.consume()
		return e
	}
	if lhs != nil {
		p.fail(p.tok.pos, "missing right operand of binary operator")
	} else {
		p.fail(p.tok.pos, "expected affine expression")
	}
	return nil
}

func (p *parser) nested(parse func() Expr) Expr {
	if p.depth >= MaxNesting {
		p.fail(p.tok.pos, "affine expression nested too deeply")
		return nil
	}
	p.depth++
	defer func() { p.depth-- }()
	return parse()
}

// parseInteger parses a decimal or hexadecimal literal that fits an int64.
func (p *parser) parseInteger() Expr {
	s := p.spelling()
	var v uint64
	var err error
	if len(s) > 1 && s[1] == 'x' {
		v, err = strconv.ParseUint(s[2:], 16, 64)
	} else {
		v, err = strconv.ParseUint(s, 10, 64)
	}
	if err != nil || v > 1<<63-1 {
		p.fail(p.tok.pos, "constant too large for index")
		return nil
	}
	p.consume()
	return Constant(int64(v))
}
