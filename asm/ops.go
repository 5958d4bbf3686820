package asm

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rlx-compiler/rlx/ir"
)

// valueScope holds the SSA names of a file. As in MLIR, a region is a
// nested scope whatever its op: names defined in it are forgotten at its
// end, names of the enclosing regions stay visible (the verifier rejects
// a use across an isolated-from-above op), and a forward reference stays
// pending until the end of the file.
type valueScope struct {
	defs nameTable
	// fwd holds forward references: placeholders created by uses that
	// precede the definition, keyed by name.
	fwd map[string]*fwdRefs
	// regions marks, per open region (innermost last), where its names
	// start in the logs of names defined (dense for those in the numbered
	// tables, keys for those in the map): at a region's end, the names
	// logged since are dropped. The logs are stacks shared by all regions,
	// so a name costs a word and no allocation of its own.
	regions []regionMark
	dense   []uint64
	keys    []string
}

type regionMark struct{ dense, keys int }

type valueDef struct {
	first *ir.Value
	count int32
	pos   int32
}

// fwdRefs are the forward references to one name: a placeholder per
// result number used. They are a list, not a slice indexed by the number,
// so `%x#999999999` costs one entry; a name with many referenced results
// gets an index.
type fwdRefs struct {
	refs  []fwdRef
	index map[int]int // result number -> position in refs, once refs is long
}

type fwdRef struct {
	num int
	ph  *ir.Value
	pos int32
}

func (f *fwdRefs) find(num int) *fwdRef {
	if f.index != nil {
		if i, ok := f.index[num]; ok {
			return &f.refs[i]
		}
		return nil
	}
	for i := range f.refs {
		if f.refs[i].num == num {
			return &f.refs[i]
		}
	}
	return nil
}

func (f *fwdRefs) add(r fwdRef) {
	f.refs = append(f.refs, r)
	switch {
	case f.index != nil:
		f.index[r.num] = len(f.refs) - 1
	case len(f.refs) > 8:
		f.index = make(map[int]int, len(f.refs))
		for i, r := range f.refs {
			f.index[r.num] = i
		}
	}
}

// placeholderName is the op that stands for a forward-referenced value
// until its definition is parsed.
const placeholderName = "builtin.unrealized_conversion_cast"

func (p *parser) pushScope() {
	if len(p.scopes) == 0 {
		s := &valueScope{}
		// Generated code defines a value every ~100 bytes; a large file
		// gets its table sized up front.
		if rest := len(p.src) - p.tok.end; rest > 1<<20 {
			s.defs.sizeHint = rest / 96
			s.dense = make([]uint64, 0, s.defs.sizeHint)
		}
		p.scopes = append(p.scopes, s)
		return
	}
	s := p.scopes[len(p.scopes)-1]
	s.regions = append(s.regions, regionMark{len(s.dense), len(s.keys)})
}

func (p *parser) popScope() {
	s := p.scopes[len(p.scopes)-1]
	// At the end of a region its names are forgotten; its forward
	// references stay pending.
	if n := len(s.regions); n > 0 {
		m := s.regions[n-1]
		s.regions = s.regions[:n-1]
		for _, d := range s.dense[m.dense:] {
			s.defs.delDense(d)
		}
		for i, k := range s.keys[m.keys:] {
			s.defs.delKey(k)
			s.keys[m.keys+i] = ""
		}
		s.dense, s.keys = s.dense[:m.dense], s.keys[:m.keys]
		return
	}
	// Every unresolved forward reference is an error; they are reported
	// in source order, as MLIR does.
	var unresolved []int
	for _, f := range s.fwd {
		for _, r := range f.refs {
			unresolved = append(unresolved, int(r.pos))
		}
	}
	if len(unresolved) > 0 {
		slices.Sort(unresolved)
		err := p.errorAt(unresolved[0], "use of undeclared SSA value name")
		for _, pos := range unresolved[1:] {
			err.More = append(err.More, p.errorAt(pos, "use of undeclared SSA value name"))
		}
		panic(parseError{err})
	}
	p.scopes = p.scopes[:len(p.scopes)-1]
}

// referencePos returns where result num of %name was defined or first
// referenced (forward) in the current scope, if it was.
func (p *parser) referencePos(name string, num int) (int, bool) {
	s := p.scopes[len(p.scopes)-1]
	if d, ok := s.defs.get(bytesOf(name)); ok && d.first != nil && num < int(d.count) {
		return int(d.pos), true
	}
	if f, ok := s.fwd[name]; ok {
		if r := f.find(num); r != nil {
			return int(r.pos), true
		}
	}
	return 0, false
}

// defineValue binds name (without '%') to count values starting at first.
func (p *parser) defineValue(name []byte, first *ir.Value, count int, pos int) {
	s := p.scopes[len(p.scopes)-1]
	if d, ok := s.defs.get(name); ok && d.first != nil {
		err := p.errorAt(pos, "redefinition of SSA value '%%%s'", name)
		err.Notes = append(err.Notes, p.noteAt(int(d.pos), "previously defined here"))
		panic(parseError{err})
	}
	dense, key, ok := s.defs.set(name, valueDef{first: first, count: int32(count), pos: int32(pos)})
	if len(s.regions) > 0 {
		if ok {
			s.dense = append(s.dense, dense)
		} else {
			s.keys = append(s.keys, key)
		}
	}
	if f, ok := s.fwd[string(name)]; ok {
		// Result by result, as MLIR binds them. References beyond the
		// results stay unresolved: the end of the scope reports the
		// first of them by position, as MLIR does.
		slices.SortFunc(f.refs, func(a, b fwdRef) int { return cmp.Compare(a.num, b.num) })
		left := f.refs[:0]
		for _, r := range f.refs {
			if r.num >= count {
				left = append(left, r)
				continue
			}
			v := nthValue(first, r.num)
			if v.Type() != r.ph.Type() {
				err := p.errorAt(pos, "definition of SSA value '%%%s#%d' has type '%s'", name, r.num, v.Type())
				err.Notes = append(err.Notes, p.noteAt(int(r.pos), "previously used here with type '%s'", r.ph.Type()))
				panic(parseError{err})
			}
			r.ph.ReplaceAllUsesWith(v)
			r.ph.DefiningOp().Erase()
		}
		if len(left) == 0 {
			delete(s.fwd, string(name))
		} else {
			rest := &fwdRefs{}
			for _, r := range left {
				rest.add(r)
			}
			s.fwd[string(name)] = rest
		}
	}
}

func (p *parser) noteAt(pos int, format string, args ...any) *Error {
	return p.errorAt(pos, format, args...)
}

func nthValue(first *ir.Value, i int) *ir.Value {
	if i == 0 {
		return first
	}
	return first.DefiningOp().Result(first.Index() + i)
}

// resolveValue returns the value named by a use, creating a typed
// placeholder for forward references.
func (p *parser) resolveValue(name []byte, num int, t ir.Type, pos int) *ir.Value {
	s := p.scopes[len(p.scopes)-1]
	d, ok := s.defs.get(name)
	if !ok && num > 0 {
		// A block argument written `%x#N` (see parseBlock).
		if d, ok = s.defs.get([]byte(string(name) + "#" + strconv.Itoa(num))); ok {
			num = 0
		}
	}
	if ok && d.first != nil {
		if num >= int(d.count) {
			p.fail(pos, "reference to invalid result number")
		}
		v := nthValue(d.first, num)
		if t != nil && v.Type() != t {
			err := p.errorAt(pos, "use of value '%%%s' expects different type than prior uses: '%s' vs '%s'", name, t, v.Type())
			err.Notes = append(err.Notes, p.noteAt(int(d.pos), "prior use here"))
			panic(parseError{err})
		}
		return v
	}
	if t == nil {
		p.fail(pos, "use of undeclared SSA value name")
	}
	if s.fwd == nil {
		s.fwd = map[string]*fwdRefs{}
	}
	f := s.fwd[string(name)]
	if f == nil {
		f = &fwdRefs{}
		s.fwd[string(name)] = f
	}
	if r := f.find(num); r != nil {
		if r.ph.Type() != t {
			err := p.errorAt(pos, "use of value '%%%s' expects different type than prior uses: '%s' vs '%s'", name, t, r.ph.Type())
			err.Notes = append(err.Notes, p.noteAt(int(r.pos), "prior use here"))
			panic(parseError{err})
		}
		return r.ph
	}
	op := ir.NewOperation(p.ctx, &ir.OperationState{
		Name:        p.ctx.OpName(placeholderName),
		Loc:         p.ctx.UnknownLoc(),
		ResultTypes: []ir.Type{t},
	})
	f.add(fwdRef{num: num, ph: op.Result(0), pos: int32(pos)})
	return op.Result(0)
}

// operandRef is a parsed `%name#N` use.
type operandRef struct {
	name []byte
	num  int
	pos  int
}

func (p *parser) parseOperandRef() operandRef {
	if !p.is(tokPercentIdent) {
		p.failExpected("expected SSA operand")
	}
	ref := operandRef{pos: p.tok.start}
	t := p.text(p.tok)
	name := t[1:]
	num := 0
	// The result number follows as a hash identifier (`%x#3`; MLIR also
	// takes `%x #3`).
	p.advance()
	if p.is(tokHashIdent) {
		numText := p.text(p.tok)[1:]
		n, err := strconv.Atoi(string(numText))
		if err != nil || len(numText) == 0 || !isDigit(numText[0]) {
			p.failTok("invalid SSA value result number")
		}
		num = n
		p.advance()
	}
	ref.name = name
	ref.num = num
	return ref
}

// resultRecord is one `%name` or `%name:N` on the left of an op.
type resultRecord struct {
	name  []byte
	count int
	pos   int
}

// parseOperation parses one operation, including its results and trailing
// location, and binds its results.
func (p *parser) parseOperation() *ir.Operation {
	// The result records are only needed until the op is built; nested ops
	// borrow a fresh buffer.
	results := p.resBuf[:0]
	p.resBuf = nil
	defer func() { p.resBuf = results[:0] }()
	numResults := 0
	if p.is(tokPercentIdent) {
		for {
			if !p.is(tokPercentIdent) {
				p.failExpected("expected valid ssa identifier")
			}
			r := resultRecord{name: p.text(p.tok)[1:], count: 1, pos: p.tok.start}
			p.advance()
			if p.is(tokColon) {
				p.advance()
				if !p.is(tokInteger) {
					p.failExpected("expected integer number of results")
				}
				u, ok := intValue(p.text(p.tok), 63)
				n := int(u)
				if !ok || n < 1 {
					p.failTok("expected named operation to have at least 1 result")
				}
				r.count = n
				p.advance()
			}
			results = append(results, r)
			numResults += r.count
			if !p.consumeIf(tokComma) {
				break
			}
		}
		p.expect(tokEqual, " after SSA name")
	}
	namePos := p.tok.start
	var op *ir.Operation
	var propsErr *Error
	switch p.tok.kind {
	case tokString:
		op, propsErr = p.parseGenericOp()
	case tokBareIdent:
		// MLIR lexes `i32`, `si8`, `ui16` as integer types, which name no
		// op.
		if _, _, isInt := intTypeWidth(p.text(p.tok)); isInt {
			p.failExpected("expected operation name in quotes")
		}
		op = p.parseCustomOp()
	default:
		p.failExpected("expected operation name in quotes")
	}
	// As in MLIR, the trailing location comes with the op, and the
	// properties are set after it; naming the results comes last.
	p.parseTrailingLoc(op, namePos)
	if propsErr != nil {
		panic(parseError{propsErr})
	}
	if len(results) > 0 {
		if op.NumResults() == 0 {
			p.fail(results[0].pos, "cannot name an operation with no results")
		}
		if op.NumResults() != numResults {
			p.fail(results[0].pos, "operation defines %d results but was provided %d to bind", op.NumResults(), numResults)
		}
		idx := 0
		for _, r := range results {
			p.defineValue(r.name, op.Result(idx), r.count, r.pos)
			idx += r.count
		}
	}
	return op
}

// parseTrailingLoc parses an optional `loc(…)` after an op; without one
// the op is located at its name.
func (p *parser) parseTrailingLoc(op *ir.Operation, namePos int) {
	if !p.isKeyword("loc") {
		if op.Loc() == nil || isUnknown(op.Loc()) {
			op.SetLoc(p.loc(namePos))
		}
		return
	}
	l, alias, aliasPos := p.parseLocSpecifier()
	if alias != "" {
		p.deferredLocs = append(p.deferredLocs, deferredLoc{name: alias, pos: aliasPos, op: op})
		op.SetLoc(p.loc(namePos))
		return
	}
	op.SetLoc(l)
}

func isUnknown(l ir.Location) bool {
	_, ok := l.(*ir.UnknownLoc)
	return ok
}

// parseGenericOp parses an op in the generic form. An error in its
// properties is returned rather than raised: MLIR reports it after the
// op's trailing location.
func (p *parser) parseGenericOp() (*ir.Operation, *Error) {
	p.enter()
	defer p.leave()
	nameTok := p.tok
	rawName := p.src[nameTok.start+1 : nameTok.end-1]
	if len(rawName) == 0 {
		p.fail(nameTok.start, "empty operation name is invalid")
	}
	var opName *ir.OpName
	if bytes.IndexByte(rawName, '\\') < 0 {
		opName = p.ctx.OpNameBytes(rawName)
	} else {
		opName = p.ctx.OpName(unescape(rawName))
	}
	if strings.IndexByte(opName.String(), 0) >= 0 {
		p.fail(nameTok.start, "null character not allowed in operation name")
	}
	p.advance()
	// Like MLIR, an op of a registered dialect that the dialect does not
	// define is left to the verifier; an op of an unknown dialect is an
	// error here, at the token after the name.
	if opName.Def() == nil && !p.ctx.AllowUnregistered && (opName.Dialect() == "" || !p.ctx.IsDialectRegistered(opName.Dialect())) {
		p.failTok("operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used")
	}
	// Everything is collected in locals and handed to NewOperation through
	// a state and buffers reused from op to op (NewOperation copies what it
	// keeps). Nested ops parsed in the regions take their own buffers: the
	// reference buffer is borrowed here and given back at the end.
	var succs []*ir.Block
	var props ir.Attribute
	var attrDict *ir.DictAttr
	p.expect(tokLParen, " to start operand list")
	refs := p.refBuf[:0]
	p.refBuf = nil
	if p.is(tokPercentIdent) {
		for {
			refs = append(refs, p.parseOperandRef())
			if !p.consumeIf(tokComma) {
				break
			}
		}
	}
	p.expect(tokRParen, " to end operand list")
	if p.is(tokLSquare) {
		if def := opName.Def(); def != nil && def.Traits&ir.TraitTerminator == 0 {
			p.failTok("successors in non-terminator")
		}
		p.advance()
		if p.is(tokRSquare) {
			p.failExpected("expected list element")
		}
		for {
			succs = append(succs, p.parseSuccessor())
			if !p.consumeIf(tokComma) {
				break
			}
		}
		if !p.is(tokRSquare) {
			p.failExpected("expected ',' or ']'")
		}
		p.advance()
	}
	var propsErr *Error
	if p.is(tokLess) {
		p.advance()
		props = p.parseAttribute(nil)
		p.expect(tokGreater, " to close properties")
		props, propsErr = p.registeredProps(opName, props, nameTok.start)
	}
	var regions []*ir.Region
	if p.is(tokLParen) {
		p.advance()
		for {
			r := &ir.Region{}
			p.parseRegion(r, nil)
			regions = append(regions, r)
			if !p.consumeIf(tokComma) {
				break
			}
		}
		p.expect(tokRParen, " to end region list")
	}
	if p.is(tokLBrace) {
		attrDict = p.parseAttrDict()
	}
	if !p.is(tokColon) {
		p.failExpected("expected ':' followed by operation type")
	}
	p.advance()
	typePos := p.tok.start
	sig := p.parseFunctionSignature()
	if len(sig.inputs) != len(refs) {
		// MLIR writes a NUL byte for the plural 's' in the singular.
		p.fail(typePos, "expected %d operand type%s but had %d", len(refs), pluralNUL(len(refs)), len(sig.inputs))
	}
	vals := p.valBuf[:0]
	for i, r := range refs {
		vals = append(vals, p.resolveValue(r.name, r.num, sig.inputs[i], r.pos))
	}
	st := &p.state
	*st = ir.OperationState{
		Name: opName, Loc: p.ctx.UnknownLoc(), Operands: vals, ResultTypes: sig.results,
		Props: props, AttrDict: attrDict, Regions: regions, Successors: succs,
	}
	op := ir.NewOperation(p.ctx, st)
	*st = ir.OperationState{}
	p.valBuf = vals[:0]
	p.refBuf = refs[:0]
	return op, propsErr
}

// registeredProps checks the properties of a registered op as MLIR sets
// them from an attribute: they must be a dictionary, the op must have
// properties, and entries the op does not declare are dropped.
func (p *parser) registeredProps(opName *ir.OpName, props ir.Attribute, pos int) (ir.Attribute, *Error) {
	def := opName.Def()
	if def == nil {
		return props, nil
	}
	fail := func(why string) (ir.Attribute, *Error) {
		return nil, p.errorAt(pos, "invalid properties %s for op %s: %s", props, opName.String(), why)
	}
	d, ok := props.(*ir.DictAttr)
	switch {
	case !ok:
		return fail("expected DictionaryAttr to set properties")
	case len(def.InherentAttrs) == 0:
		return fail("this operation does not support properties")
	}
	// Properties are converted in the order the op declares them.
	for _, name := range def.InherentAttrs {
		if ok := def.PropClasses[name]; ok != nil {
			if a := d.Get(name); a != nil && !ok(a) {
				return fail(fmt.Sprintf("Invalid attribute `%s` in property conversion: %s", name, a))
			}
		}
	}
	var keep []ir.NamedAttr
	for _, e := range d.Entries {
		if slices.Contains(def.InherentAttrs, e.Name) {
			keep = append(keep, e)
		}
	}
	switch len(keep) {
	case 0:
		return nil, nil
	case len(d.Entries):
		return d, nil
	}
	return p.ctx.Dict(keep), nil
}

func pluralNUL(n int) string {
	if n == 1 {
		return "\x00"
	}
	return "s"
}

// parseFunctionSignature parses `(T, …) -> T` or `(T, …) -> (T, …)`,
// caching by source text since the same signatures repeat throughout a
// file.
func (p *parser) parseFunctionSignature() *sigTypes {
	start := p.tok.start
	if p.is(tokLParen) {
		if end := p.scanSignatureEnd(start); end > 0 {
			if s, ok := p.sigCache[string(p.src[start:end])]; ok {
				p.lex.pos = end
				p.advance()
				return s
			}
		}
	}
	t := p.parseType()
	ft, ok := t.(*ir.FunctionType)
	if !ok {
		p.fail(start, "expected function type")
	}
	s := &sigTypes{inputs: ft.Inputs, results: ft.Results}
	end := p.tok.start
	for end > start && isSpace(p.src[end-1]) {
		end--
	}
	p.sigCache[string(p.src[start:end])] = s
	return s
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// scanSignatureEnd finds the end of a signature that starts at pos
// without parsing it: the balanced parenthesized inputs, `->`, and either a
// parenthesized list or a type ending before a newline, `loc`, `{`, or `}`.
// It returns -1 when unsure; the caller then parses normally.
func (p *parser) scanSignatureEnd(pos int) int {
	end := scanBalanced(p.src, pos)
	if end < 0 {
		return -1
	}
	i := end
	for i < len(p.src) && p.src[i] == ' ' {
		i++
	}
	if i+1 >= len(p.src) || p.src[i] != '-' || p.src[i+1] != '>' {
		return -1
	}
	i += 2
	for i < len(p.src) && p.src[i] == ' ' {
		i++
	}
	if i < len(p.src) && p.src[i] == '(' {
		return scanBalanced(p.src, i)
	}
	// A single result type: scan to the end of the type.
	depth := 0
	j := i
	for j < len(p.src) {
		c := p.src[j]
		switch c {
		case '<', '(', '[':
			depth++
		case '>', ')', ']':
			if depth == 0 {
				return -1
			}
			depth--
		case '"':
			return -1
		case '\n', '\r', ' ', ',', '{', '}':
			if depth == 0 {
				if j == i {
					return -1
				}
				return j
			}
			if c == '\n' || c == '{' || c == '}' {
				return -1
			}
		}
		j++
	}
	if depth == 0 && j > i {
		return j
	}
	return -1
}

// scanBalanced returns the offset just past the bracket group opening at
// pos, or -1 when it contains strings or is unbalanced.
func scanBalanced(src []byte, pos int) int {
	depth := 0
	for i := pos; i < len(src); i++ {
		switch src[i] {
		case '(', '<', '[', '{':
			depth++
		case ')', '>', ']', '}':
			if src[i] == '>' && i > 0 && src[i-1] == '-' {
				continue
			}
			depth--
			if depth == 0 {
				return i + 1
			}
			if depth < 0 {
				return -1
			}
		case '"', '\n', '/':
			return -1
		}
	}
	return -1
}

func (p *parser) parseSuccessor() *ir.Block {
	if !p.is(tokCaretIdent) {
		p.failExpected("expected block name")
	}
	b := p.blockRef(string(p.text(p.tok)[1:]), p.tok.start)
	p.advance()
	return b
}

// blockScope tracks the blocks of one region: defined and forward
// referenced.
type blockScope struct {
	blocks map[string]*blockInfo
	order  []string
}

type blockInfo struct {
	b       *ir.Block
	defined bool
	pos     int
}

func (p *parser) pushBlockScope() {
	p.blocks = append(p.blocks, &blockScope{blocks: map[string]*blockInfo{}})
}

func (p *parser) popBlockScope() {
	bs := p.blocks[len(p.blocks)-1]
	for _, name := range bs.order {
		bi := bs.blocks[name]
		if !bi.defined {
			p.fail(bi.pos, "reference to an undefined block")
		}
	}
	p.blocks = p.blocks[:len(p.blocks)-1]
}

func (p *parser) blockRef(name string, pos int) *ir.Block {
	bs := p.blocks[len(p.blocks)-1]
	bi := bs.blocks[name]
	if bi == nil {
		bi = &blockInfo{b: &ir.Block{}, pos: pos}
		bs.blocks[name] = bi
		bs.order = append(bs.order, name)
	}
	return bi.b
}

// parseRegion parses `{ … }` into r. args, when given, are the entry
// block's arguments (already typed), as custom parsers such as func.func
// provide them.
func (p *parser) parseRegion(r *ir.Region, args []ir.Argument) {
	p.enter()
	defer p.leave()
	if !p.is(tokLBrace) {
		p.failExpected("expected '{' to begin a region")
	}
	lbrace := p.tok.start
	p.advance()
	p.pushScope()
	p.pushBlockScope()
	if p.is(tokRBrace) && args == nil {
		p.advance()
		p.popBlockScope()
		p.popScope()
		return
	}
	var entry *ir.Block
	if args != nil {
		entry = &ir.Block{}
		r.AppendBlock(entry)
		for _, a := range args {
			l := a.Loc
			if l == nil {
				l = p.loc(a.Name.Pos)
			}
			if prev, ok := p.referencePos(a.Name.Name, a.Name.Number); ok {
				err := p.errorAt(a.Name.Pos, "region entry argument '%%%s' is already in use", a.Name.Name)
				err.Notes = append(err.Notes, p.noteAt(prev, "previously referenced here"))
				panic(parseError{err})
			}
			v := entry.AddArgument(a.Type, l)
			p.defineValue(bytesOf(a.Name.Name), v, 1, a.Name.Pos)
		}
		if p.is(tokCaretIdent) {
			p.failTok("invalid block name in region with named arguments")
		}
	}
	if !p.is(tokCaretIdent) {
		if entry == nil {
			entry = &ir.Block{}
			r.AppendBlock(entry)
		}
		p.parseBlockBody(entry)
	}
	for p.is(tokCaretIdent) {
		p.parseBlock(r, entry == nil && r.Empty())
	}
	if !p.is(tokRBrace) {
		p.failExpected("expected '}' to end region")
	}
	_ = lbrace
	p.advance()
	p.popBlockScope()
	p.popScope()
}

func (p *parser) parseBlock(r *ir.Region, isEntry bool) {
	pos := p.tok.start
	name := string(p.text(p.tok)[1:])
	p.advance()
	b := p.blockRef(name, pos)
	bs := p.blocks[len(p.blocks)-1]
	bi := bs.blocks[name]
	if bi.defined {
		p.fail(pos, "redefinition of block '^%s'", name)
	}
	bi.defined = true
	bi.pos = pos
	r.AppendBlock(b)
	if p.is(tokLParen) {
		p.advance()
		if !p.is(tokRParen) {
			for {
				ref := p.parseOperandRef()
				apos := ref.pos
				aname := ref.name
				if ref.num > 0 {
					// MLIR binds `%x#N` in an argument list to result N of
					// %x alone; resolveValue finds it under this name.
					aname = []byte(string(aname) + "#" + strconv.Itoa(ref.num))
				}
				p.expect(tokColon, " and type for SSA operand")
				t := p.parseType()
				var l ir.Location
				if p.isKeyword("loc") {
					lv, alias, aliasPos := p.parseLocSpecifier()
					if alias != "" {
						p.deferredLocs = append(p.deferredLocs, deferredLoc{name: alias, pos: aliasPos, blk: b, arg: b.NumArguments()})
					} else {
						l = lv
					}
				}
				if l == nil {
					l = p.loc(apos)
				}
				v := b.AddArgument(t, l)
				p.defineValue(aname, v, 1, apos)
				if !p.consumeIf(tokComma) {
					break
				}
			}
		}
		p.expect(tokRParen, "")
	}
	p.expect(tokColon, " after block name")
	p.parseBlockBody(b)
}

func (p *parser) parseBlockBody(b *ir.Block) {
	for !p.is(tokCaretIdent) && !p.is(tokRBrace) {
		b.Append(p.parseOperation())
		p.maybeRelease()
	}
}
