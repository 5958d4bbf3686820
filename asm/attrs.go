package asm

import (
	"bytes"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/ir/affine"
)

// parseAttribute parses an attribute. t, when not nil, is the type given
// by the context (used for untyped literals and checked for extended
// attributes).
func (p *parser) parseAttribute(t ir.Type) ir.Attribute {
	p.enter()
	defer p.leave()
	switch p.tok.kind {
	case tokLSquare:
		p.advance()
		var elems []ir.Attribute
		if !p.consumeIf(tokRSquare) {
			for {
				elems = append(elems, p.parseAttribute(nil))
				if !p.consumeIf(tokComma) {
					break
				}
			}
			if !p.is(tokRSquare) {
				p.failExpected("expected ',' or ']'")
			}
			p.advance()
		}
		return p.ctx.ArrayAttr(elems)
	case tokLBrace:
		return p.parseAttrDict()
	case tokHashIdent:
		return p.parseExtendedAttr(t)
	case tokFloat:
		return p.parseFloatAttr(t, false)
	case tokInteger:
		return p.parseIntAttr(t, false)
	case tokMinus:
		p.advance()
		if p.is(tokInteger) {
			return p.parseIntAttr(t, true)
		}
		if p.is(tokFloat) {
			return p.parseFloatAttr(t, true)
		}
		p.failExpected("expected constant integer or floating point value")
	case tokString:
		raw := p.src[p.tok.start+1 : p.tok.end-1]
		p.advance()
		if t == nil && p.consumeIf(tokColon) {
			t = p.parseType()
		}
		if t != nil {
			return p.ctx.TypedStringAttr(unescape(raw), t)
		}
		if bytes.IndexByte(raw, '\\') < 0 {
			return p.ctx.StringAttrBytes(raw)
		}
		return p.ctx.StringAttr(unescape(raw))
	case tokAtIdent:
		return p.parseSymbolRef()
	case tokBareIdent:
		switch string(p.text(p.tok)) {
		case "true":
			p.advance()
			return p.ctx.BoolAttr(true)
		case "false":
			p.advance()
			return p.ctx.BoolAttr(false)
		case "unit":
			p.advance()
			return p.ctx.UnitAttr()
		case "affine_map":
			return p.parseAffineAttr(true)
		case "affine_set":
			return p.parseAffineAttr(false)
		case "dense":
			return p.parseDenseAttr(t)
		case "dense_resource":
			return p.parseDenseResourceAttr(t)
		case "array":
			return p.parseDenseArrayAttr()
		case "sparse":
			return p.parseSparseAttr(t)
		case "strided":
			return p.parseStridedAttr()
		case "distinct":
			return p.parseDistinctAttr()
		case "loc":
			p.advance()
			p.expect(tokLParen, " in inline location")
			l := p.parseLocationInstance()
			p.expect(tokRParen, " in inline location")
			return l
		}
	}
	// A type attribute, when the token can start a type.
	if p.atTypeKeyword() || p.is(tokLParen) || p.is(tokBangIdent) {
		return p.ctx.TypeAttr(p.parseType())
	}
	p.failExpected("expected attribute value")
	return nil
}

// parseOptionalAttribute parses an attribute if the current token starts
// one, as MLIR's parseOptionalAttribute decides: the tokens of the
// attribute forms below, or a type. Other keywords (`array`, `strided`,
// `distinct`) do not count. It returns nil when no attribute is there.
func (p *parser) parseOptionalAttribute() ir.Attribute {
	switch p.tok.kind {
	case tokAtIdent, tokFloat, tokInteger, tokHashIdent, tokLBrace, tokLSquare, tokMinus, tokString:
		return p.parseAttribute(nil)
	case tokBareIdent:
		switch string(p.text(p.tok)) {
		case "affine_map", "affine_set", "dense", "dense_resource", "false", "loc", "sparse", "true", "unit":
			return p.parseAttribute(nil)
		}
	}
	if p.atTypeKeyword() || p.is(tokLParen) || p.is(tokBangIdent) {
		return p.ctx.TypeAttr(p.parseType())
	}
	return nil
}

// stringValue returns the decoded value of the current string token.
func (p *parser) stringValue() string {
	return unescape(p.src[p.tok.start+1 : p.tok.end-1])
}

// parseAttrDict parses `{name = attr, unit-name, …}`.
func (p *parser) parseAttrDict() *ir.DictAttr {
	start := p.tok.start
	end := scanBalanced(p.src, start)
	if end > 0 {
		if d, ok := p.dictCache[string(p.src[start:end])]; ok {
			p.lex.pos = end
			p.advance()
			return d
		}
	}
	p.expect(tokLBrace, "")
	var entries []ir.NamedAttr
	// Small dictionaries check duplicates by scanning; a map takes over for
	// large ones so hostile input cannot make this quadratic.
	var seen map[string]bool
	if !p.consumeIf(tokRBrace) {
		for {
			pos := p.tok.start
			var name string
			switch p.tok.kind {
			case tokBareIdent:
				name = p.spelling()
			case tokString:
				name = p.stringValue()
				if name == "" {
					p.failExpected("expected valid attribute name")
				}
			default:
				p.failExpected("expected attribute name")
			}
			// As in MLIR, a duplicate is reported before the name is
			// consumed (and the next token lexed).
			dup := false
			if seen != nil {
				dup = seen[name]
				seen[name] = true
			} else {
				for _, e := range entries {
					dup = dup || e.Name == name
				}
				if len(entries) == 16 {
					seen = map[string]bool{name: true}
					for _, e := range entries {
						seen[e.Name] = true
					}
				}
			}
			if dup {
				p.fail(pos, "duplicate key '%s' in dictionary attribute", name)
			}
			p.advance()
			var v ir.Attribute
			if p.consumeIf(tokEqual) {
				v = p.parseAttribute(nil)
			} else {
				v = p.ctx.UnitAttr()
			}
			entries = append(entries, ir.NamedAttr{Name: name, Value: v})
			if !p.consumeIf(tokComma) {
				break
			}
		}
		p.expect(tokRBrace, " in attribute dictionary")
	}
	d := p.ctx.Dict(entries)
	if end > 0 && p.tok.start >= end {
		p.dictCache[string(p.src[start:end])] = d
	}
	return d
}

func (p *parser) parseSymbolRef() ir.Attribute {
	root := p.symbolName()
	var nested []string
	for p.is(tokColon) {
		save := p.lex.pos
		saveTok := p.tok
		p.advance()
		// As in MLIR, `: :` with a space counts as `::` too.
		if !p.is(tokColon) {
			p.lex.pos = save
			p.tok = saveTok
			break
		}
		p.advance()
		if !p.is(tokAtIdent) {
			p.failTok("expected nested symbol reference identifier")
		}
		nested = append(nested, p.symbolName())
	}
	return p.ctx.SymbolRef(root, nested...)
}

// symbolName consumes an `@name` token and returns the name.
func (p *parser) symbolName() string {
	t := p.text(p.tok)
	var s string
	if len(t) > 1 && t[1] == '"' {
		s = unescape(t[2 : len(t)-1])
	} else {
		s = string(t[1:])
	}
	p.advance()
	return s
}

func (p *parser) parseExtendedAttr(t ir.Type) ir.Attribute {
	dialect, data, isAlias, pos := p.parseExtendedSymbol()
	var a ir.Attribute
	if isAlias {
		var ok bool
		a, ok = p.attrAliases[dialect]
		if !ok {
			p.fail(p.wrongTokenPos(), "undefined symbol alias id '%s'", dialect)
		}
	} else {
		at := t
		if p.consumeIf(tokColon) {
			at = p.parseType()
		}
		if !p.ctx.AllowUnregistered && !p.ctx.IsDialectRegistered(dialect) {
			p.fail(pos, "dialect '%s' is unknown; if this is intended, use --allow-unregistered-dialect", dialect)
		}
		if _, none := at.(*ir.NoneType); none {
			at = nil
		}
		a = p.ctx.OpaqueAttr(dialect, data, at)
	}
	if t != nil {
		if ta, ok := a.(ir.TypedAttr); ok && ta.AttrType() != t {
			p.fail(pos, "attribute type different than expected: expected %s, but got %s", t, ta.AttrType())
		}
	}
	return a
}

func (p *parser) parseFloatAttr(t ir.Type, neg bool) ir.Attribute {
	// Out-of-range literals become infinities, as with strtod in MLIR.
	v, err := strconv.ParseFloat(p.spelling(), 64)
	if err != nil && !math.IsInf(v, 0) {
		p.failTok("invalid floating point literal")
	}
	p.advance()
	if t == nil {
		if p.consumeIf(tokColon) {
			t = p.parseType()
		} else {
			t = p.ctx.F64()
		}
	}
	ft, ok := t.(*ir.FloatType)
	if !ok {
		// MLIR reports a wrong type at the token after the literal (or
		// after its type).
		p.failTok("floating point value not valid for specified type")
	}
	if neg {
		v = -v
	}
	return p.ctx.FloatAttr(ft, v)
}

func (p *parser) parseIntAttr(t ir.Type, neg bool) ir.Attribute {
	tok := p.tok
	spelling := string(p.text(tok))
	p.advance()
	if t == nil {
		if p.consumeIf(tokColon) {
			t = p.parseType()
		} else {
			t = p.ctx.I64()
		}
	}
	if ft, ok := t.(*ir.FloatType); ok {
		bits := p.floatBitsFromInt(tok, spelling, neg, ft)
		return p.ctx.FloatAttrFromBits(ft, bits)
	}
	if !ir.IsIntOrIndex(t) {
		p.fail(tok.start, "integer literal not valid for specified type")
	}
	if it, ok := t.(*ir.IntegerType); ok && neg && it.Signedness == ir.Unsigned {
		p.fail(tok.start, "negative integer literal not valid for unsigned integer type")
	}
	if v, ok := fastInt(t, neg, spelling); ok {
		return p.ctx.IntegerAttr(t, v)
	}
	v, ok := buildInt(t, neg, spelling)
	if !ok {
		p.fail(tok.start, "integer constant out of range for attribute")
	}
	return p.ctx.BigIntegerAttr(t, v)
}

// fastInt is buildInt for types up to 64 bits and literals that fit in a
// uint64, without big integers. ok is false when the slow path must decide.
func fastInt(t ir.Type, neg bool, spelling string) (int64, bool) {
	width, signed := 64, true
	if it, isInt := t.(*ir.IntegerType); isInt {
		width, signed = it.Width, it.Signedness == ir.Signed
	}
	if width == 0 || width > 64 {
		return 0, false
	}
	var u uint64
	var err error
	if len(spelling) > 2 && spelling[1] == 'x' {
		u, err = strconv.ParseUint(spelling[2:], 16, 64)
	} else {
		u, err = strconv.ParseUint(spelling, 10, 64)
	}
	if err != nil {
		return 0, false
	}
	if width < 64 && u>>uint(width) != 0 {
		return 0, false
	}
	half := uint64(1) << uint(width-1)
	switch {
	case neg:
		if u == 0 || u > half {
			return 0, false
		}
		return int64(-u), true
	case signed && u >= half:
		return 0, false
	}
	return int64(u), true
}

// buildInt checks that a literal fits the type the way MLIR does: the
// magnitude must fit the width, a negative value must keep the sign bit,
// and positive values of signed and index types must not set it. Signless
// types accept the full unsigned range.
func buildInt(t ir.Type, neg bool, spelling string) (*big.Int, bool) {
	v, ok := new(big.Int).SetString(spelling, 0)
	if !ok || strings.HasPrefix(spelling, "0") && len(spelling) > 1 && spelling[1] != 'x' {
		// Leading zeros are decimal in MLIR, not octal.
		v, ok = new(big.Int).SetString(spelling, 10)
		if !ok {
			return nil, false
		}
	}
	width := 64
	signed := true
	if it, isInt := t.(*ir.IntegerType); isInt {
		width = it.Width
		signed = it.Signedness == ir.Signed
	}
	if v.BitLen() > width {
		return nil, false
	}
	if width == 0 {
		return v, !neg
	}
	if neg {
		// -v must have the sign bit set in width bits: v in [1, 2^(w-1)].
		if v.Sign() == 0 || v.Cmp(new(big.Int).Lsh(big.NewInt(1), uint(width-1))) > 0 {
			return nil, false
		}
		return v.Neg(v), true
	}
	if signed && v.BitLen() == width {
		return nil, false
	}
	return v, true
}

// floatBitsFromInt handles hex literals for float types (`0x7FC00000 :
// f32`); decimal integers are rejected as in MLIR.
func (p *parser) floatBitsFromInt(tok token, spelling string, neg bool, ft *ir.FloatType) *big.Int {
	if !strings.HasPrefix(spelling, "0x") {
		err := p.errorAt(tok.start, "unexpected decimal integer literal for a floating point value")
		err.Notes = append(err.Notes, p.noteAt(tok.start, "add a trailing dot to make the literal a float"))
		panic(parseError{err})
	}
	if neg {
		p.fail(tok.start, "hexadecimal float literal should not have a leading minus")
	}
	v, ok := new(big.Int).SetString(spelling[2:], 16)
	if !ok || v.BitLen() > ft.Width() {
		p.fail(tok.start, "hexadecimal float constant out of range for type")
	}
	return v
}

func (p *parser) parseAffineAttr(isMap bool) ir.Attribute {
	what := "integer set"
	if isMap {
		what = "affine map"
	}
	p.advance()
	if !p.is(tokLess) {
		p.failExpected("expected '<' in %s", what)
	}
	// The affine parser reads from just after '<' and reports how far it
	// got; the closing '>' must follow.
	base := p.tok.start + 1
	body := string(p.src[base:])
	var a ir.Attribute
	var n int
	if isMap {
		m, used, err := affine.ParseMapPrefix(body)
		if err != nil {
			p.affineError(base, err)
		}
		a, n = p.ctx.AffineMap(m), used
	} else {
		s, used, err := affine.ParseSetPrefix(body)
		if err != nil {
			p.affineError(base, err)
		}
		a, n = p.ctx.IntegerSet(s), used
	}
	p.lex.pos = base + n
	p.advance()
	p.expect(tokGreater, " in "+what)
	return a
}

func (p *parser) affineError(base int, err error) {
	if ae, ok := err.(*affine.Error); ok {
		p.fail(base+ae.Offset, "%s", ae.Msg)
	}
	p.fail(base, "%s", err.Error())
}

func (p *parser) parseStridedAttr() ir.Attribute {
	start := p.tok.start
	p.advance()
	p.expect(tokLess, " after 'strided'")
	p.expect(tokLSquare, "")
	var strides []int64
	if !p.consumeIf(tokRSquare) {
		for {
			strides = append(strides, p.parseOptionalIntOrQuestion("expected a 64-bit signed integer or '?'"))
			if !p.consumeIf(tokComma) {
				break
			}
		}
		p.expect(tokRSquare, "")
	}
	offset := int64(0)
	if !p.consumeIf(tokGreater) {
		p.expect(tokComma, "")
		if !p.consumeKeyword("offset") {
			p.failExpected("expected 'offset' after comma")
		}
		p.expect(tokColon, " after 'offset'")
		offset = p.parseOptionalIntOrQuestion("expected a 64-bit signed integer or '?'")
		p.expect(tokGreater, "")
	}
	for _, s := range strides {
		if s == 0 {
			p.fail(start, "strides must not be zero")
		}
	}
	return p.ctx.StridedLayout(strides, offset)
}

func (p *parser) parseOptionalIntOrQuestion(msg string) int64 {
	if p.consumeIf(tokQuestion) {
		return ir.Dynamic
	}
	// Errors point at the value, before any minus sign.
	pos := p.tok.start
	neg := p.consumeIf(tokMinus)
	if !p.is(tokInteger) {
		p.fail(pos, "%s", msg)
	}
	u, ok := intValue(p.text(p.tok), 63)
	if !ok {
		p.fail(pos, "%s", msg)
	}
	p.advance()
	v := int64(u)
	if neg {
		v = -v
	}
	return v
}

func (p *parser) parseDistinctAttr() ir.Attribute {
	start := p.tok.start
	p.advance()
	p.expect(tokLSquare, " after 'distinct'")
	if !p.is(tokInteger) {
		p.failExpected("expected distinct ID")
	}
	id, ok := intValue(p.text(p.tok), 64)
	if !ok {
		p.failExpected("expected an unsigned 64-bit integer")
	}
	p.advance()
	p.expect(tokRSquare, " to close distinct ID")
	p.expect(tokLess, " after distinct ID")
	var ref ir.Attribute
	if p.is(tokGreater) {
		ref = p.ctx.UnitAttr()
	} else {
		ref = p.parseAttribute(nil)
	}
	p.expect(tokGreater, " to close distinct attribute")
	if p.distincts == nil {
		p.distincts = map[uint64]*ir.DistinctAttr{}
	}
	if d, ok := p.distincts[id]; ok {
		if d.Referenced != ref {
			p.fail(start, "referenced attribute does not match previous definition: %s", d.Referenced)
		}
		return d
	}
	d := p.ctx.Distinct(ref)
	p.distincts[id] = d
	return d
}

// parseLocSpecifier parses `loc(…)` after an op or argument. A location
// alias that is not yet defined is returned by name, to be resolved at the
// end of the file.
func (p *parser) parseLocSpecifier() (l ir.Location, alias string, aliasPos int) {
	p.advance()
	p.expect(tokLParen, " in location")
	if p.is(tokHashIdent) && !strings.Contains(string(p.text(p.tok)), ".") {
		name := string(p.text(p.tok)[1:])
		pos := p.tok.start
		p.advance()
		p.expect(tokRParen, " in location")
		if a, ok := p.attrAliases[name]; ok {
			loc, isLoc := a.(ir.Location)
			if !isLoc {
				p.fail(pos, "expected location, but found '%s'", a)
			}
			return loc, "", 0
		}
		return nil, name, pos
	}
	l = p.parseLocationInstance()
	p.expect(tokRParen, " in location")
	return l, "", 0
}

func (p *parser) parseLocationInstance() ir.Location {
	p.enter()
	defer p.leave()
	switch p.tok.kind {
	case tokHashIdent:
		a := p.parseExtendedAttr(nil)
		l, ok := a.(ir.Location)
		if !ok {
			p.failExpected("expected location attribute, but got%s", " "+a.String())
		}
		return l
	case tokString:
		s := p.stringValue()
		p.advance()
		if p.consumeIf(tokColon) {
			line := p.parseLocNumber("expected integer line number in FileLineColLoc")
			p.expect(tokColon, " in FileLineColLoc")
			col := p.parseLocNumber("expected integer column number in FileLineColLoc")
			return p.ctx.FileLineColLoc(s, line, col)
		}
		if p.consumeIf(tokLParen) {
			child := p.parseLocationInstance()
			p.expect(tokRParen, " after child location of NameLoc")
			return p.ctx.NameLoc(s, child)
		}
		return p.ctx.NameLoc(s, p.ctx.UnknownLoc())
	case tokBareIdent:
		switch string(p.text(p.tok)) {
		case "unknown":
			p.advance()
			return p.ctx.UnknownLoc()
		case "callsite":
			p.advance()
			p.expect(tokLParen, " in callsite location")
			callee := p.parseLocationInstance()
			if !p.consumeKeyword("at") {
				p.failExpected("expected 'at' in callsite location")
			}
			caller := p.parseLocationInstance()
			p.expect(tokRParen, " in callsite location")
			return p.ctx.CallSiteLoc(callee, caller)
		case "fused":
			p.advance()
			var meta ir.Attribute
			if p.consumeIf(tokLess) {
				meta = p.parseAttribute(nil)
				p.expect(tokGreater, " after fused location metadata")
			}
			p.expect(tokLSquare, " in fused location")
			var locs []ir.Location
			if p.consumeIf(tokRSquare) {
				// As MLIR's FusedLoc::get: no locations is the unknown
				// location, or with metadata, fused over it.
				if meta == nil {
					return p.ctx.UnknownLoc()
				}
				return p.ctx.FusedLoc([]ir.Location{p.ctx.UnknownLoc()}, meta)
			}
			for {
				locs = append(locs, p.parseLocationInstance())
				if !p.consumeIf(tokComma) {
					break
				}
			}
			p.expect(tokRSquare, " in fused location")
			return p.ctx.FusedLoc(locs, meta)
		}
	}
	p.failExpected("expected location instance")
	return nil
}

func (p *parser) parseLocNumber(msg string) int {
	if !p.is(tokInteger) {
		p.failExpected("%s", msg)
	}
	v, ok := intValue(p.text(p.tok), 32)
	if !ok {
		p.failExpected("%s", msg)
	}
	p.advance()
	return int(v)
}
