package filecheck

import (
	"math/big"
	"strings"

	"github.com/rlx-compiler/rlx/internal/posixre"
)

// patternContext holds the variables of one FileCheck run.
type patternContext struct {
	strVars    map[string]strValue
	strDefined map[string]bool // names ever defined as string variables
	numVars    map[string]*numVar
	lineVar    *numVar
	// text is the input, prepared for the regexp engine.
	text *posixre.Text
}

// strValue is the value of a string variable and, when it was captured
// from the input, where.
type strValue struct {
	s  string
	at int // input offset, -1 for -D values
}

func newPatternContext() *patternContext {
	return &patternContext{
		strVars:    map[string]strValue{},
		strDefined: map[string]bool{},
		numVars:    map[string]*numVar{},
	}
}

// clearLocalVars forgets all variables whose names do not start with '$'.
func (ctx *patternContext) clearLocalVars() {
	for name := range ctx.strVars {
		if name[0] != '$' {
			delete(ctx.strVars, name)
		}
	}
	for name, v := range ctx.numVars {
		if name[0] != '$' {
			v.value = nil
			v.matched, v.matchAt = "", -1
			delete(ctx.numVars, name)
		}
	}
}

// substitution is a [[VAR]] or [[#EXPR]] whose value is spliced into the
// pattern's regular expression at match time.
type substitution struct {
	from  cursor // the text that names it, used in notes and errors
	index int    // insertion offset in the pattern's regex
	str   string // string variable name, or
	expr  *expression
}

// result returns the text to splice in (regex-escaped for string
// variables), or the errors that prevent it.
func (s *substitution) result(ctx *patternContext) (string, []*locError) {
	if s.expr == nil {
		v, ok := ctx.strVars[s.str]
		if !ok {
			return "", []*locError{errorAt(s.from, "undefined variable: "+s.str)}
		}
		return regexEscape(v.s), nil
	}
	v, errs := s.expr.ast.eval()
	if errs != nil {
		var out []*locError
		for _, e := range errs {
			if e.overflow {
				out = append(out, errorAt(s.from, "unable to substitute variable or numeric expression: overflow error"))
			} else {
				out = append(out, errorAt(e.name, "undefined variable: "+e.name.s))
			}
		}
		return "", out
	}
	str, ok := s.expr.format.matchingString(v)
	if !ok {
		return "", []*locError{errorAt(s.from, "unable to substitute variable or numeric expression: overflow error")}
	}
	return str, nil
}

// numDef records that a pattern defines a numeric variable from a group.
type numDef struct {
	v     *numVar
	group int
}

// pattern is the matchable part of one directive.
type pattern struct {
	ctx   *patternContext
	typ   checkType
	start loc // where the pattern text starts
	line  int // check-file line, 0 for command-line patterns

	// A pattern is a fixed string (fixed != "") or a regular expression.
	fixed  string
	regex  string
	substs []*substitution
	// varDefs maps each string variable the pattern defines to its group.
	varDefs    map[string]int
	varDefList []string
	numDefs    map[string]numDef
	numDefList []string
	ignoreCase bool

	compiled    *posixre.Regexp
	compiledFor string
}

func newPattern(ctx *patternContext, typ checkType, line int) *pattern {
	return &pattern{ctx: ctx, typ: typ, line: line, varDefs: map[string]int{}, numDefs: map[string]numDef{}}
}

// hasVariable reports whether the pattern uses or defines string
// variables or uses numeric ones (CHECK-LABEL may do neither).
func (p *pattern) hasVariable() bool {
	return len(p.substs) != 0 || len(p.varDefs) != 0
}

// regexMeta are the characters llvm::Regex::escape escapes. NUL is among
// them because the C implementation tests with strchr.
const regexMeta = "()^$|*+?.[]\\{}\x00"

func regexEscape(s string) string {
	if !strings.ContainsAny(s, regexMeta) {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(regexMeta, s[i]) >= 0 {
			sb.WriteByte('\\')
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// parse parses the pattern text str. Errors are printed with pr; it
// returns false on error.
func (p *pattern) parse(str cursor, prefix string, opts *Options, pr *printer) bool {
	matchFullLines := opts.MatchFullLines && p.typ.kind != kindNot
	p.ignoreCase = opts.IgnoreCase
	p.start = str.loc()

	if !(opts.StrictWhitespace && opts.MatchFullLines) {
		str = str.rtrim()
	}
	if str.empty() && p.typ.kind != kindEmpty {
		pr.print(p.start, kindError, "found empty check string with prefix '"+prefix+":'")
		return false
	}
	if !str.empty() && p.typ.kind == kindEmpty {
		pr.print(p.start, kindError, "found non-empty check string for empty check with prefix '"+prefix+":'")
		return false
	}
	if p.typ.kind == kindEmpty {
		p.regex = "(\n$)"
		return true
	}
	if p.typ.literal {
		p.fixed = str.s
		return true
	}
	if !matchFullLines && (len(str.s) < 2 || (!strings.Contains(str.s, "{{") && !strings.Contains(str.s, "[["))) {
		p.fixed = str.s
		return true
	}

	var re strings.Builder
	if matchFullLines {
		re.WriteByte('^')
		if !opts.StrictWhitespace {
			re.WriteString(" *")
		}
	}
	curParen := 1
	addRegex := func(rs cursor) bool {
		n, err := posixre.Check(rs.s)
		if err != nil {
			pr.print(rs.loc(), kindError, "invalid regex: "+err.Error())
			return false
		}
		re.WriteString(rs.s)
		curParen += n
		return true
	}

	for !str.empty() {
		if strings.HasPrefix(str.s, "{{") {
			end := strings.Index(str.s, "}}")
			if end < 0 {
				pr.print(str.loc(), kindError, "found start of regex string with no end '}}'")
				return false
			}
			alternation := strings.Contains(str.s, "|")
			if alternation {
				re.WriteByte('(')
				curParen++
			}
			if !addRegex(str.drop(2).take(end - 2)) {
				return false
			}
			if alternation {
				re.WriteByte(')')
			}
			str = str.drop(end + 2)
			continue
		}

		if strings.HasPrefix(str.s, "[[") && !strings.HasPrefix(str.s, "[[[") {
			if !p.parseSubstitutionBlock(&str, &re, &curParen, addRegex, pr) {
				return false
			}
			continue
		}

		end := len(str.s)
		if i := strings.Index(str.s[1:], "{{"); i >= 0 {
			end = i + 1
		}
		if i := strings.Index(str.s[1:], "[["); i >= 0 && i+1 < end {
			end = i + 1
		}
		re.WriteString(regexEscape(str.s[:end]))
		str = str.drop(end)
	}

	if matchFullLines {
		if !opts.StrictWhitespace {
			re.WriteString(" *")
		}
		re.WriteByte('$')
	}
	p.regex = re.String()
	return true
}

// parseSubstitutionBlock parses a [[...]] block at the front of *str.
func (p *pattern) parseSubstitutionBlock(str *cursor, re *strings.Builder, curParen *int, addRegex func(cursor) bool, pr *printer) bool {
	blockStart := *str
	unparsed := str.drop(2)
	end, ok := findRegexVarEnd(unparsed, pr)
	if !ok {
		return false
	}
	if end < 0 {
		pr.print(blockStart.loc(), kindError, "Invalid substitution block, no ]] found")
		return false
	}
	match := unparsed.take(end)
	isNum := match.consume("#")
	*str = unparsed.drop(end + 2)

	isDef, substNeeded, legacy := false, false, false
	var defName, substName string
	var substFrom, matchRegex cursor
	haveMatchRegex := false
	insertAt := re.Len()

	if !isNum {
		varEnd := strings.IndexByte(match.s, ':')
		head := match.s
		if varEnd >= 0 {
			head = head[:varEnd]
		}
		if sp := strings.IndexAny(head, " \t"); sp >= 0 {
			pr.print(match.drop(sp).loc(), kindError, "unexpected whitespace")
			return false
		}
		orig := match
		name, pseudo, err := parseVariable(&match)
		if err != nil {
			printLogged(err, pr)
			return false
		}
		isDef = varEnd >= 0
		substNeeded = !isDef
		if isDef {
			if pseudo || !match.consume(":") {
				pr.print(name.loc(), kindError, "invalid name in string variable definition")
				return false
			}
			if _, ok := p.ctx.numVars[name.s]; ok {
				pr.print(name.loc(), kindError, "numeric variable with name '"+name.s+"' already exists")
				return false
			}
			defName = name.s
			matchRegex, haveMatchRegex = match, true
		} else if pseudo {
			match = orig
			legacy, isNum = true, true
		} else {
			if !match.empty() {
				pr.print(name.loc(), kindError, "invalid name in string variable use")
				return false
			}
			substName, substFrom = name.s, name
		}
	}

	var ex *expression
	var defVar *numVar
	if isNum {
		var err *locError
		ex, defVar, err = p.ctx.parseNumericSubstitutionBlock(match, legacy, p.line)
		if err != nil {
			printLogged(err, pr)
			return false
		}
		substNeeded = ex.ast != nil
		if defVar != nil {
			isDef = true
			defName = defVar.name
		}
		if substNeeded {
			substFrom = match
		} else {
			wild := ex.format.wildcardRegex()
			matchRegex = cursor{f: match.f, off: match.off, s: wild}
			haveMatchRegex = true
		}
	}

	if isDef {
		re.WriteByte('(')
		insertAt++
		if isNum {
			if _, seen := p.numDefs[defName]; !seen {
				p.numDefList = append(p.numDefList, defName)
			}
			p.numDefs[defName] = numDef{v: defVar, group: *curParen}
			p.ctx.numVars[defName] = defVar
		} else {
			if _, seen := p.varDefs[defName]; !seen {
				p.varDefList = append(p.varDefList, defName)
			}
			p.varDefs[defName] = *curParen
			p.ctx.strDefined[defName] = true
		}
		*curParen++
	}
	if haveMatchRegex && !matchRegex.empty() {
		if isNum {
			// The wildcard is generated, not written by the user, so it
			// cannot be invalid; count its groups directly.
			n, _ := posixre.Check(matchRegex.s)
			re.WriteString(matchRegex.s)
			*curParen += n
		} else if !addRegex(matchRegex) {
			return false
		}
	}
	if isDef {
		re.WriteByte(')')
	}

	if substNeeded {
		if group, ok := p.varDefs[substName]; ok && !isNum {
			if group < 1 || group > 9 {
				pr.print(substFrom.loc(), kindError, "Can't back-reference more than 9 variables")
				return false
			}
			re.WriteByte('\\')
			re.WriteByte(byte('0' + group))
		} else if isNum {
			p.substs = append(p.substs, &substitution{from: substFrom, index: insertAt, expr: ex})
		} else {
			p.substs = append(p.substs, &substitution{from: substFrom, index: insertAt, str: substName})
		}
	}
	return true
}

// printLogged prints an error the way llvm::logAllUnhandledErrors does:
// the diagnostic followed by an empty line.
func printLogged(err *locError, pr *printer) {
	pr.print(err.at, kindError, err.msg)
	pr.write("\n")
}

// findRegexVarEnd returns the offset of the "]]" that closes a
// substitution block, skipping bracket expressions and escapes, or -1. An
// unbalanced ']' is an error that LLVM treats as fatal (exit status 1); ok
// is false then.
func findRegexVarEnd(c cursor, pr *printer) (end int, ok bool) {
	depth := 0
	s := c.s
	for i := 0; i < len(s); {
		if depth == 0 && strings.HasPrefix(s[i:], "]]") {
			return i, true
		}
		if s[i] == '\\' {
			i += 2
			continue
		}
		switch s[i] {
		case '[':
			depth++
		case ']':
			if depth == 0 {
				pr.print(c.drop(i).loc(), kindError, `missing closing "]" for regex variable`)
				panic(fatalExit{})
			}
			depth--
		}
		i++
	}
	return -1, true
}

// fatalExit is raised by the few errors on which LLVM's FileCheck calls
// exit(1) in the middle of parsing; Check recovers it.
type fatalExit struct{}

// matchResult is the outcome of matching a pattern.
type matchResult struct {
	found    bool
	pos, len int // absolute input offsets
	errs     []*locError
}

// match looks for the pattern in in[start:end].
func (p *pattern) match(in string, start, end int) matchResult {
	if p.typ.kind == kindEOF {
		return matchResult{found: true, pos: end}
	}
	buf := in[start:end]
	if p.fixed != "" {
		var i int
		if p.ignoreCase {
			i = posixre.IndexFold(buf, p.fixed)
		} else {
			i = strings.Index(buf, p.fixed)
		}
		if i < 0 {
			return matchResult{}
		}
		return matchResult{found: true, pos: start + i, len: len(p.fixed)}
	}

	expr := p.regex
	if len(p.substs) > 0 {
		if p.line != 0 {
			p.ctx.lineVar.value = big.NewInt(int64(p.line))
		}
		var sb strings.Builder
		var errs []*locError
		last := 0
		for _, s := range p.substs {
			v, e := s.result(p.ctx)
			if e != nil {
				errs = append(errs, e...)
				continue
			}
			sb.WriteString(p.regex[last:s.index])
			sb.WriteString(v)
			last = s.index
		}
		if errs != nil {
			return matchResult{errs: errs}
		}
		sb.WriteString(p.regex[last:])
		expr = sb.String()
	}
	if p.compiled == nil || p.compiledFor != expr {
		re, err := posixre.Compile(expr, p.ignoreCase)
		if err != nil {
			return matchResult{}
		}
		p.compiled, p.compiledFor = re, expr
	}
	m := p.compiled.Find(p.ctx.text, start, end)
	if m == nil {
		return matchResult{}
	}
	group := func(g int) (string, int) {
		if 2*g+1 >= len(m) || m[2*g] < 0 {
			return "", -1
		}
		return buf[m[2*g]:m[2*g+1]], start + m[2*g]
	}
	for _, name := range p.varDefList {
		s, at := group(p.varDefs[name])
		p.ctx.strVars[name] = strValue{s: s, at: at}
	}
	skip := 0
	if p.typ.kind == kindEmpty {
		skip = 1
	}
	res := matchResult{found: true, pos: start + m[0] + skip, len: m[1] - m[0] - skip}
	for _, name := range p.numDefList {
		d := p.numDefs[name]
		s, at := group(d.group)
		d.v.value = d.v.format.valueFromString(s)
		d.v.matched, d.v.matchAt = s, at
	}
	return res
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
