package filecheck

import (
	"math/big"
	"strings"
)

// This file holds the parser for numeric substitution blocks,
// [[#%FMT,NAME: EXPR]], a port of the parse* functions of LLVM's
// FileCheck.cpp with the same error messages and locations.

// parseNumericVariableDefinition parses the NAME of a definition whose
// value has format f.
func (ctx *patternContext) parseNumericVariableDefinition(expr cursor, line int, f exprFormat) (*numVar, *locError) {
	name, pseudo, err := parseVariable(&expr)
	if err != nil {
		return nil, err
	}
	if pseudo {
		return nil, errorAt(name, "definition of pseudo numeric variable unsupported")
	}
	if ctx.strDefined[name.s] {
		return nil, errorAt(name, "string variable with name '"+name.s+"' already exists")
	}
	expr = expr.ltrim()
	if !expr.empty() {
		return nil, errorAt(expr, "unexpected characters after numeric variable name")
	}
	if v := ctx.numVars[name.s]; v != nil {
		if !v.format.equal(f) {
			return nil, errorAt(expr, "format different from previous variable definition")
		}
		return v, nil
	}
	return &numVar{name: name.s, format: f, matchAt: -1, defLine: line}, nil
}

func (ctx *patternContext) parseNumericVariableUse(name cursor, pseudo bool, line int) (exprNode, *locError) {
	if pseudo && name.s != "@LINE" {
		return nil, errorAt(name, "invalid pseudo numeric variable '"+name.s+"'")
	}
	v := ctx.numVars[name.s]
	if v == nil {
		// A use before any definition gets a placeholder so parsing can go
		// on; using it reports an undefined variable at match time.
		v = &numVar{name: name.s, format: exprFormat{kind: fmtUnsigned}, matchAt: -1}
		ctx.numVars[name.s] = v
	}
	if v.defLine != 0 && line != 0 && v.defLine == line {
		return nil, errorAt(name, "numeric variable '"+name.s+"' defined earlier in the same CHECK directive")
	}
	return &varUseNode{name: name, v: v}, nil
}

func (ctx *patternContext) parseNumericOperand(expr *cursor, ao allowedOperand, maybeInvalidConstraint bool, line int) (exprNode, *locError) {
	if strings.HasPrefix(expr.s, "(") {
		if ao != operandAny {
			return nil, errorAt(*expr, "parenthesized expression not permitted here")
		}
		return ctx.parseParenExpr(expr, line)
	}
	if ao == operandLineVar || ao == operandAny {
		rest := *expr
		name, pseudo, err := parseVariable(&rest)
		if err == nil {
			*expr = rest
			if strings.HasPrefix(expr.ltrim().s, "(") {
				if ao != operandAny {
					return nil, errorAt(name, "unexpected function call")
				}
				return ctx.parseCallExpr(expr, name, line)
			}
			return ctx.parseNumericVariableUse(name, pseudo, line)
		}
		if ao == operandLineVar {
			return nil, err
		}
	}
	save := *expr
	neg := expr.consume("-")
	radix := 0
	if ao == operandLegacyLiteral {
		radix = 10
	}
	if v, ok := consumeInteger(expr, radix); ok {
		if neg {
			v = new(big.Int).Neg(v)
		}
		return &literalNode{str: save.take(len(save.s) - len(expr.s)), v: v}, nil
	}
	msg := "invalid operand format"
	if maybeInvalidConstraint {
		msg = "invalid matching constraint or operand format"
	}
	return nil, errorAt(save, msg)
}

func (ctx *patternContext) parseParenExpr(expr *cursor, line int) (exprNode, *locError) {
	*expr = expr.ltrim()
	expr.consume("(")
	*expr = expr.ltrim()
	if expr.empty() {
		return nil, errorAt(*expr, "missing operand in expression")
	}
	sub, err := ctx.parseNumericOperand(expr, operandAny, false, line)
	*expr = expr.ltrim()
	for err == nil && !expr.empty() && !strings.HasPrefix(expr.s, ")") {
		orig := *expr
		sub, err = ctx.parseBinop(orig, expr, sub, false, line)
		*expr = expr.ltrim()
	}
	if err != nil {
		return nil, err
	}
	if !expr.consume(")") {
		return nil, errorAt(*expr, "missing ')' at end of nested expression")
	}
	return sub, nil
}

func (ctx *patternContext) parseBinop(whole cursor, rest *cursor, left exprNode, legacy bool, line int) (exprNode, *locError) {
	*rest = rest.ltrim()
	if rest.empty() {
		return left, nil
	}
	opAt := *rest
	op := rest.front()
	*rest = rest.drop(1)
	var fn func(a, b *big.Int) (*big.Int, bool)
	switch op {
	case '+':
		fn = binaryFuncs["add"]
	case '-':
		fn = binaryFuncs["sub"]
	default:
		return nil, errorAt(opAt, "unsupported operation '"+string(op)+"'")
	}
	*rest = rest.ltrim()
	if rest.empty() {
		return nil, errorAt(*rest, "missing operand in expression")
	}
	ao := operandAny
	if legacy {
		ao = operandLegacyLiteral
	}
	right, err := ctx.parseNumericOperand(rest, ao, false, line)
	if err != nil {
		return nil, err
	}
	return &binOpNode{str: whole.take(len(whole.s) - len(rest.s)), fn: fn, left: left, right: right}, nil
}

func (ctx *patternContext) parseCallExpr(expr *cursor, fname cursor, line int) (exprNode, *locError) {
	*expr = expr.ltrim()
	fn := binaryFuncs[fname.s]
	if fn == nil {
		return nil, errorAt(fname, "call to undefined function '"+fname.s+"'")
	}
	expr.consume("(")
	*expr = expr.ltrim()
	var args []exprNode
	for !expr.empty() && !strings.HasPrefix(expr.s, ")") {
		if strings.HasPrefix(expr.s, ",") {
			return nil, errorAt(*expr, "missing argument")
		}
		outer := *expr
		arg, err := ctx.parseNumericOperand(expr, operandAny, false, line)
		for err == nil && !expr.empty() {
			*expr = expr.ltrim()
			if strings.HasPrefix(expr.s, ",") || strings.HasPrefix(expr.s, ")") {
				break
			}
			arg, err = ctx.parseBinop(outer, expr, arg, false, line)
		}
		if err != nil {
			return nil, err
		}
		args = append(args, arg)
		*expr = expr.ltrim()
		if !expr.consume(",") {
			break
		}
		*expr = expr.ltrim()
		if strings.HasPrefix(expr.s, ")") {
			return nil, errorAt(*expr, "missing argument")
		}
	}
	if !expr.consume(")") {
		return nil, errorAt(*expr, "missing ')' at end of call expression")
	}
	if len(args) == 2 {
		// LLVM names the call by the text after it; keep that for
		// identical format-conflict messages.
		return &binOpNode{str: *expr, fn: fn, left: args[0], right: args[1]}, nil
	}
	return nil, errorAt(fname, "function '"+fname.s+"' takes 2 arguments but "+itoa(len(args))+" given")
}

// parseNumericSubstitutionBlock parses the text of [[#...]] after the '#'.
// It returns the expression and, for a definition, the defined variable.
func (ctx *patternContext) parseNumericSubstitutionBlock(expr cursor, legacy bool, line int) (*expression, *numVar, *locError) {
	var explicit exprFormat
	precision := 0
	formatEnd := strings.IndexByte(expr.s, ',')
	funcStart := strings.IndexByte(expr.s, '(')
	if formatEnd >= 0 && (funcStart < 0 || formatEnd < funcStart) {
		fe := expr.take(formatEnd)
		expr = expr.drop(formatEnd + 1)
		fe = fe.ltrim().rtrim()
		if !fe.consume("%") {
			return nil, nil, errorAt(fe, "invalid matching format specification in expression")
		}
		altAt := fe
		alt := fe.consume("#")
		if fe.consume(".") {
			p, ok := consumeUnsigned(&fe)
			if !ok {
				return nil, nil, errorAt(fe, "invalid precision in format specifier")
			}
			precision = p
		}
		if !fe.empty() {
			at := fe
			c := fe.front()
			fe = fe.drop(1)
			switch c {
			case 'u':
				explicit = exprFormat{kind: fmtUnsigned, precision: precision}
			case 'd':
				explicit = exprFormat{kind: fmtSigned, precision: precision}
			case 'x':
				explicit = exprFormat{kind: fmtHexLower, precision: precision, alt: alt}
			case 'X':
				explicit = exprFormat{kind: fmtHexUpper, precision: precision, alt: alt}
			default:
				return nil, nil, errorAt(at, "invalid format specifier in expression")
			}
		}
		if alt && explicit.kind != fmtHexLower && explicit.kind != fmtHexUpper {
			return nil, nil, errorAt(altAt, "alternate form only supported for hex values")
		}
		fe = fe.ltrim()
		if !fe.empty() {
			return nil, nil, errorAt(fe, "invalid matching format specification in expression")
		}
	}

	var defExpr cursor
	defEnd := strings.IndexByte(expr.s, ':')
	if defEnd >= 0 {
		defExpr = expr.take(defEnd)
		expr = expr.drop(defEnd + 1)
	}

	expr = expr.ltrim()
	constraint := expr.consume("==")
	expr = expr.ltrim()
	var ast exprNode
	if expr.empty() {
		if constraint {
			return nil, nil, errorAt(expr, "empty numeric expression should not have a constraint")
		}
	} else {
		expr = expr.rtrim()
		whole := expr
		ao := operandAny
		if legacy {
			ao = operandLineVar
		}
		res, err := ctx.parseNumericOperand(&expr, ao, !constraint, line)
		for err == nil && !expr.empty() {
			res, err = ctx.parseBinop(whole, &expr, res, legacy, line)
			if err == nil && legacy && !expr.empty() {
				return nil, nil, errorAt(expr, "unexpected characters at end of expression '"+expr.s+"'")
			}
		}
		if err != nil {
			return nil, nil, err
		}
		ast = res
	}

	f := explicit
	if f.kind == fmtNone && ast != nil {
		implicit, err := ast.implicitFormat()
		if err != nil {
			return nil, nil, err
		}
		f = implicit
	}
	if f.kind == fmtNone {
		f = exprFormat{kind: fmtUnsigned, precision: precision}
	}
	e := &expression{ast: ast, format: f}
	if defEnd < 0 {
		return e, nil, nil
	}
	v, err := ctx.parseNumericVariableDefinition(defExpr.ltrim(), line, f)
	if err != nil {
		return nil, nil, err
	}
	return e, v, nil
}

// consumeUnsigned parses decimal digits at the front of *c.
func consumeUnsigned(c *cursor) (int, bool) {
	n, used := parseDecimalPrefix(c.s)
	if used == 0 || n > 1<<32-1 {
		return 0, false
	}
	*c = c.drop(used)
	return int(n), true
}
