package jinja

import (
	"fmt"
	"slices"
)

// parser builds the tree from the tokens, as jinja2's parser does.
type parser struct {
	t     *Template
	toks  []token
	i     int
	depth int
}

func (p *parser) cur() token  { return p.toks[p.i] }
func (p *parser) peek() token { return p.toks[min(p.i+1, len(p.toks)-1)] }
func (p *parser) next() token {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}

func (p *parser) isOp(op string) bool { t := p.cur(); return t.kind == tOp && t.val == op }
func (p *parser) isName(n string) bool {
	t := p.cur()
	return t.kind == tName && t.val == n
}

func (p *parser) skipOp(op string) bool {
	if p.isOp(op) {
		p.next()
		return true
	}
	return false
}

func (p *parser) skipName(n string) bool {
	if p.isName(n) {
		p.next()
		return true
	}
	return false
}

func (p *parser) expectOp(op string) error {
	if !p.skipOp(op) {
		return p.unexpected(fmt.Sprintf("%q", op))
	}
	return nil
}

func (p *parser) expectKind(k tokKind) (token, error) {
	if p.cur().kind != k {
		return token{}, p.unexpected(tokNames[k])
	}
	return p.next(), nil
}

func (p *parser) unexpected(want string) error {
	return p.t.errorf(p.cur().pos, "expected %s, found %s", want, p.cur())
}

// parseBody parses nodes until a block tag whose first name is in ends
// (left unconsumed, the parser on that name), or the end of the template
// when ends is empty.
func (p *parser) parseBody(ends ...string) ([]node, error) {
	var body []node
	for {
		t := p.cur()
		switch t.kind {
		case tEOF:
			if len(ends) > 0 {
				return nil, p.t.errorf(t.pos, "unexpected end of template: expected {%% %s %%}", ends[len(ends)-1])
			}
			return body, nil
		case tData:
			p.next()
			body = append(body, &textNode{at(t.pos), t.val})
		case tVarBegin:
			p.next()
			e, err := p.parseTuple(true, false)
			if err != nil {
				return nil, err
			}
			if _, err := p.expectKind(tVarEnd); err != nil {
				return nil, err
			}
			body = append(body, &outputNode{at(t.pos), e})
		case tBlockBegin:
			p.next()
			name := p.cur()
			if name.kind != tName {
				return nil, p.unexpected("a statement name")
			}
			if slices.Contains(ends, name.val) {
				return body, nil
			}
			n, err := p.parseStatement(t.pos)
			if err != nil {
				return nil, err
			}
			if n != nil {
				body = append(body, n)
			}
		default:
			return nil, p.unexpected("text or a tag")
		}
	}
}

func (p *parser) endTag() error {
	_, err := p.expectKind(tBlockEnd)
	return err
}

// closing consumes "{% name %}" that parseBody stopped at.
func (p *parser) closing(name string) error {
	if !p.skipName(name) {
		return p.unexpected(fmt.Sprintf("{%% %s %%}", name))
	}
	return p.endTag()
}

var unsupportedStatements = map[string]bool{
	"include": true, "import": true, "from": true, "extends": true, "block": true,
	"call": true, "with": true, "do": true, "autoescape": true, "trans": true,
}

func (p *parser) parseStatement(pos int) (node, error) {
	kw := p.next()
	switch kw.val {
	case "if":
		return p.parseIf(pos)
	case "for":
		return p.parseFor(pos)
	case "set":
		return p.parseSet(pos)
	case "macro":
		return p.parseMacro(pos)
	case "break", "continue":
		if err := p.endTag(); err != nil {
			return nil, err
		}
		if kw.val == "break" {
			return &breakNode{at(pos)}, nil
		}
		return &continueNode{at(pos)}, nil
	case "filter":
		return p.parseFilterBlock(pos)
	case "generation":
		if err := p.endTag(); err != nil {
			return nil, err
		}
		body, err := p.parseBody("endgeneration")
		if err != nil {
			return nil, err
		}
		if err := p.closing("endgeneration"); err != nil {
			return nil, err
		}
		return &filterBlock{at: at(pos), body: body}, nil
	}
	if unsupportedStatements[kw.val] {
		return nil, p.t.errorf(kw.pos, "the statement %q is not supported", kw.val)
	}
	return nil, p.t.errorf(kw.pos, "unknown statement %q", kw.val)
}

func (p *parser) parseIf(pos int) (node, error) {
	n := &ifNode{at: at(pos)}
	for {
		cond, err := p.parseTuple(false, false)
		if err != nil {
			return nil, err
		}
		if err := p.endTag(); err != nil {
			return nil, err
		}
		body, err := p.parseBody("elif", "else", "endif")
		if err != nil {
			return nil, err
		}
		n.conds = append(n.conds, cond)
		n.bodies = append(n.bodies, body)
		switch p.next().val {
		case "elif":
			continue
		case "else":
			if err := p.endTag(); err != nil {
				return nil, err
			}
			if n.els, err = p.parseBody("endif"); err != nil {
				return nil, err
			}
			return n, p.closing("endif")
		default:
			return n, p.endTag()
		}
	}
}

func (p *parser) parseAssignTarget(withNamespace bool) (assignTarget, error) {
	var tg assignTarget
	t := p.cur()
	if withNamespace && t.kind == tName && p.peek().kind == tOp && p.peek().val == "." {
		p.next()
		p.next()
		attr, err := p.expectKind(tName)
		if err != nil {
			return tg, err
		}
		return assignTarget{ns: t.val, names: []string{attr.val}}, nil
	}
	paren := p.skipOp("(")
	for {
		n, err := p.expectKind(tName)
		if err != nil {
			return tg, err
		}
		if isReserved(n.val) {
			return tg, p.t.errorf(n.pos, "cannot assign to %q", n.val)
		}
		tg.names = append(tg.names, n.val)
		if !p.skipOp(",") {
			break
		}
		tg.tuple = true
		if p.cur().kind != tName {
			break
		}
	}
	if paren {
		if err := p.expectOp(")"); err != nil {
			return tg, err
		}
	}
	return tg, nil
}

func isReserved(n string) bool {
	switch n {
	case "true", "false", "none", "True", "False", "None":
		return true
	}
	return false
}

func (p *parser) parseFor(pos int) (node, error) {
	tg, err := p.parseAssignTarget(false)
	if err != nil {
		return nil, err
	}
	if !p.skipName("in") {
		return nil, p.unexpected(`"in"`)
	}
	n := &forNode{at: at(pos), target: tg}
	if n.iter, err = p.parseTuple(false, true); err != nil {
		return nil, err
	}
	if p.skipName("if") {
		if n.cond, err = p.parseExpression(true); err != nil {
			return nil, err
		}
	}
	if p.isName("recursive") {
		return nil, p.t.errorf(p.cur().pos, "recursive loops are not supported")
	}
	if err := p.endTag(); err != nil {
		return nil, err
	}
	if n.body, err = p.parseBody("endfor", "else"); err != nil {
		return nil, err
	}
	if p.next().val == "else" {
		if err := p.endTag(); err != nil {
			return nil, err
		}
		if n.els, err = p.parseBody("endfor"); err != nil {
			return nil, err
		}
		return n, p.closing("endfor")
	}
	return n, p.endTag()
}

func (p *parser) parseSet(pos int) (node, error) {
	tg, err := p.parseAssignTarget(true)
	if err != nil {
		return nil, err
	}
	n := &setNode{at: at(pos), target: tg}
	if p.skipOp("=") {
		if n.value, err = p.parseTuple(true, false); err != nil {
			return nil, err
		}
		return n, p.endTag()
	}
	if tg.ns != "" || tg.tuple {
		return nil, p.unexpected(`"="`)
	}
	for p.isOp("|") {
		f, err := p.parseFilter(nil)
		if err != nil {
			return nil, err
		}
		n.filters = append(n.filters, f)
	}
	if err := p.endTag(); err != nil {
		return nil, err
	}
	if n.body, err = p.parseBody("endset"); err != nil {
		return nil, err
	}
	if n.body == nil {
		n.body = []node{}
	}
	return n, p.closing("endset")
}

func (p *parser) parseMacro(pos int) (node, error) {
	name, err := p.expectKind(tName)
	if err != nil {
		return nil, err
	}
	n := &macroNode{at: at(pos), name: name.val}
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	for !p.isOp(")") {
		if len(n.params) > 0 {
			if err := p.expectOp(","); err != nil {
				return nil, err
			}
			if p.isOp(")") {
				break
			}
		}
		arg, err := p.expectKind(tName)
		if err != nil {
			return nil, err
		}
		n.params = append(n.params, arg.val)
		if p.skipOp("=") {
			d, err := p.parseExpression(true)
			if err != nil {
				return nil, err
			}
			n.defaults = append(n.defaults, d)
		} else if len(n.defaults) > 0 {
			return nil, p.t.errorf(arg.pos, "non-default argument %q follows a default argument", arg.val)
		}
	}
	p.next()
	if err := p.endTag(); err != nil {
		return nil, err
	}
	if n.body, err = p.parseBody("endmacro"); err != nil {
		return nil, err
	}
	return n, p.closing("endmacro")
}

func (p *parser) parseFilterBlock(pos int) (node, error) {
	n := &filterBlock{at: at(pos)}
	for first := true; first || p.isOp("|"); first = false {
		if !first {
			p.next()
		}
		f, err := p.parseFilterCall(nil)
		if err != nil {
			return nil, err
		}
		n.filters = append(n.filters, f)
	}
	if err := p.endTag(); err != nil {
		return nil, err
	}
	var err error
	if n.body, err = p.parseBody("endfilter"); err != nil {
		return nil, err
	}
	return n, p.closing("endfilter")
}
