package asm

import (
	"encoding/hex"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/rlx-compiler/rlx/ir"
)

// literalElem is one scalar of a tensor literal.
type literalElem struct {
	neg bool
	tok token
}

// tensorLiteral is a parsed `dense<…>` body before its type is known.
type tensorLiteral struct {
	elems []literalElem
	shape []int64 // nil for a single element (splat)
	hex   *token  // a string literal in place of the elements
}

func (p *parser) parseTensorLiteral(allowHex bool) *tensorLiteral {
	lit := &tensorLiteral{}
	if allowHex && p.is(tokString) {
		t := p.tok
		lit.hex = &t
		p.advance()
		return lit
	}
	if p.is(tokLSquare) {
		lit.shape = p.parseLiteralList(lit)
		return lit
	}
	p.parseLiteralElement(lit)
	return lit
}

func (p *parser) parseLiteralList(lit *tensorLiteral) []int64 {
	p.enter()
	defer p.leave()
	p.expect(tokLSquare, "")
	var sub []int64
	size := int64(0)
	first := true
	if !p.is(tokRSquare) {
		for {
			var this []int64
			if p.is(tokLSquare) {
				this = p.parseLiteralList(lit)
			} else {
				p.parseLiteralElement(lit)
			}
			size++
			if first {
				sub = this
				first = false
			} else if !equalDims(sub, this) {
				p.failTok("tensor literal is invalid; ranks are not consistent between elements")
			}
			if !p.consumeIf(tokComma) {
				break
			}
		}
	}
	p.expect(tokRSquare, "")
	return append([]int64{size}, sub...)
}

func equalDims(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func (p *parser) parseLiteralElement(lit *tensorLiteral) {
	switch p.tok.kind {
	case tokInteger, tokFloat, tokString:
		lit.elems = append(lit.elems, literalElem{tok: p.tok})
		p.advance()
	case tokBareIdent:
		if !p.isKeyword("true") && !p.isKeyword("false") {
			p.failTok("expected element literal of primitive type")
		}
		lit.elems = append(lit.elems, literalElem{tok: p.tok})
		p.advance()
	case tokMinus:
		p.advance()
		if !p.is(tokInteger) && !p.is(tokFloat) {
			p.failTok("expected integer or floating point literal")
		}
		lit.elems = append(lit.elems, literalElem{neg: true, tok: p.tok})
		p.advance()
	case tokLParen:
		p.advance()
		p.parseLiteralElement(lit)
		p.expect(tokComma, " between complex elements")
		p.parseLiteralElement(lit)
		p.expect(tokRParen, " after complex elements")
	default:
		p.failTok("expected element literal of primitive type")
	}
}

// parseElementsType parses the `: type` of an elements literal, or checks
// the given type.
func (p *parser) parseElementsType(t ir.Type) ir.ShapedType {
	if t == nil {
		p.expect(tokColon, "")
		t = p.parseType()
	}
	// Any shaped type of static shape, memrefs included, as in MLIR; its
	// element count may not fit in an int64 (a splat of any size is fine).
	st, ok := t.(ir.ShapedType)
	if !ok {
		p.failTok("elements literal must be a shaped type")
	}
	if !ir.HasStaticShape(st) {
		p.failTok("elements literal type must have static shape")
	}
	return st
}

func (p *parser) parseDenseAttr(t ir.Type) ir.Attribute {
	attrPos := p.tok.start
	p.advance()
	p.expect(tokLess, " after 'dense'")
	lit := &tensorLiteral{}
	if !p.consumeIf(tokGreater) {
		lit = p.parseTensorLiteral(true)
		p.expect(tokGreater, "")
	}
	pos := p.tok.start
	if t != nil {
		pos = attrPos
	}
	st := p.parseElementsType(t)
	return p.literalAttr(lit, st, pos)
}

// literalAttr turns a parsed literal into an attribute of type st.
func (p *parser) literalAttr(lit *tensorLiteral, st ir.ShapedType, pos int) ir.Attribute {
	et := st.ElementType()
	numeric := ir.ElemBytes(et) > 0
	if lit.hex != nil && numeric {
		return p.hexDense(lit.hex, st, pos)
	}
	n := ir.NumElements(st)
	if lit.shape != nil && !equalDims(lit.shape, st.Dims()) {
		p.fail(pos, "inferred shape of elements literal ([%s]) does not match type ([%s])", joinDims(lit.shape), joinDims(st.Dims()))
	}
	if lit.hex == nil && len(lit.elems) == 0 && n != 0 {
		p.fail(pos, "parsed zero elements, but type ('%s') expected at least 1", st)
	}
	if !numeric {
		var vals []string
		if lit.hex != nil {
			vals = []string{unescape(p.src[lit.hex.start+1 : lit.hex.end-1])}
		} else {
			for _, e := range lit.elems {
				// MLIR takes the string value of every token, which is
				// empty for anything but a string.
				v := ""
				if e.tok.kind == tokString {
					v = unescape(p.src[e.tok.start+1 : e.tok.end-1])
				}
				vals = append(vals, v)
			}
		}
		return p.ctx.DenseStrings(st, vals)
	}
	scalar := et
	if ct, ok := et.(*ir.ComplexType); ok {
		scalar = ct.Elem
		if lit.shape == nil && n != 0 && len(lit.elems) != 2 {
			p.fail(pos, "parsed %d elements, but type ('%s') expected 2 elements", len(lit.elems), ct)
		}
		if lit.shape != nil && int64(len(lit.elems)) != n*2 {
			p.fail(pos, "parsed %d elements, but type ('%s') expected %d elements", len(lit.elems), st, n*2)
		}
	}
	b := ir.NewDenseBuilder(st)
	for _, e := range lit.elems {
		p.appendLiteral(b, e, scalar)
	}
	if lit.shape == nil && len(lit.elems) > 0 {
		// A splat: the builder holds one element, which DenseFromRaw keeps as
		// a splat.
		return b.Build(p.ctx)
	}
	return b.Build(p.ctx)
}

func joinDims(d []int64) string {
	parts := make([]string, len(d))
	for i, x := range d {
		parts[i] = strconv.FormatInt(x, 10)
	}
	return strings.Join(parts, ", ")
}

func (p *parser) appendLiteral(b *ir.DenseBuilder, e literalElem, et ir.Type) {
	spelling := string(p.text(e.tok))
	switch t := et.(type) {
	case *ir.FloatType:
		switch {
		case e.tok.kind == tokFloat:
			v, err := strconv.ParseFloat(spelling, 64)
			if err != nil && !math.IsInf(v, 0) {
				p.fail(e.tok.start, "invalid floating point literal")
			}
			if e.neg {
				v = -v
			}
			b.AppendFloat(v)
		case e.tok.kind == tokInteger && strings.HasPrefix(spelling, "0x"):
			b.AppendFloatBits(p.floatBitsFromInt(e.tok, spelling, e.neg, t))
		default:
			// MLIR words every other literal so, and reports it at the
			// token after the literal's type.
			p.failTok("expected floating-point elements, but parsed integer")
		}
	default: // integer or index
		it, isInt := et.(*ir.IntegerType)
		if e.neg && isInt && it.Signedness == ir.Unsigned {
			p.fail(e.tok.start, "expected unsigned integer elements, but parsed negative value")
		}
		switch e.tok.kind {
		case tokFloat:
			p.fail(e.tok.start, "expected integer elements, but parsed floating-point")
		case tokBareIdent:
			if !isInt || it.Width != 1 {
				p.fail(e.tok.start, "expected i1 type for 'true' or 'false' values")
			}
			b.AppendBool(spelling == "true")
			return
		case tokString:
			// MLIR reads the string's spelling as a number.
			p.fail(e.tok.start, "integer constant out of range for type")
		}
		v, ok := buildInt(et, e.neg, spelling)
		if !ok {
			p.fail(e.tok.start, "integer constant out of range for type")
		}
		b.AppendBigInt(v)
	}
}

// hexDense decodes `dense<"0x…">`.
func (p *parser) hexDense(t *token, st ir.ShapedType, pos int) ir.Attribute {
	s := unescape(p.src[t.start+1 : t.end-1])
	if !strings.HasPrefix(s, "0x") {
		p.fail(t.start, "expected string containing hex digits starting with `0x`")
	}
	data, err := hex.DecodeString(s[2:])
	if err != nil {
		p.fail(t.start, "expected string containing hex digits starting with `0x`")
	}
	et := st.ElementType()
	n := ir.NumElements(st)
	if it, ok := et.(*ir.IntegerType); ok && it.Width == 1 {
		// i1 data is packed eight to a byte, as in MLIR.
		b := ir.NewDenseBuilder(st)
		if len(data) == 1 && (data[0] == 0 || data[0] == 0xFF) {
			b.AppendBool(data[0] != 0)
			return b.Build(p.ctx)
		}
		if n < 0 || int64(len(data)) != (n+7)/8 {
			p.fail(pos, "elements hex data size is invalid for provided type: '%s'", st)
		}
		for i := int64(0); i < n; i++ {
			b.AppendBool(data[i/8]>>(i%8)&1 == 1)
		}
		return b.Build(p.ctx)
	}
	per := int64(ir.ElemBytes(et))
	if _, ok := et.(*ir.ComplexType); ok {
		per *= 2
	}
	if size, fits := ir.MulSize(per, n); int64(len(data)) != per && (!fits || int64(len(data)) != size) {
		p.fail(pos, "elements hex data size is invalid for provided type: '%s'", st)
	}
	return p.ctx.DenseFromRaw(st, data)
}

func (p *parser) parseDenseResourceAttr(t ir.Type) ir.Attribute {
	pos := p.tok.start
	p.advance()
	p.expect(tokLess, " after 'dense_resource'")
	var handle string
	if !p.is(tokBareIdent) {
		p.failTok("expected identifier key for 'resource' entry")
	}
	handle = p.spelling()
	p.advance()
	p.expect(tokGreater, "")
	typePos := pos
	if t == nil {
		typePos = p.tok.start
		p.expect(tokColon, "")
		t = p.parseType()
	}
	st, ok := t.(ir.ShapedType)
	if !ok {
		p.fail(typePos, "`dense_resource` expected a shaped type")
	}
	return p.ctx.DenseResource(st, handle)
}

func (p *parser) parseSparseAttr(t ir.Type) ir.Attribute {
	p.advance()
	if !p.is(tokLess) {
		// MLIR's message is capitalised here.
		p.failExpected("Expected '<' after 'sparse'")
	}
	p.advance()
	i64 := p.ctx.I64()
	if p.consumeIf(tokGreater) {
		st := p.parseElementsType(t)
		idxT := p.ctx.TensorType([]int64{0, int64(len(st.Dims()))}, i64)
		valT := p.ctx.TensorType([]int64{0}, st.ElementType())
		return p.ctx.Sparse(st, p.ctx.DenseInts(idxT, nil), ir.NewDenseBuilder(valT).Build(p.ctx))
	}
	idxPos := p.tok.start
	idx := p.parseTensorLiteral(false)
	p.expect(tokComma, "")
	valPos := p.tok.start
	vals := p.parseTensorLiteral(true)
	p.expect(tokGreater, "")
	st := p.parseElementsType(t)
	var idxT ir.ShapedType
	if idx.shape == nil {
		idxT = p.ctx.TensorType([]int64{1, int64(len(st.Dims()))}, i64)
	} else {
		idxT = p.ctx.TensorType(idx.shape, i64)
	}
	idxAttr := p.literalAttr(idx, idxT, idxPos)
	var valT ir.ShapedType
	if vals.shape == nil {
		valT = p.ctx.TensorType([]int64{idxT.Dims()[0]}, st.ElementType())
	} else {
		valT = p.ctx.TensorType(vals.shape, st.ElementType())
	}
	valAttr := p.literalAttr(vals, valT, valPos)
	return p.ctx.Sparse(st, idxAttr, valAttr)
}

func (p *parser) parseDenseArrayAttr() ir.Attribute {
	p.advance()
	p.expect(tokLess, " after 'array'")
	typePos := p.tok.start
	et := p.parseType()
	switch t := et.(type) {
	case *ir.IntegerType:
		if t.Width != 1 && t.Width%8 != 0 {
			p.fail(typePos, "element type bitwidth must be a multiple of 8")
		}
		if t.Width > 64 {
			p.fail(typePos, "dense arrays of integers wider than 64 bits are not supported")
		}
	case *ir.FloatType:
		if t.Width()%8 != 0 {
			p.fail(typePos, "element type bitwidth must be a multiple of 8")
		}
	default:
		p.fail(typePos, "expected integer or float type, got: %s", et)
	}
	if p.consumeIf(tokGreater) {
		if ft, ok := et.(*ir.FloatType); ok {
			return p.ctx.DenseFloatArrayFromAttrs(ft, nil)
		}
		return p.ctx.DenseIntArray(et, nil)
	}
	p.expect(tokColon, " after dense array type")
	var ints []int64
	var floats []*ir.FloatAttr
	for {
		neg := p.consumeIf(tokMinus)
		tok := p.tok
		switch t := et.(type) {
		case *ir.FloatType:
			if tok.kind != tokFloat && tok.kind != tokInteger {
				p.failTok("expected integer or floating point literal")
			}
			// MLIR consumes the literal before judging it, so an error in
			// the next token comes first.
			spelling := string(p.text(tok))
			p.advance()
			if tok.kind == tokInteger {
				floats = append(floats, p.ctx.FloatAttrFromBits(t, p.floatBitsFromInt(tok, spelling, neg, t)))
				break
			}
			v, err := strconv.ParseFloat(spelling, 64)
			if err != nil && !math.IsInf(v, 0) {
				p.fail(tok.start, "invalid floating point literal")
			}
			if neg {
				v = -v
			}
			floats = append(floats, p.ctx.FloatAttr(t, v))
		case *ir.IntegerType:
			switch {
			case tok.kind == tokInteger:
				v, ok := buildInt(t, neg, p.spelling())
				// MLIR reports a literal out of range after it.
				p.advance()
				if !ok {
					p.failTok("integer constant out of range")
				}
				ints = append(ints, p.ctx.BigIntegerAttr(t, v).Value)
			case p.isKeyword("true") || p.isKeyword("false"):
				if t.Width != 1 {
					p.failTok("expected i1 type for 'true' or 'false' values")
				}
				if p.isKeyword("true") {
					ints = append(ints, 1)
				} else {
					ints = append(ints, 0)
				}
				p.advance()
			default:
				p.failTok("expected integer literal")
			}
		}
		if !p.consumeIf(tokComma) {
			break
		}
	}
	p.expect(tokGreater, " to close an array attribute")
	if ft, ok := et.(*ir.FloatType); ok {
		return p.ctx.DenseFloatArrayFromAttrs(ft, floats)
	}
	return p.ctx.DenseIntArray(et, ints)
}

var _ = big.NewInt
