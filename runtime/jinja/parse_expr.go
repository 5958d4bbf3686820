package jinja

import "slices"

// maxDepth bounds expression nesting so a hostile template cannot exhaust
// the stack.
const maxDepth = 200

// parseTuple is jinja2's parse_tuple: an expression, or several separated
// by commas making a tuple. forIter stops at "if" (a loop's filter) and
// "recursive".
func (p *parser) parseTuple(withCond, forIter bool) (expr, error) {
	pos := p.cur().pos
	var items []expr
	isTuple := false
	for {
		if len(items) > 0 {
			if !p.skipOp(",") {
				break
			}
			isTuple = true
		}
		if p.tupleEnds(forIter) {
			break
		}
		e, err := p.parseExpression(withCond)
		if err != nil {
			return nil, err
		}
		items = append(items, e)
	}
	if !isTuple {
		if len(items) == 0 {
			return nil, p.unexpected("an expression")
		}
		return items[0], nil
	}
	return &tupleExpr{at(pos), items}, nil
}

func (p *parser) tupleEnds(forIter bool) bool {
	t := p.cur()
	switch t.kind {
	case tVarEnd, tBlockEnd, tEOF:
		return true
	case tOp:
		return t.val == ")" || t.val == "]" || t.val == "}" || t.val == "="
	case tName:
		return forIter && (t.val == "if" || t.val == "recursive")
	}
	return false
}

func (p *parser) parseExpression(withCond bool) (expr, error) {
	if withCond {
		return p.parseCondExpr()
	}
	return p.parseOr()
}

func (p *parser) parseCondExpr() (expr, error) {
	pos := p.cur().pos
	e, err := p.parseOr()
	if err != nil {
		return nil, err
	}
	for p.skipName("if") {
		cond, err := p.parseOr()
		if err != nil {
			return nil, err
		}
		var els expr
		if p.skipName("else") {
			if els, err = p.parseCondExpr(); err != nil {
				return nil, err
			}
		}
		e = &condExpr{at(pos), cond, e, els}
	}
	return e, nil
}

func (p *parser) parseOr() (expr, error) {
	return p.parseBinary([]string{"or"}, p.parseAnd)
}

func (p *parser) parseAnd() (expr, error) {
	return p.parseBinary([]string{"and"}, p.parseNot)
}

func (p *parser) parseNot() (expr, error) {
	if p.isName("not") {
		pos := p.next().pos
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer p.leave()
		x, err := p.parseNot()
		if err != nil {
			return nil, err
		}
		return &unaryExpr{at(pos), "not", x}, nil
	}
	return p.parseCompare()
}

func (p *parser) parseCompare() (expr, error) {
	pos := p.cur().pos
	first, err := p.parseMath1()
	if err != nil {
		return nil, err
	}
	c := &compareExpr{at: at(pos), first: first}
	for {
		t := p.cur()
		var op string
		switch {
		case t.kind == tOp && (t.val == "==" || t.val == "!=" || t.val == "<" || t.val == "<=" || t.val == ">" || t.val == ">="):
			op = t.val
			p.next()
		case p.isName("in"):
			op = "in"
			p.next()
		case p.isName("not") && p.peek().kind == tName && p.peek().val == "in":
			op = "notin"
			p.next()
			p.next()
		default:
			if len(c.ops) == 0 {
				return first, nil
			}
			return c, nil
		}
		r, err := p.parseMath1()
		if err != nil {
			return nil, err
		}
		c.ops = append(c.ops, op)
		c.rest = append(c.rest, r)
	}
}

// parseBinary parses left-associative operators of one precedence: ops
// are operator tokens, or the keywords "and" and "or".
func (p *parser) parseBinary(ops []string, next func() (expr, error)) (expr, error) {
	l, err := next()
	for err == nil {
		t := p.cur()
		if (t.kind != tOp && t.kind != tName) || !slices.Contains(ops, t.val) {
			break
		}
		p.next()
		var r expr
		if r, err = next(); err == nil {
			l = &binExpr{at(t.pos), t.val, l, r}
		}
	}
	return l, err
}

func (p *parser) parseMath1() (expr, error) {
	return p.parseBinary([]string{"+", "-"}, p.parseConcat)
}

func (p *parser) parseConcat() (expr, error) {
	return p.parseBinary([]string{"~"}, p.parseMath2)
}

func (p *parser) parseMath2() (expr, error) {
	return p.parseBinary([]string{"*", "/", "//", "%"}, p.parsePow)
}

func (p *parser) parsePow() (expr, error) {
	return p.parseBinary([]string{"**"}, func() (expr, error) { return p.parseUnary(true) })
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return p.t.errorf(p.cur().pos, "the expression is nested too deeply")
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

func (p *parser) parseUnary(withFilter bool) (expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	t := p.cur()
	var e expr
	var err error
	if t.kind == tOp && (t.val == "-" || t.val == "+") {
		p.next()
		x, err := p.parseUnary(false)
		if err != nil {
			return nil, err
		}
		e = &unaryExpr{at(t.pos), t.val, x}
	} else {
		if e, err = p.parsePrimary(); err != nil {
			return nil, err
		}
	}
	if e, err = p.parsePostfix(e); err != nil {
		return nil, err
	}
	if withFilter {
		return p.parseFilterExpr(e)
	}
	return e, nil
}

func (p *parser) parsePrimary() (expr, error) {
	t := p.cur()
	switch t.kind {
	case tName:
		p.next()
		switch t.val {
		case "true", "True":
			return &constExpr{at(t.pos), true}, nil
		case "false", "False":
			return &constExpr{at(t.pos), false}, nil
		case "none", "None":
			return &constExpr{at(t.pos), nil}, nil
		}
		return &nameExpr{at(t.pos), t.val}, nil
	case tString:
		p.next()
		s := t.val
		for p.cur().kind == tString {
			s += p.next().val
		}
		return &constExpr{at(t.pos), s}, nil
	case tInt, tFloat:
		p.next()
		return &constExpr{at(t.pos), t.num}, nil
	case tOp:
		switch t.val {
		case "(":
			p.next()
			if p.skipOp(")") {
				return &tupleExpr{at(t.pos), nil}, nil
			}
			e, err := p.parseTuple(true, false)
			if err != nil {
				return nil, err
			}
			return e, p.expectOp(")")
		case "[":
			p.next()
			l := &listExpr{at: at(t.pos)}
			for !p.isOp("]") {
				if len(l.items) > 0 {
					if err := p.expectOp(","); err != nil {
						return nil, err
					}
					if p.isOp("]") {
						break
					}
				}
				e, err := p.parseExpression(true)
				if err != nil {
					return nil, err
				}
				l.items = append(l.items, e)
			}
			p.next()
			return l, nil
		case "{":
			p.next()
			d := &dictExpr{at: at(t.pos)}
			for !p.isOp("}") {
				if len(d.keys) > 0 {
					if err := p.expectOp(","); err != nil {
						return nil, err
					}
					if p.isOp("}") {
						break
					}
				}
				k, err := p.parseExpression(true)
				if err != nil {
					return nil, err
				}
				if err := p.expectOp(":"); err != nil {
					return nil, err
				}
				v, err := p.parseExpression(true)
				if err != nil {
					return nil, err
				}
				d.keys = append(d.keys, k)
				d.vals = append(d.vals, v)
			}
			p.next()
			return d, nil
		}
	}
	return nil, p.unexpected("an expression")
}

func (p *parser) parsePostfix(e expr) (expr, error) {
	for {
		t := p.cur()
		switch {
		case t.kind == tOp && t.val == ".":
			p.next()
			n := p.next()
			switch n.kind {
			case tName:
				e = &getattrExpr{at(t.pos), e, n.val}
			case tInt:
				e = &getitemExpr{at(t.pos), e, &constExpr{at(n.pos), n.num}}
			default:
				p.i--
				return nil, p.unexpected("an attribute name")
			}
		case t.kind == tOp && t.val == "[":
			p.next()
			var idx []expr
			for !p.isOp("]") {
				if len(idx) > 0 {
					if err := p.expectOp(","); err != nil {
						return nil, err
					}
				}
				s, err := p.parseSubscribed()
				if err != nil {
					return nil, err
				}
				idx = append(idx, s)
			}
			p.next()
			switch len(idx) {
			case 0:
				return nil, p.t.errorf(t.pos, "expected an index")
			case 1:
				e = &getitemExpr{at(t.pos), e, idx[0]}
			default:
				e = &getitemExpr{at(t.pos), e, &tupleExpr{at(t.pos), idx}}
			}
		case t.kind == tOp && t.val == "(":
			c, err := p.parseCall(e)
			if err != nil {
				return nil, err
			}
			e = c
		default:
			return e, nil
		}
	}
}

func (p *parser) parseSubscribed() (expr, error) {
	pos := p.cur().pos
	var parts [3]expr
	var err error
	if !p.isOp(":") {
		if parts[0], err = p.parseExpression(true); err != nil {
			return nil, err
		}
		if !p.isOp(":") {
			return parts[0], nil
		}
	}
	p.next()
	if !p.isOp("]") && !p.isOp(",") && !p.isOp(":") {
		if parts[1], err = p.parseExpression(true); err != nil {
			return nil, err
		}
	}
	if p.skipOp(":") && !p.isOp("]") && !p.isOp(",") {
		if parts[2], err = p.parseExpression(true); err != nil {
			return nil, err
		}
	}
	return &sliceExpr{at(pos), parts[0], parts[1], parts[2]}, nil
}

// parseArgs reads "(a, b, k=v)".
func (p *parser) parseArgs() (args []expr, kwNames []string, kwVals []expr, err error) {
	if err = p.expectOp("("); err != nil {
		return
	}
	for !p.isOp(")") {
		if len(args)+len(kwVals) > 0 {
			if err = p.expectOp(","); err != nil {
				return
			}
			if p.isOp(")") {
				break
			}
		}
		if p.isOp("*") || p.isOp("**") {
			err = p.t.errorf(p.cur().pos, "*args and **kwargs in calls are not supported")
			return
		}
		if p.cur().kind == tName && p.peek().kind == tOp && p.peek().val == "=" {
			name := p.next().val
			p.next()
			var v expr
			if v, err = p.parseExpression(true); err != nil {
				return
			}
			kwNames = append(kwNames, name)
			kwVals = append(kwVals, v)
			continue
		}
		if len(kwVals) > 0 {
			err = p.t.errorf(p.cur().pos, "a positional argument follows a keyword argument")
			return
		}
		var v expr
		if v, err = p.parseExpression(true); err != nil {
			return
		}
		args = append(args, v)
	}
	p.next()
	return
}

func (p *parser) parseCall(fn expr) (expr, error) {
	pos := p.cur().pos
	args, kn, kv, err := p.parseArgs()
	if err != nil {
		return nil, err
	}
	return &callExpr{at(pos), fn, args, kn, kv}, nil
}

func (p *parser) parseFilterExpr(e expr) (expr, error) {
	for {
		switch {
		case p.isOp("|"):
			f, err := p.parseFilter(e)
			if err != nil {
				return nil, err
			}
			e = f
		case p.isName("is"):
			t, err := p.parseTest(e)
			if err != nil {
				return nil, err
			}
			e = t
		case p.isOp("("):
			c, err := p.parseCall(e)
			if err != nil {
				return nil, err
			}
			e = c
		default:
			return e, nil
		}
	}
}

// parseFilter reads "| name(args)" after arg.
func (p *parser) parseFilter(arg expr) (*filterExpr, error) {
	if err := p.expectOp("|"); err != nil {
		return nil, err
	}
	return p.parseFilterCall(arg)
}

func (p *parser) parseFilterCall(arg expr) (*filterExpr, error) {
	n, err := p.expectKind(tName)
	if err != nil {
		return nil, err
	}
	name := n.val
	for p.isOp(".") && p.peek().kind == tName {
		p.next()
		name += "." + p.next().val
	}
	f := &filterExpr{at: at(n.pos), arg: arg, name: name}
	if p.isOp("(") {
		if f.args, f.kwNames, f.kwVals, err = p.parseArgs(); err != nil {
			return nil, err
		}
	}
	if filters[name] == nil {
		return nil, p.t.errorf(n.pos, "the filter %q is not supported", name)
	}
	return f, nil
}

func (p *parser) parseTest(arg expr) (expr, error) {
	p.next() // "is"
	neg := p.skipName("not")
	n, err := p.expectKind(tName)
	if err != nil {
		return nil, err
	}
	name := n.val
	for p.isOp(".") && p.peek().kind == tName {
		p.next()
		name += "." + p.next().val
	}
	te := &testExpr{at: at(n.pos), arg: arg, name: name, negate: neg}
	t := p.cur()
	switch {
	case p.isOp("("):
		if te.args, te.kwNames, te.kwVals, err = p.parseArgs(); err != nil {
			return nil, err
		}
	case t.kind == tName || t.kind == tString || t.kind == tInt || t.kind == tFloat || p.isOp("[") || p.isOp("{"):
		if t.kind == tName && (t.val == "else" || t.val == "or" || t.val == "and") {
			break
		}
		if t.kind == tName && t.val == "is" {
			return nil, p.t.errorf(t.pos, "you cannot chain multiple tests with is")
		}
		a, err := p.parsePrimary()
		if err != nil {
			return nil, err
		}
		if a, err = p.parsePostfix(a); err != nil {
			return nil, err
		}
		te.args = []expr{a}
	}
	if tests[name] == nil {
		return nil, p.t.errorf(n.pos, "the test %q is not supported", name)
	}
	return te, nil
}
