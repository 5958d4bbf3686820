package asm

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rlx-compiler/rlx/ir"
)

// parseCustomOp parses an op in its custom form through its definition's
// Parse hook.
func (p *parser) parseCustomOp() *ir.Operation {
	p.enter()
	defer p.leave()
	nameTok := p.tok
	name := p.spelling()
	// As in MLIR, the name is consumed before it is looked up, so an error
	// in the next token is reported first.
	p.advance()
	opName := p.ctx.OpName(name)
	tried := name
	if opName.Def() == nil {
		// A name without a dialect prefix (or with an empty op part, as
		// in `func.`) is looked up in the enclosing op's default dialect.
		if dot := strings.IndexByte(name, '.'); dot < 0 || dot == len(name)-1 {
			dd := p.defaultDialect[len(p.defaultDialect)-1]
			tried = dd + "." + name
			opName = p.ctx.OpName(tried)
		}
	}
	if opName.Def() == nil {
		suffix := ""
		if tried != name {
			suffix = fmt.Sprintf(" (tried '%s' as well)", tried)
		}
		if d, _, _ := strings.Cut(tried, "."); !p.ctx.IsDialectRegistered(d) {
			err := p.errorAt(nameTok.start, "Dialect `%s' not found for custom op '%s' %s", d, name, suffix)
			var names []string
			for _, d := range p.ctx.Dialects() {
				names = append(names, d.Name)
			}
			err.Notes = append(err.Notes, p.noteAt(nameTok.start, "Registered dialects: %s ; for more info on dialect registration see https://mlir.llvm.org/getting_started/Faq/#registered-loaded-dependent-whats-up-with-dialects-management", strings.Join(names, ", ")))
			panic(parseError{err})
		}
		p.fail(nameTok.start, "custom op '%s' is unknown%s", name, suffix)
	}
	def := opName.Def()
	if def.Parse == nil {
		p.fail(nameTok.start, "custom op '%s' has no custom assembly form", name)
	}
	st := &ir.OperationState{Name: opName, Loc: p.ctx.UnknownLoc()}
	op := &opParser{p: p, def: def}
	if err := def.Parse(op, st); err != nil {
		if pe, ok := err.(*Error); ok {
			panic(parseError{pe})
		}
		p.failTok("%s", err.Error())
	}
	return ir.NewOperation(p.ctx, st)
}

// opParser implements ir.OpAsmParser over the parser.
type opParser struct {
	p   *parser
	def *ir.OpDef
	// listPos is where the last operand list started: MLIR reports a
	// wrong operand count there, even for an empty list.
	listPos int
}

var _ ir.OpAsmParser = (*opParser)(nil)

func (o *opParser) Context() *ir.Context { return o.p.ctx }

// Errorf reports an error from a custom parser at the current token,
// prefixed with the op name as MLIR does.
func (o *opParser) Errorf(format string, args ...any) error {
	return o.p.errorAt(o.p.tok.start, "custom op '%s' %s", o.def.Name, fmt.Sprintf(format, args...))
}

func (o *opParser) ErrorAt(loc ir.Location, format string, args ...any) error {
	if f, ok := loc.(*ir.FileLineColLoc); ok {
		e := &Error{File: o.p.name, Line: int(f.Line), Col: int(f.Col), Msg: "custom op '" + o.def.Name + "' " + fmt.Sprintf(format, args...)}
		if start, ok := o.p.lines.lineStart(int(f.Line) - o.p.opts.LineOffset); ok {
			e.SourceLine = o.p.lines.lineText(start)
		}
		return e
	}
	return o.Errorf(format, args...)
}

func (o *opParser) CurrentLoc() ir.Location { return o.p.loc(o.p.tok.start) }

func (o *opParser) ParseOperand() (ir.UnresolvedOperand, error) {
	r := o.p.parseOperandRef()
	return ir.UnresolvedOperand{Name: string(r.name), Number: r.num, Pos: r.pos}, nil
}

func (o *opParser) ParseOptionalOperand() (ir.UnresolvedOperand, bool, error) {
	if !o.p.is(tokPercentIdent) {
		return ir.UnresolvedOperand{}, false, nil
	}
	u, err := o.ParseOperand()
	return u, true, err
}

func (o *opParser) ParseOperandList() ([]ir.UnresolvedOperand, error) {
	o.listPos = o.p.tok.start
	var out []ir.UnresolvedOperand
	if !o.p.is(tokPercentIdent) {
		return out, nil
	}
	for {
		u, _ := o.ParseOperand()
		out = append(out, u)
		if !o.p.consumeIf(tokComma) {
			return out, nil
		}
	}
}

func (o *opParser) ResolveOperand(u ir.UnresolvedOperand, t ir.Type) (*ir.Value, error) {
	return o.p.resolveValue(bytesOf(u.Name), u.Number, t, u.Pos), nil
}

func (o *opParser) ResolveOperands(us []ir.UnresolvedOperand, ts []ir.Type) ([]*ir.Value, error) {
	if len(us) != len(ts) {
		pos := o.p.tok.start
		switch {
		case len(us) > 0:
			pos = us[0].Pos
		case o.listPos > 0:
			pos = o.listPos
		}
		return nil, o.p.errorAt(pos, "custom op '%s' %d operands present, but expected %d", o.def.Name, len(us), len(ts))
	}
	out := make([]*ir.Value, len(us))
	for i := range us {
		out[i] = o.p.resolveValue(bytesOf(us[i].Name), us[i].Number, ts[i], us[i].Pos)
	}
	return out, nil
}

func (o *opParser) ParseType() (ir.Type, error) { return o.p.parseType(), nil }

func (o *opParser) ParseColonType() (ir.Type, error) {
	o.p.expect(tokColon, "")
	return o.p.parseType(), nil
}

func (o *opParser) ParseColonTypeList() ([]ir.Type, error) {
	o.p.expect(tokColon, "")
	var ts []ir.Type
	for {
		ts = append(ts, o.p.parseType())
		if !o.p.consumeIf(tokComma) {
			return ts, nil
		}
	}
}

func (o *opParser) ParseTypeList() ([]ir.Type, error) {
	if o.p.is(tokLParen) {
		return o.p.parseTypeListParens(), nil
	}
	return []ir.Type{o.p.parseNonFunctionType()}, nil
}

func (o *opParser) ParseOptionalArrowTypeList() ([]ir.Type, error) {
	if !o.p.consumeIf(tokArrow) {
		return nil, nil
	}
	return o.ParseTypeList()
}

func (o *opParser) ParseAttribute(t ir.Type) (ir.Attribute, error) {
	return o.p.parseAttribute(t), nil
}

func (o *opParser) ParseOptionalAttrDict() ([]ir.NamedAttr, error) {
	if !o.p.is(tokLBrace) {
		return nil, nil
	}
	return o.p.parseAttrDict().Entries, nil
}

func (o *opParser) ParseOptionalAttrDictWithKeyword() ([]ir.NamedAttr, error) {
	if !o.p.consumeKeyword("attributes") {
		return nil, nil
	}
	if !o.p.is(tokLBrace) {
		return nil, o.p.errorAt(o.p.wrongTokenPos(), "expected '{' in attribute dictionary")
	}
	return o.p.parseAttrDict().Entries, nil
}

func (o *opParser) ParseSymbolName() (string, error) {
	if !o.p.is(tokAtIdent) {
		return "", o.Errorf("expected valid '@'-identifier for symbol name")
	}
	return o.p.symbolName(), nil
}

func (o *opParser) ParseFlatSymbolRef() (*ir.SymbolRefAttr, error) {
	pos := o.p.tok.start
	a := o.p.parseAttribute(o.p.ctx.None())
	if r, ok := a.(*ir.SymbolRefAttr); ok && len(r.Nested) == 0 {
		return r, nil
	}
	return nil, o.p.errorAt(pos, "custom op '%s' invalid kind of attribute specified", o.def.Name)
}

func (o *opParser) ParseOptionalSymbolName() (string, bool, error) {
	if !o.p.is(tokAtIdent) {
		return "", false, nil
	}
	return o.p.symbolName(), true, nil
}

func (o *opParser) ParseKeyword(kw string) error {
	if !o.p.consumeKeyword(kw) {
		return o.Errorf("expected '%s'", kw)
	}
	return nil
}

func (o *opParser) ParseOptionalKeyword(kw string) bool { return o.p.consumeKeyword(kw) }

func (o *opParser) ParseKeywordToken() (string, error) {
	if !o.p.is(tokBareIdent) {
		return "", o.Errorf("expected valid keyword")
	}
	s := o.p.spelling()
	o.p.advance()
	return s, nil
}

func (o *opParser) ParseOptionalKeywordToken() (string, bool) {
	if !o.p.is(tokBareIdent) {
		return "", false
	}
	s := o.p.spelling()
	o.p.advance()
	return s, true
}

func (o *opParser) ParseString() (string, error) {
	if !o.p.is(tokString) {
		return "", o.Errorf("expected string")
	}
	s := o.p.stringValue()
	o.p.advance()
	return s, nil
}

func (o *opParser) ParseOptionalString() (string, bool, error) {
	if !o.p.is(tokString) {
		return "", false, nil
	}
	s := o.p.stringValue()
	o.p.advance()
	return s, true, nil
}

func (o *opParser) ParseInteger() (int64, error) {
	neg := o.p.consumeIf(tokMinus)
	if !o.p.is(tokInteger) {
		return 0, o.Errorf("expected integer value")
	}
	v, err := strconv.ParseInt(o.p.spelling(), 0, 64)
	if err != nil {
		return 0, o.Errorf("integer value too large")
	}
	o.p.advance()
	if neg {
		v = -v
	}
	return v, nil
}

var punctKinds = map[string]tokKind{
	"(": tokLParen, ")": tokRParen, "[": tokLSquare, "]": tokRSquare,
	"{": tokLBrace, "}": tokRBrace, "<": tokLess, ">": tokGreater,
	",": tokComma, ":": tokColon, "=": tokEqual, "->": tokArrow,
	"*": tokStar, "?": tokQuestion, "+": tokPlus, "-": tokMinus,
	"...": tokEllipsis, "|": tokVerticalBar,
}

// ParsePunct consumes the punctuation s. As MLIR's parseLParen and the
// like, a missing one is reported without the op's name, just after the
// previous token.
func (o *opParser) ParsePunct(s string) error {
	k, ok := punctKinds[s]
	if !ok || !o.p.consumeIf(k) {
		return o.p.errorAt(o.p.wrongTokenPos(), "expected '%s'", s)
	}
	return nil
}

func (o *opParser) ParseOptionalPunct(s string) bool {
	k, ok := punctKinds[s]
	return ok && o.p.consumeIf(k)
}

func (o *opParser) ParseRegion(r *ir.Region, args []ir.Argument) error {
	// An op without a default dialect keeps the enclosing one, as in MLIR
	// where only ops that declare one push it.
	dd := o.def.DefaultDialect
	if dd == "" {
		dd = o.p.defaultDialect[len(o.p.defaultDialect)-1]
	}
	o.p.defaultDialect = append(o.p.defaultDialect, dd)
	o.p.parseRegion(r, args)
	o.p.defaultDialect = o.p.defaultDialect[:len(o.p.defaultDialect)-1]
	return nil
}

func (o *opParser) ParseOptionalRegion(r *ir.Region, args []ir.Argument) (bool, error) {
	if !o.p.is(tokLBrace) {
		return false, nil
	}
	return true, o.ParseRegion(r, args)
}

func (o *opParser) ParseArgument(withType, withAttrs bool) (ir.Argument, error) {
	if !o.p.is(tokPercentIdent) {
		return ir.Argument{}, o.Errorf("expected SSA identifier")
	}
	a, _, err := o.ParseOptionalArgument(withType, withAttrs)
	return a, err
}

func (o *opParser) ParseOptionalArgument(withType, withAttrs bool) (ir.Argument, bool, error) {
	if !o.p.is(tokPercentIdent) {
		return ir.Argument{}, false, nil
	}
	var a ir.Argument
	a.Name.Pos = o.p.tok.start
	a.Name.Name = string(o.p.text(o.p.tok)[1:])
	o.p.advance()
	if o.p.is(tokHashIdent) {
		return a, true, o.p.errorAt(o.p.tok.start, "result number not allowed in argument list")
	}
	if withType {
		o.p.expect(tokColon, "")
		a.Type = o.p.parseType()
	}
	if withAttrs && o.p.is(tokLBrace) {
		a.Attrs = o.p.parseAttrDict()
	}
	l, err := o.ParseOptionalLocationSpecifier()
	if err != nil {
		return a, true, err
	}
	a.Loc = l
	return a, true, nil
}

func (o *opParser) ParseOptionalLocationSpecifier() (ir.Location, error) {
	if !o.p.isKeyword("loc") {
		return nil, nil
	}
	pos := o.p.tok.start
	l, alias, _ := o.p.parseLocSpecifier()
	if alias != "" {
		return nil, o.p.errorAt(pos, "location alias '#%s' must be defined before this use", alias)
	}
	return l, nil
}
