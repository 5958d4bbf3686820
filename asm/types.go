package asm

import (
	"strconv"

	"github.com/rlx-compiler/rlx/ir"
)

// parseType parses any type.
func (p *parser) parseType() ir.Type {
	switch p.tok.kind {
	case tokLParen:
		return p.parseFunctionType()
	case tokBangIdent:
		return p.parseExtendedType()
	case tokBareIdent:
		return p.parseBuiltinType()
	}
	p.failExpected("expected non-function type")
	return nil
}

// parseNonFunctionType parses a type that is not a function type.
func (p *parser) parseNonFunctionType() ir.Type {
	if p.is(tokLParen) {
		p.failExpected("expected non-function type")
	}
	return p.parseType()
}

func (p *parser) parseFunctionType() ir.Type {
	p.enter()
	defer p.leave()
	inputs := p.parseTypeListParens()
	p.expect(tokArrow, " in function type")
	var results []ir.Type
	if p.is(tokLParen) {
		results = p.parseTypeListParens()
	} else {
		results = []ir.Type{p.parseNonFunctionType()}
	}
	return p.ctx.FunctionType(inputs, results)
}

// parseTypeListParens parses `(T, …)`, possibly empty.
func (p *parser) parseTypeListParens() []ir.Type {
	p.expect(tokLParen, "")
	var ts []ir.Type
	if p.consumeIf(tokRParen) {
		return ts
	}
	for {
		ts = append(ts, p.parseType())
		if !p.consumeIf(tokComma) {
			break
		}
	}
	p.expect(tokRParen, "")
	return ts
}

// intTypeWidth recognizes `iN`, `siN` and `uiN`.
func intTypeWidth(s []byte) (width int, sign ir.Signedness, ok bool) {
	switch {
	case len(s) > 1 && s[0] == 'i':
		s = s[1:]
	case len(s) > 2 && s[0] == 's' && s[1] == 'i':
		s, sign = s[2:], ir.Signed
	case len(s) > 2 && s[0] == 'u' && s[1] == 'i':
		s, sign = s[2:], ir.Unsigned
	default:
		return 0, 0, false
	}
	n := 0
	for _, c := range s {
		if !isDigit(c) {
			return 0, 0, false
		}
		if n > ir.MaxIntegerWidth {
			n = ir.MaxIntegerWidth + 1
			continue
		}
		n = n*10 + int(c-'0')
	}
	return n, sign, true
}

func (p *parser) parseBuiltinType() ir.Type {
	word := p.text(p.tok)
	switch string(word) {
	case "tensor", "memref", "vector":
		// Shaped types repeat a lot; look them up by their source text.
		start := p.tok.start
		if end := scanShapedType(p.src, p.tok.end); end > 0 {
			if t, ok := p.typeCache[string(p.src[start:end])]; ok {
				p.lex.pos = end
				p.advance()
				return t
			}
			t := p.parseShapedType(string(word))
			p.typeCache[string(p.src[start:end])] = t
			return t
		}
		return p.parseShapedType(string(word))
	case "index":
		p.advance()
		return p.ctx.Index()
	case "none":
		p.advance()
		return p.ctx.None()
	case "complex":
		p.advance()
		p.enter()
		defer p.leave()
		p.expect(tokLess, " in complex type")
		pos := p.tok.start
		e := p.parseType()
		if !ir.IsFloat(e) && !ir.IsInteger(e, 0) {
			p.fail(pos, "invalid element type for complex")
		}
		p.expect(tokGreater, " in complex type")
		return p.ctx.ComplexType(e)
	case "tuple":
		p.advance()
		p.enter()
		defer p.leave()
		p.expect(tokLess, " in tuple type")
		var ts []ir.Type
		if !p.consumeIf(tokGreater) {
			for {
				ts = append(ts, p.parseType())
				if !p.consumeIf(tokComma) {
					break
				}
			}
			p.expect(tokGreater, " in tuple type")
		}
		return p.ctx.TupleType(ts)
	}
	if w, s, ok := intTypeWidth(word); ok {
		if w > ir.MaxIntegerWidth {
			p.failTok("integer bitwidth is limited to %d bits", ir.MaxIntegerWidth)
		}
		p.advance()
		return p.ctx.IntegerType(w, s)
	}
	if ft := p.ctx.FloatType(string(word)); ft != nil {
		p.advance()
		return ft
	}
	p.failExpected("expected non-function type")
	return nil
}

// atTypeKeyword reports whether the current token is a bare identifier
// that starts a builtin type, as MLIR's parseOptionalType decides.
func (p *parser) atTypeKeyword() bool {
	if !p.is(tokBareIdent) {
		return false
	}
	word := p.text(p.tok)
	switch string(word) {
	case "tensor", "memref", "vector", "index", "none", "complex", "tuple":
		return true
	}
	if _, _, ok := intTypeWidth(word); ok {
		return true
	}
	return p.ctx.FloatType(string(word)) != nil
}

// scanShapedType returns the end of `<…>` starting at pos, or -1 when the
// body has strings or is unbalanced (the caller then parses without the
// cache).
func scanShapedType(src []byte, pos int) int {
	if pos >= len(src) || src[pos] != '<' {
		return -1
	}
	depth := 0
	for i := pos; i < len(src); i++ {
		switch src[i] {
		case '<', '(', '[', '{':
			depth++
		case '>':
			if i > 0 && src[i-1] == '-' {
				continue
			}
			depth--
			if depth == 0 {
				return i + 1
			}
		case ')', ']', '}':
			depth--
			if depth <= 0 {
				return -1
			}
		case '"', '\n', '#', '!':
			return -1
		}
	}
	return -1
}

func (p *parser) parseShapedType(kind string) ir.Type {
	p.typeStart = p.tok.start
	p.enter()
	defer p.leave()
	p.advance()
	p.expect(tokLess, " in "+kind+" type")
	switch kind {
	case "vector":
		return p.parseVectorBody()
	case "tensor":
		return p.parseTensorBody()
	}
	return p.parseMemRefBody()
}

// parseXInDimensionList consumes the 'x' separating dimensions; the lexer
// reads `4xf32` as `4` and `xf32`, so the token is split after the 'x'.
func (p *parser) parseXInDimensionList() {
	if !p.is(tokBareIdent) || p.src[p.tok.start] != 'x' {
		p.failExpected("expected 'x' in dimension list")
	}
	p.lex.pos = p.tok.start + 1
	p.advance()
}

func (p *parser) parseDimInList() int64 {
	t := p.text(p.tok)
	if len(t) > 1 && t[1] == 'x' {
		// `0xf32`: a zero dimension, then 'x' and the element type.
		p.lex.pos = p.tok.start + 1
		p.advance()
		return 0
	}
	v, err := strconv.ParseUint(string(t), 10, 64)
	if err != nil || v > 1<<63-1 {
		p.failTok("invalid dimension")
	}
	p.advance()
	return int64(v)
}

// parseDims parses `(dim 'x')*` where dim is an integer or `?`.
func (p *parser) parseDims(allowDynamic bool) []int64 {
	var dims []int64
	for p.is(tokInteger) || p.is(tokQuestion) {
		if p.is(tokQuestion) {
			if !allowDynamic {
				p.failExpected("expected static shape")
			}
			dims = append(dims, ir.Dynamic)
			p.advance()
		} else {
			dims = append(dims, p.parseDimInList())
		}
		p.parseXInDimensionList()
	}
	return dims
}

func validTensorElem(t ir.Type) bool {
	switch t.(type) {
	case *ir.ComplexType, *ir.FloatType, *ir.IntegerType, *ir.OpaqueType, *ir.VectorType, *ir.IndexType:
		return true
	case ir.DialectType:
		return true
	}
	return false
}

func (p *parser) parseTensorBody() ir.Type {
	if p.is(tokStar) {
		p.advance()
		p.parseXInDimensionList()
		pos := p.tok.start
		e := p.parseType()
		if !validTensorElem(e) {
			p.fail(pos, "invalid tensor element type")
		}
		if p.is(tokComma) {
			p.failTok("cannot apply encoding to unranked tensor")
		}
		p.expect(tokGreater, " in tensor type")
		return p.ctx.UnrankedTensorType(e)
	}
	dims := p.parseDims(true)
	pos := p.tok.start
	e := p.parseType()
	if !validTensorElem(e) {
		p.fail(pos, "invalid tensor element type")
	}
	// The encoding is optional after the comma, as in MLIR.
	var enc ir.Attribute
	if p.consumeIf(tokComma) {
		enc = p.parseOptionalAttribute()
	}
	p.expect(tokGreater, " in tensor type")
	return p.ctx.RankedTensorType(dims, e, enc)
}

func (p *parser) parseVectorBody() ir.Type {
	var dims []int64
	var scalable []bool
	anyScalable := false
	for p.is(tokInteger) || p.is(tokLSquare) {
		sc := false
		if p.consumeIf(tokLSquare) {
			sc, anyScalable = true, true
			if !p.is(tokInteger) {
				p.failTok("invalid dimension")
			}
			dims = append(dims, p.parseDimInList())
			if !p.is(tokRSquare) {
				p.failExpected("missing ']' closing scalable dimension")
			}
			p.advance()
		} else {
			dims = append(dims, p.parseDimInList())
		}
		scalable = append(scalable, sc)
		p.parseXInDimensionList()
	}
	for _, d := range dims {
		if d == 0 {
			p.failTok("vector types must have positive constant sizes")
		}
	}
	pos := p.tok.start
	e := p.parseType()
	switch e.(type) {
	case *ir.IntegerType, *ir.IndexType, *ir.FloatType:
	default:
		p.fail(pos, "vector elements must be int/index/float type but got '%s'", e)
	}
	p.expect(tokGreater, " in vector type")
	if !anyScalable {
		scalable = nil
	}
	return p.ctx.VectorType(dims, scalable, e)
}

func (p *parser) parseMemRefBody() ir.Type {
	start := p.typeStart
	unranked := false
	var dims []int64
	if p.is(tokStar) {
		p.advance()
		p.parseXInDimensionList()
		unranked = true
	} else {
		dims = p.parseDims(true)
	}
	pos := p.tok.start
	e := p.parseType()
	switch e := e.(type) {
	case *ir.ComplexType, *ir.MemRefType, *ir.VectorType, *ir.UnrankedMemRefType,
		*ir.IntegerType, *ir.IndexType, *ir.FloatType, ir.DialectType:
	case *ir.OpaqueType:
		// A type of an unknown dialect is no memref element type, but
		// MLIR's test dialect (which mlir-opt registers) has some.
		if e.Dialect != "test" {
			p.fail(pos, "invalid memref element type")
		}
	default:
		p.fail(pos, "invalid memref element type")
	}
	var layout, space ir.Attribute
	if !p.is(tokComma) && !p.is(tokGreater) {
		p.failExpected("expected ',' or '>' in memref type")
	}
	for first := true; p.consumeIf(tokComma); first = false {
		if first && p.is(tokGreater) {
			p.failExpected("expected list element")
		}
		a := p.parseAttribute(nil)
		// MLIR reports these at the token after the attribute.
		apos := p.tok.start
		switch a.(type) {
		case *ir.AffineMapAttr, *ir.StridedLayoutAttr:
			if unranked {
				p.fail(apos, "cannot have affine map for unranked memref type")
			}
			if space != nil {
				p.fail(apos, "expected memory space to be last in memref type")
			}
			layout = a
		default:
			if space != nil {
				p.fail(apos, "multiple memory spaces specified in memref type")
			}
			space = a
		}
	}
	if !p.is(tokGreater) {
		p.failExpected("expected ',' or '>'")
	}
	p.advance()
	// The layout is checked before the memory space, as in MLIR's
	// MemRefType::verify.
	switch l := layout.(type) {
	case *ir.AffineMapAttr:
		if l.Map.NumDims != len(dims) {
			p.fail(start, "memref layout mismatch between rank and affine map: %d != %d", len(dims), l.Map.NumDims)
		}
	case *ir.StridedLayoutAttr:
		if len(l.Strides) != len(dims) {
			p.fail(start, "expected the number of strides to match the rank")
		}
	}
	if !supportedMemorySpace(space) {
		p.fail(start, "unsupported memory space Attribute")
	}
	if unranked {
		return p.ctx.UnrankedMemRefType(e, space)
	}
	return p.ctx.MemRefType(dims, e, layout, space)
}

// supportedMemorySpace is MLIR's rule for a memref memory space: none,
// an integer, a string, a dictionary, or an attribute of a registered
// dialect other than builtin (an unregistered dialect's attribute is a
// builtin opaque attribute, so it is not one).
func supportedMemorySpace(a ir.Attribute) bool {
	switch a.(type) {
	case nil, *ir.IntegerAttr, *ir.StringAttr, *ir.DictAttr, ir.DialectAttr:
		return true
	}
	return false
}

// parseExtendedType parses `!alias`, `!dialect.name<…>` or `!dialect<…>`.
func (p *parser) parseExtendedType() ir.Type {
	dialect, data, isAlias, pos := p.parseExtendedSymbol()
	if isAlias {
		t, ok := p.typeAliases[dialect]
		if !ok {
			p.fail(p.wrongTokenPos(), "undefined symbol alias id '%s'", dialect)
		}
		return t
	}
	if !p.ctx.AllowUnregistered && !p.ctx.IsDialectRegistered(dialect) {
		p.fail(pos, "dialect '%s' is unknown; if this is intended, use --allow-unregistered-dialect", dialect)
	}
	return p.ctx.OpaqueType(dialect, data)
}

// parseExtendedSymbol reads a `!x…` or `#x…` symbol. For an alias it
// returns the alias name with isAlias set; otherwise the dialect and the
// body text (everything after `dialect.`, or inside `dialect<…>`).
func (p *parser) parseExtendedSymbol() (dialect, data string, isAlias bool, pos int) {
	pos = p.tok.start
	ident := string(p.src[p.tok.start+1 : p.tok.end])
	identEnd := p.tok.end
	p.advance()
	dot := -1
	for i := 0; i < len(ident); i++ {
		if ident[i] == '.' {
			dot = i
			break
		}
	}
	pretty := dot >= 0
	trailing := p.is(tokLess) && p.tok.start == identEnd
	if !trailing && !pretty {
		return ident, "", true, pos
	}
	ns := ident
	if dot >= 0 {
		ns = ident[:dot]
	}
	if !validNamespace(ns) {
		// mlir-opt quotes the name, and reports `#a-b.c` at the name after
		// the dot.
		at := pos
		if pretty {
			at = pos + 1 + dot + 1
		}
		p.fail(at, "invalid dialect namespace '\"%s\"'", ns)
	}
	if !pretty {
		bodyStart := p.tok.start
		bodyEnd := p.parseDialectSymbolBody()
		return ident, string(p.src[bodyStart+1 : bodyEnd-1]), false, pos
	}
	dialect = ident[:dot]
	data = ident[dot+1:]
	if trailing {
		bodyStart := p.tok.start
		bodyEnd := p.parseDialectSymbolBody()
		data += string(p.src[bodyStart:bodyEnd])
	}
	return dialect, data, false, pos
}

// parseDialectSymbolBody skips a balanced `<…>` starting at the current
// token and returns its end offset.
func (p *parser) parseDialectSymbolBody() int {
	i := p.tok.start
	// Errors are reported at MLIR's current token: the '<', or the last
	// string in the body, which MLIR lexes as a token.
	errPos := i
	var stack []byte
	for {
		if i >= len(p.src) || p.src[i] == 0 {
			if len(stack) > 0 {
				p.fail(errPos, "unbalanced '%c' character in pretty dialect name", stack[len(stack)-1])
			}
			p.fail(errPos, "unexpected nul or EOF in pretty dialect name")
		}
		c := p.src[i]
		i++
		switch c {
		case '<', '[', '(', '{':
			stack = append(stack, c)
			if len(stack) > p.opts.MaxNesting {
				p.fail(i-1, "nesting depth exceeds the limit of %d", p.opts.MaxNesting)
			}
			continue
		case '-':
			if i < len(p.src) && p.src[i] == '>' {
				i++
			}
			continue
		case '>', ']', ')', '}':
			open := map[byte]byte{'>': '<', ']': '[', ')': '(', '}': '{'}[c]
			if stack[len(stack)-1] != open {
				p.fail(errPos, "unbalanced '%c' character in pretty dialect name", stack[len(stack)-1])
			}
			stack = stack[:len(stack)-1]
		case '"':
			errPos = i - 1
			l := lexer{src: p.src, pos: i}
			t := l.stringLit(i - 1)
			if t.kind == tokError {
				p.fail(t.start, "%s", t.msg)
			}
			i = l.pos
		default:
			continue
		}
		if len(stack) == 0 {
			break
		}
	}
	p.lex.pos = i
	p.advance()
	return i
}

// validNamespace reports whether s is a valid dialect namespace:
// [a-zA-Z_][a-zA-Z0-9_$]*.
func validNamespace(s string) bool {
	if s == "" || !(isAlpha(s[0]) || s[0] == '_') {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !(isAlpha(c) || isDigit(c) || c == '_' || c == '$') {
			return false
		}
	}
	return true
}
