package asm

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/rlx-compiler/rlx/internal/srcline"
	"github.com/rlx-compiler/rlx/ir"
)

// Options configure parsing.
type Options struct {
	// NoImplicitModule requires the file to hold exactly one top-level op,
	// which is returned as is, instead of wrapping the ops in a module.
	NoImplicitModule bool
	// MaxNesting bounds the nesting of regions, types and attributes;
	// 0 means DefaultMaxNesting.
	MaxNesting int
	// LineOffset is added to line numbers in locations and errors (used when
	// parsing one chunk of a split file).
	LineOffset int
	// LocFile, when set, is the file name used in locations instead of the
	// name passed to Parse.
	LocFile string
	// Release, when set, is called now and then with an offset below which
	// the parser no longer needs the source (see Source.Release).
	Release func(upTo int)
}

// DefaultMaxNesting is the nesting limit that guards against hostile
// input. A region op counts twice (the op and its region), so 5,000
// region ops may nest, and 10,000 arrays or types; mlir-opt 19 overflows
// its stack beyond about 2,000 region ops or 6,000 arrays.
const DefaultMaxNesting = 10000

// File is the result of parsing a source file.
type File struct {
	// Op is the top-level op: the module (implicit or explicit), or with
	// NoImplicitModule the single top-level op.
	Op *ir.Operation
	// External holds the `external_resources` section in file order: the
	// resources of tools (e.g. "mlir_reproducer"), which no dialect owns.
	// A tool consumes the groups it knows and prints the others back
	// (ir.PrintOptions.ExternalResources), as mlir-opt does.
	External []ir.ResourceGroup
}

// ExternalGroup returns the entries of the external resource group name.
func (f *File) ExternalGroup(name string) ([]ir.ResourceEntry, bool) {
	for _, g := range f.External {
		if g.Name == name {
			return g.Entries, true
		}
	}
	return nil, false
}

// resourceEntry is a parsed resource entry with what the parser needs
// besides: the decoded bytes of a "0x…" blob and the key's position.
type resourceEntry struct {
	ir.ResourceEntry
	blob []byte
	pos  int
}

// Parse parses MLIR text. name is the file name used in locations and
// error messages. Errors are *Error values with a location and the source
// line.
func Parse(ctx *ir.Context, name string, src []byte, opts Options) (f *File, err error) {
	p := newParser(ctx, name, src, opts)
	return p.parseFile()
}

// ParseString is Parse for a string source.
func ParseString(ctx *ir.Context, name, src string) (*ir.Operation, error) {
	f, err := Parse(ctx, name, []byte(src), Options{})
	if err != nil {
		return nil, err
	}
	return f.Op, nil
}

type parser struct {
	ctx  *ir.Context
	lex  lexer
	tok  token
	src  []byte
	name string
	file string // file name in locations
	opts Options

	lines *lineIndex

	typeAliases  map[string]ir.Type
	attrAliases  map[string]ir.Attribute
	deferredLocs []deferredLoc

	scopes []*valueScope
	nest   int

	typeCache map[string]ir.Type
	sigCache  map[string]*sigTypes
	dictCache map[string]*ir.DictAttr

	external []ir.ResourceGroup

	defaultDialect []string
	blocks         []*blockScope
	locAlloc       []ir.FileLineColLoc
	distincts      map[uint64]*ir.DistinctAttr
	typeStart      int // start of the shaped type being parsed
	released       int // offset last passed to opts.Release

	// Buffers reused across ops to keep parsing allocation-free.
	state  ir.OperationState
	refBuf []operandRef
	valBuf []*ir.Value
	resBuf []resultRecord
}

type sigTypes struct {
	inputs, results []ir.Type
}

type deferredLoc struct {
	name string
	pos  int
	op   *ir.Operation
	blk  *ir.Block
	arg  int
}

func newParser(ctx *ir.Context, name string, src []byte, opts Options) *parser {
	if opts.MaxNesting == 0 {
		opts.MaxNesting = DefaultMaxNesting
	}
	p := &parser{
		ctx:            ctx,
		src:            src,
		name:           name,
		file:           name,
		opts:           opts,
		typeAliases:    map[string]ir.Type{},
		attrAliases:    map[string]ir.Attribute{},
		typeCache:      map[string]ir.Type{},
		sigCache:       map[string]*sigTypes{},
		dictCache:      map[string]*ir.DictAttr{},
		defaultDialect: []string{"builtin"},
	}
	if opts.LocFile != "" {
		p.file = opts.LocFile
	}
	p.lex = lexer{src: src}
	p.lines = newLineIndex(src)
	return p
}

// Error is a parse error with its position.
type Error struct {
	File      string
	Line, Col int
	Msg       string
	// SourceLine is the text of the offending line (without newline).
	SourceLine string
	Notes      []*Error
	// More are further errors found with this one, in order: the end of
	// a scope reports every unresolved forward reference, as MLIR does.
	More []*Error
}

func (e *Error) Error() string {
	var sb strings.Builder
	e.write(&sb, "error")
	for _, m := range e.More {
		m.write(&sb, "error")
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

func (e *Error) write(sb *strings.Builder, sev string) {
	fmt.Fprintf(sb, "%s:%d:%d: %s: %s\n", e.File, e.Line, e.Col, sev, e.Msg)
	if e.Line > 0 {
		writeSourceLine(sb, e.SourceLine, e.Col)
	}
	for _, n := range e.Notes {
		n.write(sb, "note")
	}
}

// writeSourceLine writes the source line and, below it, the caret line
// for col, as LLVM's SourceMgr prints them.
func writeSourceLine(sb *strings.Builder, line string, col int) {
	src, caret := srcline.Lines(line, col)
	sb.WriteString(src)
	sb.WriteByte('\n')
	if caret != "" {
		sb.WriteString(caret)
		sb.WriteByte('\n')
	}
}

// Diagnostic converts the error (not those in More) to an ir.Diagnostic.
func (e *Error) Diagnostic(ctx *ir.Context) *ir.Diagnostic {
	d := &ir.Diagnostic{Severity: ir.SeverityError, Loc: ctx.FileLineColLoc(e.File, e.Line, e.Col), Message: e.Msg}
	for _, n := range e.Notes {
		d.AttachNote(ctx.FileLineColLoc(n.File, n.Line, n.Col), n.Msg)
	}
	return d
}

// parseError is used to unwind the recursive descent on the first error.
type parseError struct{ err *Error }

func (p *parser) errorAt(pos int, format string, args ...any) *Error {
	line, col := p.lines.lineCol(pos)
	return &Error{
		File:       p.name,
		Line:       line + p.opts.LineOffset,
		Col:        col,
		Msg:        fmt.Sprintf(format, args...),
		SourceLine: p.lines.lineText(pos),
	}
}

// fail aborts parsing with an error at pos.
func (p *parser) fail(pos int, format string, args ...any) {
	panic(parseError{p.errorAt(pos, format, args...)})
}

// failTok aborts with an error at the current token; at the end of the
// input, at its last character, as MLIR's Parser::emitError does.
func (p *parser) failTok(format string, args ...any) {
	if p.tok.kind == tokError {
		p.fail(p.tok.start, "%s", p.tok.msg)
	}
	pos := p.tok.start
	if p.tok.kind == tokEOF && pos > 0 {
		pos--
	}
	p.fail(pos, format, args...)
}

func (p *parser) advance() {
	p.tok = p.lex.next()
	if p.tok.kind == tokError {
		p.fail(p.tok.start, "%s", p.tok.msg)
	}
}

func (p *parser) text(t token) []byte { return p.src[t.start:t.end] }

// spelling returns the current token text as a string (allocating).
func (p *parser) spelling() string { return string(p.src[p.tok.start:p.tok.end]) }

func (p *parser) is(k tokKind) bool { return p.tok.kind == k }

func (p *parser) isKeyword(kw string) bool {
	return p.tok.kind == tokBareIdent && string(p.src[p.tok.start:p.tok.end]) == kw
}

func (p *parser) consumeIf(k tokKind) bool {
	if p.tok.kind == k {
		p.advance()
		return true
	}
	return false
}

func (p *parser) consumeKeyword(kw string) bool {
	if p.isKeyword(kw) {
		p.advance()
		return true
	}
	return false
}

func (p *parser) expect(k tokKind, context string) {
	if p.tok.kind != k {
		p.failExpected("expected %s%s", tokNames[k], context)
	}
	p.advance()
}

func (p *parser) enter() {
	p.nest++
	if p.nest > p.opts.MaxNesting {
		p.failTok("nesting depth exceeds the limit of %d", p.opts.MaxNesting)
	}
}

func (p *parser) leave() { p.nest-- }

// loc returns a file location for a byte offset.
func (p *parser) loc(pos int) ir.Location {
	line, col := p.lines.lineCol(pos)
	if len(p.locAlloc) == 0 {
		p.locAlloc = make([]ir.FileLineColLoc, 1024)
	}
	l := &p.locAlloc[0]
	p.locAlloc = p.locAlloc[1:]
	l.File = p.file
	l.Line = int32(line + p.opts.LineOffset)
	l.Col = int32(col)
	return l
}

func (p *parser) parseFile() (f *File, err error) {
	defer func() {
		if r := recover(); r != nil {
			pe, ok := r.(parseError)
			if !ok {
				panic(r)
			}
			f, err = nil, pe.err
		}
	}()
	p.advance()
	top := &ir.Block{}
	p.pushScope()
	p.pushBlockScope()
	for !p.is(tokEOF) {
		switch p.tok.kind {
		case tokHashIdent:
			// As in MLIR, `#x` and `!x` at the top level always start an
			// alias definition.
			p.parseAttrAliasDef()
			continue
		case tokBangIdent:
			p.parseTypeAliasDef()
			continue
		case tokFileMetadataBegin:
			p.parseFileMetadata()
			continue
		}
		op := p.parseOperation()
		top.Append(op)
		p.maybeRelease()
	}
	p.popBlockScope()
	p.popScope()
	p.resolveDeferredLocs()
	f = &File{External: p.external}
	if p.opts.NoImplicitModule {
		if n := top.NumOps(); n != 1 {
			// MLIR reports this at the buffer's start, FILE:0:0.
			return nil, &Error{File: p.name, Msg: fmt.Sprintf("source must contain a single top-level operation, found: %d", n)}
		}
		op := top.First()
		op.Remove()
		f.Op = op
		return f, nil
	}
	if first := top.First(); first != nil && first == top.Last() && first.Name() == "builtin.module" {
		first.Remove()
		f.Op = first
		return f, nil
	}
	mod := ir.NewOperation(p.ctx, &ir.OperationState{
		Name:       p.ctx.OpName("builtin.module"),
		Loc:        p.ctx.FileLineColLoc(p.file, 0, 0),
		NumRegions: 1,
	})
	body := &ir.Block{}
	mod.Region(0).AppendBlock(body)
	for op := top.First(); op != nil; op = top.First() {
		op.Remove()
		body.Append(op)
	}
	f.Op = mod
	return f, nil
}

func (p *parser) parseAttrAliasDef() {
	pos := p.tok.start
	name := string(p.src[p.tok.start+1 : p.tok.end])
	if _, dup := p.attrAliases[name]; dup {
		p.fail(pos, "redefinition of attribute alias id '%s'", name)
	}
	if strings.Contains(name, ".") {
		p.fail(pos, "attribute names with a '.' are reserved for dialect-defined names")
	}
	p.advance()
	p.expect(tokEqual, " in attribute alias definition")
	a := p.parseAttribute(nil)
	p.attrAliases[name] = a
}

func (p *parser) parseTypeAliasDef() {
	pos := p.tok.start
	name := string(p.src[p.tok.start+1 : p.tok.end])
	if _, dup := p.typeAliases[name]; dup {
		p.fail(pos, "redefinition of type alias id '%s'", name)
	}
	if strings.Contains(name, ".") {
		p.fail(pos, "type names with a '.' are reserved for dialect-defined names")
	}
	p.advance()
	p.expect(tokEqual, " in type alias definition")
	p.typeAliases[name] = p.parseType()
}

func (p *parser) resolveDeferredLocs() {
	for _, d := range p.deferredLocs {
		a, ok := p.attrAliases[d.name]
		if !ok {
			p.fail(d.pos, "operation location alias was never defined")
		}
		l, ok := a.(ir.Location)
		if !ok {
			p.fail(d.pos, "expected location, but found '%s'", a.String())
		}
		if d.op != nil {
			d.op.SetLoc(l)
		} else {
			d.blk.SetArgumentLoc(d.arg, l)
		}
	}
}

// lineIndex maps byte offsets to 1-based lines and columns. Line starts
// are found lazily, as far as the largest offset asked about, so indexing
// never reads source the parser has not reached.
type lineIndex struct {
	src     []byte
	starts  []int32
	scanned int // starts covers every line that begins before scanned
	// last lookup, since positions mostly increase
	lastLine int
}

func newLineIndex(src []byte) *lineIndex {
	return &lineIndex{src: src, starts: []int32{0}}
}

// extend indexes the lines that start at or before pos.
func (li *lineIndex) extend(pos int) {
	for li.scanned <= pos && li.scanned < len(li.src) {
		chunk := li.src[li.scanned:min(len(li.src), li.scanned+64<<10)]
		off := 0
		for {
			i := bytes.IndexByte(chunk[off:], '\n')
			if i < 0 {
				break
			}
			off += i + 1
			li.starts = append(li.starts, int32(li.scanned+off))
		}
		li.scanned += len(chunk)
	}
}

// lineStart returns the offset where a 1-based line starts.
func (li *lineIndex) lineStart(line int) (int, bool) {
	for line > len(li.starts) && li.scanned < len(li.src) {
		li.extend(li.scanned)
	}
	if line < 1 || line > len(li.starts) {
		return 0, false
	}
	return int(li.starts[line-1]), true
}

// lineCol returns the 1-based line and column of pos.
func (li *lineIndex) lineCol(pos int) (int, int) {
	li.extend(pos)
	p32 := int32(pos)
	l := li.lastLine
	if l < len(li.starts) && li.starts[l] <= p32 && (l+1 == len(li.starts) || li.starts[l+1] > p32) {
		return l + 1, pos - int(li.starts[l]) + 1
	}
	if l+1 < len(li.starts) && li.starts[l+1] <= p32 && (l+2 == len(li.starts) || li.starts[l+2] > p32) {
		li.lastLine = l + 1
		return l + 2, pos - int(li.starts[l+1]) + 1
	}
	lo, hi := 0, len(li.starts)-1
	for lo < hi {
		m := (lo + hi + 1) / 2
		if li.starts[m] <= p32 {
			lo = m
		} else {
			hi = m - 1
		}
	}
	li.lastLine = lo
	return lo + 1, pos - int(li.starts[lo]) + 1
}

func (li *lineIndex) lineText(pos int) string {
	line, _ := li.lineCol(pos)
	start := int(li.starts[line-1])
	end := len(li.src)
	if i := bytes.IndexByte(li.src[start:], '\n'); i >= 0 {
		end = start + i
	}
	if end > start && li.src[end-1] == '\r' {
		end--
	}
	if end < start {
		end = start
	}
	return string(li.src[start:end])
}

// failExpected reports a token that is not what the grammar needs. Like
// MLIR, it points just after the previous token (skipping whitespace,
// blank lines and comments), since that is where something is missing.
func (p *parser) failExpected(format string, args ...any) {
	if p.tok.kind == tokError {
		p.fail(p.tok.start, "%s", p.tok.msg)
	}
	p.fail(p.wrongTokenPos(), format, args...)
}

func (p *parser) wrongTokenPos() int {
	pos := p.tok.start
	if p.tok.kind == tokEOF && pos > 0 {
		pos--
	}
	orig := pos
	end := pos
	for {
		for end > 0 && (p.src[end-1] == ' ' || p.src[end-1] == '\t') {
			end--
		}
		if end == 0 {
			return orig
		}
		if c := p.src[end-1]; c != '\n' && c != '\r' {
			return end
		}
		end--
		// If the previous line has a comment, back up before it.
		ls := end
		for ls > 0 && p.src[ls-1] != '\n' && p.src[ls-1] != '\r' {
			ls--
		}
		if i := indexComment(p.src[ls:end]); i >= 0 {
			end = ls + i
		}
	}
}

func indexComment(line []byte) int {
	for i := 0; i+1 < len(line); i++ {
		if line[i] == '/' && line[i+1] == '/' {
			return i
		}
	}
	return -1
}

// releaseEvery is how much source the parser reads between Release calls.
const releaseEvery = 8 << 20

func (p *parser) maybeRelease() {
	if p.opts.Release != nil && p.tok.start-p.released >= releaseEvery {
		p.released = p.tok.start
		p.opts.Release(p.released)
	}
}
